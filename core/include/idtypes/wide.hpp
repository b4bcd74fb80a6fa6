// 128-bit unsigned arithmetic for the codecs and the glue: the compiler's own integer where it has
// one (GCC and Clang define __SIZEOF_INT128__ on 64-bit targets), else words128, two 64-bit words
// (32-bit targets: i386, armhf, where no 128-bit integer exists). Building with IDT_PORTABLE_WIDE
// defined takes words128 everywhere. test/test_wide.cpp checks words128 against the native integer
// operation by operation; on a 32-bit target every codec test runs on words128.
#pragma once

#include <cstdint>
#include <type_traits>

#include "idtypes/common.hpp"

namespace idt
{

// An unsigned 128-bit integer as two 64-bit words, with the operators of a built-in unsigned
// integer type: arithmetic is modulo 2^128, a shift takes a count in [0, 127], division by zero is
// undefined (as for an integer). Integers convert to it implicitly (a negative one as its two's
// complement, as to unsigned __int128); it converts to an integer only explicitly, to its low bits.
class words128
{
public:
	constexpr words128() noexcept : hi_(0), lo_(0) {}
	template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
	constexpr words128(I v) noexcept : hi_(sign_fill(v)), lo_(static_cast<std::uint64_t>(v))
	{
	}
	static constexpr words128 of(std::uint64_t hi, std::uint64_t lo) noexcept
	{
		words128 w;
		w.hi_ = hi;
		w.lo_ = lo;
		return w;
	}
	constexpr std::uint64_t high() const noexcept { return hi_; }
	constexpr std::uint64_t low() const noexcept { return lo_; }
	template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
	explicit constexpr operator I() const noexcept
	{
		return static_cast<I>(lo_);
	}

	friend constexpr words128 operator+(words128 a, words128 b) noexcept
	{
		const std::uint64_t lo = a.lo_ + b.lo_;
		return of(a.hi_ + b.hi_ + (lo < a.lo_ ? 1 : 0), lo);
	}
	friend constexpr words128 operator-(words128 a, words128 b) noexcept
	{
		return of(a.hi_ - b.hi_ - (a.lo_ < b.lo_ ? 1 : 0), a.lo_ - b.lo_);
	}
	friend constexpr words128 operator*(words128 a, words128 b) noexcept
	{
		// The low 64 x 64 product in 32-bit halves; the cross products only reach the high word.
		const std::uint64_t a0 = a.lo_ & 0xffffffffu, a1 = a.lo_ >> 32;
		const std::uint64_t b0 = b.lo_ & 0xffffffffu, b1 = b.lo_ >> 32;
		const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
		const std::uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
		const std::uint64_t lo = (mid << 32) | (p00 & 0xffffffffu);
		const std::uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
		return of(hi + a.lo_ * b.hi_ + a.hi_ * b.lo_, lo);
	}
	friend constexpr words128 operator/(words128 a, words128 b) noexcept
	{
		words128 q, r;
		divide(a, b, &q, &r);
		return q;
	}
	friend constexpr words128 operator%(words128 a, words128 b) noexcept
	{
		words128 q, r;
		divide(a, b, &q, &r);
		return r;
	}
	friend constexpr words128 operator&(words128 a, words128 b) noexcept
	{
		return of(a.hi_ & b.hi_, a.lo_ & b.lo_);
	}
	friend constexpr words128 operator|(words128 a, words128 b) noexcept
	{
		return of(a.hi_ | b.hi_, a.lo_ | b.lo_);
	}
	friend constexpr words128 operator^(words128 a, words128 b) noexcept
	{
		return of(a.hi_ ^ b.hi_, a.lo_ ^ b.lo_);
	}
	friend constexpr words128 operator~(words128 a) noexcept { return of(~a.hi_, ~a.lo_); }
	friend constexpr words128 operator<<(words128 a, int n) noexcept
	{
		if (n == 0)
			return a;
		if (n >= 64)
			return of(a.lo_ << (n - 64), 0);
		return of((a.hi_ << n) | (a.lo_ >> (64 - n)), a.lo_ << n);
	}
	friend constexpr words128 operator>>(words128 a, int n) noexcept
	{
		if (n == 0)
			return a;
		if (n >= 64)
			return of(0, a.hi_ >> (n - 64));
		return of(a.hi_ >> n, (a.lo_ >> n) | (a.hi_ << (64 - n)));
	}
	friend constexpr bool operator==(words128 a, words128 b) noexcept
	{
		return a.hi_ == b.hi_ && a.lo_ == b.lo_;
	}
	friend constexpr bool operator!=(words128 a, words128 b) noexcept { return !(a == b); }
	friend constexpr bool operator<(words128 a, words128 b) noexcept
	{
		return a.hi_ < b.hi_ || (a.hi_ == b.hi_ && a.lo_ < b.lo_);
	}
	friend constexpr bool operator>(words128 a, words128 b) noexcept { return b < a; }
	friend constexpr bool operator<=(words128 a, words128 b) noexcept { return !(b < a); }
	friend constexpr bool operator>=(words128 a, words128 b) noexcept { return !(a < b); }

