// The five formats: strict parsing, canonical text, field layouts, prefix and time bounds.
#include <cstring>

#include "idtypes/formats.hpp"
#include "idtypes/wide.hpp"

namespace idt
{
namespace
{

constexpr std::uint8_t
clamp_offset(std::size_t i) noexcept
{
	return static_cast<std::uint8_t>(i > 255 ? 255 : i);
}

constexpr range64
prefix_error64(errc e, std::size_t offset) noexcept
{
	return {0, 0, true, e, clamp_offset(offset), true};
}

constexpr range128
prefix_error128(errc e, std::size_t offset) noexcept
{
	return {{0, 0}, {0, 0}, true, e, clamp_offset(offset), true};
}

// [lo, hi] of a prefix of n digits in a fixed-width positional space of `width` digits:
// lo pads with zeros, hi with the largest digit. Clamped to max; empty when lo > max.
range64
positional_prefix(const std::uint8_t *digits, std::size_t n, std::size_t width, unsigned base,
				  std::uint64_t max) noexcept
{
	uwide lo = 0, hi = 0;
	for (std::size_t i = 0; i < width; i++)
	{
		lo = lo * base + (i < n ? digits[i] : 0);
		hi = hi * base + (i < n ? digits[i] : base - 1);
	}
	if (lo > max)
		return {0, 0, true, errc::ok, 0, true};
	return {static_cast<std::uint64_t>(lo),
			static_cast<std::uint64_t>(hi > max ? max : hi),
			false,
			errc::ok,
			0,
			true};
}

// Shared shape of the two 13-symbol base-32 64-bit types.
parse64
parse_b32_13(const char *text, std::size_t len, b32 alphabet) noexcept
{
	if (len != 13)
		return {0, errc::bad_length, clamp_offset(len)};
	std::uint8_t d[13];
	const int bad = b32_to_digits(text, 13, alphabet, d);
	if (bad >= 0)
		return {0, errc::bad_symbol, clamp_offset(static_cast<std::size_t>(bad))};
	std::uint64_t v;
	// Both 64-bit base-32 types keep the top bit clear: first digit 0..7.
	if (d[0] > 7 || !digits13_to_u64(d, &v))
		return {0, errc::out_of_range, 0};
	return {v, errc::ok, 0};
}

range64
prefix_b32_13(const char *text, std::size_t len, b32 alphabet, std::uint64_t max) noexcept
{
	if (len > 13)
		return prefix_error64(errc::bad_length, len);
	std::uint8_t d[13];
	const int bad = b32_to_digits(text, len, alphabet, d);
	if (bad >= 0)
		return prefix_error64(errc::bad_symbol, static_cast<std::size_t>(bad));
	return positional_prefix(d, len, 13, 32, max);
}

constexpr bool
is_display_dash(std::size_t i) noexcept
{
	return i == 4 || i == 8 || i == 13;
}

struct dash_error
{
	errc error; // ok, bad_dash or missing_dash
	std::size_t offset;
};

// Strip TID display dashes: when the text has any '-', each of indexes 4, 8, 13 present must
// be a dash (else missing_dash) and no other index may be (else bad_dash), first one first.
dash_error
strip_timeid_dashes(const char *text, std::size_t len, char *out, std::size_t *outlen) noexcept
{
	if (std::memchr(text, '-', len) == nullptr)
	{
		std::memcpy(out, text, len);
		*outlen = len;
		return {errc::ok, 0};
	}
	std::size_t n = 0;
	for (std::size_t i = 0; i < len; i++)
	{
		if (is_display_dash(i) != (text[i] == '-'))
			return {is_display_dash(i) ? errc::missing_dash : errc::bad_dash, i};
		if (text[i] != '-')
			out[n++] = text[i];
	}
	*outlen = n;
	return {errc::ok, 0};
}

// Map a symbol index of the undashed text back to its index in the dashed text.
std::size_t
dashed_index(std::size_t i) noexcept
{
	return i + (i >= 4) + (i >= 7) + (i >= 11);
}

range64
time_range64(const time_window &w, std::int64_t unit_us, std::int64_t epoch_units,
			 std::uint64_t max_units, unsigned field_bits) noexcept
{
	const unit_range u = window_units(w, unit_us, epoch_units, max_units);
	if (u.empty)
		return {0, 0, true, errc::ok, 0, true};
	const std::uint64_t field = (1ull << field_bits) - 1;
	return {u.lo << field_bits, (u.hi << field_bits) | field, false, errc::ok, 0, true};
}

range128
time_range128(const time_window &w, std::uint64_t max_ms, unsigned hi_field_bits) noexcept
{
	const unit_range u = window_units(w, 1000, 0, max_ms);
	if (u.empty)
		return {{0, 0}, {0, 0}, true, errc::ok, 0, true};
	const std::uint64_t field = (1ull << hi_field_bits) - 1;
	return {{u.lo << hi_field_bits, 0},
			{(u.hi << hi_field_bits) | field, ~0ull},
			false,
			errc::ok,
			0,
			true};
}

// Quotients rounded down and up, for b > 0 (then a / b cannot overflow).
std::int64_t
floor_div(std::int64_t a, std::int64_t b) noexcept
{
	std::int64_t q = a / b;
	if (a % b != 0 && a < 0)
		q--;
	return q;
}

std::int64_t
ceil_div(std::int64_t a, std::int64_t b) noexcept
{
	std::int64_t q = a / b;
	if (a % b != 0 && a > 0)
		q++;
	return q;
}

// Signed values in 128-bit two's complement: a quotient of int64s, plus or minus one, minus an
// int64 epoch is exact there (an int64 converts to uwide sign-extended).
constexpr uwide sign_bit = static_cast<uwide>(1) << 127;

constexpr bool
signed_less(uwide a, uwide b) noexcept
{
	return (a ^ sign_bit) < (b ^ sign_bit);
}

} // namespace

unit_range
window_units(const time_window &w, std::int64_t unit_us, std::int64_t epoch_units,
			 std::uint64_t max_units) noexcept
{
	constexpr unit_range none = {0, 0, true};
	const uwide max = max_units, epoch = static_cast<uwide>(epoch_units);
	uwide lo = 0, hi = max;
	if (!w.lo_infinite)
		lo = (w.lo_inclusive ? static_cast<uwide>(ceil_div(w.lo_us, unit_us))
							 : static_cast<uwide>(floor_div(w.lo_us, unit_us)) + 1) -
			 epoch;
	if (!w.hi_infinite)
		hi = (w.hi_inclusive ? static_cast<uwide>(floor_div(w.hi_us, unit_us))
							 : static_cast<uwide>(ceil_div(w.hi_us, unit_us)) - 1) -
			 epoch;
	if (signed_less(lo, 0))
		lo = 0;
	if (signed_less(max, hi))
		hi = max;
	if (signed_less(hi, lo))
		return none;
	return {static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi), false};
}

