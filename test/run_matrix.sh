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
# (both on the host); with DEB_TOO=1 the Debian package is built and tested installed on each
# server, in its release's chroot. PG_VERSIONS (default "15 17 18 19") picks the servers.
#
# The work runs in two lanes at once, since much of it waits on servers rather than computing:
# the host's (its server, UBSan, fuzzing, the package tests of the servers no cross-server test
# needs) and the chroots' (their servers, pg_upgrade, the other package tests). The chroots' lane prints as it goes, the host's when it is
# done. IDTYPES_MATRIX_SERIAL=1 runs one lane after the other.
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
	[15:partman.sh]="Debian 12 packages pg_partman 4.7, which has no time encoder hooks"
	[19:partman.sh]="no postgresql-19-partman package yet"
	[15:timescaledb.sh]="Debian 12 packages no TimescaleDB"
	[19:timescaledb.sh]="no postgresql-19-timescaledb package yet"
)
# Cross-server tests: old and new major, run where both are packaged (sid: 18 and 19).
cross_pairs=("18 19")

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

host_release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
release_of() { bash scripts/chroot.sh --release "$1" 2>/dev/null; }

# ---- jobs: each writes $tmp/<id>.log and notes its label, major and seconds beside it ----------

# job <id> <label> <major> <command...>
job() {
	local id=$1 label=$2 major=$3 start=$SECONDS
	shift 3
	printf '\n######## %s\n' "$label"
	"$@" 2>&1 | tee "$tmp/$id.log"
	printf '%s\n' "$label" >"$tmp/$id.label"
	printf '%s\n' "$major" >"$tmp/$id.major"
	echo $((SECONDS - start)) >"$tmp/$id.secs"
}

# server <major> <skip unit tests: 0|1> [VAR=value...]: the suite against one major.
server() {
	local v=$1 skip_unit=$2
	shift 2
	if [ "$(release_of "$v")" = "$host_release" ]; then
		IDTYPES_PG_MAJOR=$v bash scripts/install-deps.sh base &&
			env "$@" IDTYPES_SKIP_UNIT="$skip_unit" PG_CONFIG="/usr/lib/postgresql/$v/bin/pg_config" \
				bash test/run_tests.sh
	else
		env "$@" IDTYPES_SKIP_UNIT="$skip_unit" bash scripts/chroot.sh "$v" make --no-print-directory test
	fi
}

# ubsan <major>: the suite on the host's server with the extension built with UBSan
# (-fno-sanitize-recover: any report fails the run), then the plain build installed again.
ubsan() {
	local status=0
	server "$1" 1 UBSAN=1 || status=$?
	if [ "$(id -u)" -eq 0 ] &&
		! make --no-print-directory -s install PG_CONFIG="/usr/lib/postgresql/$1/bin/pg_config" >/dev/null 2>&1; then
		echo "run_matrix: FAILED: could not install the plain build into $1 again"
		echo "0 passed, 1 failed"
		return 1
	fi
	return "$status"
}

fuzz() {
	bash scripts/install-deps.sh fuzz && make --no-print-directory fuzz FUZZ_SECONDS="$FUZZ_SECONDS_TOO"
}

# cross <old> <new> <script>: inside the chroot that has both servers.
cross() {
	if timeout "${IDTYPES_SCRIPT_TIMEOUT:-900}" bash scripts/chroot.sh "$2" bash "$3" \
		"/usr/lib/postgresql/$1/bin/pg_config" "/usr/lib/postgresql/$2/bin/pg_config"; then
		echo "1 passed, 0 failed"
	else
		echo "FAILED: $(basename "$3") $1 -> $2 (exit status $?)"
		echo "0 passed, 1 failed"
	fi
}

