/* generate.cpp: the ID generators: clock, random source, monotonic state (per backend or shared). */
#include <cstdlib>
#include <ctime>

#include <sys/file.h>
#include <unistd.h>

#include "idtypes/chacha.hpp"

#include "glue.h"

extern "C" {
#include "miscadmin.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/pg_control.h"
#include "common/controldata_utils.h"
#include "storage/latch.h"
#include "port/pg_bitutils.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"
#if IDT_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif
}

namespace
{

/* ---- settings ---------------------------------------------------------------------------- */

enum overflow_policy
{
	OVERFLOW_WAIT,
	OVERFLOW_ERROR
};

const struct config_enum_entry overflow_options[] = {
	{"wait", OVERFLOW_WAIT, false}, {"error", OVERFLOW_ERROR, false}, {nullptr, 0, false}};

int on_overflow = OVERFLOW_WAIT;
int tid_clock_id_setting = -1; /* -1: not set */
/*
 * Tests only: 0 (default) leaves the counters alone; N > 0 keeps at most N counter bits in the
 * xid and ulidflake fields (the bits above them zero), so a time unit overflows after a few IDs
 * on any server and under any scope, and idtypes.on_overflow can be tested everywhere.
 */
int test_counter_bits = 0;

/* ---- monotonic state --------------------------------------------------------------------- */

/* The last ID of a monotonic generator, if any. Plain data: it lives in shared memory too. */
template <class V>
struct last_id
{
	V value;
	bool have;
};

/*
 * EUID's last ID per extension, for a few extensions at a time (direct-mapped by extension; -1
 * for none): a call with another extension than the last call's in the same ms goes on from its
 * own extension's last ID instead of having to sort after the other extension's (which, half the
 * time, is a wait for the next ms). Order is per extension; the extension bits keep IDs of
 * different extensions apart.
 */
constexpr int euid_slots = 16;
/* An extension not in its slot (never seen, or pushed out by another) goes on from the largest
 * ID pushed out of any slot, which sorts after every ID of it that this state made. */
struct euid_slot
{
	int extension;
	last_id<idt::u128> last;
};

struct gen_state
{
	last_id<std::uint64_t> xid;
	last_id<std::uint64_t> tid;
	last_id<std::uint64_t> ulidflake;
	last_id<idt::u128> ulid;
	last_id<idt::u128> euid; /* the largest EUID pushed out of euid_by_extension */
	euid_slot euid_by_extension[euid_slots];
	idt::steady_clock clock;  /* the time the steps see: never back, never before the floor */
	std::int64_t reserved_us; /* the floor file holds at least this (reserve_until) */
	std::uint64_t life;       /* this state's life in the floor file (state_life) */
	bool floor_set;           /* the restart floor was applied (restart_floor_us) */
	bool floor_in_recovery;   /* ... while the server was still in recovery */
};

/* Remember a step's ID as the last one (and hand it out) when the step succeeded. */
template <class V, class G>
idt::gen_status
keep(last_id<V> &last, const G &g, V &out)
{
	if (g.status == idt::gen_status::ok)
	{
		last.value = out = g.value;
		last.have = true;
	}
	return g.status;
}

struct shared_gen_state
{
	slock_t mutex; /* held only around a pure core step: no allocation, no error */
	gen_state state;
};

gen_state local_state;
/* The cluster-wide state: in the main shared memory when preloaded, else (17+) a DSM segment. */
shared_gen_state *shared = nullptr;

shmem_startup_hook_type prev_shmem_startup_hook = nullptr;
shmem_request_hook_type prev_shmem_request_hook = nullptr;

void
shmem_request()
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(sizeof(shared_gen_state));
}

constexpr const char *shared_state_name = "idtypes generator state";

void
shared_state_init(void *p)
{
	auto *s = static_cast<shared_gen_state *>(p);
	memset(s, 0, sizeof(shared_gen_state));
	SpinLockInit(&s->mutex);
}

void
shmem_startup()
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	bool found;
	shared = static_cast<shared_gen_state *>(
		ShmemInitStruct(shared_state_name, sizeof(shared_gen_state), &found));
	if (!found)
		shared_state_init(shared);
	LWLockRelease(AddinShmemInitLock);
}

/*
 * Attach to the cluster-wide state if this server can have it without preload (17+: the DSM
 * registry, created by the first backend that asks and found by every later one). Called by every
 * generator before it looks at its scope, so all backends of a 17+ cluster share one state.
 */
