// How Catch prints the core's values; every test file includes this one copy.
#pragma once

#include <cstdio>
#include <string>

#include "idtypes/generate.hpp"

#include <catch2/catch.hpp>

namespace Catch
{
template <>
struct StringMaker<idt::u128>
{
	static std::string
	convert(idt::u128 v)
	{
		char buf[48];
		std::snprintf(buf, sizeof buf, "0x%016llx_%016llx", static_cast<unsigned long long>(v.hi),
		              static_cast<unsigned long long>(v.lo));
		return buf;
	}
};
} // namespace Catch
CATCH_REGISTER_ENUM(idt::errc, idt::errc::ok, idt::errc::bad_length, idt::errc::bad_symbol,
                    idt::errc::bad_dash, idt::errc::bad_check, idt::errc::out_of_range)
CATCH_REGISTER_ENUM(idt::gen_status, idt::gen_status::ok, idt::gen_status::overflow,
                    idt::gen_status::time_out_of_range)
