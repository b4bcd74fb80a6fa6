# mk/unittest.mk (included by the Makefile): the Catch2 unit tests of core/ (`make unittest`).
# core is compiled again, with exceptions (Catch2 needs them) and
# without any PostgreSQL include path: that build is the tripwire proving core is pure C++.
UT_CXXFLAGS = -std=c++17 -Wall -Wextra -Werror -Icore/include
ifeq ($(SANITIZE),1)
UT_DIR = test/build-san
UT_CXXFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -g
else
UT_DIR = test/build
endif
UT_BIN = $(UT_DIR)/unit_tests
UT_SRCS = $(wildcard test/test_*.cpp core/*.cpp)
UT_OBJS = $(patsubst %.cpp,$(UT_DIR)/%.o,$(UT_SRCS))
# Catch2 v2's main is slow to compile: built once, uninstrumented, and shared by both builds.
UT_MAIN = test/build/main.o

.PHONY: unittest unittest-build check-core-pure
unittest: unittest-build
	./$(UT_BIN)

unittest-build: check-core-pure $(UT_BIN)

# The cheap half of the tripwire: no PostgreSQL header named anywhere in core/.
check-core-pure:
	@if grep -rnE '#[[:space:]]*include[[:space:]]*[<"]([^">]*/)?(postgres(_ext)?\.h|fmgr\.h|c\.h|postgresql/)' core/ 2>/dev/null; then \
		echo "check-core-pure: core/ must not include PostgreSQL headers" >&2; exit 1; \
	fi

$(UT_DIR)/objects.list: FORCE
	$(call write-if-changed,$(UT_OBJS))

# Catch2 v3 is a library to link (v2 is header-only): probed once, only when the tests are built.
UT_LIBS = $(shell printf '\043include <catch2/catch_test_macros.hpp>\n' | $(CXX) -E -x c++ - >/dev/null 2>&1 && echo -lCatch2)

$(UT_BIN): $(UT_MAIN) $(UT_OBJS) $(UT_DIR)/objects.list
	$(CXX) $(UT_CXXFLAGS) -o $@ $(UT_MAIN) $(UT_OBJS) $(UT_LIBS)

$(UT_MAIN): test/main.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -MMD -MP -c -o $@ $<

$(UT_DIR)/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(UT_CXXFLAGS) -MMD -MP -c -o $@ $<