void
attach_shared_state()
{
#if IDT_HAVE_DSM_REGISTRY
	if (shared == nullptr)
	{
		bool found;
		shared = static_cast<shared_gen_state *>(idt_get_named_dsm_segment(
			shared_state_name, sizeof(shared_gen_state), shared_state_init, &found));
	}
#endif
}

/* ---- fixed top bits of the narrow counter fields: node id, backend slot ------------------ */

/*
 * idtypes.node_id (0..31; -1 when not set) makes the IDs of nodes with different node ids
 * disjoint: the top node_id_bits of the xid and ulidflake counter fields hold it, and the top
 * bits of TID's clock id (see tid_default_clock_id). ulid and euid keep their 80/64 random bits.
 */
int node_id_setting = -1;
constexpr unsigned node_id_bits = 5;

/*
 * Without shared state each backend steps on its own, so two backends could draw the same
 * xid or ulidflake in the same millisecond. The top bits of their counter fields (below the node
 * id, if any) hold the backend's slot, unique among live backends, which makes that impossible;
 * the counter keeps the rest. With shared state one sequence serves the cluster (the node) and no
 * bits are given up for backends.
 */
unsigned
slot_bits()
{
	attach_shared_state();
	if (shared != nullptr)
		return 0;
	return MaxBackends > 1 ? pg_ceil_log2_32(static_cast<uint32>(MaxBackends)) : 0;
}

std::uint64_t
slot_value(unsigned bits)
{
	return bits == 0 ? 0 : static_cast<std::uint64_t>(IDT_BACKEND_SLOT()) & ((1ull << bits) - 1);
}

struct partition
{
	unsigned bits;		  /* fixed top bits of the counter field */
	std::uint64_t value; /* their value: node id, then slot */
};

partition
shrink_for_tests(partition p, unsigned counter_bits)
{
	const unsigned keep = static_cast<unsigned>(test_counter_bits);
	if (keep == 0 || counter_bits - p.bits <= keep)
		return p;
	const unsigned extra = counter_bits - p.bits - keep;
	return {p.bits + extra, p.value << extra};
}

/*
 * Tests only (idtypes.test_counter_bits = k > 0), the 128-bit kinds' counterpart: the random words
 * of a fresh generate_ulid_monotonic() (r[0]: the 16 high random bits, r[1]: the 64 low) or
 * generate_euid() (r[1]: its 64 random bits, whose high 32 count within a ms) leave room for at
 * most 2^k IDs in their millisecond, so that their overflow can be tested through the server.
 */
void
shrink_random_for_tests(bool euid, std::uint64_t *r)
{
	const unsigned k = static_cast<unsigned>(test_counter_bits);
	if (k == 0)
		return;
	const std::uint64_t mask = (1ull << k) - 1;
	if (euid)
	{
		const std::uint64_t hi32 = (0xFFFFFFFFull & ~mask) | ((r[1] >> 32) & mask);
		r[1] = (hi32 << 32) | (r[1] & 0xFFFFFFFFull);
	}
	else
	{
		r[0] = 0xFFFF;
		r[1] = ~mask | (r[1] & mask);
	}
}

partition
field_partition_unshrunk(unsigned counter_bits, const char *type_name)
{
	unsigned sbits = slot_bits();
	if (node_id_setting < 0)
	{
		if (sbits >= counter_bits)
			sbits = counter_bits - 1;
		return {sbits, slot_value(sbits)};
	}
	if (node_id_bits + sbits >= counter_bits)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("idtypes.node_id leaves no counter bits for type %s with per-backend "
						"generator state",
						type_name),
				 errdetail("The node id takes %u bits and the backend slot %u of its %u-bit field.",
						   node_id_bits, sbits, counter_bits),
				 errhint("Add idtypes to shared_preload_libraries, or use PostgreSQL 17 or later, "
						 "so that the generator state is shared.")));
	return {node_id_bits + sbits,
			(static_cast<std::uint64_t>(node_id_setting) << sbits) | slot_value(sbits)};
}

partition
field_partition(unsigned counter_bits, const char *type_name)
{
	return shrink_for_tests(field_partition_unshrunk(counter_bits, type_name), counter_bits);
}

/* ---- clock and randomness ---------------------------------------------------------------- */

std::int64_t
now_unix_us()
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

std::int64_t
mono_us()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

/* How far TID may run ahead of its clock (more than one ID per microsecond) before it waits:
 * a million TIDs in one go (about 0.1 s) run unthrottled; more, at one a microsecond. */
