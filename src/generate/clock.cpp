/* clock.cpp: the clocks the generators read, and the wait of a generator whose time unit is full. */
#include "state.h"

#include <cstdio>
#include <cstring>
#ifdef IDT_TSC_CLOCK
#include <cpuid.h>
#endif

extern "C" {
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
}

namespace gen
{

#ifdef IDT_TSC_CLOCK
/*
 * The TSC as a wall clock between reads of the system clock (now_unix_us, state.h). Only where
 * the kernel itself keeps time with the TSC (its clocksource is "tsc", which it gives up when it
 * finds the TSC unstable; asked once per process: a TSC that turns unstable later shows in the
 * measurements below, which then disagree) and the CPU says the TSC's rate is invariant; the
 * rate is measured against clock_gettime() over 4 ms to 10 s, again and again, and used only
 * once two measurements in a row agree within 0.01%: a clock step or a pause inside a
 * measurement sets the TSC aside until they agree again. (Each end of a measurement is known
 * within half a bracket, at most 300 ticks: over 4 ms that is at most 150 ppm of a 1 GHz TSC's
 * rate, 50 ppm of a 3 GHz one, and brackets are mostly a third of that. A session's first calls
 * read the system clock until two measurements agree: 8 ms, not the 40 ms of 20-ms windows, so
 * that a short session gets the fast clock too.) A reading extrapolates at most 1 ms of
 * ticks past a read of the system clock, so a step of the system clock shows within 1 ms, and a
 * TSC that misbehaved anyway can put a time at most that far past the last read (a TSC that went
 * back has the system clock read at once). The generators' steady clock and floor take the time
 * as they take clock_gettime()'s.
 */
tsc_wall_clock tsc_wall = {0, 0, 0, 0};

namespace
{

constexpr std::int64_t tsc_span_ns = 1000000;            /* 1 ms */
constexpr std::int64_t tsc_measure_ns = 4000000;         /* 4 ms */
constexpr std::int64_t tsc_measure_max_ns = 10000000000; /* 10 s */
/* A read of the system clock between two TSC reads further apart than this (0.15-0.6 us at 1-4
 * GHz; a read takes 20-60 ns) was interrupted or slowed: neither a base nor a measurement. */
constexpr std::uint64_t tsc_pair_ticks = 600;

int tsc_trusted = -1; /* -1: not asked yet */
std::uint64_t measure_tsc = 0;
std::int64_t measure_ns = -1; /* the start of the rate's measurement; -1: none */

/* Does the kernel keep time with an invariant TSC? */
bool
kernel_keeps_time_with_tsc()
{
	unsigned eax, ebx, ecx, edx;
	/* CPUID 0x80000007: EDX bit 8, the TSC's rate is invariant. */
	if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) == 0 || (edx & (1u << 8)) == 0)
		return false;
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f == nullptr)
		return false;
	char name[32];
	const bool read = fgets(name, sizeof(name), f) != nullptr;
	fclose(f);
	return read && strcmp(name, "tsc\n") == 0;
}

} /* namespace */

/* now_unix_us() past its span: the system clock, and the TSC's base and rate from it. */
std::int64_t
wall_us_reread()
{
	if (tsc_trusted < 0)
		tsc_trusted = kernel_keeps_time_with_tsc() ? 1 : 0;
	if (tsc_trusted == 0)
		return clock_us(CLOCK_REALTIME);
	struct timespec ts;
	if (tsc_wall.span == 0 && measure_ns >= 0)
	{
		/* Measuring, with no rate to use yet: until the measurement may end, the system clock
		 * alone (no base to set), half the cost of a read between two TSC reads. */
		clock_gettime(CLOCK_REALTIME, &ts);
		const std::int64_t elapsed = timespec_ns(ts) - measure_ns;
		if (elapsed > 0 && elapsed < tsc_measure_ns)
			return timespec_us(ts);
	}
	/* The TSC on both sides of the read: the read's time is that of their midpoint, within half
	 * their distance, unless an interrupt came between them. */
	const std::uint64_t before = __rdtsc();
	clock_gettime(CLOCK_REALTIME, &ts);
	const std::uint64_t after = __rdtsc();
	const std::int64_t us = timespec_us(ts);
	if (ts.tv_sec < 0)
	{
		tsc_wall.span = 0;
		return us;
	}
	if (after - before > tsc_pair_ticks)
		return us;
	const std::uint64_t tsc = before + (after - before) / 2;
	const std::int64_t ns = timespec_ns(ts);
	tsc_wall.base_tsc = tsc;
	tsc_wall.base_ns = ns;
	const std::int64_t elapsed = ns - measure_ns;
	if (measure_ns < 0 || tsc <= measure_tsc || elapsed <= 0 || elapsed > tsc_measure_max_ns)
	{
		/* No measurement, or one the clock stepped back in, or one too old to be worth ending. */
		measure_tsc = tsc;
		measure_ns = ns;
	}
	else if (elapsed >= tsc_measure_ns)
	{
		const auto rate = static_cast<std::uint64_t>(
			(static_cast<unsigned __int128>(elapsed) << 32) / (tsc - measure_tsc));
		const std::uint64_t last = tsc_wall.ns_per_tick;
		/* 0.05 to 100 ns a tick (20 GHz to 10 MHz), and within 0.01% of the last measurement
		 * (0.1 us in a span). */
		const bool plausible = rate >= (1ull << 32) / 20 && rate <= (1ull << 32) * 100;
		const bool agrees = last != 0 && rate > last - last / 10000 && rate < last + last / 10000;
		tsc_wall.ns_per_tick = plausible ? rate : 0;
		tsc_wall.span = plausible && agrees
							? static_cast<std::uint64_t>(
								  (static_cast<unsigned __int128>(tsc_span_ns) << 32) / rate)
							: 0;
		measure_tsc = tsc;
		measure_ns = ns;
	}
	return us;
}
#endif

uint32
named_wait_event(const char *name)
{
#if IDT_HAVE_CUSTOM_WAIT_EVENTS
	return WaitEventExtensionNew(name);
#else
	(void) name;
	return PG_WAIT_EXTENSION;
#endif
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
	static uint32 wait_event = 0;
	if (wait_event == 0)
		wait_event = named_wait_event("IdtypesGeneratorOverflow");
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

} /* namespace gen */
