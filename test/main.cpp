// main.cpp: Catch2's main, alone in its translation unit (with Catch2 v2's single header it takes
// ~17 s to compile). Catch2 v3 (Debian 13, Ubuntu 24.04 and newer) is a compiled library with
// its own headers; v2 (Debian 12) is one header.
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_session.hpp>

int
main(int argc, char *argv[])
{
	return Catch::Session().run(argc, argv);
}
#else
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