constexpr std::int64_t tid_max_ahead_us = 1000000;

/*
 * The floor file: a time no monotonic generator of this data directory has reached, written and
 * synced before any ID at or after it is handed out (a reservation of reserve_window_us at a
 * time: one small synced write a second at most). After a crash it is the restart floor:
 * recovery replays commit records but, outside archive recovery, keeps none of their times.
 * In the data directory, so a copy of it (a base backup) is as stale as the copy: a promoted
 * standby takes its floor from the commits it replayed instead.
 */
constexpr const char *floor_file = "idtypes_generator.floor";
constexpr std::int64_t reserve_window_us = 500000;

/*
 * The file holds "<time> <life>\n": the reservation, and the life of the state that made it, a
 * number drawn when the shared state is set up (after every start and every crash restart) or,
 * for per-backend state, the server's start time. A reservation of the same life is no floor:
 * the state itself keeps the order within its life, and a backend started a moment after another
 * reserved must not be pushed ahead of its clock.
 */
struct floor_record
{
	std::int64_t until_us;
	std::uint64_t life;
};

floor_record
read_floor_file(int fd)
{
	char buf[64];
	const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return {0, 0};
	buf[n] = '\0';
	char *end, *end2;
	const long long t = strtoll(buf, &end, 10);
	const unsigned long long life = strtoull(end, &end2, 10);
	if (end == buf || end2 == end || *end2 != '\n' || t <= 0)
		return {0, 0};
	return {static_cast<std::int64_t>(t), static_cast<std::uint64_t>(life)};
}

/* Make the floor file hold at least need_us for this life: as it is if it does (a reservation of
 * another backend of this life), else raised to want_us and synced. Returns what it holds then. */
std::int64_t
reserve_until(std::int64_t need_us, std::int64_t want_us, std::uint64_t life)
{
	const bool existed = access(floor_file, F_OK) == 0;
	const int fd = OpenTransientFile(floor_file, O_RDWR | O_CREAT | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not open file \"%s\": %m", floor_file)));
	/* Backends with a state of their own (15-16 without preload) share the file: one at a time.
	 * An error closes the file at transaction abort, which drops the lock. */
	if (flock(fd, LOCK_EX) != 0)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not lock file \"%s\": %m", floor_file)));
	const floor_record held = read_floor_file(fd);
	std::int64_t result = held.until_us;
	if (held.until_us < need_us || held.life != life)
	{
		result = Max(held.until_us, want_us);
		char buf[64];
		const int len =
			snprintf(buf, sizeof(buf), "%020lld %020llu\n", static_cast<long long>(result),
					 static_cast<unsigned long long>(life));
		errno = 0;
		if (pwrite(fd, buf, len, 0) != len)
		{
			if (errno == 0)
				errno = ENOSPC;
			ereport(ERROR, (errcode_for_file_access(),
							errmsg("could not write file \"%s\": %m", floor_file)));
		}
		if (pg_fdatasync(fd) != 0)
			ereport(
				data_sync_elevel(ERROR),
				(errcode_for_file_access(), errmsg("could not fsync file \"%s\": %m", floor_file)));
	}
	(void) flock(fd, LOCK_UN);
	CloseTransientFile(fd);
	if (!existed)
		fsync_fname(".", true); /* the new file's directory entry */
	return result;
}

/* The floor file's time if another life wrote it, else 0. */
std::int64_t
floor_file_time(std::uint64_t life)
{
	const int fd = OpenTransientFile(floor_file, O_RDONLY | PG_BINARY);
	if (fd < 0)
		return 0;
	const floor_record held = read_floor_file(fd);
	CloseTransientFile(fd);
	return held.life == life ? 0 : held.until_us;
}

/*
 * The restart floor: no monotonic generator hands out a time before it, so that no ID committed
 * before a crash, a restart or a failover is made again when the clock is behind after it (a VM
 * restored, a hardware clock wrong until NTP steps it). The latest of:
 *  - the floor file (above), written by an earlier life: every ID it made was before it;
 *  - the newest commit (or abort) that archive recovery replayed, GetLatestXTime(), plus the most
 *    a generator runs ahead of its clock (TID): on a promoted standby every ID committed on the
 *    old primary and replayed here was made before its commit's time;
 *  - the last checkpoint's next second, when the clock is behind it (a checkpoint's time is in
 *    the past of a clock that did not go back): after a clean shutdown without the file (its
 *    first run with this library), every ID was made before the shutdown checkpoint's second;
 * rounded up to a whole millisecond.
 */
