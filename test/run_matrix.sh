#!/usr/bin/env bash
# run_matrix.sh: the whole suite on every supported server (`make test-matrix`), and the tests
# that span two servers (pg_upgrade).
#
# Each server is Debian's own package, tested on the Debian release that ships it: a major the host
# release packages (15 on Debian 12) runs on the host, the others each inside a clean chroot of
# their release made by scripts/chroot.sh (17: trixie; 18 and 19: sid), each with that release's
# compiler and Catch2. Unit tests run once per release (a second major on the same release skips
# them). With UBSAN_TOO=1 the extension is built with UBSan for the whole suite of two lanes: the
# host's server (15: the generator state per backend) and 19 in its chroot (17+: the state shared by
# the cluster through the DSM registry); every other lane, and each package, tests the plain build.
# With DATES_TOO=1 the host's server's regression suite runs once more at two faked instants
# (dates(), below). With FUZZ_SECONDS_TOO=N every libFuzzer target of core runs N seconds (on the
# host); with DEB_TOO=1 the Debian package is built and tested installed on each server, in a
# chroot of its release.
# PG_VERSIONS (default "15 17 18 19") picks the servers.
#
# The work runs in lanes at once (see "the lanes" below). Each prints a line as a job starts and
# ends; the lanes' logs follow, in order, when all are done. IDTYPES_MATRIX_SERIAL=1 runs one lane
# after the other.
#
# A test that says it does not apply (exit 77) is fine only where the list below expects it; an
# unexpected skip, or an expected one that ran, fails the matrix. Ends with the seconds each job
# took, a list of what failed and skipped where, and one "N passed, N failed, N skipped" line
# adding up every run. Exit status 0 only if nothing failed.
set -uo pipefail
trap '' PIPE

cd "$(dirname "$0")/.." || exit 1
. test/lib/cpu_ms.sh

versions=${PG_VERSIONS:-15 17 18 19}
# PG_VERSIONS=none: no server lane (the lanes of ARCH_TOO alone, say).
[ "$versions" != none ] || versions=

# Tests that do not apply to a server: [major:script]=why.
declare -A may_skip=(
	[15:partman.sh]="Debian 12 packages pg_partman 4.7, which has no time encoder hooks"
	[19:partman.sh]="no postgresql-19-partman package yet"
	[15:timescaledb.sh]="Debian 12 packages no TimescaleDB"
	[19:timescaledb.sh]="no postgresql-19-timescaledb package yet"
)
# UBSAN_TOO=1: these majors' lanes build the extension with UBSan (-fno-sanitize-recover: a report
# aborts the backend, and run_tests.sh fails on it in the server logs) for their whole suite, the
# regression tests and every script: 15 on the host (the generator state per backend) and 19 in
# its chroot (the state shared by the cluster without preload, 17+). The sanitized build is the
# plain one (the same -O2 of pg_config) with checks added, so it runs instead of the plain build,
# not beside it: the plain build is what 17, 18, the architectures and every package test.
ubsan_majors="15 19"
# ubsan_for <major>: is that major's lane built with UBSan (UBSAN_TOO=1 and in ubsan_majors)?
ubsan_for() { [ "${UBSAN_TOO:-0}" = 1 ] && [[ " $ubsan_majors " == *" $1 "* ]]; }
# These majors' lanes run the regression tests at the small sizes (IDTYPES_REGRESS_SMALL, as under
# qemu-user: the same plans and checks on fewer rows; a third to a half of the suite's CPU
# seconds). The full sizes run on the sanitized lanes (15 and 19) and in debsrc.sh's autopkgtest
# against 17's package; 18's small suite is s390x's too.
small_majors="17 18"
# USER_TOO=1: these majors (in their chroots) run the suite once more as a user without root: the
# server of Debian 13, where a user's `make test` stages the extension through extension_destdir.
user_majors="17"
# ... with the unit tests skipped, the regression tests of user_regress (the extension loaded from
# the stage; the whole suite ran as root in the same chroot just before), the isolation specs,
# and only the TAP tests and scripts whose work differs as a user: what they install into the stage (other versions of the
# extension, a changed control file), servers a user starts, stops, crashes and restarts (the
# floor file in a data directory the user owns) and libfaketime preloaded by a user. Every other
# script tests the server, not who runs it, and runs as root in the same chroot just before.
user_regress="io casts generate security"
user_scripts="minor_release.sh"
user_tap="t/150_update_path.pl"
# ARCH_TOO="<arch>...": the suite on those other CPU architectures (all: every one below), each on
# a server of a release that packages it for that architecture, with what each must cover (the
# whole script suite runs on amd64): the unit tests, the regression suite and these scripts.
# [<arch>]="<major> <scripts...>". i386 runs natively, in a chroot of its own (scripts/chroot.sh
# --arch), built there; the others are cross-compiled on the host and run under qemu-user against
# the release's server of that architecture, extracted into a sysroot (scripts/sysroot.sh; a chroot
# of theirs, configured and built in under emulation, would take several times as long). i386: a
# 32-bit Datum (64-bit types passed by reference);
# arm64: unsigned char, and the package; s390x: big-endian (Debian 13's s390x packages of its point
# releases are not in the archive these machines reach: sid's, with PostgreSQL 18). Not
# t/130_concurrency.pl under qemu-user: qemu runs the guest's loads and stores as the host's,
# whose order (x86's) is stronger than arm64's, so a missing barrier cannot show there; it runs
# on every amd64 server lane and natively on i386 (arch_lane).
declare -A arch_lanes=(
	[i386]="15 arch_values.sh"
	[arm64]="15 arch_values.sh"
	[s390x]="18 arch_values.sh"
)
# The regression tests and isolation specs left out under qemu-user (REGRESS_SKIP), per
# architecture. Races (the isolation specs, generate_parallel's workers): qemu-user runs the guest's
# loads and stores in the host's order, as for t/130_concurrency.pl. arm64 also leaves out the planner's
# tests: its Datum, byte order and alignment are amd64's (what differs, unsigned char, is the
# codecs', which the rest of the suite and arch_values.sh read); s390x keeps them (the estimators
# read the IDs' bytes as numbers: big-endian), i386 too (a 32-bit Datum).
emulated_races="commit_order generate_first_id opfamily_while_planning slot_handoff update_while_generating generate_parallel"
declare -A arch_regress_skip=(
	[arm64]="$emulated_races estimates partition_prune joins"
	[s390x]="$emulated_races"
)
# i386 where this machine's kernel runs no 32-bit program ("32-bit emulation disabled",
# ia32_emulation=off): cross-built and run under qemu-user like the others, without
# t/130_concurrency.pl (natively, arch_lane runs it).
# Under qemu-user: the server without JIT (LLVM compiling code under emulation costs minutes and
# tests nothing of ours; scripts/sysroot.sh builds no bitcode); the regression tests like and
# prefix_index on a tenth of their rows, amcheck and btree on a fifth (IDTYPES_REGRESS_SMALL:
# like_1.out, prefix_index_1.out, btree_1.out, amcheck's output the same; the same plans and
# checks), generate_parallel and uuidv7_core on a tenth, errors on half of its near-miss inputs
# (errors_1.out): at full size like and prefix_index take most of the suite's time under
# emulation, then amcheck and btree; the unit tests' randomized cases a tenth of their rounds and
# utf8_decode's round trip every 61st 4-byte scalar (IDTYPES_UNIT_SMALL: at full size they pass
# the unit tests' time limit under emulation; the full counts run on amd64).
# No unit tests under ASan+UBSan there (SANITIZE_TOO): they run on amd64; under qemu-user the
# cross toolchains' sanitizer runtimes are not in the sysroot (arm64: "libasan.so.8: cannot open
# shared object file") or do not link (s390x, g++ 12: "defined in discarded section").
# The TAP tests (t/*.pl: servers started, crashed, promoted and clock-stepped by the tests) run on
# the server lanes (which ones: tap_majors, below), not on the other architectures (IDTYPES_TAP=0: the floor,
# its WAL records and its waits are the same C++ there, and each test starts several servers,
# minutes each under qemu-user), not as a user, not at CI's faked instants (test/dates.sh --near:
# the regression suite and the isolation specs; a whole test/dates.sh runs them).
emulated_env=("IDTYPES_SERVER_OPTS=-c jit=off" IDTYPES_REGRESS_TIMEOUT=2400 SANITIZE_TOO=0
	IDTYPES_REGRESS_SMALL=1 IDTYPES_UNIT_SMALL=1 IDTYPES_TAP=0)