	constexpr words128 &operator+=(words128 b) noexcept { return *this = *this + b; }
	constexpr words128 &operator-=(words128 b) noexcept { return *this = *this - b; }
	constexpr words128 &operator*=(words128 b) noexcept { return *this = *this * b; }
	constexpr words128 &operator/=(words128 b) noexcept { return *this = *this / b; }
	constexpr words128 &operator%=(words128 b) noexcept { return *this = *this % b; }
	constexpr words128 &operator&=(words128 b) noexcept { return *this = *this & b; }
	constexpr words128 &operator|=(words128 b) noexcept { return *this = *this | b; }
	constexpr words128 &operator^=(words128 b) noexcept { return *this = *this ^ b; }
	constexpr words128 &operator<<=(int n) noexcept { return *this = *this << n; }
	constexpr words128 &operator>>=(int n) noexcept { return *this = *this >> n; }

private:
	template <typename I>
	static constexpr std::uint64_t sign_fill(I v) noexcept
	{
		if constexpr (std::is_signed_v<I>)
			return v < 0 ? ~std::uint64_t{0} : 0;
		else
			return 0;
	}

	// a = q * b + r, r < b. A divisor of at most 32 bits takes four 64-by-32 steps (the codecs
	// divide by small numbers); a wider one, restoring division a bit at a time.
	static constexpr void divide(words128 a, words128 b, words128 *q, words128 *r) noexcept
	{
		if (b.hi_ == 0 && b.lo_ <= 0xffffffffu)
		{
			const std::uint64_t d = b.lo_;
			std::uint64_t rem = 0, part[4] = {a.hi_ >> 32, a.hi_ & 0xffffffffu, a.lo_ >> 32,
											  a.lo_ & 0xffffffffu};
			for (std::uint64_t &p : part)
			{
				const std::uint64_t cur = (rem << 32) | p;
				p = cur / d;
				rem = cur % d;
			}
			*q = of((part[0] << 32) | part[1], (part[2] << 32) | part[3]);
			*r = of(0, rem);
			return;
		}
		words128 quot, rem;
		for (int i = 127; i >= 0; i--)
		{
			rem = (rem << 1) | ((a >> i) & 1);
			quot = quot << 1;
			if (rem >= b)
			{
				rem = rem - b;
				quot = quot | 1;
			}
		}
		*q = quot;
		*r = rem;
	}

	std::uint64_t hi_;
	std::uint64_t lo_;
};

#if defined(__SIZEOF_INT128__) && !defined(IDT_PORTABLE_WIDE)
using uwide = unsigned __int128;
#else
using uwide = words128;
#endif

// An ID's two halves as one number, and back.
constexpr uwide
widen(u128 v) noexcept
{
	return (static_cast<uwide>(v.hi) << 64) | v.lo;
}

constexpr u128
narrow(uwide w) noexcept
{
	return {static_cast<std::uint64_t>(w >> 64), static_cast<std::uint64_t>(w)};
}

// The nearest double, or one of the two nearest (words128: the high word's part and the low
// word's rounded apart). For distances, where that is close enough.
inline double
to_double(words128 w) noexcept
{
	return static_cast<double>(w.high()) * 18446744073709551616.0 + static_cast<double>(w.low());
}
#if defined(__SIZEOF_INT128__)
inline double
to_double(unsigned __int128 w) noexcept
{
	return static_cast<double>(w);
}
#endif

} // namespace idt
