// Value types shared by every codec and format of the idtypes core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace idt
{

// A 128-bit ID as two big-endian halves; ordering is unsigned and equals byte order.
struct u128
{
	std::uint64_t hi;
	std::uint64_t lo;
};

constexpr bool
operator==(u128 a, u128 b) noexcept
{
	return a.hi == b.hi && a.lo == b.lo;
}
constexpr bool
operator!=(u128 a, u128 b) noexcept
{
	return !(a == b);
}
constexpr bool
operator<(u128 a, u128 b) noexcept
{
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
constexpr bool
operator<=(u128 a, u128 b) noexcept
{
	return !(b < a);
}
constexpr bool
operator>(u128 a, u128 b) noexcept
{
	return b < a;
}
constexpr bool
operator>=(u128 a, u128 b) noexcept
{
	return !(a < b);
}

// Why a parse failed. Every kind but out_of_range is malformed text (SQLSTATE 22P02);
// out_of_range is well-formed text whose value the type cannot hold (22003).
enum class errc : std::uint8_t
{
	ok,
	bad_length,   // wrong number of symbols; offset = the length seen
	bad_symbol,   // not in the alphabet (or a case/alias the type rejects); offset = its index
	bad_dash,     // a dash where the display form has none (timeid); offset = its index
	bad_check,    // EUID check symbol does not match; offset = index of the check symbol
	out_of_range, // value larger than the type allows; offset = 0
	missing_dash, // no dash where the display form has one (timeid); offset = that index
};

struct parse64
{
	std::uint64_t value;
	errc error;
	std::uint8_t offset; // 0-based byte index in the input (clamped to 255)
};

struct parse128
{
	u128 value;
	errc error;
	std::uint8_t offset;
};

// A closed range [lo, hi] of IDs; empty when no ID qualifies.
struct range64
{
	std::uint64_t lo;
	std::uint64_t hi;
	bool empty;
	errc error; // for prefixes: bad_symbol / bad_length / bad_dash / bad_check
	std::uint8_t offset;
	bool exact; // false when the range is a superset of the IDs whose text starts with the prefix
};

struct range128
{
	u128 lo;
	u128 hi;
	bool empty;
	errc error;
	std::uint8_t offset;
	bool exact;
};

// Nothing here may own a resource: these values live across ereport()'s longjmp in the glue.
static_assert(std::is_trivially_destructible<parse64>::value, "POD only");
static_assert(std::is_trivially_destructible<parse128>::value, "POD only");
static_assert(std::is_trivially_destructible<range64>::value, "POD only");
static_assert(std::is_trivially_destructible<range128>::value, "POD only");

} // namespace idt

#ifdef POSTGRES_H
#error "core/ must not see PostgreSQL headers: include core headers before postgres.h"
#endif