std::int64_t
restart_floor_us(std::int64_t wall_us, std::uint64_t life)
{
	std::int64_t floor = floor_file_time(life);
	const TimestampTz latest = GetLatestXTime();
	if (latest != 0)
		floor = Max(floor, latest + glue::unix_to_pg_us + tid_max_ahead_us);
	bool crc_ok = false;
	ControlFileData *control = get_controlfile(DataDir, &crc_ok);
	if (crc_ok)
	{
		const std::int64_t checkpoint_us =
			static_cast<std::int64_t>(control->checkPointCopy.time) * 1000000;
		if (wall_us < checkpoint_us)
			floor = Max(floor, checkpoint_us + 1000000 + tid_max_ahead_us);
	}
	pfree(control);
	/* The IDs' unit is a whole ms (TID's a us): an ID made in the floor's own ms, before it, has
	 * that ms, so time after the restart starts at the next whole ms. (A reservation can end
	 * inside the ms of the last IDs: an ID before its end asks for no new one.) */
	return (floor + 999) / 1000 * 1000;
}

/*
 * Wait on an overflow, in the wait event IdtypesGeneratorOverflow (Extension on 15 and 16) that
 * pg_stat_activity shows. The first wait of a call sleeps to the next millisecond of the wall
 * clock (most overflows are a burst that filled one ms; a latch wait sleeps whole ms and more);
 * later ones wait on the latch, waking on an interrupt and ending with the postmaster, 2^n ms at a
 * time, at most 16: a clock that stays behind (TID's run-ahead bound) costs a wakeup every 16 ms,
 * not a spinning core.
 */
void
overflow_wait(int attempt)
{
#if IDT_HAVE_CUSTOM_WAIT_EVENTS
	static uint32 wait_event = 0;
	if (wait_event == 0)
		wait_event = WaitEventExtensionNew("IdtypesGeneratorOverflow");
#else
	const uint32 wait_event = PG_WAIT_EXTENSION;
#endif
	if (attempt == 0)
	{
		const std::int64_t now = now_unix_us();
		const std::int64_t to_next_ms = 1000 - (now % 1000 + 1000) % 1000;
		pgstat_report_wait_start(wait_event);
		pg_usleep(static_cast<long>(to_next_ms) + 20);
		pgstat_report_wait_end();
	}
	else
	{
		const long timeout_ms = 1L << Min(attempt - 1, 4);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, timeout_ms,
						 wait_event);
		ResetLatch(MyLatch);
	}
	CHECK_FOR_INTERRUPTS();
}

std::int64_t
floor_div(std::int64_t a, std::int64_t b)
{
	return a / b - (a % b != 0 && a < 0);
}

/*
 * Random bits: a per-process ChaCha20 stream (core/chacha.cpp), keyed from pg_strong_random()
 * on first use, stirred with 32 fresh strong bytes after every rekey_after bytes of output, and
 * keyed anew in a process whose pid is not the one that keyed it, so that no two processes
 * (a forked child, a parallel worker) ever share a stream. MyProcPid is that pid, set by every
 * process at its start (getpid() would be a system call on every draw). pg_strong_random() is
 * a system call; this is a few nanoseconds a draw.
 */
idt::chacha_rng rng;
int rng_pid = 0;
std::size_t rng_left = 0; /* bytes before the next stir */
constexpr std::size_t rekey_after = 1 << 20;

void
strong_bytes(unsigned char *out, std::size_t n)
{
	if (!pg_strong_random(out, n))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
}

std::uint64_t
random64()
{
	if (rng_left < 8 || rng_pid != MyProcPid)
	{
		unsigned char fresh[32];
		strong_bytes(fresh, sizeof(fresh));
		if (rng_pid != MyProcPid)
			idt::chacha_rng_seed(rng, fresh);
		else
			idt::chacha_rng_stir(rng, fresh);
		memset(fresh, 0, sizeof(fresh));
		rng_pid = MyProcPid;
		rng_left = rekey_after;
	}
	rng_left -= 8;
	return idt::chacha_rng_next64(rng);
}

/* ---- the generation loop ----------------------------------------------------------------- */

/* The state generators step: the cluster's (under its spinlock) or this backend's. */
gen_state &
active_state()
{
	return shared != nullptr ? shared->state : local_state;
}

