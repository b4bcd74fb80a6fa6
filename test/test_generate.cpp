// Catch2 tests of the generator steps: first call, same time unit, overflow at the exact edge,
// clocks that go backwards, partitions of the random field, and the formats' eras.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "idtypes/generate.hpp"

#include "test_support.hpp"

namespace
{
using idt::gen_status;
using idt::u128;

constexpr std::uint64_t seed = 0x9e4e7a70125eedull;
constexpr int walk_steps = 100000;
constexpr std::int64_t XE = idt::xid_epoch_ms;
constexpr std::int64_t FE = idt::ulidflake_epoch_ms;
constexpr std::uint64_t xid_field = (1ull << 22) - 1;

u128
ulid_text(const char *t)
{
	const idt::parse128 r = idt::ulid_parse(t, 26);
	return r.value;
}

std::string
ulid_str(u128 v)
{
	char b[26];
	idt::ulid_format(v, b);
	return std::string(b, 26);
}

// Clock steps for the random walks: mostly the same unit or a little forward, sometimes back
// (a little or a lot), sometimes a jump forward.
std::int64_t
clock_step(std::mt19937_64 &rng)
{
	const unsigned k = static_cast<unsigned>(rng() % 100);
	if (k < 45)
		return 0;
	if (k < 70)
		return 1 + static_cast<std::int64_t>(rng() % 3);
	if (k < 90)
		return -1 - static_cast<std::int64_t>(rng() % 5);
	if (k < 95)
		return -static_cast<std::int64_t>(rng() % 100000);
	return static_cast<std::int64_t>(rng() % 100000);
}

} // namespace

// ==== xid ===========================================================================================

TEST_CASE("xid_next: first call packs now and random", "[generate]")
{
	idt::gen64 g = idt::xid_next(0, false, XE + 5, 0, 0, 0x123456789ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(5, 0x123456789ull & xid_field));
	g = idt::xid_next(0, false, XE, 0, 0, ~0ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == xid_field >> idt::first_in_unit_shift); // a new ms starts in the lowest 1/8
	// have_last = false ignores `last`, even a larger one.
	g = idt::xid_next(UINT64_MAX, false, XE + 7, 0, 0, 3, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(7, 3));
	// A later millisecond draws fresh random bits.
	g = idt::xid_next(idt::xid_pack(5, 1000), true, XE + 6, 0, 0, 42, 9);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(6, 42));
}

TEST_CASE("xid_next: same millisecond adds the step", "[generate]")
{
	const std::uint64_t last = idt::xid_pack(5, 100);
	idt::gen64 g = idt::xid_next(last, true, XE + 5, 0, 0, 0xFFFFFF, 7);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(5, 107));
	CHECK(g.value > last);
	g = idt::xid_next(last, true, XE + 5, 0, 0, 0, 1);
	CHECK(g.value == last + 1);
}

TEST_CASE("xid_next: overflow exactly at the counter's max", "[generate]")
{
	for (std::uint64_t step :
		 {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{255}, std::uint64_t{4096}, xid_field})
	{
		CAPTURE(step);
		// counter + step == max: the last value that fits
		idt::gen64 g =
			idt::xid_next(idt::xid_pack(9, xid_field - step), true, XE + 9, 0, 0, 0, step);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::xid_pack(9, xid_field));
		// one more and the millisecond is exhausted
		g = idt::xid_next(idt::xid_pack(9, xid_field - step + 1), true, XE + 9, 0, 0, 0, step);
		CHECK(g.status == gen_status::overflow);
		// also when the clock went back
		g = idt::xid_next(idt::xid_pack(9, xid_field - step + 1), true, XE + 3, 0, 0, 0, step);
		CHECK(g.status == gen_status::overflow);
		// the next millisecond is fine again
		g = idt::xid_next(idt::xid_pack(9, xid_field - step + 1), true, XE + 10, 0, 0, 5, step);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::xid_pack(10, 5));
	}
	// A step larger than the whole counter always overflows in the same ms.
	CHECK(idt::xid_next(idt::xid_pack(9, 0), true, XE + 9, 0, 0, 0, xid_field + 1).status ==
		  gen_status::overflow);
}

TEST_CASE("xid_next: a clock that went back counts as the last millisecond", "[generate]")
{
	const std::uint64_t last = idt::xid_pack(500, 100);
	for (std::int64_t now : {XE + 499, XE + 2, XE, XE - 1, XE - 1000000})
	{
		CAPTURE(now);
		const idt::gen64 g = idt::xid_next(last, true, now, 0, 0, 77, 3);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::xid_pack(500, 103));
	}
}

TEST_CASE("xid_next: the xid era", "[generate]")
{
	const std::int64_t end = XE + static_cast<std::int64_t>(idt::xid_max_ms);
	CHECK(idt::xid_next(0, false, XE - 1, 0, 0, 0, 1).status == gen_status::time_out_of_range);
	CHECK(idt::xid_next(0, false, 0, 0, 0, 0, 1).status == gen_status::time_out_of_range);
	CHECK(idt::xid_next(0, false, -5, 0, 0, 0, 1).status == gen_status::time_out_of_range);
	CHECK(idt::xid_next(0, false, end + 1, 0, 0, 0, 1).status == gen_status::time_out_of_range);
	idt::gen64 g = idt::xid_next(0, false, XE, 0, 0, 0, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == 0);
	g = idt::xid_next(0, false, end, 0, 0, ~0ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(idt::xid_max_ms, xid_field >> idt::first_in_unit_shift));
	// With a last ID: past the era is still out of range; at the last ms the counter overflows.
	CHECK(idt::xid_next(idt::xid_pack(5, 0), true, end + 1, 0, 0, 0, 1).status ==
		  gen_status::time_out_of_range);
	CHECK(idt::xid_next(UINT64_MAX, true, end, 0, 0, 0, 1).status == gen_status::overflow);
}

