// Catch2 tests of what error reports say about a text: UTF-8 characters (against a slow encoder,
// every code point and every 2- and 3-byte sequence), quotable characters, UUID-shaped text.
#include <algorithm>
#include <cstdint>
#include <string>

#include "idtypes/text.hpp"

#include "test_support.hpp"

namespace
{

// Slow reference: the UTF-8 bytes of a Unicode scalar value.
std::string
encode(char32_t cp)
{
	std::string s;
	if (cp < 0x80)
		s += static_cast<char>(cp);
	else if (cp < 0x800)
	{
		s += static_cast<char>(0xC0 | (cp >> 6));
		s += static_cast<char>(0x80 | (cp & 0x3F));
	}
	else if (cp < 0x10000)
	{
		s += static_cast<char>(0xE0 | (cp >> 12));
		s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
		s += static_cast<char>(0x80 | (cp & 0x3F));
	}
	else
	{
		s += static_cast<char>(0xF0 | (cp >> 18));
		s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
		s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
		s += static_cast<char>(0x80 | (cp & 0x3F));
	}
	return s;
}

bool
is_scalar(char32_t cp)
{
	return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

// Decode a heap copy of exactly these bytes, so that a read past them is an ASan error.
idt::utf8_char
decode_exact(const std::string &bytes, std::size_t offset = 0)
{
	const std::vector<char> copy(bytes.begin(), bytes.end());
	return idt::utf8_decode(copy.data(), copy.size(), offset);
}

} // namespace

// Every scalar value; with IDTYPES_UNIT_SMALL=1 (under qemu-user, where the 4-byte ones took 18 of the
// unit tests' 30 s) those below U+10000 and every 61st 4-byte one, and the last: 61 is prime to 64,
// so each of a 4-byte sequence's bytes still takes every value it can.
static char32_t
next_code_point(char32_t cp, char32_t step4)
{
	if (cp < 0x10000 || cp == 0x10FFFF)
		return cp + 1;
	return std::min<char32_t>(cp + step4, 0x10FFFF);
}

TEST_CASE("utf8_decode: every scalar value round-trips", "[text]")
{
	const char32_t step4 = small_run() ? 61 : 1;
	for (char32_t cp = 0; cp <= 0x10FFFF; cp = next_code_point(cp, step4))
	{
		if (!is_scalar(cp) || cp == 0)
			continue;
		const std::string s = encode(cp);
		const idt::utf8_char c = decode_exact(s);
		LOOP_REQUIRE(c.length == s.size() && c.code_point == cp, static_cast<unsigned>(cp));
		// cut off by the end of the text: malformed, and no read past it
		for (std::size_t k = 1; k < s.size(); k++)
			LOOP_REQUIRE(decode_exact(s.substr(0, k)).length == 0, static_cast<unsigned>(cp));
	}
}

TEST_CASE("utf8_decode: a 2- or 3-byte sequence is accepted only as a scalar's encoding", "[text]")
{
	for (unsigned a = 0x80; a <= 0xFF; a++)
		for (unsigned b = 0; b <= 0xFF; b++)
		{
			const std::string two = {static_cast<char>(a), static_cast<char>(b)};
			const idt::utf8_char c = decode_exact(two);
			const bool ok = c.length == 2 && is_scalar(c.code_point) && encode(c.code_point) == two;
			LOOP_REQUIRE(c.length == 0 || ok, a * 256 + b);
			for (unsigned d = 0; d <= 0xFF; d += (a >= 0xE0 && a <= 0xEF) ? 1 : 0x7F)
			{
				const std::string three = {static_cast<char>(a), static_cast<char>(b),
										   static_cast<char>(d)};
				const idt::utf8_char t = decode_exact(three);
				const bool ok3 =
					(t.length == 2 && ok) ||
					(t.length == 3 && is_scalar(t.code_point) && encode(t.code_point) == three);
				LOOP_REQUIRE(t.length == 0 || ok3, (a << 16) + (b << 8) + d);
			}
		}
}

TEST_CASE("utf8_decode: malformed sequences", "[text]")
{
	const char *bad[] = {
		"\x80",             // a lone continuation byte
		"\xBF",             //
		"\xC0\xAF",         // overlong '/'
		"\xC1\xBF",         // overlong
		"\xE0\x80\xAF",     // overlong
		"\xE0\x9F\xBF",     // overlong (U+07FF in three bytes)
		"\xED\xA0\x80",     // U+D800, a surrogate
		"\xED\xBF\xBF",     // U+DFFF
		"\xF0\x8F\xBF\xBF", // overlong (U+FFFF in four bytes)
		"\xF4\x90\x80\x80", // U+110000
		"\xF5\x80\x80\x80", // past the last lead byte
		"\xFE",             //
		"\xFF",             //
		"\xC3",             // cut off
		"\xC3(",            // not a continuation
		"\xE2\x82(",        //
		"\xF0\x9F\x98",     // cut off emoji
	};
	for (const char *b : bad)
	{
		CAPTURE(std::string(b));
		CHECK(decode_exact(b).length == 0);
	}
	CHECK(decode_exact("\xF4\x8F\xBF\xBF").code_point == 0x10FFFF);
	CHECK(decode_exact("a\xC3\xA9", 1).code_point == 0xE9);
	CHECK(decode_exact("a\xC3\xA9", 1).length == 2);
}

TEST_CASE("utf8_count: characters before an offset", "[text]")
{
	const std::string s = "a\xC3\xA9"
						  "b\xF0\x9F\x98\x80"
						  "c\xFF"
						  "d\xC3"
						  "e";
	// a é b 😀 c <FF> d <C3> e: the malformed bytes count one each
	const std::size_t offsets[] = {0, 1, 3, 4, 8, 9, 10, 11, 12, 13};
	for (std::size_t i = 0; i < std::size(offsets); i++)
	{
		CAPTURE(offsets[i]);
		CHECK(idt::utf8_count(s.data(), offsets[i]) == i);
	}
	// a sequence cut by the offset is counted by its bytes, never read past the offset
	CHECK(idt::utf8_count(s.data(), 2) == 2);
	CHECK(idt::utf8_count(s.data(), 6) == 5);
}

TEST_CASE("quotable: visible characters only", "[text]")
{
	for (char32_t cp : {U'!', U'~', U'"', U'\\', U'\u00E9', U'\u20AC', U'\uFF10', U'\u0410',
						U'\U0001F600', U'\uFFFD'})
	{
		CAPTURE(static_cast<unsigned>(cp));
		CHECK(idt::quotable(cp));
	}
	for (char32_t cp :
		 {U'\0', U'\t', U'\n', U' ', U'\x7F', U'\u0085', U'\u00A0', U'\u00AD', U'\u0301', U'\u200B',
		  U'\u200F', U'\u2028', U'\u202E', U'\u2066', U'\uFEFF', U'\uE000', U'\U000E0041'})
	{
		CAPTURE(static_cast<unsigned>(cp));
		CHECK_FALSE(idt::quotable(cp));
	}
}

TEST_CASE("uuid_shaped: 32 hex digits or the hyphenated 36", "[text]")
{
	for (const char *s :
		 {"0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6f", "0190B6F48B5C7D2A9F3E1A2B3C4D5E6F",
		  "00000000-0000-0000-0000-000000000000", "ffffffffffffffffffffffffffffffff"})
	{
		CAPTURE(s);
		CHECK(idt::uuid_shaped(s, std::strlen(s)));
	}
	for (const char *s :
		 {"", "0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6", "0190b6f48b5c-7d2a-9f3e-1a2b3c4d5e6f",
		  "0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6g", "0190b6f4+8b5c-7d2a-9f3e-1a2b3c4d5e6f",
		  "{0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6f}", "0190b6f48b5c7d2a9f3e1a2b3c4d5e6",
		  "0190b6f48b5c7d2a9f3e1a2b3c4d5e6f0", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
		  "0190b6f4-8b5c-7d2a-9f3e1a2b3c4d5e6f-", "0190B6F4-8B5C-7D2A-9F3E-1A2B3C4D5E6Z"})
	{
		CAPTURE(s);
		CHECK_FALSE(idt::uuid_shaped(s, std::strlen(s)));
	}
}
