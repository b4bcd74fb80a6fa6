#!/usr/bin/env bash
# restart_floor.sh: no monotonic generator repeats a committed ID across a crash, a clean restart
# or the promotion of a physical standby, when the server's clock is behind after it.
#
# The servers run under libfaketime (test/lib/faketime.sh). Per scope (preloaded: 'cluster'; not
# preloaded: 'backend' on 15-16, 'cluster' on 17+), one cluster:
#   run 1 at the true time; the server killed (pg_ctl stop -m immediate);
#   run 2 with its clock 7 s behind; a clean stop (-m fast);
#   run 3 with its clock 180 s behind.
# A run is one session generating IDs of every monotonic kind for RUN_SECONDS, committing each
# batch (TIDs in bulk: 20,000 a statement, so TID runs ahead of its clock). Then, per kind: no ID
# occurs twice in the three runs, each run's IDs all sort after the run before's, and run 3's span
# more than a quarter of its seconds (the generators go on while the clock is behind, at half its
# rate; they are not stuck in one time unit). Run 3 lasts 3 * RUN_SECONDS: xid's unit is a second,
# and a loop of two seconds whose batches are slow on a loaded machine makes its first and last
# xid less than two seconds apart, less than one second of time at half the rate.
# Then a primary and a streaming standby: run 1 on the primary, the standby replays it, the
# primary is killed, the standby's clock steps 7 s back and it is promoted, run 2 on it: again no
# ID twice, and run 2 after run 1. The same after the primary's clock stepped back 5 s while it
# generated, and after it ran 6 s fast while it generated and then stepped back before one more
# commit (both scopes); no promotion warns (failover(), below). Last, the edge of a reservation
# that ends inside the millisecond of the last IDs before a crash (edge(), below).
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Ports PGPORT+60..63, 66..71.
# Exit status 77 when libfaketime is not installed.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/kinds.sh"
. "$here/../lib/report.sh"
. "$here/../lib/faketime.sh"

faketime_required

RUN_SECONDS=${RESTART_RUN_SECONDS:-2}
TIMEOUT=60
nodes_workdir
major=$(server_major)
# The monotonic kinds of test/lib/kinds.sh (generate_ulid() is not monotonic; ulidflake(sid) steps
# as ulidflake does).
KINDS="xid tid ulidflake ulid_mono euid euid_ext"
kill_node() { node_as_server_user "$PGBIN/pg_ctl" -D "$1/data" -m immediate -w stop >/dev/null; }

# setup <dir> <port>: the database and one table per kind.
setup() {
	node_psql "$1" "$2" -d postgres -c "CREATE DATABASE fl"
	{
		echo "CREATE EXTENSION idtypes;"
		for k in $KINDS; do
			echo "CREATE TABLE r_$k (run int NOT NULL, id $(type_of "$k") NOT NULL);"
		done
	} | node_psql "$1" "$2" -d fl
}

# run <dir> <port> <run number> [seconds]: generate for RUN_SECONDS (or the seconds given), one
# committed transaction per batch.
run() {
	local k inserts= seconds=${4:-$RUN_SECONDS}
	for k in $KINDS; do
		if [ "$k" = tid ]; then
			inserts+="INSERT INTO r_tid SELECT $3, generate_tid() FROM generate_series(1, 20000);"$'\n'
		else
			inserts+="INSERT INTO r_$k SELECT $3, $(gen_of "$k") FROM generate_series(1, 500);"$'\n'
		fi
	done
	node_psql "$1" "$2" -d fl <<SQL
DO \$\$
DECLARE
	until_ts timestamptz := clock_timestamp() + interval '$seconds seconds';
BEGIN
	WHILE clock_timestamp() < until_ts LOOP
		$inserts
		COMMIT;
	END LOOP;
END \$\$;
SQL
}

# lag <dir> <port>: how many seconds the server's clock is behind this shell's.
lag() {
	local server
	server=$(node_psql "$1" "$2" -d fl -c "SELECT extract(epoch FROM clock_timestamp())")
	awk -v s="$server" -v c="$(date +%s.%N)" 'BEGIN { printf "%.0f", c - s }'
}

# check <label> <dir> <port> <runs>: per kind, no ID twice, each run after the one before.
check() {
	local label=$1 dir=$2 port=$3 runs=$4 k got
	for k in $KINDS; do
		got=$(node_psql "$dir" "$port" -d fl -c "
			SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT run) || ' ' ||
			       coalesce((SELECT bool_and(lo > prev_hi) FROM (
			           SELECT min(id) AS lo, lag(max(id)) OVER (ORDER BY run) AS prev_hi
			           FROM r_$k GROUP BY run) s WHERE prev_hi IS NOT NULL), false)
			FROM r_$k")
		read -r n distinct nruns ordered <<<"$got"
		if [ "$n" -gt 0 ] && [ "$n" = "$distinct" ] && [ "$nruns" = "$runs" ] && [ "$ordered" = true ]; then
			ok "$label: $k: $n IDs in $runs runs, none twice, each run after the one before"
		else
			bad "$label: $k: $n IDs, $distinct distinct, $nruns of $runs runs, each run after the one before: $ordered"
		fi
	done
}

