// Fuzz target: timeid (atproto TID): 13 symbols of the sortable base-32 alphabet or the
// display form STTT-TTT-TTTT-CC, text input and output in both forms, prefix ranges (plain or
// dashed), and the micros/clock-id layout. The plain form gets fuzz_support.hpp's properties;
// the display form is checked here against the plain one.
#include "fuzz_support.hpp"

namespace
{
using fz::bit;
using fz::uwide;
using idt::errc;

struct timeid
{
	static constexpr std::size_t width = 13;
	static constexpr unsigned base = 32;
	static constexpr const char *alphabet = "234567abcdefghijklmnopqrstuvwxyz";
	static constexpr unsigned check_bits = 0;
	static constexpr unsigned no_check = 0;
	static constexpr uwide max = (std::uint64_t(1) << 63) - 1;
	static constexpr unsigned parse_errors = bit(errc::bad_length) | bit(errc::bad_symbol) |
											 bit(errc::bad_dash) | bit(errc::missing_dash) |
											 bit(errc::out_of_range);
	static constexpr unsigned prefix_errors = bit(errc::bad_length) | bit(errc::bad_symbol) |
											  bit(errc::bad_dash) | bit(errc::missing_dash);

	// Lower case only, no aliases.
	static int canon(unsigned char c)
	{
		return c != 0 && std::strchr(alphabet, c) != nullptr ? c : -1;
	}
	static char respell(char c, unsigned) { return c; }
	static unsigned check_of(uwide) { return 0; }
	static bool exact(std::size_t, unsigned) { return true; }
	static idt::parse64 parse(const char *text, std::size_t len)
	{
		return idt::timeid_parse(text, len);
	}
	static std::string format(uwide v)
	{
		return fz::write_exact<13>(
			[v](char *out) { idt::timeid_format(static_cast<std::uint64_t>(v), out); });
	}
	static idt::range64 prefix(const char *text, std::size_t len)
	{
		return idt::timeid_prefix(text, len);
	}
};

constexpr std::size_t dashed_width = 16;

bool
display_dash(std::size_t i)
{
	return i == 4 || i == 8 || i == 13;
}

// The first index whose byte is a dash where the display form has none, or no dash where it has
// one; -1 when every index present agrees.
int
first_misplaced_dash(const char *text, std::size_t len)
{
	for (std::size_t i = 0; i < len; i++)
		if (display_dash(i) != (text[i] == '-'))
			return static_cast<int>(i);
	return -1;
}

// A symbol where the display form has a dash is a missing dash; a dash elsewhere is out of place.
errc
dash_error_at(int i)
{
	return display_dash(static_cast<std::size_t>(i)) ? errc::missing_dash : errc::bad_dash;
}

std::string
strip_dashes(const char *text, std::size_t len)
{
	std::string s;
	for (std::size_t i = 0; i < len; i++)
		if (text[i] != '-')
			s += text[i];
	return s;
}

// The index in text of its k-th byte that is not a dash.
std::size_t
index_of_symbol(const char *text, std::size_t len, std::size_t k)
{
	for (std::size_t i = 0; i < len; i++)
		if (text[i] != '-' && k-- == 0)
			return i;
	fz::fail(__FILE__, __LINE__, "fewer symbols than an offset says");
}

// Symbols laid out in the display form, as far as they go: "3kxn-lh" from "3kxnlh".
std::string
dashify(const std::string &plain)
{
	std::string s;
	std::size_t j = 0;
	for (std::size_t i = 0; i < dashed_width; i++)
	{
		if (display_dash(i))
			s += '-';
		else if (j < plain.size())
			s += plain[j++];
		else
			break;
	}
	return s;
}

std::string
format_dashed(std::uint64_t v)
{
	return fz::write_exact<dashed_width>([v](char *out) { idt::timeid_format_dashed(v, out); });
}

// A 16-byte text, judged as the display form: the first index where a dash is missing or out of
// place is missing_dash or bad_dash there (a text without dashes: missing_dash at index 4); otherwise the result is the plain text's, with a bad
// symbol's offset moved to its index in the dashed text; an accepted one is canonical as given
// (the alphabet has one spelling per symbol) and its every prefix holds the value.
void
check_dashed_parse(const char *text_in, std::uint64_t sel)
{
	const fz::scope s("parse (display form)", text_in, dashed_width);
	const fz::exact_text text(text_in, dashed_width);
	const fz::parsed r = fz::widen(idt::timeid_parse(text.data(), dashed_width));
	// Rejected: a documented kind, and an offset within the text (at most its length).
	if (r.error != errc::ok)
		FZ_CHECK((timeid::parse_errors & bit(r.error)) != 0 && r.offset <= dashed_width);
	const int wrong = first_misplaced_dash(text_in, dashed_width);
	if (wrong >= 0)
	{
		FZ_CHECK(r.error == dash_error_at(wrong) && r.offset == static_cast<unsigned>(wrong));
		return;
	}
	const std::string plain = strip_dashes(text_in, dashed_width);
	FZ_CHECK(plain.size() == timeid::width);
	fz::check_parse<timeid>(plain.data(), plain.size(), sel);
	const fz::exact_text pt(plain);
	const fz::parsed p = fz::widen(idt::timeid_parse(pt.data(), pt.size()));
	if (p.error == errc::bad_symbol)
	{
		FZ_CHECK(r.error == errc::bad_symbol &&
				 r.offset == index_of_symbol(text_in, dashed_width, p.offset));
		return;
	}
	FZ_CHECK(r.error == p.error && r.offset == p.offset && r.value == p.value);
	if (r.error != errc::ok)
		return;
	const std::string out = format_dashed(static_cast<std::uint64_t>(r.value));
	FZ_CHECK(out == std::string(text_in, dashed_width));
	for (std::size_t k = 0; k <= dashed_width; k++)
	{
		const fz::scope s2("a prefix of an accepted display form", text_in, k);
		const fz::exact_text t(text_in, k);
		const fz::prefixed pr = fz::widen(idt::timeid_prefix(t.data(), k));
		FZ_CHECK(pr.error == errc::ok && !pr.empty && pr.lo <= r.value && r.value <= pr.hi);
	}
}

// A prefix holding a dash: longer than the display form is bad_length; the first missing or
// misplaced dash is missing_dash or bad_dash at its index; otherwise it is the prefix of its symbols, with a bad symbol's offset
// moved to its index in the dashed text.
void
check_dashed_prefix(const char *text_in, std::size_t len, std::uint64_t sel)
{
	const fz::scope s("prefix (display form)", text_in, len);
	const fz::exact_text text(text_in, len);
	const fz::prefixed r = fz::widen(idt::timeid_prefix(text.data(), len));
	// Rejected: a documented kind, and an offset within the text (at most its length).
	if (r.error != errc::ok)
		FZ_CHECK((timeid::prefix_errors & bit(r.error)) != 0 && r.offset <= len);
	if (len > dashed_width)
	{
		FZ_CHECK(r.error == errc::bad_length && r.offset == fz::clamp255(len));
		return;
	}
	const int wrong = first_misplaced_dash(text_in, len);
	if (wrong >= 0)
	{
		FZ_CHECK(r.error == dash_error_at(wrong) && r.offset == static_cast<unsigned>(wrong));
		return;
	}
	const std::string plain = strip_dashes(text_in, len);
	FZ_CHECK(plain.size() <= timeid::width);
	fz::check_prefix<timeid>(plain.data(), plain.size(), sel);
	const fz::exact_text pt(plain);
	const fz::prefixed q = fz::widen(idt::timeid_prefix(pt.data(), pt.size()));
	if (q.error == errc::bad_symbol)
	{
		FZ_CHECK(r.error == errc::bad_symbol &&
				 r.offset == index_of_symbol(text_in, len, q.offset));
		return;
	}
	FZ_CHECK(r.error == q.error && r.offset == q.offset && r.empty == q.empty && r.lo == q.lo &&
			 r.hi == q.hi && r.exact == q.exact);
}

void
check_text(const char *text, std::size_t len, std::uint64_t sel)
{
	if (len == dashed_width)
		check_dashed_parse(text, sel);
	else
		fz::check_parse<timeid>(text, len, sel);
	if (len > 0 && std::memchr(text, '-', len) != nullptr)
		check_dashed_prefix(text, len, sel);
	else
		fz::check_prefix<timeid>(text, len, sel);
}

// The display form of a value is its plain text with the dashes put in, and parses back.
void
check_dashed_value(std::uint64_t v)
{
	const std::string out = format_dashed(v);
	const fz::scope s("the display form of a value", out);
	FZ_CHECK(out == dashify(timeid::format(v)));
	const fz::exact_text t(out);
	const fz::parsed r = fz::widen(idt::timeid_parse(t.data(), t.size()));
	FZ_CHECK(r.error == errc::ok && r.value == v);
}

// 53 bits of microseconds over a 10-bit clock id.
void
check_fields(std::uint64_t v, std::uint64_t other)
{
	FZ_CHECK(idt::timeid_micros(v) == v / 1024 && idt::timeid_clock_id(v) == v % 1024);
	FZ_CHECK(idt::timeid_pack(idt::timeid_micros(v), idt::timeid_clock_id(v)) == v);
	const std::uint64_t us = v & idt::timeid_max_us;
	const std::uint64_t p = idt::timeid_pack(us, static_cast<unsigned>(other));
	FZ_CHECK(idt::timeid_micros(p) == us && idt::timeid_clock_id(p) == other % 1024);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	const char *raw = reinterpret_cast<const char *>(data);
	const std::uint64_t sel = fz::selector(data, size);
	check_text(raw, size, sel);
	const std::string mapped = fz::map_to_symbols<timeid>(raw, size, "-");
	check_text(mapped.data(), mapped.size(), sel);
	// Display forms and dashed prefixes with the dashes in place, which neither the raw bytes nor
	// their mapping often have from scratch: of the raw bytes (any symbol, valid or not) and of
	// the mapped ones (valid symbols).
	const std::string dashed_raw = dashify(strip_dashes(raw, size));
	check_text(dashed_raw.data(), dashed_raw.size(), sel);
	const std::string dashed = dashify(strip_dashes(mapped.data(), mapped.size()));
	check_text(dashed.data(), dashed.size(), sel);
	const std::uint64_t v = static_cast<std::uint64_t>(fz::value_from<timeid>(data, size));
	fz::check_value<timeid>(v, data, size);
	check_dashed_value(v);
	check_fields(v, sel);
	return 0;
}
