/* state.h: what the generator files share: the monotonic state and its scope, the floor file,
 * the clock, the random source, and the loop every monotonic generator runs. */
#ifndef IDTYPES_GENERATE_STATE_H
#define IDTYPES_GENERATE_STATE_H

#include <ctime>
#if defined(__x86_64__) && defined(__linux__)
#include <x86intrin.h>
#endif

#include "idtypes/generate.hpp"

#include "glue.h"

extern "C" {
#include "access/xlog.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"
}

namespace gen
{

/* ---- monotonic state (state.cpp) --------------------------------------------------------- */

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
 * different extensions apart. An extension not in its slot (never seen, or pushed out by
 * another) goes on from the largest ID pushed out of any slot, which sorts after every ID of it
 * that this state made.
 */
constexpr int euid_slots = 16;
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
	std::int64_t reserved_us; /* the floor file (and WAL) hold at least this (reserve_covering) */
	std::int64_t last_us;     /* the latest steady time an ID had (per backend: left to the slot) */
	std::uint64_t life;       /* this state's life in the floor file (apply_restart_floor) */
	bool floor_set;           /* the restart floor was applied */
	bool node_fixed; /* shared state: node_id holds the node id in force (node_id_in_force) */
	int node_id;     /* -1: none */
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
	slock_t mutex;              /* held only around a pure core step: no allocation, no error */
	bool reserving;             /* a backend is writing a reservation (reserve_covering) */
	ConditionVariable reserved; /* ... and wakes the others when it is done */
	gen_state state;
};

/* The cluster-wide state (in the main shared memory when preloaded, else on 17+ a DSM segment),
 * or null; and this backend's own. Inline below: every generated ID passes there. */
extern shared_gen_state *shared;
extern gen_state local_state;

/* 17+ without preload: the DSM registry's segment, created by the first backend that asks. */
void attach_dsm_state();

/* Attach to the cluster-wide state where this server can have it without preload (17+). Called
 * by every generator before it looks at its scope, so all backends of a 17+ cluster share one. */
inline void
attach_shared_state()
{
#if IDT_HAVE_DSM_REGISTRY
	if (shared == nullptr)
		attach_dsm_state();
#endif
}

/* After attach_shared_state(): is the state the cluster's (else this backend's own)? */
inline bool
shared_scope()
{
	return shared != nullptr;
}

/* The state generators step: the cluster's (under its spinlock) or this backend's. */
inline gen_state &
active_state()
{
	return shared != nullptr ? shared->state : local_state;
}

/* Around a pure step or a few assignments: no allocation, no error in between. */
inline void
lock_state()
{
	if (shared != nullptr)
		SpinLockAcquire(&shared->mutex);
}

inline void
unlock_state()
{
	if (shared != nullptr)
		SpinLockRelease(&shared->mutex);
}

/* The fixed top bits of a narrow counter field: node id, then backend slot (per-backend state). */
struct partition
{
	unsigned bits;       /* fixed top bits of the counter field */
	std::uint64_t value; /* their value: node id, then slot */
};
unsigned slot_bits();
std::uint64_t slot_value(unsigned bits);
/* The same for the session: its leader's slot in a parallel worker (generate_tid_at's default
   clock id, which a parallel query's workers must share with their leader). */
std::uint64_t session_slot_value(unsigned bits);
void shrink_random_for_tests_now(bool euid, std::uint64_t *r);

/* Settings (state.cpp). */
enum overflow_policy
{
	OVERFLOW_WAIT,
	OVERFLOW_ERROR
};
extern int on_overflow;
extern int tid_clock_id_setting;    /* -1: not set */
extern int node_id_setting;         /* -1: not set */
extern int test_counter_bits;       /* tests only: 0, else the counter bits kept */
extern int accept_timeline_setting; /* 0: not set */

/* idtypes.test_counter_bits's narrowing of a 128-bit kind's random words (state.cpp), inline: in
 * a call of its own on every ID, the words could not stay in registers. */
inline void
shrink_random_for_tests(bool euid, std::uint64_t *r)
{
	if (unlikely(test_counter_bits != 0))
		shrink_random_for_tests_now(euid, r);
}

constexpr unsigned node_id_bits = 5;

/* The node id the generators use (-1: none): idtypes.node_id as it was when this server's
 * generators first needed it, for the rest of the server's life; a backend whose setting differs
 * (changed by a reload since) is warned once per value. Two backends on two node ids could make
 * the same ID in one millisecond (the node id and the backend slot share the counter's top bits). */
int node_id_in_force();

/* The partition a generator uses for each ID, kept: worked out again (refresh_partition, in
 * state.cpp) only when a setting it depends on (idtypes.node_id, the tests' counter bits) changed
 * since the last call. */
struct partition_cache
{
	partition p;
	int node_id_setting;
	int test_counter_bits;
	bool valid;
};
partition refresh_partition(partition_cache &c, unsigned counter_bits, const char *type_name);
inline partition
cached_partition(partition_cache &c, unsigned counter_bits, const char *type_name)
{
	if (likely(c.valid && c.node_id_setting == node_id_setting &&
			   c.test_counter_bits == test_counter_bits))
		return c.p;
	return refresh_partition(c, counter_bits, type_name);
}

