// Fuzz target: the base-32 codecs of codec.hpp against a slow reference, on values and digits
// taken from the input: u64 <-> 13 digits, u128 <-> 26, u128 + 7-bit check <-> 27, the direct
// symbol writers u128_to_symbols26 and u128_check_to_symbols27, and symbols <-> digits in each
// alphabet.
//
// The reference holds a number as its bits, most significant first, and a digit is five
// consecutive bits: no shifts across words, no carries, nothing shared with core/base32.cpp.
#include <fuzzer/FuzzedDataProvider.h>

#include <vector>

#include "fuzz_support.hpp"

namespace
{
using fz::uwide;
using idt::b32;

constexpr const char *sortable_alphabet = "234567abcdefghijklmnopqrstuvwxyz";

// ---- the reference ---------------------------------------------------------------------------

struct bits
{
	bool b[135];
	std::size_t n = 0;

	// Appends the low `count` bits of w, most significant first.
	void push(std::uint64_t w, unsigned count)
	{
		for (unsigned i = count; i-- > 0;)
			b[n++] = ((w >> i) & 1) != 0;
	}
	// The `count` bits from `from` on, as a number.
	std::uint64_t take(std::size_t from, unsigned count) const
	{
		std::uint64_t w = 0;
		for (unsigned i = 0; i < count; i++)
			w = (w << 1) | (b[from + i] ? 1 : 0);
		return w;
	}
	std::vector<std::uint8_t> digits() const
	{
		std::vector<std::uint8_t> d(n / 5);
		for (std::size_t i = 0; i < d.size(); i++)
			d[i] = static_cast<std::uint8_t>(take(5 * i, 5));
		return d;
	}
	static bits of_digits(const std::vector<std::uint8_t> &d)
	{
		bits x;
		for (std::uint8_t v : d)
			x.push(v, 5);
		return x;
	}
};

const char *
alphabet_of(b32 a)
{
	// euid's text is written in Crockford's symbols; its aliases exist only on input.
	return a == b32::sortable ? sortable_alphabet : fz::crockford::alphabet;
}

std::string
ref_symbols(const std::vector<std::uint8_t> &digits, b32 a)
{
	std::string s;
	for (std::uint8_t d : digits)
		s += alphabet_of(a)[d];
	return s;
}

// The digit a byte stands for in an alphabet, or -1.
int
ref_digit(unsigned char c, b32 a)
{
	int canonical = c;
	if (a == b32::sortable)
		canonical = c != 0 && std::strchr(sortable_alphabet, c) != nullptr ? c : -1;
	else
		canonical = fz::crockford::canon(c, a == b32::euid);
	if (canonical < 0)
		return -1;
	return static_cast<int>(std::strchr(alphabet_of(a), canonical) - alphabet_of(a));
}

// ---- exact-size buffers ----------------------------------------------------------------------

// Calls a writer into a heap buffer of exactly n elements: ASan sees a write past it.
template <typename T, typename Write>
std::vector<T>
written(std::size_t n, Write write)
{
	std::unique_ptr<T[]> buf(new T[n]);
	std::memset(buf.get(), 0, n * sizeof(T));
	write(buf.get());
	return std::vector<T>(buf.get(), buf.get() + n);
}

template <typename T>
std::unique_ptr<T[]>
exact_copy(const std::vector<T> &v)
{
	std::unique_ptr<T[]> buf(new T[v.size()]);
	if (!v.empty())
		std::memcpy(buf.get(), v.data(), v.size() * sizeof(T));
	return buf;
}

std::string
as_string(const std::vector<char> &v)
{
	return std::string(v.begin(), v.end());
}

const b32 alphabets[] = {b32::sortable, b32::crockford, b32::euid};

// ---- the checks ------------------------------------------------------------------------------

void
check_u64(std::uint64_t a)
{
	bits x;
	x.push(0, 1); // 13 digits are 65 bits: the first digit carries only the top 4 bits
	x.push(a, 64);
	const std::vector<std::uint8_t> ref = x.digits();
	const auto d = written<std::uint8_t>(13, [a](std::uint8_t *o) { idt::u64_to_digits13(a, o); });
	FZ_CHECK(d == ref);
	std::uint64_t back = 0;
	const auto in = exact_copy(ref);
	FZ_CHECK(idt::digits13_to_u64(in.get(), &back) && back == a);
}

void
check_digits13(const std::vector<std::uint8_t> &d)
{
	const bits x = bits::of_digits(d);
	const auto in = exact_copy(d);
	std::uint64_t v = 0;
	const bool ok = idt::digits13_to_u64(in.get(), &v);
	FZ_CHECK(ok == !x.b[0]); // fits in 64 bits iff the 65th bit is clear
	if (ok)
		FZ_CHECK(v == x.take(1, 64));
}

void
check_u128(idt::u128 v)
{
	bits x;
	x.push(0, 2); // 26 digits are 130 bits
	x.push(v.hi, 64);
	x.push(v.lo, 64);
	const std::vector<std::uint8_t> ref = x.digits();
	const auto d = written<std::uint8_t>(26, [v](std::uint8_t *o) { idt::u128_to_digits26(v, o); });
	FZ_CHECK(d == ref);
	idt::u128 back = {0, 0};
	const auto in = exact_copy(ref);
	FZ_CHECK(idt::digits26_to_u128(in.get(), &back) && back == v);
	for (b32 a : alphabets)
	{
		const auto s = written<char>(26, [v, a](char *o) { idt::u128_to_symbols26(v, a, o); });
		FZ_CHECK(as_string(s) == ref_symbols(ref, a));
	}
}

void
check_digits26(const std::vector<std::uint8_t> &d)
{
	const bits x = bits::of_digits(d);
	const auto in = exact_copy(d);
	idt::u128 v = {0, 0};
	const bool ok = idt::digits26_to_u128(in.get(), &v);
	FZ_CHECK(ok == (!x.b[0] && !x.b[1])); // fits in 128 bits iff the top two are clear
	if (ok)
		FZ_CHECK(v.hi == x.take(2, 64) && v.lo == x.take(66, 64));
}

void
check_u128_check(idt::u128 v, unsigned check)
{
	bits x;
	x.push(v.hi, 64);
	x.push(v.lo, 64);
	x.push(check, 7);
	const std::vector<std::uint8_t> ref = x.digits();
	const auto d = written<std::uint8_t>(
		27, [v, check](std::uint8_t *o) { idt::u128_check_to_digits27(v, check, o); });
	FZ_CHECK(d == ref);
	for (b32 a : alphabets)
	{
		const auto s = written<char>(
			27, [v, check, a](char *o) { idt::u128_check_to_symbols27(v, check, a, o); });
		FZ_CHECK(as_string(s) == ref_symbols(ref, a));
	}
}

void
check_digits27(const std::vector<std::uint8_t> &d)
{
	const bits x = bits::of_digits(d);
	const auto in = exact_copy(d);
	idt::u128 v = {0, 0};
	unsigned check = 0;
	idt::digits27_to_u128_check(in.get(), &v, &check);
	FZ_CHECK(v.hi == x.take(0, 64) && v.lo == x.take(64, 64) && check == x.take(128, 7));
}

// Digits to symbols and back in every alphabet, for any count of digits.
void
check_digits_symbols(const std::vector<std::uint8_t> &d)
{
	const auto in = exact_copy(d);
	for (b32 a : alphabets)
	{
		const auto s = written<char>(
			d.size(), [&](char *o) { idt::b32_from_digits(in.get(), d.size(), a, o); });
		FZ_CHECK(as_string(s) == ref_symbols(d, a));
		const auto text = exact_copy(s);
		int bad = 0;
		const auto back = written<std::uint8_t>(d.size(), [&](std::uint8_t *o) {
			bad = idt::b32_to_digits(text.get(), s.size(), a, o);
		});
		FZ_CHECK(bad == -1 && back == d);
	}
}

// Arbitrary bytes to digits: the first byte outside the alphabet is reported, every digit before
// it is the reference's.
void
check_symbols(const std::string &text_in)
{
	const fz::scope s("b32_to_digits", text_in);
	const fz::exact_text text(text_in);
	for (b32 a : alphabets)
	{
		int bad = 0;
		const auto d = written<std::uint8_t>(text.size(), [&](std::uint8_t *o) {
			bad = idt::b32_to_digits(text.data(), text.size(), a, o);
		});
		int ref_bad = -1;
		for (std::size_t i = 0; i < text.size(); i++)
		{
			const int digit = ref_digit(static_cast<unsigned char>(text_in[i]), a);
			if (digit < 0)
			{
				ref_bad = static_cast<int>(i);
				break;
			}
			FZ_CHECK(d[i] == digit);
		}
		FZ_CHECK(bad == ref_bad);
	}
}

// n digits (5-bit values) from the input, zeros past its end.
std::vector<std::uint8_t>
digits_from(const std::string &bytes, std::size_t from, std::size_t n)
{
	std::vector<std::uint8_t> d(n, 0);
	for (std::size_t i = 0; i < n && from + i < bytes.size(); i++)
		d[i] = static_cast<std::uint8_t>(bytes[from + i] & 31);
	return d;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	FuzzedDataProvider in(data, size);
	// The numbers come from the input's end and the free bytes from its start.
	const std::uint64_t a = in.ConsumeIntegral<std::uint64_t>();
	const idt::u128 v = {in.ConsumeIntegral<std::uint64_t>(), in.ConsumeIntegral<std::uint64_t>()};
	const unsigned check = in.ConsumeIntegralInRange<unsigned>(0, 127);
	const std::string rest = in.ConsumeRemainingBytesAsString();

	check_u64(a);
	check_u128(v);
	check_u128_check(v, check);
	check_digits13(digits_from(rest, 0, 13));
	check_digits26(digits_from(rest, 0, 26));
	check_digits27(digits_from(rest, 0, 27));
	check_digits_symbols(digits_from(rest, 0, rest.size()));
	check_symbols(rest);
	return 0;
}
