/* clock.cpp: the clocks the generators read, and the wait of a generator whose time unit is full. */
#include "state.h"

extern "C" {
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
}

namespace gen
{

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
