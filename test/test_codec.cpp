// Catch2 tests of the codecs: fixed-11 Base58 and the three base-32 alphabets, plus random round
// trips through every codec and every format's text form.
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

constexpr std::uint64_t seed = 0x1d7e5c0dec5eedULL;
const int random_rounds = rounds(100000);

// Slow reference: the numeric value of a text over an alphabet, with no range check.
uwide
ref_value(const std::string &text, const char *alphabet, unsigned base)
{
	uwide v = 0;
	for (char c : text)
		v = v * base + static_cast<unsigned>(std::strchr(alphabet, c) - alphabet);
	return v;
}

std::string
b58(std::uint64_t v)
{
	return format_exact<11>([v](char *out) { idt::base58_encode11(v, out); });
}

std::string
b32_text(const std::vector<std::uint8_t> &digits, idt::b32 alphabet)
{
	std::string out(digits.size(), '#');
	idt::b32_from_digits(digits.data(), digits.size(), alphabet, &out[0]);
	return out;
}

} // namespace

// ---- Base58 fixed-11 -----------------------------------------------------------------------------

TEST_CASE("base58: vectors encode and decode", "[codec]")
{
	struct vec
	{
		std::uint64_t value;
		const char *text;
	};
	const vec vectors[] = {
		{0, "11111111111"},
		{1, "11111111112"},
		{57, "1111111111z"},
		{58, "11111111121"},
		{58 * 58 - 1, "111111111zz"},
		{1ull << 63, "NQm6nKp8qFD"},
		{UINT64_MAX - 1, "jpXCZedGfVP"},
		{UINT64_MAX, "jpXCZedGfVQ"},
	};
	for (const vec &v : vectors)
	{
		CAPTURE(v.text);
		CHECK(b58(v.value) == v.text);
		const idt::parse64 r = parse_exact(idt::base58_decode11, v.text);
		CHECK(r.error == errc::ok);
		CHECK(r.value == v.value);
		CHECK(r.offset == 0);
		// uid11 is the same codec.
		CHECK(parse_exact(idt::uid11_parse, v.text).value == v.value);
		CHECK(format_exact<11>([&](char *o) { idt::uid11_format(v.value, o); }) == v.text);
	}
}

TEST_CASE("base58: text above 2^64-1 is out_of_range", "[codec]")
{
	// The successor of the largest valid text is exactly 2^64.
	REQUIRE(ref_value("jpXCZedGfVR", base58_alphabet, 58) == (static_cast<uwide>(1) << 64));
	for (const char *text :
		 {"jpXCZedGfVR", "jpXCZedGfVZ", "jpXCZedGfWQ", "jpY11111111", "k1111111111", "zzzzzzzzzzz"})
	{
		CAPTURE(text);
		const idt::parse64 r = parse_exact(idt::base58_decode11, text);
		CHECK(r.error == errc::out_of_range);
		CHECK(r.offset == 0);
	}
	const idt::parse64 max = parse_exact(idt::base58_decode11, "jpXCZedGfVQ");
	CHECK(max.error == errc::ok);
	CHECK(max.value == UINT64_MAX);
}

