// Fuzz target: ulidflake (ULID-Flake): 13 Crockford symbols, either case, top bit clear; text input
// and output, prefix ranges, and the ms/field layout. The properties are fuzz_support.hpp's.
#include "fuzz_support.hpp"

namespace
{
using fz::bit;
using fz::uwide;
using idt::errc;

struct ulidflake
{
	static constexpr std::size_t width = 13;
	static constexpr unsigned base = 32;
	static constexpr const char *alphabet = fz::crockford::alphabet;
	static constexpr unsigned check_bits = 0;
	static constexpr unsigned no_check = 0;
	static constexpr uwide max = (std::uint64_t(1) << 63) - 1;
	static constexpr unsigned parse_errors =
		bit(errc::bad_length) | bit(errc::bad_symbol) | bit(errc::out_of_range);
	static constexpr unsigned prefix_errors = bit(errc::bad_length) | bit(errc::bad_symbol);

	static int canon(unsigned char c) { return fz::crockford::canon(c, false); }
	static char respell(char c, unsigned sel) { return fz::crockford::respell(c, sel, false); }
	static unsigned check_of(uwide) { return 0; }
	static bool exact(std::size_t, unsigned) { return true; }
	static idt::parse64 parse(const char *text, std::size_t len)
	{
		return idt::ulidflake_parse(text, len);
	}
	static std::string format(uwide v)
	{
		return fz::write_exact<13>(
			[v](char *out) { idt::ulidflake_format(static_cast<std::uint64_t>(v), out); });
	}
	static idt::range64 prefix(const char *text, std::size_t len)
	{
		return idt::ulidflake_prefix(text, len);
	}
};

// 43 bits of ms since 2024 over a 20-bit field whose low five bits are the scalable sid.
void
check_fields(std::uint64_t v, std::uint64_t other)
{
	FZ_CHECK(idt::ulidflake_ms(v) == v / (1u << 20) && idt::ulidflake_sid(v) == v % 32);
	FZ_CHECK(idt::ulidflake_pack(idt::ulidflake_ms(v), v % (1u << 20)) == v);
	const std::uint64_t ms = v & idt::ulidflake_max_ms;
	const std::uint64_t p = idt::ulidflake_pack(ms, other);
	FZ_CHECK(idt::ulidflake_ms(p) == ms && p % (1u << 20) == other % (1u << 20));
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fz::check_input<ulidflake>(data, size);
	check_fields(static_cast<std::uint64_t>(fz::value_from<ulidflake>(data, size)),
				 fz::selector(data, size));
	return 0;
}