# The package is cross-built and tested installed on these too (after the suite, in its lane:
# deb_cross); the regression suite ran there already, so the package test runs only the part of
# it that needs the installed files (IDTYPES_DEB_REGRESS).
arch_debs="arm64"
# The package test's regression tests: the whole suite (the tests a database owner may run as the
# owner of a non-superuser database, the rest as postgres) on 15, whose lane's own build is
# sanitized: the package is the plain build of g++ 12 on amd64 there (at the small sizes: the host's
# lane ran the full ones on the same server and sources); these where the lane ran the
# whole suite against the same plain build just before, and debsrc.sh's autopkgtest runs it again
# against the package built from the
# source package (17), or the lane's own build is sanitized and release_full.sh builds the package
# once more (19): what the package adds there is its files, which these load, as the owner of a
# database and as postgres. The architectures' packages take these too.
deb_regress_subset="init io casts generate"
# No package test on these majors: 18 shares sid's packaging with 19, whose package is installed
# and tested (and release_full.sh builds 18's .deb); what differs is the major in the files'
# paths, which each package's test reads.
deb_unpackaged="18"
deb_full_suite="15"
# With DEB_TOO=1, after the package test and in the same chroot, the other channels' tests, per
# major ("<script> [args]", separated by ";"): the Debian source package with lintian and
# autopkgtest on Debian 13 (stable; 12's binary package is built from the same debian/ and tested
# installed, with the whole suite, without a throwaway chroot of its own), pgxn install from
# the zip once, and the whole `make release` (its .deb files and images for 18 and 19) once.
declare -A channel_jobs=(
	[15]="test/pgxn/pgxn_install.sh"
	[17]="test/deb/debsrc.sh"
	[19]="test/release/release_full.sh 18 19"
)
# pg_upgrade from the old major to the new (t/180_pg_upgrade.pl), both packaged by the new one's
# release (sid: 18 and 19), in the new major's chroot.
cross_pairs=("18 19")

