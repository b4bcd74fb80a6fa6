// Fuzz target: time windows to unit ranges (window_units) and the five <type>_time_range
// functions built on it, against a reference that finds the first and last qualifying unit by
// binary search on the definition (unit u is in the window iff its instant (u + epoch) * unit_us
// meets both bounds), with no floor or ceiling division to get wrong.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_support.hpp"

namespace
{
using wide = __int128;

struct ref_units
{
	std::uint64_t lo, hi;
	bool empty;
};

struct params
{
	std::int64_t unit_us;
	std::int64_t epoch_units;
	std::uint64_t max_units;
};

wide
instant(std::uint64_t u, const params &p)
{
	return (static_cast<wide>(u) + p.epoch_units) * p.unit_us;
}

bool
after_lo(const idt::time_window &w, wide t)
{
	return w.lo_infinite || (w.lo_inclusive ? t >= w.lo_us : t > w.lo_us);
}

bool
before_hi(const idt::time_window &w, wide t)
{
	return w.hi_infinite || (w.hi_inclusive ? t <= w.hi_us : t < w.hi_us);
}

// Instants grow with u (unit_us > 0): after_lo holds from some unit on, before_hi up to some unit.
ref_units
reference(const idt::time_window &w, const params &p)
{
	if (!after_lo(w, instant(p.max_units, p)) || !before_hi(w, instant(0, p)))
		return {0, 0, true};
	std::uint64_t a = 0, b = p.max_units; // smallest u with after_lo
	while (a < b)
	{
		const std::uint64_t mid = a + (b - a) / 2;
		if (after_lo(w, instant(mid, p)))
			b = mid;
		else
			a = mid + 1;
	}
	const std::uint64_t lo = a;
	a = 0;
	b = p.max_units; // largest u with before_hi
	while (a < b)
	{
		const std::uint64_t mid = a + (b - a) / 2 + (b - a) % 2;
		if (before_hi(w, instant(mid, p)))
			a = mid;
		else
			b = mid - 1;
	}
	const std::uint64_t hi = a;
	if (lo > hi)
		return {0, 0, true};
	return {lo, hi, false};
}

void
check_units(const idt::time_window &w, const params &p)
{
	const idt::unit_range r = idt::window_units(w, p.unit_us, p.epoch_units, p.max_units);
	const ref_units ref = reference(w, p);
	FZ_CHECK(r.empty == ref.empty);
	if (!ref.empty)
		FZ_CHECK(r.lo == ref.lo && r.hi == ref.hi);
}

// A 64-bit type's time range: the first ID of the first unit to the last ID of the last unit,
// the unit being the value's bits above field_bits.
void
check_range64(const idt::range64 &r, const ref_units &ref, unsigned field_bits)
{
	FZ_CHECK(r.error == idt::errc::ok && r.empty == ref.empty);
	if (ref.empty)
		return;
	const std::uint64_t field = (std::uint64_t(1) << field_bits) - 1;
	FZ_CHECK(r.lo >> field_bits == ref.lo && (r.lo & field) == 0);
	FZ_CHECK(r.hi >> field_bits == ref.hi && (r.hi & field) == field);
}

// The same for a 128-bit type whose ms sit above hi_field_bits of the high half.
void
check_range128(const idt::range128 &r, const ref_units &ref, unsigned hi_field_bits)
{
	FZ_CHECK(r.error == idt::errc::ok && r.empty == ref.empty);
	if (ref.empty)
		return;
	const fz::uwide lo = fz::wide(r.lo), hi = fz::wide(r.hi);
	const unsigned field_bits = 64 + hi_field_bits;
	const fz::uwide field = (fz::uwide(1) << field_bits) - 1;
	FZ_CHECK(lo >> field_bits == ref.lo && (lo & field) == 0);
	FZ_CHECK(hi >> field_bits == ref.hi && (hi & field) == field);
}

std::int64_t
saturate(wide t)
{
	return t > INT64_MAX ? INT64_MAX : t < INT64_MIN ? INT64_MIN : static_cast<std::int64_t>(t);
}

// A bound near something interesting (the format's epoch or end, zero) or anywhere at all.
std::int64_t
bound(FuzzedDataProvider &in, const params &p)
{
	const wide epoch_us = static_cast<wide>(p.epoch_units) * p.unit_us;
	const wide end_us = epoch_us + static_cast<wide>(p.max_units) * p.unit_us;
	wide base = 0;
	switch (in.ConsumeIntegralInRange<int>(0, 3))
	{
		case 0:
			return in.ConsumeIntegral<std::int64_t>();
		case 1:
			base = epoch_us;
			break;
		case 2:
			base = end_us;
			break;
		default:
			break;
	}
	return saturate(base + in.ConsumeIntegral<std::int32_t>());
}

idt::time_window
window(FuzzedDataProvider &in, const params &p)
{
	idt::time_window w;
	w.lo_us = bound(in, p);
	w.hi_us = in.ConsumeBool()
				  ? bound(in, p)
				  : saturate(static_cast<wide>(w.lo_us) + in.ConsumeIntegral<std::int16_t>());
	w.lo_inclusive = in.ConsumeBool();
	w.hi_inclusive = in.ConsumeBool();
	w.lo_infinite = in.ConsumeIntegralInRange<int>(0, 7) == 0;
	w.hi_infinite = in.ConsumeIntegralInRange<int>(0, 7) == 0;
	return w;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	FuzzedDataProvider in(data, size);
	const params xid = {1000, idt::xid_epoch_ms, idt::xid_max_ms};
	const params timeid = {1, 0, idt::timeid_max_us};
	const params ulidflake = {1000, idt::ulidflake_epoch_ms, idt::ulidflake_max_ms};
	const params ulid = {1000, 0, idt::ulid_max_ms};
	const params euid = {1000, 0, idt::euid_max_ms};

	switch (in.ConsumeIntegralInRange<int>(0, 5))
	{
		case 0:
		{
			const idt::time_window w = window(in, xid);
			check_units(w, xid);
			check_range64(idt::xid_time_range(w), reference(w, xid), idt::xid_random_bits);
			break;
		}
		case 1:
		{
			const idt::time_window w = window(in, timeid);
			check_units(w, timeid);
			check_range64(idt::timeid_time_range(w), reference(w, timeid), idt::timeid_clock_bits);
			break;
		}
		case 2:
		{
			const idt::time_window w = window(in, ulidflake);
			check_units(w, ulidflake);
			check_range64(idt::ulidflake_time_range(w), reference(w, ulidflake),
						  idt::ulidflake_random_bits);
			break;
		}
		case 3:
		{
			const idt::time_window w = window(in, ulid);
			check_units(w, ulid);
			check_range128(idt::ulid_time_range(w), reference(w, ulid), 16);
			break;
		}
		case 4:
		{
			const idt::time_window w = window(in, euid);
			check_units(w, euid);
			check_range128(idt::euid_time_range(w), reference(w, euid), 19);
			break;
		}
		default:
		{
			// window_units itself on any unit, epoch and maximum: the products stay within
			// 2^104, far inside the reference's 128 bits.
			params p;
			p.unit_us = in.ConsumeIntegralInRange<std::int64_t>(1, std::int64_t(1) << 40);
			p.epoch_units = in.ConsumeIntegralInRange<std::int64_t>(-(std::int64_t(1) << 62),
																	std::int64_t(1) << 62);
			p.max_units = in.ConsumeIntegralInRange<std::uint64_t>(0, INT64_MAX);
			check_units(window(in, p), p);
			break;
		}
	}
	return 0;
}
