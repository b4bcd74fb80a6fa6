#!/usr/bin/env bash
# node_id.sh: idtypes.node_id keeps generated IDs unique across nodes.
#
# Three clusters with node ids 1, 2 and 3 run four sessions each at the same time, generating
# NODE_ROWS (default 50,000) IDs of every kind per node (with all three
# nodes given the same node id, 50,000 still gave IDs equal across nodes for every kind with node
# bits, in both scopes); on each node every ID carries the node's
# id in its documented bits (top 5 bits of the xid and ulidflake counter fields, of the TID clock
# id); gathered into one table per kind, no ID occurs twice. On PostgreSQL < 17 the state is
# cluster-wide only with idtypes preloaded, so that run preloads it; then the nodes restart without
# preload (state per backend): xid and ulidflake carry node id and backend slot and stay unique
# across the nodes, and generate_tid() refuses (0A000) rather than risk a collision, as
# generate_ulidflake(sid) does where the backend slot fills its counter field (16,400
# connections, without a node id). After each
# run, an explicit clock id (generate_tid(7), generate_tid_at(ts, 7)) wins over the node id, and
# idtypes.tid_clock_id must carry it (any user can set it: it may not undo the partitioning). A
# fourth cluster changes its node id by ALTER SYSTEM and a reload, preloaded and not: the IDs keep
# the node id they started with until a restart.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/kinds.sh"
. "$(dirname "$0")/../lib/nodes.sh"

ROWS=${NODE_ROWS:-50000}
SESSIONS=4
nodes_workdir
major=$(server_major)
port0=$((PGPORT + 20))
NODES="1 2 3"
dir_of() { echo "$work/n$1"; }
port_of() { echo $((port0 + $1)); }
on() { # on <node> [psql arguments...]
	local n=$1
	shift
	node_psql "$(dir_of "$n")" "$(port_of "$n")" "$@"
}

. "$(dirname "$0")/../lib/report.sh"
check() { # check <name> <node> <sql returning t>
	local got
	got=$(on "$2" -d idt_node -c "$3" 2>&1) || true
	if [ "$got" = t ]; then ok "$1"; else bad "$1 (got '$got')"; fi
}

# The node id as the ID holds it, per kind (empty: the kind keeps all its random bits).
node_bits_sql() {
	case $1 in
	xid) echo "xid_random(id) >> 17" ;;
	tid) echo "timeid_clock_id(id) >> 5" ;;
	ulidflake*) echo "((id::bigint & 1048575) >> 15)::int" ;;
	esac
}

# run <label> <kinds> <preload: yes|no>: start the three nodes, generate concurrently, check, gather.
run() {
	local label=$1 kinds=$2 preload=$3 n k s opts=() pids=() per=$((ROWS / SESSIONS))
	[ "$preload" = yes ] && opts=(-c "$(preload_setting)")
	for n in $NODES; do
		node_stop "$(dir_of "$n")" "$(port_of "$n")"
		node_start "$(dir_of "$n")" "$(port_of "$n")" -c idtypes.node_id="$n" "${opts[@]}"
		PGOPTIONS=--client-min-messages=warning on "$n" -d postgres -c "DROP DATABASE IF EXISTS idt_node" -c "CREATE DATABASE idt_node"
		on "$n" -d idt_node -c "CREATE EXTENSION idtypes"
		for k in $kinds; do
			on "$n" -d idt_node -c "CREATE TABLE t_$k (id $(type_of "$k") NOT NULL)"
		done
	done
	local start=$SECONDS
	for n in $NODES; do
		for ((s = 1; s <= SESSIONS; s++)); do
			{
				for k in $kinds; do
					echo "INSERT INTO t_$k SELECT $(gen_of "$k") FROM generate_series(1, $per);"
				done
			} | on "$n" -d idt_node >"$work/gen-$n-$s.log" 2>&1 &
			pids+=($!)
		done
	done
	for s in "${pids[@]}"; do
		if ! wait "$s"; then
			bad "$label: a generating session failed:"
			cat "$work"/gen-*.log
		fi
	done
	echo "$label: $ROWS IDs of each of $(echo $kinds | wc -w) kinds on each of 3 nodes in $((SECONDS - start)) s"

	# Gather every node's IDs on node 1.
	on 1 -d idt_node -c "CREATE SCHEMA gathered"
	for k in $kinds; do
		on 1 -d idt_node -c "CREATE TABLE gathered.t_$k (id $(type_of "$k") NOT NULL, node int NOT NULL)"
	done
	for n in $NODES; do
		for k in $kinds; do
			check "$label $k: node $n made $ROWS distinct IDs" "$n" \
				"SELECT count(*) = $ROWS AND count(DISTINCT id) = $ROWS FROM t_$k"
			local bits
			bits=$(node_bits_sql "$k")
			if [ -n "$bits" ]; then
				check "$label $k: node $n's IDs all carry node id $n" "$n" \
					"SELECT bool_and(($bits) = $n) FROM t_$k"
			fi
			on "$n" -d idt_node -c "COPY (SELECT id, $n FROM t_$k) TO STDOUT" |
				on 1 -d idt_node -c "COPY gathered.t_$k FROM STDIN"
		done
	done
	for k in $kinds; do
		check "$label $k: $((3 * ROWS)) IDs from 3 nodes, no duplicate" 1 \
			"SELECT count(*) = 3 * $ROWS AND count(DISTINCT id) = 3 * $ROWS FROM gathered.t_$k"
	done
}