TEST_CASE("base58: malformed text is rejected with its offset", "[codec]")
{
	const std::string good = "NQm6nKp8qFD";

	SECTION("bad_length: offset is the length")
	{
		for (std::size_t len : {0u, 1u, 10u, 12u, 22u, 255u})
		{
			CAPTURE(len);
			const std::string text(len, '2');
			const idt::parse64 r = parse_exact(idt::base58_decode11, text);
			CHECK(r.error == errc::bad_length);
			CHECK(r.offset == len);
		}
		// The offset is a byte: longer inputs clamp to 255.
		const idt::parse64 r = parse_exact(idt::base58_decode11, std::string(300, '2'));
		CHECK(r.error == errc::bad_length);
		CHECK(r.offset == 255);
	}

	SECTION("bad_symbol at the first, a middle and the last position")
	{
		const std::string bad_chars[] = {
			"0",    "O",    "I",   "l", " ", "-", "+", "/", "_", "=", std::string(1, '\0'),
			"\x7f", "\x80", "\xff"};
		for (const std::string &bad : bad_chars)
			for (std::size_t pos : {0u, 5u, 10u})
			{
				std::string text = good;
				text[pos] = bad[0];
				CAPTURE(static_cast<int>(static_cast<unsigned char>(bad[0])), pos);
				REQUIRE(text.size() == 11);
				const idt::parse64 r = parse_exact(idt::base58_decode11, text);
				CHECK(r.error == errc::bad_symbol);
				CHECK(r.offset == pos);
			}
	}

	SECTION("a two-byte UTF-8 character counts as bytes")
	{
		const std::string e_acute = "\xc3\xa9";
		const std::string first = e_acute + "123456789";
		const std::string middle = "12345" + e_acute + "6789";
		const std::string last = "123456789" + e_acute;
		for (const auto &tc :
			 {std::make_pair(first, 0), std::make_pair(middle, 5), std::make_pair(last, 9)})
		{
			REQUIRE(tc.first.size() == 11);
			const idt::parse64 r = parse_exact(idt::base58_decode11, tc.first);
			CHECK(r.error == errc::bad_symbol);
			CHECK(r.offset == tc.second);
		}
	}

	SECTION("the first bad symbol wins")
	{
		const idt::parse64 r = parse_exact(idt::base58_decode11, "11O11I11l10");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 2);
	}

	SECTION("a bad symbol is reported even when the value would be out of range")
	{
		const idt::parse64 r = parse_exact(idt::base58_decode11, "zzzzzzzzzz0");
		CHECK(r.error == errc::bad_symbol);
		CHECK(r.offset == 10);
	}
}

TEST_CASE("base58: symbol table", "[codec]")
{
	int valid = 0;
	for (int c = 0; c < 256; c++)
	{
		const char ch = static_cast<char>(c);
		const char *p = c == 0 ? nullptr : std::strchr(base58_alphabet, ch);
		const int expected = p ? static_cast<int>(p - base58_alphabet) : -1;
		CAPTURE(c);
		CHECK(idt::base58_symbol_value(ch) == expected);
		valid += expected >= 0;
	}
	CHECK(valid == 58);
	for (char c : {'0', 'O', 'I', 'l'})
		CHECK(idt::base58_symbol_value(c) == -1);
}

// ---- base 32 -------------------------------------------------------------------------------------

namespace
{
// Reference decoding of one byte per alphabet, written from the alphabets in docs/formats.md.
int
ref_b32(unsigned char c, idt::b32 alphabet)
{
	if (alphabet == idt::b32::sortable)
	{
		const char *p = c == 0 ? nullptr : std::strchr(sortable_alphabet, c);
		return p ? static_cast<int>(p - sortable_alphabet) : -1;
	}
	unsigned char u = (c >= 'a' && c <= 'z') ? static_cast<unsigned char>(c - 'a' + 'A') : c;
	if (alphabet == idt::b32::euid)
	{
		if (u == 'I' || u == 'L')
			return 1;
		if (u == 'O')
			return 0;
	}
	const char *p = u == 0 ? nullptr : std::strchr(crockford_alphabet, u);
	return p ? static_cast<int>(p - crockford_alphabet) : -1;
}

int
digit_of(char c, idt::b32 alphabet)
{
	std::uint8_t d = 0xEE;
	const int bad = idt::b32_to_digits(&c, 1, alphabet, &d);
	return bad == -1 ? d : -1;
}
} // namespace