// ---- uid11 -------------------------------------------------------------------------------------

range64
uid11_prefix(const char *text, std::size_t len) noexcept
{
	if (len > uid11_len)
		return prefix_error64(errc::bad_length, len);
	std::uint8_t d[uid11_len];
	for (std::size_t i = 0; i < len; i++)
	{
		const int v = base58_symbol_value(text[i]);
		if (v < 0)
			return prefix_error64(errc::bad_symbol, i);
		d[i] = static_cast<std::uint8_t>(v);
	}
	return positional_prefix(d, len, uid11_len, 58, UINT64_MAX);
}

range64
xid_time_range(const time_window &w) noexcept
{
	return time_range64(w, 1000, xid_epoch_ms, xid_max_ms, xid_random_bits);
}

// ---- timeid ------------------------------------------------------------------------------------

parse64
timeid_parse(const char *text, std::size_t len) noexcept
{
	if (len == 16)
	{
		char plain[16];
		std::size_t n;
		const dash_error bad = strip_timeid_dashes(text, len, plain, &n);
		if (bad.error != errc::ok)
			return {0, bad.error, clamp_offset(bad.offset)};
		if (n != 13) // 16 characters and not one dash: the first one is missing
			return {0, errc::missing_dash, 4};
		parse64 r = parse_b32_13(plain, 13, b32::sortable);
		if (r.error == errc::bad_symbol)
			r.offset = clamp_offset(dashed_index(r.offset));
		return r;
	}
	return parse_b32_13(text, len, b32::sortable);
}

void
timeid_format(std::uint64_t v, char out[13]) noexcept
{
	std::uint8_t d[13];
	u64_to_digits13(v, d);
	b32_from_digits(d, 13, b32::sortable, out);
}