# explicit_clock_id <label>: on node 2 (node id 2, so the default clock id would be 64 or more),
# the clock id given wins.
explicit_clock_id() {
	check "$1: generate_tid(7) has clock id 7, not the node id's" 2 \
		"SELECT timeid_clock_id(generate_tid(7)) = 7"
	check "$1: generate_tid_at(ts, 7) has clock id 7" 2 \
		"SELECT timeid_clock_id(generate_tid_at(now(), 7)) = 7"
	# The setting may not undo the node partitioning: with node id 2 it must lie in 64..95.
	check "$1: idtypes.tid_clock_id = 70 gives clock id 70; 9, outside node 2's range, is refused" 2 \
		"SET idtypes.tid_clock_id = 9;
		 DO \$\$BEGIN PERFORM generate_tid(); RAISE EXCEPTION 'clock id 9 accepted on node 2';
		 EXCEPTION WHEN invalid_parameter_value THEN NULL; END\$\$;
		 SET idtypes.tid_clock_id = 70; SELECT timeid_clock_id(generate_tid()) = 70"
}

# Per run: for each node and kind, distinct IDs, and the node id where the kind holds one (xid,
# tid, ulidflake, ulidflake_sid); per kind, none twice across the nodes; the explicit clock id.
if [ "$major" -ge 17 ]; then
	run "cluster-wide state (DSM registry)" "$KINDS" no
	explicit_clock_id "cluster-wide state"
	expected=$((3 * 12 + 8 + 3))
else
	run "cluster-wide state (preloaded)" "$KINDS" yes
	explicit_clock_id "cluster-wide state"
	ROWS=$((ROWS / 4))
	run "per-backend state" "xid ulidflake ulidflake_sid" no
	explicit_clock_id "per-backend state"
	expected=$((3 * 12 + 8 + 3 + 3 * 6 + 3 + 3 + 2 + 2))
	got=$(on 1 -d idt_node -c "SELECT generate_tid()" 2>&1 || true)
	if grep -q "idtypes.node_id leaves too few clock id bits" <<<"$got"; then
		ok "per-backend state: generate_tid() refuses to run with a node id"
	else
		bad "per-backend state: generate_tid() with a node id gave: $got"
	fi
	# Without a node id, a backend's slot must fit its counter field too: with more than 16,384
	# backends, generate_ulidflake(sid) (a 15-bit field) refuses (0A000) instead of masking the
	# slot (two backends would then share a partition); generate_ulidflake() (20 bits) goes on.
	many=$work/many many_port=$((port0 + 10))
	node_start "$many" "$many_port" -c max_connections=16400
	got=$(node_psql "$many" "$many_port" -d postgres -v VERBOSITY=verbose \
		-c "CREATE EXTENSION idtypes" -c "SELECT generate_ulidflake(1)" 2>&1 || true)
	if grep -q "0A000" <<<"$got" && grep -q "too many backends" <<<"$got"; then
		ok "per-backend state, 16,400 connections: generate_ulidflake(1) refuses (0A000)"
	else
		bad "per-backend state, 16,400 connections: generate_ulidflake(1) gave: $got"
	fi
	check_many=$(node_psql "$many" "$many_port" -d postgres -c "SELECT generate_ulidflake() IS NOT NULL" 2>&1 || true)
	if [ "$check_many" = t ]; then
		ok "per-backend state, 16,400 connections: generate_ulidflake() goes on (20-bit field)"
	else
		bad "per-backend state, 16,400 connections: generate_ulidflake() gave: $check_many"
	fi
	node_stop "$many" "$many_port"
	state=$(on 1 -d idt_node -v VERBOSITY=verbose -c "SELECT generate_tid()" 2>&1 | grep -o '0A000' | head -1 || true)
	if [ "$state" = 0A000 ]; then ok "its SQLSTATE is 0A000"; else bad "SQLSTATE '$state', not 0A000"; fi
