// What an error report says about a rejected text: the character at an offset, and whether the
// text is a UUID written as text.
//
// Every function here is noexcept and reads only text[0, len).
#pragma once

#include "idtypes/common.hpp"

namespace idt
{

// One UTF-8 character: its code point and byte length; length 0 when the bytes at the offset
// are no well-formed sequence (RFC 3629: no overlong form, surrogate or value past U+10FFFF,
// and a sequence cut off by the end of the text is malformed too).
struct utf8_char
{
	char32_t code_point;
	std::uint8_t length;
};

static_assert(std::is_trivially_destructible<utf8_char>::value, "POD only");

// The character starting at text[offset] (offset < len).
utf8_char utf8_decode(const char *text, std::size_t len, std::size_t offset) noexcept;

// Characters in text[0, offset): a well-formed sequence counts one, any other byte one.
std::size_t utf8_count(const char *text, std::size_t offset) noexcept;

// May a message show this character between quotes? No for space, the controls (C0, DEL, C1)
// and characters that are invisible or change how the text around them is shown (combining
// marks, zero-width and bidirectional format characters, separators, BOM, tags): those are
// named by code point only.
bool quotable(char32_t code_point) noexcept;

// 32 hex digits, or 36 characters as uuid prints them (8-4-4-4-12 hex digits), either case.
bool uuid_shaped(const char *text, std::size_t len) noexcept;

} // namespace idt
