// Generator steps: the next ID as a pure function of (previous ID, now, random bits).
//
// The glue owns the clock, the random source and the state; these functions only decide.
// A monotonic step never returns an ID <= the previous one: a clock that went backwards
// counts as the previous time unit. overflow means "no larger ID in this time unit": the
// caller waits for the next unit or raises an error (idtypes.on_overflow).
#pragma once

#include "idtypes/formats.hpp"

namespace idt
{

enum class gen_status : std::uint8_t
{
	ok,
	overflow,          // the time unit is exhausted; value is unspecified
	time_out_of_range, // the (effective) time is outside the format's era
	needs_random,      // a step run without the random bits it draws only sometimes needs them
};

struct gen64
{
	std::uint64_t value;
	gen_status status;
};

struct gen128
{
	u128 value;
	gen_status status;
};

// A 64-bit ID laid out as [time | field]; the field is [fixed | counter | low]:
//   fixed:   `fixed_bits` high bits that stay the same for this generator (a per-session
//            partition of the field, so that sessions drawing independently cannot collide)
//   counter: a fresh random value in a new time unit, previous + step in the same unit
//   low:     `low_bits` bits copied from `low` (the ulidflake scalable variant's sid)
struct field_layout
{
	unsigned field_bits;
	unsigned fixed_bits;
	std::uint64_t fixed;
	unsigned low_bits;
	std::uint64_t low;
};

// The same-unit policy of the 64-bit generators, which lets a time unit hold tens of thousands
// of IDs: the first ID of a unit starts in the lowest 1/8 of the counter space (its counter is
// random & (max >> first_in_unit_shift)), and each further ID of the unit adds a random step of
// 1..same_unit_step_max(left), where left is the counter space above the last ID: 255 while
// more than a million values are left, then left / 4096, so the step shrinks as the counter
// fills, down to 1 for its last 8,191 values. A unit that sees few IDs keeps large random steps.
// On average (simulated with random starts and steps) a unit then holds about 68,000 IDs with a
// 22-bit counter, 46,000 with 20 bits, 17,700 with 15, 7,700 with 13, and 242 with 8.
constexpr unsigned first_in_unit_shift = 3;

constexpr std::uint64_t
same_unit_step_max(std::uint64_t left) noexcept
{
	return (left >> 12) >= 255 ? 255 : (left >> 12) > 1 ? (left >> 12) : 1;
}

// A step of 1..same_unit_step_max(left), from the low 32 of the random bits: scaled by a
// multiplication rather than reduced by a division (a 64-bit division costs tens of cycles);
// the bias is below max / 2^32.
constexpr std::uint64_t
same_unit_step(std::uint64_t left, std::uint64_t random) noexcept
{
	return 1 + (((random & 0xFFFFFFFFull) * same_unit_step_max(left)) >> 32);
}

// The counter space above the counter of `last`, for a counter of counter_bits bits above
// low_bits low bits: what same_unit_step() takes.
constexpr std::uint64_t
counter_left(std::uint64_t last, unsigned counter_bits, unsigned low_bits) noexcept
{
	const std::uint64_t max = (1ull << counter_bits) - 1;
	return max - ((last >> low_bits) & max);
}

// now_units is relative to the format's epoch. step >= 1. The counter of a new unit is
// random & (counter max >> first_in_unit_shift).
// Inline, as the steps below: every generated ID runs one.
inline gen64
mono64_next(std::uint64_t last, bool have_last, std::int64_t now_units, std::uint64_t max_units,
			const field_layout &l, std::uint64_t random, std::uint64_t step) noexcept
{
	const unsigned counter_bits = l.field_bits - l.fixed_bits - l.low_bits;
	const std::uint64_t counter_max = (1ull << counter_bits) - 1;
	const std::uint64_t last_units = last >> l.field_bits;
	std::uint64_t units;
	if (have_last && now_units <= static_cast<std::int64_t>(last_units))
		units = last_units; // same unit, or the clock went back
	else if (now_units < 0)
		return {0, gen_status::time_out_of_range};
	else
		units = static_cast<std::uint64_t>(now_units);
	if (units > max_units)
		return {0, gen_status::time_out_of_range};

	std::uint64_t counter;
	if (have_last && units == last_units)
	{
		const std::uint64_t prev = (last >> l.low_bits) & counter_max;
		if (step > counter_max - prev)
			return {0, gen_status::overflow};
		counter = prev + step;
	}
	else
		counter = random & (counter_max >> first_in_unit_shift);

	const std::uint64_t fixed = l.fixed & ((1ull << l.fixed_bits) - 1);
	const std::uint64_t field = (fixed << (counter_bits + l.low_bits)) | (counter << l.low_bits) |
								(l.low & ((1ull << l.low_bits) - 1));
	const std::uint64_t v = (units << l.field_bits) | field;
	// A different fixed part than the previous ID's could still sort lower; never emit that.
	if (have_last && v <= last)
		return {0, gen_status::overflow};
	return {v, gen_status::ok};
}

// now - epoch without signed overflow: a clock far before the epoch stays far before it.
constexpr std::int64_t
since_epoch(std::int64_t now, std::int64_t epoch) noexcept
{
	return now < INT64_MIN + epoch ? INT64_MIN : now - epoch;
}

// xid profile: ms since the xid epoch, 22-bit field.
inline gen64
xid_next(std::uint64_t last, bool have_last, std::int64_t now_unix_ms, unsigned fixed_bits,
		 std::uint64_t fixed, std::uint64_t random, std::uint64_t step) noexcept
{
	const field_layout l = {xid_random_bits, fixed_bits, fixed, 0, 0};
	return mono64_next(last, have_last, since_epoch(now_unix_ms, xid_epoch_ms), xid_max_ms, l,
					   random, step);
}

// ulidflake: ms since 2024, 20-bit field; sid < 0 for the stand-alone variant (20 random bits),
// else the scalable variant (15 random bits | 5-bit sid).
inline gen64
ulidflake_next(std::uint64_t last, bool have_last, std::int64_t now_unix_ms, unsigned fixed_bits,
			   std::uint64_t fixed, int sid, std::uint64_t random, std::uint64_t step) noexcept
{
	const field_layout l = {ulidflake_random_bits, fixed_bits, fixed, sid < 0 ? 0u : 5u,
							sid < 0 ? 0u : static_cast<std::uint64_t>(sid)};
	return mono64_next(last, have_last, since_epoch(now_unix_ms, ulidflake_epoch_ms),
					   ulidflake_max_ms, l, random, step);
}

// TID: micros = max(now_us, last_us + 1), then the 10-bit clock id; an overflow when that is
// more than max_ahead_us after now_us (more than one ID per microsecond for that long): the
// caller waits, so TID never runs further ahead of its clock than that.
inline gen64
tid_next(std::uint64_t last, bool have_last, std::int64_t now_unix_us, unsigned clock_id,
		 std::int64_t max_ahead_us) noexcept
{
	std::uint64_t micros;
	if (have_last && now_unix_us <= static_cast<std::int64_t>(timeid_micros(last)))
	{
		micros = timeid_micros(last) + 1;
		if (micros > timeid_max_us)
			return {0, gen_status::time_out_of_range};
		// micros - now, without overflow: both lie in [0, 2^53) here, or now is negative.
		if (now_unix_us >= 0 && static_cast<std::int64_t>(micros) - now_unix_us > max_ahead_us)
			return {0, gen_status::overflow};
	}
	else if (now_unix_us < 0)
		return {0, gen_status::time_out_of_range};
	else
		micros = static_cast<std::uint64_t>(now_unix_us);
	if (micros > timeid_max_us)
		return {0, gen_status::time_out_of_range};
	return {timeid_pack(micros, clock_id), gen_status::ok};
}

// A clock that never goes back, for the monotonic generators: the wall clock while it is at or
// after the latest time handed out; when it is behind (stepped back, or a restart put the floor
// after it), time runs on from the latest time at half the rate of a monotonic clock, so that the
// wall clock catches up (after twice the gap) and the IDs' times rejoin it. Plain data: it lives
// in shared memory too.
struct steady_clock
{
	std::int64_t high_us; // the latest time handed out (or the floor)
	std::int64_t mono_at; // the monotonic clock when the wall clock was found behind high_us
	bool behind;          // time runs from (high_us, mono_at)
};

// Does steady_now() need the monotonic clock for this wall time? (It costs a clock read.)
constexpr bool
steady_needs_mono(const steady_clock &c, std::int64_t wall_us) noexcept
{
	return c.behind || wall_us < c.high_us;
}

// The time to hand out when the clock is behind (steady_now's slow path).
std::int64_t steady_behind(steady_clock &c, std::int64_t wall_us, std::int64_t mono_us) noexcept;

// The time to hand out now: max(wall clock, high_us + half the time since it fell behind).
// mono_us is read only where steady_needs_mono() says so (any value otherwise). Inline: every
// generated ID passes here.
inline std::int64_t
steady_now(steady_clock &c, std::int64_t wall_us, std::int64_t mono_us) noexcept
{
	if (!steady_needs_mono(c, wall_us))
		return c.high_us = wall_us;
	return steady_behind(c, wall_us, mono_us);
}

// Never hand out a time before floor_us from now on (the restart floor): if the clock is before
// it, time runs on from it.
void steady_floor(steady_clock &c, std::int64_t floor_us, std::int64_t mono_us) noexcept;

// ULID ordered within its millisecond (RFC 9562's method 3, as PostgreSQL 18's uuidv7()): the
// 12 bits after the 48-bit ms hold the fraction of the ms, in 4096ths, and 68 fresh random bits
// follow. The state is the last ID's (ms, fraction); a time at or before it goes one fraction
// past it (the next 4096th, carrying into the ms), so the IDs of one state strictly increase and
// every one still draws its random bits. Time out of range before 1970 or after the 48-bit ms.
struct ulid_clock
{
	std::uint64_t last; // ms << 12 | fraction of the last ID
	bool have;
};

constexpr unsigned ulid_fraction_bits = 12;

gen128 ulid_fraction_next(ulid_clock &c, std::int64_t now_unix_us, std::uint64_t random_hi4,
						  std::uint64_t random_lo64) noexcept;

// ULID, monotonic: in the same ms (or a clock that went back) the previous ID + 1; overflow
// when the 80 random bits are all ones.
gen128 ulid_next(u128 last, bool have_last, std::int64_t now_unix_ms, std::uint64_t random_hi16,
				 std::uint64_t random_lo64) noexcept;

// EUID as the reference: in the same ms the high 32 random bits + 1 and fresh low 32 bits
// (overflow at 0xFFFFFFFF). A different extension in the same ms needs a new high word, which
// must still sort after the previous ID, or it is an overflow.
gen128 euid_next(u128 last, bool have_last, std::int64_t now_unix_ms, int extension,
				 std::uint64_t random15, std::uint64_t random64) noexcept;

} // namespace idt