fi

# A live change (ALTER SYSTEM and a reload) takes effect at the next start: until then every
# backend, new ones too, makes IDs with the node id the generators started with, or backends on two
# node ids could make the same ID in one millisecond. Preloaded, the server keeps the setting
# itself (pending_restart); otherwise the generators keep theirs (17+: in the shared state; 15-16:
# in the floor file, per server life) and a backend whose setting differs is warned, once.
live=$(dir_of 4) live_port=$(port_of 4)
live_psql() { node_psql "$live" "$live_port" -d postgres "$@"; }
live_ids="SELECT (xid_random(generate_xid()) >> 17) || ' ' || ((generate_ulidflake()::bigint & 1048575) >> 15)"
live_change() { # live_change <label> <preload: yes|no>
	local label=$1 opts=() got warnings
	[ "$2" = yes ] && opts=(-c "$(preload_setting)")
	node_stop "$live" "$live_port"
	node_start "$live" "$live_port" "${opts[@]}"
	live_psql -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idtypes" -c "$load" -c "ALTER SYSTEM SET idtypes.node_id = 6"
	node_stop "$live" "$live_port"
	node_start "$live" "$live_port" "${opts[@]}"
	got=$(live_psql -c "$live_ids" 2>&1)
	if [ "$got" = "6 6" ]; then ok "$label: node id 6 from the start"; else bad "$label: at the start: '$got'"; fi
	live_psql -c "$load" -c "ALTER SYSTEM SET idtypes.node_id = 7" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 1
	got=$(live_psql -c "$live_ids" -c "$live_ids" \
		-c "SELECT setting || ' ' || pending_restart FROM pg_settings WHERE name = 'idtypes.node_id'" 2>&1)
	warnings=$(grep -c "WARNING:  idtypes.node_id is 7, but the generators use node id 6 until the server restarts" <<<"$got" || true)
	got=$(grep -v -e '^WARNING' -e '^DETAIL' -e '^HINT' <<<"$got" | paste -sd ',')
	if [ "$2" = yes ] && [ "$got" = "6 6,6 6,6 true" ] && [ "$warnings" = 0 ]; then
		ok "$label: after ALTER SYSTEM and a reload, a new backend's IDs carry node id 6 (setting 6, pending restart)"
	elif [ "$2" = no ] && [ "$got" = "6 6,6 6,7 false" ] && [ "$warnings" = 1 ]; then
		ok "$label: after ALTER SYSTEM and a reload, a new backend's IDs carry node id 6, and it is warned once"
	else
		bad "$label: after the reload: '$got', $warnings warnings"
	fi
	node_stop "$live" "$live_port"
	node_start "$live" "$live_port" "${opts[@]}"
	got=$(live_psql -c "$live_ids" 2>&1)
	if [ "$got" = "7 7" ]; then ok "$label: after a restart, node id 7"; else bad "$label: after the restart: '$got'"; fi
	live_psql -c "ALTER SYSTEM RESET idtypes.node_id" >/dev/null
}
load="DO \$\$ BEGIN PERFORM idtypes_version(); END \$\$"
live_change "live change, preloaded" yes
live_change "live change, not preloaded ($([ "$major" -ge 17 ] && echo "DSM registry" || echo "per-backend state"))" no
node_stop "$live" "$live_port"
expected=$((expected + 6))

# The setting is node-wide: a session cannot change it. The library is loaded through one of its
# functions ($load, above), found where CREATE EXTENSION found it (LOAD 'idtypes' looks only in
# the server's own directory, which a staged run does not use).
got=$(on 1 -d idt_node -c "$load" \
	-c "SELECT setting || ' ' || context FROM pg_settings WHERE name = 'idtypes.node_id'")
if [ "$got" = "1 sighup" ]; then ok "idtypes.node_id is 1 on node 1, context sighup"; else bad "idtypes.node_id: '$got'"; fi
got=$(on 1 -d idt_node -v VERBOSITY=verbose -c "$load" -c "SET idtypes.node_id = 2" 2>&1 || true)
if grep -q "55P02" <<<"$got"; then ok "SET idtypes.node_id in a session fails (55P02)"; else bad "SET idtypes.node_id gave: $got"; fi
finish $((expected + 2))
