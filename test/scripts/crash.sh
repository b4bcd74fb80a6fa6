#!/usr/bin/env bash
# crash.sh: a backend killed with SIGKILL while four sessions generate IDs: crash restart keeps
# every committed ID, and the generators go on without a duplicate.
#
# One cluster with shared_preload_libraries = 'idtypes' and restart_after_crash = on. Four psql
# sessions insert, in small transactions, one ID of each kind (generate_xid(), generate_tid(),
# generate_ulidflake(), generate_ulid_monotonic(), generate_euid()) into five tables whose ID is
# the primary key, and after each COMMIT print the IDs the server acknowledged. While they run,
# one of their backends (found in pg_stat_activity) is killed with kill -9; the postmaster
# terminates the others and reinitializes (shared memory included: the generator state too).
# After the restart:
#   - every acknowledged transaction's IDs are in their tables with the session and number it
#     gave, the transactions are atomic (the same (session, number) pairs in all five tables),
#     and per session at most the one transaction in flight is there without an acknowledgement;
#   - four sessions again make CRASH_TX (default 300) transactions each, all succeed;
#   - every ID made after the restart is greater than every ID made before it, for all five
#     kinds (each is time-ordered and the clock moved on), and no ID occurs twice.
# Each session has committed CRASH_BEFORE (default 200) transactions before the kill. Under
# qemu-user test/run_matrix.sh sets CRASH_BEFORE=50 and CRASH_TX=60 (the generators' state after
# the restart shows in the first IDs it makes; with the defaults it took 55-71 CPU seconds there).
# Then the same again without preload: on PostgreSQL 17+ the state lives in the DSM registry, which
# the crash restart recreates; on 13-16 it is per backend.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Port PGPORT+56.
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"

TX=${CRASH_TX:-300}
BEFORE=${CRASH_BEFORE:-200}
TIMEOUT=${CRASH_TIMEOUT:-60}
SESSIONS=4
nodes_workdir
major=$(server_major)
dir=$work/n port=$((PGPORT + 56))
Q() { node_psql "$dir" "$port" -d crash "$@"; }
KINDS="xid:uid11:generate_xid() tid:timeid:generate_tid() ulidflake:ulidflake:generate_ulidflake()
ulid:ulid:generate_ulid_monotonic() euid:euid:generate_euid()"

. "$(dirname "$0")/../lib/report.sh"
check() { # check <what> <sql returning t>
	local got
	got=$(Q -c "$2" 2>&1) || true
	if [ "$got" = t ]; then ok "$1"; else bad "$1 (got '$got')"; fi
}

# client_script <session> <phase> <transactions>: psql input; after each COMMIT, "s i ids...".
client_script() {
	awk -v s="$1" -v ph="$2" -v n="$3" -v kinds="$KINDS" 'BEGIN {
		nk = split(kinds, k, /[ \n]+/)
		for (i = 1; i <= n; i++) {
			print "BEGIN;"
			ack = "\\echo " s " " i
			for (j = 1; j <= nk; j++) {
				split(k[j], part, ":")
				printf "INSERT INTO c_%s VALUES (%s, %d, %d, %d) RETURNING id AS %s \\gset\n", part[1], part[3], s, i, ph, part[1]
				ack = ack " :" part[1]
			}
			print "COMMIT;"
			print ack
		}
	}' 2>/dev/null
}

# wait_gone <seconds> <pids...>: wait for the processes to end (kill them after the timeout).
wait_gone() {
	local deadline=$((SECONDS + $1)) p
	shift
	for p in "$@"; do
		while kill -0 "$p" 2>/dev/null; do
			if [ $SECONDS -ge $deadline ]; then
				bad "client $p still running after the crash; stopping it"
				kill "$p" 2>/dev/null || true
				break
			fi
			sleep 0.1
		done
		wait "$p" 2>/dev/null || true
	done
}