void
timeid_format_dashed(std::uint64_t v, char out[16]) noexcept
{
	char plain[13];
	timeid_format(v, plain);
	std::size_t j = 0;
	for (std::size_t i = 0; i < 16; i++)
		out[i] = is_display_dash(i) ? '-' : plain[j++];
}

range64
timeid_prefix(const char *text, std::size_t len) noexcept
{
	if (len > 16)
		return prefix_error64(errc::bad_length, len);
	char plain[16];
	std::size_t n;
	const dash_error bad = strip_timeid_dashes(text, len, plain, &n);
	if (bad.error != errc::ok)
		return prefix_error64(bad.error, bad.offset);
	range64 r = prefix_b32_13(plain, n, b32::sortable, timeid_max);
	if (r.error == errc::bad_symbol && n != len)
		r.offset = clamp_offset(dashed_index(r.offset));
	return r;
}

range64
timeid_time_range(const time_window &w) noexcept
{
	return time_range64(w, 1, 0, timeid_max_us, timeid_clock_bits);
}

// ---- ulidflake ---------------------------------------------------------------------------------

parse64
ulidflake_parse(const char *text, std::size_t len) noexcept
{
	return parse_b32_13(text, len, b32::crockford);
}

void
ulidflake_format(std::uint64_t v, char out[13]) noexcept
{
	std::uint8_t d[13];
	u64_to_digits13(v, d);
	b32_from_digits(d, 13, b32::crockford, out);
}

range64
ulidflake_prefix(const char *text, std::size_t len) noexcept
{
	return prefix_b32_13(text, len, b32::crockford, ulidflake_max);
}

range64
ulidflake_time_range(const time_window &w) noexcept
{
	return time_range64(w, 1000, ulidflake_epoch_ms, ulidflake_max_ms, ulidflake_random_bits);
}

// ---- ulid --------------------------------------------------------------------------------------

parse128
ulid_parse(const char *text, std::size_t len) noexcept
{
	if (len != 26)
		return {{0, 0}, errc::bad_length, clamp_offset(len)};
	std::uint8_t d[26];
	const int bad = b32_to_digits(text, 26, b32::crockford, d);
	if (bad >= 0)
		return {{0, 0}, errc::bad_symbol, clamp_offset(static_cast<std::size_t>(bad))};
	u128 v;
	if (!digits26_to_u128(d, &v))
		return {{0, 0}, errc::out_of_range, 0};
	return {v, errc::ok, 0};
}

void
ulid_format(u128 v, char out[26]) noexcept
{
	u128_to_symbols26(v, b32::crockford, out);
}

range128
ulid_prefix(const char *text, std::size_t len) noexcept
{
	if (len > 26)
		return prefix_error128(errc::bad_length, len);
	std::uint8_t lo[26], hi[26];
	const int bad = b32_to_digits(text, len, b32::crockford, lo);
	if (bad >= 0)
		return prefix_error128(errc::bad_symbol, static_cast<std::size_t>(bad));
	std::memcpy(hi, lo, len);
	std::memset(lo + len, 0, 26 - len);
	std::memset(hi + len, 31, 26 - len);
	range128 r = {{0, 0}, {~0ull, ~0ull}, false, errc::ok, 0, true};
	if (!digits26_to_u128(lo, &r.lo))
		return {{0, 0}, {0, 0}, true, errc::ok, 0, true}; // the whole prefix lies past 2^128-1
	if (!digits26_to_u128(hi, &r.hi))
		r.hi = {~0ull, ~0ull};
	return r;
}

range128
ulid_time_range(const time_window &w) noexcept
{
	return time_range128(w, ulid_max_ms, 16);
}

// ---- uuid --------------------------------------------------------------------------------------

