#!/usr/bin/env bash
# session_floor.sh: no monotonic generator repeats an ID when one session follows another in the
# same backend slot, after the first ran ahead of the clock or the clock stepped back between them.
#
# Without shared state (15-16 without preload) each backend has its own state, and the backend's
# slot keeps the IDs of live backends apart (the default TID clock id is the slot; xid and
# ulidflake carry it in their counter fields). A new backend in a slot must go on after every ID
# of the backends that had the slot before it. Two checks, per scope (not preloaded: 'backend' on
# 15-16, 'cluster' on 17+; preloaded: 'cluster'), autovacuum and the logical replication launcher
# off so that the two sessions get the same slot (checked: their default TID clock ids are equal
# where it is the slot):
#   run ahead: the clock stands still (libfaketime); session A makes 900,000 TIDs (TID runs up
#     to a second ahead of its clock), then 3,000 more into a table; session B makes 950,000 at
#     once (every microsecond of the clock's next 0.95 s; 90,000 with cluster scope); no TID of B
#     equals one of A, and all of B's sort after A's;
#   clock step: the server under libfaketime; session A generates every monotonic kind for 1.5 s,
#     the clock steps back 4 s, session B does the same; per kind no ID twice, and B's IDs all
#     sort after A's;
#   crash in place: the same, but session A is killed with SIGKILL just after the step (the
#     server restarts in place, its checkpoint behind A's IDs, and A never says its slot is free).
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Port PGPORT+64.
# Exit status 77 when libfaketime is not installed.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/kinds.sh"
. "$here/../lib/report.sh"
. "$here/../lib/faketime.sh"

faketime_required

nodes_workdir
major=$(server_major)
dir=$work/n port=$((PGPORT + 64))
offset_file=$work/faketime.rc
KINDS="xid tid ulidflake ulidflake_sid ulid_mono euid euid_ext"
Q() { node_psql "$dir" "$port" -d sf "$@"; }

# start <postgres options...>: a fresh cluster under libfaketime at the true time.
start() {
	node_stop "$dir" "$port"
	rm -rf "$dir" "$offset_file"
	# No background worker either (the logical replication launcher), which takes a slot anew
	# after the crash and would race session B for the lowest free one.
	faketime_start "$dir" "$port" "$offset_file" -c autovacuum=off -c max_logical_replication_workers=0 "$@"
	node_psql "$dir" "$port" -d postgres -c "CREATE DATABASE sf"
	{
		echo "CREATE EXTENSION idtypes;"
		echo "CREATE TABLE ta (t timeid NOT NULL); CREATE TABLE tb (t timeid NOT NULL);"
		for k in $KINDS; do
			echo "CREATE TABLE c_$k (s int NOT NULL, id $(type_of "$k") NOT NULL);"
		done
	} | Q
}

