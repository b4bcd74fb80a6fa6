// Fuzz target: uid11 (fixed-width Base58, 11 symbols) text input and output, prefix
// ranges, and the xid field layout. The properties are fuzz_support.hpp's; the reference is
// long division and multiplication in base 58, sharing no code with core/base58.cpp.
#include "fuzz_support.hpp"

namespace
{
using fz::bit;
using fz::uwide;
using idt::errc;

struct uid11
{
	static constexpr std::size_t width = 11;
	static constexpr unsigned base = 58;
	static constexpr const char *alphabet =
		"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
	static constexpr unsigned check_bits = 0;
	static constexpr unsigned no_check = 0;
	static constexpr uwide max = UINT64_MAX;
	static constexpr unsigned parse_errors =
		bit(errc::bad_length) | bit(errc::bad_symbol) | bit(errc::out_of_range);
	static constexpr unsigned prefix_errors = bit(errc::bad_length) | bit(errc::bad_symbol);

	// Case-sensitive, no aliases: a byte is a symbol only as itself.
	static int canon(unsigned char c)
	{
		return c != 0 && std::strchr(alphabet, c) != nullptr ? c : -1;
	}
	static char respell(char c, unsigned) { return c; }
	static unsigned check_of(uwide) { return 0; }
	static bool exact(std::size_t, unsigned) { return true; }
	static idt::parse64 parse(const char *text, std::size_t len)
	{
		return idt::uid11_parse(text, len);
	}
	static std::string format(uwide v)
	{
		return fz::write_exact<11>(
			[v](char *out) { idt::uid11_format(static_cast<std::uint64_t>(v), out); });
	}
	static idt::range64 prefix(const char *text, std::size_t len)
	{
		return idt::uid11_prefix(text, len);
	}
};

// The xid profile splits the 64 bits into 42 bits of ms over 22 random bits.
void
check_xid_fields(std::uint64_t v, std::uint64_t other)
{
	FZ_CHECK(idt::xid_ms(v) == v / (1ull << 22));
	FZ_CHECK(idt::xid_random(v) == v % (1ull << 22));
	FZ_CHECK(idt::xid_pack(idt::xid_ms(v), idt::xid_random(v)) == v);
	// pack keeps only 22 random bits, whatever it is given.
	const std::uint64_t ms = v & idt::xid_max_ms;
	const std::uint64_t p = idt::xid_pack(ms, other);
	FZ_CHECK(idt::xid_ms(p) == ms && idt::xid_random(p) == other % (1ull << 22));
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fz::check_input<uid11>(data, size);
	check_xid_fields(static_cast<std::uint64_t>(fz::value_from<uid11>(data, size)),
					 fz::selector(data, size));
	return 0;
}