# progress <label> <dir> <port> <run> <seconds>: the run's xid and ulid times span more than a
# quarter of its seconds (while the clock is behind they run at half its rate).
progress() {
	local got xid_s ulid_s
	got=$(node_psql "$2" "$3" -d fl -F ' ' -c "
		SELECT (SELECT extract(epoch FROM max(xid_timestamp(id)) - min(xid_timestamp(id))) FROM r_xid WHERE run = $4),
		       (SELECT extract(epoch FROM max(ulid_timestamp(id)) - min(ulid_timestamp(id))) FROM r_ulid_mono WHERE run = $4)")
	read -r xid_s ulid_s <<<"$got"
	if awk -v x="$xid_s" -v u="$ulid_s" -v s="$5" 'BEGIN { exit !(x > s / 4 && u > s / 4) }'; then
		ok "$1: with the clock behind, the IDs' times go on (xid $xid_s s, ulid $ulid_s s in run $4 of $5 s)"
	else
		bad "$1: with the clock behind, the IDs' times did not go on in run $4 of $5 s (xid $xid_s s, ulid $ulid_s s)"
	fi
}

# restarts <label> [postgres options...]: the three runs on one cluster.
restarts() {
	local label=$1 dir=$work/c-$RANDOM port=$((PGPORT + 60)) file got
	shift
	file=$dir.faketime
	mkdir -p "$dir"
	faketime_start "$dir" "$port" "$file" "$@"
	setup "$dir" "$port"
	run "$dir" "$port" 1
	kill_node "$dir"
	faketime_set "$file" "-7"
	faketime_start "$dir" "$port" "$file" "$@"
	got=$(lag "$dir" "$port")
	if [ "$got" -ge 6 ] && [ "$got" -le 8 ]; then ok "$label: after the crash the clock is $got s behind"; else bad "$label: after the crash the clock is $got s behind, not 7"; fi
	run "$dir" "$port" 2
	node_stop "$dir" "$port"
	faketime_set "$file" "-180"
	faketime_start "$dir" "$port" "$file" "$@"
	got=$(lag "$dir" "$port")
	if [ "$got" -ge 179 ] && [ "$got" -le 181 ]; then ok "$label: after the clean restart the clock is $got s behind"; else bad "$label: after the clean restart the clock is $got s behind, not 180"; fi
	run "$dir" "$port" 3 $((3 * RUN_SECONDS))
	check "$label" "$dir" "$port" 3
	progress "$label" "$dir" "$port" 3 $((3 * RUN_SECONDS))
	node_stop "$dir" "$port"
}

# failover <label> <name> <first port offset> <primary step>: a standby promoted after the
# primary's crash, with its clock behind. With a step (seconds), the primary's clock steps back
# that much after run 1 and it generates once more (as run 1): its generators then run ahead of
# its clock and of the times its commits carry, which are all a standby knows of it; they write
# their reservation to WAL while they run more than a second ahead, and the promoted standby reads
# it back. Either way: no ID twice, and run 2 after run 1.
#
# failover <label> <name> <first port offset> 0 <fast> [postgres options...]: the primary's clock
# runs <fast> seconds ahead while it generates (run 1), then steps back to the true time, and an
# ordinary commit follows (no ID made after the step): the IDs lie <fast> seconds after the times
# of the commits a standby replayed last. The reservation in WAL covers them.
failover() {
	local label=$1 pdir=$work/$2-primary pport=$((PGPORT + $3)) sdir=$work/$2-standby sport=$((PGPORT + $3 + 1))
	local step=$4 fast=${5:-0} behind=7 target deadline
	shift 5 || shift $#
	[ "$step" = 0 ] || behind=$step
	faketime_start "$pdir" "$pport" "$pdir.faketime" "$@"
	setup "$pdir" "$pport"
	if ! node_basebackup "$pdir" "$pport" "$sdir"; then
		bad "$label: pg_basebackup"
		return
	fi
	faketime_start "$sdir" "$sport" "$sdir.faketime" "$@"
	[ "$fast" = 0 ] || faketime_set "$pdir.faketime" "+$fast"
	run "$pdir" "$pport" 1
	if [ "$fast" != 0 ]; then
		faketime_set "$pdir.faketime" "+0"
		node_psql "$pdir" "$pport" -d fl -c "CREATE TABLE after_the_step ()" >/dev/null
	fi
	if [ "$step" != 0 ]; then
		faketime_set "$pdir.faketime" "-$step"
		run "$pdir" "$pport" 1
	fi
	target=$(node_psql "$pdir" "$pport" -d fl -c "SELECT pg_current_wal_lsn()")
	deadline=$((SECONDS + TIMEOUT))
	until [ "$(node_psql "$sdir" "$sport" -d fl -c "SELECT pg_last_wal_replay_lsn() >= '$target'")" = t ]; do
		if [ $SECONDS -ge $deadline ]; then
			bad "$label: the standby did not replay up to $target in $TIMEOUT s"
			return
		fi
		sleep 0.2
	done
	kill_node "$pdir"
	faketime_set "$sdir.faketime" "-$behind"
	node_psql "$sdir" "$sport" -d fl -c "SELECT pg_promote(true, $TIMEOUT)" >/dev/null
	if [ "$(node_psql "$sdir" "$sport" -d fl -c "SELECT NOT pg_is_in_recovery()")" = t ]; then
		ok "$label: the standby, its clock $(lag "$sdir" "$sport") s behind, is promoted"
	else
		bad "$label: the standby was not promoted"
	fi
	run "$sdir" "$sport" 2
	check "$label" "$sdir" "$sport" 2
	# A healthy promotion reads the WAL back without a warning (a standby made by pg_basebackup
	# lacks the segments before its backup: the read-back stops there).
	if grep -q "could not read the generators' floor" "$sdir"/data/log/* "$sdir"/*.log 2>/dev/null; then
		bad "$label: the promoted standby warned: $(grep -h "could not read the generators' floor" "$sdir"/data/log/* "$sdir"/*.log 2>/dev/null | head -n 1)"
	else
		ok "$label: no warning from the read-back of the WAL"
	fi
}

# edge: the floor file reserves up to a time inside the millisecond of the last IDs made (an ID
# made before the reservation's end asks for no new one, so the file can end a few microseconds
# after it), the server crashes and comes back with its clock far behind: the IDs made after the
# restart must still sort after those, whose unit is that whole millisecond. The file is written
# here as it stood then: the ms kinds' last IDs in one millisecond, the reservation ending 1 us
# after the clock read just after them.
edge() {
	local dir=$work/edge port=$((PGPORT + 63)) file=$work/edge.faketime floor=$work/edge/data/idtypes_generator.floor
	local kinds="xid ulidflake ulid_mono euid" k got t_us n tries ids= inserts= times=
	# From test/lib/kinds.sh: each kind's generator, then the clock; its table; its ID's time.
	for k in $kinds; do
		ids+="$(gen_of "$k") AS $k, "
		inserts+=", i_$k AS (INSERT INTO r_$k SELECT run, $k FROM ids)"
		times+="($(type_of "$k")_timestamp($k)), "
	done
	ids="SELECT ${ids}clock_timestamp() AS t"
	faketime_start "$dir" "$port" "$file" -c "$(preload_setting)"
	setup "$dir" "$port"
	# With the clock behind the last checkpoint the floor is that checkpoint's next second and
	# more: these IDs come over two seconds after it, so that the floor is the file's.
	node_psql "$dir" "$port" -d fl -c "CHECKPOINT"
	sleep 2.5
	for ((tries = 1; tries <= 50; tries++)); do
		got=$(node_psql "$dir" "$port" -d fl -F ' ' -c "
			WITH ids AS MATERIALIZED (SELECT 1 AS run, * FROM ($ids) g) $inserts
			SELECT (extract(epoch FROM t) * 1000000)::bigint,
			       (SELECT count(DISTINCT x) FROM (VALUES $times(date_trunc('milliseconds', t))) v(x))
			FROM ids")
		read -r t_us n <<<"$got"
		[ "$n" = 1 ] && break
	done
	kill_node "$dir"
	if [ "$n" != 1 ] || [ ! -f "$floor" ]; then
		bad "edge: in 50 tries the four kinds' IDs and the clock were never in one millisecond ($got), or no floor file"
		return
	fi
	printf '%020d %020d\n' "$((t_us + 1))" 1 >"$floor" # > keeps the server user's file
	faketime_set "$file" "-180"
	faketime_start "$dir" "$port" "$file" -c "$(preload_setting)"
	node_psql "$dir" "$port" -d fl -c "WITH ids AS MATERIALIZED (SELECT 2 AS run, * FROM ($ids) g) $inserts SELECT" >/dev/null
	for k in $kinds; do
		got=$(node_psql "$dir" "$port" -d fl -c "
			SELECT (SELECT min(id) FROM r_$k WHERE run = 2) > (SELECT max(id) FROM r_$k WHERE run = 1)")
		if [ "$got" = t ]; then
			ok "edge: $k: the crash's file reserved to 1 us after the last ID (try $tries); 180 s behind, the next ID sorts after it"
		else
			bad "edge: $k: with the file reserved to 1 us after the last ID, the ID after the restart sorts before it ($got)"
		fi
	done
	node_stop "$dir" "$port"
}

start=$SECONDS
restarts "preloaded" -c "$(preload_setting)"
restarts "not preloaded"
failover "failover" f 61 0
failover "failover after the primary's clock stepped back 5 s" fa 66 5
failover "failover after the primary's clock ran 6 s fast and stepped back" fs 68 0 6
failover "failover after the primary's clock ran 6 s fast and stepped back, preloaded" fp 70 0 6 \
	-c "$(preload_setting)"
edge
echo "restart_floor.sh on PostgreSQL $major: $((SECONDS - start)) s"
# Per restarts: two clock checks, a check per kind, the progress check; each failover: the
# promotion, a check per kind and the warning check; edge: a check per ms kind.
finish $((2 * (2 + 6 + 1) + 4 * (1 + 6 + 1) + 4))
