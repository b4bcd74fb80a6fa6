// Base 32 with TID's sortable alphabet and Crockford's (strict, or with EUID's aliases).
#include "idtypes/codec.hpp"
#include "idtypes/wide.hpp"

namespace idt
{
namespace
{
constexpr char sortable_alphabet[] = "234567abcdefghijklmnopqrstuvwxyz";
constexpr char crockford_alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

struct table32
{
	std::uint8_t v[256];
	constexpr table32(b32 which) : v()
	{
		for (int i = 0; i < 256; i++)
			v[i] = 0xFF;
		if (which == b32::sortable)
		{
			for (int i = 0; i < 32; i++)
				v[static_cast<unsigned char>(sortable_alphabet[i])] = static_cast<std::uint8_t>(i);
			return;
		}
		for (int i = 0; i < 32; i++)
		{
			const char c = crockford_alphabet[i];
			v[static_cast<unsigned char>(c)] = static_cast<std::uint8_t>(i);
			if (c >= 'A' && c <= 'Z')
				v[static_cast<unsigned char>(c - 'A' + 'a')] = static_cast<std::uint8_t>(i);
		}
		if (which == b32::euid)
		{
			constexpr unsigned char I = 'I', i = 'i', L = 'L', l = 'l', O = 'O', o = 'o';
			v[I] = v[i] = v[L] = v[l] = 1;
			v[O] = v[o] = 0;
		}
	}
};
constexpr table32 tables[3] = {table32(b32::sortable), table32(b32::crockford), table32(b32::euid)};
} // namespace

int
b32_to_digits(const char *text, std::size_t n, b32 alphabet, std::uint8_t *digits) noexcept
{
	const std::uint8_t *t = tables[static_cast<int>(alphabet)].v;
	for (std::size_t i = 0; i < n; i++)
	{
		const std::uint8_t d = t[static_cast<unsigned char>(text[i])];
		if (d == 0xFF)
			return static_cast<int>(i);
		digits[i] = d;
	}
	return -1;
}

int
b32_find_non_symbol(const char *text, std::size_t len, b32 alphabet, bool dashes) noexcept
{
	const std::uint8_t *t = tables[static_cast<int>(alphabet)].v;
	for (std::size_t i = 0; i < len; i++)
		if (t[static_cast<unsigned char>(text[i])] == 0xFF && !(dashes && text[i] == '-'))
			return static_cast<int>(i);
	return -1;
}

void
b32_from_digits(const std::uint8_t *digits, std::size_t n, b32 alphabet, char *out) noexcept
{
	const char *a = alphabet == b32::sortable ? sortable_alphabet : crockford_alphabet;
	for (std::size_t i = 0; i < n; i++)
		out[i] = a[digits[i] & 31];
}

void
u64_to_digits13(std::uint64_t value, std::uint8_t digits[13]) noexcept
{
	for (int i = 12; i >= 0; i--)
	{
		digits[i] = static_cast<std::uint8_t>(value & 31);
		value >>= 5;
	}
}

bool
digits13_to_u64(const std::uint8_t digits[13], std::uint64_t *value) noexcept
{
	if (digits[0] > 15)
		return false;
	std::uint64_t v = 0;
	for (int i = 0; i < 13; i++)
		v = (v << 5) | digits[i];
	*value = v;
	return true;
}

void
u128_to_digits26(u128 value, std::uint8_t digits[26]) noexcept
{
	uwide v = widen(value);
	for (int i = 25; i >= 0; i--)
	{
		digits[i] = static_cast<std::uint8_t>(v & 31);
		v >>= 5;
	}
}

void
u128_to_symbols26(u128 value, b32 alphabet, char out[26]) noexcept
{
	const char *a = alphabet == b32::sortable ? sortable_alphabet : crockford_alphabet;
	// Digits 25..14 are the low 60 bits of lo; digit 13 is lo's top 4 bits under hi's lowest
	// bit; digits 12..0 are the 63 bits of hi above that (digit 0 holds the top 3 bits).
	std::uint64_t lo = value.lo;
	for (int i = 25; i >= 14; i--)
	{
		out[i] = a[lo & 31];
		lo >>= 5;
	}
	std::uint64_t hi = value.hi;
	out[13] = a[lo | ((hi & 1) << 4)];
	hi >>= 1;
	for (int i = 12; i >= 0; i--)
	{
		out[i] = a[hi & 31];
		hi >>= 5;
	}
}

void
u128_check_to_symbols27(u128 value, unsigned check, b32 alphabet, char out[27]) noexcept
{
	const char *a = alphabet == b32::sortable ? sortable_alphabet : crockford_alphabet;
	// 135 bits: symbol 26 is the check's low five bits; symbol 25 holds lo's low three bits over
	// the check's high two; symbols 24..13 are the next 60 bits of lo; symbol 12 is lo's top bit
	// under hi's low four; symbols 11..0 are hi's top 60 bits.
	out[26] = a[check & 31];
	std::uint64_t lo = value.lo;
	out[25] = a[((lo & 7) << 2) | ((check >> 5) & 3)];
	lo >>= 3;
	for (int i = 24; i >= 13; i--)
	{
		out[i] = a[lo & 31];
		lo >>= 5;
	}
	std::uint64_t hi = value.hi;
	out[12] = a[lo | ((hi & 15) << 1)];
	hi >>= 4;
	for (int i = 11; i >= 0; i--)
	{
		out[i] = a[hi & 31];
		hi >>= 5;
	}
}

bool
digits26_to_u128(const std::uint8_t digits[26], u128 *value) noexcept
{
	if (digits[0] > 7)
		return false;
	uwide v = 0;
	for (int i = 0; i < 26; i++)
		v = (v << 5) | digits[i];
	*value = narrow(v);
	return true;
}

void
u128_check_to_digits27(u128 value, unsigned check, std::uint8_t digits[27]) noexcept
{
	// 135 bits: the 128-bit value then the 7-bit check. The last digit is the check's low five
	// bits; the one before it holds the value's low three bits over the check's high two.
	uwide v = widen(value);
	digits[26] = static_cast<std::uint8_t>(check & 31);
	digits[25] = static_cast<std::uint8_t>(((v & 7) << 2) | ((check >> 5) & 3));
	v >>= 3;
	for (int i = 24; i >= 0; i--)
	{
		digits[i] = static_cast<std::uint8_t>(v & 31);
		v >>= 5;
	}
}

void
digits27_to_u128_check(const std::uint8_t digits[27], u128 *value, unsigned *check) noexcept
{
	uwide v = 0;
	for (int i = 0; i < 25; i++)
		v = (v << 5) | digits[i];
	v = (v << 3) | (digits[25] >> 2);
	*value = narrow(v);
	*check = ((digits[25] & 3u) << 5) | digits[26];
}

} // namespace idt
