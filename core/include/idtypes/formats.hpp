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
// PostgreSQL 18's uuidv7(), for 15 to 17: the UUIDv7 of a time in Unix ms (below 2^48) and ns
// past it (below 10^6), and 8 random bytes as a big-endian word: the ms, version 7, the ms's
// fraction in 4096ths (rand_a, truncated), the variant, the random bits past the variant.
constexpr u128
uuidv7_at(std::uint64_t unix_ms, std::uint32_t sub_ms_ns, std::uint64_t random64) noexcept
{
	const std::uint64_t fraction = (static_cast<std::uint64_t>(sub_ms_ns) * 4096 / 1000000) & 0xFFF;
	return {(unix_ms << 16) | 0x7000 | fraction, (2ull << 62) | (random64 & ((1ull << 62) - 1))};
}
// Core 18's step: each time a backend reads for a UUIDv7 is at least this much past the one
// before (one 4096th of a ms, rounded up: the 60 bits of ms and fraction always grow).
constexpr std::int64_t uuidv7_min_step_ns = 1000000 / 4096 + 1;
constexpr std::int64_t
uuidv7_ascending_ns(std::int64_t previous_ns, std::int64_t now_ns) noexcept
{
	return previous_ns + uuidv7_min_step_ns >= now_ns ? previous_ns + uuidv7_min_step_ns : now_ns;
}
// RFC 9562's version field, or -1 where the variant is not RFC 9562's (10).
constexpr int
uuid_rfc_version(u128 v) noexcept
{
	return (v.lo >> 62) == 2 ? static_cast<int>((v.hi >> 12) & 0xF) : -1;
}
// The time a UUID carries, as core 18's uuid_extract_timestamp() reads it: for version 1 the
// 60-bit count of 100 ns since 1582-10-15 (in µs, truncated), for version 7 the ms; in Unix µs.
// False for another version or variant.
constexpr bool
uuid_time_unix_us(u128 v, std::int64_t &unix_us) noexcept
{
	const int version = uuid_rfc_version(v);
	if (version == 7)
	{
		unix_us = static_cast<std::int64_t>(v.hi >> 16) * 1000;
		return true;
	}
	if (version != 1)
		return false;
	// time_low (32) | time_mid (16) | version (4) | time_hi (12), in that order in the bytes
	const std::uint64_t ticks = (v.hi >> 32) | ((v.hi >> 16) & 0xFFFF) << 32 | (v.hi & 0xFFF) << 48;
	// 1582-10-15 to 1970-01-01: 141,427 days
	unix_us = static_cast<std::int64_t>(ticks / 10) - 141427ll * 86400 * 1000000;
	return true;
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