TEST_CASE("base32: every byte against the reference table", "[codec]")
{
	for (idt::b32 alphabet : {idt::b32::sortable, idt::b32::crockford, idt::b32::euid})
	{
		int valid = 0;
		for (int c = 0; c < 256; c++)
		{
			const int expected = ref_b32(static_cast<unsigned char>(c), alphabet);
			CAPTURE(static_cast<int>(alphabet), c);
			CHECK(digit_of(static_cast<char>(c), alphabet) == expected);
			valid += expected >= 0;
		}
		// 32 symbols; Crockford adds 22 lower-case letters; EUID adds I i L l O o on top.
		CHECK(valid == (alphabet == idt::b32::sortable    ? 32
						: alphabet == idt::b32::crockford ? 54
														  : 60));
	}
}

TEST_CASE("base32: case and alias rules", "[codec]")
{
	using idt::b32;
	SECTION("sortable: lower case only")
	{
		CHECK(digit_of('2', b32::sortable) == 0);
		CHECK(digit_of('7', b32::sortable) == 5);
		CHECK(digit_of('a', b32::sortable) == 6);
		CHECK(digit_of('b', b32::sortable) == 7);
		CHECK(digit_of('z', b32::sortable) == 31);
		for (char c : {'A', 'B', 'Z', '0', '1', '8', '9', '-'})
		{
			CAPTURE(c);
			CHECK(digit_of(c, b32::sortable) == -1);
		}
	}
	SECTION("crockford: either case, I L O U rejected")
	{
		CHECK(digit_of('0', b32::crockford) == 0);
		CHECK(digit_of('9', b32::crockford) == 9);
		CHECK(digit_of('A', b32::crockford) == 10);
		CHECK(digit_of('a', b32::crockford) == 10);
		CHECK(digit_of('H', b32::crockford) == 17);
		CHECK(digit_of('J', b32::crockford) == 18);
		CHECK(digit_of('k', b32::crockford) == 19);
		CHECK(digit_of('M', b32::crockford) == 20);
		CHECK(digit_of('T', b32::crockford) == 26);
		CHECK(digit_of('v', b32::crockford) == 27);
		CHECK(digit_of('z', b32::crockford) == 31);
		for (char c : {'I', 'i', 'L', 'l', 'O', 'o', 'U', 'u', '-', ' ', '\0'})
		{
			CAPTURE(c);
			CHECK(digit_of(c, b32::crockford) == -1);
		}
	}
	SECTION("euid: I i L l -> 1, O o -> 0, U u rejected")
	{
		for (char c : {'1', 'I', 'i', 'L', 'l'})
		{
			CAPTURE(c);
			CHECK(digit_of(c, b32::euid) == 1);
		}
		for (char c : {'0', 'O', 'o'})
		{
			CAPTURE(c);
			CHECK(digit_of(c, b32::euid) == 0);
		}
		CHECK(digit_of('U', b32::euid) == -1);
		CHECK(digit_of('u', b32::euid) == -1);
		CHECK(digit_of('z', b32::euid) == 31);
	}
}

TEST_CASE("base32: b32_to_digits reports the first bad symbol", "[codec]")
{
	std::uint8_t d[16];
	CHECK(idt::b32_to_digits("", 0, idt::b32::crockford, d) == -1);
	CHECK(idt::b32_to_digits("U0123", 5, idt::b32::crockford, d) == 0);
	CHECK(idt::b32_to_digits("01U23", 5, idt::b32::crockford, d) == 2);
	CHECK(idt::b32_to_digits("0123U", 5, idt::b32::crockford, d) == 4);
	CHECK(idt::b32_to_digits("01I2O", 5, idt::b32::crockford, d) == 2);
	CHECK(idt::b32_to_digits("01I2O", 5, idt::b32::euid, d) == -1);
	CHECK(idt::b32_to_digits("3kXn", 4, idt::b32::sortable, d) == 2);
	// n limits the read: a bad byte past n is not looked at.
	CHECK(idt::b32_to_digits("234!", 3, idt::b32::sortable, d) == -1);
	// Digits decoded before the bad one are written.
	std::uint8_t e[4] = {99, 99, 99, 99};
	CHECK(idt::b32_to_digits("zy?x", 4, idt::b32::sortable, e) == 2);
	CHECK(e[0] == 31);
	CHECK(e[1] == 30);
}

