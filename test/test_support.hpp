// What every unit-test file shares: how Catch prints the core's values, the alphabets, and
// helpers that make reads and writes past a buffer visible.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "idtypes/generate.hpp"
#include "idtypes/wide.hpp"

// REQUIRE and CHECK without a try/catch around each assertion: an exception escaping one (core
// throws none) is still reported, at its test case. Up to a quarter of a test file's compile time
// under the sanitizers (test_formats.cpp: 9.9 -> 7.8 s); the same macro in v2 and v3.
#define CATCH_CONFIG_FAST_COMPILE
// Catch2 v3 where the release has it (the same test as test/main.cpp's and the Makefile's), its
// headers of what the tests use (catch_all.hpp costs about 0.8 s more per file), else v2's single
// header.
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_message.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/catch_tostring.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif

// small_run(): IDTYPES_UNIT_SMALL=1: under qemu-user (test/run_matrix.py's emulated lanes), where
// the full counts take minutes, and under ASan+UBSan (its host lane).
inline bool
small_run()
{
	const char *small = std::getenv("IDTYPES_UNIT_SMALL");
	return small != nullptr && std::strcmp(small, "1") == 0;
}

// rounds(n): a randomized test's rounds, n, or a tenth of them in a small run.
inline int
rounds(int n)
{
	return small_run() ? n / 10 : n;
}

namespace Catch
{
template <>
struct StringMaker<idt::u128>
{
	static std::string convert(idt::u128 v)
	{
		char buf[48];
		std::snprintf(buf, sizeof buf, "0x%016llx_%016llx", static_cast<unsigned long long>(v.hi),
					  static_cast<unsigned long long>(v.lo));
		return buf;
	}
};
} // namespace Catch
CATCH_REGISTER_ENUM(idt::errc, idt::errc::ok, idt::errc::bad_length, idt::errc::bad_symbol,
					idt::errc::bad_dash, idt::errc::bad_check, idt::errc::out_of_range,
					idt::errc::missing_dash)
CATCH_REGISTER_ENUM(idt::gen_status, idt::gen_status::ok, idt::gen_status::overflow,
					idt::gen_status::time_out_of_range)

// Loop-friendly assertion: counts as a Catch assertion only when it fails (and then stops).
#define LOOP_REQUIRE(cond, context)                                                                \
	do                                                                                             \
	{                                                                                              \
		if (!(cond))                                                                               \
		{                                                                                          \
			UNSCOPED_INFO(context);                                                                \
			REQUIRE((cond));                                                                       \
		}                                                                                          \
	} while (false)

namespace idt_test
{
constexpr char base58_alphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr char sortable_alphabet[] = "234567abcdefghijklmnopqrstuvwxyz";
constexpr char crockford_alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

using idt::narrow;
using idt::uwide;

inline uwide
wide(idt::u128 v)
{
	return idt::widen(v);
}

inline std::string
lower(std::string s)
{
	for (char &c : s)
		if (c >= 'A' && c <= 'Z')
			c = static_cast<char>(c - 'A' + 'a');
	return s;
}

// Calls a parser on a heap copy of exactly len bytes, so that ASan sees any read past the end.
template <typename Parse>
auto
parse_exact(Parse parse, const std::string &s) -> decltype(parse(s.data(), s.size()))
{
	std::vector<char> buf(s.begin(), s.end());
	buf.shrink_to_fit();
	char one = '\0';
	return parse(buf.empty() ? &one : buf.data(), s.size());
}

// Runs a formatter into a buffer with a guard band; returns "" if it wrote past n bytes.
template <std::size_t N, typename Format>
std::string
format_exact(Format format)
{
	char buf[N + 8];
	std::memset(buf, '#', sizeof buf);
	format(buf);
	for (std::size_t i = N; i < sizeof buf; i++)
		if (buf[i] != '#')
			return std::string();
	return std::string(buf, N);
}
} // namespace idt_test

using namespace idt_test;
