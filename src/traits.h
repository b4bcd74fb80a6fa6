/* traits.h: what differs between the five types, in one place for all the glue files. */
#ifndef IDTYPES_TRAITS_H
#define IDTYPES_TRAITS_H

#include <cstring>

#include "idtypes/formats.hpp"

/*
 * One struct per type: its SQL name, value and result types, the bounds of its values, the
 * lengths and symbols its text may have, what bounds its value, whether a UUID text gets a hint
 * and which other type's text is often given for it (for error details and hints), and the core
 * functions that read, write and bound it. The glue's templates take a traits struct; nothing else names a type's specifics.
 */

struct uid11_traits
{
	using value_type = std::uint64_t;
	using range_type = idt::range64;
	static constexpr const char *name = "uid11";
	static constexpr const char *symbols = "1-9, A-Z and a-z except I, O and l";
	static constexpr bool uuid_hint = false;
	static constexpr const char *length_hint = "11 characters";
	static constexpr const char *prefix_hint = "at most 11 characters";
	static constexpr const char *range_detail = "The largest uid11 is jpXCZedGfVQ (2^64-1).";
	static int find_non_symbol(const char *s, std::size_t n)
	{
		return idt::base58_find_non_symbol(s, n);
	}
	static constexpr const char *sibling = nullptr;
	static constexpr bool (*sibling_reads)(const char *, std::size_t) = nullptr;
	static constexpr std::size_t text_len = 11;
	static constexpr value_type min = 0;
	static constexpr value_type max = UINT64_MAX;
	static constexpr bool may_be_inexact = false;
	static idt::parse64 parse(const char *s, std::size_t n) { return idt::uid11_parse(s, n); }
	static void format(value_type v, char *out) { idt::uid11_format(v, out); }
	static range_type prefix(const char *s, std::size_t n) { return idt::uid11_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::xid_time_range(w); }
};

struct timeid_traits
{
	using value_type = std::uint64_t;
	using range_type = idt::range64;
	static constexpr const char *name = "timeid";
	static constexpr const char *symbols = "2-7 and lower-case a-z";
	static constexpr bool uuid_hint = false;
	static constexpr const char *length_hint = "13 characters, or 16 with dashes";
	static constexpr const char *prefix_hint = "at most 13 characters, or 16 with dashes";
	static constexpr const char *range_detail =
		"The first symbol of a timeid is one of 2-7, a and b (the top bit is zero).";
	static int find_non_symbol(const char *s, std::size_t n)
	{
		return idt::b32_find_non_symbol(s, n, idt::b32::sortable, true);
	}
	static constexpr const char *sibling = nullptr;
	static constexpr bool (*sibling_reads)(const char *, std::size_t) = nullptr;
	static constexpr std::size_t text_len = 13;
	static constexpr value_type min = 0;
	static constexpr value_type max = idt::timeid_max;
	static constexpr bool may_be_inexact = false;
	static idt::parse64 parse(const char *s, std::size_t n) { return idt::timeid_parse(s, n); }
	static void format(value_type v, char *out) { idt::timeid_format(v, out); }
	static range_type prefix(const char *s, std::size_t n) { return idt::timeid_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::timeid_time_range(w); }
};

struct ulidflake_traits
{
	using value_type = std::uint64_t;
	using range_type = idt::range64;
	static constexpr const char *name = "ulidflake";
	static constexpr const char *symbols = "0-9 and A-Z except I, L, O and U, in either case";
	static constexpr bool uuid_hint = false;
	static constexpr const char *length_hint = "13 characters";
	static constexpr const char *prefix_hint = "at most 13 characters";
	static constexpr const char *range_detail =
		"The first symbol of a ulidflake is at most 7 (13 symbols hold 65 bits, a ulidflake 63).";
	static int find_non_symbol(const char *s, std::size_t n)
	{
		return idt::b32_find_non_symbol(s, n, idt::b32::crockford, false);
	}
	static constexpr const char *sibling = nullptr;
	static constexpr bool (*sibling_reads)(const char *, std::size_t) = nullptr;
	static constexpr std::size_t text_len = 13;
	static constexpr value_type min = 0;
	static constexpr value_type max = idt::ulidflake_max;
	static constexpr bool may_be_inexact = false;
	static idt::parse64 parse(const char *s, std::size_t n) { return idt::ulidflake_parse(s, n); }
	static void format(value_type v, char *out) { idt::ulidflake_format(v, out); }
	static range_type prefix(const char *s, std::size_t n) { return idt::ulidflake_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::ulidflake_time_range(w); }
};