TEST_CASE("find_non_symbol: the first byte of any length that is no symbol", "[codec]")
{
	using idt::b32;
	CHECK(idt::b32_find_non_symbol("", 0, b32::crockford, false) == -1);
	CHECK(idt::b32_find_non_symbol(" 01ARZ3NDEKTSV4RRFFQ69G5FAV", 27, b32::crockford, false) == 0);
	CHECK(idt::b32_find_non_symbol("01ARZ3NDEKTSV4RRFFQ69G5FAV\n", 27, b32::crockford, false) ==
		  26);
	CHECK(idt::b32_find_non_symbol("01arz3ndektsv4rrffq69g5fav", 26, b32::crockford, false) == -1);
	CHECK(idt::b32_find_non_symbol("01IL", 4, b32::crockford, false) == 2);
	CHECK(idt::b32_find_non_symbol("01IL", 4, b32::euid, false) == -1);
	CHECK(idt::b32_find_non_symbol("01U", 3, b32::euid, false) == 2);
	// Dashes only where asked for (timeid's display form), never as Crockford symbols.
	CHECK(idt::b32_find_non_symbol("3kxn-lhr-3gxq-23-", 17, b32::sortable, true) == -1);
	CHECK(idt::b32_find_non_symbol("3kxn-lhr", 8, b32::sortable, false) == 4);
	CHECK(idt::b32_find_non_symbol("0190b6f4-8b5c", 13, b32::crockford, false) == 8);
	// len limits the read.
	CHECK(idt::b32_find_non_symbol("234!", 3, b32::sortable, false) == -1);
	CHECK(idt::base58_find_non_symbol("", 0) == -1);
	CHECK(idt::base58_find_non_symbol("NQm6nKp8qFDx", 12) == -1);
	CHECK(idt::base58_find_non_symbol("NQm6nKp8qFD ", 12) == 11);
	CHECK(idt::base58_find_non_symbol("0NQm6nKp8qFD", 12) == 0);
	CHECK(idt::base58_find_non_symbol("NQm6l", 5) == 4);
	// Every byte: the same verdict as the symbol tables.
	for (int c = 0; c < 256; c++)
	{
		const char ch = static_cast<char>(c);
		std::uint8_t d;
		const int expect58 = idt::base58_symbol_value(ch) < 0 ? 0 : -1;
		CHECK(idt::base58_find_non_symbol(&ch, 1) == expect58);
		for (b32 a : {b32::sortable, b32::crockford, b32::euid})
			CHECK(idt::b32_find_non_symbol(&ch, 1, a, false) == idt::b32_to_digits(&ch, 1, a, &d));
	}
}

TEST_CASE("base32: b32_from_digits writes the canonical symbols", "[codec]")
{
	std::vector<std::uint8_t> all(32);
	for (int i = 0; i < 32; i++)
		all[i] = static_cast<std::uint8_t>(i);
	CHECK(b32_text(all, idt::b32::sortable) == sortable_alphabet);
	CHECK(b32_text(all, idt::b32::crockford) == crockford_alphabet);
	// EUID encodes with plain upper-case Crockford: aliases are input-only.
	CHECK(b32_text(all, idt::b32::euid) == crockford_alphabet);
	// And back, for every alphabet, including the lower-case Crockford forms.
	for (idt::b32 a : {idt::b32::sortable, idt::b32::crockford, idt::b32::euid})
	{
		const std::string text = b32_text(all, a);
		std::uint8_t d[32];
		REQUIRE(idt::b32_to_digits(text.data(), 32, a, d) == -1);
		CHECK(std::vector<std::uint8_t>(d, d + 32) == all);
		if (a != idt::b32::sortable)
		{
			const std::string l = lower(text);
			REQUIRE(idt::b32_to_digits(l.data(), 32, a, d) == -1);
			CHECK(std::vector<std::uint8_t>(d, d + 32) == all);
		}
	}
}