TEST_CASE("xid_next: fixed_bits partition the random field", "[generate]")
{
	// fixed_bits = 8, fixed = 0x5A: field = 0x5A (8 bits) | counter (14 bits)
	const std::uint64_t cmax = (1ull << 14) - 1;
	idt::gen64 g = idt::xid_next(0, false, XE + 5, 8, 0x5A, ~0ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(5, (0x5Aull << 14) | (cmax >> idt::first_in_unit_shift)));
	g = idt::xid_next(0, false, XE + 5, 8, 0x5A, 0, 1);
	CHECK(g.value == idt::xid_pack(5, 0x5Aull << 14));
	g = idt::xid_next(0, false, XE + 5, 8, 0x5A, 0x12345, 1);
	CHECK(g.value == idt::xid_pack(5, (0x5Aull << 14) | (0x12345 & (cmax >> 3))));

	// the counter space shrinks to 14 bits
	const std::uint64_t base = 0x5Aull << 14;
	g = idt::xid_next(idt::xid_pack(5, base | (cmax - 3)), true, XE + 5, 8, 0x5A, 0, 3);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::xid_pack(5, base | cmax));
	g = idt::xid_next(idt::xid_pack(5, base | (cmax - 3)), true, XE + 5, 8, 0x5A, 0, 4);
	CHECK(g.status == gen_status::overflow);

	// A random walk keeps the fixed bits in every value, and two partitions never meet.
	std::mt19937_64 rng(seed);
	std::uint64_t last_a = 0, last_b = 0;
	bool have_a = false, have_b = false;
	std::int64_t now = XE + 1000000;
	int ok = 0, overflow = 0;
	for (int i = 0; i < 20000; i++)
	{
		now += (rng() % 256 == 0) ? 1 : 0; // ~256 IDs a ms: more than a 14-bit counter holds
		const std::uint64_t step = 1 + rng() % 255;
		const idt::gen64 a = idt::xid_next(last_a, have_a, now, 8, 0x5A, rng(), step);
		const idt::gen64 b = idt::xid_next(last_b, have_b, now, 8, 0x5B, rng(), step);
		for (const idt::gen64 *x : {&a, &b})
		{
			if (x->status != gen_status::ok)
			{
				LOOP_REQUIRE(x->status == gen_status::overflow, "i=" << i);
				overflow++;
				continue;
			}
			ok++;
			const std::uint64_t fixed = idt::xid_random(x->value) >> 14;
			LOOP_REQUIRE(fixed == (x == &a ? 0x5Au : 0x5Bu), "i=" << i << " v=" << x->value);
		}
		if (a.status == gen_status::ok && b.status == gen_status::ok)
			LOOP_REQUIRE(a.value != b.value, "i=" << i);
		if (a.status == gen_status::ok)
		{
			LOOP_REQUIRE(!have_a || a.value > last_a, "i=" << i);
			last_a = a.value;
			have_a = true;
		}
		if (b.status == gen_status::ok)
		{
			LOOP_REQUIRE(!have_b || b.value > last_b, "i=" << i);
			last_b = b.value;
			have_b = true;
		}
	}
	CHECK(ok > 10000);
	CHECK(overflow > 100);
}

