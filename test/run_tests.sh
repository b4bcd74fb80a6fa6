#!/usr/bin/env bash
# run_tests.sh: the one test command (`make test`): unit tests, regression tests, scripted tests.
#
# Stages: (1) Catch2 unit tests of core/ (and, with SANITIZE_TOO=1, again under ASan+UBSan;
# IDTYPES_SKIP_UNIT=1 skips them, as test/run_matrix.py does after the first server);
# (2) build, check-abi, install; (3) pg_regress on a private throwaway cluster; (4) every
# executable test/scripts/*.sh and *.py, in the order of their names, with PGHOST/PGPORT/PGUSER pointing at that cluster, PGBIN set and
# IDTYPES_TEST_START_CLUSTER=test/cluster.sh for a script that needs its own cluster (a script
# that exits with status 77 does not apply to this server, e.g. Citus on 15, and is counted as
# skipped, by name, with its last line (the reason) in the summary; test/run_matrix.py checks the
# names against the skips it expects; a script without its run bit fails). The last line printed
# is "N passed, N failed, N skipped" (unit test cases + regression tests + scripts, skipped
# scripts);
# (5) the TAP tests of t/ (`make prove_installcheck`; IDTYPES_TAP=0 leaves them out,
# IDTYPES_TAP="t/<name>.pl ..." runs those only);
# a stage that fails to build or run counts as one failure. Exit status 0 only if nothing failed.
# While working on one piece: IDTYPES_REGRESS="like security" runs only those regression tests
# (after init), IDTYPES_SCRIPTS="doctest.sh orm_python.py" only those scripts ("" runs none).
# UBSAN=1 builds the extension with UBSan (see the Makefile) and also fails on a report in the
# server log.
# Every step that runs tests has a time limit, so that a hang fails the run instead of holding it
# (CI) forever: a unit test binary IDTYPES_UNIT_TIMEOUT seconds (600 by default), pg_regress
# IDTYPES_REGRESS_TIMEOUT (900), each script IDTYPES_SCRIPT_TIMEOUT (900). A step that runs out
# of time is sent TERM (KILL 30 s later) and counts as one failure, whatever it printed.
# First the packages of `scripts/install-deps.sh base` (installed as root; otherwise a missing one
# stops the run with the command to run first).
# Run as root (CI): `make install` goes into the system dirs and the server runs as postgres.
# Not as root, or with IDTYPES_INSTALL_STAGE=1: the extension is installed into a stage used
# through extension_destdir.
set -uo pipefail
trap '' PIPE

cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
. "$top/test/lib/cpu_ms.sh"

PG_CONFIG=${PG_CONFIG:-pg_config}

# What building and testing need (scripts/install-deps.sh base, as `make demo` runs it), for the
# server of PG_CONFIG, or the release's default one when there is no pg_config yet. As root the
# missing packages are installed; otherwise a missing one stops the run, naming the command to run
# first. Left alone: a system without dpkg, or a server that is not a Debian package
# (its pg_config outside /usr/lib/postgresql). Always with the true clock (no LD_PRELOAD): under
# test/dates.sh's faked one, apt would check the archive's dates against it, and dpkg-query has
# hung in Debian 13's libfaketime.
if command -v dpkg-query >/dev/null; then
	bindir=$("$PG_CONFIG" --bindir 2>/dev/null) || bindir=
	case $bindir in
	'' | /usr/lib/postgresql/*)
		if [ "$(id -u)" -eq 0 ]; then
			env -u LD_PRELOAD bash scripts/install-deps.sh base || {
				echo "run_tests: scripts/install-deps.sh base failed"
				echo "0 passed, 1 failed, 0 skipped"
				exit 1
			}
		elif ! deps=$(env -u LD_PRELOAD bash scripts/install-deps.sh base 2>&1); then
			printf '%s\n' "$deps" | sed -n 's/^install-deps.sh: missing packages: \([^;]*\);.*/run_tests: missing packages: \1/p'
			echo "run_tests: run this first: sudo ${PG_CONFIG:+$([ "$PG_CONFIG" = pg_config ] || echo "PG_CONFIG=$PG_CONFIG ")}scripts/install-deps.sh base"
			echo "0 passed, 1 failed, 0 skipped"
			exit 1
		fi
		;;
	esac
fi

