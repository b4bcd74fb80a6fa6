// What every fuzz target shares: a failed check that libFuzzer records as a crash, exact-size
// buffers (so that ASan sees a read or write one byte past a text), a slow positional-number
// reference, and the properties common to the five fixed-width text types.
//
// The properties are written against a traits struct per type (see fuzz_uid11.cpp): width
// (symbols of the text form), base, alphabet (the canonical symbols, typed out in the target, not
// taken from core), check_bits (low bits of the text's number that are not value: 7 for euid,
// else 0), no_check (the check meaning "none"), max (the largest value), canon(c) (the canonical
// symbol byte c stands for, or -1), respell(c, sel) (an equivalent spelling of canonical symbol c
// that input must accept), check_of(v), exact(len, check) (whether a prefix of len symbols is
// exactly the IDs whose text starts with it), parse and prefix (the core functions), format (the
// core function, into a string), and parse_errors / prefix_errors (bit masks of the documented
// errc kinds).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "idtypes/formats.hpp"

namespace fz
{

using uwide = unsigned __int128;
using idt::errc;

// ---- failing ---------------------------------------------------------------------------------

// The text under test, printed with a failure: each fuzz input is checked as several derived
// texts (raw, mapped onto the alphabet, formatted from a value), and the report must say which.
struct context
{
	const char *what;
	const char *text;
	std::size_t len;
};
inline context &
current()
{
	static context c = {"", "", 0};
	return c;
}

// Sets the context for one scope and restores the enclosing one after it.
class scope
{
public:
	scope(const char *what, const char *text, std::size_t len) : saved_(current())
	{
		current() = {what, text, len};
	}
	scope(const char *what, const std::string &text) : scope(what, text.data(), text.size()) {}
	~scope() { current() = saved_; }
	scope(const scope &) = delete;
	scope &operator=(const scope &) = delete;

private:
	context saved_;
};

[[noreturn]] inline void
fail(const char *file, int line, const char *what)
{
	const context &c = current();
	std::fprintf(stderr, "\n%s:%d: check failed: %s\n", file, line, what);
	if (c.what[0] != '\0')
	{
		std::fprintf(stderr, "  while checking %s of \"", c.what);
		for (std::size_t i = 0; i < c.len; i++)
		{
			const unsigned char ch = static_cast<unsigned char>(c.text[i]);
			if (ch >= 0x20 && ch < 0x7F && ch != '"' && ch != '\\')
				std::fputc(ch, stderr);
			else
				std::fprintf(stderr, "\\x%02x", ch);
		}
		std::fprintf(stderr, "\" (%zu bytes)\n", c.len);
	}
	// abort() is a deadly signal to libFuzzer: it writes the input as a crash artifact.
	std::abort();
}

#define FZ_CHECK(cond)                                                                             \
	do                                                                                             \
	{                                                                                              \
		if (!(cond))                                                                               \
			::fz::fail(__FILE__, __LINE__, #cond);                                                 \
	} while (false)

constexpr unsigned
bit(errc e)
{
	return 1u << static_cast<unsigned>(e);
}

constexpr std::uint8_t
clamp255(std::size_t n)
{
	return static_cast<std::uint8_t>(n > 255 ? 255 : n);
}

// ---- exact buffers ---------------------------------------------------------------------------

// A heap copy of exactly len bytes (new char[0] for the empty text: still a valid pointer), so
// that a parser reading past the text is an ASan report, not a silent read of a string's slack.
class exact_text
{
public:
	explicit exact_text(const std::string &s) : p_(new char[s.size()]), n_(s.size())
	{
		if (n_ > 0)
			std::memcpy(p_.get(), s.data(), n_);
	}
	exact_text(const char *s, std::size_t n) : exact_text(std::string(s, n)) {}
	const char *data() const { return p_.get(); }
	std::size_t size() const { return n_; }

private:
	std::unique_ptr<char[]> p_;
	std::size_t n_;
};

// Runs a formatter into a heap buffer of exactly N bytes: a write past it is an ASan report.
template <std::size_t N, typename Format>
std::string
write_exact(Format format)
{
	std::unique_ptr<char[]> buf(new char[N]);
	std::memset(buf.get(), 0, N);
	format(buf.get());
	return std::string(buf.get(), N);
}

// ---- widened results -------------------------------------------------------------------------

struct parsed
{
	uwide value;
	errc error;
	unsigned offset;
};

struct prefixed
{
	uwide lo, hi;
	bool empty;
	errc error;
	unsigned offset;
	bool exact;
};

inline uwide
wide(idt::u128 v)
{
	return (static_cast<uwide>(v.hi) << 64) | v.lo;
}

inline idt::u128
narrow(uwide v)
{
	return {static_cast<std::uint64_t>(v >> 64), static_cast<std::uint64_t>(v)};
}

inline parsed
widen(idt::parse64 r)
{
	return {r.value, r.error, r.offset};
}
inline parsed
widen(idt::parse128 r)
{
	return {wide(r.value), r.error, r.offset};
}
inline prefixed
widen(idt::range64 r)
{
	return {r.lo, r.hi, r.empty, r.error, r.offset, r.exact};
}
inline prefixed
widen(idt::range128 r)
{
	return {wide(r.lo), wide(r.hi), r.empty, r.error, r.offset, r.exact};
}

// ---- slow reference: a positional number in 32-bit limbs -------------------------------------

// Schoolbook arithmetic on 192 bits (room for the 135 of an EUID text), one small multiplier or
// divisor at a time: slow, short, and sharing nothing with the codecs under test.
struct big
{
	std::uint32_t limb[6] = {}; // little-endian

	// *this = *this * m + a
	void mul_add(unsigned m, unsigned a)
	{
		std::uint64_t carry = a;
		for (std::uint32_t &l : limb)
		{
			const std::uint64_t t = static_cast<std::uint64_t>(l) * m + carry;
			l = static_cast<std::uint32_t>(t);
			carry = t >> 32;
		}
		FZ_CHECK(carry == 0); // no text here is longer than 135 bits
	}
	// *this /= d; returns the remainder.
	unsigned div_small(unsigned d)
	{
		std::uint64_t rem = 0;
		for (int i = 5; i >= 0; i--)
		{
			const std::uint64_t cur = (rem << 32) | limb[i];
			limb[i] = static_cast<std::uint32_t>(cur / d);
			rem = cur % d;
		}
		return static_cast<unsigned>(rem);
	}
	bool fits128() const { return limb[4] == 0 && limb[5] == 0; }
	bool is_zero() const
	{
		for (std::uint32_t l : limb)
			if (l != 0)
				return false;
		return true;
	}
	uwide value() const
	{
		uwide v = 0;
		for (int i = 3; i >= 0; i--)
			v = (v << 32) | limb[i];
		return v;
	}
	static big of(uwide v)
	{
		big b;
		for (int i = 0; i < 4; i++)
		{
			b.limb[i] = static_cast<std::uint32_t>(v);
			v >>= 32;
		}
		return b;
	}
};

// ---- Crockford's base 32, as ulidflake and ulid (strict) and euid (with aliases) read it ------

namespace crockford
{
constexpr const char *alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Either case; with euid's aliases I i L l -> 1 and O o -> 0; U and u never.
inline int
canon(unsigned char c, bool aliases)
{
	if (aliases && (c == 'I' || c == 'i' || c == 'L' || c == 'l'))
		return '1';
	if (aliases && (c == 'O' || c == 'o'))
		return '0';
	if (c >= 'a' && c <= 'z')
		c = static_cast<unsigned char>(c - 'a' + 'A');
	return c != 0 && std::strchr(alphabet, c) != nullptr ? c : -1;
}

inline char
respell(char c, unsigned sel, bool aliases)
{
	if (aliases && c == '1')
		return "1IiLl"[sel % 5];
	if (aliases && c == '0')
		return "0Oo"[sel % 3];
	if (c >= 'A' && c <= 'Z' && (sel & 1) != 0)
		return static_cast<char>(c - 'A' + 'a');
	return c;
}
} // namespace crockford

// ---- reference behaviour of a text type ------------------------------------------------------

// The index of the first byte the type rejects as a symbol, or -1.
template <typename T>
int
first_bad_symbol(const char *text, std::size_t n)
{
	for (std::size_t i = 0; i < n; i++)
		if (T::canon(static_cast<unsigned char>(text[i])) < 0)
			return static_cast<int>(i);
	return -1;
}

// Each symbol in its canonical spelling (every symbol must be valid).
template <typename T>
std::string
canonical_symbols(const char *text, std::size_t n)
{
	std::string s(n, '?');
	for (std::size_t i = 0; i < n; i++)
		s[i] = static_cast<char>(T::canon(static_cast<unsigned char>(text[i])));
	return s;
}

template <typename T>
unsigned
digit_of(char canonical)
{
	const char *p = std::strchr(T::alphabet, canonical);
	FZ_CHECK(canonical != '\0' && p != nullptr);
	return static_cast<unsigned>(p - T::alphabet);
}

// The number a string of canonical symbols spells (value and check bits together).
template <typename T>
big
ref_number(const std::string &canonical)
{
	big b;
	for (char c : canonical)
		b.mul_add(T::base, digit_of<T>(c));
	return b;
}

// The canonical text of v: its digits (and check, if any) by repeated division.
template <typename T>
std::string
ref_format(uwide v)
{
	big b = big::of(v);
	if (T::check_bits != 0)
		b.mul_add(1u << T::check_bits, T::check_of(v));
	std::string s(T::width, '?');
	for (std::size_t i = T::width; i-- > 0;)
		s[i] = T::alphabet[b.div_small(T::base)];
	FZ_CHECK(b.is_zero()); // every value up to max has a text of width symbols
	return s;
}

// A text of valid symbols built from arbitrary bytes: a byte the type accepts (or one of
// `keep`, like timeid's display dash) stays, so that mutations of valid seeds stay close to
// them; any other byte becomes a symbol in some accepted spelling. Raw bytes rarely form a
// well-formed ID; mapped ones always reach the value, range and check logic.
template <typename T>
std::string
map_to_symbols(const char *text, std::size_t n, const char *keep = "")
{
	std::string s(text, n);
	for (char &c : s)
	{
		const unsigned char u = static_cast<unsigned char>(c);
		if (T::canon(u) >= 0 || (u != 0 && std::strchr(keep, u) != nullptr))
			continue;
		c = T::respell(T::alphabet[u % T::base], u / T::base);
	}
	return s;
}

// v's canonical text starts with the first n symbols of canonical.
template <typename T>
bool
text_starts_with(uwide v, const std::string &canonical, std::size_t n)
{
	return T::format(v).compare(0, n, canonical, 0, n) == 0;
}

// ---- the properties --------------------------------------------------------------------------

// A prefix of the type's plain text form (no display dashes).
//  - error: documented kind; bad_length iff longer than the text form, offset = length;
//    bad_symbol at the first rejected byte; bad_check (euid) iff 27 symbols whose check is
//    neither "none" nor the value's, offset 26.
//  - valid: [lo, hi] = [prefix padded with the lowest symbol, padded with the highest] (the
//    check bits dropped), hi clamped to max, empty iff lo > max; exact as the type defines it.
//  - the canonical texts of lo, hi and a value between them start with the prefix's canonical
//    symbols (a clamped hi too: the values sharing a prefix are contiguous, and max lies among
//    them); when exact, those of lo - 1 and hi + 1 do not: the range is tight.
template <typename T>
void
check_prefix(const char *text_in, std::size_t len, std::uint64_t sel)
{
	const scope s("prefix", text_in, len);
	const exact_text text(text_in, len);
	const prefixed r = widen(T::prefix(text.data(), len));
	// Rejected: a documented kind, and an offset within the text (at most its length).
	if (r.error != errc::ok)
		FZ_CHECK((T::prefix_errors & bit(r.error)) != 0 && r.offset <= clamp255(len));
	if (len > T::width)
	{
		FZ_CHECK(r.error == errc::bad_length && r.offset == clamp255(len));
		return;
	}
	const int bad = first_bad_symbol<T>(text_in, len);
	if (bad >= 0)
	{
		FZ_CHECK(r.error == errc::bad_symbol && r.offset == static_cast<unsigned>(bad));
		return;
	}
	const std::string canon = canonical_symbols<T>(text_in, len);
	big lo_n = ref_number<T>(canon + std::string(T::width - len, T::alphabet[0]));
	big hi_n = ref_number<T>(canon + std::string(T::width - len, T::alphabet[T::base - 1]));
	unsigned check = 0;
	if (T::check_bits != 0)
	{
		check = lo_n.div_small(1u << T::check_bits);
		hi_n.div_small(1u << T::check_bits);
	}
	if (T::check_bits != 0 && len == T::width && check != T::no_check &&
		check != T::check_of(lo_n.value()))
	{
		FZ_CHECK(r.error == errc::bad_check && r.offset == T::width - 1);
		return;
	}
	FZ_CHECK(r.error == errc::ok);
	if (!lo_n.fits128() || lo_n.value() > T::max)
	{
		FZ_CHECK(r.empty);
		return;
	}
	const uwide lo = lo_n.value();
	const uwide hi = !hi_n.fits128() || hi_n.value() > T::max ? T::max : hi_n.value();
	FZ_CHECK(!r.empty && r.lo == lo && r.hi == hi && r.lo <= r.hi);
	FZ_CHECK(r.exact == T::exact(len, check));

	// Symbols whose every bit is value bits: an inexact (euid) prefix fixes only those.
	const std::size_t fixed = r.exact ? len : std::min(len, T::width - (T::check_bits + 4) / 5);
	FZ_CHECK(text_starts_with<T>(r.lo, canon, fixed));
	FZ_CHECK(text_starts_with<T>(r.hi, canon, fixed));
	const uwide span = r.hi - r.lo + 1; // 0 when the range is the whole 128-bit space
	const uwide mid = r.lo + (span == 0 ? uwide(sel) : uwide(sel) % span);
	FZ_CHECK(text_starts_with<T>(mid, canon, fixed));
	if (r.exact && len > 0)
	{
		if (r.lo > 0)
			FZ_CHECK(!text_starts_with<T>(r.lo - 1, canon, len));
		if (r.hi < T::max)
			FZ_CHECK(!text_starts_with<T>(r.hi + 1, canon, len));
	}
}

// Properties of one value v <= max: its text is the reference text (canonical symbols, exactly
// width bytes), parses back to v in its canonical and in a respelled form, and every prefix of
// the text, from empty to whole, is a range holding v.
template <typename T>
void
check_value(uwide v, const unsigned char *sel, std::size_t nsel)
{
	FZ_CHECK(v <= T::max);
	const std::string text = T::format(v);
	const scope s("the text of a value", text);
	FZ_CHECK(text == ref_format<T>(v));
	const exact_text t(text);
	const parsed back = widen(T::parse(t.data(), t.size()));
	FZ_CHECK(back.error == errc::ok && back.value == v);

	std::string other = text;
	for (std::size_t i = 0; i < other.size() && nsel > 0; i++)
		other[i] = T::respell(other[i], sel[i % nsel]);
	{
		const scope s2("a respelling of the text of a value", other);
		const exact_text o(other);
		const parsed r = widen(T::parse(o.data(), o.size()));
		FZ_CHECK(r.error == errc::ok && r.value == v);
	}
	for (std::size_t k = 0; k <= T::width; k++)
	{
		const scope s3("a prefix of the text of a value", text.data(), k);
		const exact_text p(text.data(), k);
		const prefixed r = widen(T::prefix(p.data(), k));
		FZ_CHECK(r.error == errc::ok && !r.empty && r.lo <= v && v <= r.hi);
	}
}

// A text in the type's plain form (timeid handles its display form itself).
//  - error: a documented kind, and exactly the one the reference expects: bad_length (offset =
//    the length, clamped to 255), else bad_symbol at the first rejected byte, else out_of_range
//    (offset 0) iff the number exceeds max, else bad_check (offset 26) iff the check is neither
//    "none" nor the value's.
//  - accepted: the value is the reference number; format(parse(x)) is canonical (check_value:
//    it parses back to the same value, its prefixes hold it) and equals x's symbols in canonical
//    spelling (the check symbols too, unless x said "no check").
template <typename T>
void
check_parse(const char *text_in, std::size_t len, std::uint64_t sel)
{
	const scope s("parse", text_in, len);
	const exact_text text(text_in, len);
	const parsed r = widen(T::parse(text.data(), len));
	// Rejected: a documented kind, and an offset within the text (at most its length).
	if (r.error != errc::ok)
		FZ_CHECK((T::parse_errors & bit(r.error)) != 0 && r.offset <= clamp255(len));
	if (len != T::width)
	{
		FZ_CHECK(r.error == errc::bad_length && r.offset == clamp255(len));
		return;
	}
	const int bad = first_bad_symbol<T>(text_in, len);
	if (bad >= 0)
	{
		FZ_CHECK(r.error == errc::bad_symbol && r.offset == static_cast<unsigned>(bad));
		return;
	}
	const std::string canon = canonical_symbols<T>(text_in, len);
	big n = ref_number<T>(canon);
	const unsigned check = T::check_bits != 0 ? n.div_small(1u << T::check_bits) : 0;
	if (!n.fits128() || n.value() > T::max)
	{
		FZ_CHECK(r.error == errc::out_of_range && r.offset == 0);
		return;
	}
	const uwide v = n.value();
	if (T::check_bits != 0 && check != T::no_check && check != T::check_of(v))
	{
		FZ_CHECK(r.error == errc::bad_check && r.offset == T::width - 1);
		return;
	}
	FZ_CHECK(r.error == errc::ok && r.value == v);

	const std::string out = T::format(r.value);
	const std::size_t same =
		T::check_bits != 0 && check == T::no_check ? T::width - (T::check_bits + 4) / 5 : T::width;
	FZ_CHECK(out.compare(0, same, canon, 0, same) == 0);
	const unsigned char sel_bytes[8] = {
		static_cast<unsigned char>(sel),       static_cast<unsigned char>(sel >> 8),
		static_cast<unsigned char>(sel >> 16), static_cast<unsigned char>(sel >> 24),
		static_cast<unsigned char>(sel >> 32), static_cast<unsigned char>(sel >> 40),
		static_cast<unsigned char>(sel >> 48), static_cast<unsigned char>(sel >> 56)};
	check_value<T>(r.value, sel_bytes, sizeof sel_bytes);
	// Every prefix of the accepted text itself (not only of its canonical form) holds the value.
	for (std::size_t k = 0; k <= len; k++)
	{
		const scope s2("a prefix of an accepted text", text_in, k);
		const exact_text p(text_in, k);
		const prefixed pr = widen(T::prefix(p.data(), k));
		FZ_CHECK(pr.error == errc::ok && !pr.empty && pr.lo <= v && v <= pr.hi);
	}
}

// ---- reading fuzz input ----------------------------------------------------------------------

// The first up-to-16 bytes as a big-endian number, reduced into [0, max] (max + 1 is a power of
// two for every type, so this keeps the low bits); the all-0xFF seed gives max, all-zero 0.
template <typename T>
uwide
value_from(const unsigned char *data, std::size_t size)
{
	uwide v = 0;
	for (std::size_t i = 0; i < size && i < 16; i++)
		v = (v << 8) | data[i];
	return T::max == ~uwide(0) ? v : v % (T::max + 1);
}

// Eight bytes from the end, for choices (a value within a range, respellings).
inline std::uint64_t
selector(const unsigned char *data, std::size_t size)
{
	std::uint64_t s = 0;
	for (std::size_t i = 0; i < size && i < 8; i++)
		s = (s << 8) | data[size - 1 - i];
	return s;
}

// The checks every plain-form type runs on one fuzz input: the bytes as a text and as a prefix,
// the bytes mapped onto the alphabet as both, a shorter prefix of that, and the bytes as a value.
template <typename T>
void
check_input(const unsigned char *data, std::size_t size)
{
	const char *raw = reinterpret_cast<const char *>(data);
	const std::uint64_t sel = selector(data, size);
	check_parse<T>(raw, size, sel);
	check_prefix<T>(raw, size, sel);
	const std::string mapped = map_to_symbols<T>(raw, size);
	check_parse<T>(mapped.data(), mapped.size(), sel);
	check_prefix<T>(mapped.data(), mapped.size(), sel);
	check_prefix<T>(mapped.data(), std::min<std::size_t>(mapped.size(), sel % (T::width + 2)),
					sel >> 8);
	check_value<T>(value_from<T>(data, size), data, size);
}

} // namespace fz
