/* restart_floor.cpp: the restart floor, the time before which no monotonic generator hands out
 * an ID after a crash, a restart, a promotion or (per-backend state) a new backend in a slot. */
#include "state.h"

extern "C" {
#include "miscadmin.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/pg_control.h"
#include "common/controldata_utils.h"
#include "storage/lwlock.h"
#include "utils/timestamp.h"
}

namespace gen
{

namespace
{

/* A floor further than this after the clock is reported: either the clock is that far behind
 * the IDs already made, or the floor file is wrong. */
constexpr std::int64_t far_ahead_us = 3600 * std::int64_t{1000000};

/* Up to a whole millisecond: the IDs' unit (TID's is a us). An ID made in the floor's own ms,
 * before it, has that ms, so time after the floor starts at the next whole ms. */
std::int64_t
round_up_ms(std::int64_t us)
{
	return add_sat(us, 999) / 1000 * 1000;
}

/* The newest checkpoint's time, read as core's pg_control_checkpoint() reads it; 0 if unreadable. */
std::int64_t
checkpoint_time_us()
{
	bool crc_ok = false;
	LWLockAcquire(ControlFileLock, LW_SHARED);
	ControlFileData *control = get_controlfile(DataDir, &crc_ok);
	LWLockRelease(ControlFileLock);
	std::int64_t us = 0;
	if (crc_ok && control->checkPointCopy.time > 0 &&
		__builtin_mul_overflow(static_cast<std::int64_t>(control->checkPointCopy.time), 1000000,
							   &us))
		us = INT64_MAX;
	pfree(control);
	return us;
}

/*
 * The restart floor of a state of this life: the latest of
 *  - the floor file's reservation, written by an earlier life: every ID it made was before it
 *    (after a crash the file is the only witness: recovery replays commit records but, outside
 *    archive recovery, keeps none of their times). Where idtypes is preloaded, WAL redo keeps a
 *    standby's file as new as the reservations it replayed (wal_floor.cpp);
 *  - the newest commit (or abort) that archive recovery replayed in this life, GetLatestXTime(),
 *    plus the most a generator runs ahead of its clock (TID): on a promoted standby every ID
 *    committed on the old primary and replayed here was made before its commit's time;
 *  - the last checkpoint's next second, when the clock is behind it (a checkpoint's time is in
 *    the past of a clock that did not go back): after a clean shutdown without the file (its
 *    first run with this library, or a damaged file), every ID was made before the shutdown
 *    checkpoint's second.
 * The file says which WAL timeline wrote it. Where it is not this server's (or missing, on a server
 * whose timeline is not the first) and WAL redo did not keep it (0), the server left recovery on a
 * new timeline (a promotion, or recovery to a point in time) without idtypes preloaded: nothing
 * here knows what the old timeline's generators made, so they refuse until an
 * operator accepts this timeline (idtypes.accept_timeline); the first reservation then records it.
 */
namespace
{
void
check_timeline(const floor_record &held, std::int64_t timeline)
{
	const TimeLineID now = GetWALInsertionTimeLine();
	/* A file with a reservation but no timeline record: written before 1.2, taken as kept. One
	 * made but never reserved in (on a standby, say): as none. */
	const bool recorded = held.kind == floor_record::ok && (timeline >= 0 || held.until_us > 0);
	const bool kept =
		recorded ? timeline <= 0 || timeline == now
				 : held.kind == floor_record::damaged || now == 1 || floor_redo_registered();
	if (kept || accept_timeline_setting == static_cast<int>(now))
		return;
	ereport(
		ERROR,
		(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		 errmsg("the generators' floor is not known on timeline %u", now),
		 recorded
			 ? errdetail("The floor file \"%s\" was written on timeline %lld: this server left "
						 "recovery on a new timeline since, without idtypes preloaded to "
						 "replay the floor from WAL.",
						 floor_file, static_cast<long long>(timeline))
			 : errdetail("The floor file \"%s\" holds no reservation, and this server left "
						 "recovery on a new timeline, without idtypes preloaded to replay the "
						 "floor from WAL.",
						 floor_file),
		 errhint("Preload idtypes (shared_preload_libraries) on the primary and its standbys. To "
				 "go on here once the clock is past every ID the old timeline made, set "
				 "idtypes.accept_timeline = %u and reload.",
				 now)));
}
} /* namespace */

std::int64_t
restart_floor_us(std::int64_t wall_us, std::uint64_t life)
{
	std::int64_t floor = 0;
	std::int64_t timeline = -1;
	const floor_record held = floor_reservation(&timeline);
	if (held.kind == floor_record::damaged)
		report_damaged(
			held, "the reservation",
			"The restart floor is taken from the last checkpoint and the newest replayed "
			"commit alone; the file is written anew at the next reservation.");
	else if (held.kind == floor_record::ok && held.second != life)
		floor = held.until_us;
	check_timeline(held, timeline);
	const TimestampTz latest = GetLatestXTime();
	if (latest > 0)
		floor = Max(floor, add_sat(add_sat(latest, glue::unix_to_pg_us), tid_max_ahead_us));
	const std::int64_t checkpoint_us = checkpoint_time_us();
	if (wall_us < checkpoint_us)
		floor = Max(floor, add_sat(checkpoint_us, 1000000 + tid_max_ahead_us));
	return floor;
}

/* The hint of a floor far ahead of the clock (errhint, inside ereport). */
int
reset_hint()
{
	return errhint("If the clock is right and the floor file \"%s\" wrong, reset the floor as the "
				   "idtypes operations guide says.",
				   floor_file);
}

/* The floor's time as text, in the session's time zone. */
const char *
time_text(std::int64_t unix_us)
{
	return timestamptz_to_str(unix_us - glue::unix_to_pg_us);
}

} /* namespace */

/*
 * Apply the restart floor to the active state once per server life (cluster scope) or backend
 * (backend scope). Computed outside the lock (it reads files), applied under it. A backend with
 * its own state also goes on after every ID of the earlier backends of its slot (claim_slot):
 * they shared its slot's bits. (Generators do not run during recovery: refuse_during_recovery.)
 */
void
apply_restart_floor()
{
	gen_state &s = active_state();
	/* The life: drawn once per shared state, the server's start for a backend's own. */
	std::uint64_t life = s.life;
	if (life == 0)
		life = shared_scope() ? (random64() | 1) : static_cast<std::uint64_t>(PgStartTime) | 1;
	const std::int64_t wall = now_unix_us();
	std::int64_t floor = restart_floor_us(wall, life);
	slot_floor slot = {0, 0};
	if (!shared_scope())
	{
		slot = claim_slot();
		floor = Max(floor, slot.until_us);
	}
	floor = round_up_ms(floor);
	if (floor > add_sat(wall, far_ahead_us))
		ereport(WARNING,
				(errmsg("the server's clock is %lld s behind the generators' restart floor",
						static_cast<long long>((floor - wall) / 1000000)),
				 errdetail("The monotonic generators hand out times from %s on, as IDs made "
						   "earlier may have reached it.",
						   time_text(floor)),
				 reset_hint()));
	const std::int64_t mono = mono_us();
	lock_state();
	if (s.life == 0)
		s.life = life;
	/* The slot's last TID, as if this backend had made it: its TIDs go on after it. */
	if (slot.tid_until_us > 0 && !s.tid.have)
	{
		s.tid.value = idt::timeid_pack(static_cast<std::uint64_t>(slot.tid_until_us - 1), 0);
		s.tid.have = true;
	}
	if (!s.floor_set)
	{
		idt::steady_floor(s.clock, floor, mono);
		s.floor_set = true;
	}
	unlock_state();
}

void
report_time_out_of_range(const char *type_name, std::int64_t time_us)
{
	const std::int64_t wall = now_unix_us();
	if (time_us > add_sat(wall, far_ahead_us))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("the current time is outside the range of type %s", type_name),
				 errdetail("The generators' time is %s, %lld s after the server's clock: they "
						   "never go back before their restart floor.",
						   time_text(time_us), static_cast<long long>((time_us - wall) / 1000000)),
				 reset_hint()));
	ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					errmsg("the current time is outside the range of type %s", type_name)));
}

} /* namespace gen */
