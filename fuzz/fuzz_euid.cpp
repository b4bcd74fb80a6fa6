// Fuzz target: euid (EUID): 27 Crockford symbols with the aliases I/L -> 1 and O -> 0, the
// last 7 bits a check (value mod 127, or 127 for "none"); text input and output, prefix ranges
// (inexact past 25 symbols, where check bits begin), the check itself and the field layout. The
// properties are fuzz_support.hpp's; the reference check is a long division by 127.
#include "fuzz_support.hpp"

namespace
{
using fz::bit;
using fz::uwide;
using idt::errc;

unsigned
ref_check(uwide v)
{
	fz::big b = fz::big::of(v);
	return b.div_small(127);
}

struct euid
{
	static constexpr std::size_t width = 27;
	static constexpr unsigned base = 32;
	static constexpr const char *alphabet = fz::crockford::alphabet;
	static constexpr unsigned check_bits = 7;
	static constexpr unsigned no_check = 127;
	static constexpr uwide max = ~uwide(0);
	static constexpr unsigned parse_errors =
		bit(errc::bad_length) | bit(errc::bad_symbol) | bit(errc::bad_check);
	static constexpr unsigned prefix_errors = parse_errors;

	static int canon(unsigned char c) { return fz::crockford::canon(c, true); }
	static char respell(char c, unsigned sel) { return fz::crockford::respell(c, sel, true); }
	static unsigned check_of(uwide v) { return ref_check(v); }
	// Up to 25 symbols hold value bits only; symbol 25 mixes the last three value bits with two
	// check bits, and 27 symbols are one ID only when the check is a real one.
	static bool exact(std::size_t len, unsigned check)
	{
		return len <= 25 || (len == 27 && check != no_check);
	}
	static idt::parse128 parse(const char *text, std::size_t len)
	{
		return idt::euid_parse(text, len);
	}
	static std::string format(uwide v)
	{
		return fz::write_exact<27>([v](char *out) { idt::euid_format(fz::narrow(v), out); });
	}
	static idt::range128 prefix(const char *text, std::size_t len)
	{
		return idt::euid_prefix(text, len);
	}
};

// Bit length of an extension (0 counts as one bit).
unsigned
ref_extension_bits(int extension)
{
	unsigned n = 1;
	while ((extension >> n) != 0)
		n++;
	return n;
}

// The reference layout: 45 bits of Unix ms | 15-bit field | 4-bit extension length | 64 random
// bits; the extension sits in the field's low `length` bits, random bits above it.
void
check_fields(uwide v, std::uint64_t sel)
{
	const idt::u128 u = fz::narrow(v);
	FZ_CHECK(idt::euid_check(u) == ref_check(v));
	FZ_CHECK(idt::euid_ms(u) == static_cast<std::uint64_t>(v >> 83));
	const unsigned len = static_cast<unsigned>(u.hi & 15);
	const std::uint64_t field = (u.hi >> 4) & 0x7FFF;
	FZ_CHECK(idt::euid_extension(u) ==
			 (len == 0 ? -1 : static_cast<int>(field & ((1u << len) - 1))));

	const std::uint64_t ms = u.hi & idt::euid_max_ms;
	const int extension = static_cast<int>(sel % (idt::euid_max_extension + 2)) - 1; // -1..0x7FFF
	const std::uint64_t random15 = sel >> 16;
	const idt::u128 p = idt::euid_pack(ms, extension, random15, u.lo);
	const std::uint64_t pfield = (p.hi >> 4) & 0x7FFF;
	FZ_CHECK(idt::euid_ms(p) == ms && p.lo == u.lo && idt::euid_extension(p) == extension);
	if (extension < 0)
	{
		FZ_CHECK((p.hi & 15) == 0 && pfield == (random15 & 0x7FFF));
		return;
	}
	const unsigned n = ref_extension_bits(extension);
	FZ_CHECK(idt::euid_extension_bits(extension) == n && (p.hi & 15) == n);
	FZ_CHECK((pfield & ((1u << n) - 1)) == static_cast<std::uint64_t>(extension));
	FZ_CHECK((pfield >> n) == (random15 & ((1u << (15 - n)) - 1)));
}

// A 27-symbol text with its check symbols made right (the value's check, or "none"), keeping
// the other symbols' spelling: mapped bytes almost never carry a matching check, and this is how
// accepted texts with lower case and aliases reach every property.
void
check_with_fixed_check(const std::string &mapped, std::uint64_t sel)
{
	if (mapped.size() != euid::width)
		return;
	fz::big n = fz::ref_number<euid>(fz::canonical_symbols<euid>(mapped.data(), mapped.size()));
	n.div_small(128);
	const uwide v = n.value();
	const unsigned check = (sel & 1) != 0 ? euid::no_check : ref_check(v);
	std::string text = mapped;
	text[25] = euid::respell(euid::alphabet[((v & 7) << 2) | (check >> 5)],
							 static_cast<unsigned>(sel >> 1));
	text[26] = euid::respell(euid::alphabet[check & 31], static_cast<unsigned>(sel >> 4));
	fz::check_parse<euid>(text.data(), text.size(), sel);
	fz::check_prefix<euid>(text.data(), text.size(), sel);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fz::check_input<euid>(data, size);
	const std::string mapped = fz::map_to_symbols<euid>(reinterpret_cast<const char *>(data), size);
	check_with_fixed_check(mapped, fz::selector(data, size));
	check_fields(fz::value_from<euid>(data, size), fz::selector(data, size));
	return 0;
}