TEST_CASE("mono64_next: field layout [fixed | counter | low]", "[generate]")
{
	// 20-bit field: 3 fixed bits (5), 12 counter bits, 5 low bits (17)
	const idt::field_layout l = {20, 3, 5, 5, 17};
	idt::gen64 g = idt::mono64_next(0, false, 1000, 1ull << 40, l, 0xABCDE, 1);
	CHECK(g.status == gen_status::ok);
	// a new unit starts in the lowest 1/8 of the counter space
	CHECK(g.value == ((1000ull << 20) | (5ull << 17) | ((0xABCDEull & 0x1FF) << 5) | 17));
	g = idt::mono64_next(g.value, true, 1000, 1ull << 40, l, 0, 10);
	CHECK(g.value == ((1000ull << 20) | (5ull << 17) | (((0xABCDEull & 0x1FF) + 10) << 5) | 17));
	// overflow at counter 0xFFF
	const std::uint64_t top = (7ull << 20) | (5ull << 17) | (0xFFEull << 5) | 17;
	g = idt::mono64_next(top, true, 7, 1ull << 40, l, 0, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(((g.value >> 5) & 0xFFF) == 0xFFFu);
	CHECK(idt::mono64_next(g.value, true, 7, 1ull << 40, l, 0, 1).status == gen_status::overflow);
	// time unit beyond max_units
	CHECK(idt::mono64_next(0, false, 11, 10, l, 0, 1).status == gen_status::time_out_of_range);
	CHECK(idt::mono64_next(0, false, 10, 10, l, 0, 1).status == gen_status::ok);
	CHECK(idt::mono64_next(0, false, -1, 10, l, 0, 1).status == gen_status::time_out_of_range);
	// The low bits are masked to low_bits.
	const idt::field_layout m = {20, 0, 0, 5, 0xFFFF};
	g = idt::mono64_next(0, false, 1, 10, m, 0, 1);
	CHECK((g.value & 31) == 31u);
	CHECK((g.value >> 20) == 1u);
}

TEST_CASE("same-unit policy: steps shrink as the counter fills; tens of thousands a unit",
		  "[generate]")
{
	CHECK(idt::same_unit_step_max(1ull << 40) == 255);
	CHECK(idt::same_unit_step_max(255ull << 12) == 255);
	CHECK(idt::same_unit_step_max((255ull << 12) - 1) == 254);
	CHECK(idt::same_unit_step_max(100000) == 24);
	CHECK(idt::same_unit_step_max(8192) == 2);
	CHECK(idt::same_unit_step_max(8191) == 1);
	CHECK(idt::same_unit_step_max(1) == 1);
	CHECK(idt::same_unit_step_max(0) == 1);
	CHECK(idt::counter_left(idt::xid_pack(5, 100), 22, 0) == xid_field - 100);
	CHECK(idt::counter_left((7ull << 20) | (3ull << 5) | 9, 15, 5) == (1ull << 15) - 1 - 3);
	std::mt19937_64 rng(seed + 7);
	// Every step lies in 1..max, and both ends occur.
	for (std::uint64_t left : {std::uint64_t{1} << 30, std::uint64_t{50000}, std::uint64_t{8192}})
	{
		const std::uint64_t max = idt::same_unit_step_max(left);
		std::uint64_t lo = ~0ull, hi = 0;
		for (int i = 0; i < 20000; i++)
		{
			const std::uint64_t st = idt::same_unit_step(left, rng());
			lo = st < lo ? st : lo;
			hi = st > hi ? st : hi;
		}
		CHECK(lo == 1);
		CHECK(hi == max);
	}
	// IDs of one unit from the highest possible start, with the policy's random steps, until
	// overflow: what a unit holds at the least (the bounds are 80% of the averages above).
	struct width
	{
		unsigned bits, low;
		std::uint64_t at_least;
	};
	for (const width w : {width{22, 0, 57000}, width{20, 0, 39000}, width{15, 0, 16000},
						  width{15, 5, 16000}, width{13, 0, 7000}, width{8, 0, 224}})
	{
		CAPTURE(w.bits, w.low);
		const idt::field_layout l = {w.bits + w.low, 0, 0, w.low, 3};
		idt::gen64 g = idt::mono64_next(0, false, 5, 100, l, ~0ull, 1);
		REQUIRE(g.status == gen_status::ok);
		std::uint64_t n = 1;
		for (;;)
		{
			const std::uint64_t step =
				idt::same_unit_step(idt::counter_left(g.value, w.bits, w.low), rng());
			const idt::gen64 h = idt::mono64_next(g.value, true, 5, 100, l, 0, step);
			if (h.status != gen_status::ok)
				break;
			LOOP_REQUIRE(h.value > g.value, "n=" << n);
			g = h;
			n++;
		}
		// the counter ends within one step of its top: nothing is wasted
		CHECK(idt::counter_left(g.value, w.bits, w.low) < 1);
		CHECK(n >= w.at_least);
	}
}

// ==== ulidflake =====================================================================================

TEST_CASE("ulidflake_next: stand-alone variant", "[generate]")
{
	const std::uint64_t cmax = (1ull << 20) - 1;
	idt::gen64 g = idt::ulidflake_next(0, false, FE + 1234, 0, 0, -1, 0xFEDCBA987ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::ulidflake_pack(1234, 0xFEDCBA987ull & (cmax >> 3)));
	// same ms: + step
	g = idt::ulidflake_next(idt::ulidflake_pack(1234, 500), true, FE + 1234, 0, 0, -1, 0, 255);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::ulidflake_pack(1234, 755));
	// overflow exactly at 2^20 - 1
	g = idt::ulidflake_next(idt::ulidflake_pack(1234, cmax - 10), true, FE + 1234, 0, 0, -1, 0, 10);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::ulidflake_pack(1234, cmax));
	CHECK(idt::ulidflake_next(idt::ulidflake_pack(1234, cmax - 9), true, FE + 1234, 0, 0, -1, 0, 10)
			  .status == gen_status::overflow);
	// clock back
	g = idt::ulidflake_next(idt::ulidflake_pack(1234, 500), true, FE + 1000, 0, 0, -1, 0, 3);
	CHECK(g.value == idt::ulidflake_pack(1234, 503));
	// later ms
	g = idt::ulidflake_next(idt::ulidflake_pack(1234, 500), true, FE + 1235, 0, 0, -1, 17, 3);
	CHECK(g.value == idt::ulidflake_pack(1235, 17));
}

TEST_CASE("ulidflake_next: scalable variant keeps the sid in the low 5 bits", "[generate]")
{
	const std::uint64_t cmax = (1ull << 15) - 1;
	for (int sid : {0, 17, 31})
	{
		CAPTURE(sid);
		const std::uint64_t s = static_cast<std::uint64_t>(sid);
		idt::gen64 g = idt::ulidflake_next(0, false, FE + 77, 0, 0, sid, 0xFFFFFFull, 1);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::ulidflake_pack(77, ((cmax >> 3) << 5) | s));
		CHECK(idt::ulidflake_sid(g.value) == s);
		g = idt::ulidflake_next(0, false, FE + 77, 0, 0, sid, 0x1234, 1);
		CHECK(g.value == idt::ulidflake_pack(77, ((0x1234ull & (cmax >> 3)) << 5) | s));
		// same ms: the 15-bit counter steps, the sid stays
		const std::uint64_t last = idt::ulidflake_pack(77, (100ull << 5) | s);
		g = idt::ulidflake_next(last, true, FE + 77, 0, 0, sid, 0, 9);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::ulidflake_pack(77, (109ull << 5) | s));
		CHECK(idt::ulidflake_sid(g.value) == s);
		// overflow exactly at 2^15 - 1
		g = idt::ulidflake_next(idt::ulidflake_pack(77, ((cmax - 9) << 5) | s), true, FE + 77, 0, 0,
								sid, 0, 9);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::ulidflake_pack(77, (cmax << 5) | s));
		CHECK(idt::ulidflake_next(idt::ulidflake_pack(77, ((cmax - 8) << 5) | s), true, FE + 77, 0,
								  0, sid, 0, 9)
				  .status == gen_status::overflow);
	}
	// With a partition as well: 3 fixed bits, 12 counter bits, the sid.
	const idt::gen64 g = idt::ulidflake_next(0, false, FE + 5, 3, 6, 9, ~0ull, 1);
	CHECK(g.value == idt::ulidflake_pack(5, (6ull << 17) | (0x1FFull << 5) | 9));
}