PGBIN=$("$PG_CONFIG" --bindir) || { echo "run_tests: no pg_config (install a server's headers, or set PG_CONFIG)"; echo "0 passed, 1 failed"; exit 1; }
export PG_CONFIG PGBIN
export PGPORT=${IDTYPES_TEST_PORT:-54329}
export PGUSER=postgres
export PGDATABASE=postgres
export IDTYPES_TEST_START_CLUSTER=$top/test/cluster.sh
if [ "${UBSAN:-0}" = 1 ]; then
	# Read by the servers the tests start (they inherit the environment).
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
unset PGSERVICE PGOPTIONS

passed=0
failed=0
skipped=()
tap_skipped=()
tmp=
cluster=

# stage <name>: a heading; the previous stage's seconds (and its CPU seconds, in a CI lane) go
# into the summary.
times=()
stage_name=
stage_start=$SECONDS
stage_cpu=$(cpu_ms)
stage() {
	local cpu
	cpu=$(cpu_ms)
	if [ -n "$stage_name" ]; then
		times+=("$(printf '%5d s  %s%s' $((SECONDS - stage_start)) "$stage_name" \
			"${cpu:+${stage_cpu:+  (CPU $(((cpu - stage_cpu + 500) / 1000)) s)}}")")
	fi
	stage_name=$*
	stage_start=$SECONDS
	stage_cpu=$cpu
	printf '\n=== %s\n' "$*"
}
fail() {
	printf 'run_tests: FAILED: %s\n' "$*"
	failed=$((failed + 1))
}

# Parallel builds, unless `make -jN test` already shares its job server with us.
jobs=()
case " ${MAKEFLAGS:-} " in
*jobserver*) ;;
*) jobs=(-j"$(nproc 2>/dev/null || echo 2)") ;;
esac
mk() { make --no-print-directory "$@"; }

