// Fuzz target: ulid (ULID spec): 26 Crockford symbols, either case, the first at most '7' (130
// symbol bits over 128 value bits); text input and output (written straight from the two 64-bit
// halves), prefix ranges, and the ms layout. The properties are fuzz_support.hpp's.
#include "fuzz_support.hpp"

namespace
{
using fz::bit;
using fz::uwide;
using idt::errc;

struct ulid
{
	static constexpr std::size_t width = 26;
	static constexpr unsigned base = 32;
	static constexpr const char *alphabet = fz::crockford::alphabet;
	static constexpr unsigned check_bits = 0;
	static constexpr unsigned no_check = 0;
	static constexpr uwide max = ~uwide(0);
	static constexpr unsigned parse_errors =
		bit(errc::bad_length) | bit(errc::bad_symbol) | bit(errc::out_of_range);
	static constexpr unsigned prefix_errors = bit(errc::bad_length) | bit(errc::bad_symbol);

	static int canon(unsigned char c) { return fz::crockford::canon(c, false); }
	static char respell(char c, unsigned sel) { return fz::crockford::respell(c, sel, false); }
	static unsigned check_of(uwide) { return 0; }
	static bool exact(std::size_t, unsigned) { return true; }
	static idt::parse128 parse(const char *text, std::size_t len)
	{
		return idt::ulid_parse(text, len);
	}
	static std::string format(uwide v)
	{
		return fz::write_exact<26>([v](char *out) { idt::ulid_format(fz::narrow(v), out); });
	}
	static idt::range128 prefix(const char *text, std::size_t len)
	{
		return idt::ulid_prefix(text, len);
	}
};

// 48 bits of Unix ms over 80 random bits.
void
check_fields(uwide v)
{
	const idt::u128 u = fz::narrow(v);
	FZ_CHECK(idt::ulid_ms(u) == static_cast<std::uint64_t>(v >> 80));
	FZ_CHECK(idt::ulid_pack(idt::ulid_ms(u), u.hi, u.lo) == u);
	const std::uint64_t ms = u.lo & idt::ulid_max_ms;
	const idt::u128 p = idt::ulid_pack(ms, u.hi, u.lo);
	FZ_CHECK(idt::ulid_ms(p) == ms && (p.hi & 0xFFFF) == (u.hi & 0xFFFF) && p.lo == u.lo);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fz::check_input<ulid>(data, size);
	check_fields(fz::value_from<ulid>(data, size));
	return 0;
}