# Where each script of test/scripts/ runs. A script not listed here runs on every server's lane:
# it tests what differs between majors (the planner, the generator state, catalogs, replication,
# pg_dump, the update path, the integrations packaged per major). A script listed runs on the
# majors named only: what it tests is the same on every major, or differs per Debian release
# (18 and 19 share sid's packages) and not per server. docs/development.md has the table.
declare -A script_majors=(
	# Client programs and packages: what they test is the client's side of the protocol, the same
	# on every major. Once per Debian release where they use the release's packages (the ORMs:
	# Django 3.2, 4.2 and 5.2, SQLAlchemy 1.4 and 2.0, ActiveRecord), once where they bring their
	# own (npm's packages; the drivers' programs): on the host, where .ci/run installs their packages
	# once, before the lanes start (Go, Rust and a JDK installed and compiled in a chroot would
	# cost a run minutes).
	[drivers.sh]="15"
	[orm_node.sh]="15"
	# (sid's packages in 19's lane, which 18's shares.)
	[orm_python.sh]="15 17 19"
	[orm_ruby.sh]="15 17 19"
	[clients_dist.sh]="15"
	# The clients' own generators and parsers against the server's: the same formats on every major.
	[client_ids.sh]="15"
	# make demo from a copy of the checkout, as a user runs it: the same on every major.
	[demo.sh]="15"
	# Files of the tree (documents, versions, META.json, the PGXN archive, make release's refusals):
	# the same on every major.
	[doc_check.sh]="19"
	# The C++ layout, with the host's clang-format 14 (another version lays lines out otherwise).
	[format_check.sh]="15"
	[pgxn_meta.sh]="19"
	[dist.sh]="17"
	[release.sh]="15"
	# The CloudNativePG image built and the whole suite loaded from it, once:
	# extension_control_path is new in 18 and works alike on 19 (t/170_extension_dir.pl checks it
	# on both); release_full.sh builds 19's image too.
	[image.sh]="18"
	# The generators under load (pgbench smoke; their lives, crashes, clocks, floors, waits,
	# concurrency and node ids are the TAP tests'). Where they differ by major, src/compat.h says
	# so: 17, 18 and 19 build the same code but for the DSM registry's callback (19's signature),
	# and 18's compiler (sid's) builds 19's too. So on 15 (no DSM registry) and 19; the TAP tests
	# of the generators' lives, the regression suite's generator tests (not preloaded) and the
	# isolation specs run on every major.
	[bench_smoke.sh]="15 19"
	# bench/load.py end to end at a small size: a tool's run, the same on every
	# major; its fault check (kills, an immediate restart) is t/050_crash.pl's, on every major.
	[bench_load.sh]="15"
	# The SQL edition against the native one: PL/pgSQL and SQL functions on
	# core types, the same on every major but for the planner's inlining and pruning: the oldest
	# and the newest released major.
	[sql_edition.sh]="15 18"
	# The migration applied as psql, psycopg 3, Django, Alembic, node-postgres, node-pg-migrate and
	# a Supabase migrations/ directory do (the ORM packages of the release; the node
	# ones where node and npm are, on the host): on 15, 17 and 18.
	[sql_edition_migrations.py]="15 17 18"
	# A dump of the plain script's and the migration's databases restored (pg_dump differs
	# per major): the oldest and the newest released major. The pg_tle form's dump runs
	# in sql_edition_tle.sh.
	[sql_edition_dump.sh]="15 18"
	# The edition behind PgBouncer in transaction mode: a client's side, once.
	[sql_edition_pooler.sh]="15"
	# The same checks through pg_tle: on 15 and 18 as well, the oldest and newest majors pg_tle
	# 1.5.2 supports here; on 15 with pg_tle 1.4.0 too.
	[sql_edition_tle.sh]="15 18"
)
# Where each TAP test of t/ runs, as script_majors says for scripts: a test not listed runs on
# every server's lane. The generators' lives (failover, restarts, waits, the WAL order, crashes,
# the floor file, clock steps, slots, node ids, concurrency) run on every major: the state per
# backend before 17, the DSM registry from 17 (19 with its own callback signature, src/compat.h),
# the WAL and recovery code each major brings; so do the standbys, logical replication,
# postgres_fdw, pg_dump and the update paths. The others where they apply (each also skips itself
# elsewhere, saying why). docs/development.md has the table.
declare -A tap_majors=(
	# 1.0 builds on 15 to 17 only.
	[160_compat_1_0.pl]="15 17"
	# extension_control_path is new in 18.
	[170_extension_dir.pl]="18 19"
	# Two servers: cross() runs it for each of cross_pairs.
	[180_pg_upgrade.pl]=""
	# The SQL edition, as sql_edition.sh.
	[190_sql_edition_hostile.pl]="15 18"
	# Citus 14 supports 16 to 18: on the newest (its build from source is the longest step of a
	# run with nothing cached).
	[200_citus.pl]="18"
)
# Each name above is a script of test/scripts/.
for name in "${!script_majors[@]}"; do
	if [ ! -f "test/scripts/$name" ]; then
		echo "run_matrix: test/scripts/$name is named in script_majors but does not exist" >&2
		exit 2
	fi
done
for name in "${!tap_majors[@]}"; do
	if [ ! -f "t/$name" ]; then
		echo "run_matrix: t/$name is named in tap_majors but does not exist" >&2
		exit 2
	fi
done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

host_release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
release_of() { bash scripts/chroot.sh --release "$1" 2>/dev/null; }

# ---- jobs: each writes $tmp/<id>.log and notes its label, major and seconds beside it ----------

