// UTF-8 characters and UUID-shaped text, for error reports.
#include "idtypes/text.hpp"

namespace idt
{
namespace
{
constexpr bool
is_continuation(unsigned char c) noexcept
{
	return (c & 0xC0) == 0x80;
}

constexpr bool
is_hex(char c) noexcept
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
} // namespace

utf8_char
utf8_decode(const char *text, std::size_t len, std::size_t offset) noexcept
{
	constexpr utf8_char malformed = {0, 0};
	const auto *s = reinterpret_cast<const unsigned char *>(text) + offset;
	const std::size_t left = len - offset;
	const unsigned char c = s[0];
	if (c < 0x80)
		return {c, 1};
	std::size_t n;
	char32_t cp;
	// The second byte's range for each lead excludes overlong forms, surrogates and > U+10FFFF.
	unsigned char lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
	{
		n = 3, cp = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		n = 4, cp = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	}
	else
		return malformed;
	if (left < n || s[1] < lo || s[1] > hi)
		return malformed;
	for (std::size_t i = 1; i < n; i++)
	{
		if (!is_continuation(s[i]))
			return malformed;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	return {cp, static_cast<std::uint8_t>(n)};
}

std::size_t
utf8_count(const char *text, std::size_t offset) noexcept
{
	std::size_t count = 0;
	for (std::size_t i = 0; i < offset; count++)
	{
		const utf8_char ch = utf8_decode(text, offset, i);
		i += ch.length != 0 ? ch.length : 1;
	}
	return count;
}

bool
quotable(char32_t cp) noexcept
{
	if (cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD)
		return false;
	if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
		(cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
		(cp >= 0xFE20 && cp <= 0xFE2F))
		return false; // combining marks
	if (cp == 0x034F || cp == 0x061C || cp == 0x115F || cp == 0x1160 || cp == 0x180E ||
		(cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
		(cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0x3164 ||
		(cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 ||
		(cp >= 0xFFF0 && cp <= 0xFFFB) || (cp >= 0xE0000 && cp <= 0xE0FFF))
		return false; // spaces, zero-width and bidirectional formats, fillers, selectors, tags
	if ((cp >= 0xE000 && cp <= 0xF8FF) || cp >= 0xF0000)
		return false; // private use: no glyph to show
	return true;
}

bool
uuid_shaped(const char *text, std::size_t len) noexcept
{
	if (len != 32 && len != 36)
		return false;
	for (std::size_t i = 0; i < len; i++)
	{
		const bool dash = len == 36 && (i == 8 || i == 13 || i == 18 || i == 23);
		if (dash ? text[i] != '-' : !is_hex(text[i]))
			return false;
	}
	return true;
}

} // namespace idt
