# mk/toolchain.mk (included by the Makefile after PGXS): the compilers' flags and ccache.

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