# job <id> <label> <major> <command...>: prints its output (into its lane's log) and a line when
# it starts and ends on the matrix's own output (fd 3), so a long run shows where it is.
job() {
	local id=$1 label=$2 major=$3 start=$SECONDS cpu0
	shift 3
	cpu0=$(cpu_ms)
	echo "run_matrix: started: $label" >&3
	printf '\n######## %s\n' "$label"
	"$@" 2>&1 | tee "$tmp/$id.log"
	printf '%s\n' "$label" >"$tmp/$id.label"
	printf '%s\n' "$major" >"$tmp/$id.major"
	echo $((SECONDS - start)) >"$tmp/$id.secs"
	[ -z "$cpu0" ] || echo $((($(cpu_ms) - cpu0 + 500) / 1000)) >"$tmp/$id.cpu"
	echo "run_matrix: done in $((SECONDS - start)) s: $label ($(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/$id.log" | tail -n 1))" >&3
}

# scripts_for <major>: the scripts of test/scripts/ that the major's own run takes (script_majors).
scripts_for() {
	local f name out=()
	for f in test/scripts/*.sh test/scripts/*.py; do
		name=$(basename "$f")
		[ -z "${script_majors[$name]+x}" ] || [[ " ${script_majors[$name]} " == *" $1 "* ]] || continue
		out+=("$name")
	done
	echo "${out[*]}"
}

# tap_for <major>: the TAP tests the major's own run takes (tap_majors), as IDTYPES_TAP has them
# (0: none).
tap_for() {
	local f name out=()
	for f in t/*.pl; do
		name=$(basename "$f")
		[ -z "${tap_majors[$name]+x}" ] || [[ " ${tap_majors[$name]} " == *" $1 "* ]] || continue
		out+=("$f")
	done
	[ ${#out[@]} -gt 0 ] || out=(0)
	echo "${out[*]}"
}

# server <major> <skip unit tests: 0|1>: the suite against one major (UBSAN_TOO=1: built with
# UBSan on the majors of ubsan_majors). On the host, with SANITIZE_TOO=1, the unit tests run only
# under ASan+UBSan (IDTYPES_UNIT_PLAIN=0), with a tenth of the randomized rounds
# (IDTYPES_UNIT_SMALL=1: every test case and path, 3 s instead of 19 under the sanitizers): the
# full counts run plain on the other releases (17, 18) and natively on i386. Without
# SANITIZE_TOO the host's unit run is the plain one, at the full counts.
server() {
	local v=$1 skip_unit=$2 ubsan=0
	export IDTYPES_SCRIPTS IDTYPES_TAP
	IDTYPES_SCRIPTS=$(scripts_for "$v")
	# (IDTYPES_TAP given to the matrix, 1 say, wins.)
	IDTYPES_TAP=${IDTYPES_TAP:-$(tap_for "$v")}
	! ubsan_for "$v" || ubsan=1
	[[ " $small_majors " != *" $v "* ]] || export IDTYPES_REGRESS_SMALL=1
	if [ "$(release_of "$v")" = "$host_release" ]; then
		IDTYPES_PG_MAJOR=$v bash scripts/install-deps.sh base &&
			UBSAN=$ubsan IDTYPES_UNIT_PLAIN=0 IDTYPES_UNIT_SMALL=${SANITIZE_TOO:-0} IDTYPES_SKIP_UNIT=$skip_unit PG_CONFIG=/usr/lib/postgresql/$v/bin/pg_config \
				bash test/run_tests.sh
	else
		# UBSAN is not among the variables chroot.sh passes in, hence env.
		IDTYPES_SKIP_UNIT=$skip_unit bash scripts/chroot.sh "$v" env UBSAN=$ubsan make --no-print-directory test
	fi
}

# as_user <major>: the suite in the major's chroot as a user without root (scripts/as-user.sh), the
# way the README's `make test` runs without sudo: the extension staged, servers run as that user.
as_user() {
	IDTYPES_SKIP_UNIT=1 IDTYPES_TAP=$user_tap IDTYPES_REGRESS=$user_regress IDTYPES_SCRIPTS=$user_scripts bash scripts/chroot.sh "$1" bash scripts/as-user.sh \
		make --no-print-directory test
}

# fuzz: every target at once, for FUZZ_SECONDS_TOO each, beside the other lanes (they share the
# CPU with them: the coverage each reaches is the same as two at a time on an idle machine, at a
# few times fewer executions; `make fuzz` alone is the way to fuzz long).
fuzz() {
	bash scripts/install-deps.sh fuzz &&
		make --no-print-directory fuzz FUZZ_SECONDS="$FUZZ_SECONDS_TOO" FUZZ_JOBS="$(ls fuzz/fuzz_*.cpp | wc -l)"
}

# dates <major>: the regression suite and the isolation specs on the host's server once more, with
# every process's clock moved to the two instants of `test/dates.sh --near` (the coming month's first
# half hour, the year's last): a test written against today's month or year fails here before it
# fails on that day. With client_ids.sh, whose Python and Node clients read the clock and pause
# under libfaketime too. In a copy of the checkout, the extension staged (the host's lane installs its
# UBSan build into the server's directories meanwhile), at the small sizes (the same plans and
# checks).
dates() {
	local copy=$tmp/dates-checkout
	bash scripts/copy-checkout.sh "$copy" &&
		cd "$copy" &&
		IDTYPES_INSTALL_STAGE=1 IDTYPES_TEST_PORT=54429 IDTYPES_REGRESS_SMALL=1 IDTYPES_DATES_SCRIPTS=client_ids.sh IDTYPES_DATES_TAP=0 \
			PG_CONFIG=/usr/lib/postgresql/$1/bin/pg_config bash test/dates.sh --near
}

# cross <old> <new>: t/180_pg_upgrade.pl in the new major's chroot, with the old major's server
# installed there too and idtypes built and installed for both; as the server's user (initdb
# refuses root) in a copy of the TAP files that user owns. Counted per check.
cross() {
	local log status=0 p f
	log=$(mktemp "$tmp/cross.XXXXXX")
	timeout "${IDTYPES_SCRIPT_TIMEOUT:-900}" bash scripts/chroot.sh "$2" bash -c '
		set -e
		IDTYPES_PG_MAJOR=$1 bash scripts/install-deps.sh base
		for v in "$1" "$2"; do
			make -s clean
			make -s install PG_CONFIG=/usr/lib/postgresql/$v/bin/pg_config >/dev/null
		done
		tap=$(mktemp -d)
		cp -a --parents Makefile fuzz/fuzz.mk mk t "$tap"
		chown -R postgres: "$tap"
		runuser -u postgres -- env IDTYPES_UPGRADE_FROM="/usr/lib/postgresql/$1" make --no-print-directory \
			-C "$tap" prove_installcheck PG_CONFIG="/usr/lib/postgresql/$2/bin/pg_config" \
			PROVE_TESTS=t/180_pg_upgrade.pl PROVE_FLAGS=-v' cross "$1" "$2" >"$log" 2>&1 || status=$?
	grep -vE '^#|^\[[0-9:.]+\]' "$log"
	p=$(grep -cE '^ok [0-9]+' "$log") || true
	f=$(grep -cE '^not ok [0-9]+' "$log") || true
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAILED: t/180_pg_upgrade.pl $1 -> $2 (exit status $status)"
		grep -B2 -A8 -E 'ERROR|FATAL|died' "$log" | tail -n 40
		f=1
	fi
	echo "$p passed, $f failed"
}

# counted <command...>: a test that reports by its "ok:" and "FAILED:" lines (test/lib/report.sh),
# counted; an exit status other than 0 without a FAILED line counts as one failure.
counted() {
	local log status=0 p f
	log=$(mktemp "$tmp/counted.XXXXXX")
	"$@" 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
	p=$(grep -c '^ok: ' "$log") || true
	f=$(grep -c '^FAILED: ' "$log") || true
	[ "$status" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	echo "$p passed, $f failed"
}

# chroot_test <major> [--arch <arch>] <script> [args...]: a test that runs as root in a chroot of
# the major's release (a clean system: 15's too, the host is none), counted.
chroot_test() {
	local major=$1 opts=()
	shift
	if [ "${1:-}" = --arch ]; then
		opts=(--arch "$2")
		shift 2
	fi
	counted bash scripts/chroot.sh "${opts[@]}" "$major" bash "$@"
}

# deb <major>: `make deb` and the package's install test (test/deb/deb_install.sh) in the major's
# chroot. After the server's own run there, because it removes the idtypes files that run installed.
deb() {
	if [[ " $deb_full_suite " == *" $1 "* ]]; then
		with_env IDTYPES_REGRESS_SMALL=1 -- chroot_test "$@" test/deb/deb_install.sh
	else
		with_env IDTYPES_DEB_REGRESS="$deb_regress_subset" -- chroot_test "$@" test/deb/deb_install.sh
	fi
}

# package_jobs <n> <major> <where>: the package test, then the major's channel_jobs, in its lane.
package_jobs() {
	local n=$1 v=$2 where=$3 i=0 jobs line cmd
	job "$n-4" "Debian package on PostgreSQL $v ($where)" deb deb "$v"
	IFS=';' read -ra jobs <<<"${channel_jobs[$v]:-}"
	for line in "${jobs[@]}"; do
		read -ra cmd <<<"$line"
		i=$((i + 1))
		job "$n-5-$i" "$(basename "${cmd[0]}" .sh) on PostgreSQL $v ($where)" "$v" chroot_test "$v" "${cmd[@]}"
	done
}

# deb_cross <major> <arch>: the package cross-built on the host (`make deb` in scripts/sysroot.sh),
# then installed with dpkg --root into the architecture's sysroot, where the release's server and
# what it depends on are registered as installed, and tested there by test/deb/deb_install.sh
# (its Depends checked by dpkg, its files, the regression tests of IDTYPES_DEB_REGRESS against the
# installed files under qemu-user, the purge). After the suite in the same lane: both install
# into the sysroot. No chroot of the architecture is configured under emulation (tens of minutes
# with nothing cached): what apt does with a package is the same on every architecture, and the
# amd64 packages' jobs test it.
deb_cross() {
	local debs=$tmp/debs-$2
	mkdir -p "$debs"
	if bash scripts/install-deps.sh deb && bash scripts/sysroot.sh --arch "$2" "$1" make -s deb DEB_DIR="$debs"; then
		echo "ok: make deb, cross-built for $2: $(cd "$debs" && ls | tr '\n' ' ')"
	else
		echo "FAILED: make deb, cross-built for $2 (scripts/sysroot.sh)"
		echo "0 passed, 1 failed"
		return
	fi
	IDTYPES_DEB_DIR=$debs counted bash scripts/sysroot.sh --arch "$2" "$1" bash test/deb/deb_install.sh
}

# ---- the lanes ----------------------------------------------------------------------------------
# One per server (its run, then the cross-server tests whose new major it is, then its run as a
# user, then its package test), one for the package test of the host's server (in a chroot of the
# host's release, apart from the host's run), one for fuzzing: each server has a chroot of its own
# (the host's server: the host), so they do not wait on each other; the jobs of one chroot take turns anyway (its lock), so they follow each
# other in its lane. Job ids begin with the lane's number, for the summary's order.

# server_lane <n> <major>
server_lane() {
	local n=$1 v=$2 release where pair old new script
	release=$(release_of "$v")
	if [ -z "$release" ]; then
		printf 'FAILED: no Debian release packages PostgreSQL %s\n0 passed, 1 failed\n' "$v" >"$tmp/$n-0.log"
		printf 'PostgreSQL %s\n' "$v" >"$tmp/$n-0.label"
		echo "$v" >"$tmp/$n-0.major"
		echo 0 >"$tmp/$n-0.secs"
		return
	fi
	# Unit tests: once per release, by its first major on the list.
	local first skip_unit=1
	for first in $versions; do
		[ "$(release_of "$first")" = "$release" ] && break
	done
	[ "$first" = "$v" ] && skip_unit=0
	where=$release
	[ "$release" = "$host_release" ] && where="$release, host"
	! ubsan_for "$v" || where="$where, UBSan"
	job "$n-1" "PostgreSQL $v ($where)" "$v" server "$v" "$skip_unit"
	scripts_for "$v" >"$tmp/$n-1.server" # the summary checks its skips against the list
	for pair in "${cross_pairs[@]}"; do
		read -r old new <<<"$pair"
		[ "$new" = "$v" ] && [[ " $versions " == *" $old "* ]] || continue
		job "$n-2-pg_upgrade" "pg_upgrade $old -> $new ($release chroot)" cross cross "$old" "$new"
	done
	# As a user without root, on the majors of user_majors (after the server's run there, which
	# installed the packages the tests need).
	if [ "${USER_TOO:-0}" = 1 ] && [[ " $user_majors " == *" $v "* ]] && [ "$release" != "$host_release" ]; then
		job "$n-3u" "PostgreSQL $v as a user ($release chroot)" "$v" as_user "$v"
	fi
	# The package test, in the release's chroot: after the server's run there (it removes what
	# that run installed). The host's server runs outside that chroot: its package test has a lane
	# of its own (below).
	if [ "${DEB_TOO:-0}" = 1 ] && [ "$release" != "$host_release" ] && [[ " $deb_unpackaged " != *" $v "* ]]; then
		package_jobs "$n" "$v" "$release chroot"
	fi
}

# with_env <NAME=value...> -- <command...>: the command (a function too) with those variables
# exported (job runs it in a subshell of its own, so they go no further).
with_env() {
	while [ "$1" != -- ]; do
		export "${1?}"
		shift
	done
	shift
	"$@"
}

# arch_lane <n> <arch>: the suite on another architecture, then (DEB_TOO=1, arch_debs) its package.
arch_lane() {
	local n=$1 arch=$2 major scripts release
	read -r major scripts <<<"${arch_lanes[$arch]}"
	release=$(release_of "$major")
	if [ "$arch" = i386 ] && bash scripts/chroot.sh --native i386; then
		# The regression tests' smaller sizes too (the same plans and checks): what i386 tests is
		# the 32-bit Datum, which a fifth of the rows passes as the whole does (80-100 of the lane's
		# 150-190 CPU seconds were the suite at full size).
		job "$n-1" "PostgreSQL $major on $arch ($release chroot, 32-bit, no emulator)" "$major" \
			with_env IDTYPES_SCRIPTS="$scripts" IDTYPES_REGRESS_SMALL=1 IDTYPES_TAP=t/130_concurrency.pl -- bash scripts/chroot.sh --arch "$arch" "$major" \
			make --no-print-directory test
	else
		job "$n-1" "PostgreSQL $major on $arch ($release sysroot, cross-built, qemu-user)" "$major" \
			with_env "${emulated_env[@]}" IDTYPES_SCRIPTS="$scripts" -- bash scripts/sysroot.sh --arch "$arch" "$major" \
			make --no-print-directory test REGRESS_SKIP="${arch_regress_skip[$arch]:-}"
	fi
	if [ "${DEB_TOO:-0}" = 1 ] && [[ " $arch_debs " == *" $arch "* ]]; then
		job "$n-2" "Debian package on PostgreSQL $major on $arch (cross-built, installed by dpkg in its sysroot, qemu-user)" deb \
			with_env "${emulated_env[@]}" IDTYPES_DEB_REGRESS="$deb_regress_subset" -- deb_cross "$major" "$arch"
	fi
}

lanes=()
n=0
for v in $versions; do
	n=$((n + 1))
	lanes+=("server_lane $n $v")
done
arch_list=${ARCH_TOO:-}
[ "$arch_list" = all ] && arch_list=$(printf '%s\n' "${!arch_lanes[@]}" | sort)
if [ -n "$arch_list" ]; then
	for arch in $arch_list; do
		if [ -z "${arch_lanes[$arch]+x}" ]; then
			echo "run_matrix: no lane for architecture $arch (ARCH_TOO); there are: ${!arch_lanes[*]}" >&2
			exit 2
		fi
		n=$((n + 1))
		lanes+=("arch_lane $n $arch")
	done
fi
# The host's server, if it is on the list: its package test has a lane of its own.
host_major=
for v in $versions; do
	if [ "$(release_of "$v")" = "$host_release" ]; then
		host_major=$v
		break
	fi
done
if [ "${DEB_TOO:-0}" = 1 ] && [ -n "$host_major" ]; then
	n=$((n + 1))
	lanes+=("package_jobs $n $host_major '$host_release chroot'")
fi
if [ "${DATES_TOO:-0}" = 1 ] && [ -n "$host_major" ]; then
	n=$((n + 1))
	lanes+=("job $n-1 'PostgreSQL $host_major at two faked instants ($host_release, host)' $host_major dates $host_major")
fi
if [ "${FUZZ_SECONDS_TOO:-0}" -gt 0 ]; then
	n=$((n + 1))
	lanes+=("job $n-1 'fuzzing (${FUZZ_SECONDS_TOO} s per target)' fuzz fuzz")
fi

# ---- CPU seconds per lane ----------------------------------------------------------------------
# Each lane runs in a cgroup of its own (cgroup v1's cpuacct, else v2), which every process it
# starts stays in, servers and chroots included: its CPU seconds are cpuacct.usage (v1) or cpu.stat's
# usage_usec (v2) at its end. Where no cgroup can be made (not root, no cgroup file system), "-".
cgroup_base=
if [ -w /sys/fs/cgroup/cpuacct ] && [ -f /sys/fs/cgroup/cpuacct/cpuacct.usage ]; then
	cgroup_base=/sys/fs/cgroup/cpuacct/idtypes-matrix.$$
elif [ -f /sys/fs/cgroup/cgroup.procs ] && [ -w /sys/fs/cgroup ]; then
	cgroup_base=/sys/fs/cgroup/idtypes-matrix.$$
fi
[ -z "$cgroup_base" ] || mkdir -p "$cgroup_base" 2>/dev/null || cgroup_base=
# lane_cpu_join <i>: this shell (and all it starts from now on) into lane i's cgroup.
# IDTYPES_CPU_FILE: the file that counts it, for test/run_tests.sh's CPU seconds per step
# (scripts/chroot.sh shows it inside a chroot).
lane_cpu_join() {
	[ -n "$cgroup_base" ] || return 0
	local g=$cgroup_base/lane-$1
	mkdir -p "$g" 2>/dev/null && echo "$BASHPID" >"$g/cgroup.procs" 2>/dev/null || return 0
	if [ -f "$g/cpuacct.usage" ]; then
		export IDTYPES_CPU_FILE=$g/cpuacct.usage
	elif [ -f "$g/cpu.stat" ]; then
		export IDTYPES_CPU_FILE=$g/cpu.stat
	fi
}
# lane_cpu <i>: lane i's CPU seconds so far, or "-".
lane_cpu() {
	local g=$cgroup_base/lane-$1 ns
	if [ -n "$cgroup_base" ] && [ -f "$g/cpuacct.usage" ]; then
		ns=$(cat "$g/cpuacct.usage") && echo $((ns / 1000000000)) && return
	elif [ -n "$cgroup_base" ] && [ -f "$g/cpu.stat" ]; then
		ns=$(sed -n 's/^usage_usec //p' "$g/cpu.stat") && echo $((ns / 1000000)) && return
	fi
	echo -
}
lane_cpu_cleanup() {
	[ -n "$cgroup_base" ] || return 0
	rmdir "$cgroup_base"/lane-* "$cgroup_base" 2>/dev/null || true
}

# run_lane <i>: lane i, its output into $tmp/lane-<i>.out, its wall and CPU seconds beside it.
run_lane() {
	local start=$SECONDS
	(
		lane_cpu_join "$1"
		eval "${lanes[$1]}"
		echo $((SECONDS - start)) >"$tmp/lane-$1.wall"
		lane_cpu "$1" >"$tmp/lane-$1.cpu"
	) >"$tmp/lane-$1.out" 2>&1
}

exec 3>&1
if [ "${IDTYPES_MATRIX_SERIAL:-0}" = 1 ]; then
	for i in "${!lanes[@]}"; do
		run_lane "$i"
		cat "$tmp/lane-$i.out"
	done
else
	pids=()
	for i in "${!lanes[@]}"; do
		run_lane "$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in "${!lanes[@]}"; do
		cat "$tmp/lane-$i.out"
	done
fi
lane_cpu_cleanup

# ---- summary ------------------------------------------------------------------------------------

passed=0
failed=0
skipped=0
report=()
timing=()
# What failed, each line with its lane, printed again just above the last line: a CI log is often
# read from its tail alone.
failures=()

# add <label> <major> <log>: add the run's closing line, note what failed, check what skipped.
add() {
	local label=$1 major=$2 log=$3 server_run=$4 line p f s name key
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		report+=("$label: no summary line (the run broke off)")
		failures+=("$label: no summary line (the run broke off)")
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
			failures+=("$label: $what")
		done < <(grep -E '^run_tests: FAILED|^run_matrix: FAILED|^not ok [0-9]+ |\.\.\. FAILED|^FAILED' "$log")
	fi
	# Skips: each must be on the list for this major, and each listed one must have skipped.
	while IFS= read -r name; do
		if [ -n "${may_skip[$major:$name]+x}" ]; then
			report+=("    skipped as expected: $name (${may_skip[$major:$name]})")
		else
			failed=$((failed + 1))
			report+=("    FAILED: $name said it does not apply, which is not expected on $major")
			failures+=("$label: $name said it does not apply")
		fi
	done < <(sed -n 's|^run_tests: SKIPPED: \([^ ]*\).*|\1|p' "$log" | xargs -r -n1 basename | sort -u)
	# A server's own run must have skipped each listed one that it ran.
	[ -n "$server_run" ] || return
	for key in "${!may_skip[@]}"; do
		[ "${key%%:*}" = "$major" ] || continue
		name=${key#*:}
		[[ " $server_run " == *" $name "* ]] || continue
		if ! grep -qE "^run_tests: SKIPPED: .*/$name( |$)" "$log"; then
			failed=$((failed + 1))
			report+=("    FAILED: $name was expected not to apply on $major, but it ran: update the list")
			failures+=("$label: $name ran where it was expected not to apply")
		fi
	done
}

