#!/usr/bin/env bash
# overflow_wait.sh: a generator waiting out an overflow sleeps, visibly, and can be cancelled.
#
# With idtypes.test_counter_bits = 2 a millisecond holds four xids, so one statement asking for
# 20,000 takes about 5 s, nearly all of it waiting. While it runs: its backend uses under half a
# CPU core (its utime + stime from /proc over one second), pg_stat_activity shows it in the wait event
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

# slow <n>: one statement of n xids, at a few per millisecond, in a session that first writes its
# backend's pid to $work/pid (removed by the caller before it starts this in the background, so
# that pid_of_slow never reads an earlier session's).
slow() {
	psql_q -d "$db" >"$work/slow.out" 2>&1 <<SQL
SET idtypes.test_counter_bits = 2;
SET idtypes.on_overflow = 'wait';
SELECT pg_backend_pid() \g $work/pid.tmp
\! mv $work/pid.tmp $work/pid
SELECT count(DISTINCT id) FROM (SELECT generate_xid() AS id FROM generate_series(1, $1)) s;
SQL
}
# pid_of_slow: the slow session's backend, once it is about to run its statement.
pid_of_slow() {
	local i
	for i in $(seq 1 100); do
		if [ -s "$work/pid" ]; then
			tr -d ' \n' <"$work/pid"
			return
		fi
		sleep 0.05
	done
}
# ticks <pid>: the process's CPU time so far (user + system, in clock ticks), or nothing once it
# is gone.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || true; }

# 200,000 xids: 50 s of overflows, cancelled once measured (the checks below take a second and a
# half on an idle machine, many more on a loaded one: fewer xids could end before them).
rm -f "$work/pid"
slow 200000 &
bg=$!
pid=$(pid_of_slow)
if [ -z "$pid" ]; then
	bad "the slow statement did not start"
	finish 3
fi
sleep 0.2
t0=$(ticks "$pid")
if [ -z "$t0" ]; then
	bad "the slow statement's backend $pid ended within 0.2 s: $(cat "$work/slow.out")"
	finish 3
fi
events=
for i in $(seq 1 10); do
	events+=$(psql_q -d "$db" -c "SELECT coalesce(wait_event_type, '-') || '/' || coalesce(wait_event, '-') FROM pg_stat_activity WHERE pid = $pid")$'\n'
	sleep 0.1
done
t1=$(ticks "$pid")
if [ -z "$t1" ]; then
	bad "the slow statement's backend $pid ended before its wait was sampled: $(cat "$work/slow.out")"
	finish 3
fi
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
psql_q -d "$db" -c "SELECT pg_cancel_backend($pid)" >/dev/null
wait "$bg" || true
bg=

# A cancel ends the wait.
rm -f "$work/pid"
slow 200000 &
bg=$!
pid=$(pid_of_slow)
# Cancel once the statement runs (a cancel of the session between statements does nothing).
for i in $(seq 1 100); do
	[ "$(psql_q -d "$db" -c "SELECT count(*) FROM pg_stat_activity WHERE pid = $pid AND state = 'active' AND query LIKE '%generate_series%'")" = 1 ] && break
	sleep 0.05
done
sleep 0.2
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