# generate <session number> [more SQL]: every kind for 1.5 s, in batches, in one session; prints
# the session's default TID clock id. With more SQL (a sleep), the clock steps back 4 s and the
# session is killed with SIGKILL while it runs it, which makes the server restart in place, and
# this waits until it is back.
generate() {
	local k inserts= pid
	for k in $KINDS; do
		inserts+="INSERT INTO c_$k SELECT $1, $(gen_of "$k") FROM generate_series(1, 200);"$'\n'
	done
	# The backends of the checks' connections before this one leave their slots after their
	# clients have gone: under load, one still held the lowest slot when a session A came (which
	# got the next, where its session B after the crash got the lowest).
	sleep 1
	Q -v ON_ERROR_STOP=0 <<SQL &
SET application_name = 'session_$1';
DO \$\$
DECLARE
	until_ts timestamptz := clock_timestamp() + interval '1.5 seconds';
BEGIN
	WHILE clock_timestamp() < until_ts LOOP
		$inserts
	END LOOP;
END \$\$;
SELECT timeid_clock_id(generate_tid());
${2:-}
SQL
	pid=$!
	if [ -n "${2:-}" ]; then
		# A moment for the session to take its slot before another connection could.
		sleep 0.5
		for _ in $(seq 1 100); do
			k=$(node_psql "$dir" "$port" -d sf -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'session_$1' AND query ~ 'pg_sleep'")
			[ -z "$k" ] || break
			sleep 0.2
		done
		# The clock steps back while the session is alive: the restart's own checkpoint is then
		# behind the session's IDs too, and only the reservation covers them.
		faketime_set "$offset_file" "-4"
		kill -9 "$k"
		for _ in $(seq 1 100); do
			sleep 0.3
			node_psql "$dir" "$port" -d sf -c "SELECT 1" >/dev/null 2>&1 && break
		done
		# The connections above have left their slots before session B comes.
		sleep 2
	fi
	wait "$pid" || true
}

# same_slot <label> <clock id A> <clock id B> <scope>: with per-backend state the default clock id
# is the slot: the sessions must have had the same one for the check to mean anything.
same_slot() {
	if [ "$4" = cluster ] || [ "$2" = "$3" ]; then
		ok "$1: both sessions had clock id $2 ($4 scope)"
	else
		bad "$1: the sessions had clock ids $2 and $3: not one slot"
	fi
}

# round <label> [postgres options...]
round() {
	local label=$1 scope a b got ahead
	shift
	start "$@"
	scope=$(Q -c "SELECT idtypes_generator_scope()")

	# Run ahead, then a new session in the same slot. The clock stands still (libfaketime, a few
	# seconds ahead), so that session A's TIDs run ahead of it whatever this machine's speed: its
	# 903,000 TIDs end 0.903 s after the clock, and B's 950,000 would cover that second again
	# (with cluster scope 90,000: B goes on from A's state, and TID stays within a second).
	faketime_set "$offset_file" "$(date -d '+3 seconds' '+%Y-%m-%d %H:%M:%S')"
	a=$(Q -c "SELECT count(*) FROM (SELECT generate_tid() FROM generate_series(1, 900000)) s" \
		-c "INSERT INTO ta SELECT generate_tid() FROM generate_series(1, 3000)" \
		-c "SELECT min(timeid_clock_id(t)) || ' ' || round(extract(epoch FROM timeid_timestamp(max(t)) - clock_timestamp()), 3) FROM ta" | tail -n 1)
	ahead=${a#* } a=${a% *}
	# With cluster scope B goes on from A's state, up to a second after the standing clock.
	nb=950000
	[ "$scope" = backend ] || nb=90000
	b=$(Q -c "INSERT INTO tb SELECT generate_tid() FROM generate_series(1, $nb)" \
		-c "SELECT timeid_clock_id(t) FROM tb LIMIT 1")
	faketime_set "$offset_file" "+0"
	same_slot "$label: run ahead ($ahead s at the end of session A)" "$a" "$b" "$scope"
	got=$(Q -c "SELECT count(*) FROM ta JOIN tb USING (t)")
	if [ "$got" = 0 ]; then ok "$label: run ahead: no TID of session B equals one of session A"; else bad "$label: run ahead: $got TIDs of session B equal TIDs of session A"; fi
	got=$(Q -c "SELECT (SELECT min(t) FROM tb) > (SELECT max(t) FROM ta)")
	if [ "$got" = t ]; then ok "$label: run ahead: session B's TIDs all sort after session A's"; else bad "$label: run ahead: session B's TIDs do not all sort after session A's"; fi

	# The clock steps back 4 s between two sessions.
	a=$(generate 1)
	faketime_set "$offset_file" "-4"
	b=$(generate 2)
	faketime_set "$offset_file" "+0"
	same_slot "$label: clock step" "$a" "$b" "$scope"
	check_kinds "$label: clock step" 1 2

	# The clock steps back 4 s, then session A is killed (the server restarts in place).
	a=$(generate 3 "SELECT pg_sleep(60);" 2>/dev/null) || true
	b=$(generate 4)
	faketime_set "$offset_file" "+0"
	same_slot "$label: crash in place" "${a%%$'\n'*}" "$b" "$scope"
	check_kinds "$label: crash in place" 3 4
}

# check_kinds <label> <session A> <session B>: per kind, no ID twice, and B's IDs after A's.
check_kinds() {
	local k got
	for k in $KINDS; do
		got=$(Q -c "SELECT count(*) = count(DISTINCT id) AND count(*) FILTER (WHERE s = $3) > 0 FROM c_$k")
		if [ "$got" = t ]; then ok "$1: $k: $(Q -c "SELECT count(*) FROM c_$k WHERE s IN ($2, $3)") IDs, none twice"; else bad "$1: $k: an ID twice (or session B made none)"; fi
		got=$(Q -c "SELECT (SELECT min(id) FROM c_$k WHERE s = $3) > (SELECT max(id) FROM c_$k WHERE s = $2)")
		if [ "$got" = t ]; then ok "$1: $k: session B's IDs all sort after session A's"; else bad "$1: $k: session B's IDs do not all sort after session A's"; fi
	done
}

started=$SECONDS
round "not preloaded"
round "preloaded" -c "$(preload_setting)"
echo "session_floor.sh on PostgreSQL $major: $((SECONDS - started)) s"
# Per round: run ahead 3 checks; clock step and crash in place 1 + 2 per kind each.
finish $((2 * (3 + 2 * (1 + 2 * 7))))
