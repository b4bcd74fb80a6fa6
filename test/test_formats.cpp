// Catch2 tests of the five formats: the specs' vectors (corrected: docs/formats.md), strict parsing,
// field layouts, prefix bounds against a slow reference, and time windows.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "idtypes/formats.hpp"

#include "test_support.hpp"

namespace
{
using idt::errc;
using idt::u128;

constexpr std::uint64_t seed = 0x5eed0f0a7a11ull;
constexpr uwide max64 = UINT64_MAX;
constexpr uwide max63 = (static_cast<uwide>(1) << 63) - 1;
constexpr uwide max128 = ~static_cast<uwide>(0);

// For messages: a 128-bit number in hex.
std::string
hex(uwide v)
{
	char buf[48];
	std::snprintf(buf, sizeof buf, "0x%016llx_%016llx", static_cast<unsigned long long>(v >> 64),
				  static_cast<unsigned long long>(v));
	return buf;
}

bool
starts_with(const std::string &s, const std::string &p)
{
	return s.compare(0, p.size(), p) == 0;
}

std::string
fmt_uid11(std::uint64_t v)
{
	return format_exact<11>([v](char *o) { idt::uid11_format(v, o); });
}
std::string
fmt_timeid(std::uint64_t v)
{
	return format_exact<13>([v](char *o) { idt::timeid_format(v, o); });
}
std::string
fmt_timeid_dashed(std::uint64_t v)
{
	return format_exact<16>([v](char *o) { idt::timeid_format_dashed(v, o); });
}
std::string
fmt_ulidflake(std::uint64_t v)
{
	return format_exact<13>([v](char *o) { idt::ulidflake_format(v, o); });
}
std::string
fmt_ulid(u128 v)
{
	return format_exact<26>([v](char *o) { idt::ulid_format(v, o); });
}
// A uuid's 32 hex digits without dashes, upper case (PostgreSQL writes lower case and dashes:
// the prefix reads both, and the tests below check the other forms against this one).
std::string
fmt_uuid_hex(u128 v)
{
	static const char digits[] = "0123456789ABCDEF";
	std::string s;
	for (int i = 0; i < 32; i++)
		s += digits[((i < 16 ? v.hi : v.lo) >> (60 - 4 * (i % 16))) & 0xF];
	return s;
}
std::string
fmt_euid(u128 v)
{
	return format_exact<27>([v](char *o) { idt::euid_format(v, o); });
}

// Proleptic Gregorian calendar (H. Hinnant's days_from_civil), to write the specs' dates as dates.
constexpr std::int64_t
days_from_civil(std::int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = static_cast<unsigned>(y - era * 400);
	const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}
constexpr std::int64_t
unix_ms(std::int64_t y, unsigned mo, unsigned d, int h, int mi, int s, int ms)
{
	return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60000 + s * 1000 + ms;
}
constexpr std::int64_t
unix_us(std::int64_t y, unsigned mo, unsigned d, int h, int mi, int s, int us)
{
	return (((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + s) * 1000000 + us;
}
static_assert(unix_ms(1970, 1, 1, 0, 0, 0, 0) == 0, "calendar helper");
static_assert(unix_ms(2024, 1, 1, 0, 0, 0, 0) == 1704067200000, "calendar helper");

idt::time_window
window(std::int64_t lo_us, std::int64_t hi_us, bool lo_inc = true, bool hi_inc = true)
{
	return {lo_us, hi_us, lo_inc, hi_inc, false, false};
}
idt::time_window
from(std::int64_t lo_us, bool lo_inc = true)
{
	return {lo_us, 0, lo_inc, false, false, true};
}
idt::time_window
until(std::int64_t hi_us, bool hi_inc = true)
{
	return {0, hi_us, false, hi_inc, true, false};
}
idt::time_window
forever()
{
	return {0, 0, false, false, true, true};
}

// A prefix range of either width, widened to 128 bits.
struct any_range
{
	uwide lo, hi;
	bool empty;
	errc error;
	unsigned offset;
	bool exact;
};
any_range
any(idt::range64 r)
{
	return {r.lo, r.hi, r.empty, r.error, r.offset, r.exact};
}
any_range
any(idt::range128 r)
{
	return {wide(r.lo), wide(r.hi), r.empty, r.error, r.offset, r.exact};
}

// Slow reference for a prefix: the IDs v in [0, max] whose canonical text starts with p, found by
// two binary searches over the values (valid where text order equals numeric order on the first
// p.size() symbols). It uses only the formatter, not the prefix arithmetic.
struct ref_range
{
	uwide lo, hi;
	bool empty;
};
template <typename TextOf>
ref_range
ref_prefix(TextOf text_of, const std::string &p, uwide max)
{
	const std::size_t n = p.size();
	auto head = [&](uwide v) { return text_of(v).substr(0, n); };
	if (head(max) < p || head(0) > p)
		return {0, 0, true};
	// lo = min v with head(v) >= p
	uwide a = 0, b = max;
	while (a < b)
	{
		const uwide mid = a + (b - a) / 2;
		if (head(mid) >= p)
			b = mid;
		else
			a = mid + 1;
	}
	const uwide lo = a;
	// hi = max v with head(v) <= p
	a = 0;
	b = max;
	while (a < b)
	{
		const uwide mid = a + (b - a) / 2 + 1;
		if (head(mid) <= p)
			a = mid;
		else
			b = mid - 1;
	}
	const uwide hi = a;
	if (lo > hi || head(lo) != p)
		return {0, 0, true};
	return {lo, hi, false};
}

} // namespace

// ==== uid11 / xid ====================================================================================

TEST_CASE("uid11/xid: the spec's test vectors", "[formats]")
{
	struct vec
	{
		std::uint64_t ms, random, payload;
		const char *text;
	};
	const vec vectors[] = {
		{0, 0, 0x0000000000000000ull, "11111111111"},
		{1, 0, 0x0000000000400000ull, "1111111NVpb"},
		{86400000, 0, 0x0001499700000000ull, "113q8KFkAEs"},
	};
	for (const vec &v : vectors)
	{
		CAPTURE(v.text);
		CHECK(idt::xid_pack(v.ms, v.random) == v.payload);
		CHECK(fmt_uid11(v.payload) == v.text);
		const idt::parse64 r = parse_exact(idt::uid11_parse, v.text);
		REQUIRE(r.error == errc::ok);
		CHECK(r.value == v.payload);
		CHECK(idt::xid_ms(r.value) == v.ms);
		CHECK(idt::xid_random(r.value) == v.random);
	}
}

TEST_CASE("uid11/xid: layout and era", "[formats]")
{
	CHECK(idt::xid_epoch_ms == 1321009871111);
	CHECK(idt::xid_epoch_ms == unix_ms(2011, 11, 11, 11, 11, 11, 111));
	CHECK(idt::xid_random_bits == 22u);
	CHECK(idt::xid_max_ms == (1ull << 42) - 1);
	// The spec's last valid instant, corrected (docs/formats.md).
	CHECK(idt::xid_epoch_ms + static_cast<std::int64_t>(idt::xid_max_ms) ==
		  unix_ms(2151, 3, 25, 18, 46, 22, 214));

	CHECK(idt::xid_pack(idt::xid_max_ms, 0x3FFFFF) == UINT64_MAX);
	CHECK(idt::xid_pack(5, 0xFFFFFFFF) == ((5ull << 22) | 0x3FFFFF)); // random masked to 22 bits
	CHECK(idt::xid_ms(0x0123456789ABCDEFull) == 0x0123456789ABCDEFull >> 22);
	CHECK(idt::xid_random(0x0123456789ABCDEFull) == (0x0123456789ABCDEFull & 0x3FFFFF));
	CHECK(idt::xid_ms(UINT64_MAX) == idt::xid_max_ms);
}

TEST_CASE("uid11: prefix bounds (the spec's prefix rule)", "[formats]")
{
	SECTION("the empty prefix is the whole domain")
	{
		const idt::range64 r = idt::uid11_prefix("", 0);
		CHECK(r.error == errc::ok);
		CHECK_FALSE(r.empty);
		CHECK(r.lo == 0);
		CHECK(r.hi == UINT64_MAX);
		CHECK(r.exact);
	}
	SECTION("scale = 58^(11-N), lo = value * scale, hi = lo + scale - 1")
	{
		// "2" is value 1: [58^10, 2 * 58^10 - 1]
		const std::uint64_t p10 = 430804206899405824ull; // 58^10
		idt::range64 r = parse_exact(idt::uid11_prefix, "2");
		CHECK(r.lo == p10);
		CHECK(r.hi == 2 * p10 - 1);
		r = parse_exact(idt::uid11_prefix, "1");
		CHECK(r.lo == 0);
		CHECK(r.hi == p10 - 1);
		// "NQm6nKp8qF" (10 symbols) spans 58 values from 2^63 - ("D" = 12)
		r = parse_exact(idt::uid11_prefix, "NQm6nKp8qF");
		CHECK(r.lo == (1ull << 63) - 12);
		CHECK(r.hi == (1ull << 63) - 12 + 57);
		// A full text is exactly its value.
		r = parse_exact(idt::uid11_prefix, "NQm6nKp8qFD");
		CHECK(r.lo == 1ull << 63);
		CHECK(r.hi == 1ull << 63);
		CHECK(r.exact);
	}
	SECTION("hi is clamped to 2^64-1")
	{
		idt::range64 r = parse_exact(idt::uid11_prefix, "jpX");
		CHECK_FALSE(r.empty);
		CHECK(r.lo == 18446718542989896704ull);
		CHECK(r.hi == UINT64_MAX);
		r = parse_exact(idt::uid11_prefix, "j");
		CHECK(r.lo == 18093776689775044608ull);
		CHECK(r.hi == UINT64_MAX);
		r = parse_exact(idt::uid11_prefix, "jpXCZedGfVQ");
		CHECK(r.lo == UINT64_MAX);
		CHECK(r.hi == UINT64_MAX);
	}
	SECTION("a prefix whose lo is beyond 2^64-1 is empty")
	{
		for (const char *p : {"jpXCZedGfVR", "jpXCZedGfW", "jpY", "k", "z", "zzzzzzzzzzz"})
		{
			CAPTURE(p);
			const idt::range64 r = parse_exact(idt::uid11_prefix, p);
			CHECK(r.error == errc::ok);
			CHECK(r.empty);
		}
	}
	SECTION("errors: too long, bad symbol")
	{
		idt::range64 r = parse_exact(idt::uid11_prefix, "111111111111");
		CHECK(r.error == errc::bad_length);
		CHECK(r.offset == 12);
		r = parse_exact(idt::uid11_prefix, "ab0");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 2);
		r = parse_exact(idt::uid11_prefix, "O");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 0);
		r = parse_exact(idt::uid11_prefix, "jpXCZedGfVl");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 10);
		r = parse_exact(idt::uid11_prefix, std::string("12\0", 3));
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 2);
	}
	SECTION("bucket sizes: the spec's figures corrected")
	{
		// 6 symbols: 58^5 values = 156.5 ms of xid time; 7 symbols: 58^4 = 2.70 ms.
		idt::range64 r = parse_exact(idt::uid11_prefix, "113q8K");
		CHECK(r.hi - r.lo + 1 == 656356768ull);
		CHECK((r.hi - r.lo + 1) / 4194304.0 == Approx(156.49).epsilon(0.001));
		r = parse_exact(idt::uid11_prefix, "113q8KF");
		CHECK(r.hi - r.lo + 1 == 11316496ull);
		CHECK((r.hi - r.lo + 1) / 4194304.0 == Approx(2.698).epsilon(0.001));
		// ... and a bucket can straddle two milliseconds.
		CHECK(idt::xid_ms(r.lo) != idt::xid_ms(r.hi));
	}
}