# deb <major>: `make deb` and the package's install test (test/deb/deb_install.sh), in the chroot of
# the major's release (15 too: the host is no clean system). After the servers' own runs, because
# it removes the idtypes files that those installed there.
deb() {
	local log=$tmp/deb-$1.out status=0 p f
	bash scripts/chroot.sh "$1" bash test/deb/deb_install.sh 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
	p=$(grep -c '^ok: ' "$log") || true
	f=$(grep -c '^FAILED: ' "$log") || true
	[ "$status" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	echo "$p passed, $f failed"
}

# ---- the two lanes ------------------------------------------------------------------------------

host_lane() {
	local v
	for v in $versions; do
		[ "$(release_of "$v")" = "$host_release" ] || continue
		job "a1-$v" "PostgreSQL $v ($host_release, host)" "$v" server "$v" 0
		[ "${UBSAN_TOO:-0}" = 1 ] && job "a2-$v" "PostgreSQL $v, UBSan (host)" "$v" ubsan "$v"
		break
	done
	if [ "${FUZZ_SECONDS_TOO:-0}" -gt 0 ]; then
		job a3 "fuzzing (${FUZZ_SECONDS_TOO} s per target)" fuzz fuzz
	fi
	# The package tests of the host's release and of every release no cross-server test needs (a
	# package test that takes its release's chroot first just delays that server's run there).
	[ "${DEB_TOO:-0}" = 1 ] || return 0
	for v in $versions; do
		in_cross "$v" && continue
		job "a4-$v" "Debian package on PostgreSQL $v ($(release_of "$v") chroot)" deb deb "$v"
	done
}

# in_cross <major>: a cross-server test needs that major's installed files (so its package test,
# which removes them, waits until the cross tests are done).
in_cross() {
	local pair
	for pair in "${cross_pairs[@]}"; do
		case " $pair " in *" $1 "*) return 0 ;; esac
	done
	return 1
}

chroot_lane() {
	local v old new script release n=0
	declare -A unit_done=()
	for v in $versions; do
		release=$(release_of "$v")
		if [ -z "$release" ]; then
			printf 'FAILED: no Debian release packages PostgreSQL %s\n0 passed, 1 failed\n' "$v" >"$tmp/b0-$v.log"
			printf 'PostgreSQL %s\n' "$v" >"$tmp/b0-$v.label"
			echo "$v" >"$tmp/b0-$v.major"
			echo 0 >"$tmp/b0-$v.secs"
			continue
		fi
		[ "$release" = "$host_release" ] && continue
		n=$((n + 1))
		job "b$n-$v" "PostgreSQL $v ($release)" "$v" server "$v" "$([ -n "${unit_done[$release]:-}" ] && echo 1 || echo 0)"
		unit_done[$release]=1
	done
	for pair in "${cross_pairs[@]}"; do
		read -r old new <<<"$pair"
		ls "$tmp"/b*-"$old".log "$tmp"/b*-"$new".log >/dev/null 2>&1 || continue
		for script in test/cross/*.sh; do
			[ -f "$script" ] || continue
			job "c-$old-$new-$(basename "$script" .sh)" "$(basename "$script" .sh) $old -> $new" cross \
				cross "$old" "$new" "$script"
		done
	done
	if [ "${DEB_TOO:-0}" = 1 ]; then
		for v in $versions; do
			in_cross "$v" || continue
			job "d-$v" "Debian package on PostgreSQL $v ($(release_of "$v") chroot)" deb deb "$v"
		done
	fi
}

if [ "${IDTYPES_MATRIX_SERIAL:-0}" = 1 ]; then
	host_lane
	chroot_lane
else
	host_lane >"$tmp/host-lane.out" 2>&1 &
	host_pid=$!
	chroot_lane
	wait "$host_pid"
	printf '\n######## the host lane, which ran beside the chroots\n'
	cat "$tmp/host-lane.out"
fi

# ---- summary ------------------------------------------------------------------------------------

passed=0
failed=0
skipped=0
report=()
timing=()

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
		done < <(grep -E '^run_tests: FAILED|^run_matrix: FAILED|^not ok [0-9]+ |\.\.\. FAILED|^FAILED' "$log")
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
	case $log in
	*/a1-* | */b[0-9]*) ;;
	*) return ;;
	esac
	for key in "${!may_skip[@]}"; do
		[ "${key%%:*}" = "$major" ] || continue
		name=${key#*:}
		if ! grep -qE "^run_tests: SKIPPED: .*/$name( |$)" "$log"; then
			failed=$((failed + 1))
			report+=("    FAILED: $name was expected not to apply on $major, but it ran: update the list")
		fi
	done
}

for log in $(ls "$tmp"/*.log 2>/dev/null | sort -V); do
	id=${log%.log}
	label=$(cat "$id.label")
	add "$label" "$(cat "$id.major")" "$log"
	timing+=("$(printf '%5d s  %s' "$(cat "$id.secs")" "$label")")
done

printf '\n######## matrix summary\n'
printf '%s\n' "${timing[@]}"
printf '%s\n' "${report[@]}"
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