struct ulid_traits
{
	using value_type = idt::u128;
	using range_type = idt::range128;
	static constexpr const char *name = "ulid";
	static constexpr const char *symbols = "0-9 and A-Z except I, L, O and U, in either case";
	static constexpr bool uuid_hint = true;
	static constexpr const char *length_hint = "26 characters";
	static constexpr const char *prefix_hint = "at most 26 characters";
	static constexpr const char *range_detail =
		"The first symbol of a ulid is at most 7 (26 symbols hold 130 bits, a ulid 128).";
	static int find_non_symbol(const char *s, std::size_t n)
	{
		return idt::b32_find_non_symbol(s, n, idt::b32::crockford, false);
	}
	static constexpr const char *sibling = "euid";
	static bool sibling_reads(const char *s, std::size_t n)
	{
		return idt::euid_parse(s, n).error == idt::errc::ok;
	}
	static constexpr std::size_t text_len = 26;
	static constexpr value_type min = {0, 0};
	static constexpr value_type max = {~0ull, ~0ull};
	static constexpr bool may_be_inexact = false;
	static idt::parse128 parse(const char *s, std::size_t n) { return idt::ulid_parse(s, n); }
	static void format(value_type v, char *out) { idt::ulid_format(v, out); }
	static range_type prefix(const char *s, std::size_t n) { return idt::ulid_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::ulid_time_range(w); }
};

struct euid_traits
{
	using value_type = idt::u128;
	using range_type = idt::range128;
	static constexpr const char *name = "euid";
	static constexpr const char *symbols =
		"0-9 and A-Z except U, in either case (I and L read as 1, O as 0)";
	static constexpr bool uuid_hint = true;
	static constexpr const char *length_hint = "27 characters";
	static constexpr const char *prefix_hint = "at most 27 characters";
	static constexpr const char *range_detail = nullptr;
	static int find_non_symbol(const char *s, std::size_t n)
	{
		return idt::b32_find_non_symbol(s, n, idt::b32::euid, false);
	}
	static constexpr const char *sibling = "ulid";
	static bool sibling_reads(const char *s, std::size_t n)
	{
		return idt::ulid_parse(s, n).error == idt::errc::ok;
	}
	static constexpr std::size_t text_len = 27;
	static constexpr value_type min = {0, 0};
	static constexpr value_type max = {~0ull, ~0ull};
	/* The last two symbols carry check bits: there the range is a superset (core's exact). */
	static constexpr bool may_be_inexact = true;
	static idt::parse128 parse(const char *s, std::size_t n) { return idt::euid_parse(s, n); }
	static void format(value_type v, char *out) { idt::euid_format(v, out); }
	static range_type prefix(const char *s, std::size_t n) { return idt::euid_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::euid_time_range(w); }
	/* Does the canonical text of v start with the (valid) prefix? Compared as digits, which
	 * map one to one to canonical symbols, so case and aliases need no special care. */
	static bool text_starts_with(idt::u128 v, const char *p, std::size_t n)
	{
		std::uint8_t pd[27], vd[27];
		if (n > 27 || idt::b32_to_digits(p, n, idt::b32::euid, pd) >= 0)
			return false;
		idt::u128_check_to_digits27(v, idt::euid_check(v), vd);
		return std::memcmp(pd, vd, n) == 0;
	}
};

/*
 * PostgreSQL's own uuid, for ^@ (hex prefixes) and <@ (UUIDv7 time ranges) on uuid columns: no
 * text functions of its own (uuid's are core's), only what the range and planner templates use.
 * A UUIDv7's first 48 bits are its Unix milliseconds, laid out as a ULID's.
 */
struct uuid_traits
{
	using value_type = idt::u128;
	using range_type = idt::range128;
	static constexpr const char *name = "uuid";
	static constexpr const char *symbols =
		"0-9 and a-f in either case, and a dash after the 8th, 12th, 16th or 20th digit";
	static constexpr const char *prefix_hint =
		"at most 32 hex digits, or 36 characters with dashes";
	static constexpr value_type min = {0, 0};
	static constexpr value_type max = {~0ull, ~0ull};
	static constexpr bool may_be_inexact = false;
	static range_type prefix(const char *s, std::size_t n) { return idt::uuid_prefix(s, n); }
	static range_type time_range(const idt::time_window &w) { return idt::uuidv7_time_range(w); }
};

#endif /* IDTYPES_TRAITS_H */
