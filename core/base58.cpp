// Fixed-width (11 symbol) Base58 with the Bitcoin alphabet.
#include "idtypes/codec.hpp"
#include "idtypes/wide.hpp"

namespace idt
{
namespace
{
constexpr char alphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

struct table58
{
	signed char v[256];
	constexpr table58() : v()
	{
		for (int i = 0; i < 256; i++)
			v[i] = -1;
		for (int i = 0; i < 58; i++)
			v[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
	}
};
constexpr table58 decode58{};
} // namespace

int
base58_symbol_value(char c) noexcept
{
	return decode58.v[static_cast<unsigned char>(c)];
}

int
base58_find_non_symbol(const char *text, std::size_t len) noexcept
{
	for (std::size_t i = 0; i < len; i++)
		if (decode58.v[static_cast<unsigned char>(text[i])] < 0)
			return static_cast<int>(i);
	return -1;
}

parse64
base58_decode11(const char *text, std::size_t len) noexcept
{
	if (len != uid11_len)
		return {0, errc::bad_length, static_cast<std::uint8_t>(len > 255 ? 255 : len)};
	// 58^11 < 2^65, so 128-bit accumulation cannot overflow; compare once at the end.
	uwide acc = 0;
	for (std::size_t i = 0; i < uid11_len; i++)
	{
		const int d = decode58.v[static_cast<unsigned char>(text[i])];
		if (d < 0)
			return {0, errc::bad_symbol, static_cast<std::uint8_t>(i)};
		acc = acc * 58 + static_cast<unsigned>(d);
	}
	if (acc > UINT64_MAX)
		return {0, errc::out_of_range, 0};
	return {static_cast<std::uint64_t>(acc), errc::ok, 0};
}

void
base58_encode11(std::uint64_t value, char out[11]) noexcept
{
	// Two halves keep most divisions in 32 bits: 58^5 = 656,356,768 < 2^32 and
	// value / 58^5 < 2^64 / 58^5 ~ 2.8e10, whose base-58 form needs the remaining 6 symbols.
	constexpr std::uint64_t p5 = 58ull * 58 * 58 * 58 * 58;
	std::uint64_t high = value / p5;
	std::uint32_t low = static_cast<std::uint32_t>(value % p5);
	for (int i = 10; i >= 6; i--)
	{
		out[i] = alphabet[low % 58];
		low /= 58;
	}
	for (int i = 5; i >= 0; i--)
	{
		out[i] = alphabet[high % 58];
		high /= 58;
	}
}

} // namespace idt