TEST_CASE("base32: u64 <-> 13 digits", "[codec]")
{
	std::uint8_t d[13];
	std::uint64_t v = 12345;

	idt::u64_to_digits13(0, d);
	CHECK(std::vector<std::uint8_t>(d, d + 13) == std::vector<std::uint8_t>(13, 0));
	REQUIRE(idt::digits13_to_u64(d, &v));
	CHECK(v == 0);

	// The first digit carries the top 4 bits: 2^64-1 is 15 then twelve 31s.
	idt::u64_to_digits13(UINT64_MAX, d);
	CHECK(d[0] == 15);
	for (int i = 1; i < 13; i++)
		CHECK(d[i] == 31);
	REQUIRE(idt::digits13_to_u64(d, &v));
	CHECK(v == UINT64_MAX);

	idt::u64_to_digits13(1ull << 63, d);
	CHECK(d[0] == 8);
	CHECK(d[12] == 0);
	idt::u64_to_digits13(1, d);
	CHECK(d[12] == 1);
	CHECK(d[0] == 0);
	idt::u64_to_digits13(32, d);
	CHECK(d[11] == 1);
	CHECK(d[12] == 0);

	// ULID-Flake's example: "00CMXB6TAK4SA" = 14246757444195114.
	std::uint8_t ex[13];
	REQUIRE(idt::b32_to_digits("00CMXB6TAK4SA", 13, idt::b32::crockford, ex) == -1);
	REQUIRE(idt::digits13_to_u64(ex, &v));
	CHECK(v == 14246757444195114ull);
	idt::u64_to_digits13(14246757444195114ull, d);
	CHECK(std::vector<std::uint8_t>(d, d + 13) == std::vector<std::uint8_t>(ex, ex + 13));

	// A first digit of 16..31 needs a 65th bit.
	for (std::uint8_t first = 16; first < 32; first++)
	{
		std::uint8_t big[13] = {};
		big[0] = first;
		v = 777;
		CAPTURE(first);
		CHECK_FALSE(idt::digits13_to_u64(big, &v));
	}
	std::uint8_t top[13] = {15, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31};
	CHECK(idt::digits13_to_u64(top, &v));
	CHECK(v == UINT64_MAX);
}

TEST_CASE("base32: u128 <-> 26 digits", "[codec]")
{
	std::uint8_t d[26];
	u128 v = {1, 2};

	idt::u128_to_digits26({0, 0}, d);
	CHECK(std::vector<std::uint8_t>(d, d + 26) == std::vector<std::uint8_t>(26, 0));
	REQUIRE(idt::digits26_to_u128(d, &v));
	CHECK(v == u128{0, 0});

	// The first digit carries the top 3 bits.
	idt::u128_to_digits26({~0ull, ~0ull}, d);
	CHECK(d[0] == 7);
	for (int i = 1; i < 26; i++)
		CHECK(d[i] == 31);
	REQUIRE(idt::digits26_to_u128(d, &v));
	CHECK(v == u128{~0ull, ~0ull});

	idt::u128_to_digits26({1ull << 63, 0}, d);
	CHECK(d[0] == 4);
	// Digit i holds bits (129 - 5i) .. (125 - 5i): digit 12 bits 69..65, digit 13 bits 64..60.
	idt::u128_to_digits26({0, 1ull << 63}, d);
	CHECK(d[12] == 0);
	CHECK(d[13] == 8);
	idt::u128_to_digits26({1, 0}, d);
	CHECK(d[12] == 0);
	CHECK(d[13] == 16);
	idt::u128_to_digits26({0, 1}, d);
	CHECK(d[25] == 1);
	CHECK(d[24] == 0);

	std::uint8_t ex[26];
	REQUIRE(idt::b32_to_digits("01ARZ3NDEKTSV4RRFFQ69G5FAV", 26, idt::b32::crockford, ex) == -1);
	REQUIRE(idt::digits26_to_u128(ex, &v));
	CHECK(v == u128{0x01563e3ab5d3d676ull, 0x4c61efb99302bd5bull});

	for (std::uint8_t first = 8; first < 32; first++)
	{
		std::uint8_t big[26] = {};
		big[0] = first;
		CAPTURE(first);
		CHECK_FALSE(idt::digits26_to_u128(big, &v));
	}
}