// ==== timeid: atproto TID ============================================================================

TEST_CASE("timeid: vectors (the draft's, as corrected in docs/formats.md)", "[formats]")
{
	SECTION("2024-07-19T16:40:46.480310Z, clock 1 -> 3kxn-lhr-3gxq-23")
	{
		const std::uint64_t us = 1721407246480310ull;
		CHECK(static_cast<std::int64_t>(us) == unix_us(2024, 7, 19, 16, 40, 46, 480310));
		const std::uint64_t v = idt::timeid_pack(us, 1);
		CHECK(fmt_timeid(v) == "3kxnlhr3gxq23");
		CHECK(fmt_timeid_dashed(v) == "3kxn-lhr-3gxq-23");
		for (const char *text : {"3kxnlhr3gxq23", "3kxn-lhr-3gxq-23"})
		{
			CAPTURE(text);
			const idt::parse64 r = parse_exact(idt::timeid_parse, text);
			REQUIRE(r.error == errc::ok);
			CHECK(r.value == v);
			CHECK(idt::timeid_micros(r.value) == us);
			CHECK(idt::timeid_clock_id(r.value) == 1u);
		}
	}
	SECTION("the draft's 1721382046481000 us is 3kxm-tyq-iinc-23")
	{
		const std::uint64_t v = idt::timeid_pack(1721382046481000ull, 1);
		CHECK(fmt_timeid_dashed(v) == "3kxm-tyq-iinc-23");
		CHECK(parse_exact(idt::timeid_parse, "3kxm-tyq-iinc-23").value == v);
	}
	SECTION("2022-02-22T19:22:22Z -> timestamp part 3iso-34e-qpw2")
	{
		const std::uint64_t us = 1645557742000000ull;
		CHECK(static_cast<std::int64_t>(us) == unix_us(2022, 2, 22, 19, 22, 22, 0));
		const std::uint64_t v = idt::timeid_pack(us, 0);
		CHECK(fmt_timeid(v).substr(0, 11) == "3iso34eqpw2");
		CHECK(fmt_timeid_dashed(v).substr(0, 13) == "3iso-34e-qpw2");
		CHECK(fmt_timeid_dashed(v) == "3iso-34e-qpw2-22");
	}
	SECTION("range ends: 0 and 2^53-1 microseconds")
	{
		CHECK(fmt_timeid_dashed(idt::timeid_pack(0, 0)) == "2222-222-2222-22");
		CHECK(fmt_timeid_dashed(idt::timeid_pack(idt::timeid_max_us, 0)) == "bzzz-zzz-zzzz-22");
		CHECK(idt::timeid_pack(idt::timeid_max_us, 1023) == idt::timeid_max);
		CHECK(fmt_timeid(idt::timeid_max) == "bzzzzzzzzzzzz");
		CHECK(idt::timeid_max_us == (1ull << 53) - 1);
		CHECK(idt::timeid_max == (1ull << 63) - 1);
		CHECK(static_cast<std::int64_t>(idt::timeid_max_us) ==
			  unix_us(2255, 6, 5, 23, 47, 34, 740991));
		const idt::parse64 r = parse_exact(idt::timeid_parse, "bzzz-zzz-zzzz-zz");
		CHECK(r.error == errc::ok);
		CHECK(r.value == idt::timeid_max);
	}
	SECTION("clock id symbols use 2 for zero")
	{
		struct c
		{
			unsigned id;
			const char *tail;
		};
		for (c x : {c{0, "22"}, c{1, "23"}, c{31, "2z"}, c{32, "32"}, c{991, "yz"}, c{992, "z2"},
					c{1023, "zz"}})
		{
			CAPTURE(x.id);
			const std::uint64_t v = idt::timeid_pack(1721407246480310ull, x.id);
			CHECK(fmt_timeid(v).substr(11) == x.tail);
			CHECK(idt::timeid_clock_id(v) == x.id);
			CHECK(idt::timeid_micros(v) == 1721407246480310ull);
		}
		// The clock id is masked to 10 bits.
		CHECK(idt::timeid_pack(7, 1024 + 5) == idt::timeid_pack(7, 5));
	}
}

TEST_CASE("timeid: strict parsing", "[formats]")
{
	struct bad
	{
		const char *text;
		errc error;
		unsigned offset;
	};
	const bad cases[] = {
		// lengths other than 13 and 16
		{"", errc::bad_length, 0},
		{"3kxnlhr3gxq2", errc::bad_length, 12},
		{"3kxnlhr3gxq232", errc::bad_length, 14},
		{"3kxn-lhr-3gxq23", errc::bad_length, 15},
		{"3kxn-lhr-3gxq-232", errc::bad_length, 17},
		// dashes: exactly at 4, 8 and 13 of a 16-character text; a symbol where a dash belongs is
		// missing_dash, a dash anywhere else bad_dash (the first one decides)
		{"3kxnlhr3gxq23222", errc::missing_dash, 4},
		{"3kx-nlhr-3gxq-23", errc::bad_dash, 3},
		{"3kxnl-hr-3gxq-23", errc::missing_dash, 4},
		{"3kxn-lh-r3gxq-23", errc::bad_dash, 7},
		{"3kxn-lhr3-gxq-23", errc::missing_dash, 8},
		{"3kxn-lhr--gxq-23", errc::bad_dash, 9},
		{"3kxn-lhr-3gxq2-3", errc::missing_dash, 13},
		{"3kxn-lhr-3gxq-2-", errc::bad_dash, 15},
		{"3kxn-lhr-3gxq_23", errc::missing_dash, 13},
		// a dash in a 13-character text is just a bad symbol
		{"3kxn-lhr3gxq2", errc::bad_symbol, 4},
		// case-sensitive; 0 1 8 9 are not in the alphabet
		{"3KXNLHR3GXQ23", errc::bad_symbol, 1},
		{"3kxnlhr3gxq2A", errc::bad_symbol, 12},
		{"0kxnlhr3gxq23", errc::bad_symbol, 0},
		{"3kxnlhr1gxq23", errc::bad_symbol, 7},
		{"3kxnlhr3gxq89", errc::bad_symbol, 11},
		// offsets of bad symbols in the dashed form are offsets in the dashed text
		{"Xkxn-lhr-3gxq-23", errc::bad_symbol, 0},
		{"3kxN-lhr-3gxq-23", errc::bad_symbol, 3},
		{"3kxn-Lhr-3gxq-23", errc::bad_symbol, 5},
		{"3kxn-lhR-3gxq-23", errc::bad_symbol, 7},
		{"3kxn-lhr-Xgxq-23", errc::bad_symbol, 9},
		{"3kxn-lhr-3gxQ-23", errc::bad_symbol, 12},
		{"3kxn-lhr-3gxq-A3", errc::bad_symbol, 14},
		{"3kxn-lhr-3gxq-2A", errc::bad_symbol, 15},
		// first symbol c..z sets the top bit: out of range
		{"c222222222222", errc::out_of_range, 0},
		{"czzzzzzzzzzzz", errc::out_of_range, 0},
		{"zzzzzzzzzzzzz", errc::out_of_range, 0},
		{"czzz-zzz-zzzz-zz", errc::out_of_range, 0},
		{"s222-222-2222-22", errc::out_of_range, 0},
	};
	for (const bad &b : cases)
	{
		CAPTURE(b.text);
		const idt::parse64 r = parse_exact(idt::timeid_parse, b.text);
		CHECK(r.error == b.error);
		CHECK(r.offset == b.offset);
	}
	// Every first symbol: 2..b valid, c..z out of range.
	for (int i = 0; i < 32; i++)
	{
		std::string text = "2222222222222";
		text[0] = sortable_alphabet[i];
		CAPTURE(text);
		const idt::parse64 r = parse_exact(idt::timeid_parse, text);
		if (i <= 7)
		{
			CHECK(r.error == errc::ok);
			CHECK(r.value == static_cast<std::uint64_t>(i) << 60);
		}
		else
			CHECK(r.error == errc::out_of_range);
	}
}

// ==== ulidflake (ULID-Flake) =========================================================================

TEST_CASE("ulidflake: vectors and layout", "[formats]")
{
	const idt::parse64 r = parse_exact(idt::ulidflake_parse, "00CMXB6TAK4SA");
	REQUIRE(r.error == errc::ok);
	CHECK(r.value == 14246757444195114ull);
	CHECK(fmt_ulidflake(14246757444195114ull) == "00CMXB6TAK4SA");
	CHECK(idt::ulidflake_ms(r.value) == 14246757444195114ull >> 20);
	CHECK(idt::ulidflake_pack(idt::ulidflake_ms(r.value), r.value & 0xFFFFF) == r.value);
	CHECK(idt::ulidflake_sid(r.value) == (14246757444195114ull & 31));

	// Largest text: 7ZZZZZZZZZZZZ = 2^63-1 (the spec's figure corrected).
	const idt::parse64 m = parse_exact(idt::ulidflake_parse, "7ZZZZZZZZZZZZ");
	REQUIRE(m.error == errc::ok);
	CHECK(m.value == (1ull << 63) - 1);
	CHECK(m.value == idt::ulidflake_max);
	CHECK(fmt_ulidflake(idt::ulidflake_max) == "7ZZZZZZZZZZZZ");
	CHECK(idt::ulidflake_ms(idt::ulidflake_max) == idt::ulidflake_max_ms);
	CHECK(idt::ulidflake_max_ms == (1ull << 43) - 1);

	// Epoch 2024-01-01 and the last instant, "approximately 2302-09-27".
	CHECK(idt::ulidflake_epoch_ms == 1704067200000);
	CHECK(idt::ulidflake_epoch_ms == unix_ms(2024, 1, 1, 0, 0, 0, 0));
	CHECK(idt::ulidflake_epoch_ms + static_cast<std::int64_t>(idt::ulidflake_max_ms) ==
		  unix_ms(2302, 9, 27, 15, 10, 22, 207));

	CHECK(idt::ulidflake_pack(3, 0xFFFFFFFF) == ((3ull << 20) | 0xFFFFF));
	CHECK(idt::ulidflake_sid(idt::ulidflake_pack(3, (0x1234u << 5) | 17)) == 17u);
}