/* ---- clock (clock.cpp) ------------------------------------------------------------------- */

/* A clock reading in us (floored, before 1970 too). */
inline std::int64_t
timespec_us(const struct timespec &ts)
{
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

/* A clock reading in ns (clock.cpp's TSC measurements; ns since 1970 fit an int64 until 2262). */
inline std::int64_t
timespec_ns(const struct timespec &ts)
{
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/* A clock in us: CLOCK_REALTIME or CLOCK_MONOTONIC (mono_us). */
inline std::int64_t
clock_us(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return timespec_us(ts);
}

#if defined(__x86_64__) && defined(__linux__)
#define IDT_TSC_CLOCK 1
/*
 * The wall clock read through the TSC (x86-64 Linux; clock.cpp): the system clock's last reading
 * and the TSC then, and the TSC's rate, measured against the system clock. span is how far past
 * base_tsc a reading may go before the system clock is read again: 1 ms of ticks, or 0 (every
 * call reads the system clock) where the kernel does not keep time with the TSC or the rate is
 * not measured yet.
 */
struct tsc_wall_clock
{
	std::uint64_t base_tsc;
	std::int64_t base_ns; /* ns since 1970 */
	std::uint64_t span;
	std::uint64_t ns_per_tick; /* in 2^-32 ns */
};
extern tsc_wall_clock tsc_wall;
std::int64_t wall_us_reread();
#endif

/*
 * The wall clock in us, as the generators read it: every generated ID reads it, and
 * clock_gettime() through the vDSO is a good part of a generator's time (about 23 ns on a 2-core
 * VM, where a TSC read is 10). On x86-64 Linux, within 1 ms of the last clock_gettime() the
 * time is that reading plus the TSC ticks since, at the TSC's measured rate (inline: one rdtsc);
 * past it, or elsewhere, clock_gettime(CLOCK_REALTIME).
 */
inline std::int64_t
now_unix_us()
{
#ifdef IDT_TSC_CLOCK
	if (likely(tsc_wall.span != 0))
	{
		const std::uint64_t ticks = __rdtsc() - tsc_wall.base_tsc;
		if (likely(ticks < tsc_wall.span))
			return (tsc_wall.base_ns +
					static_cast<std::int64_t>((ticks * tsc_wall.ns_per_tick) >> 32)) /
				   1000;
	}
	return wall_us_reread();
#else
	return clock_us(CLOCK_REALTIME);
#endif
}

inline std::int64_t
mono_us()
{
	return clock_us(CLOCK_MONOTONIC);
}

void overflow_wait(int attempt);

/* A wait event of this name that pg_stat_activity shows (17+; "Extension" on 15 and 16): look it
 * up once per process and keep it (17+ registers the name in shared memory at the first call). */
uint32 named_wait_event(const char *name);

inline std::int64_t
floor_div(std::int64_t a, std::int64_t b)
{
	return a / b - (a % b != 0 && a < 0);
}

/* How far TID may run ahead of its clock (more than one ID per microsecond) before it waits:
 * a million TIDs in one go (about 0.1 s) run unthrottled; more, at one a microsecond. */
constexpr std::int64_t tid_max_ahead_us = 1000000;

/* a + b, or INT64_MAX where that overflows (b >= 0): times from files are not trusted. */
inline std::int64_t
add_sat(std::int64_t a, std::int64_t b)
{
	std::int64_t r;
	return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

/* ---- random bits (random.cpp) ------------------------------------------------------------ */

std::uint64_t random64();
std::uint32_t random32(); /* half a word of the same stream: what a 64-bit ID's step needs */

/* The random word a generator draws: 64 or 32 bits. */
template <class Word>
Word draw();
template <>
inline std::uint64_t
draw<std::uint64_t>()
{
	return random64();
}
template <>
inline std::uint32_t
draw<std::uint32_t>()
{
	return random32();
}

/* ---- the floor file (floor_file.cpp) and the restart floor (restart_floor.cpp) ----------- */

/* A record of the floor file, as read. */
struct floor_record
{
	enum kind_t
	{
		absent,
		ok,
		damaged
	} kind;
	std::int64_t until_us;
	std::uint64_t second; /* the reservation's life, or a slot's "in use" */
	const char *why;      /* what is wrong with it, when damaged */
};

extern const char *const floor_file;

/* The reservation, read under a shared lock, and the WAL timeline of the server that wrote it
 * (0: written by WAL redo; -1: none recorded). */
floor_record floor_reservation(std::int64_t *timeline);

/* A damaged record's WARNING (XX001): what it is, what is wrong, what was done about it. */
void report_damaged(const floor_record &r, const char *what, const char *done);

/* Per-backend state: claim this backend's slot records at its first ID (released at exit), and
 * return the times no ID (and no TID) of an earlier backend of the slot reached. */
struct slot_floor
{
	std::int64_t until_us;
	std::int64_t tid_until_us;
};
slot_floor claim_slot();

/* A reservation of the floor file: one small synced write per half second of generation at most. */
constexpr std::int64_t reserve_window_us = 500000;

/* Make the floor file hold at least need_us for this life before an ID at need_us - 1 goes out
 * (raised to want_us, written to WAL where idtypes is preloaded, and synced when it does not).
 * Returns what it holds then. */
std::int64_t reserve_until(std::int64_t need_us, std::int64_t want_us, std::uint64_t life);

/* WAL redo of a reservation: the file holds at least until_us (wal_floor.cpp). */
void raise_reservation(std::int64_t until_us);

/* The reservation written to WAL, flushed, where the resource manager is registered (preloaded;
 * wal_floor.cpp); else nothing. */
void log_reservation(std::int64_t until_us);
void register_floor_rmgr();
bool floor_redo_registered(); /* preloaded: the resource manager is registered */

/* Cover an ID at id_us - 1 with a reservation before it goes out: one backend at a time reserves
 * for the cluster (the others wait for it, then go on if it covers them), every backend for
 * itself with per-backend state. Sets the state's reserved_us once the reservation is in the
 * file and in WAL (generate, below). */
void reserve_covering(std::int64_t id_us, std::uint64_t life);

/* A monotonic generator of type_name called during recovery: refused (state.cpp). */
[[noreturn]] void refuse_in_recovery(const char *type_name);
inline void
refuse_during_recovery(const char *type_name)
{
	if (unlikely(RecoveryInProgress()))
		refuse_in_recovery(type_name);
}

/* Per-backend state: the node id in force for this server's life, recorded in the floor file by
 * the first backend that asks (setting: its idtypes.node_id). floor_file.cpp. */
int node_id_of_life(int setting);

/* Take the restart floor into the active state (once per life, and again after a promotion). */
void apply_restart_floor();

/* The error of a generator whose time left its type's range (naming a floor ahead of the clock). */
[[noreturn]] void report_time_out_of_range(const char *type_name, std::int64_t time_us);

/*
 * Run one core step under the active scope until it yields an ID. step(state, now_us, r, id_us)
 * returns a gen_status and stores the ID into the state itself; now_us is the state's steady
 * clock (the wall clock, never back, never before the restart floor); the step sets id_us to its
 * ID's time (TID's may be ahead of now_us), which the floor file must hold before the ID goes out;
 * r holds the NRandom random words (of type Word: 64 or 32 bits) the format needs, drawn before
 * the lock is taken (a draw may raise an error). The last NLazy of them are words a format needs
 * only now and then (to start a millisecond): they are drawn only once the step, called as
 * step(state, now_us, r, drawn, id_us) with drawn false, returned needs_random; then it runs
 * again with them. On overflow the policy says wait (sleep to about the next clock unit) or
 * error.
 */
template <int NRandom, class Word = std::uint64_t, int NLazy = 0, class Step>
void
generate(const char *type_name, Step step)
{
	static_assert(NLazy >= 0 && NLazy <= NRandom, "the lazy words are some of the words");
	refuse_during_recovery(type_name);
	attach_shared_state();
	gen_state &s = active_state();
	/* A stale read of the flag (outside the lock) only makes this compute the floor again. */
	if (!s.floor_set)
		apply_restart_floor();
	bool lazy_drawn = NLazy == 0;
	for (int attempt = 0;;)
	{
		const std::int64_t wall = now_unix_us();
		Word r[NRandom > 0 ? NRandom : 1] = {0};
		for (int i = 0; i < (lazy_drawn ? NRandom : NRandom - NLazy); i++)
			r[i] = draw<Word>();
		std::int64_t id_us = 0;
		lock_state();
		/* clock_gettime() is a vDSO call: no system call, no error, fine under a spinlock. */
		const std::int64_t mono = idt::steady_needs_mono(s.clock, wall) ? mono_us() : 0;
		const std::int64_t now = idt::steady_now(s.clock, wall, mono);
		idt::gen_status status;
		if constexpr (NLazy == 0)
			status = step(s, now, r, id_us);
		else
			status = step(s, now, r, lazy_drawn, id_us);
		const bool ok = status == idt::gen_status::ok;
		if (ok && now > s.last_us)
			s.last_us = now;
		/* An ID at or after the reserved time goes out only once a reservation covers it: in the
		 * floor file, and (preloaded) in WAL before every commit that can contain the ID. The
		 * state's reserved_us is raised only after both, so an ID below it is covered. */
		const bool reserve = ok && id_us >= s.reserved_us;
		const std::uint64_t life = s.life;
		unlock_state();
		if (reserve)
			reserve_covering(id_us, life);

		if (status == idt::gen_status::ok)
			return;
		if (status == idt::gen_status::needs_random && !lazy_drawn)
		{
			lazy_drawn = true;
			continue;
		}
		if (status == idt::gen_status::time_out_of_range)
			report_time_out_of_range(type_name, now);
		if (on_overflow == OVERFLOW_ERROR)
			ereport(
				ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s generator overflow: no larger ID is left in this time unit", type_name),
				 errhint("Set idtypes.on_overflow = 'wait' to wait for the next time unit.")));
		overflow_wait(attempt++);
	}
}

} /* namespace gen */

#endif
