# fuzz.mk: libFuzzer targets of core/, included by the Makefile.
#
#   make fuzz-build                  every fuzz/fuzz_*.cpp into $(FUZZ_BUILD)/<target>
#   make fuzz [FUZZ_SECONDS=60]      each target for FUZZ_SECONDS on a scratch copy of its seed
#                                    corpus fuzz/corpus/<target>/, FUZZ_JOBS (2) at a time, then a
#                                    summary ending in "N passed, N failed" (fuzz/run.sh)
#   make fuzz FUZZ_TARGETS=fuzz_ulid one target only
#
# FUZZ_CORE swaps in another core tree (say a deliberately broken copy, to see a target fail);
# the build directory records which core and flags it was built with, and rebuilds on a change.

FUZZ_CXX ?= clang++-14
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
FUZZ_BUILD ?= fuzz/build
FUZZ_CORE ?= core
FUZZ_TARGETS ?= $(sort $(basename $(notdir $(wildcard fuzz/fuzz_*.cpp))))

FUZZ_SANITIZERS = address,undefined
# -O1 and -g: libFuzzer's usual build, fast enough and with readable sanitizer stacks.
FUZZ_CXXFLAGS = -std=c++17 -O1 -g -Wall -Wextra -fno-sanitize-recover=all -I$(FUZZ_CORE)/include
# Only core is instrumented for coverage (fuzzer-no-link): the coverage libFuzzer reports and
# steers by is the core's, and the targets' slow references (compare-heavy loops) run at twice
# the speed without the comparison tracing. Core's warnings are shown but do not stop the build:
# core is kept warning-free under gcc, and clang may find more;
# the targets' own warnings are errors.
FUZZ_CORE_FLAGS = $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZERS)
FUZZ_TARGET_FLAGS = $(FUZZ_CXXFLAGS) -Werror -fsanitize=$(FUZZ_SANITIZERS)
FUZZ_LINK_FLAGS = $(FUZZ_CXXFLAGS) -fsanitize=fuzzer,$(FUZZ_SANITIZERS)

FUZZ_CORE_OBJS = $(patsubst $(FUZZ_CORE)/%.cpp,$(FUZZ_BUILD)/core/%.o,$(wildcard $(FUZZ_CORE)/*.cpp))
FUZZ_OBJS = $(addprefix $(FUZZ_BUILD)/obj/,$(addsuffix .o,$(FUZZ_TARGETS)))
FUZZ_BINS = $(addprefix $(FUZZ_BUILD)/,$(FUZZ_TARGETS))
FUZZ_STAMP = $(FUZZ_BUILD)/flags.stamp
FUZZ_STAMP_TEXT = $(FUZZ_CXX) | $(FUZZ_CORE_FLAGS) | $(FUZZ_TARGET_FLAGS) | $(abspath $(FUZZ_CORE))

.PHONY: fuzz fuzz-build fuzz-stamp-force
fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_BUILD=$(FUZZ_BUILD) \
		bash fuzz/run.sh $(FUZZ_TARGETS)

# Rewritten only when the compiler, flags or core tree change: everything then rebuilds.
$(FUZZ_STAMP): fuzz-stamp-force
	@mkdir -p $(@D)
	@echo '$(FUZZ_STAMP_TEXT)' | cmp -s - $@ || echo '$(FUZZ_STAMP_TEXT)' > $@

$(FUZZ_CORE_OBJS): $(FUZZ_BUILD)/core/%.o: $(FUZZ_CORE)/%.cpp $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CORE_FLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_OBJS): $(FUZZ_BUILD)/obj/%.o: fuzz/%.cpp $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_TARGET_FLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BINS): $(FUZZ_BUILD)/%: $(FUZZ_BUILD)/obj/%.o $(FUZZ_CORE_OBJS)
	$(FUZZ_CXX) $(FUZZ_LINK_FLAGS) -o $@ $^

EXTRA_CLEAN += fuzz/build

-include $(wildcard $(FUZZ_BUILD)/core/*.d $(FUZZ_BUILD)/obj/*.d)