# round <label> <expected generator scope> [postgres options...]
round() {
	local label=$1 scope=$2 s pids=() k kind ty logpos newlog deadline victim n status
	shift 2
	node_stop "$dir" "$port"
	node_start "$dir" "$port" -c restart_after_crash=on "$@"
	node_psql "$dir" "$port" -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS crash" \
		-c "CREATE DATABASE crash"
	Q -c "CREATE EXTENSION idtypes"
	for k in $KINDS; do
		IFS=: read -r kind ty _ <<<"$k"
		Q -c "CREATE TABLE c_$kind (id $ty PRIMARY KEY, s int NOT NULL, i int NOT NULL, phase int NOT NULL)"
	done
	check "$label: generator scope is $scope" "SELECT idtypes_generator_scope() = '$scope'"

	# Phase 1: four sessions until the crash.
	for ((s = 1; s <= SESSIONS; s++)); do
		client_script "$s" 1 1000000 |
			PGAPPNAME=crash_client_$s node_psql "$dir" "$port" -d crash >"$work/ack1-$s" 2>"$work/err1-$s" &
		pids+=($!)
	done
	deadline=$((SECONDS + TIMEOUT))
	for ((s = 1; s <= SESSIONS; s++)); do
		until [ "$(wc -l <"$work/ack1-$s")" -ge "$BEFORE" ]; do
			if [ $SECONDS -ge $deadline ] || ! kill -0 "${pids[s - 1]}" 2>/dev/null; then
				bad "$label: session $s did not commit $BEFORE transactions: $(cat "$work/err1-$s")"
				break
			fi
			sleep 0.1
		done
	done
	sleep 2
	logpos=$(stat -c %s "$dir/server.log")
	victim=$(Q -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'crash_client_2' AND datname = 'crash'")
	if [ -z "$victim" ]; then
		bad "$label: no backend of session 2 in pg_stat_activity"
		return
	fi
	if ! kill -9 "$victim"; then
		bad "$label: backend $victim of session 2 was gone before the kill; session 2 said: $(cat "$work/err1-2")"
		return
	fi
	wait_gone 30 "${pids[@]}"
	# The postmaster notices, terminates the other backends, reinitializes and accepts again.
	deadline=$((SECONDS + TIMEOUT))
	until Q -c "SELECT 1" >/dev/null 2>&1; do
		if [ $SECONDS -ge $deadline ]; then
			bad "$label: the server did not accept connections $TIMEOUT s after the crash"
			tail -n 20 "$dir/server.log"
			return
		fi
		sleep 0.2
	done
	# Read into a variable first: `tail | grep -q` fails under pipefail when grep stops reading early
	# and tail, still writing a grown log, dies of SIGPIPE (or gets EPIPE).
	newlog=$(tail -c +$((logpos + 1)) "$dir/server.log")
	if grep -qF "(PID $victim) was terminated by signal 9" <<<"$newlog" &&
		grep -qF "all server processes terminated; reinitializing" <<<"$newlog"; then
		ok "$label: backend $victim killed with SIGKILL, the server reinitialized and accepts connections again"
	else
		bad "$label: the server log does not show the crash restart:"
		tail -n 20 <<<"$newlog"
	fi
	n=0
	for ((s = 1; s <= SESSIONS; s++)); do
		grep -q 'connection' "$work/err1-$s" && n=$((n + 1))
	done
	echo "$label: sessions that lost their connection in the crash: $n of $SESSIONS"

	# What the clients saw acknowledged is there. An acknowledgement is a line of the \echo after a
	# COMMIT: the session's number, the transaction's and five IDs. A client's output can hold one
	# other line, written as its connection broke: an INSERT's RETURNING row that reached it just
	# before the server's FATAL message is not the last result of its query, and psql prints such
	# a result where \gset would have stored the last (SHOW_ALL_RESULTS, PostgreSQL 15+). Seen
	# under qemu-user, where the row and the message arrive far enough apart.
	for ((s = 1; s <= SESSIONS; s++)); do
		awk -v s="$s" '$1 == s && NF == 7' "$work/ack1-$s"
	done >"$work/ack1"
	echo "$label: acknowledged transactions: $(wc -l <"$work/ack1"); other lines of the clients' output:" \
		"$(($(cat "$work"/ack1-* | wc -l) - $(wc -l <"$work/ack1")))"
	if ! Q -c "CREATE TABLE ack (s int, i int, xid uid11, tid timeid, ulidflake ulidflake, ulid ulid, euid euid)" ||
		! Q -c "COPY ack FROM STDIN (DELIMITER ' ')" <"$work/ack1"; then
		bad "$label: the acknowledgements could not be loaded; their last lines:"
		tail -n 2 "$work"/ack1-*
		return
	fi
	for k in $KINDS; do
		kind=${k%%:*}
		check "$label: $kind: every acknowledged ID survived the crash with its session and number" \
			"SELECT count(*) > 0 AND bool_and(EXISTS (SELECT 1 FROM c_$kind c WHERE c.id = a.$kind AND c.s = a.s AND c.i = a.i)) FROM ack a"
		[ "$kind" = xid ] && continue
		check "$label: $kind: transactions are atomic (the same rows as c_xid)" \
			"SELECT NOT EXISTS ((SELECT s, i FROM c_xid EXCEPT SELECT s, i FROM c_$kind) UNION ALL (SELECT s, i FROM c_$kind EXCEPT SELECT s, i FROM c_xid))"
	done
	check "$label: per session, at most the transaction in flight committed without acknowledgement" \
		"SELECT coalesce(bool_and(n <= 1 AND (n = 0 OR unacked = acked + 1)), false) FROM (
			SELECT c.s, count(*) FILTER (WHERE a.s IS NULL) AS n, max(c.i) FILTER (WHERE a.s IS NULL) AS unacked,
			       (SELECT max(i) FROM ack WHERE ack.s = c.s) AS acked
			FROM c_xid c LEFT JOIN ack a USING (s, i) GROUP BY c.s) x"

	# Phase 2: the generators go on.
	pids=()
	for ((s = 1; s <= SESSIONS; s++)); do
		client_script "$s" 2 "$TX" | node_psql "$dir" "$port" -d crash >"$work/ack2-$s" 2>"$work/err2-$s" &
		pids+=($!)
	done
	status=0
	for ((s = 1; s <= SESSIONS; s++)); do
		wait "${pids[s - 1]}" || { status=1; echo "session $s: $(cat "$work/err2-$s")"; }
	done
	if [ $status -eq 0 ]; then ok "$label: after the restart $SESSIONS sessions made $TX transactions each without error"; else bad "$label: a session failed after the restart"; fi
	check "$label: generator scope is still $scope" "SELECT idtypes_generator_scope() = '$scope'"
	for k in $KINDS; do
		kind=${k%%:*}
		check "$label: $kind: $((SESSIONS * TX)) IDs after the restart, all greater than the $(Q -c "SELECT count(*) FROM c_$kind WHERE phase = 1") before it" \
			"SELECT count(*) FILTER (WHERE phase = 2) = $((SESSIONS * TX)) AND min(id) FILTER (WHERE phase = 2) > max(id) FILTER (WHERE phase = 1) FROM c_$kind"
		check "$label: $kind: no ID twice" "SELECT count(*) = count(DISTINCT id) FROM c_$kind"
	done
}

start=$SECONDS
round "preloaded" cluster -c "$(preload_setting)"
echo "round 1: $((SECONDS - start)) s"
t=$SECONDS
if [ "$major" -ge 17 ]; then
	round "DSM registry (no preload)" cluster
else
	round "per backend (no preload)" backend
fi
echo "round 2: $((SECONDS - t)) s"
echo "crash.sh on PostgreSQL $major: $((SECONDS - start)) s"
# Per round: the scope twice, the crash restart, 5 kinds survived, 4 atomic, the one in flight,
# the sessions after the restart, 5 kinds greater and 5 without a duplicate.
finish $((2 * 24))
