/* wal_floor.cpp: the floor carried to standbys in WAL. While the generators run more than a
 * second ahead of the server's clock, each reservation of the floor file is also written to WAL;
 * a promoted standby takes the newest one it replayed as part of its restart floor. */
#include "state.h"

extern "C" {
#include "access/rmgr.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "access/xlogrecovery.h"
#include "access/xlogutils.h"
#include "replication/message.h"
}

/*
 * Why: a promoted standby's copy of the floor file is as old as its base backup, so its restart
 * floor comes from the newest commit it replayed, plus a second (restart_floor.cpp). That covers
 * every ID the old primary committed as long as its generators ran at most a second ahead of its
 * clock (the commits carry its clock). After its clock stepped back they run ahead by up to the
 * step, and their commits' times no longer cover their IDs: the reservation in WAL does.
 *
 * A non-transactional logical message (prefix "idtypes.floor", the reservation's Unix
 * microseconds as text), written before the IDs it covers go out, so it precedes in WAL every
 * commit of them. Logical decoding shows it to consumers that ask for messages.
 */

namespace gen
{

namespace
{
constexpr char prefix[] = "idtypes.floor";

/* How much WAL before the end of recovery a promoted standby reads back for the newest message:
 * while the generators run ahead they write one every half second of their time. */
constexpr std::uint64_t wal_read_back_bytes = 256ull * 1024 * 1024;

/* The message of the record just read, if it is ours: its time, else -1 (18 digits at most:
 * every time an ID type holds has fewer). */
std::int64_t
message_time(XLogReaderState *reader)
{
	if (XLogRecGetRmid(reader) != RM_LOGICALMSG_ID ||
		(XLogRecGetInfo(reader) & ~XLR_INFO_MASK) != XLOG_LOGICAL_MESSAGE)
		return -1;
	const auto *m = reinterpret_cast<const xl_logical_message *>(XLogRecGetData(reader));
	if (m->transactional || m->prefix_size != sizeof(prefix) ||
		memcmp(m->message, prefix, sizeof(prefix)) != 0 || m->message_size == 0 ||
		m->message_size > 18)
		return -1;
	std::int64_t v = 0;
	for (Size i = 0; i < m->message_size; i++)
	{
		const char c = m->message[sizeof(prefix) + i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	return v;
}

/* The newest of our messages in [from, to), or 0. */
std::int64_t
newest_message(XLogReaderState *reader, XLogRecPtr from, XLogRecPtr to)
{
	std::int64_t newest = 0;
	if (XLogRecPtrIsInvalid(idt_xlog_find_next_record(reader, from)))
		return 0;
	for (;;)
	{
		char *error = nullptr;
		if (XLogReadRecord(reader, &error) == nullptr || reader->ReadRecPtr >= to)
			break;
		newest = Max(newest, message_time(reader));
	}
	return newest;
}
} /* namespace */

void
log_reservation(std::int64_t until_us)
{
	if (RecoveryInProgress() || !XLogIsNeeded())
		return;
	char buf[24];
	const int len = snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(until_us));
	(void) idt_log_logical_message(prefix, buf, static_cast<size_t>(len));
}

/*
 * The newest reservation in the WAL this server replayed before it left recovery, read back
 * from the end one segment at a time (the newest message is in the last segment that has one),
 * as far as wal_read_back_bytes and the WAL still on disk go; 0 when none is found. Failing to
 * read is no error: the message is a safeguard on top of the commits' times, reported as such.
 */
std::int64_t
replayed_reservation()
{
	const XLogRecPtr end = GetXLogReplayRecPtr(nullptr);
	if (XLogRecPtrIsInvalid(end) || RecoveryInProgress())
		return 0;
	ReadLocalXLogPageNoWaitPrivate page_state = {false};
	XLogReaderRoutine routine = {};
	routine.page_read = &read_local_xlog_page_no_wait;
	routine.segment_open = &wal_segment_open;
	routine.segment_close = &wal_segment_close;
	XLogReaderState *reader = XLogReaderAllocate(wal_segment_size, nullptr, &routine, &page_state);
	if (reader == nullptr)
		return 0;
	/* Set inside PG_TRY and read after it: volatile, as longjmp requires. */
	volatile std::int64_t newest = 0;
	const XLogSegNo oldest = XLogGetLastRemovedSegno() + 1;
	XLogSegNo seg;
	XLByteToPrevSeg(end, seg, wal_segment_size);
	const XLogSegNo segments =
		Max(static_cast<XLogSegNo>(1), wal_read_back_bytes / static_cast<std::uint64_t>(wal_segment_size));
	const MemoryContext context = CurrentMemoryContext;
	PG_TRY();
	{
		XLogSegNo at = seg;
		for (XLogSegNo n = 0; n < segments && at >= oldest && newest == 0; n++, at--)
		{
			XLogRecPtr from, to;
			XLogSegNoOffsetToRecPtr(at, 0, wal_segment_size, from);
			XLogSegNoOffsetToRecPtr(at + 1, 0, wal_segment_size, to);
			newest = newest_message(reader, from, Min(to, end));
			if (at == 0)
				break;
		}
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(context);
		ErrorData *e = CopyErrorData();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("could not read the generators' floor from the replayed WAL: %s", e->message),
				 errdetail("The restart floor is taken from the newest replayed commit alone.")));
		FreeErrorData(e);
	}
	PG_END_TRY();
	XLogReaderFree(reader);
	return newest;
}

} /* namespace gen */
