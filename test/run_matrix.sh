#!/usr/bin/env bash
# run_matrix.sh: the whole suite on every supported server (`make test-matrix`), then the tests
# that span two servers (pg_upgrade).
#
# Each server is Debian's own package, tested on the Debian release that ships it: a major the host
# release packages (15 on Debian 12) runs on the host, the others inside a clean chroot of their
# release made by scripts/chroot.sh (17: trixie; 18 and 19: sid), each with that release's compiler
# and Catch2. Unit tests run once per release (a second major on the same release skips them).
# With UBSAN_TOO=1 the regression tests and scripts run once more on the host's server with the
# extension built with UBSan; with FUZZ_SECONDS_TOO=N every libFuzzer target of core runs N seconds
# (CI sets both; both on the host); with DEB_TOO=1 the Debian package is built and tested installed
# on each server, in its release's chroot. PG_VERSIONS (default "15 17 18 19") picks the servers.
#
# A test that says it does not apply (exit 77) is fine only where the list below expects it; an
# unexpected skip, or an expected one that ran, fails the matrix. Ends with the seconds each stage
# took, a list of what failed and skipped where, and one "N passed, N failed, N skipped" line
# adding up every run. Exit status 0 only if nothing failed.
set -uo pipefail
trap '' PIPE

cd "$(dirname "$0")/.." || exit 1

versions=${PG_VERSIONS:-15 17 18 19}

# Tests that do not apply to a server: [major:script]=why.
declare -A may_skip=(
	[15:citus.sh]="Citus 14 supports PostgreSQL 16-18"
	[19:citus.sh]="no Citus release supports PostgreSQL 19 yet"
)
# Cross-server tests: old and new major, run where both are packaged (sid: 18 and 19).
cross_pairs=("18 19")

passed=0
failed=0
skipped=0
report=()
timing=()
declare -A ran unit_done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

host_release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")

