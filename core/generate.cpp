// Generator steps as pure functions of (previous ID, now, random bits).
#include "idtypes/generate.hpp"

namespace idt
{
std::int64_t
steady_behind(steady_clock &c, std::int64_t wall_us, std::int64_t mono_us) noexcept
{
	if (!c.behind)
	{
		if (wall_us >= c.high_us)
			return c.high_us = wall_us;
		// The wall clock went back: time runs on from the latest time handed out.
		c.behind = true;
		c.mono_at = mono_us;
		return c.high_us;
	}
	// A monotonic clock never goes back; if it did (a fault), time stands still. Half the rate:
	// the gap to the wall clock closes.
	const std::int64_t elapsed = mono_us > c.mono_at ? (mono_us - c.mono_at) / 2 : 0;
	const std::int64_t virt =
		c.high_us >= 0 && elapsed > INT64_MAX - c.high_us ? INT64_MAX : c.high_us + elapsed;
	if (wall_us >= virt)
	{
		c.behind = false;
		return c.high_us = wall_us;
	}
	return virt;
}

void
steady_floor(steady_clock &c, std::int64_t floor_us, std::int64_t mono_us) noexcept
{
	const std::int64_t now = c.behind ? steady_behind(c, INT64_MIN, mono_us) : c.high_us;
	if (floor_us <= now)
		return;
	c.high_us = floor_us;
	c.mono_at = mono_us;
	c.behind = true;
}

gen128
ulid_fraction_next(ulid_clock &c, std::int64_t now_unix_us, std::uint64_t random_hi4,
				   std::uint64_t random_lo64) noexcept
{
	if (now_unix_us < 0 || static_cast<std::uint64_t>(now_unix_us) / 1000 > ulid_max_ms)
		return {{0, 0}, gen_status::time_out_of_range};
	const std::uint64_t us = static_cast<std::uint64_t>(now_unix_us);
	std::uint64_t t =
		(us / 1000) << ulid_fraction_bits | (us % 1000) * (1u << ulid_fraction_bits) / 1000;
	if (c.have && t <= c.last)
		t = c.last + 1;
	if (t >> ulid_fraction_bits > ulid_max_ms)
		return {{0, 0}, gen_status::time_out_of_range};
	c.last = t;
	c.have = true;
	const std::uint64_t fraction = t & ((1u << ulid_fraction_bits) - 1);
	return {ulid_pack(t >> ulid_fraction_bits, fraction << 4 | (random_hi4 & 0xF), random_lo64),
			gen_status::ok};
}

gen128
ulid_next(u128 last, bool have_last, std::int64_t now_unix_ms, std::uint64_t random_hi16,
		  std::uint64_t random_lo64) noexcept
{
	if (have_last && now_unix_ms <= static_cast<std::int64_t>(ulid_ms(last)))
	{
		if ((last.hi & 0xFFFF) == 0xFFFF && last.lo == ~0ull)
			return {{0, 0}, gen_status::overflow};
		u128 v = last;
		if (++v.lo == 0)
			v.hi++;
		return {v, gen_status::ok};
	}
	if (now_unix_ms < 0 || static_cast<std::uint64_t>(now_unix_ms) > ulid_max_ms)
		return {{0, 0}, gen_status::time_out_of_range};
	return {ulid_pack(static_cast<std::uint64_t>(now_unix_ms), random_hi16, random_lo64),
			gen_status::ok};
}

gen128
euid_next(u128 last, bool have_last, std::int64_t now_unix_ms, int extension,
		  std::uint64_t random15, std::uint64_t random64) noexcept
{
	if (have_last && now_unix_ms <= static_cast<std::int64_t>(euid_ms(last)))
	{
		const std::uint64_t ms = euid_ms(last);
		if (euid_extension(last) == extension)
		{
			const std::uint64_t r_hi = last.lo >> 32;
			if (r_hi == 0xFFFFFFFFull)
				return {{0, 0}, gen_status::overflow};
			return {{last.hi, ((r_hi + 1) << 32) | (random64 & 0xFFFFFFFFull)}, gen_status::ok};
		}
		const u128 v = euid_pack(ms, extension, random15, random64);
		if (v <= last)
			return {{0, 0}, gen_status::overflow};
		return {v, gen_status::ok};
	}
	if (now_unix_ms < 0 || static_cast<std::uint64_t>(now_unix_ms) > euid_max_ms)
		return {{0, 0}, gen_status::time_out_of_range};
	return {euid_pack(static_cast<std::uint64_t>(now_unix_ms), extension, random15, random64),
			gen_status::ok};
}

} // namespace idt
