#!/usr/bin/env bash
# run_matrix.sh: the whole suite on every supported server (`make test-matrix`), then the tests
# that span two servers (pg_upgrade). Servers missing on this machine are built first by
# scripts/pg-build.sh (once; later runs reuse them).
#
# With UBSAN_TOO=1 the regression tests and scripts run once more on 15 with the extension built
# with UBSan; with FUZZ_SECONDS_TOO=N every libFuzzer target of core runs N seconds (CI sets both).
# PG_VERSIONS (default "13 15 17 18") picks the servers. Unit tests run with the first server
# only: they do not depend on it. Ends with one "N passed, N failed" line adding up every run,
# after a list of which server failed what. Exit status 0 only if nothing failed.
set -uo pipefail
trap '' PIPE

cd "$(dirname "$0")/.." || exit 1

versions=${PG_VERSIONS:-13 15 17 18}
passed=0
failed=0
report=()
declare -A pg_config

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# add <label> <log>: add the run's closing "N passed, N failed" line and note what failed.
add() {
	local label=$1 log=$2 line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		report+=("$label: no summary line (the run broke off)")
		return
	fi
	read -r p _ f _ <<<"$line"
	passed=$((passed + p))
	failed=$((failed + f))
	report+=("$label: $line")
	if [ "$f" -gt 0 ]; then
		while IFS= read -r what; do
			report+=("    $what")
		done < <(grep -E '^run_tests: FAILED|^not ok [0-9]+ |\.\.\. FAILED|^FAILED' "$log")
	fi
}

first=1
for v in $versions; do
	printf '\n######## PostgreSQL %s\n' "$v"
	if ! pg_config[$v]=$(bash scripts/pg-build.sh "$v"); then
		failed=$((failed + 1))
		report+=("PostgreSQL $v: the server did not build")
		pg_config[$v]=
		continue
	fi
	log=$tmp/test-$v.log
	skip_unit=1
	[ -n "$first" ] && skip_unit=0
	first=
	IDTYPES_SKIP_UNIT=$skip_unit PG_CONFIG=${pg_config[$v]} bash test/run_tests.sh 2>&1 | tee "$log"
	add "PostgreSQL $v" "$log"
done

# UBSAN_TOO=1 (CI): the regression tests and scripts once more on 15, with the extension built
# with UBSan (-fno-sanitize-recover: any report fails the run).
if [ "${UBSAN_TOO:-0}" = 1 ] && [ -n "${pg_config[15]:-}" ]; then
	printf '\n######## PostgreSQL 15, extension built with UBSan\n'
	log=$tmp/test-15-ubsan.log
	UBSAN=1 IDTYPES_SKIP_UNIT=1 PG_CONFIG=${pg_config[15]} bash test/run_tests.sh 2>&1 | tee "$log"
	add "PostgreSQL 15 (UBSan)" "$log"
	# Leave the plain build installed for the tests below (as root, where the runs install).
	if [ "$(id -u)" -eq 0 ] && ! make --no-print-directory -s install PG_CONFIG="${pg_config[15]}" >/dev/null 2>&1; then
		report+=("could not reinstall the plain build into 15")
	fi
fi

# FUZZ_SECONDS_TOO=N (CI: 60): every libFuzzer target of core for N seconds (make fuzz).
if [ "${FUZZ_SECONDS_TOO:-0}" -gt 0 ]; then
	printf '\n######## fuzzing: every target for %s s\n' "$FUZZ_SECONDS_TOO"
	log=$tmp/fuzz.log
	{
		bash scripts/install-deps.sh fuzz &&
			make --no-print-directory fuzz FUZZ_SECONDS="$FUZZ_SECONDS_TOO"
	} 2>&1 | tee "$log"
	add "fuzzing (${FUZZ_SECONDS_TOO} s per target)" "$log"
fi

# Tests across two servers: each runs only when both servers passed through their own run above,
# which installed idtypes into both.
for pair in "15 18" "13 17"; do
	read -r old new <<<"$pair"
	[ -n "${pg_config[$old]:-}" ] && [ -n "${pg_config[$new]:-}" ] || continue
	for script in test/cross/*.sh; do
		[ -f "$script" ] || continue
		name="$(basename "$script" .sh) $old -> $new"
		printf '\n######## %s\n' "$name"
		log=$tmp/cross.log
		{
			if timeout "${IDTYPES_SCRIPT_TIMEOUT:-900}" bash "$script" "${pg_config[$old]}" "${pg_config[$new]}"; then
				echo "1 passed, 0 failed"
			else
				echo "FAILED: $name (exit status $?)"
				echo "0 passed, 1 failed"
			fi
		} 2>&1 | tee "$log"
		add "$name" "$log"
	done
done

printf '\n######## matrix summary\n'
printf '%s\n' "${report[@]}"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
