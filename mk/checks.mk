# mk/checks.mk (included by the Makefile): the checks of the tree that need no server.
#   check-abi     the .so needs nothing from the C++ runtime, and exports only what the server
#                 looks up
#   sql, check-sql  regenerate the generated SQL scripts / check them, the frozen ones, the symbols
#                 and the types' facts
#   format, check-format  clang-format the C++ sources / check that they are

# The .so must need nothing from the C++ runtime: PGXS links it with gcc, and libstdc++ is loaded
# into a backend only by chance (through ICU). It exports only what the server looks up by name
# (hidden visibility: the Makefile and src/compat.h).
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
	@nm -D --defined-only $(MODULE_big)$(DLSUFFIX) | awk '{ print $$NF }' | sort > .exports.list
	@if awk 'NR == FNR { have[$$1] = 1; next } \
			!($$1 ~ /^(Pg_magic_func|_PG_init|_init|_fini|_edata|_end|__bss_start)$$/ || \
			  ($$1 ~ /^pg_finfo_/ && (substr($$1, 10) in have)) || (("pg_finfo_" $$1) in have)) \
			{ print; bad = 1 } END { exit !bad }' .exports.list .exports.list; then \
		echo "check-abi: $(MODULE_big)$(DLSUFFIX) exports more than the server looks up (above): hidden visibility" >&2; \
		rm -f .exports.list; exit 1; \
	fi
	@echo "check-abi: $(MODULE_big)$(DLSUFFIX) exports only the fmgr functions, their info functions, _PG_init and the magic block ($$(wc -l < .exports.list) symbols)"
	@rm -f .exports.list

# The generated SQL, "<tools/ generator>[+<argument>]:<file>": the install script and the update
# (tools/gen_sql.py), the SQL edition, its pg_tle package and its migration
# (tools/gen_sql_edition.py). `make sql` regenerates them; `make check-sql` fails when a committed
# file and its generator disagree, when a released (frozen) script changed, when a C symbol the
# scripts name is not written out in src/ (tools/check_symbols.sh: found by grep -w), or when
# src/traits.h or a client says of a type other than tools/types.json (tools/check_facts.py).
GENERATED_SQL = gen_sql.py:idtypes--1.2.sql gen_sql.py+update:idtypes--1.1--1.2.sql \
	gen_sql_edition.py:sql_edition/idtypes_sql.sql \
	gen_sql_edition.py+tle:sql_edition/idtypes_sql.pg_tle.sql \
	gen_sql_edition.py+migration:sql_edition/idtypes_sql.migration.sql
# 1.0 and 1.1 (released as 1.1.0), with idtypes_uuidv7's, by checksum.
IDTYPES_1_0_SHA256 = a3a73244a556eb849731896bed76541655896fdf4020a93cf416ea8f3e671185
IDTYPES_RELEASED_SHA256 = \
	$(IDTYPES_1_0_SHA256):idtypes--1.0.sql \
	b20b3ceffbcb45a39fc10023ff27afdb7216c24c4db9c63582a0fec359f52fb1:idtypes--1.1.sql \
	ff2a4d50f0f72b43e2fd8e04e49b5e87def51c2d790280eb1c5eff9f9c9c4ccd:idtypes--1.0--1.1.sql \
	cbf66b9293bb1ff78fe9499fd3f9f6b9dadc1609a84028f7dc30168ccce000bf:idtypes_uuidv7--1.1.sql
gen = python3 tools/$(subst +, ,$(firstword $(subst :, ,$(1))))
.PHONY: sql check-sql
sql:
	@$(foreach g,$(GENERATED_SQL),$(call gen,$(g)) > $(lastword $(subst :, ,$(g))).tmp \
		&& mv $(lastword $(subst :, ,$(g))).tmp $(lastword $(subst :, ,$(g))) &&) true

check-sql:
	@$(foreach g,$(GENERATED_SQL),{ $(call gen,$(g)) | diff -u $(lastword $(subst :, ,$(g))) - \
		|| { echo "check-sql: $(lastword $(subst :, ,$(g))) is stale: run make sql" >&2; exit 1; }; } &&) true
	@for f in $(IDTYPES_RELEASED_SHA256); do \
		echo "$${f%%:*}  $${f#*:}" | sha256sum --quiet -c - >/dev/null 2>&1 || { \
			echo "check-sql: $${f#*:} is released and frozen: SQL changes go into the next version's" \
				"scripts (docs/development.md, \"The next version\")" >&2; exit 1; }; \
	done
	@bash tools/check_symbols.sh >/dev/null
	@python3 tools/check_facts.py >/dev/null

# One clang-format, Debian 12's: another version lays some lines out otherwise.
CLANG_FORMAT ?= clang-format-14
FORMAT_SRCS = $(wildcard core/*.cpp core/include/idtypes/*.hpp src/*.cpp src/*.h src/*.hpp \
	src/*/*.cpp src/*/*.h test/*.cpp test/*.hpp fuzz/*.cpp fuzz/*.hpp)
.PHONY: format check-format
format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)
check-format:
	@$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRCS) \
		|| { echo "check-format: the files above differ from .clang-format's layout: run make format" >&2; exit 1; }
