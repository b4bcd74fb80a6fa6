# Makefile: build the idtypes extension with PGXS, plus unit tests, the test command and the demo.
# The rest lives in mk/ (checks, unit tests, compilers' flags, benchmarks, packaging and release)
# and fuzz/fuzz.mk; `make help` lists every target.

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
# Only what PGDLLEXPORT marks is exported (src/compat.h), as PostgreSQL 16+ builds modules.
PG_CXXFLAGS += -fvisibility=hidden -fvisibility-inlines-hidden

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

include mk/toolchain.mk

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
.PHONY: test quick demo
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
	+@PG_VERSIONS="$(PG_VERSIONS)" python3 test/run_matrix.py

demo:
	+@bash scripts/demo.sh

include mk/checks.mk mk/unittest.mk fuzz/fuzz.mk mk/bench.mk mk/packaging.mk

.PHONY: help
help:
	@echo "Build and test (Makefile):"
	@echo "  all, install        build and install the extension (PGXS; PG_CONFIG=... picks the server)"
	@echo "  test                the whole suite on PG_CONFIG's server; last line: N passed, N failed"
	@echo "  quick               unit tests and the regression suite only"
	@echo "  test-matrix         every supported server and lane (CI's .ci/run)"
	@echo "  installcheck        the regression suite and isolation specs (PGXS)"
	@echo "  prove_installcheck  the TAP tests (t/*.pl)"
	@echo "  demo                set up and run the demo"
	@echo "  unittest            the core's unit tests (Catch2; mk/unittest.mk)"
	@echo "  fuzz-build, fuzz    the core's fuzz targets (fuzz/fuzz.mk)"
	@echo "Checks of the tree (mk/checks.mk):"
	@echo "  check-abi           the .so needs no C++ runtime"
	@echo "  sql, check-sql      regenerate the generated SQL / check it, the frozen scripts, symbols, facts"
	@echo "  format, check-format  clang-format the C++ sources / check them (clang-format 14)"
	@echo "Benchmarks (mk/bench.mk): bench, bench-count, bench-load, bench-scale, bench-micro"
	@echo "Packaging and release (mk/packaging.mk): dist, clients-dist, deb, debsrc, image, release"

-include $(OBJS:.o=.d) $(wildcard test/build/*.d test/build/*/*.d test/build-san/*/*.d)