/* Around a pure step or a few assignments: no allocation, no error in between. */
void
lock_state()
{
	if (shared != nullptr)
		SpinLockAcquire(&shared->mutex);
}

void
unlock_state()
{
	if (shared != nullptr)
		SpinLockRelease(&shared->mutex);
}

/*
 * Apply the restart floor to the active state once per server life (cluster scope) or backend
 * (backend scope), and again after a promotion if it was taken during recovery. Computed outside
 * the lock (it reads pg_control), applied under it.
 */
void
apply_restart_floor()
{
	gen_state &s = active_state();
	const bool in_recovery = RecoveryInProgress();
	if (s.floor_set && in_recovery)
		return;
	/* The life: drawn once per shared state, the server's start for a backend's own. */
	std::uint64_t life = s.life;
	if (life == 0)
		life = shared != nullptr ? (random64() | 1) : static_cast<std::uint64_t>(PgStartTime) | 1;
	const std::int64_t floor = restart_floor_us(now_unix_us(), life);
	const std::int64_t mono = mono_us();
	lock_state();
	if (s.life == 0)
		s.life = life;
	if (!s.floor_set || (s.floor_in_recovery && !in_recovery))
	{
		idt::steady_floor(s.clock, floor, mono);
		s.floor_set = true;
		s.floor_in_recovery = in_recovery;
	}
	unlock_state();
}

/*
 * Run one core step under the active scope until it yields an ID. step(state, now_us, r, id_us)
 * returns a gen_status and stores the ID into the state itself; now_us is the state's steady
 * clock (the wall clock, never back, never before the restart floor); the step sets id_us to its
 * ID's time (TID's may be ahead of now_us), which the floor file must hold before the ID goes out;
 * r holds the NRandom random words the format needs, drawn before the lock is taken (a draw may
 * raise an error). On overflow the policy says wait (sleep to about the next clock unit) or error.
 */
template <int NRandom, class Step>
void
generate(const char *type_name, Step step)
{
	attach_shared_state();
	gen_state &s = active_state();
	/* A stale read of the flags (outside the lock) only makes this compute the floor again. */
	if (!s.floor_set || s.floor_in_recovery)
		apply_restart_floor();
	for (int attempt = 0;; attempt++)
	{
		const std::int64_t wall = now_unix_us();
		std::uint64_t r[NRandom > 0 ? NRandom : 1] = {0};
		for (int i = 0; i < NRandom; i++)
			r[i] = random64();
		std::int64_t id_us = 0;
		lock_state();
		/* clock_gettime() is a vDSO call: no system call, no error, fine under a spinlock. */
		const std::int64_t mono = idt::steady_needs_mono(s.clock, wall) ? mono_us() : 0;
		const idt::gen_status status = step(s, idt::steady_now(s.clock, wall, mono), r, id_us);
		/* An ID at or after the floor file's time goes out only once the file holds more. */
		const bool reserve = status == idt::gen_status::ok && id_us >= s.reserved_us;
		const std::uint64_t life = s.life;
		unlock_state();
		if (reserve)
		{
			const std::int64_t held = reserve_until(id_us + 1, id_us + reserve_window_us, life);
			lock_state();
			s.reserved_us = Max(s.reserved_us, held);
			unlock_state();
		}

		if (status == idt::gen_status::ok)
			return;
		if (status == idt::gen_status::time_out_of_range)
			ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							errmsg("the current time is outside the range of type %s", type_name)));
		if (on_overflow == OVERFLOW_ERROR)
			ereport(
				ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s generator overflow: no larger ID is left in this time unit", type_name),
					 errhint("Set idtypes.on_overflow = 'wait' to wait for the next time unit.")));
		overflow_wait(attempt);
	}
}

/* ---- arguments --------------------------------------------------------------------------- */

int
checked_arg(FunctionCallInfo fcinfo, int n, const char *what, int max)
{
	const int32 v = PG_GETARG_INT32(n);
	if (v < 0 || v > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s %d is out of range", what, v),
						errdetail("The %s must be between 0 and %d.", what, max)));
	return v;
}

/* Unix microseconds of a timestamptz argument, or an error naming the type's era. */
std::int64_t
arg_unix_us(FunctionCallInfo fcinfo, int n, const char *type_name, std::int64_t lo_us,
			std::int64_t hi_us)
{
	const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(n);
	std::int64_t us;
	if (TIMESTAMP_NOT_FINITE(ts) || __builtin_add_overflow(ts, glue::unix_to_pg_us, &us) ||
		us < lo_us || us > hi_us)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						errmsg("timestamp out of range for type %s", type_name),
						errdetail("A %s holds times from %s to %s.", type_name,
								  /* copies: timestamptz_to_str reuses one static buffer */
								  pstrdup(timestamptz_to_str(lo_us - glue::unix_to_pg_us)),
								  pstrdup(timestamptz_to_str(hi_us - glue::unix_to_pg_us)))));
	return us;
}