TEST_CASE("ulidflake_next: the era from 2024-01-01", "[generate]")
{
	const std::int64_t end = FE + static_cast<std::int64_t>(idt::ulidflake_max_ms);
	CHECK(idt::ulidflake_next(0, false, FE - 1, 0, 0, -1, 0, 1).status ==
		  gen_status::time_out_of_range);
	CHECK(idt::ulidflake_next(0, false, FE - 1, 0, 0, 7, 0, 1).status ==
		  gen_status::time_out_of_range);
	CHECK(idt::ulidflake_next(0, false, end + 1, 0, 0, -1, 0, 1).status ==
		  gen_status::time_out_of_range);
	idt::gen64 g = idt::ulidflake_next(0, false, FE, 0, 0, -1, 0, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == 0);
	g = idt::ulidflake_next(0, false, end, 0, 0, -1, ~0ull, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::ulidflake_pack(idt::ulidflake_max_ms, 0xFFFFFull >> 3));
	CHECK(idt::ulidflake_next(idt::ulidflake_max, true, end, 0, 0, -1, 0, 1).status ==
		  gen_status::overflow);
}

// ==== tid ===========================================================================================

// tid_next without a bound on how far it runs ahead of its clock.
constexpr std::int64_t no_bound = INT64_MAX;

TEST_CASE("tid_next: micros = max(now; last + 1) with the argument's clock id", "[generate]")
{
	const std::uint64_t t = 1721407246480310ull;
	const std::int64_t ts = static_cast<std::int64_t>(t);
	idt::gen64 g = idt::tid_next(0, false, ts, 1, no_bound);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::timeid_pack(t, 1));

	const std::uint64_t last = idt::timeid_pack(t, 1);
	g = idt::tid_next(last, true, ts, 1, no_bound);
	CHECK(g.value == idt::timeid_pack(t + 1, 1));
	g = idt::tid_next(last, true, ts - 1000000, 1, no_bound);
	CHECK(g.value == idt::timeid_pack(t + 1, 1));
	g = idt::tid_next(last, true, -5, 1, no_bound);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::timeid_pack(t + 1, 1));
	g = idt::tid_next(last, true, ts + 1, 1, no_bound);
	CHECK(g.value == idt::timeid_pack(t + 1, 1));
	g = idt::tid_next(last, true, ts + 5, 1, no_bound);
	CHECK(g.value == idt::timeid_pack(t + 5, 1));
	// The clock id is the argument's, masked to 10 bits; the last ID's clock id does not matter.
	g = idt::tid_next(idt::timeid_pack(t, 1023), true, ts, 7, no_bound);
	CHECK(g.value == idt::timeid_pack(t + 1, 7));
	CHECK(g.value > idt::timeid_pack(t, 1023));
	g = idt::tid_next(0, false, ts, 1024 + 9, no_bound);
	CHECK(idt::timeid_clock_id(g.value) == 9u);
}

TEST_CASE("tid_next: runs at most max_ahead_us ahead of its clock, then overflows", "[generate]")
{
	const std::uint64_t t = 1721407246480310ull;
	const std::int64_t ts = static_cast<std::int64_t>(t);
	// last + 1 is 1 us ahead of now: within a bound of 1, beyond a bound of 0.
	idt::gen64 g = idt::tid_next(idt::timeid_pack(t, 1), true, ts, 1, 1);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::timeid_pack(t + 1, 1));
	CHECK(idt::tid_next(idt::timeid_pack(t, 1), true, ts, 1, 0).status == gen_status::overflow);
	// 100 ms ahead: the bound; 100 ms + 1 us: one too many.
	CHECK(idt::tid_next(idt::timeid_pack(t + 99999, 1), true, ts, 1, 100000).status ==
		  gen_status::ok);
	CHECK(idt::tid_next(idt::timeid_pack(t + 100000, 1), true, ts, 1, 100000).status ==
		  gen_status::overflow);
	// A clock that caught up ends the overflow; a clock far behind stays in it.
	CHECK(idt::tid_next(idt::timeid_pack(t + 100000, 1), true, ts + 1, 1, 100000).status ==
		  gen_status::ok);
	CHECK(idt::tid_next(idt::timeid_pack(t, 1), true, ts - 5000000, 1, 100000).status ==
		  gen_status::overflow);
}

TEST_CASE("steady_now: the wall clock while it leads, else time runs on from the latest",
		  "[generate]")
{
	idt::steady_clock c = {};
	CHECK_FALSE(idt::steady_needs_mono(c, 1000));
	CHECK(idt::steady_now(c, 1000, 0) == 1000);
	CHECK(idt::steady_now(c, 1500, 0) == 1500);
	// The wall clock steps back 1000: time stays at the latest, then runs at half the rate of the
	// monotonic clock.
	CHECK(idt::steady_needs_mono(c, 500));
	CHECK(idt::steady_now(c, 500, 70) == 1500);
	CHECK(c.behind);
	CHECK(idt::steady_now(c, 510, 90) == 1510);
	CHECK(idt::steady_now(c, 520, 470) == 1700);
	// A monotonic clock that went back: time stands still, never back.
	CHECK(idt::steady_now(c, 530, 60) == 1500);
	// The wall clock catches up (its gap closes at half the monotonic rate) and leads again.
	CHECK(idt::steady_now(c, 1600, 2070) == 2500);
	CHECK(idt::steady_now(c, 2600, 2070) == 2600);
	CHECK_FALSE(c.behind);
	CHECK(idt::steady_now(c, 2601, 0) == 2601);
}

