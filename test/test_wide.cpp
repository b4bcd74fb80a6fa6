// Unit tests of words128, the portable 128-bit integer (idtypes/wide.hpp) that 32-bit targets use:
// fixed identities everywhere, and every operator against the compiler's unsigned __int128 where
// it has one.
#include <cstdint>
#include <random>
#include <string>

#include "test_support.hpp"

using idt::words128;

namespace Catch
{
template <>
struct StringMaker<words128>
{
	static std::string convert(words128 v)
	{
		char buf[48];
		std::snprintf(buf, sizeof buf, "0x%016llx_%016llx",
					  static_cast<unsigned long long>(v.high()),
					  static_cast<unsigned long long>(v.low()));
		return buf;
	}
};
} // namespace Catch

namespace
{

constexpr std::uint64_t all = ~std::uint64_t{0};

words128
w(std::uint64_t hi, std::uint64_t lo)
{
	return words128::of(hi, lo);
}

} // namespace

TEST_CASE("words128: fixed identities", "[wide]")
{
	// (2^64 - 1)^2 = 2^128 - 2^65 + 1
	CHECK(words128(all) * words128(all) == w(all - 1, 1));
	// 2^128 - 1 = 3 * 0x5555...; = 5 * 0x3333...; = 17 * 0x0f0f...
	CHECK(w(all, all) / 3 == w(0x5555555555555555u, 0x5555555555555555u));
	CHECK(w(all, all) % 3 == 0);
	CHECK(w(all, all) / 17 == w(0x0f0f0f0f0f0f0f0fu, 0x0f0f0f0f0f0f0f0fu));
	// A divisor wider than 32 bits: (2^40 + 1)(2^60 - 2^20) = 2^100 - 2^20, so 2^100 + 12345 over
	// 2^40 + 1 is 2^60 - 2^20, remainder 2^20 + 12345.
	const words128 n = (words128(1) << 100) + 12345, d = (words128(1) << 40) + 1;
	CHECK(n / d == (words128(1) << 60) - (words128(1) << 20));
	CHECK(n % d == (words128(1) << 20) + 12345);
	CHECK(w(all, all) / w(all, all) == 1);
	CHECK(w(1, 0) / w(all, all) == 0);
	// 58^11 = 24,986,644,000,165,537,792 > 2^64 = 18,446,744,073,709,551,616
	words128 p = 1;
	for (int i = 0; i < 11; i++)
		p *= 58;
	CHECK(p == w(1, 6539899926455986176u));
	CHECK(p > words128(all));
	CHECK(static_cast<std::uint64_t>(p) == p.low());
	// Carries and borrows across the words; shifts at the word boundary and past it.
	CHECK(words128(all) + 1 == w(1, 0));
	CHECK(w(1, 0) - 1 == words128(all));
	CHECK(words128(0) - 1 == w(all, all));
	CHECK((words128(1) << 64) == w(1, 0));
	CHECK((words128(1) << 127) == w(0x8000000000000000u, 0));
	CHECK((w(0x8000000000000000u, 0) >> 127) == 1);
	CHECK((w(1, 0) >> 64) == 1);
	CHECK((w(0x0123456789abcdefu, 0xfedcba9876543210u) >> 4) ==
		  w(0x00123456789abcdeu, 0xffedcba987654321u));
	CHECK((w(0x0123456789abcdefu, 0xfedcba9876543210u) << 4) ==
		  w(0x123456789abcdeffu, 0xedcba98765432100u));
	// Negative integers convert as their two's complement (as to unsigned __int128).
	CHECK(words128(-1) == w(all, all));
	CHECK(words128(std::int64_t{-2}) + 2 == 0);
	CHECK(idt::to_double(w(1, 0)) == 18446744073709551616.0);
}

#if defined(__SIZEOF_INT128__)
namespace
{

using native = unsigned __int128;

native
nat(words128 v)
{
	return (static_cast<native>(v.high()) << 64) | v.low();
}

// Values of every size: each word zero, small, a 32-bit boundary, random or all ones.
words128
any(std::mt19937_64 &rng)
{
	const auto word = [&]() -> std::uint64_t {
		switch (rng() % 6)
		{
			case 0:
				return 0;
			case 1:
				return rng() % 64;
			case 2:
				return 0xffffffffu + rng() % 3 - 1;
			case 3:
				return all - rng() % 3;
			default:
				return rng();
		}
	};
	return w(word(), word());
}

} // namespace

TEST_CASE("words128: every operator equals unsigned __int128's", "[wide]")
{
	std::mt19937_64 rng(20261126);
	for (int i = 0, n = rounds(200000); i < n; i++)
	{
		const words128 a = any(rng), b = any(rng);
		const native x = nat(a), y = nat(b);
		const int s = static_cast<int>(rng() % 128);
		LOOP_REQUIRE(nat(a + b) == x + y, "a + b");
		LOOP_REQUIRE(nat(a - b) == x - y, "a - b");
		LOOP_REQUIRE(nat(a * b) == x * y, "a * b");
		if (y != 0)
		{
			LOOP_REQUIRE(nat(a / b) == x / y, "a / b");
			LOOP_REQUIRE(nat(a % b) == x % y, "a % b");
		}
		const std::uint32_t small = static_cast<std::uint32_t>(rng() % 0xffffffffu) + 1;
		LOOP_REQUIRE(nat(a / small) == x / small, "a / small");
		LOOP_REQUIRE(nat(a % small) == x % small, "a % small");
		LOOP_REQUIRE(nat(a & b) == (x & y), "a & b");
		LOOP_REQUIRE(nat(a | b) == (x | y), "a | b");
		LOOP_REQUIRE(nat(a ^ b) == (x ^ y), "a ^ b");
		LOOP_REQUIRE(nat(~a) == static_cast<native>(~x), "~a");
		LOOP_REQUIRE(nat(a << s) == x << s, "a << s");
		LOOP_REQUIRE(nat(a >> s) == x >> s, "a >> s");
		LOOP_REQUIRE((a < b) == (x < y), "a < b");
		LOOP_REQUIRE((a <= b) == (x <= y), "a <= b");
		LOOP_REQUIRE((a == b) == (x == y), "a == b");
		const std::int64_t k = static_cast<std::int64_t>(rng());
		LOOP_REQUIRE(nat(words128(k)) == static_cast<native>(k), "from int64");
		LOOP_REQUIRE(static_cast<std::uint8_t>(a) == static_cast<std::uint8_t>(x), "to uint8");
		words128 c = a;
		c += b;
		c *= a;
		c >>= s;
		LOOP_REQUIRE(nat(c) == ((x + y) * x) >> s, "compound");
	}
}
#endif