unit_timeout=${IDTYPES_UNIT_TIMEOUT:-600}
regress_timeout=${IDTYPES_REGRESS_TIMEOUT:-900}
script_timeout=${IDTYPES_SCRIPT_TIMEOUT:-900}
# limit <seconds> <command...>: the command under timeout(1), which signals its whole process
# group (make's pg_regress and psql too).
limit() {
	local secs=$1
	shift
	timeout --kill-after=30 "$secs" "$@"
}
# timed_out <exit status> <started ($SECONDS)> <seconds>: limit() ran out of time: timeout(1)'s
# 124 (TERM) or 137 (KILL) once the time was up, not the same status of a command that ended itself.
timed_out() {
	{ [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; } && [ $((SECONDS - $2)) -ge "$3" ]
}

stop_cluster() {
	if [ -n "$cluster" ]; then
		bash "$IDTYPES_TEST_START_CLUSTER" stop "$cluster" >/dev/null 2>&1
		cluster=
	fi
}
cleanup() {
	stop_cluster
	if [ -n "$tmp" ]; then
		rm -rf "$tmp"
		tmp=
	fi
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

tmp=$(mktemp -d) || exit 1
# The server (postgres user) must reach its socket directory inside $tmp.
chmod 755 "$tmp"
export IDTYPES_SERVER_LOGS=$tmp/server-logs

# Catch2's console summary -> "passed failed" test cases, or nothing if there is none.
catch_counts() {
	awk '
	/^No tests ran/ { p = 0; f = 0; seen = 1 }
	/^All tests passed/ && match($0, /in [0-9]+ test case/) {
		split(substr($0, RSTART + 3), w, " "); p = w[1]; f = 0; seen = 1
	}
	/^test cases:/ {
		p = 0; f = 0; n = split($0, part, /[|]/)
		for (i = 2; i <= n; i++) {
			split(part[i], w, " ")
			if (part[i] ~ /failed as expected/ || part[i] ~ /passed/) p += w[1]
			else if (part[i] ~ /failed/) f += w[1]
		}
		seen = 1
	}
	END { if (seen) print p, f }' "$1"
}

# run_unit <label> <binary> [make args...]
run_unit() {
	local label=$1 bin=$2 log status counts p f started
	shift 2
	stage "unit tests ($label)"
	if ! mk "${jobs[@]}" unittest-build "$@"; then
		fail "$label unit tests did not build"
		return
	fi
	log=$tmp/unit-$label.log
	started=$SECONDS
	limit "$unit_timeout" "$bin" --reporter console 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	if timed_out "$status" "$started" "$unit_timeout"; then
		fail "$label unit tests timed out after $unit_timeout s (IDTYPES_UNIT_TIMEOUT)"
		return
	fi
	counts=$(catch_counts "$log")
	if [ -z "$counts" ]; then
		fail "$label unit tests: no summary (exit status $status)"
		return
	fi
	read -r p f <<<"$counts"
	passed=$((passed + p))
	failed=$((failed + f))
	# Named for the summary (counted above, once per failed test case): where they failed.
	if [ "$f" -gt 0 ]; then
		printf 'run_tests: FAILED: %s unit tests: %s of %s test cases, at %s\n' "$label" "$f" "$((p + f))" \
			"$(grep -oE '^[^ ]+\.cpp:[0-9]+: FAILED' "$log" | sed 's/: FAILED$//' | sort -u | paste -sd' ' -)"
	fi
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		fail "$label unit tests exited with status $status"
	fi
}

if [ "${IDTYPES_SKIP_UNIT:-0}" != 1 ]; then
	# IDTYPES_UNIT_PLAIN=0 with SANITIZE_TOO=1: only the sanitized run (the same tests at the same
	# optimization, with ASan and UBSan added): test/run_matrix.py's host lane, where a plain
	# run besides would add minutes and no check; the other releases and architectures run them plain.
	[ "${IDTYPES_UNIT_PLAIN:-1}" = 0 ] && [ "${SANITIZE_TOO:-0}" = 1 ] ||
		run_unit plain test/build/unit_tests
	if [ "${SANITIZE_TOO:-0}" = 1 ]; then
		ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
		UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
			run_unit sanitize test/build-san/unit_tests SANITIZE=1
	fi
fi

stage "build, check-sql, check-abi, install"
installed=
if mk check-sql && mk "${jobs[@]}" all && mk check-abi; then
	# IDTYPES_INSTALL_STAGE=1: a stage even as root, leaving the server's own directories alone
	# (several checkouts testing against one server at the same time).
	if [ "$(id -u)" -eq 0 ] && [ "${IDTYPES_INSTALL_STAGE:-0}" != 1 ]; then
		mk install >"$tmp/install.log" 2>&1 && installed=1
	else
		export IDTYPES_EXTENSION_DESTDIR=$tmp/stage
		mk install DESTDIR="$IDTYPES_EXTENSION_DESTDIR" >"$tmp/install.log" 2>&1 && installed=1
	fi
	if [ -z "$installed" ]; then
		cat "$tmp/install.log"
		fail "make install"
	fi
else
	fail "the extension did not build or needs the C++ runtime"
fi

if [ -n "$installed" ]; then
	stage "regression tests (pg_regress on a throwaway cluster)"
	if bash "$IDTYPES_TEST_START_CLUSTER" start "$tmp/pg"; then
		cluster=$tmp/pg
		export PGHOST=$cluster
	else
		fail "the test cluster did not start"
	fi
fi

# The server loads the build under test: the library a backend maps after CREATE EXTENSION is the
# one just installed (the stage's, when staged: not another build in the server's own directory),
# and with UBSAN=1 it brings the UBSan runtime.
if [ -n "$cluster" ]; then
	want="${IDTYPES_EXTENSION_DESTDIR:-}$("$PG_CONFIG" --pkglibdir)/idtypes.so"
	maps=$("$PGBIN/psql" -X -q -At -d postgres 2>&1 <<'SQL'
CREATE DATABASE idt_loads;
\c idt_loads
CREATE EXTENSION idtypes;
SELECT pg_backend_pid() AS pid \gset
\setenv IDT_PID :pid
\! grep -oE '/[^ ]*/(idtypes[.]so|libubsan[^ ]*)$' /proc/$IDT_PID/maps | sort -u
\c postgres
DROP DATABASE idt_loads;
SQL
	)
	if ! grep -qxF "$want" <<<"$maps"; then
		fail "the server does not load $want; it maps: $maps"
	elif [ "$(grep -c 'idtypes[.]so$' <<<"$maps")" -ne 1 ]; then
		fail "the server maps more than one idtypes.so: $maps"
	elif [ "${UBSAN:-0}" = 1 ] && ! grep -q libubsan <<<"$maps"; then
		fail "UBSAN=1, but the server's idtypes.so does not bring the UBSan runtime: $maps"
	else
		echo "ok: the server loads the build under test: $(tr '\n' ' ' <<<"$maps")"
		passed=$((passed + 1))
	fi
fi

if [ -n "$cluster" ]; then
	rm -f regression.diffs regression.out
	log=$tmp/regress.log
	started=$SECONDS
	limit "$regress_timeout" make --no-print-directory installcheck PGHOST="$PGHOST" PGPORT="$PGPORT" \
		PGUSER="$PGUSER" ${IDTYPES_REGRESS:+REGRESS="init $IDTYPES_REGRESS"} 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	# PostgreSQL <= 15: "test name ... ok|FAILED"; 16+: TAP "ok N - name" / "not ok N - name".
	p=$(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$log")
	f=$(grep -cE '\.\.\. (FAILED|failed)|^not ok [0-9]+ ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
	if [ -s regression.diffs ]; then
		stage "regression.diffs"
		cat regression.diffs
	fi
	if timed_out "$status" "$started" "$regress_timeout"; then
		# The tests done so far count; the one that hung (its line is the log's last) is the failure.
		fail "pg_regress timed out after $regress_timeout s (IDTYPES_REGRESS_TIMEOUT), at: $(tail -n 1 "$log" | sed 's/ \.\.\. .*/ .../')"
		tail -n 30 "$cluster/server.log"
	elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		fail "pg_regress exited with status $status"
		tail -n 30 "$cluster/server.log"
	elif [ "$status" -eq 0 ] && [ "$p" -eq 0 ]; then
		fail "pg_regress ran no test"
	fi

	for script in $(ls test/scripts/*.sh test/scripts/*.py 2>/dev/null | sort); do
		# shellcheck disable=SC2254
		case " ${IDTYPES_SCRIPTS-*} " in *" $(basename "$script") "* | " * ") ;; *) continue ;; esac
		if [ ! -x "$script" ]; then
			fail "$script is not executable (chmod +x it: every script here is a test)"
			continue
		fi
		stage "script $script"
		log=$tmp/script.log
		status=0
		started=$SECONDS
		limit "$script_timeout" "$script" >"$log" 2>&1 || status=$?
		cat "$log"
		if timed_out "$status" "$started" "$script_timeout"; then
			fail "$script timed out after $script_timeout s (IDTYPES_SCRIPT_TIMEOUT)"
		elif [ "$status" -eq 0 ]; then
			echo "ok: $script"
			passed=$((passed + 1))
		elif [ "$status" -eq 77 ]; then
			# Exit status 77: the script does not apply to this server (its last line says why).
			skipped+=("$script ($(tail -n 1 "$log"))")
			echo "run_tests: SKIPPED: ${skipped[-1]}"
		else
			fail "$script (exit status $status)"
			# A script stopped by set -e says no FAILED line of its own: its last lines say why,
			# and they go where the matrix's summary picks failures up.
			if ! grep -q '^FAILED' "$log"; then
				tail -n 5 "$log" | sed "s|^|run_tests: FAILED:     $(basename "$script"): |"
			fi
		fi
	done
fi

stop_cluster

# (5) The TAP tests (t/*.pl, `make prove_installcheck`): servers of their own, made and stepped by
# the tests (PostgreSQL::Test::Cluster). As root they run as the server's user (initdb refuses
# root) in a copy of the Makefile (and the files it includes) and t/ that user owns; the checkout
# is IDTYPES_SOURCE_DIR (t/160 builds 1.0 from its history). IDTYPES_TAP=0 leaves them out (a list of t/ files: those only); a server
# without TAP support in its PGXS (not a Debian server-dev package) skips them, saying so.
# Counted per test (prove's "ok N" lines).
if [ -n "$installed" ] && [ "${IDTYPES_TAP:-1}" != 0 ]; then
	stage "TAP tests (make prove_installcheck)"
	pgxs_global=$(dirname "$("$PG_CONFIG" --pgxs)")/../Makefile.global
	if ! grep -qE '^enable_tap_tests[[:space:]]*=[[:space:]]*yes' "$pgxs_global" 2>/dev/null; then
		skipped+=("TAP tests (this server's PGXS was built without --enable-tap-tests)")
		echo "run_tests: SKIPPED: ${skipped[-1]}"
	else
		tap=$tmp/tap
		mkdir -p "$tap" && cp -a --parents Makefile fuzz/fuzz.mk mk t "$tap"/
		# Citus for t/200_citus.pl, built from its vendored source into the server (as root; 16-18).
		# Without the source (exit status 3) the test skips, saying so (and fails in CI).
		major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
		if [ "$(id -u)" -eq 0 ] && [ "$major" -ge 16 ] && [ "$major" -le 18 ] &&
			{ [ "${IDTYPES_TAP:-1}" = 1 ] || [[ " $IDTYPES_TAP " == *" t/200_citus.pl "* ]]; }; then
			status=0
			bash scripts/vendor-build.sh citus "$PG_CONFIG" >"$tmp/citus-build.log" 2>&1 || status=$?
			[ "$status" -eq 0 ] || [ "$status" -eq 3 ] ||
				fail "Citus did not build for t/200_citus.pl (scripts/vendor-build.sh: $(tail -n 5 "$tmp/citus-build.log"))"
		fi
		as_tap=()
		if [ "$(id -u)" -eq 0 ]; then
			chown -R postgres: "$tap"
			as_tap=(runuser -u postgres --)
		fi
		log=$tmp/tap.log
		status=0
		started=$SECONDS
		tests=()
		[ "${IDTYPES_TAP:-1}" = 1 ] || tests=("PROVE_TESTS=$IDTYPES_TAP")
		limit "$script_timeout" "${as_tap[@]}" env PG_CONFIG="$PG_CONFIG" IDTYPES_SOURCE_DIR="$top" \
			${IDTYPES_EXTENSION_DESTDIR:+IDTYPES_EXTENSION_DESTDIR="$IDTYPES_EXTENSION_DESTDIR"} \
			make --no-print-directory -C "$tap" prove_installcheck PG_CONFIG="$PG_CONFIG" PROVE_FLAGS=-v \
			"${tests[@]}" >"$log" 2>&1 || status=$?
		grep -vE '^#|^\[[0-9:.]+\]' "$log"
		# A test that does not apply here says so (plan skip_all, with where it applies in its
		# code) and counts as skipped.
		while read -r skip; do
			tap_skipped+=("$skip")
		done < <(sed -nE 's/^(t\/[^ ]+) \.+ skipped: (.*)/\1 (\2)/p' "$log")
		p=$(grep -cE '^ok [0-9]+' "$log")
		f=$(grep -cE '^not ok [0-9]+' "$log")
		passed=$((passed + p))
		failed=$((failed + f))
		if timed_out "$status" "$started" "$script_timeout"; then
			fail "the TAP tests timed out after $script_timeout s (IDTYPES_SCRIPT_TIMEOUT)"
		elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
			fail "the TAP tests exited with status $status"
		fi
		if [ "$status" -ne 0 ]; then
			for t in "$tap"/tmp_check/log/regress_log_*; do
				[ -f "$t" ] || continue
				echo "--- $(basename "$t") (its last 40 lines)"
				tail -n 40 "$t"
			done
		fi
		# Their servers' logs (<test>_<node>.log) join the check below.
		if [ -d "$IDTYPES_SERVER_LOGS" ]; then
			for t in "$tap"/tmp_check/log/*.log; do
				if [ -f "$t" ]; then cp "$t" "$IDTYPES_SERVER_LOGS/tap_$(basename "$t")"; fi
			done
		fi
	fi
fi

# Every server log of the run: the regression cluster's and each cluster a script started and
# stopped (test/cluster.sh copies them into $IDTYPES_SERVER_LOGS), and the TAP tests' servers'. A
# backend that died of a signal other than SIGKILL (the TAP tests kill some on purpose) or a UBSan report (UBSAN=1: the extension
# aborts the backend on one) fails the run, whatever the script that ran it concluded.
if [ -d "$IDTYPES_SERVER_LOGS" ]; then
	stage "server logs ($(find "$IDTYPES_SERVER_LOGS" -type f | wc -l) clusters)"
	if grep -rnE "runtime error:|terminated by signal ([0-8]|[1-9][0-9])\b" "$IDTYPES_SERVER_LOGS"; then
		fail "a backend crashed or UBSan reported undefined behaviour (above)"
	else
		echo "no crash, no UBSan report"
		passed=$((passed + 1))
	fi
fi
rm -rf "$tmp"
tmp=
stage "summary"
printf '%s\n' "${times[@]}"
for script in "${skipped[@]}"; do
	echo "run_tests: SKIPPED: $script"
done
for t in "${tap_skipped[@]}"; do
	echo "run_tests: TAP test skipped: $t"
done
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" $((${#skipped[@]} + ${#tap_skipped[@]}))
[ "$failed" -eq 0 ]
