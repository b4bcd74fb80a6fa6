// main.cpp: Catch2's main, alone in its translation unit because it takes ~17 s to compile.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