TEST_CASE("base32: 27-digit EUID layout (128-bit value then 7-bit check)", "[codec]")
{
	std::uint8_t d[27];
	u128 v;
	unsigned check;

	SECTION("check in the last two digits")
	{
		idt::u128_check_to_digits27({0, 0}, 127, d);
		for (int i = 0; i < 25; i++)
			CHECK(d[i] == 0);
		CHECK(d[25] == 3); // the check's high two bits under the value's low three (000)
		CHECK(d[26] == 31);
		idt::digits27_to_u128_check(d, &v, &check);
		CHECK(v == u128{0, 0});
		CHECK(check == 127);
	}
	SECTION("the value's low three bits sit above the check's high two in digit 25")
	{
		idt::u128_check_to_digits27({0, 7}, 0, d);
		CHECK(d[24] == 0);
		CHECK(d[25] == 28);
		CHECK(d[26] == 0);
		idt::u128_check_to_digits27({0, 8}, 0x41, d);
		CHECK(d[24] == 1);
		CHECK(d[25] == 2);
		CHECK(d[26] == 1);
		idt::digits27_to_u128_check(d, &v, &check);
		CHECK(v == u128{0, 8});
		CHECK(check == 0x41);
	}
	SECTION("the first digit carries the value's top five bits")
	{
		idt::u128_check_to_digits27({1ull << 63, 0}, 0, d);
		CHECK(d[0] == 16);
		idt::u128_check_to_digits27({~0ull, ~0ull}, 0, d);
		for (int i = 0; i < 25; i++)
			CHECK(d[i] == 31);
		CHECK(d[25] == 28);
		CHECK(d[26] == 0);
	}
	SECTION("reference vector")
	{
		REQUIRE(idt::b32_to_digits("C8EE934SR007G5Q94QKKXFRFV8B", 27, idt::b32::euid, d) == -1);
		idt::digits27_to_u128_check(d, &v, &check);
		CHECK(v == u128{0x621ce48c99c00078ull, 0x16e925e73ebf0fdaull});
		CHECK(check == 11);
		std::uint8_t back[27];
		idt::u128_check_to_digits27(v, check, back);
		CHECK(std::vector<std::uint8_t>(back, back + 27) == std::vector<std::uint8_t>(d, d + 27));
	}
}

// ---- fixed-seed random round trips -----------------------------------------------------------------