constexpr std::int64_t ms = 1000;

/* The ms since epoch_ms of a timestamptz argument, which must lie in [epoch, epoch + max_ms]. */
std::uint64_t
arg_ms_since(FunctionCallInfo fcinfo, int n, const char *type_name, std::int64_t epoch_ms,
			 std::uint64_t max_ms)
{
	const std::int64_t lo = epoch_ms * ms;
	const std::int64_t hi = (epoch_ms + static_cast<std::int64_t>(max_ms)) * ms + (ms - 1);
	const std::int64_t t = floor_div(arg_unix_us(fcinfo, n, type_name, lo, hi), ms);
	return static_cast<std::uint64_t>(t - epoch_ms);
}

/* TID clock id: the argument, else the setting, else a default (see tid_default_clock_id). */
unsigned
tid_default_clock_id()
{
	constexpr unsigned clock_id_bits = 10;
	if (tid_clock_id_setting >= 0)
	{
		/* A database's or a user's setting must not undo the node partitioning of the server's. */
		if (node_id_setting >= 0 &&
			(tid_clock_id_setting >> (clock_id_bits - node_id_bits)) != node_id_setting)
			ereport(
				ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("idtypes.tid_clock_id %d does not carry idtypes.node_id %d",
						tid_clock_id_setting, node_id_setting),
				 errdetail("With idtypes.node_id set, the top %u bits of a TID clock id are the "
						   "node id: clock ids %d to %d.",
						   node_id_bits, node_id_setting << (clock_id_bits - node_id_bits),
						   ((node_id_setting + 1) << (clock_id_bits - node_id_bits)) - 1),
				 errhint("Reset idtypes.tid_clock_id, or set it within that range.")));
		return static_cast<unsigned>(tid_clock_id_setting);
	}
	const unsigned sbits = slot_bits();
	/*
	 * With shared state the micros never repeat in the cluster, so a best-effort id (0..31)
	 * derived from the cluster's system identifier serves, or the node id in the top 5 bits when
	 * idtypes.node_id is set. Without it, two backends can hit the same microsecond: the backend's
	 * slot, unique among live backends, is then the clock id (the spec's "context-dependent"
	 * use), below the node id if one is set, so their IDs cannot collide.
	 */
	if (node_id_setting >= 0)
	{
		constexpr unsigned low_bits = clock_id_bits - node_id_bits;
		if (sbits > low_bits)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("idtypes.node_id leaves too few clock id bits for type timeid with "
							"per-backend generator state"),
					 errdetail("The node id takes %u of the clock id's %u bits; the backend slot "
							   "needs %u more.",
							   node_id_bits, clock_id_bits, sbits),
					 errhint("Add idtypes to shared_preload_libraries, or use PostgreSQL 17 or "
							 "later, so that the generator state is shared.")));
		return (static_cast<unsigned>(node_id_setting) << low_bits) |
			   static_cast<unsigned>(slot_value(sbits));
	}
	if (sbits == 0)
		return static_cast<unsigned>(GetSystemIdentifier() % 32);
	if (sbits > clock_id_bits)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("too many backends for a distinct TID clock id each with per-backend "
						"generator state"),
				 errdetail("The backend slot needs %u bits; a TID clock id has %u.", sbits,
						   clock_id_bits),
				 errhint("Pass a clock id to generate_tid(), add idtypes to "
						 "shared_preload_libraries, or use PostgreSQL 17 or later.")));
	return static_cast<unsigned>(slot_value(sbits));
}