for log in $(ls "$tmp"/*.log 2>/dev/null | sort -V); do
	id=${log%.log}
	label=$(cat "$id.label")
	add "$label" "$(cat "$id.major")" "$log" "$(cat "$id.server" 2>/dev/null)"
	timing+=("$(printf '%5d s  %s' "$(cat "$id.secs")" "$label")")
done

# lane_steps <i>: lane i's steps, "<seconds>\t<name>\t<CPU seconds>", from its output:
# test/run_tests.sh's stage times, the chroot or sysroot made and the packages installed (no CPU
# seconds), and each job that has no stage times of its own (a package test, fuzzing); the job's
# label before a step where the lane has more.
lane_steps() {
	awk -v jobs="$(grep -c '^######## ' "$tmp/lane-$1.out")" '
	function step(secs, name, cpu) { print secs "\t" (jobs > 1 ? job " > " : "") name "\t" cpu; inner[job] = 1 }
	/^######## / { job = substr($0, 10); sub(/ \(.*/, "", job); next }
	/^ *[0-9]+ s  [^ ]/ && job != "" {
		secs = $1; sub(/^ *[0-9]+ s  /, "")
		cpu = ""
		if (match($0, /  \(CPU [0-9]+ s\)$/)) { cpu = substr($0, RSTART + 7); sub(/ s\)$/, "", cpu); $0 = substr($0, 1, RSTART - 1) }
		sub(/^script test\/scripts\//, ""); sub(/^regression tests .*/, "regression tests")
		sub(/^build, check-sql, check-abi, install$/, "build and install")
		if ($0 != "summary") step(secs, $0, cpu)
		next
	}
	/^(chroot|sysroot)\.sh\[[^]]*\]: made in [0-9]+ s$/ {
		slot = $0; sub(/\]: .*/, "", slot); sub(/^[^[]*\[/, "", slot)
		secs = $0; sub(/.* made in /, "", secs); sub(/ s$/, "", secs)
		step(secs, "making " (substr($0, 1, 1) == "c" ? "chroot " : "sysroot ") slot)
	}
	/^chroot\.sh\[[^]]*\]: packages for PostgreSQL [0-9]+ ready in [0-9]+ s$/ {
		secs = $0; sub(/.* ready in /, "", secs); sub(/ s$/, "", secs)
		step(secs, "packages installed")
	}' "$tmp/lane-$1.out"
	local id
	for id in "$tmp/$(($1 + 1))"-*.secs; do
		[ -f "$id" ] || continue
		id=${id%.secs}
		# A job with no stage times inside: the job is the step.
		grep -qE '^ *[0-9]+ s  [^ ]' "$id.log" ||
			printf '%s\t%s\t%s\n' "$(cat "$id.secs")" "$(cat "$id.label")" "$(cat "$id.cpu" 2>/dev/null)"
	done
}