TEST_CASE("ulidflake: strict parsing", "[formats]")
{
	SECTION("lower and mixed case accepted")
	{
		for (const char *text : {"00cmxb6tak4sa", "00CmXb6TaK4sA"})
		{
			CAPTURE(text);
			const idt::parse64 r = parse_exact(idt::ulidflake_parse, text);
			CHECK(r.error == errc::ok);
			CHECK(r.value == 14246757444195114ull);
		}
		CHECK(parse_exact(idt::ulidflake_parse, "7zzzzzzzzzzzz").value == idt::ulidflake_max);
	}
	SECTION("first symbol above 7 is out of range")
	{
		for (const char *text :
			 {"8000000000000", "9ZZZZZZZZZZZZ", "F000000000000", "ZZZZZZZZZZZZZ", "z000000000000"})
		{
			CAPTURE(text);
			const idt::parse64 r = parse_exact(idt::ulidflake_parse, text);
			CHECK(r.error == errc::out_of_range);
			CHECK(r.offset == 0);
		}
	}
	SECTION("errors with offsets")
	{
		struct bad
		{
			const char *text;
			errc error;
			unsigned offset;
		};
		const bad cases[] = {
			{"80000000000000", errc::bad_length, 14}, // the spec's 14-symbol form
			{"", errc::bad_length, 0},
			{"00CMXB6TAK4S", errc::bad_length, 12},
			{"I0CMXB6TAK4SA", errc::bad_symbol, 0},
			{"00CMXBLTAK4SA", errc::bad_symbol, 6},
			{"00CMXB6TAK4SO", errc::bad_symbol, 12},
			{"00CMXB6TAKUSA", errc::bad_symbol, 10},
			{"00cmxb6tak4su", errc::bad_symbol, 12},
			{"00cmxb6tak4si", errc::bad_symbol, 12},
			{"00CMXB-TAK4SA", errc::bad_symbol, 6},
			{"00CMXB6TAK4S\xc3", errc::bad_symbol, 12},
			{"U000000000000", errc::bad_symbol, 0}, // bad symbol beats out of range
		};
		for (const bad &b : cases)
		{
			CAPTURE(b.text);
			const idt::parse64 r = parse_exact(idt::ulidflake_parse, b.text);
			CHECK(r.error == b.error);
			CHECK(r.offset == b.offset);
		}
	}
}

// ==== ulid ===========================================================================================

