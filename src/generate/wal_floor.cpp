/* wal_floor.cpp: the floor carried by WAL redo. Where idtypes is preloaded it registers a WAL
 * resource manager of its own; each reservation of the floor file is first written to WAL as one
 * of its records, and the redo of that record (on every standby, and in crash recovery) raises the
 * redoing server's floor file to it. */
#include "state.h"

extern "C" {
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "access/xlogrecovery.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
}

/*
 * Why: a standby's copy of the floor file is as old as its base backup. With the reservation in
 * WAL ahead of the IDs it covers, the redo keeps the standby's file as new as the WAL it replayed:
 * after a promotion, and after any number of restarts before or after it, the restart floor
 * covers every ID whose reservation reached the standby, however the old primary's clock moved.
 * Each record is flushed when written, so it reaches the standbys before the IDs it covers are
 * returned, whether or not a commit follows; it precedes in WAL every commit that can contain one
 * of them (reserve_covering publishes the reservation only after it).
 *
 * The resource manager's id, 150, is in the custom range (128-255). A server whose WAL holds its
 * records needs the library preloaded to replay them: every standby of a preloaded primary, and
 * the primary itself until a checkpoint has passed its last record (docs/operations.md).
 */

namespace gen
{

namespace
{

constexpr RmgrId floor_rmgr_id = 150;
constexpr uint8 xlog_floor_reservation = 0x00;

bool registered = false;

/* The record: the reservation's Unix microseconds. */
struct xl_floor_reservation
{
	std::int64_t until_us;
};

void
floor_redo(XLogReaderState *record)
{
	const uint8 info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	if (info != xlog_floor_reservation || XLogRecGetDataLen(record) != sizeof(xl_floor_reservation))
		elog(PANIC, "idtypes floor redo: unknown record (info 0x%02x, %u bytes)", info,
			 static_cast<unsigned>(XLogRecGetDataLen(record)));
	xl_floor_reservation rec;
	memcpy(&rec, XLogRecGetData(record), sizeof(rec));
	raise_reservation(rec.until_us);
}

void
floor_desc(StringInfo buf, XLogReaderState *record)
{
	if (XLogRecGetDataLen(record) != sizeof(xl_floor_reservation))
		return;
	xl_floor_reservation rec;
	memcpy(&rec, XLogRecGetData(record), sizeof(rec));
	appendStringInfo(buf, "until %lld us", static_cast<long long>(rec.until_us));
}

/* The end of redo (crash or archive recovery, a standby's promotion): the floor file covers the
 * newest commit archive recovery replayed, and says that redo kept it (timeline 0), so that a
 * restart before the generators run finds it so. */
void
floor_cleanup()
{
	const TimestampTz latest = GetLatestXTime();
	raise_reservation(latest > 0 ? add_sat(add_sat(latest, glue::unix_to_pg_us), tid_max_ahead_us)
								 : 0);
}

const char *
floor_identify(uint8 info)
{
	return (info & ~XLR_INFO_MASK) == xlog_floor_reservation ? "RESERVATION" : nullptr;
}

RmgrData floor_rmgr;

} /* namespace */

void
register_floor_rmgr()
{
	floor_rmgr.rm_name = "idtypes";
	floor_rmgr.rm_redo = floor_redo;
	floor_rmgr.rm_desc = floor_desc;
	floor_rmgr.rm_identify = floor_identify;
	floor_rmgr.rm_cleanup = floor_cleanup;
	RegisterCustomRmgr(floor_rmgr_id, &floor_rmgr);
	registered = true;
}

bool
floor_redo_registered()
{
	return registered;
}

void
log_reservation(std::int64_t until_us)
{
	if (!registered || !XLogIsNeeded())
		return;
	xl_floor_reservation rec = {until_us};
	XLogBeginInsert();
	XLogRegisterData(reinterpret_cast<char *>(&rec), sizeof(rec));
	XLogFlush(XLogInsert(floor_rmgr_id, xlog_floor_reservation));
}

} /* namespace gen */