printf '\n######## matrix summary\n'
printf '%s\n' "${timing[@]}"
printf '\nLanes (at once; CPU: every process of the lane, servers included):\n\n'
# The five steps of the most CPU seconds (wall seconds where a step has none counted), each as
# "<name> <wall>/<CPU>".
printf '| lane | wall s | CPU s | its five costliest steps (wall/CPU s) |\n|---|---:|---:|---|\n'
for i in "${!lanes[@]}"; do
	[ -f "$tmp/lane-$i.wall" ] || continue
	first=$(ls "$tmp/$((i + 1))"-*.label 2>/dev/null | sort -V | head -n 1)
	printf '| %s | %s | %s | %s |\n' "$([ -n "$first" ] && cat "$first" || echo "lane $i")" \
		"$(cat "$tmp/lane-$i.wall")" "$(cat "$tmp/lane-$i.cpu")" \
		"$(lane_steps "$i" | awk -F '\t' '{ print ($3 == "" ? $1 : $3) "\t" $0 }' | sort -t $'\t' -k1,1nr | head -n 5 |
			awk -F '\t' '{ printf "%s%s %s%s", (NR > 1 ? ", " : ""), $3, $2, ($4 == "" ? "" : "/" $4) }')"
done
printf '%s\n' "${report[@]}"
if [ "${#failures[@]}" -gt 0 ]; then
	printf '\nWhat failed:\n'
	printf '  %s\n' "${failures[@]}"
fi
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