TEST_CASE("steady_floor: a restart floor after the clock is where time runs from", "[generate]")
{
	idt::steady_clock c = {};
	idt::steady_floor(c, 5000000, 10);
	CHECK(c.behind);
	CHECK(idt::steady_now(c, 1000000, 10) == 5000000);
	CHECK(idt::steady_now(c, 1000000, 2010) == 5001000);
	// The wall clock 1 s behind the floor: it catches up after 2 s.
	idt::steady_clock d = {};
	idt::steady_floor(d, 5000000, 0);
	CHECK(idt::steady_now(d, 4000000, 0) == 5000000);
	CHECK(idt::steady_now(d, 5000000, 1000000) == 5500000);
	CHECK(idt::steady_now(d, 6000001, 2000000) == 6000001);
	CHECK_FALSE(d.behind);
	CHECK(idt::steady_now(c, 6000000, 3020) == 6000000);
	CHECK_FALSE(c.behind);
	// A floor before the time already handed out changes nothing.
	idt::steady_floor(c, 100, 4000);
	CHECK_FALSE(c.behind);
	CHECK(idt::steady_now(c, 6000001, 0) == 6000001);
	// A floor while behind: the later of the two.
	CHECK(idt::steady_now(c, 10, 5000) == 6000001);
	idt::steady_floor(c, 6000000, 6000);
	CHECK(idt::steady_now(c, 10, 6000) == 6000501);
	idt::steady_floor(c, 9000000, 7000);
	CHECK(idt::steady_now(c, 10, 8000) == 9000500);
}

TEST_CASE("tid_next: the 53-bit era", "[generate]")
{
	const std::int64_t max = static_cast<std::int64_t>(idt::timeid_max_us);
	CHECK(idt::tid_next(0, false, -1, 0, no_bound).status == gen_status::time_out_of_range);
	CHECK(idt::tid_next(0, false, max + 1, 0, no_bound).status == gen_status::time_out_of_range);
	idt::gen64 g = idt::tid_next(0, false, 0, 0, no_bound);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == 0);
	g = idt::tid_next(0, false, max, 1023, no_bound);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::timeid_max);
	// no microsecond left after the last one
	CHECK(idt::tid_next(idt::timeid_pack(idt::timeid_max_us, 0), true, max, 0, no_bound).status ==
		  gen_status::time_out_of_range);
	CHECK(idt::tid_next(idt::timeid_pack(idt::timeid_max_us - 1, 0), true, 5, 0, no_bound).value ==
		  idt::timeid_pack(idt::timeid_max_us, 0));
}

// ==== ulid ==========================================================================================

TEST_CASE("ulid_next: fresh in a new ms and previous + 1 in the same ms", "[generate]")
{
	const std::uint64_t ms = 1469922850259ull;
	const std::int64_t now = static_cast<std::int64_t>(ms);
	idt::gen128 g = idt::ulid_next({0, 0}, false, now, 0x1ABCD, 0x1122334455667788ull);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == idt::ulid_pack(ms, 0xABCD, 0x1122334455667788ull));
	CHECK(g.value == u128{(ms << 16) | 0xABCD, 0x1122334455667788ull});

	SECTION("the spec's monotonic example")
	{
		u128 v = ulid_text("01BX5ZZKBKACTAV9WEVGEMMVRY");
		const std::int64_t t = static_cast<std::int64_t>(idt::ulid_ms(v));
		for (const char *want : {"01BX5ZZKBKACTAV9WEVGEMMVRZ", "01BX5ZZKBKACTAV9WEVGEMMVS0",
								 "01BX5ZZKBKACTAV9WEVGEMMVS1"})
		{
			g = idt::ulid_next(v, true, t, 0xFFFF, ~0ull);
			REQUIRE(g.status == gen_status::ok);
			CHECK(ulid_str(g.value) == want);
			v = g.value;
		}
	}
	SECTION("carry from the low word into the high word")
	{
		g = idt::ulid_next({(ms << 16) | 5, ~0ull}, true, now, 0, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{(ms << 16) | 6, 0});
		for (std::uint64_t r16 : {0x0FFFull, 0x7FFFull, 0xFFF0ull, 0xFFFEull})
		{
			CAPTURE(r16);
			g = idt::ulid_next({(ms << 16) | r16, ~0ull}, true, now, 0, 0);
			CHECK(g.status == gen_status::ok);
			CHECK(g.value == u128{(ms << 16) | (r16 + 1), 0});
		}
	}
	SECTION("overflow when the 80 random bits are all ones")
	{
		const u128 top = ulid_text("01BX5ZZKBKZZZZZZZZZZZZZZZZ");
		CHECK(top == u128{(idt::ulid_ms(top) << 16) | 0xFFFF, ~0ull});
		const std::int64_t t = static_cast<std::int64_t>(idt::ulid_ms(top));
		CHECK(idt::ulid_next(top, true, t, 0, 0).status == gen_status::overflow);
		CHECK(idt::ulid_next(top, true, t - 100, 0, 0).status == gen_status::overflow);
		g = idt::ulid_next(ulid_text("01BX5ZZKBKZZZZZZZZZZZZZZZY"), true, t, 0, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(ulid_str(g.value) == "01BX5ZZKBKZZZZZZZZZZZZZZZZ");
		// the next ms is fresh again
		g = idt::ulid_next(top, true, t + 1, 3, 4);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::ulid_pack(static_cast<std::uint64_t>(t + 1), 3, 4));
	}
	SECTION("a clock that went back: previous + 1")
	{
		g = idt::ulid_next({(ms << 16) | 5, 41}, true, now - 3600000, 9, 9);
		CHECK(g.value == u128{(ms << 16) | 5, 42});
		g = idt::ulid_next({(ms << 16) | 5, 41}, true, -1, 9, 9);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{(ms << 16) | 5, 42});
	}
	SECTION("era")
	{
		const std::int64_t max = static_cast<std::int64_t>(idt::ulid_max_ms);
		CHECK(idt::ulid_next({0, 0}, false, -1, 0, 0).status == gen_status::time_out_of_range);
		CHECK(idt::ulid_next({0, 0}, false, max + 1, 0, 0).status == gen_status::time_out_of_range);
		g = idt::ulid_next({0, 0}, false, max, 0xFFFF, ~0ull);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{~0ull, ~0ull});
		g = idt::ulid_next({0, 0}, false, 0, 0, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{0, 0});
	}
}

// ==== euid ==========================================================================================

