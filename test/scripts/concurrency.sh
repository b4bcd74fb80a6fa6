#!/usr/bin/env bash
# concurrency.sh: 8 pgbench clients insert generated IDs of every kind into unique indexes,
# without and with shared_preload_libraries: no error, no duplicate, per-session order, and
# strict order across sessions wherever the state is cluster-wide: with preload, and on
# PostgreSQL 17+ without it too (the DSM registry).
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER/PGBIN set to a cluster without preload, and
# IDTYPES_TEST_START_CLUSTER to start a second one with preload. ROWS (default 48,000; a multiple
# of CLIENTS x BATCH) rows per kind: with the shared state's spinlock taken out, 48,000 still gave
# duplicates of every kind, IDs out of session order and a pgbench client aborted on a duplicate
# key (preloaded, on 15).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/kinds.sh"
. "$(dirname "$0")/../lib/nodes.sh" # preload_setting

ROWS=${ROWS:-48000}
CLIENTS=8
BATCH=100
TX_PER_CLIENT=$((ROWS / CLIENTS / BATCH))
if [ $((TX_PER_CLIENT * CLIENTS * BATCH)) -ne "$ROWS" ]; then
	echo "concurrency.sh: ROWS=$ROWS is not a multiple of $((CLIENTS * BATCH)) (clients x batch)" >&2
	exit 2
fi
work=$(mktemp -d)
second=
cleanup() {
	if [ -n "$second" ]; then bash "$IDTYPES_TEST_START_CLUSTER" stop "$second" >/dev/null 2>&1 || true; rm -rf "$second"; fi
	rm -rf "$work"
}
trap cleanup EXIT

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

. "$(dirname "$0")/../lib/report.sh"
check() { # name, sql returning 't'
	local got
	got=$(psql_q -d idt_conc -c "$2")
	if [ "$got" = t ]; then ok "$1"; else bad "$1 (got '$got')"; fi
}

run_suite() { # label, expected scope
	local label=$1 scope=$2
	psql_q -d postgres -c "DROP DATABASE IF EXISTS idt_conc" -c "CREATE DATABASE idt_conc"
	psql_q -d idt_conc -c "CREATE EXTENSION idtypes"
	check "generator scope is $scope" "SELECT idtypes_generator_scope() = '$scope'"
	: >"$work/bench.sql"
	echo "BEGIN;" >>"$work/bench.sql"
	for k in $KINDS; do
		psql_q -d idt_conc -c "CREATE TABLE t_$k (id $(type_of "$k") PRIMARY KEY, client int NOT NULL, ord bigserial)"
		echo "INSERT INTO t_$k (id, client) SELECT $(gen_of "$k"), :client_id FROM generate_series(1, $BATCH);" >>"$work/bench.sql"
	done
	echo "COMMIT;" >>"$work/bench.sql"
	# Cross-session order: under one advisory lock, generation order is the order of a shared sequence.
	psql_q -d idt_conc -c "CREATE SEQUENCE gseq"
	: >"$work/order.sql"
	echo "BEGIN;" >>"$work/order.sql"
	echo "SELECT pg_advisory_xact_lock(4242);" >>"$work/order.sql"
	for k in xid tid ulidflake ulid_mono euid; do
		psql_q -d idt_conc -c "CREATE TABLE o_$k (id $(type_of "$k") PRIMARY KEY, g bigint NOT NULL)"
		echo "INSERT INTO o_$k (id, g) SELECT $(gen_of "$k"), nextval('gseq') FROM generate_series(1, 10);" >>"$work/order.sql"
	done
	echo "COMMIT;" >>"$work/order.sql"

	local start=$SECONDS
	if ! "$PGBIN/pgbench" -n -c $CLIENTS -j 2 -t "$TX_PER_CLIENT" -f "$work/bench.sql" idt_conc >"$work/pgbench.log" 2>&1; then
		bad "pgbench ($label) reported errors:"; tail -20 "$work/pgbench.log"
	fi
	echo "pgbench ($label): $((ROWS)) rows per kind x $(echo $KINDS | wc -w) kinds in $((SECONDS - start)) s"
	grep -E "number of (failed|transactions actually processed)" "$work/pgbench.log" || true
	for k in $KINDS; do
		check "$label $k: $ROWS rows, all distinct" \
			"SELECT count(*) = $ROWS AND count(DISTINCT id) = $ROWS FROM t_$k"
		if [ "$k" != ulid ]; then # generate_ulid() follows the spec: not monotonic
			check "$label $k: increasing in insertion order within each session" \
				"SELECT coalesce(bool_and(id > p), true) FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY ord) p FROM t_$k) s WHERE p IS NOT NULL"
		fi
	done
	if [ "$scope" = cluster ]; then
		if ! "$PGBIN/pgbench" -n -c $CLIENTS -j 2 -t 200 -f "$work/order.sql" idt_conc >"$work/order.log" 2>&1; then
			bad "pgbench order run reported errors:"; tail -20 "$work/order.log"
		fi
		for k in xid tid ulidflake ulid_mono euid; do
			check "$label $k: strictly increasing across sessions in generation order" \
				"SELECT count(*) = $((CLIENTS * 200 * 10)) AND bool_and(coalesce(id > p, true)) FROM (SELECT id, lag(id) OVER (ORDER BY g) p FROM o_$k) s"
		done
	fi
	psql_q -d postgres -c "DROP DATABASE idt_conc"
}

# The state is cluster-wide without preload from PostgreSQL 17 on. Per run: the scope, 8 kinds
# distinct, 7 of them (not generate_ulid()) increasing per session, and where the scope is the
# cluster 5 kinds increasing across sessions.
if [ "$(psql_q -d postgres -c "SHOW server_version_num")" -ge 170000 ]; then
	run_suite "no preload" cluster
	expected=42
else
	run_suite "no preload" backend
	expected=37
fi

second=$(mktemp -d /tmp/idtc.XXXXXX)
chmod 755 "$second"
export PGPORT=$((PGPORT + 1))
bash "$IDTYPES_TEST_START_CLUSTER" start "$second" -c "$(preload_setting)" -c max_connections=20 >/dev/null
export PGHOST=$second
run_suite preload cluster

finish $expected
