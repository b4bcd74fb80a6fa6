#!/usr/bin/env bash
# dates.sh: the regression suite, the isolation specs, the TAP tests and the scripts that read the
# clock, run with every process's clock (initdb, the servers, psql, the scripts' shells) moved to a
# chosen instant and the servers' TimeZone set to a chosen zone, so that a test that holds only on
# some dates fails here instead of on the first day of a month.
#
#   test/dates.sh                        every instant of the list below
#   test/dates.sh --near                 the next two instants that catch a test written against
#                                        today's month or year (CI's step): the coming month's
#                                        first half hour in UTC, and this year's last half hour in
#                                        America/Los_Angeles (pg_regress's sessions' zone), which is
#                                        the next year's first hour in UTC
#   test/dates.sh 'UTC 2027-01-01 00:30' 'America/New_York 2027-03-14 03:30' ...
#
# An instant is "[zone] date" as GNU date(1) reads the date, in the zone (UTC when none is named).
# That zone is the servers' TimeZone (initdb reads TZ) and the scripts'; pg_regress sets its own
# sessions' TimeZone (America/Los_Angeles), and tests that need another one set it themselves.
# The clock is libfaketime's (Debian package libfaketime) with a relative offset: it runs on from
# the instant, and every process of a run shares it. Exit status 77 without libfaketime.
#
# Environment: PG_CONFIG (the server; the extension must be installed there or be installable by
# test/run_tests.sh), IDTYPES_DATES_SCRIPTS (the scripts to run at each instant; default the ones
# below; "" none), IDTYPES_DATES_TAP (0: not the TAP tests of t/, which run by default),
# IDTYPES_REGRESS_SMALL (as for run_tests.sh), IDTYPES_DATES_LOGS (a directory
# that keeps each instant's whole output), IDTYPES_DATES_TODAY (see --near). Ends with one
# "N passed, N failed, N skipped" line over every instant.
set -uo pipefail
trap '' PIPE

cd "$(dirname "$0")/.." || exit 1
. test/lib/faketime.sh
faketime_required

# The instants: a month's first half hour and a year's last hour (in UTC, and in the zones of
# pg_regress's sessions and of the tests that set one), a leap day, both daylight saving time
# changes in America/New_York and Europe/Berlin at about 02:30 local (in spring 02:30 does not
# exist: the hour after it), a date years ahead, one after uid11's xid payload passes 2^63 (xid
# times from 2081-07-24 on are negative as a bigint), and the last minute of the century.
default_instants=(
	'UTC 2026-12-01 00:30'
	'America/Los_Angeles 2027-02-01 00:30'
	'UTC 2026-12-31 23:30'
	'UTC 2027-01-01 00:30'
	'America/New_York 2027-01-01 00:30'
	'Europe/Berlin 2027-01-01 00:30'
	'UTC 2028-02-29 12:00'
	'America/New_York 2027-03-14 03:30'
	'America/New_York 2027-11-07 02:30'
	'Europe/Berlin 2027-03-28 03:30'
	'Europe/Berlin 2027-10-31 02:30'
	'UTC 2030-06-15 12:00'
	'UTC 2081-07-25 12:00'
	'UTC 2099-12-31 23:59'
)
# The scripts that read the clock: generators, time windows and the floor the clock steps.
default_scripts="sql_edition.sh client_ids.sh"
scripts=${IDTYPES_DATES_SCRIPTS-$default_scripts}
read -ra list <<<"$(tr '\n' ' ' <<<"$scripts")"
scripts=${list[*]}

if [ "${1:-}" = --near ]; then
	# IDTYPES_DATES_TODAY: the day --near counts from (today by default), to show what the step
	# would have caught on another day.
	today=${IDTYPES_DATES_TODAY:-now}
	set -- "UTC $(date -u -d "$(date -u -d "$today" +%Y-%m-01) +1 month" +%Y-%m-%d) 00:30" \
		"America/Los_Angeles $(TZ=America/Los_Angeles date -d "$today" +%Y)-12-31 23:30"
fi
[ $# -gt 0 ] || set -- "${default_instants[@]}"

lib=$(faketime_lib)
faketime_shared || exit 1
trap faketime_shared_remove EXIT
passed=0
failed=0
skipped=0
failures=()
for instant in "$@"; do
	zone=UTC
	when=$instant
	case $instant in
	[A-Z]*/*\ * | UTC\ *)
		zone=${instant%% *}
		when=${instant#* }
		;;
	esac
	if ! target=$(TZ=$zone date -d "$when" +%s); then
		echo "dates.sh: cannot read the instant '$instant'"
		failed=$((failed + 1))
		continue
	fi
	offset=$((target - $(date +%s)))
	printf '\n##### %s (%s; clock offset %+d s)\n' "$when" "$zone" "$offset"
	log=$(mktemp)
	# FAKETIME_DONT_FAKE_MONOTONIC: the monotonic clock stays true (an offset of decades before
	# the machine's start would make it negative). IDTYPES_FAKETIME_BASE: the scripts and TAP
	# tests that step a server's clock themselves (test/lib/faketime.sh, t/IdtypesNode.pm) step
	# it from the instant.
	LD_PRELOAD=$lib FAKETIME=$(printf '%+d' "$offset") FAKETIME_DONT_FAKE_MONOTONIC=1 \
		IDTYPES_FAKETIME_BASE=$offset TZ=$zone IDTYPES_SKIP_UNIT=1 IDTYPES_SCRIPTS="$scripts" \
		IDTYPES_TAP=${IDTYPES_DATES_TAP:-1} \
		bash test/run_tests.sh >"$log" 2>&1
	status=$?
	# What failed or skipped, and the run's summary.
	grep -E '^run_tests: (FAILED|SKIPPED)|^ok: the server|^[0-9]+ passed' "$log"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		tail -n 40 "$log"
		failed=$((failed + 1))
		failures+=("$instant: no summary")
	else
		read -r p _ f _ s _ <<<"${line//,/}"
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + ${s:-0}))
		if [ "$f" -gt 0 ] || [ "$status" -ne 0 ]; then
			failures+=("$instant: $line")
			sed -n '/^=== regression.diffs/,/^=== /p' "$log" | head -n 200
		fi
	fi
	if [ -n "${IDTYPES_DATES_LOGS:-}" ]; then
		mkdir -p "$IDTYPES_DATES_LOGS"
		mv "$log" "$IDTYPES_DATES_LOGS/$(tr ' /:' '__-' <<<"$instant").log"
	fi
	rm -f "$log"
done
echo
for f in "${failures[@]}"; do
	echo "dates.sh: FAILED at $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