TEST_CASE("random round trips: codecs", "[codec]")
{
	std::mt19937_64 rng(seed);
	std::uint64_t prev = 0;
	std::string prev_text = b58(0);
	for (int i = 0; i < random_rounds; i++)
	{
		// Mix full-width values with small ones so that short texts are covered too.
		const std::uint64_t v = (i % 4 == 0) ? rng() >> (rng() % 64) : rng();
		const std::string t = b58(v);
		LOOP_REQUIRE(t.size() == 11, "v=" << v);
		const idt::parse64 r = idt::base58_decode11(t.data(), t.size());
		LOOP_REQUIRE(r.error == errc::ok && r.value == v, "v=" << v << " t=" << t);
		// Text order equals numeric order.
		LOOP_REQUIRE((prev < v) == (prev_text < t) && (prev == v) == (prev_text == t),
					 "prev=" << prev << " v=" << v);
		prev = v;
		prev_text = t;

		std::uint8_t d13[13];
		idt::u64_to_digits13(v, d13);
		std::uint64_t back = ~v;
		LOOP_REQUIRE(idt::digits13_to_u64(d13, &back) && back == v, "v=" << v);
		LOOP_REQUIRE(d13[0] <= 15, "v=" << v);

		const u128 w = {rng(), rng()};
		std::uint8_t d26[26];
		idt::u128_to_digits26(w, d26);
		u128 wback = {~w.hi, ~w.lo};
		LOOP_REQUIRE(idt::digits26_to_u128(d26, &wback) && wback == w, "w.hi=" << w.hi);
		LOOP_REQUIRE(d26[0] <= 7, "w.hi=" << w.hi);
		// The direct symbol writer (ulid's output) agrees with digits + alphabet, in both alphabets.
		for (idt::b32 alphabet : {idt::b32::crockford, idt::b32::sortable})
		{
			char via_digits[26], direct[26];
			idt::b32_from_digits(d26, 26, alphabet, via_digits);
			idt::u128_to_symbols26(w, alphabet, direct);
			LOOP_REQUIRE(std::memcmp(via_digits, direct, 26) == 0,
						 "w.hi=" << w.hi << " w.lo=" << w.lo);
		}

		const unsigned check = static_cast<unsigned>(rng() % 128);
		std::uint8_t d27[27];
		idt::u128_check_to_digits27(w, check, d27);
		unsigned cback = 999;
		idt::digits27_to_u128_check(d27, &wback, &cback);
		LOOP_REQUIRE(wback == w && cback == check, "w.hi=" << w.hi << " check=" << check);
		// The direct 27-symbol writer (euid's output) agrees with digits + alphabet.
		for (idt::b32 alphabet : {idt::b32::euid, idt::b32::sortable})
		{
			char via_digits[27], direct[27];
			idt::b32_from_digits(d27, 27, alphabet, via_digits);
			idt::u128_check_to_symbols27(w, check, alphabet, direct);
			LOOP_REQUIRE(std::memcmp(via_digits, direct, 27) == 0,
						 "w.hi=" << w.hi << " check=" << check);
		}

		// Digits -> text -> digits for every alphabet (and lower case for Crockford's two).
		for (idt::b32 a : {idt::b32::sortable, idt::b32::crockford, idt::b32::euid})
		{
			const std::vector<std::uint8_t> digits(d27, d27 + 27);
			const std::string text = b32_text(digits, a);
			std::uint8_t again[27];
			LOOP_REQUIRE(idt::b32_to_digits(text.data(), 27, a, again) == -1 &&
							 std::vector<std::uint8_t>(again, again + 27) == digits,
						 "text=" << text);
			if (a != idt::b32::sortable)
			{
				const std::string l = lower(text);
				LOOP_REQUIRE(idt::b32_to_digits(l.data(), 27, a, again) == -1 &&
								 std::vector<std::uint8_t>(again, again + 27) == digits,
							 "text=" << l);
			}
		}
	}
	SUCCEED("random codec round trips done");
}