# add <label> <major> <log>: add the run's closing line, note what failed, check what skipped.
add() {
	local label=$1 major=$2 log=$3 line p f s name key
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		report+=("$label: no summary line (the run broke off)")
		return
	fi
	read -r p _ f _ s _ <<<"${line//,/}"
	s=${s:-0}
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	report+=("$label: $line")
	if [ "$f" -gt 0 ]; then
		while IFS= read -r what; do
			report+=("    $what")
		done < <(grep -E '^run_tests: FAILED|^not ok [0-9]+ |\.\.\. FAILED|^FAILED' "$log")
	fi
	# Skips: each must be on the list for this major, and each listed one must have skipped.
	while IFS= read -r name; do
		if [ -n "${may_skip[$major:$name]+x}" ]; then
			report+=("    skipped as expected: $name (${may_skip[$major:$name]})")
		else
			failed=$((failed + 1))
			report+=("    FAILED: $name said it does not apply, which is not expected on $major")
		fi
	done < <(sed -n 's|^run_tests: SKIPPED: \([^ ]*\).*|\1|p' "$log" | xargs -r -n1 basename | sort -u)
	for key in "${!may_skip[@]}"; do
		[ "${key%%:*}" = "$major" ] || continue
		name=${key#*:}
		if ! grep -qE "^run_tests: SKIPPED: .*/$name( |$)" "$log"; then
			failed=$((failed + 1))
			report+=("    FAILED: $name was expected not to apply on $major, but it ran: update the list")
		fi
	done
}

# timed <label> <command...>: run it and note its seconds.
timed() {
	local label=$1 start=$SECONDS status=0
	shift
	"$@" || status=$?
	timing+=("$(printf '%5d s  %s' $((SECONDS - start)) "$label")")
	return "$status"
}

# run_server <major> [UBSAN=1]: the suite against one major, on the host or in its chroot.
run_server() {
	local v=$1 label="PostgreSQL $1" log release skip_unit=0 extra=()
	shift
	[ $# -gt 0 ] && extra=("$@") && label="$label (${*})"
	release=$(bash scripts/chroot.sh --release "$v") || {
		failed=$((failed + 1))
		report+=("$label: no Debian release packages it")
		return
	}
	[ -n "${unit_done[$release]:-}" ] && skip_unit=1
	[ ${#extra[@]} -gt 0 ] && skip_unit=1
	unit_done[$release]=1
	log=$tmp/test-$v-${#report[@]}.log
	printf '\n######## %s (%s%s)\n' "$label" "$release" "$([ "$release" = "$host_release" ] && echo ', host')"
	if [ "$release" = "$host_release" ]; then
		{
			IDTYPES_PG_MAJOR=$v bash scripts/install-deps.sh base &&
				env "${extra[@]}" IDTYPES_SKIP_UNIT=$skip_unit PG_CONFIG="/usr/lib/postgresql/$v/bin/pg_config" \
					bash test/run_tests.sh
		} 2>&1 | tee "$log"
	else
		env "${extra[@]}" IDTYPES_SKIP_UNIT=$skip_unit bash scripts/chroot.sh "$v" \
			make --no-print-directory test 2>&1 | tee "$log"
	fi
	add "$label" "$v" "$log"
	ran[$v]=1
}

for v in $versions; do
	timed "PostgreSQL $v" run_server "$v"
done

# UBSAN_TOO=1 (CI): the regression tests and scripts once more on the host's server, with the
# extension built with UBSan (-fno-sanitize-recover: any report fails the run).
if [ "${UBSAN_TOO:-0}" = 1 ]; then
	for v in $versions; do
		[ "$(bash scripts/chroot.sh --release "$v")" = "$host_release" ] || continue
		timed "PostgreSQL $v, UBSan" run_server "$v" UBSAN=1
		# Leave the plain build installed (as root, where the runs install).
		if [ "$(id -u)" -eq 0 ] && ! make --no-print-directory -s install PG_CONFIG="/usr/lib/postgresql/$v/bin/pg_config" >/dev/null 2>&1; then
			report+=("could not reinstall the plain build into $v")
		fi
		break
	done
fi

# FUZZ_SECONDS_TOO=N (CI: 60): every libFuzzer target of core for N seconds (make fuzz).
fuzz() {
	printf '\n######## fuzzing: every target for %s s\n' "$FUZZ_SECONDS_TOO"
	local log=$tmp/fuzz.log
	{
		bash scripts/install-deps.sh fuzz &&
			make --no-print-directory fuzz FUZZ_SECONDS="$FUZZ_SECONDS_TOO"
	} 2>&1 | tee "$log"
	add "fuzzing (${FUZZ_SECONDS_TOO} s per target)" fuzz "$log"
}
if [ "${FUZZ_SECONDS_TOO:-0}" -gt 0 ]; then
	timed "fuzzing" fuzz
fi

# Tests across two servers, inside the chroot that has both: each runs only when both servers
# passed through their own run above, which installed idtypes into both.
cross() {
	local old=$1 new=$2 script=$3 name log
	name="$(basename "$script" .sh) $old -> $new"
	printf '\n######## %s\n' "$name"
	log=$tmp/cross.log
	{
		if timeout "${IDTYPES_SCRIPT_TIMEOUT:-900}" bash scripts/chroot.sh "$new" bash "$script" \
			"/usr/lib/postgresql/$old/bin/pg_config" "/usr/lib/postgresql/$new/bin/pg_config"; then
			echo "1 passed, 0 failed"
		else
			echo "FAILED: $name (exit status $?)"
			echo "0 passed, 1 failed"
		fi
	} 2>&1 | tee "$log"
	add "$name" cross "$log"
}
for pair in "${cross_pairs[@]}"; do
	read -r old new <<<"$pair"
	[ -n "${ran[$old]:-}" ] && [ -n "${ran[$new]:-}" ] || continue
	for script in test/cross/*.sh; do
		[ -f "$script" ] || continue
		timed "$(basename "$script" .sh) $old -> $new" cross "$old" "$new" "$script"
	done
done

# DEB_TOO=1 (CI): `make deb` and the package's install test (test/deb/deb_install.sh) on each
# server, in the chroot of its release (15 too: the host is no clean system). Last, because it
# removes the idtypes files that the runs above installed there.
deb() {
	local v=$1 log=$tmp/deb-$1.log status=0 p f
	printf '\n######## Debian package on PostgreSQL %s\n' "$v"
	bash scripts/chroot.sh "$v" bash test/deb/deb_install.sh 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
	p=$(grep -c '^ok: ' "$log") || true
	f=$(grep -c '^FAILED: ' "$log") || true
	[ "$status" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	echo "$p passed, $f failed" >>"$log"
	add "Debian package on $v" deb "$log"
}
if [ "${DEB_TOO:-0}" = 1 ]; then
	for v in $versions; do
		timed "Debian package on $v" deb "$v"
	done
fi

printf '\n######## matrix summary\n'
printf '%s\n' "${timing[@]}"
printf '%s\n' "${report[@]}"
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