TEST_CASE("euid_next: same ms increments the high 32 random bits", "[generate]")
{
	const std::uint64_t ms = 1721407246480ull;
	const std::int64_t now = static_cast<std::int64_t>(ms);
	const u128 first = idt::euid_pack(ms, 5, 0x1234, 0x00000010DEADBEEFull);

	idt::gen128 g = idt::euid_next({0, 0}, false, now, 5, 0x1234, 0x00000010DEADBEEFull);
	CHECK(g.status == gen_status::ok);
	CHECK(g.value == first);

	SECTION("high word unchanged, high 32 random bits + 1, low 32 fresh")
	{
		g = idt::euid_next(first, true, now, 5, 0x7FFF, 0xAAAAAAAA55555555ull);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value.hi == first.hi);
		CHECK(g.value.lo == ((0x11ull << 32) | 0x55555555ull));
		CHECK(idt::euid_extension(g.value) == 5);
		CHECK(g.value > first);
		// also without an extension
		const u128 none = idt::euid_pack(ms, -1, 0x7ABC, 0x00000020FFFFFFFFull);
		g = idt::euid_next(none, true, now, -1, 0, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{none.hi, 0x21ull << 32});
	}
	SECTION("overflow at 0xFFFFFFFF")
	{
		const u128 top = idt::euid_pack(ms, 5, 0, 0xFFFFFFFF00000000ull);
		CHECK(idt::euid_next(top, true, now, 5, 0, 0).status == gen_status::overflow);
		CHECK(idt::euid_next(top, true, now - 50, 5, 0, 0).status == gen_status::overflow);
		const u128 almost = idt::euid_pack(ms, 5, 0, 0xFFFFFFFE12345678ull);
		g = idt::euid_next(almost, true, now, 5, 0, 0x9999999987654321ull);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{almost.hi, 0xFFFFFFFF87654321ull});
		// the next ms is fresh
		g = idt::euid_next(top, true, now + 1, 5, 1, 2);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::euid_pack(ms + 1, 5, 1, 2));
	}
	SECTION("a clock that went back counts as the last ms")
	{
		g = idt::euid_next(first, true, now - 1000, 5, 0, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == u128{first.hi, 0x11ull << 32});
		CHECK(idt::euid_ms(g.value) == ms);
	}
	SECTION("a different extension in the same ms: a new high word, never a smaller ID")
	{
		// extension 5 -> 6 with random bits that sort higher: accepted as packed
		const u128 low = idt::euid_pack(ms, 5, 0, 0);
		g = idt::euid_next(low, true, now, 6, 0x7FFF, 0x42);
		CHECK(g.status == gen_status::ok);
		CHECK(g.value == idt::euid_pack(ms, 6, 0x7FFF, 0x42));
		CHECK(g.value > low);
		// ... and with bits that would sort lower: overflow
		const u128 high = idt::euid_pack(ms, 5, 0x7FFF, ~0ull);
		g = idt::euid_next(high, true, now, 6, 0, 0);
		CHECK(g.status == gen_status::overflow);
		// from an extension to none and back
		g = idt::euid_next(high, true, now, -1, 0, 0);
		CHECK(g.status == gen_status::overflow);
		g = idt::euid_next(idt::euid_pack(ms, -1, 0, 0), true, now, 3, 0x7FFF, 0);
		CHECK(g.status == gen_status::ok);
		CHECK(idt::euid_extension(g.value) == 3);
	}
	SECTION("era: 45-bit Unix ms")
	{
		const std::int64_t max = static_cast<std::int64_t>(idt::euid_max_ms);
		CHECK(idt::euid_next({0, 0}, false, -1, -1, 0, 0).status == gen_status::time_out_of_range);
		CHECK(idt::euid_next({0, 0}, false, max + 1, -1, 0, 0).status ==
			  gen_status::time_out_of_range);
		g = idt::euid_next({0, 0}, false, max, 32767, 0, ~0ull);
		CHECK(g.status == gen_status::ok);
		CHECK(idt::euid_ms(g.value) == idt::euid_max_ms);
		CHECK(idt::euid_extension(g.value) == 32767);
	}
}

// ==== every monotonic generator under a wandering clock =============================================