TEST_CASE("random round trips: formats", "[codec]")
{
	std::mt19937_64 rng(seed + 1);
	std::uint64_t prev63 = 0;
	u128 prev128 = {0, 0};
	std::string prev_tid = "2222222222222", prev_flake = "0000000000000",
				prev_ulid = "00000000000000000000000000", prev_euid;
	{
		char b[27];
		idt::euid_format({0, 0}, b);
		prev_euid.assign(b, 25); // order is decided by the first 25 symbols
	}
	for (int i = 0; i < random_rounds; i++)
	{
		const std::uint64_t v64 = rng();
		const std::uint64_t v63 = (i % 4 == 0) ? (rng() >> (1 + rng() % 63)) : (rng() >> 1);
		const u128 v128 = (i % 4 == 0) ? u128{rng() >> (rng() % 64), rng()} : u128{rng(), rng()};

		// uid11
		{
			const std::string t = format_exact<11>([&](char *o) { idt::uid11_format(v64, o); });
			const idt::parse64 r = idt::uid11_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v64, "uid11 " << v64);
		}
		// timeid, plain and dashed
		{
			const std::string t = format_exact<13>([&](char *o) { idt::timeid_format(v63, o); });
			const idt::parse64 r = idt::timeid_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v63, "timeid " << v63 << " " << t);
			const std::string dt =
				format_exact<16>([&](char *o) { idt::timeid_format_dashed(v63, o); });
			LOOP_REQUIRE(dt.substr(0, 4) + dt.substr(5, 3) + dt.substr(9, 4) + dt.substr(14, 2) ==
								 t &&
							 dt[4] == '-' && dt[8] == '-' && dt[13] == '-',
						 "timeid dashed " << dt);
			const idt::parse64 rd = idt::timeid_parse(dt.data(), dt.size());
			LOOP_REQUIRE(rd.error == errc::ok && rd.value == v63, "timeid dashed " << dt);
			LOOP_REQUIRE((prev63 < v63) == (prev_tid < t), "timeid order " << prev63 << " " << v63);
			prev_tid = t;
		}
		// ulidflake, and its lower-case text
		{
			const std::string t = format_exact<13>([&](char *o) { idt::ulidflake_format(v63, o); });
			const idt::parse64 r = idt::ulidflake_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v63, "ulidflake " << v63 << " " << t);
			const std::string l = lower(t);
			const idt::parse64 rl = idt::ulidflake_parse(l.data(), l.size());
			LOOP_REQUIRE(rl.error == errc::ok && rl.value == v63, "ulidflake " << l);
			LOOP_REQUIRE((prev63 < v63) == (prev_flake < t),
						 "ulidflake order " << prev63 << " " << v63);
			prev_flake = t;
		}
		prev63 = v63;
		// ulid, and its lower-case text
		{
			const std::string t = format_exact<26>([&](char *o) { idt::ulid_format(v128, o); });
			const idt::parse128 r = idt::ulid_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v128, "ulid " << t);
			const std::string l = lower(t);
			const idt::parse128 rl = idt::ulid_parse(l.data(), l.size());
			LOOP_REQUIRE(rl.error == errc::ok && rl.value == v128, "ulid " << l);
			LOOP_REQUIRE((prev128 < v128) == (prev_ulid < t), "ulid order " << t);
			prev_ulid = t;
		}
		// euid: canonical, lower case, and with every alias substituted
		{
			const std::string t = format_exact<27>([&](char *o) { idt::euid_format(v128, o); });
			const idt::parse128 r = idt::euid_parse(t.data(), t.size());
			LOOP_REQUIRE(r.error == errc::ok && r.value == v128, "euid " << t);
			const std::string l = lower(t);
			const idt::parse128 rl = idt::euid_parse(l.data(), l.size());
			LOOP_REQUIRE(rl.error == errc::ok && rl.value == v128, "euid " << l);
			std::string alias = t;
			for (std::size_t k = 0; k < alias.size(); k++)
			{
				if (alias[k] == '1')
					alias[k] = "ILil"[rng() % 4];
				else if (alias[k] == '0')
					alias[k] = "Oo"[rng() % 2];
			}
			const idt::parse128 ra = idt::euid_parse(alias.data(), alias.size());
			LOOP_REQUIRE(ra.error == errc::ok && ra.value == v128, "euid " << alias);
			// The last symbol is the check's low five bits.
			LOOP_REQUIRE(t[26] == crockford_alphabet[idt::euid_check(v128) & 31],
						 "euid check " << t);
			LOOP_REQUIRE(idt::euid_check(v128) == static_cast<unsigned>(wide(v128) % 127),
						 "euid " << t);
			const std::string head = t.substr(0, 25);
			LOOP_REQUIRE((prev128 < v128) == (prev_euid < head) || (prev_euid == head),
						 "euid order " << t);
			prev_euid = head;
		}
		prev128 = v128;
	}
	SUCCEED("random format round trips done");
}
