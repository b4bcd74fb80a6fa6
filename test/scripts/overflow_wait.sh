#!/usr/bin/env bash
# overflow_wait.sh: a generator waiting out an overflow sleeps, visibly, and can be cancelled.
#
# With idtypes.test_counter_bits = 2 a millisecond holds a few xids, so one statement asking for
# 6,000 waits about 1.5 s in all. While it runs: its backend uses under half a CPU core (its
# utime + stime from /proc over one second), pg_stat_activity shows it in the wait event
# IdtypesGeneratorOverflow (type Extension; on 15 and 16 the shared event Extension), and
# pg_cancel_backend() ends the wait with 57014.
#
# Run by test/run_tests.sh (PGHOST/PGPORT/PGUSER/PGBIN set, a superuser: the test setting is
# superuser-only).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/report.sh"

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
db=idt_overflow_$$
work=$(mktemp -d)
psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
cleanup() {
	[ -z "${bg:-}" ] || kill "$bg" 2>/dev/null || true
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
psql_q -d postgres -c "CREATE DATABASE $db"
psql_q -d "$db" -c "CREATE EXTENSION idtypes"
major=$("$PGBIN/postgres" --version | sed -E 's/^[^0-9]*([0-9]+).*/\1/')
if [ "$major" -ge 17 ]; then want_event=IdtypesGeneratorOverflow; else want_event=Extension; fi

# slow <n>: one statement of n xids, at a few per millisecond.
slow() {
	PGAPPNAME=idt_overflow psql_q -d "$db" -c "SET idtypes.test_counter_bits = 2" \
		-c "SET idtypes.on_overflow = 'wait'" \
		-c "SELECT count(DISTINCT id) FROM (SELECT generate_xid() AS id FROM generate_series(1, $1)) s" \
		>"$work/slow.out" 2>&1
}
# pid_of_slow: the waiting backend, once its statement runs.
pid_of_slow() {
	local pid= i
	for i in $(seq 1 50); do
		pid=$(psql_q -d "$db" -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'idt_overflow' AND query LIKE '%generate_series%' AND state = 'active'")
		[ -z "$pid" ] || break
		sleep 0.1
	done
	echo "$pid"
}
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

slow 6000 &
bg=$!
pid=$(pid_of_slow)
if [ -z "$pid" ]; then
	bad "the slow statement did not start"
	finish 3
fi
sleep 0.2
t0=$(ticks "$pid")
events=
for i in $(seq 1 10); do
	events+=$(psql_q -d "$db" -c "SELECT coalesce(wait_event_type, '-') || '/' || coalesce(wait_event, '-') FROM pg_stat_activity WHERE pid = $pid")$'\n'
	sleep 0.1
done
t1=$(ticks "$pid")
hz=$(getconf CLK_TCK)
used=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.2f", (b - a) / hz }')
if awk -v u="$used" 'BEGIN { exit !(u < 0.5) }'; then
	ok "a backend waiting out overflows used $used s of CPU in 1 s (under half a core)"
else
	bad "a backend waiting out overflows used $used s of CPU in 1 s"
fi
if grep -qx "Extension/$want_event" <<<"$events"; then
	ok "pg_stat_activity shows it waiting in Extension/$want_event ($(grep -cx "Extension/$want_event" <<<"$events") of 10 samples)"
else
	bad "pg_stat_activity never showed Extension/$want_event: $(sort <<<"$events" | uniq -c | tr '\n' ' ')"
fi
wait "$bg" || true
bg=

# A cancel ends the wait.
slow 200000 &
bg=$!
pid=$(pid_of_slow)
sleep 0.3
psql_q -d "$db" -c "SELECT pg_cancel_backend($pid)" >/dev/null
start=$SECONDS
wait "$bg" || true
bg=
if grep -q "canceling statement due to user request" "$work/slow.out" && [ $((SECONDS - start)) -le 5 ]; then
	ok "pg_cancel_backend() ends an overflow wait"
else
	bad "the cancel did not end the wait: $(cat "$work/slow.out")"
fi
finish 3
