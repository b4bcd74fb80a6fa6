# bench.mk: the benchmark targets, included by the Makefile (`make help` lists them).
# Each reports ratios against a baseline measured in the same run (docs/performance.md).

.PHONY: bench bench-micro

# The benchmark suite (bench/bench.sh): N rows (default 1,000,000), R rounds (default 5), on the
# server of PG_CONFIG, with idtypes built and installed there first. Prints its tables and writes
# them as CSV, Markdown and an SVG plot into OUT (default bench/results/bench-<major>).
bench: all
	$(MAKE) install
	PG_CONFIG=$(PG_CONFIG) bash bench/bench.sh

# What the suite's statements cost in instructions and simulated cache misses (bench/count.sh:
# callgrind, a single-user server per statement), against the same baselines: ratios no neighbour
# of a shared machine moves. WORKLOADS (default '^hash index|^index probes') and CONTESTANTS pick
# the statements; writes OUT (default bench/results/count-<major>). Needs valgrind.
.PHONY: bench-count
bench-count: all
	$(MAKE) install
	PG_CONFIG=$(PG_CONFIG) bash bench/count.sh

# The generators under load (bench/load.py): pgbench with 1, 4, 16 and 64 clients, DURATION s each
# (default 60), single-row inserts with each generator as the key's default, in both scopes of the
# generators' state, then the same with faults (backends killed, an immediate restart); about 75
# minutes at the defaults. Writes OUT (default bench/results/load-<major>).
.PHONY: bench-load
bench-load: all
	$(MAKE) install
	PG_CONFIG=$(PG_CONFIG) python3 bench/load.py

# Bulk loads at scale and partition pruning on a big partitioned table (bench/scale.sh; about 15
# minutes per server at the default 20 M rows per generator on a 2-core VM, see docs/performance.md;
# ROWS=... BATCH=... for less).
.PHONY: bench-scale
bench-scale: all
	$(MAKE) install
	PG_CONFIG=$(PG_CONFIG) bash bench/scale.sh

# Micro-benchmarks of the core codecs (Google Benchmark): no server needed.
MICRO_BIN = test/build/bench_micro
$(MICRO_BIN): bench/micro.cpp $(wildcard core/*.cpp core/include/idtypes/*.hpp)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -Icore/include -o $@ bench/micro.cpp \
		$(wildcard core/*.cpp) -lbenchmark -lpthread

bench-micro: $(MICRO_BIN)
	./$(MICRO_BIN) --benchmark_repetitions=$${R:-5} --benchmark_report_aggregates_only=true