TEST_CASE("random walk: monotonic generators never go down", "[generate]")
{
	std::mt19937_64 rng(seed + 1);

	SECTION("xid (plain, and partitioned to force overflows)")
	{
		for (unsigned fixed_bits : {0u, 12u})
		{
			CAPTURE(fixed_bits);
			const std::uint64_t cmask = (1ull << (22 - fixed_bits)) - 1;
			std::uint64_t last = 0;
			bool have = false;
			std::int64_t now = XE + 100000000;
			int ok = 0, overflow = 0;
			for (int i = 0; i < walk_steps; i++)
			{
				now += clock_step(rng);
				const std::uint64_t random = rng(), step = 1 + rng() % 255;
				const idt::gen64 g =
					idt::xid_next(last, have, now, fixed_bits, fixed_bits ? 0x9 : 0, random, step);
				const std::uint64_t last_ms = idt::xid_ms(last);
				const std::uint64_t now_ms = static_cast<std::uint64_t>(now - XE);
				if (g.status == gen_status::overflow)
				{
					LOOP_REQUIRE(have && now_ms <= last_ms, "i=" << i);
					overflow++;
					now = XE + static_cast<std::int64_t>(last_ms) + 1; // the caller waits
					continue;
				}
				LOOP_REQUIRE(g.status == gen_status::ok, "i=" << i);
				LOOP_REQUIRE(!have || g.value > last,
							 "i=" << i << " last=" << last << " v=" << g.value);
				const bool same = have && now_ms <= last_ms;
				LOOP_REQUIRE(idt::xid_ms(g.value) == (same ? last_ms : now_ms), "i=" << i);
				const std::uint64_t counter = g.value & cmask;
				LOOP_REQUIRE(counter == (same ? (last & cmask) + step : random & (cmask >> 3)),
							 "i=" << i);
				LOOP_REQUIRE((idt::xid_random(g.value) >> (22 - fixed_bits)) ==
								 (fixed_bits ? 0x9u : 0u),
							 "i=" << i);
				last = g.value;
				have = true;
				ok++;
			}
			CHECK(ok > walk_steps / 2);
			if (fixed_bits)
				CHECK(overflow > 1000);
		}
	}
	SECTION("ulidflake (stand-alone and scalable)")
	{
		for (int sid : {-1, 21})
		{
			CAPTURE(sid);
			const unsigned fixed_bits = sid < 0 ? 0 : 6;
			std::uint64_t last = 0;
			bool have = false;
			std::int64_t now = FE + 100000000;
			int ok = 0;
			for (int i = 0; i < walk_steps; i++)
			{
				now += clock_step(rng);
				const idt::gen64 g =
					idt::ulidflake_next(last, have, now, fixed_bits, fixed_bits ? 0x2A : 0, sid,
										rng(), 1 + rng() % 255);
				const std::uint64_t last_ms = idt::ulidflake_ms(last);
				const std::uint64_t now_ms = static_cast<std::uint64_t>(now - FE);
				if (g.status == gen_status::overflow)
				{
					LOOP_REQUIRE(have && now_ms <= last_ms, "i=" << i);
					now = FE + static_cast<std::int64_t>(last_ms) + 1; // the caller waits
					continue;
				}
				LOOP_REQUIRE(g.status == gen_status::ok, "i=" << i);
				LOOP_REQUIRE(!have || g.value > last,
							 "i=" << i << " last=" << last << " v=" << g.value);
				LOOP_REQUIRE(idt::ulidflake_ms(g.value) ==
								 (have && now_ms <= last_ms ? last_ms : now_ms),
							 "i=" << i);
				LOOP_REQUIRE(g.value <= idt::ulidflake_max, "i=" << i);
				if (sid >= 0)
					LOOP_REQUIRE(idt::ulidflake_sid(g.value) == 21u &&
									 ((g.value >> 14) & 63) == 0x2Au,
								 "i=" << i);
				last = g.value;
				have = true;
				ok++;
			}
			CHECK(ok > walk_steps / 2);
		}
	}
	SECTION("tid")
	{
		std::uint64_t last = 0;
		bool have = false;
		std::int64_t now = 1721407246480310;
		for (int i = 0; i < walk_steps; i++)
		{
			now += clock_step(rng);
			const unsigned clock = static_cast<unsigned>(rng() % 1024);
			const idt::gen64 g = idt::tid_next(last, have, now, clock, no_bound);
			LOOP_REQUIRE(g.status == gen_status::ok, "i=" << i);
			LOOP_REQUIRE(!have || g.value > last, "i=" << i);
			const std::uint64_t want =
				have && now <= static_cast<std::int64_t>(idt::timeid_micros(last))
					? idt::timeid_micros(last) + 1
					: static_cast<std::uint64_t>(now);
			LOOP_REQUIRE(idt::timeid_micros(g.value) == want &&
							 idt::timeid_clock_id(g.value) == clock,
						 "i=" << i);
			last = g.value;
			have = true;
		}
		SUCCEED("tid walk done");
	}
	SECTION("ulid (monotonic)")
	{
		u128 last = {0, 0};
		bool have = false;
		std::int64_t now = 1469922850259;
		int overflow = 0;
		for (int i = 0; i < walk_steps; i++)
		{
			now += clock_step(rng);
			// Sometimes start the ms near the top of the random bits, to cross the carry.
			const bool top = rng() % 8 == 0;
			const std::uint64_t r16 = top ? 0xFFFF - rng() % 2 : rng();
			const std::uint64_t r64 = top ? ~0ull - rng() % 4 : rng();
			const idt::gen128 g = idt::ulid_next(last, have, now, r16, r64);
			if (g.status == gen_status::overflow)
			{
				LOOP_REQUIRE(have && (last.hi & 0xFFFF) == 0xFFFF && last.lo == ~0ull, "i=" << i);
				overflow++;
				now = static_cast<std::int64_t>(idt::ulid_ms(last)) + 1; // the caller waits
				continue;
			}
			LOOP_REQUIRE(g.status == gen_status::ok, "i=" << i);
			LOOP_REQUIRE(!have || g.value > last, "i=" << i);
			const bool same = have && now <= static_cast<std::int64_t>(idt::ulid_ms(last));
			LOOP_REQUIRE(same
							 ? wide(g.value) == wide(last) + 1
							 : g.value == idt::ulid_pack(static_cast<std::uint64_t>(now), r16, r64),
						 "i=" << i);
			last = g.value;
			have = true;
		}
		CHECK(overflow > 10); // the 80-bit space overflows only from a start near its top
	}
	SECTION("euid (with changing extensions)")
	{
		const int extensions[] = {-1, 0, 1, 5, 4095, 32767};
		u128 last = {0, 0};
		bool have = false;
		std::int64_t now = 1721407246480;
		int ext = 5, ok = 0, overflow = 0;
		for (int i = 0; i < walk_steps; i++)
		{
			now += clock_step(rng);
			if (rng() % 10 == 0)
				ext = extensions[rng() % 6];
			const std::uint64_t r15 = rng(), r64 = rng();
			const idt::gen128 g = idt::euid_next(last, have, now, ext, r15, r64);
			const bool same = have && now <= static_cast<std::int64_t>(idt::euid_ms(last));
			if (g.status == gen_status::overflow)
			{
				LOOP_REQUIRE(same, "i=" << i);
				overflow++;
				now = static_cast<std::int64_t>(idt::euid_ms(last)) + 1; // the caller waits
				continue;
			}
			LOOP_REQUIRE(g.status == gen_status::ok, "i=" << i);
			LOOP_REQUIRE(!have || g.value > last, "i=" << i);
			LOOP_REQUIRE(idt::euid_ms(g.value) ==
							 (same ? idt::euid_ms(last) : static_cast<std::uint64_t>(now)),
						 "i=" << i);
			LOOP_REQUIRE(idt::euid_extension(g.value) == ext, "i=" << i);
			if (same && idt::euid_extension(last) == ext)
				LOOP_REQUIRE(g.value.hi == last.hi && (g.value.lo >> 32) == (last.lo >> 32) + 1 &&
								 (g.value.lo & 0xFFFFFFFF) == (r64 & 0xFFFFFFFF),
							 "i=" << i);
			last = g.value;
			have = true;
			ok++;
		}
		CHECK(ok > walk_steps / 2);
		CHECK(overflow > 100);
	}
}