TEST_CASE("ulid: vectors and layout", "[formats]")
{
	SECTION("max and max + 1")
	{
		const idt::parse128 m = parse_exact(idt::ulid_parse, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
		REQUIRE(m.error == errc::ok);
		CHECK(m.value == u128{~0ull, ~0ull});
		CHECK(idt::ulid_ms(m.value) == idt::ulid_max_ms);
		CHECK(idt::ulid_max_ms == (1ull << 48) - 1);
		CHECK(idt::ulid_max_ms == 281474976710655ull);
		CHECK(fmt_ulid(m.value) == "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
		for (const char *text : {"80000000000000000000000000", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ"})
		{
			CAPTURE(text);
			const idt::parse128 r = parse_exact(idt::ulid_parse, text);
			CHECK(r.error == errc::out_of_range);
			CHECK(r.offset == 0);
		}
	}
	SECTION("spec example 01ARZ3NDEKTSV4RRFFQ69G5FAV")
	{
		const idt::parse128 r = parse_exact(idt::ulid_parse, "01ARZ3NDEKTSV4RRFFQ69G5FAV");
		REQUIRE(r.error == errc::ok);
		CHECK(r.value == u128{0x01563e3ab5d3d676ull, 0x4c61efb99302bd5bull});
		CHECK(fmt_ulid(r.value) == "01ARZ3NDEKTSV4RRFFQ69G5FAV");
		CHECK(idt::ulid_ms(r.value) == 1469922850259ull);
		CHECK(idt::ulid_ms(r.value) == r.value.hi >> 16);
		CHECK(static_cast<std::int64_t>(idt::ulid_ms(r.value)) ==
			  unix_ms(2016, 7, 30, 23, 54, 10, 259));
		CHECK(parse_exact(idt::ulid_parse, "01arz3ndektsv4rrffq69g5fav").value == r.value);
	}
	SECTION("monotonic example: 01BX5ZZKBKACTAV9WEVGEMMVRZ + 1 = ...VS0")
	{
		const idt::parse128 a = parse_exact(idt::ulid_parse, "01BX5ZZKBKACTAV9WEVGEMMVRZ");
		REQUIRE(a.error == errc::ok);
		const u128 next = narrow(wide(a.value) + 1);
		CHECK(fmt_ulid(next) == "01BX5ZZKBKACTAV9WEVGEMMVS0");
		const idt::parse128 b = parse_exact(idt::ulid_parse, "01BX5ZZKBKACTAV9WEVGEMMVS0");
		CHECK(b.value == next);
		CHECK(idt::ulid_ms(a.value) == idt::ulid_ms(b.value));
	}
	SECTION("pack")
	{
		const u128 v = idt::ulid_pack(1469922850259ull, 0x1FFFF, 0xDEADBEEFull);
		CHECK(v.hi == ((1469922850259ull << 16) | 0xFFFF));
		CHECK(v.lo == 0xDEADBEEFull);
		CHECK(idt::ulid_ms(idt::ulid_pack(idt::ulid_max_ms, 0, 0)) == idt::ulid_max_ms);
	}
	SECTION("errors with offsets")
	{
		struct bad
		{
			const char *text;
			errc error;
			unsigned offset;
		};
		const bad cases[] = {
			{"01ARZ3NDEKTSV4RRFFQ69G5FA", errc::bad_length, 25},
			{"01ARZ3NDEKTSV4RRFFQ69G5FAVX", errc::bad_length, 27},
			{"", errc::bad_length, 0},
			{"I1ARZ3NDEKTSV4RRFFQ69G5FAV", errc::bad_symbol, 0},
			{"01ARZ3NDEKTSL4RRFFQ69G5FAV", errc::bad_symbol, 12},
			{"01ARZ3NDEKTSV4RRFFQ69G5FAO", errc::bad_symbol, 25},
			{"01ARZ3NDEKTSV4RRFFQ69G5FAu", errc::bad_symbol, 25},
			{"01ARZ3NDEK-SV4RRFFQ69G5FAV", errc::bad_symbol, 10},
		};
		for (const bad &b : cases)
		{
			CAPTURE(b.text);
			const idt::parse128 r = parse_exact(idt::ulid_parse, b.text);
			CHECK(r.error == b.error);
			CHECK(r.offset == b.offset);
		}
	}
}

// ==== euid ===========================================================================================

TEST_CASE("euid: reference implementation vectors", "[formats]")
{
	SECTION("C8EE934SR007G5Q94QKKXFRFV8B is valid and formats back")
	{
		const idt::parse128 r = parse_exact(idt::euid_parse, "C8EE934SR007G5Q94QKKXFRFV8B");
		REQUIRE(r.error == errc::ok);
		CHECK(r.value ==
			  u128{0x621ce48c99c00078ull, 0x16e925e73ebf0fdaull}); // = the Java test's longs
		CHECK(idt::euid_check(r.value) == 11u);
		CHECK(fmt_euid(r.value) == "C8EE934SR007G5Q94QKKXFRFV8B");
		CHECK(idt::euid_ms(r.value) == 13484529128248ull);
		CHECK((r.value.hi & 15) == 8u);
		CHECK(idt::euid_extension(r.value) == 7);
	}
	SECTION("C8X2HA87098A0W837DX13FEAWVV has a bad check (stored 123, computed 56)")
	{
		const idt::parse128 r = parse_exact(idt::euid_parse, "C8X2HA87098A0W837DX13FEAWVV");
		CHECK(r.error == errc::bad_check);
		CHECK(r.offset == 26);
		std::uint8_t d[27];
		REQUIRE(idt::b32_to_digits("C8X2HA87098A0W837DX13FEAWVV", 27, idt::b32::euid, d) == -1);
		u128 v;
		unsigned check;
		idt::digits27_to_u128_check(d, &v, &check);
		CHECK(check == 123u);
		CHECK(idt::euid_check(v) == 56u);
		CHECK(fmt_euid(v) == "C8X2HA87098A0W837DX13FEAWSR");
		CHECK(parse_exact(idt::euid_parse, "C8X2HA87098A0W837DX13FEAWSR").value == v);
	}
	SECTION("C8ZM14GR4JXG0MQXVY18S8TJNBZ has check 127 (no check) and parses")
	{
		const idt::parse128 r = parse_exact(idt::euid_parse, "C8ZM14GR4JXG0MQXVY18S8TJNBZ");
		REQUIRE(r.error == errc::ok);
		CHECK(r.value == u128{0x623f40921824bb00ull, 0x52fddf828ca352aaull});
		CHECK(idt::euid_check(r.value) == 70u);
		// Canonical output carries the real check: 70 = 0b10'00110 -> ...N + (010<<2 | 10) + 6.
		CHECK(fmt_euid(r.value) == "C8ZM14GR4JXG0MQXVY18S8TJNA6");
	}
	SECTION("lengths and symbols")
	{
		struct bad
		{
			const char *text;
			errc error;
			unsigned offset;
		};
		const bad cases[] = {
			{"C8EE934SR007G5Q94QKKXFRFV", errc::bad_length, 25},
			{"C8EE934SR007G5Q94QKKXFRFV8", errc::bad_length, 26},
			{"C8EE934SR007G5Q94QKKXFRFV8BB", errc::bad_length, 28},
			{"C8EE934SR007G5Q94QKKXFRFV8U", errc::bad_symbol, 26},
			{"C8EE934SR007G5Q94QKKXFRFV8u", errc::bad_symbol, 26},
			{"C8EE934SR007G5Q94QKKXFRFV8}", errc::bad_symbol, 26},
			{"C8EE934SR007G5Q94QKKXFRFV8@", errc::bad_symbol, 26},
			{"U8EE934SR007G5Q94QKKXFRFV8B", errc::bad_symbol, 0},
			{"C8EE934SR007GuQ94QKKXFRFV8B", errc::bad_symbol, 13},
			{"C8EE934SR007G5Q94QKKXFRFV8C", errc::bad_check, 26},
		};
		for (const bad &b : cases)
		{
			CAPTURE(b.text);
			const idt::parse128 r = parse_exact(idt::euid_parse, b.text);
			CHECK(r.error == b.error);
			CHECK(r.offset == b.offset);
		}
	}
	SECTION("case and aliases are accepted and normalised")
	{
		const u128 a = {0x621ce48c99c00078ull, 0x16e925e73ebf0fdaull};
		const u128 b = {0x623f40921824bb00ull, 0x52fddf828ca352aaull};
		struct alias
		{
			const char *text;
			u128 value;
			const char *canonical;
		};
		const alias cases[] = {
			{"c8ee934sr007g5q94qkkxfrfv8b", a, "C8EE934SR007G5Q94QKKXFRFV8B"},
			{"C8EE934SROo7G5Q94QKKXFRFV8B", a, "C8EE934SR007G5Q94QKKXFRFV8B"},
			{"C8ZMI4GR4JXGOMQXVYl8S8TJNBZ", b, "C8ZM14GR4JXG0MQXVY18S8TJNA6"},
			{"c8zmi4gr4jxgomqxvyL8s8tjnbz", b, "C8ZM14GR4JXG0MQXVY18S8TJNA6"},
		};
		for (const alias &x : cases)
		{
			CAPTURE(x.text);
			const idt::parse128 r = parse_exact(idt::euid_parse, x.text);
			REQUIRE(r.error == errc::ok);
			CHECK(r.value == x.value);
			CHECK(fmt_euid(r.value) == x.canonical);
		}
	}
}

TEST_CASE("euid: field layout and check", "[formats]")
{
	SECTION("extension_bits")
	{
		CHECK(idt::euid_extension_bits(0) == 1u);
		CHECK(idt::euid_extension_bits(1) == 1u);
		CHECK(idt::euid_extension_bits(2) == 2u);
		CHECK(idt::euid_extension_bits(3) == 2u);
		CHECK(idt::euid_extension_bits(4) == 3u);
		CHECK(idt::euid_extension_bits(255) == 8u);
		CHECK(idt::euid_extension_bits(256) == 9u);
		CHECK(idt::euid_extension_bits(0x4000) == 15u);
		CHECK(idt::euid_extension_bits(0x7FFF) == 15u);
	}
	SECTION("every extension 0..32767 round trips")
	{
		std::mt19937_64 rng(seed);
		const std::uint64_t ms = 1721407246480ull;
		for (int ext = 0; ext <= idt::euid_max_extension; ext++)
		{
			const std::uint64_t r15 = rng(), r64 = rng();
			const u128 v = idt::euid_pack(ms, ext, r15, r64);
			unsigned bits = 1;
			while ((ext >> bits) != 0)
				bits++;
			const std::uint64_t field = (v.hi >> 4) & 0x7FFF;
			const std::uint64_t ext_mask = (1ull << bits) - 1;
			LOOP_REQUIRE(idt::euid_extension_bits(ext) == bits, "ext=" << ext);
			LOOP_REQUIRE((v.hi & 15) == bits, "ext=" << ext);
			LOOP_REQUIRE(idt::euid_extension(v) == ext, "ext=" << ext);
			LOOP_REQUIRE((field & ext_mask) == static_cast<std::uint64_t>(ext), "ext=" << ext);
			// the field's bits above the extension are random
			LOOP_REQUIRE((field >> bits) == (r15 & ((1ull << (15 - bits)) - 1)), "ext=" << ext);
			LOOP_REQUIRE(idt::euid_ms(v) == ms && v.lo == r64, "ext=" << ext);
			const std::string t = fmt_euid(v);
			const idt::parse128 r = idt::euid_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v, "ext=" << ext << " " << t);
			LOOP_REQUIRE(idt::euid_extension(r.value) == ext, "ext=" << ext);
		}
		CHECK(idt::euid_max_extension == 32767);
	}
	SECTION("no extension: length 0, the whole field random")
	{
		const u128 v = idt::euid_pack(42, -1, 0xFFFFFFFFull, 7);
		CHECK((v.hi & 15) == 0u);
		CHECK(((v.hi >> 4) & 0x7FFF) == 0x7FFFu);
		CHECK(idt::euid_extension(v) == -1);
		CHECK(idt::euid_ms(v) == 42u);
		CHECK(v.lo == 7u);
		CHECK(idt::euid_pack(42, -1, 0x1234, 7) == u128{(42ull << 19) | (0x1234ull << 4), 7});
		// Extension 0 is not "none": it has length 1.
		const u128 z = idt::euid_pack(42, 0, 0, 7);
		CHECK((z.hi & 15) == 1u);
		CHECK(idt::euid_extension(z) == 0);
	}
	SECTION("45-bit ms field")
	{
		CHECK(idt::euid_max_ms == (1ull << 45) - 1);
		const u128 v = idt::euid_pack(idt::euid_max_ms, -1, 0, 0);
		CHECK(v.hi == idt::euid_max_ms << 19);
		CHECK(idt::euid_ms(v) == idt::euid_max_ms);
		CHECK(idt::euid_ms(u128{~0ull, 0}) == idt::euid_max_ms);
		// "applicable until the year 3084"
		CHECK(static_cast<std::int64_t>(idt::euid_max_ms) ==
			  unix_ms(3084, 12, 12, 12, 41, 28, 831));
		CHECK(idt::euid_ms(idt::euid_pack(1, 5, 0, 0)) == 1u);
	}
	SECTION("check is the value mod 127")
	{
		CHECK(idt::euid_check({0, 0}) == 0u);
		CHECK(idt::euid_check({0, 126}) == 126u);
		CHECK(idt::euid_check({0, 127}) == 0u);
		CHECK(idt::euid_check({0, 128}) == 1u);
		// 2^64 = 2^(7*9+1) = 2 mod 127 (2^7 = 1 mod 127)
		CHECK(idt::euid_check({1, 0}) == 2u);
		// 2^128 - 1 = 2^2 - 1 = 3 mod 127
		CHECK(idt::euid_check({~0ull, ~0ull}) == 3u);
		CHECK(fmt_euid({0, 0}) == "000000000000000000000000000");
		CHECK(fmt_euid({~0ull, ~0ull}) == "ZZZZZZZZZZZZZZZZZZZZZZZZZW3");
		CHECK(parse_exact(idt::euid_parse, "ZZZZZZZZZZZZZZZZZZZZZZZZZW3").value ==
			  u128{~0ull, ~0ull});
		CHECK(parse_exact(idt::euid_parse, "ZZZZZZZZZZZZZZZZZZZZZZZZZZZ").value ==
			  u128{~0ull, ~0ull});
		CHECK(parse_exact(idt::euid_parse, "ZZZZZZZZZZZZZZZZZZZZZZZZZW4").error == errc::bad_check);
	}
}

// ==== prefix bounds ==================================================================================

TEST_CASE("timeid: the draft's prefix table (UTC-7 there; UTC here)", "[formats]")
{
	struct row
	{
		const char *prefix;
		std::uint64_t lo_us, hi_us;
		std::int64_t lo_check, hi_check;
	};
	const row rows[] = {
		{"3kxn-lhr-3gxq", 1721407246480310ull, 1721407246480310ull,
		 unix_us(2024, 7, 19, 16, 40, 46, 480310), unix_us(2024, 7, 19, 16, 40, 46, 480310)},
		{"3kxn-lhr", 1721407246434304ull, 1721407247482879ull,
		 unix_us(2024, 7, 19, 16, 40, 46, 434304), unix_us(2024, 7, 19, 16, 40, 47, 482879)},
		{"3kxn", 1721388532498432ull, 1721422892236799ull, unix_us(2024, 7, 19, 11, 28, 52, 498432),
		 unix_us(2024, 7, 19, 21, 1, 32, 236799)},
		{"3k", 1688849860263936ull, 1724034232352767ull, unix_us(2023, 7, 8, 20, 57, 40, 263936),
		 unix_us(2024, 8, 19, 2, 23, 52, 352767)},
	};
	for (const row &x : rows)
	{
		CAPTURE(x.prefix);
		CHECK(static_cast<std::int64_t>(x.lo_us) == x.lo_check);
		CHECK(static_cast<std::int64_t>(x.hi_us) == x.hi_check);
		const idt::range64 r = parse_exact(idt::timeid_prefix, x.prefix);
		REQUIRE(r.error == errc::ok);
		REQUIRE_FALSE(r.empty);
		CHECK(r.exact);
		CHECK(idt::timeid_micros(r.lo) == x.lo_us);
		CHECK(idt::timeid_micros(r.hi) == x.hi_us);
		CHECK(idt::timeid_clock_id(r.lo) == 0u);
		CHECK(idt::timeid_clock_id(r.hi) == 1023u);
		// The same prefix without dashes gives the same range.
		std::string plain;
		for (const char *p = x.prefix; *p; p++)
			if (*p != '-')
				plain += *p;
		const idt::range64 q = parse_exact(idt::timeid_prefix, plain);
		CHECK(q.lo == r.lo);
		CHECK(q.hi == r.hi);
	}
}

TEST_CASE("prefix bounds: policy edges of the base-32 types", "[formats]")
{
	SECTION("timeid")
	{
		idt::range64 r = parse_exact(idt::timeid_prefix, "");
		CHECK(r.error == errc::ok);
		CHECK_FALSE(r.empty);
		CHECK(r.lo == 0);
		CHECK(r.hi == idt::timeid_max);
		r = parse_exact(idt::timeid_prefix, "b");
		CHECK(r.lo == 7ull << 60);
		CHECK(r.hi == idt::timeid_max);
		for (const char *p : {"c", "z", "czzz-", "c222-222-2222-22"})
		{
			CAPTURE(p);
			r = parse_exact(idt::timeid_prefix, p);
			CHECK(r.error == errc::ok);
			CHECK(r.empty);
		}
		// A dash may end the prefix.
		r = parse_exact(idt::timeid_prefix, "3kxn-");
		const idt::range64 r4 = parse_exact(idt::timeid_prefix, "3kxn");
		CHECK(r.error == errc::ok);
		CHECK(r.lo == r4.lo);
		CHECK(r.hi == r4.hi);
		r = parse_exact(idt::timeid_prefix, "3kxn-lhr-3gxq-23");
		CHECK(r.lo == idt::timeid_pack(1721407246480310ull, 1));
		CHECK(r.hi == r.lo);
	}
	SECTION("timeid errors")
	{
		struct bad
		{
			const char *text;
			errc error;
			unsigned offset;
		};
		const bad cases[] = {
			{"3kxn-lhr-3gxq-232", errc::bad_length, 17},
			{"3kxnlhr3gxq232", errc::bad_length, 14},
			{"-", errc::bad_dash, 0},
			{"3kx-", errc::bad_dash, 3},
			{"3kxnl-", errc::missing_dash, 4},
			{"3kxnlhr-", errc::missing_dash, 4},
			{"3kxn-lhr3", errc::missing_dash, 8},
			{"3kxn-lHr", errc::bad_symbol, 6},
			{"3kxnlHr", errc::bad_symbol, 5},
			{"3kxn-lhr-3gxq-2A", errc::bad_symbol, 15},
			{"A", errc::bad_symbol, 0},
		};
		for (const bad &b : cases)
		{
			CAPTURE(b.text);
			const idt::range64 r = parse_exact(idt::timeid_prefix, b.text);
			CHECK(r.error == b.error);
			CHECK(r.offset == b.offset);
		}
	}
	SECTION("ulidflake")
	{
		idt::range64 r = parse_exact(idt::ulidflake_prefix, "");
		CHECK(r.lo == 0);
		CHECK(r.hi == idt::ulidflake_max);
		r = parse_exact(idt::ulidflake_prefix, "7");
		CHECK(r.lo == 7ull << 60);
		CHECK(r.hi == idt::ulidflake_max);
		r = parse_exact(idt::ulidflake_prefix, "8");
		CHECK(r.error == errc::ok);
		CHECK(r.empty);
		r = parse_exact(idt::ulidflake_prefix, "00cmxb6tak4sa");
		CHECK(r.lo == 14246757444195114ull);
		CHECK(r.hi == 14246757444195114ull);
		r = parse_exact(idt::ulidflake_prefix, "00CMXB6TA"); // the 9-symbol timestamp part
		CHECK(r.lo == (14246757444195114ull >> 20) << 20);
		CHECK(r.hi == (((14246757444195114ull >> 20) + 1) << 20) - 1);
		r = parse_exact(idt::ulidflake_prefix, "00CMXB6TAK4SAA");
		CHECK(r.error == errc::bad_length);
		CHECK(r.offset == 14);
		r = parse_exact(idt::ulidflake_prefix, "00I");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 2);
		r = parse_exact(idt::ulidflake_prefix, "u");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 0);
	}
	SECTION("ulid")
	{
		idt::range128 r = parse_exact(idt::ulid_prefix, "");
		CHECK_FALSE(r.empty);
		CHECK(r.lo == u128{0, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
		r = parse_exact(idt::ulid_prefix, "7");
		CHECK(r.lo == u128{7ull << 61, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
		for (const char *p : {"8", "Z", "80000000000000000000000000"})
		{
			CAPTURE(p);
			r = parse_exact(idt::ulid_prefix, p);
			CHECK(r.error == errc::ok);
			CHECK(r.empty);
		}
		// The 10-symbol timestamp part is exactly one millisecond.
		r = parse_exact(idt::ulid_prefix, "01arz3ndek");
		CHECK(r.lo == u128{1469922850259ull << 16, 0});
		CHECK(r.hi == u128{(1469922850259ull << 16) | 0xFFFF, ~0ull});
		r = parse_exact(idt::ulid_prefix, "01ARZ3NDEKTSV4RRFFQ69G5FAVA");
		CHECK(r.error == errc::bad_length);
		CHECK(r.offset == 27);
		r = parse_exact(idt::ulid_prefix, "01ARZ3NDEKTSV4RRFFQ69G5FAL");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 25);
	}
	SECTION("euid")
	{
		idt::range128 r = parse_exact(idt::euid_prefix, "");
		CHECK_FALSE(r.empty);
		CHECK(r.exact);
		CHECK(r.lo == u128{0, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
		const u128 a = {0x621ce48c99c00078ull, 0x16e925e73ebf0fdaull};
		r = parse_exact(idt::euid_prefix, "C8EE934SR007G5Q94QKKXFRFV8B");
		CHECK(r.error == errc::ok);
		CHECK(r.exact);
		CHECK(r.lo == a);
		CHECK(r.hi == a);
		r = parse_exact(idt::euid_prefix, "C8EE934SR007G5Q94QKKXFRFV8");
		CHECK(r.error == errc::ok);
		CHECK_FALSE(r.exact);
		CHECK(r.lo == a);
		CHECK(r.hi == a);
		r = parse_exact(idt::euid_prefix, "C8EE934SR007G5Q94QKKXFRFV");
		CHECK(r.exact);
		CHECK(r.lo == u128{a.hi, a.lo & ~7ull});
		CHECK(r.hi == u128{a.hi, a.lo | 7ull});
		// "no check" (127) at full length: the value, but not the canonical text
		r = parse_exact(idt::euid_prefix, "C8ZM14GR4JXG0MQXVY18S8TJNBZ");
		CHECK(r.error == errc::ok);
		CHECK_FALSE(r.exact);
		CHECK(r.lo == u128{0x623f40921824bb00ull, 0x52fddf828ca352aaull});
		CHECK(r.hi == r.lo);
		// aliases
		const idt::range128 s = parse_exact(idt::euid_prefix, "c8eE934srOo7");
		const idt::range128 t = parse_exact(idt::euid_prefix, "C8EE934SR007");
		CHECK(s.error == errc::ok);
		CHECK(s.lo == t.lo);
		CHECK(s.hi == t.hi);
		r = parse_exact(idt::euid_prefix, "C8X2HA87098A0W837DX13FEAWVV");
		CHECK(r.error == errc::bad_check);
		CHECK(r.offset == 26);
		r = parse_exact(idt::euid_prefix, "C8EE934SR007G5Q94QKKXFRFV8BB");
		CHECK(r.error == errc::bad_length);
		CHECK(r.offset == 28);
		r = parse_exact(idt::euid_prefix, "C8EEU");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 4);
	}
}

namespace
{
// One format's text and prefix functions over 128-bit values, for the generic prefix tests.
struct prefix_format
{
	const char *name;
	std::size_t width; // symbols of the canonical text whose order is numeric order
	uwide max;
	const char *alphabet;
	bool crockford;
	std::string (*text)(uwide);
	any_range (*prefix)(const std::string &);
};

const prefix_format prefix_formats[] = {
	{"uid11", 11, max64, base58_alphabet, false,
	 [](uwide v) { return fmt_uid11(static_cast<std::uint64_t>(v)); },
	 [](const std::string &p) { return any(idt::uid11_prefix(p.data(), p.size())); }},
	{"timeid", 13, max63, sortable_alphabet, false,
	 [](uwide v) { return fmt_timeid(static_cast<std::uint64_t>(v)); },
	 [](const std::string &p) { return any(idt::timeid_prefix(p.data(), p.size())); }},
	{"ulidflake", 13, max63, crockford_alphabet, true,
	 [](uwide v) { return fmt_ulidflake(static_cast<std::uint64_t>(v)); },
	 [](const std::string &p) { return any(idt::ulidflake_prefix(p.data(), p.size())); }},
	{"ulid", 26, max128, crockford_alphabet, true, [](uwide v) { return fmt_ulid(narrow(v)); },
	 [](const std::string &p) { return any(idt::ulid_prefix(p.data(), p.size())); }},
	{"uuid", 32, max128, "0123456789ABCDEF", true, [](uwide v) { return fmt_uuid_hex(narrow(v)); },
	 [](const std::string &p) { return any(idt::uuid_prefix(p.data(), p.size())); }},
	// EUID: only the first 25 symbols are the value's top 125 bits; 26 and 27 are tested apart.
	{"euid", 25, max128, crockford_alphabet, true,
	 [](uwide v) { return fmt_euid(narrow(v)).substr(0, 25); },
	 [](const std::string &p) { return any(idt::euid_prefix(p.data(), p.size())); }},
};

uwide
random_value(std::mt19937_64 &rng, uwide max)
{
	uwide v = (static_cast<uwide>(rng()) << 64) | rng();
	if (rng() % 4 == 0)
		v >>= rng() % 128; // small values too
	if (max == max64)
		return static_cast<std::uint64_t>(v);
	if (max == max63)
		return static_cast<std::uint64_t>(v) >> 1;
	return v;
}

std::vector<uwide>
sample_values(std::mt19937_64 &rng, uwide max, int n)
{
	std::vector<uwide> vs = {0, 1, max, max - 1, max / 2, max / 2 + 1};
	if (max == max64)
		vs.push_back(18446718542989896704ull); // lo of "jpX", where hi gets clamped
	for (int i = 0; i < n; i++)
		vs.push_back(random_value(rng, max));
	return vs;
}
} // namespace

TEST_CASE("prefix bounds: every prefix length against a slow reference", "[formats]")
{
	std::mt19937_64 rng(seed + 2);
	for (const prefix_format &f : prefix_formats)
	{
		CAPTURE(f.name);
		int checked = 0;
		for (uwide v : sample_values(rng, f.max, rounds(120)))
		{
			const std::string t = f.text(v);
			for (std::size_t n = 0; n <= f.width; n++)
			{
				const std::string p = t.substr(0, n);
				const any_range r = f.prefix(p);
				LOOP_REQUIRE(r.error == errc::ok && !r.empty && r.exact, f.name << " p=" << p);
				LOOP_REQUIRE(r.lo <= v && v <= r.hi, f.name << " v=" << hex(v) << " p=" << p);
				const ref_range ref = ref_prefix(f.text, p, f.max);
				LOOP_REQUIRE(!ref.empty && ref.lo == r.lo && ref.hi == r.hi,
							 f.name << " p=" << p << " lo=" << hex(r.lo) << " ref " << hex(ref.lo)
									<< " hi=" << hex(r.hi) << " ref " << hex(ref.hi));
				if (n == 11 && f.max == max64)
					LOOP_REQUIRE(r.lo == v && r.hi == v, "uid11 full text " << p);
				if (f.crockford)
				{
					const any_range l = f.prefix(lower(p));
					LOOP_REQUIRE(l.error == errc::ok && l.lo == r.lo && l.hi == r.hi && !l.empty,
								 f.name << " lower p=" << p);
				}
				checked++;
			}
		}
		CHECK(checked == (6 + rounds(120)) * static_cast<int>(f.width + 1) +
							 (f.max == max64 ? static_cast<int>(f.width + 1) : 0));
	}
}

TEST_CASE("prefix bounds: timeid dashed prefixes equal plain ones", "[formats]")
{
	std::mt19937_64 rng(seed + 3);
	for (uwide w : sample_values(rng, max63, 400))
	{
		const std::uint64_t v = static_cast<std::uint64_t>(w);
		const std::string dashed = fmt_timeid_dashed(v);
		for (std::size_t m = 0; m <= 16; m++)
		{
			const std::string p = dashed.substr(0, m);
			std::string plain;
			for (char c : p)
				if (c != '-')
					plain += c;
			const idt::range64 r = idt::timeid_prefix(p.data(), p.size());
			const idt::range64 q = idt::timeid_prefix(plain.data(), plain.size());
			LOOP_REQUIRE(r.error == errc::ok && !r.empty && r.exact, "p=" << p);
			LOOP_REQUIRE(r.lo == q.lo && r.hi == q.hi && r.lo <= v && v <= r.hi, "p=" << p);
		}
	}
	SUCCEED("dashed prefixes checked");
}

TEST_CASE("prefix bounds: uuid prefixes with dashes equal plain ones", "[formats]")
{
	std::mt19937_64 rng(seed + 6);
	for (uwide w : sample_values(rng, max128, 400))
	{
		const std::string hex = lower(fmt_uuid_hex(narrow(w)));
		const std::string dashed = hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" +
								   hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
								   hex.substr(20);
		for (std::size_t m = 0; m <= 36; m++)
		{
			const std::string p = dashed.substr(0, m);
			std::string plain;
			for (char c : p)
				if (c != '-')
					plain += c;
			const idt::range128 r = idt::uuid_prefix(p.data(), p.size());
			const idt::range128 q = idt::uuid_prefix(plain.data(), plain.size());
			LOOP_REQUIRE(r.error == errc::ok && !r.empty && r.exact, "p=" << p);
			LOOP_REQUIRE(r.lo == q.lo && r.hi == q.hi && !(narrow(w) < r.lo) && !(r.hi < narrow(w)),
						 "p=" << p);
		}
	}
	// Dashes only where uuid's text has them, one each; no more than 32 digits.
	const struct
	{
		const char *p;
		errc e;
		unsigned offset;
	} bad[] = {
		{"-", errc::bad_symbol, 0},
		{"0190-", errc::bad_symbol, 4},
		{"01234567--", errc::bad_symbol, 9},
		{"0123456789a-", errc::bad_symbol, 11},
		{"01234567-89ab-cdef-0123--", errc::bad_symbol, 24},
		{"0123456g", errc::bad_symbol, 7},
		{"{0123", errc::bad_symbol, 0},
		{"0123456789abcdef0123456789abcdef0", errc::bad_length, 33},
		{"01234567-89ab-cdef-0123-456789abcdef-", errc::bad_length, 37},
	};
	for (const auto &b : bad)
	{
		const idt::range128 r = idt::uuid_prefix(b.p, std::strlen(b.p));
		LOOP_REQUIRE(r.error == b.e && r.offset == b.offset, "p=" << b.p);
	}
	// Mixed: a dash at one place of four and none at another reads as well.
	const std::string mixed = "01234567-89abcdef-0123";
	const idt::range128 r = idt::uuid_prefix(mixed.data(), mixed.size());
	CHECK(r.error == errc::ok);
	CHECK(r.lo == u128{0x0123456789abcdefull, 0x0123ull << 48});
	CHECK(r.hi == u128{0x0123456789abcdefull, (0x0123ull << 48) | 0xFFFFFFFFFFFFull});
}

TEST_CASE("uuid v7 <-> ulid: time and random bits kept, order kept", "[formats]")
{
	// RFC 9562's UUIDv7 example: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F (2022-02-22 19:22:22 UTC).
	const u128 v7 = {0x017F22E279B07CC3ull, 0x98C4DC0C0C07398Full};
	CHECK(idt::uuid_is_v7(v7));
	CHECK_FALSE(idt::uuid_is_v7({0x017F22E279B04CC3ull, 0x98C4DC0C0C07398Full})); // version 4
	CHECK_FALSE(idt::uuid_is_v7({0x017F22E279B07CC3ull, 0x18C4DC0C0C07398Full})); // variant 0
	const u128 u = idt::ulid_from_uuidv7(v7);
	CHECK(idt::ulid_ms(u) == 0x017F22E279B0ull);
	CHECK(((u.hi >> 4) & 0xFFF) == 0xCC3); // rand_a: the ms's fraction in generate_ulid()'s place
	CHECK((u.lo & 0x3F) == 0);
	CHECK(idt::uuidv7_from_ulid(u) == v7);
	std::mt19937_64 rng(seed + 7);
	u128 prev7 = {0, 0}, prevu = {0, 0};
	std::vector<u128> v7s;
	for (int i = 0; i < rounds(20000); i++)
	{
		const u128 r = {rng(), rng()};
		const u128 a = idt::uuidv7_from_ulid(r);
		LOOP_REQUIRE(idt::uuid_is_v7(a) && idt::ulid_ms(a) == idt::ulid_ms(r), hex(wide(r)));
		const u128 back = idt::ulid_from_uuidv7(a);
		// Only the ULID's last 6 random bits are lost.
		LOOP_REQUIRE(back.hi == r.hi && back.lo == (r.lo & ~0x3Full), hex(wide(r)));
		LOOP_REQUIRE(idt::uuidv7_from_ulid(back) == a, hex(wide(r)));
		v7s.push_back(a);
	}
	std::sort(v7s.begin(), v7s.end(), [](u128 x, u128 y) { return x < y; });
	for (const u128 &a : v7s)
	{
		const u128 b = idt::ulid_from_uuidv7(a);
		LOOP_REQUIRE(!(a < prev7) && !(b < prevu), hex(wide(a)));
		LOOP_REQUIRE(!(prev7 < a) || prevu < b || (prev7 == u128{0, 0}), hex(wide(a)));
		prev7 = a;
		prevu = b;
	}
}

TEST_CASE("uuidv7_at, the ascending step and uuid_time_unix_us: PostgreSQL 18's layout",
		  "[formats]")
{
	// RFC 9562's example time, 2022-02-22 19:22:22 UTC, and 123,456 ns past its ms: the fraction
	// is 123456 * 4096 / 10^6 = 505.67, truncated to 505 = 0x1F9.
	const u128 a = idt::uuidv7_at(0x017F22E279B0ull, 123456, 0xFFFFFFFFFFFFFFFFull);
	CHECK(a.hi == 0x017F22E279B071F9ull);
	CHECK(a.lo == 0xBFFFFFFFFFFFFFFFull); // the variant 10 over the top two random bits
	CHECK(idt::uuidv7_at(1, 0, 0) == u128{0x0000000000017000ull, 0x8000000000000000ull});
	CHECK(idt::uuidv7_at(1, 999999, 0).hi == 0x0000000000017FFFull); // 4095.99 -> 4095
	CHECK(idt::uuidv7_at(idt::ulid_max_ms, 0, 0).hi == 0xFFFFFFFFFFFF7000ull);
	// One step is one 4096th of a ms and a ns: consecutive times from one backend always change
	// the 60 bits of ms and fraction, whatever the clock says.
	CHECK(idt::uuidv7_min_step_ns == 245);
	CHECK(idt::uuidv7_ascending_ns(1000, 2000) == 2000);
	CHECK(idt::uuidv7_ascending_ns(1000, 1245) == 1245); // previous + step
	CHECK(idt::uuidv7_ascending_ns(1000, 1244) == 1245);
	CHECK(idt::uuidv7_ascending_ns(1000, 5) == 1245); // the clock went back
	std::mt19937_64 rng(seed + 11);
	std::int64_t ns = 1764000000000000000, prev = 0;
	u128 prev_id = {0, 0};
	for (int i = 0; i < rounds(100000); i++)
	{
		// a clock that moves by 0 to 299 ns, or back up to 1 ms
		ns += rng() % 8 == 0 ? -static_cast<std::int64_t>(rng() % 1000000)
							 : static_cast<std::int64_t>(rng() % 300);
		prev = idt::uuidv7_ascending_ns(prev, ns);
		const u128 id = idt::uuidv7_at(static_cast<std::uint64_t>(prev / 1000000),
									   static_cast<std::uint32_t>(prev % 1000000), rng());
		LOOP_REQUIRE(idt::uuid_is_v7(id) &&
						 (id.hi >> 16) == static_cast<std::uint64_t>(prev / 1000000),
					 hex(wide(id)));
		LOOP_REQUIRE((id.hi & ~0xF000ull) > (prev_id.hi & ~0xF000ull) || i == 0, hex(wide(id)));
		prev_id = id;
	}
	// Extraction: version 7's ms, version 1's 100 ns ticks since 1582-10-15; others none.
	std::int64_t us = 0;
	CHECK(idt::uuid_time_unix_us(u128{0x017F22E279B07CC3ull, 0x98C4DC0C0C07398Full}, us));
	CHECK(us == 1645557742000000);
	CHECK(idt::uuid_time_unix_us(u128{0xC232AB00941411ECull, 0xB3C89F6BDECED846ull}, us));
	CHECK(us == 1645557742000000);
	CHECK(idt::uuid_time_unix_us(u128{0x0000000000001000ull, 0x8000000000000000ull}, us));
	CHECK(us == -141427ll * 86400 * 1000000);
	CHECK_FALSE(idt::uuid_time_unix_us(u128{0x919108F752D14320ull, 0x9BACF847DB4148A8ull}, us));
	CHECK_FALSE(idt::uuid_time_unix_us(u128{0x017F22E279B07CC3ull, 0x18C4DC0C0C07398Full}, us));
	CHECK(idt::uuid_rfc_version(u128{0x919108F752D14320ull, 0x9BACF847DB4148A8ull}) == 4);
	CHECK(idt::uuid_rfc_version(u128{0x017F22E279B07CC3ull, 0xD8C4DC0C0C07398Full}) == -1);
}

TEST_CASE("prefix bounds: euid's last two symbols", "[formats]")
{
	std::mt19937_64 rng(seed + 4);
	for (uwide w : sample_values(rng, max128, 2000))
	{
		const u128 v = narrow(w);
		const std::string t = fmt_euid(v);
		// 26 symbols: the value, but some check bits too: a superset, not exact.
		const idt::range128 r26 = idt::euid_prefix(t.data(), 26);
		LOOP_REQUIRE(r26.error == errc::ok && !r26.empty && !r26.exact && r26.lo == v &&
						 r26.hi == v,
					 "t=" << t);
		// 27 with the real check: exactly the value.
		const idt::range128 r27 = idt::euid_prefix(t.data(), 27);
		LOOP_REQUIRE(r27.error == errc::ok && !r27.empty && r27.exact && r27.lo == v && r27.hi == v,
					 "t=" << t);
		// 27 with "no check": the value, and not exact (no canonical text has it).
		std::string nc = t;
		const char *a = crockford_alphabet;
		nc[25] = a[((v.lo & 7) << 2) | 3];
		nc[26] = 'Z';
		const idt::range128 rn = idt::euid_prefix(nc.data(), 27);
		LOOP_REQUIRE(rn.error == errc::ok && !rn.empty && !rn.exact && rn.lo == v && rn.hi == v,
					 "nc=" << nc);
		// 26 with the wrong check bits: still the value's single-ID superset.
		std::string wrong = t.substr(0, 26);
		wrong[25] = a[((v.lo & 7) << 2) | ((idt::euid_check(v) >> 5) ^ 1)];
		const idt::range128 rw = idt::euid_prefix(wrong.data(), 26);
		LOOP_REQUIRE(rw.error == errc::ok && !rw.exact && rw.lo == v && rw.hi == v,
					 "wrong=" << wrong);
		// A wrong real check at 27 is an error.
		std::string bad = t;
		const unsigned check = (idt::euid_check(v) + 1) % 127;
		bad[25] = a[((v.lo & 7) << 2) | (check >> 5)];
		bad[26] = a[check & 31];
		const idt::range128 rb = idt::euid_prefix(bad.data(), 27);
		LOOP_REQUIRE(rb.error == errc::bad_check && rb.offset == 26, "bad=" << bad);
	}
	SUCCEED("euid full-length prefixes checked");
}

TEST_CASE("prefix bounds: starts-with iff in range for random prefixes", "[formats]")
{
	std::mt19937_64 rng(seed + 5);
	for (const prefix_format &f : prefix_formats)
	{
		CAPTURE(f.name);
		const std::size_t alpha = std::strlen(f.alphabet);
		int in = 0, out = 0;
		for (int i = 0, tries = rounds(20000); i < tries; i++)
		{
			const std::size_t n = rng() % (f.width + 1);
			std::string p;
			// Mostly random symbols; sometimes the prefix of a real text.
			if (rng() % 3 == 0)
				p = f.text(random_value(rng, f.max)).substr(0, n);
			else
				for (std::size_t k = 0; k < n; k++)
					p += f.alphabet[rng() % alpha];
			const any_range r = f.prefix(p);
			LOOP_REQUIRE(r.error == errc::ok && r.exact, f.name << " p=" << p);
			if (i % 8 == 0)
			{
				const ref_range ref = ref_prefix(f.text, p, f.max);
				LOOP_REQUIRE(ref.empty == r.empty &&
								 (r.empty || (ref.lo == r.lo && ref.hi == r.hi)),
							 f.name << " p=" << p);
			}
			std::vector<uwide> candidates = {random_value(rng, f.max)};
			if (!r.empty)
			{
				candidates.push_back(r.lo);
				candidates.push_back(r.hi);
				if (r.lo > 0)
					candidates.push_back(r.lo - 1);
				if (r.hi < f.max)
					candidates.push_back(r.hi + 1);
				const uwide span = r.hi - r.lo;
				const uwide rnd = (static_cast<uwide>(rng()) << 64) | rng();
				candidates.push_back(span == max128 ? rnd : r.lo + rnd % (span + 1));
			}
			for (uwide v : candidates)
			{
				const bool starts = starts_with(f.text(v), p);
				const bool inside = !r.empty && r.lo <= v && v <= r.hi;
				LOOP_REQUIRE(starts == inside, f.name << " p=" << p << " v=" << hex(v));
				(inside ? in : out)++;
			}
		}
		CHECK(in > rounds(10000));
		CHECK(out > rounds(10000));
	}
}

// ==== time windows ===================================================================================

TEST_CASE("window_units: inclusivity at the unit", "[formats]")
{
	const std::int64_t t = 1000 * 1000; // exactly ms 1000
	const std::uint64_t big = 1ull << 40;
	auto ms = [&](idt::time_window w) { return idt::window_units(w, 1000, 0, big); };
	auto us = [&](idt::time_window w) { return idt::window_units(w, 1, 0, big); };
	auto is = [](idt::unit_range u, std::uint64_t lo, std::uint64_t hi) {
		return !u.empty && u.lo == lo && u.hi == hi;
	};

	SECTION("milliseconds")
	{
		CHECK(is(ms(window(t, t)), 1000, 1000));
		CHECK(ms(window(t, t, false, true)).empty);
		CHECK(ms(window(t, t, true, false)).empty);
		CHECK(ms(window(t, t, false, false)).empty);
		CHECK(ms(window(t + 1, t + 999)).empty);
		CHECK(is(ms(window(t + 1, t + 1000)), 1001, 1001));
		CHECK(is(ms(window(t, t + 1000, false, true)), 1001, 1001));
		CHECK(is(ms(window(t, t + 1000, true, false)), 1000, 1000));
		CHECK(is(ms(window(t, t + 1000)), 1000, 1001));
		CHECK(is(ms(window(t - 1, t + 1, false, false)), 1000, 1000));
		CHECK(is(ms(window(t - 1000, t, false, true)), 1000, 1000));
		CHECK(ms(window(t - 999, t - 1)).empty);
		CHECK(ms(window(t + 5000, t)).empty); // inverted
		CHECK(is(ms(window(t - 1, t + 2999, true, false)), 1000, 1002));
	}
	SECTION("microseconds (timeid)")
	{
		CHECK(is(us(window(t, t)), t, t));
		CHECK(us(window(t, t, false, true)).empty);
		CHECK(is(us(window(t, t + 1, false, true)), t + 1, t + 1));
		CHECK(is(us(window(t, t + 1, true, false)), t, t));
		CHECK(us(window(t, t + 1, false, false)).empty);
	}
	SECTION("negative instants and an epoch before 1970")
	{
		auto e = [&](idt::time_window w) { return idt::window_units(w, 1000, -5, big); };
		CHECK(is(e(window(-1500, -500)), 4, 4));
		CHECK(is(e(window(-2000, -1000, false, true)), 4, 4));
		CHECK(is(e(window(-2000, -1000, true, false)), 3, 3));
		CHECK(is(e(window(-5000, -5000)), 0, 0));
		CHECK(e(window(-5001, -5001)).empty);
		CHECK(e(window(-9000, -5001)).empty);
	}
	SECTION("infinite bounds clamp to the era")
	{
		CHECK(is(ms(forever()), 0, big));
		CHECK(is(ms(until(t)), 0, 1000));
		CHECK(is(ms(until(t, false)), 0, 999));
		CHECK(is(ms(from(t)), 1000, big));
		CHECK(is(ms(from(t, false)), 1001, big));
		// an infinite side ignores its value and inclusivity
		idt::time_window w = {123456789, -5, false, false, true, true};
		CHECK(is(ms(w), 0, big));
		CHECK(is(ms(window(INT64_MIN, INT64_MAX)), 0, big));
		CHECK(is(ms(window(INT64_MIN, INT64_MAX, false, false)), 0, big));
	}
	SECTION("windows outside the era")
	{
		auto x = [&](idt::time_window w) { return idt::window_units(w, 1000, 100, 50); };
		CHECK(x(window(0, 99999)).empty); // before the epoch
		CHECK(is(x(window(0, 100000)), 0, 0));
		CHECK(x(until(99999)).empty);
		CHECK(is(x(from(150000)), 50, 50)); // the last unit
		CHECK(x(from(150000, false)).empty);
		CHECK(x(window(151000, 999999)).empty); // after the era
		CHECK(x(window(INT64_MAX, INT64_MAX)).empty);
		CHECK(x(window(INT64_MIN, INT64_MIN)).empty);
		CHECK(is(x(window(INT64_MIN, INT64_MAX)), 0, 50));
	}
}

TEST_CASE("window_units: random windows against brute force", "[formats]")
{
	std::mt19937_64 rng(seed + 6);
	int nonempty = 0;
	for (int i = 0; i < 30000; i++)
	{
		const std::int64_t unit = std::vector<std::int64_t>{1, 1000, 7}[rng() % 3];
		const std::int64_t epoch = static_cast<std::int64_t>(rng() % 41) - 20;
		const std::uint64_t max_units = rng() % 41;
		auto pick = [&] { return static_cast<std::int64_t>(rng() % (100 * unit + 1)) - 30 * unit; };
		idt::time_window w = {pick(),         pick(),         rng() % 2 == 0,
							  rng() % 2 == 0, rng() % 8 == 0, rng() % 8 == 0};
		bool empty = true;
		std::uint64_t lo = 0, hi = 0;
		for (std::uint64_t u = 0; u <= max_units; u++)
		{
			const std::int64_t inst = (static_cast<std::int64_t>(u) + epoch) * unit;
			const bool above = w.lo_infinite || (w.lo_inclusive ? inst >= w.lo_us : inst > w.lo_us);
			const bool below = w.hi_infinite || (w.hi_inclusive ? inst <= w.hi_us : inst < w.hi_us);
			if (above && below)
			{
				if (empty)
					lo = u;
				hi = u;
				empty = false;
			}
		}
		const idt::unit_range r = idt::window_units(w, unit, epoch, max_units);
		LOOP_REQUIRE(r.empty == empty && (empty || (r.lo == lo && r.hi == hi)),
					 "unit=" << unit << " epoch=" << epoch << " max=" << max_units << " w=["
							 << w.lo_us << (w.lo_inclusive ? "i" : "x")
							 << (w.lo_infinite ? "inf" : "") << ", " << w.hi_us
							 << (w.hi_inclusive ? "i" : "x") << (w.hi_infinite ? "inf" : "")
							 << "]");
		nonempty += !empty;
	}
	CHECK(nonempty > 5000);
}

TEST_CASE("time ranges: each format's bounds", "[formats]")
{
	const std::int64_t T = unix_ms(2024, 7, 19, 16, 40, 46, 480); // a ms in every era
	const std::int64_t Tus = T * 1000;

	SECTION("xid")
	{
		const std::uint64_t d = static_cast<std::uint64_t>(T - idt::xid_epoch_ms);
		idt::range64 r = idt::xid_time_range(window(Tus, Tus));
		REQUIRE_FALSE(r.empty);
		CHECK(idt::xid_ms(r.lo) == d);
		CHECK(idt::xid_random(r.lo) == 0u);
		CHECK(idt::xid_ms(r.hi) == d);
		CHECK(idt::xid_random(r.hi) == 0x3FFFFFu);
		CHECK(idt::xid_time_range(window(Tus + 1, Tus + 999)).empty);
		CHECK(idt::xid_time_range(window(Tus, Tus, false, true)).empty);
		r = idt::xid_time_range(window(Tus, Tus + 1000, false, true));
		CHECK(idt::xid_ms(r.lo) == d + 1);
		CHECK(idt::xid_ms(r.hi) == d + 1);
		r = idt::xid_time_range(forever());
		CHECK(r.lo == 0);
		CHECK(r.hi == UINT64_MAX);
		// before the epoch / at it
		const std::int64_t E = idt::xid_epoch_ms * 1000;
		CHECK(idt::xid_time_range(window(0, E - 1)).empty);
		CHECK(idt::xid_time_range(until(E, false)).empty);
		r = idt::xid_time_range(window(E - 1, E));
		CHECK(r.lo == 0);
		CHECK(r.hi == 0x3FFFFFu);
		// the last instant, 2151-03-25T18:46:22.214Z, and after it
		const std::int64_t L = unix_ms(2151, 3, 25, 18, 46, 22, 214) * 1000;
		r = idt::xid_time_range(window(L, L));
		CHECK(r.lo == (idt::xid_max_ms << 22));
		CHECK(r.hi == UINT64_MAX);
		CHECK(idt::xid_time_range(window(L + 1000, L + 5000)).empty);
		CHECK(idt::xid_time_range(from(L, false)).empty);
		r = idt::xid_time_range(from(L));
		CHECK(r.lo == (idt::xid_max_ms << 22));
		CHECK(r.hi == UINT64_MAX);
	}
	SECTION("timeid (microseconds)")
	{
		const std::uint64_t t = 1721407246480310ull;
		const std::int64_t ts = static_cast<std::int64_t>(t);
		idt::range64 r = idt::timeid_time_range(window(ts, ts));
		REQUIRE_FALSE(r.empty);
		CHECK(r.lo == idt::timeid_pack(t, 0));
		CHECK(r.hi == idt::timeid_pack(t, 1023));
		CHECK(idt::timeid_time_range(window(ts, ts, false, true)).empty);
		r = idt::timeid_time_range(window(ts, ts + 1, false, true));
		CHECK(r.lo == idt::timeid_pack(t + 1, 0));
		CHECK(r.hi == idt::timeid_pack(t + 1, 1023));
		r = idt::timeid_time_range(forever());
		CHECK(r.lo == 0);
		CHECK(r.hi == idt::timeid_max);
		CHECK(idt::timeid_time_range(window(-10, -1)).empty);
		r = idt::timeid_time_range(window(-10, 0));
		CHECK(r.lo == 0);
		CHECK(r.hi == 1023);
		const std::int64_t M = static_cast<std::int64_t>(idt::timeid_max_us);
		CHECK(idt::timeid_time_range(window(M + 1, M + 5)).empty);
		r = idt::timeid_time_range(window(M, INT64_MAX));
		CHECK(r.lo == idt::timeid_pack(idt::timeid_max_us, 0));
		CHECK(r.hi == idt::timeid_max);
	}
	SECTION("ulidflake")
	{
		const std::uint64_t d = static_cast<std::uint64_t>(T - idt::ulidflake_epoch_ms);
		idt::range64 r = idt::ulidflake_time_range(window(Tus, Tus));
		REQUIRE_FALSE(r.empty);
		CHECK(idt::ulidflake_ms(r.lo) == d);
		CHECK((r.lo & 0xFFFFF) == 0u);
		CHECK(idt::ulidflake_ms(r.hi) == d);
		CHECK((r.hi & 0xFFFFF) == 0xFFFFFu);
		CHECK(idt::ulidflake_time_range(window(Tus + 1, Tus + 999)).empty);
		const std::int64_t E = idt::ulidflake_epoch_ms * 1000;
		CHECK(idt::ulidflake_time_range(window(0, E - 1)).empty);
		r = idt::ulidflake_time_range(until(E));
		CHECK(r.lo == 0);
		CHECK(r.hi == 0xFFFFFu);
		r = idt::ulidflake_time_range(forever());
		CHECK(r.lo == 0);
		CHECK(r.hi == idt::ulidflake_max);
		const std::int64_t L = unix_ms(2302, 9, 27, 15, 10, 22, 207) * 1000;
		r = idt::ulidflake_time_range(from(L));
		CHECK(r.lo == idt::ulidflake_max_ms << 20);
		CHECK(r.hi == idt::ulidflake_max);
		CHECK(idt::ulidflake_time_range(from(L + 1)).empty);
	}
	SECTION("ulid")
	{
		const std::uint64_t ms = static_cast<std::uint64_t>(T);
		idt::range128 r = idt::ulid_time_range(window(Tus, Tus));
		REQUIRE_FALSE(r.empty);
		CHECK(r.lo == u128{ms << 16, 0});
		CHECK(r.hi == u128{(ms << 16) | 0xFFFF, ~0ull});
		CHECK(idt::ulid_ms(r.lo) == ms);
		CHECK(idt::ulid_ms(r.hi) == ms);
		CHECK(idt::ulid_time_range(window(Tus + 1, Tus + 999)).empty);
		CHECK(idt::ulid_time_range(window(-5000, -1)).empty);
		r = idt::ulid_time_range(forever());
		CHECK(r.lo == u128{0, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
		const std::int64_t M = static_cast<std::int64_t>(idt::ulid_max_ms) * 1000;
		CHECK(idt::ulid_time_range(window(M + 1, M + 999999)).empty);
		r = idt::ulid_time_range(from(M));
		CHECK(r.lo == u128{idt::ulid_max_ms << 16, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
	}
	SECTION("euid")
	{
		const std::uint64_t ms = static_cast<std::uint64_t>(T);
		idt::range128 r = idt::euid_time_range(window(Tus, Tus));
		REQUIRE_FALSE(r.empty);
		CHECK(r.lo == u128{ms << 19, 0});
		CHECK(r.hi == u128{(ms << 19) | 0x7FFFF, ~0ull});
		CHECK(idt::euid_ms(r.lo) == ms);
		CHECK(idt::euid_ms(r.hi) == ms);
		CHECK(idt::euid_time_range(window(Tus + 1, Tus + 999)).empty);
		CHECK(idt::euid_time_range(until(-1)).empty);
		r = idt::euid_time_range(forever());
		CHECK(r.lo == u128{0, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
		const std::int64_t M = static_cast<std::int64_t>(idt::euid_max_ms) * 1000;
		CHECK(idt::euid_time_range(from(M + 1)).empty);
		r = idt::euid_time_range(from(M));
		CHECK(r.lo == u128{idt::euid_max_ms << 19, 0});
		CHECK(r.hi == u128{~0ull, ~0ull});
	}
}

TEST_CASE("time ranges: an ID is in the range iff its time is in the window", "[formats]")
{
	std::mt19937_64 rng(seed + 7);
	int hits = 0;
	for (int i = 0; i < 20000; i++)
	{
		const bool lo_inc = rng() % 2 == 0, hi_inc = rng() % 2 == 0;
		auto in_window = [&](std::int64_t inst, const idt::time_window &w) {
			return (w.lo_inclusive ? inst >= w.lo_us : inst > w.lo_us) &&
				   (w.hi_inclusive ? inst <= w.hi_us : inst < w.hi_us);
		};
		auto around = [&](std::int64_t inst, std::int64_t spread) {
			const std::int64_t a =
				inst + static_cast<std::int64_t>(rng() % (2 * spread + 1)) - spread;
			const std::int64_t b = a + static_cast<std::int64_t>(rng() % (2 * spread + 1));
			return window(a, b, lo_inc, hi_inc);
		};
		// xid
		{
			const std::uint64_t v = rng();
			const std::int64_t inst =
				(static_cast<std::int64_t>(idt::xid_ms(v)) + idt::xid_epoch_ms) * 1000;
			const idt::time_window w = around(inst, 2500);
			const idt::range64 r = idt::xid_time_range(w);
			LOOP_REQUIRE((!r.empty && r.lo <= v && v <= r.hi) == in_window(inst, w), "xid v=" << v);
			hits += in_window(inst, w);
		}
		// timeid
		{
			const std::uint64_t v = rng() >> 1;
			const std::int64_t inst = static_cast<std::int64_t>(idt::timeid_micros(v));
			const idt::time_window w = around(inst, 3);
			const idt::range64 r = idt::timeid_time_range(w);
			LOOP_REQUIRE((!r.empty && r.lo <= v && v <= r.hi) == in_window(inst, w),
						 "timeid v=" << v);
		}
		// ulidflake
		{
			const std::uint64_t v = rng() >> 1;
			const std::int64_t inst =
				(static_cast<std::int64_t>(idt::ulidflake_ms(v)) + idt::ulidflake_epoch_ms) * 1000;
			const idt::time_window w = around(inst, 2500);
			const idt::range64 r = idt::ulidflake_time_range(w);
			LOOP_REQUIRE((!r.empty && r.lo <= v && v <= r.hi) == in_window(inst, w),
						 "ulidflake v=" << v);
		}
		// ulid and euid
		{
			const u128 v = {rng(), rng()};
			std::int64_t inst = static_cast<std::int64_t>(idt::ulid_ms(v)) * 1000;
			idt::time_window w = around(inst, 2500);
			idt::range128 r = idt::ulid_time_range(w);
			LOOP_REQUIRE((!r.empty && r.lo <= v && v <= r.hi) == in_window(inst, w),
						 "ulid v.hi=" << v.hi);
			inst = static_cast<std::int64_t>(idt::euid_ms(v)) * 1000;
			w = around(inst, 2500);
			r = idt::euid_time_range(w);
			LOOP_REQUIRE((!r.empty && r.lo <= v && v <= r.hi) == in_window(inst, w),
						 "euid v.hi=" << v.hi);
		}
	}
	CHECK(hits > 4000);
}
