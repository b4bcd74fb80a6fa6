// The five ID formats as thin layouts over the codecs: text, fields, prefix and time bounds.
//
// Every function is noexcept, allocates nothing, reads no clock and draws no randomness:
// times and random bits are arguments. Text outputs are written without a NUL.
#pragma once

#include "idtypes/codec.hpp"

namespace idt
{

// ---- time windows ------------------------------------------------------------------------------

// A window of Unix microseconds; an infinite side ignores its value and inclusivity.
struct time_window
{
	std::int64_t lo_us;
	std::int64_t hi_us;
	bool lo_inclusive;
	bool hi_inclusive;
	bool lo_infinite;
	bool hi_infinite;
};

// The closed range of format time units [lo, hi] (relative to the format's epoch, clamped to
// [0, max_units]) whose instants unit * unit_us + epoch lie in the window, honouring each
// bound's inclusivity. empty when no unit qualifies.
struct unit_range
{
	std::uint64_t lo;
	std::uint64_t hi;
	bool empty;
};
unit_range window_units(const time_window &w, std::int64_t unit_us, std::int64_t epoch_units,
						std::uint64_t max_units) noexcept;

// ---- uid11 and its xid profile ------------------------------------------------------------------

constexpr std::int64_t xid_epoch_ms = 1321009871111; // 2011-11-11T11:11:11.111Z
constexpr unsigned xid_random_bits = 22;
constexpr std::uint64_t xid_max_ms = (1ull << 42) - 1;

inline parse64
uid11_parse(const char *text, std::size_t len) noexcept
{
	return base58_decode11(text, len);
}
inline void
uid11_format(std::uint64_t v, char out[11]) noexcept
{
	base58_encode11(v, out);
}
constexpr std::uint64_t
xid_pack(std::uint64_t ms_since_epoch, std::uint64_t random22) noexcept
{
	return (ms_since_epoch << xid_random_bits) | (random22 & ((1u << xid_random_bits) - 1));
}
constexpr std::uint64_t
xid_ms(std::uint64_t v) noexcept
{
	return v >> xid_random_bits;
}
constexpr std::uint32_t
xid_random(std::uint64_t v) noexcept
{
	return static_cast<std::uint32_t>(v & ((1u << xid_random_bits) - 1));
}
// The uid11 spec's prefix rule: the N-symbol prefix (0 <= N <= 11) as [value*58^(11-N), +scale-1],
// hi clamped to 2^64-1, empty when lo is beyond it. Case-sensitive. Errors: bad_length (N > 11),
// bad_symbol.
range64 uid11_prefix(const char *text, std::size_t len) noexcept;
// Every xid whose time lies in the window (xid epoch, 42-bit ms).
range64 xid_time_range(const time_window &w) noexcept;

// ---- timeid: atproto TID -----------------------------------------------------------------------

constexpr unsigned timeid_clock_bits = 10;
constexpr std::uint64_t timeid_max_us = (1ull << 53) - 1;
constexpr std::uint64_t timeid_max = (1ull << 63) - 1;

// 13 symbols of "234567abcdefghijklmnopqrstuvwxyz" (case-sensitive), or the display form
// STTT-TTT-TTTT-CC with dashes exactly at indexes 4, 8 and 13. A first symbol past 'b' (top
// bit set) is out_of_range.
parse64 timeid_parse(const char *text, std::size_t len) noexcept;
void timeid_format(std::uint64_t v, char out[13]) noexcept;
void timeid_format_dashed(std::uint64_t v, char out[16]) noexcept;
constexpr std::uint64_t
timeid_pack(std::uint64_t micros, unsigned clock_id) noexcept
{
	return (micros << timeid_clock_bits) | (clock_id & 1023u);
}
constexpr std::uint64_t
timeid_micros(std::uint64_t v) noexcept
{
	return v >> timeid_clock_bits;
}
constexpr unsigned
timeid_clock_id(std::uint64_t v) noexcept
{
	return static_cast<unsigned>(v & 1023u);
}
// Prefix of up to 13 symbols, plain or with the display dashes ("3kxn-lhr").
range64 timeid_prefix(const char *text, std::size_t len) noexcept;
range64 timeid_time_range(const time_window &w) noexcept;

// ---- ulidflake (ULID-Flake) ---------------------------------------------------------------------

constexpr std::int64_t ulidflake_epoch_ms = 1704067200000; // 2024-01-01T00:00:00Z
constexpr unsigned ulidflake_random_bits = 20;
constexpr std::uint64_t ulidflake_max_ms = (1ull << 43) - 1;
constexpr std::uint64_t ulidflake_max = (1ull << 63) - 1;

// 13 Crockford symbols, either case, no aliases; first symbol above '7' is out_of_range.
parse64 ulidflake_parse(const char *text, std::size_t len) noexcept;
void ulidflake_format(std::uint64_t v, char out[13]) noexcept;
constexpr std::uint64_t
ulidflake_pack(std::uint64_t ms_since_epoch, std::uint64_t field20) noexcept
{
	return (ms_since_epoch << ulidflake_random_bits) | (field20 & ((1u << 20) - 1));
}
constexpr std::uint64_t
ulidflake_ms(std::uint64_t v) noexcept
{
	return v >> ulidflake_random_bits;
}
// The scalable variant's sid: the low five bits.
constexpr unsigned
ulidflake_sid(std::uint64_t v) noexcept
{
	return static_cast<unsigned>(v & 31u);
}
range64 ulidflake_prefix(const char *text, std::size_t len) noexcept;
range64 ulidflake_time_range(const time_window &w) noexcept;

// ---- ulid --------------------------------------------------------------------------------------

constexpr std::uint64_t ulid_max_ms = (1ull << 48) - 1;

// 26 Crockford symbols, either case, no aliases; first symbol above '7' is out_of_range.
parse128 ulid_parse(const char *text, std::size_t len) noexcept;
void ulid_format(u128 v, char out[26]) noexcept;
constexpr u128
ulid_pack(std::uint64_t unix_ms, std::uint64_t random_hi16, std::uint64_t random_lo64) noexcept
{
	return {(unix_ms << 16) | (random_hi16 & 0xFFFF), random_lo64};
}
constexpr std::uint64_t
ulid_ms(u128 v) noexcept
{
	return v.hi >> 16;
}
range128 ulid_prefix(const char *text, std::size_t len) noexcept;
range128 ulid_time_range(const time_window &w) noexcept;

// ---- uuid (a column of PostgreSQL's uuid type; UUIDv7's time is a ULID's) --------------------

// The uuids whose text starts with the prefix: hex digits in either case, up to 32, with a dash
// allowed right after the 8th, 12th, 16th and 20th digit (where uuid's text has them), so the
// prefix may be written with or without them. Always exact.
range128 uuid_prefix(const char *text, std::size_t len) noexcept;
// A UUIDv7 (RFC 9562): 48-bit Unix ms | version 7 (4 bits) | rand_a (12 bits; core's uuidv7()
// puts the millisecond's fraction there, in 4096ths) | variant 10 (2 bits) | rand_b (62 bits).
constexpr bool
uuid_is_v7(u128 v) noexcept
{
	return ((v.hi >> 12) & 0xF) == 7 && (v.lo >> 62) == 2;
}
// A UUIDv7 as a ULID laid out as generate_ulid() makes them: the ms, rand_a as the 12 bits of
// the millisecond's fraction, rand_b as the top 62 of the 68 random bits, the last 6 zero. The
// version and variant bits are dropped; order is kept.
constexpr u128
ulid_from_uuidv7(u128 v) noexcept
{
	const std::uint64_t rand_b = v.lo & ((1ull << 62) - 1);
	return {(v.hi & ~0xFFFFull) | ((v.hi & 0xFFF) << 4) | (rand_b >> 58), rand_b << 6};
}
// The inverse: a ULID as a UUIDv7, with the version and variant bits set and the ULID's last 6
// random bits dropped (ulid_from_uuidv7 gives them back as zeros); order is kept, ties aside.
constexpr u128
uuidv7_from_ulid(u128 v) noexcept
{
	const std::uint64_t rand_b = ((v.hi & 0xF) << 58) | (v.lo >> 6);
	return {(v.hi & ~0xFFFFull) | 0x7000 | ((v.hi >> 4) & 0xFFF), (2ull << 62) | rand_b};
}
// The uuids whose first 48 bits (a UUIDv7's Unix milliseconds) lie in the window.
inline range128
uuidv7_time_range(const time_window &w) noexcept
{
	return ulid_time_range(w);
}

// ---- euid --------------------------------------------------------------------------------------

constexpr std::uint64_t euid_max_ms = (1ull << 45) - 1;
constexpr unsigned euid_no_check = 127;
constexpr int euid_max_extension = 0x7FFF;

// 27 Crockford symbols, either case, with the aliases I/L -> 1 and O -> 0 (U rejected).
// The 7-bit check (the last 2 + 5 bits) must equal value mod 127, or be 127 ("no check").
parse128 euid_parse(const char *text, std::size_t len) noexcept;
// Canonical text: upper case, with the check symbol.
void euid_format(u128 v, char out[27]) noexcept;
unsigned euid_check(u128 v) noexcept; // value mod 127
// Layout (reference implementation): 45-bit Unix ms | 15-bit random-or-extension field | 4-bit
// extension length | 64 random bits. extension < 0 means none (length 0); extension 0 has
// length 1; the field's bits above the extension are random.
u128 euid_pack(std::uint64_t unix_ms, int extension, std::uint64_t random15,
			   std::uint64_t random64) noexcept;
constexpr std::uint64_t
euid_ms(u128 v) noexcept
{
	return v.hi >> 19;
}
// The extension, or -1 when the ID has none.
int euid_extension(u128 v) noexcept;
// Bit length of an extension value (0 -> 1), as the reference computes it.
unsigned euid_extension_bits(int extension) noexcept;
range128 euid_prefix(const char *text, std::size_t len) noexcept;
range128 euid_time_range(const time_window &w) noexcept;

} // namespace idt