Datum
xid_generate()
{
	const partition p = field_partition(idt::xid_random_bits, "uid11");
	const unsigned pbits = p.bits;
	const std::uint64_t part = p.value;
	std::uint64_t out = 0;
	/* One random word: its low bits start a new ms, its high half makes the same-ms step. */
	generate<1>("uid11", [&](gen_state &s, std::int64_t now, const std::uint64_t *r,
							 std::int64_t &id_us) {
		id_us = now;
		return keep(
			s.xid,
			idt::xid_next(
				s.xid.value, s.xid.have, floor_div(now, ms), pbits, part, r[0],
				idt::same_unit_step(idt::counter_left(s.xid.value, idt::xid_random_bits - pbits, 0),
									  r[0] >> 32)),
					out);
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
ulidflake_generate(int sid)
{
	const unsigned field = sid < 0 ? idt::ulidflake_random_bits : idt::ulidflake_random_bits - 5;
	const unsigned low = sid < 0 ? 0 : 5; /* the scalable variant's sid */
	const partition p = field_partition(field, "ulidflake");
	const unsigned pbits = p.bits;
	const std::uint64_t part = p.value;
	std::uint64_t out = 0;
	generate<1>("ulidflake", [&](gen_state &s, std::int64_t now, const std::uint64_t *r,
								 std::int64_t &id_us) {
		id_us = now;
		return keep(
			s.ulidflake,
			idt::ulidflake_next(
				s.ulidflake.value, s.ulidflake.have, floor_div(now, ms), pbits, part, sid, r[0],
				idt::same_unit_step(idt::counter_left(s.ulidflake.value, field - pbits, low),
															r[0] >> 32)),
					out);
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
tid_generate(unsigned clock_id)
{
	std::uint64_t out = 0;
	/* TID has no random bits: it draws none. */
	generate<0>("timeid", [&](gen_state &s, std::int64_t now, const std::uint64_t *,
							  std::int64_t &id_us) {
		const idt::gen_status status = keep(
			s.tid, idt::tid_next(s.tid.value, s.tid.have, now, clock_id, tid_max_ahead_us), out);
		id_us = static_cast<std::int64_t>(idt::timeid_micros(out));
		return status;
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
euid_generate(int extension)
{
	idt::u128 out = {0, 0};
	const int slot = (extension + 1) % euid_slots;
	generate<2>("euid", [&](gen_state &s, std::int64_t now, const std::uint64_t *r,
							std::int64_t &id_us) {
		id_us = now;
		euid_slot &own = s.euid_by_extension[slot];
		const bool mine = own.last.have && own.extension == extension;
		const last_id<idt::u128> &prev = mine ? own.last : s.euid;
		std::uint64_t rr[2] = {r[0], r[1]};
		shrink_random_for_tests(true, rr);
		const idt::gen128 g =
			idt::euid_next(prev.value, prev.have, floor_div(now, ms), extension, rr[0], rr[1]);
		if (g.status != idt::gen_status::ok)
			return g.status;
		if (!mine && own.last.have && (!s.euid.have || s.euid.value < own.last.value))
			s.euid = own.last; /* pushed out */
		own.extension = extension;
		own.last = {g.value, true};
		out = g.value;
		return g.status;
	});
	return PointerGetDatum(glue::make_id128(out));
}

} /* namespace */

void
idt_generators_init()
{
	DefineCustomEnumVariable(
		"idtypes.on_overflow",
		"What a monotonic generator does when a time unit has no larger ID left.",
		"wait: sleep until about the next clock unit (wait event IdtypesGeneratorOverflow); error: "
		"raise an error (the specs' behaviour).",
		&on_overflow, OVERFLOW_WAIT, overflow_options, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.tid_clock_id", "Clock id of generate_tid() when no argument is given.",
		"-1 (default) lets idtypes choose; 0..1023 is used as given, and with idtypes.node_id set "
		"must carry it in its top 5 bits.", &tid_clock_id_setting, -1,
		-1, 1023, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.node_id", "This node's id, which keeps generated IDs unique across nodes.",
		"-1 (default): not set. 0..31: the top 5 bits of the xid and ulidflake counter fields and "
		"of the TID clock id hold it, so nodes with different ids never generate the same ID.",
		&node_id_setting, -1, -1, 31, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.test_counter_bits", "For tests only: shrinks the monotonic generators' counters.",
		"0 (default): off. 1..8: the xid and ulidflake counters keep that many bits, and "
		"generate_ulid_monotonic() and generate_euid() start a millisecond that many increments "
		"from their top, so a millisecond overflows after a few IDs (tests of "
		"idtypes.on_overflow).",
		&test_counter_bits, 0, 0, 8, PGC_SUSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
		nullptr, nullptr);
	MarkGUCPrefixReserved("idtypes");

	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;
}

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_scope);
/* 'cluster' when the monotonic state is shared (preloaded, or 17+), else 'backend'. */
Datum
idtypes_generator_scope(PG_FUNCTION_ARGS)
{
	attach_shared_state();
	PG_RETURN_TEXT_P(cstring_to_text(shared != nullptr ? "cluster" : "backend"));
}

PG_FUNCTION_INFO_V1(generate_xid);
Datum
generate_xid(PG_FUNCTION_ARGS)
{
	return xid_generate();
}

/* The fullrand profile: 64 random bits, no state. */
PG_FUNCTION_INFO_V1(generate_uid11);
Datum
generate_uid11(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(static_cast<int64>(random64()));
}

PG_FUNCTION_INFO_V1(generate_tid);
Datum
generate_tid(PG_FUNCTION_ARGS)
{
	return tid_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "clock id", 1023)
									   : tid_default_clock_id());
}

PG_FUNCTION_INFO_V1(generate_ulidflake);
Datum
generate_ulidflake(PG_FUNCTION_ARGS)
{
	return ulidflake_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "sid", 31) : -1);
}

/* The spec's ULID: fresh randomness every time, no state. */
PG_FUNCTION_INFO_V1(generate_ulid);
Datum
generate_ulid(PG_FUNCTION_ARGS)
{
	const std::int64_t now_ms = floor_div(now_unix_us(), ms);
	PG_RETURN_POINTER(glue::make_id128(
		idt::ulid_pack(static_cast<std::uint64_t>(now_ms), random64(), random64())));
}

PG_FUNCTION_INFO_V1(generate_ulid_monotonic);
Datum
generate_ulid_monotonic(PG_FUNCTION_ARGS)
{
	idt::u128 out = {0, 0};
	generate<2>("ulid", [&](gen_state &s, std::int64_t now, const std::uint64_t *r,
							std::int64_t &id_us) {
		id_us = now;
		std::uint64_t rr[2] = {r[0], r[1]};
		shrink_random_for_tests(false, rr);
		return keep(s.ulid,
					idt::ulid_next(s.ulid.value, s.ulid.have, floor_div(now, ms), rr[0], rr[1]),
					out);
	});
	PG_RETURN_POINTER(glue::make_id128(out));
}

PG_FUNCTION_INFO_V1(generate_euid);
Datum
generate_euid(PG_FUNCTION_ARGS)
{
	return euid_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "extension", 32767) : -1);
}

/* ---- the _at variants: the given time, fresh randomness, no monotonic state ---------------- */

PG_FUNCTION_INFO_V1(generate_xid_at);
Datum
generate_xid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "uid11", idt::xid_epoch_ms, idt::xid_max_ms);
	PG_RETURN_INT64(static_cast<int64>(idt::xid_pack(t, random64())));
}