range128
uuid_prefix(const char *text, std::size_t len) noexcept
{
	if (len > 36)
		return prefix_error128(errc::bad_length, len);
	u128 lo = {0, 0};
	unsigned digits = 0;
	bool dash_allowed = false;
	for (std::size_t i = 0; i < len; i++)
	{
		const char c = text[i];
		if (c == '-')
		{
			if (!dash_allowed)
				return prefix_error128(errc::bad_symbol, i);
			dash_allowed = false;
			continue;
		}
		const int v = c >= '0' && c <= '9'   ? c - '0'
					  : c >= 'a' && c <= 'f' ? c - 'a' + 10
					  : c >= 'A' && c <= 'F' ? c - 'A' + 10
											 : -1;
		if (v < 0)
			return prefix_error128(errc::bad_symbol, i);
		if (digits == 32)
			return prefix_error128(errc::bad_length, len);
		std::uint64_t &half = digits < 16 ? lo.hi : lo.lo;
		half |= static_cast<std::uint64_t>(v) << (60 - 4 * (digits % 16));
		digits++;
		dash_allowed = digits == 8 || digits == 12 || digits == 16 || digits == 20;
	}
	u128 hi = lo;
	if (digits < 16)
	{
		hi.hi |= ~0ull >> (4 * digits);
		hi.lo = ~0ull;
	}
	else if (digits < 32)
		hi.lo |= ~0ull >> (4 * (digits - 16));
	return {lo, hi, false, errc::ok, 0, true};
}

// ---- euid --------------------------------------------------------------------------------------

unsigned
euid_check(u128 v) noexcept
{
	// 2^7 = 128 = 1 (mod 127), so 2^64 = 2^(7*9+1) = 2 (mod 127): hi * 2^64 + lo = 2 hi + lo.
	// Two 64-bit remainders by a constant (multiplications) instead of a 128-bit division.
	return static_cast<unsigned>((2 * (v.hi % 127) + v.lo % 127) % 127);
}

parse128
euid_parse(const char *text, std::size_t len) noexcept
{
	if (len != 27)
		return {{0, 0}, errc::bad_length, clamp_offset(len)};
	std::uint8_t d[27];
	const int bad = b32_to_digits(text, 27, b32::euid, d);
	if (bad >= 0)
		return {{0, 0}, errc::bad_symbol, clamp_offset(static_cast<std::size_t>(bad))};
	u128 v;
	unsigned check;
	digits27_to_u128_check(d, &v, &check);
	if (check != euid_no_check && check != euid_check(v))
		return {{0, 0}, errc::bad_check, 26};
	return {v, errc::ok, 0};
}

void
euid_format(u128 v, char out[27]) noexcept
{
	u128_check_to_symbols27(v, euid_check(v), b32::euid, out);
}

unsigned
euid_extension_bits(int extension) noexcept
{
	unsigned n = 1;
	while (n < 15 && (extension >> n) != 0)
		n++;
	return n;
}

u128
euid_pack(std::uint64_t unix_ms, int extension, std::uint64_t random15,
		  std::uint64_t random64) noexcept
{
	std::uint64_t field, len;
	if (extension < 0)
	{
		field = random15 & 0x7FFF;
		len = 0;
	}
	else
	{
		len = euid_extension_bits(extension);
		field = ((random15 & ((1ull << (15 - len)) - 1)) << len) |
				(static_cast<std::uint64_t>(extension) & 0x7FFF);
	}
	return {(unix_ms << 19) | (field << 4) | len, random64};
}

int
euid_extension(u128 v) noexcept
{
	const unsigned len = static_cast<unsigned>(v.hi & 15);
	if (len == 0)
		return -1;
	return static_cast<int>((v.hi >> 4) & ((1ull << len) - 1));
}

range128
euid_prefix(const char *text, std::size_t len) noexcept
{
	if (len > 27)
		return prefix_error128(errc::bad_length, len);
	std::uint8_t lo[27], hi[27];
	const int bad = b32_to_digits(text, len, b32::euid, lo);
	if (bad >= 0)
		return prefix_error128(errc::bad_symbol, static_cast<std::size_t>(bad));
	std::memcpy(hi, lo, len);
	std::memset(lo + len, 0, 27 - len);
	std::memset(hi + len, 31, 27 - len);
	range128 r = {{0, 0}, {0, 0}, false, errc::ok, 0, true};
	unsigned check_lo, check_hi;
	digits27_to_u128_check(lo, &r.lo, &check_lo);
	digits27_to_u128_check(hi, &r.hi, &check_hi);
	if (len == 27 && check_lo != euid_no_check && check_lo != euid_check(r.lo))
		return prefix_error128(errc::bad_check, 26);
	// The last two symbols carry check bits, which are no contiguous range of values: past 25
	// symbols the bounds are a superset of the IDs whose canonical text starts with the prefix.
	r.exact = len <= 25 || (len == 27 && check_lo != euid_no_check);
	return r;
}

range128
euid_time_range(const time_window &w) noexcept
{
	return time_range128(w, euid_max_ms, 19);
}

} // namespace idt