TEST_CASE("generators: extreme int64 clock values (no signed overflow)", "[generate]")
{
	// A pure function of an int64 clock must accept every int64 (the glue may pass a
	// timestamptz far outside any era).
	for (std::int64_t now : {INT64_MIN, INT64_MIN + 1, INT64_MAX})
	{
		CAPTURE(now);
		CHECK(idt::xid_next(0, false, now, 0, 0, 0, 1).status == gen_status::time_out_of_range);
		CHECK(idt::ulidflake_next(0, false, now, 0, 0, -1, 0, 1).status ==
			  gen_status::time_out_of_range);
		CHECK(idt::tid_next(0, false, now, 0, no_bound).status == gen_status::time_out_of_range);
		CHECK(idt::ulid_next({0, 0}, false, now, 0, 0).status == gen_status::time_out_of_range);
		CHECK(idt::euid_next({0, 0}, false, now, -1, 0, 0).status == gen_status::time_out_of_range);
	}
	// With a last ID, a clock at -infinity is a clock that went back.
	const idt::gen64 x = idt::xid_next(idt::xid_pack(5, 1), true, INT64_MIN, 0, 0, 0, 1);
	CHECK(x.status == gen_status::ok);
	CHECK(x.value == idt::xid_pack(5, 2));
	const idt::gen64 f =
		idt::ulidflake_next(idt::ulidflake_pack(5, 1), true, INT64_MIN, 0, 0, -1, 0, 1);
	CHECK(f.status == gen_status::ok);
	CHECK(f.value == idt::ulidflake_pack(5, 2));
}

TEST_CASE("ulid_fraction_next: the ms, its fraction in 4096ths, 68 random bits", "[generate]")
{
	idt::ulid_clock c = {0, false};
	// 1,700,000,000,123.456 ms: fraction 456/1000 of 4096 = 1867 (0x74B).
	const idt::gen128 g = idt::ulid_fraction_next(c, 1700000000123456, 0xFF, 0x1122334455667788ull);
	REQUIRE(g.status == idt::gen_status::ok);
	CHECK(idt::ulid_ms(g.value) == 1700000000123ull);
	CHECK((g.value.hi & 0xFFFF) >> 4 == 1867);
	CHECK((g.value.hi & 0xF) == 0xF); // the low 4 bits of random_hi4
	CHECK(g.value.lo == 0x1122334455667788ull);

	SECTION("a later fraction: its own time, fresh bits")
	{
		const idt::gen128 h = idt::ulid_fraction_next(c, 1700000000123900, 0x0, 0x1);
		REQUIRE(h.status == idt::gen_status::ok);
		CHECK((h.value.hi & 0xFFFF) >> 4 == 900 * 4096 / 1000);
		CHECK(h.value.lo == 1);
		CHECK(g.value < h.value);
	}
	SECTION("the same fraction, or a clock gone back: one 4096th past the last, fresh bits")
	{
		const idt::gen128 h = idt::ulid_fraction_next(c, 1700000000123456, 0x0, 0x0);
		REQUIRE(h.status == idt::gen_status::ok);
		CHECK((h.value.hi & 0xFFFF) >> 4 == 1868);
		CHECK(g.value < h.value);
		const idt::gen128 k = idt::ulid_fraction_next(c, 1600000000000000, 0x3, 0x2);
		REQUIRE(k.status == idt::gen_status::ok);
		CHECK((k.value.hi & 0xFFFF) >> 4 == 1869);
		CHECK(k.value.lo == 2);
		CHECK(h.value < k.value);
	}
	SECTION("the last fraction of a ms carries into the next ms")
	{
		idt::ulid_clock d = {(5ull << 12) | 4095, true};
		const idt::gen128 h = idt::ulid_fraction_next(d, 5000, 0, 0);
		REQUIRE(h.status == idt::gen_status::ok);
		CHECK(idt::ulid_ms(h.value) == 6);
		CHECK((h.value.hi & 0xFFFF) >> 4 == 0);
	}
	SECTION("out of range: before 1970, after the 48-bit ms, or stepping past it")
	{
		idt::ulid_clock d = {0, false};
		CHECK(idt::ulid_fraction_next(d, -1, 0, 0).status == idt::gen_status::time_out_of_range);
		CHECK(idt::ulid_fraction_next(d, INT64_MAX, 0, 0).status ==
			  idt::gen_status::time_out_of_range);
		idt::ulid_clock e = {(idt::ulid_max_ms << 12) | 4095, true};
		CHECK(idt::ulid_fraction_next(e, 0, 0, 0).status == idt::gen_status::time_out_of_range);
	}
}

TEST_CASE("ulid_fraction_next: a random walk of the clock, strictly increasing", "[generate]")
{
	std::mt19937_64 rng(42);
	idt::ulid_clock c = {0, false};
	idt::u128 last = {0, 0};
	std::int64_t now = 1700000000000000;
	for (int i = 0; i < 200000; i++)
	{
		now += static_cast<std::int64_t>(rng() % 5) - 1; // mostly on, sometimes back a us
		if (i % 50000 == 0)
			now -= 3000000; // a step back of 3 s
		const idt::gen128 g = idt::ulid_fraction_next(c, now, rng(), rng());
		REQUIRE(g.status == idt::gen_status::ok);
		if (i > 0)
		{
			LOOP_REQUIRE(last < g.value, "i = " << i);
		}
		last = g.value;
	}
}