PG_FUNCTION_INFO_V1(generate_tid_at);
Datum
generate_tid_at(PG_FUNCTION_ARGS)
{
	const std::int64_t us =
		arg_unix_us(fcinfo, 0, "timeid", 0, static_cast<std::int64_t>(idt::timeid_max_us));
	const unsigned clock_id =
		PG_NARGS() > 1 ? checked_arg(fcinfo, 1, "clock id", 1023) : tid_default_clock_id();
	PG_RETURN_INT64(static_cast<int64>(idt::timeid_pack(static_cast<std::uint64_t>(us), clock_id)));
}

PG_FUNCTION_INFO_V1(generate_ulidflake_at);
Datum
generate_ulidflake_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t =
		arg_ms_since(fcinfo, 0, "ulidflake", idt::ulidflake_epoch_ms, idt::ulidflake_max_ms);
	std::uint64_t field = random64() & ((1u << idt::ulidflake_random_bits) - 1);
	if (PG_NARGS() > 1)
		field = (field & ~31ull) | static_cast<std::uint64_t>(checked_arg(fcinfo, 1, "sid", 31));
	PG_RETURN_INT64(static_cast<int64>(idt::ulidflake_pack(t, field)));
}

PG_FUNCTION_INFO_V1(generate_ulid_at);
Datum
generate_ulid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "ulid", 0, idt::ulid_max_ms);
	PG_RETURN_POINTER(glue::make_id128(idt::ulid_pack(t, random64(), random64())));
}

PG_FUNCTION_INFO_V1(generate_euid_at);
Datum
generate_euid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "euid", 0, idt::euid_max_ms);
	const int ext = PG_NARGS() > 1 ? checked_arg(fcinfo, 1, "extension", 32767) : -1;
	PG_RETURN_POINTER(glue::make_id128(idt::euid_pack(t, ext, random64(), random64())));
}

} /* extern "C" */
