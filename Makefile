# Makefile: build the idtypes extension with PGXS, plus unit tests, the test command and the demo.
# Benchmarks live in mk/bench.mk, packaging and release in mk/packaging.mk; `make help` lists all.

MODULE_big = idtypes
# Every glue file (src/ and its subdirectories) and every core file goes into the one shared library.
OBJS = $(patsubst %.cpp,%.o,$(wildcard src/*.cpp src/*/*.cpp core/*.cpp))
PGFILEDESC = "idtypes - compact, sortable ID types"

# idtypes_uuidv7: PostgreSQL 18's uuidv7() for 15 to 17, from the same library (src/uuidv7.cpp).
EXTENSION = idtypes idtypes_uuidv7
# 1.0 and 1.1 are released and frozen; 1.2 is the fresh install, 1.0--1.1 and 1.1--1.2 the updates.
DATA = idtypes--1.0.sql idtypes--1.1.sql idtypes--1.0--1.1.sql idtypes--1.2.sql idtypes--1.1--1.2.sql \
	idtypes_uuidv7--1.1.sql

# The PGXS convention: pg_config from PATH (Debian's picks the newest server whose headers are
# installed), or the one given: make PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config
PG_CONFIG ?= pg_config
# IDTYPES_PG_CONFIG: the pg_config to build with, over one given on make's command line (a cross
# build of the package, scripts/deb.sh: pg_buildext names the host's server's).
ifneq ($(IDTYPES_PG_CONFIG),)
override PG_CONFIG := $(IDTYPES_PG_CONFIG)
endif
# The server's major version (15, 17, 18, 19, ...), for the tests that need a newer server.
PG_MAJOR := $(shell $(PG_CONFIG) --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

# Every sql/<name>.sql with its expected/<name>.out: init first, then the rest by name.
# Each test sets up its own tables, so the order beyond init does not matter. A test of what only
# a newer server offers runs only there: BRIN minmax-multi (14+), soft errors (16+),
# COPY ... ON_ERROR (17+), skip scan and the module's name and version in its magic block (18+).
REGRESS_MIN_14 = brin_multi
REGRESS_MIN_16 = soft_errors
REGRESS_MIN_17 = copy_on_error
REGRESS_MIN_18 = skip_scan module_magic
REGRESS_TOO_NEW = $(foreach v,14 16 17 18,$(if $(shell test $(PG_MAJOR) -lt $(v) && echo x),$(REGRESS_MIN_$(v))))
# REGRESS_SKIP="<name>...": regression tests and isolation specs left out of this run.
REGRESS = init $(sort $(filter-out init $(REGRESS_TOO_NEW) $(REGRESS_SKIP),$(basename $(notdir $(wildcard sql/*.sql)))))
REGRESS_OPTS = --encoding=UTF8 --no-locale

# Isolation specs (specs/<name>.spec, expected/<name>.out), run by `make installcheck` after the
# regression tests with PostgreSQL's isolation tester: races between sessions. Where the server's
# development files have no pg_isolation_regress (not a Debian server-dev package), none run.
ISOLATION_ALL := $(sort $(filter-out $(REGRESS_SKIP),$(basename $(notdir $(wildcard specs/*.spec)))))
ISOLATION := $(if $(wildcard $(dir $(shell $(PG_CONFIG) --pgxs))../../src/test/isolation/pg_isolation_regress),$(ISOLATION_ALL))

EXTRA_CLEAN = $(OBJS:.o=.d) .objects.list .pg_config.stamp test/build test/build-san output_iso tmp_check
# Server headers as system headers: their warnings are PostgreSQL's, ours stay errors.
PG_CPPFLAGS = -Icore/include -Isrc -isystem $(includedir_server)
# No exception can cross into PostgreSQL, and the .so needs nothing from libstdc++ (see check-abi).
PG_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra $(if $(WERROR),-Werror)

# UBSAN=1: the extension built with UBSan, without recovery (a report aborts the backend, which
# fails the test run; test/run_tests.sh also looks for reports in the server log). vptr checks need
# RTTI, which the extension does without.
ifeq ($(UBSAN),1)
PG_CXXFLAGS += -fsanitize=undefined -fno-sanitize=vptr -fno-sanitize-recover=all -g
SHLIB_LINK += -fsanitize=undefined
endif

# IDTYPES_NO_BITCODE=1: no LLVM bitcode for the JIT to inline (the test lanes under qemu-user,
# where clang would double the build's minutes); the library built is the same.
ifeq ($(IDTYPES_NO_BITCODE),1)
override with_llvm = no
endif

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The server's flags name what its own compiler takes: an older one (g++ 12 cross-building for sid's
# server, scripts/sysroot.sh) rejects the newer of them, which are dropped when it does:
# -fexcess-precision=standard for C++ (g++ 13+; it matters on x87 alone) and
# -Wmissing-variable-declarations (gcc 14+; a warning, and PGXS links with CFLAGS).
NEWER_FLAGS = -fexcess-precision=standard -Wmissing-variable-declarations
rejected-by = $(foreach f,$(filter $(NEWER_FLAGS),$(2)),$(if $(shell $(1) $(f) -fsyntax-only -x $(3) /dev/null >/dev/null 2>&1 && echo ok),,$(f)))
override CFLAGS := $(filter-out $(call rejected-by,$(CC),$(CFLAGS),c),$(CFLAGS))
override CXXFLAGS := $(filter-out $(call rejected-by,$(CXX),$(CXXFLAGS),c++),$(CXXFLAGS))

# IDTYPES_CCACHE=1: every compile (the extension, its JIT bitcode, the unit tests) through ccache
# when it is installed, with ccache's own settings (CCACHE_DIR...). A compile that an earlier one
# made with the same compiler, flags and preprocessed source is taken from its cache, byte for
# byte what the compiler wrote; CI keeps one cache per compiler between runs (.ci/run, and
# scripts/chroot.sh for a chroot's).
ifeq ($(IDTYPES_CCACHE),1)
ccache_bin := $(shell command -v ccache 2>/dev/null)
ifneq ($(ccache_bin),)
override CC := $(ccache_bin) $(filter-out $(ccache_bin),$(CC))
override CXX := $(ccache_bin) $(filter-out $(ccache_bin),$(CXX))
override CLANG := $(ccache_bin) $(filter-out $(ccache_bin),$(CLANG))
endif
endif

# The JIT bitcode is compiled by clang, which defaults to C++14 and does not see PG_CXXFLAGS.
BITCODE_CXXFLAGS += -std=c++17
# IDTYPES_BITCODE_TARGET=<GNU triplet>: the bitcode of a cross build (scripts/deb.sh in
# scripts/sysroot.sh), by the host's clang for that CPU.
ifneq ($(IDTYPES_BITCODE_TARGET),)
BITCODE_CXXFLAGS += --target=$(IDTYPES_BITCODE_TARGET)
endif

# Debian's PGXS has autodepend off: track header dependencies ourselves.
%.o: %.cpp
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) -MMD -MP -c -o $@ $<

# A file holding a list of objects, rewritten only when the list changes: deleting or renaming a
# source file then relinks what was built from it, instead of keeping its stale code.
write-if-changed = @mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
.PHONY: FORCE
.objects.list: FORCE
	$(call write-if-changed,$(OBJS))
$(shlib): .objects.list

# The server the objects were built for (and whether with UBSan): building for another one
# rebuilds everything.
.pg_config.stamp: FORCE
	$(call write-if-changed,$(shell $(PG_CONFIG) --version) $(includedir_server) ubsan=$(UBSAN))
$(OBJS): .pg_config.stamp

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

# TAP tests (t/*.pl): servers of their own (PostgreSQL::Test::Cluster: crashes, restarts, clock
# steps, standbys, promotions) against the installed extension, or the stage that
# IDTYPES_EXTENSION_DESTDIR names; PGXS's prove_installcheck, which Debian's server-dev packages
# enable (with libipc-run-perl). A target of its own rather than TAP_TESTS = 1, which would put them
# into `make installcheck`, the packages' and PGXN's check. Not as root (initdb refuses).
.PHONY: prove_installcheck
prove_installcheck:
	$(prove_installcheck)

# ---------------------------------------------------------------------------
# The one test command, and the one demo command. make's shell is dash: call bash explicitly.
.PHONY: test quick demo format
test:
	+@PG_CONFIG=$(PG_CONFIG) bash test/run_tests.sh
# The inner loop, while working: the unit tests and the regression suite on one server (that of
# PG_CONFIG), none of the scripts. `make test` before a commit, `make test-matrix` (CI's
# `.ci/run`) before a push.
quick:
	+@PG_CONFIG=$(PG_CONFIG) IDTYPES_SCRIPTS= bash test/run_tests.sh

# The whole suite on every supported server, each Debian's own package on the release that ships
# it (the host's, or a chroot made by scripts/chroot.sh), then the tests that span two servers;
# one "N passed, N failed, N skipped" line adds them all up.
PG_VERSIONS ?= 15 17 18 19
.PHONY: test-matrix
test-matrix:
	+@PG_VERSIONS="$(PG_VERSIONS)" bash test/run_matrix.sh

demo:
	+@bash scripts/demo.sh

# idtypes--1.2.sql and idtypes--1.1--1.2.sql are generated by tools/gen_sql.py, the SQL edition's
# sql_edition/idtypes_sql.sql, its migration idtypes_sql.migration.sql and its pg_tle package
# idtypes_sql.pg_tle.sql by
# tools/gen_sql_edition.py: `make sql`
# regenerates them, `make check-sql` fails when the committed scripts and their generator
# disagree, or when a released (frozen) script changed: 1.0's and 1.1's (released as 1.1.0), with
# idtypes_uuidv7's; and when a C symbol the scripts name is not written out in src/
# (tools/check_symbols.sh: each is found by grep -w, not made by token pasting), or when src/traits.h
# or a client says of a type other than tools/types.json, where the types' facts are written once
# (tools/check_facts.py).
IDTYPES_1_0_SHA256 = a3a73244a556eb849731896bed76541655896fdf4020a93cf416ea8f3e671185
IDTYPES_RELEASED_SHA256 = \
	$(IDTYPES_1_0_SHA256):idtypes--1.0.sql \
	b20b3ceffbcb45a39fc10023ff27afdb7216c24c4db9c63582a0fec359f52fb1:idtypes--1.1.sql \
	ff2a4d50f0f72b43e2fd8e04e49b5e87def51c2d790280eb1c5eff9f9c9c4ccd:idtypes--1.0--1.1.sql \
	cbf66b9293bb1ff78fe9499fd3f9f6b9dadc1609a84028f7dc30168ccce000bf:idtypes_uuidv7--1.1.sql
.PHONY: sql check-sql
sql:
	python3 tools/gen_sql.py > idtypes--1.2.sql.tmp && mv idtypes--1.2.sql.tmp idtypes--1.2.sql
	python3 tools/gen_sql.py update > idtypes--1.1--1.2.sql.tmp \
		&& mv idtypes--1.1--1.2.sql.tmp idtypes--1.1--1.2.sql
	python3 tools/gen_sql_edition.py > sql_edition/idtypes_sql.sql.tmp \
		&& mv sql_edition/idtypes_sql.sql.tmp sql_edition/idtypes_sql.sql
	python3 tools/gen_sql_edition.py tle > sql_edition/idtypes_sql.pg_tle.sql.tmp \
		&& mv sql_edition/idtypes_sql.pg_tle.sql.tmp sql_edition/idtypes_sql.pg_tle.sql
	python3 tools/gen_sql_edition.py migration > sql_edition/idtypes_sql.migration.sql.tmp \
		&& mv sql_edition/idtypes_sql.migration.sql.tmp sql_edition/idtypes_sql.migration.sql

check-sql:
	@python3 tools/gen_sql.py | diff -u idtypes--1.2.sql - \
		|| { echo "check-sql: idtypes--1.2.sql is stale: run make sql" >&2; exit 1; }
	@python3 tools/gen_sql.py update | diff -u idtypes--1.1--1.2.sql - \
		|| { echo "check-sql: idtypes--1.1--1.2.sql is stale: run make sql" >&2; exit 1; }
	@python3 tools/gen_sql_edition.py | diff -u sql_edition/idtypes_sql.sql - \
		|| { echo "check-sql: sql_edition/idtypes_sql.sql is stale: run make sql" >&2; exit 1; }
	@python3 tools/gen_sql_edition.py tle | diff -u sql_edition/idtypes_sql.pg_tle.sql - \
		|| { echo "check-sql: sql_edition/idtypes_sql.pg_tle.sql is stale: run make sql" >&2; exit 1; }
	@python3 tools/gen_sql_edition.py migration | diff -u sql_edition/idtypes_sql.migration.sql - \
		|| { echo "check-sql: sql_edition/idtypes_sql.migration.sql is stale: run make sql" >&2; exit 1; }
	@for f in $(IDTYPES_RELEASED_SHA256); do \
		echo "$${f%%:*}  $${f#*:}" | sha256sum --quiet -c - >/dev/null 2>&1 || { \
			echo "check-sql: $${f#*:} is released and frozen: SQL changes go into the next version's" \
				"scripts (docs/development.md, \"The next version\")" >&2; exit 1; }; \
	done
	@bash tools/check_symbols.sh >/dev/null
	@python3 tools/check_facts.py >/dev/null

CLANG_FORMAT ?= clang-format
FORMAT_SRCS = $(wildcard core/*.cpp core/include/idtypes/*.hpp src/*.cpp src/*.h src/*.hpp src/*/*.cpp src/*/*.h \
	test/*.cpp test/*.hpp)
format:
	$(if $(FORMAT_SRCS),$(CLANG_FORMAT) -i $(FORMAT_SRCS))

include fuzz/fuzz.mk
include mk/bench.mk mk/packaging.mk

.PHONY: help
help:
	@echo "Build and test (Makefile):"
	@echo "  all, install        build and install the extension (PGXS; PG_CONFIG=... picks the server)"
	@echo "  test                the whole suite on PG_CONFIG's server; last line: N passed, N failed"
	@echo "  quick               unit tests and the regression suite only"
	@echo "  test-matrix         every supported server and lane (CI's .ci/run)"
	@echo "  installcheck        the regression suite and isolation specs (PGXS)"
	@echo "  prove_installcheck  the TAP tests (t/*.pl)"
	@echo "  unittest            the core's unit tests (Catch2)"
	@echo "  sql, check-sql      regenerate the generated SQL scripts / check them and the frozen ones"
	@echo "  fuzz-build, fuzz    the core's fuzz targets (fuzz/fuzz.mk)"
	@echo "  format              clang-format the C++ sources"
	@echo "  demo                set up and run the demo"
	@echo "Benchmarks (mk/bench.mk): bench, bench-load, bench-scale, bench-micro"
	@echo "Packaging and release (mk/packaging.mk): dist, clients-dist, deb, debsrc, image, release"

-include $(OBJS:.o=.d) $(wildcard test/build/*.d test/build/*/*.d test/build-san/*/*.d)
