# Makefile: build the idtypes extension with PGXS, plus unit tests, the test command and the demo.

MODULE_big = idtypes
# Every glue file and every core file goes into the one shared library.
OBJS = $(patsubst %.cpp,%.o,$(wildcard src/*.cpp core/*.cpp))
PGFILEDESC = "idtypes - compact, sortable ID types"

EXTENSION = idtypes
DATA = idtypes--1.0.sql

# One name per file in sql/ and expected/, in the order they run; init first.
REGRESS = init
REGRESS_OPTS = --encoding=UTF8 --no-locale

EXTRA_CLEAN = $(OBJS:.o=.d) test/build test/build-san

PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
# Server headers as system headers: their warnings are PostgreSQL's, ours stay errors.
PG_CPPFLAGS = -Icore/include -Isrc -isystem $(includedir_server)
# No exception can cross into PostgreSQL, and the .so needs nothing from libstdc++ (see check-abi).
PG_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra $(if $(WERROR),-Werror)

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The JIT bitcode is compiled by clang, which defaults to C++14 and does not see PG_CXXFLAGS.
BITCODE_CXXFLAGS += -std=c++17

# Debian's PGXS has autodepend off: track header dependencies ourselves.
%.o: %.cpp
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) -MMD -MP -c -o $@ $<

# ---------------------------------------------------------------------------
# The .so must need nothing from the C++ runtime: PGXS links it with gcc, and libstdc++ is loaded
# into a backend only by chance (through ICU).
CXX_RUNTIME_SYMBOLS = __cxa_|__gxx_|_Unwind_|_ZSt|_Zn[wa]|_Zd[la]

.PHONY: check-abi
check-abi: all
	@if nm -D --undefined-only $(MODULE_big)$(DLSUFFIX) | grep -E '$(CXX_RUNTIME_SYMBOLS)' \
		| grep -vE ' (__cxa_finalize|__cxa_atexit)(@|$$)'; then \
		echo "check-abi: $(MODULE_big)$(DLSUFFIX) needs the C++ runtime (symbols above)" >&2; exit 1; \
	fi
	@if readelf -d $(MODULE_big)$(DLSUFFIX) | grep -E 'NEEDED.*libstdc\+\+'; then \
		echo "check-abi: $(MODULE_big)$(DLSUFFIX) links libstdc++" >&2; exit 1; \
	fi
	@echo "check-abi: $(MODULE_big)$(DLSUFFIX) needs no C++ runtime"

# ---------------------------------------------------------------------------
# Catch2 unit tests of core/. core is compiled again, with exceptions (Catch2 needs them) and
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
# Catch2's main takes ~17 s to compile: built once, uninstrumented, and shared by both builds.
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

$(UT_BIN): $(UT_MAIN) $(UT_OBJS)
	$(CXX) $(UT_CXXFLAGS) -o $@ $^

$(UT_MAIN): test/main.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -MMD -MP -c -o $@ $<

$(UT_DIR)/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(UT_CXXFLAGS) -MMD -MP -c -o $@ $<

# ---------------------------------------------------------------------------
# The one test command, and the one demo command. make's shell is dash: call bash explicitly.
.PHONY: test demo format
test:
	+@bash test/run_tests.sh

demo:
	+@bash scripts/demo.sh

CLANG_FORMAT ?= clang-format
FORMAT_SRCS = $(wildcard core/*.cpp core/include/idtypes/*.hpp src/*.cpp src/*.h src/*.hpp \
	test/*.cpp test/*.hpp)
format:
	$(if $(FORMAT_SRCS),$(CLANG_FORMAT) -i $(FORMAT_SRCS))

-include $(OBJS:.o=.d) $(wildcard test/build/*.d test/build/*/*.d test/build-san/*/*.d)
