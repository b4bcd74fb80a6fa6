#!/usr/bin/env bash
# sort_order.sh: a sort of 100,000 random IDs of each type (IDTYPES_SORT_ROWS to change it: with
# the 128-bit types' abbreviated keys byte-swapped, 100,000 gave half of ulid's and euid's IDs out
# of order in both sorts and a btree that failed amcheck) gives
# the order of their text (collation "C"), in memory (quicksort; the 128-bit types with
# abbreviated keys: the first 8 bytes where a Datum has 8, the first 4 where it has 4) and on disk
# (an external merge sort in 1 MB of work_mem); and a btree index built on them passes amcheck.
# On a 32-bit platform before PostgreSQL 19 the 64-bit types are passed by reference, which this
# exercises through the same sorts.
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set).
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/report.sh"

rows=${IDTYPES_SORT_ROWS:-100000}
db=idt_sort_$$
trace=$(mktemp)
q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
trap '"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -f "$trace"' EXIT
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
q -c "CREATE EXTENSION idtypes; CREATE EXTENSION amcheck"

checks=0
for t in uid11 timeid ulidflake ulid euid; do
	case $t in
	uid11) make="(random() * 18446744073709551615 - 9223372036854775808)::numeric::bigint::uid11" ;;
	timeid | ulidflake) make="(random() * 9223372036854775807)::bigint::$t" ;;
	*) make="gen_random_uuid()::$t" ;;
	esac
	q -c "CREATE TABLE s_$t AS SELECT $make AS id FROM generate_series(1, $rows)"
	for mem in 512MB:internal 1MB:external; do
		want="${mem#*:} sort"
		mem=${mem%:*}
		# Sorted by the ID, each text is after the one before it (equal only for equal IDs). The
		# sort's own trace (trace_sort, as LOG messages) says whether it was done in memory or on disk.
		got=$(q -c "SET work_mem = '$mem'; SET max_parallel_workers_per_gather = 0;
			SET trace_sort = on; SET client_min_messages = log;
			SELECT count(*), count(*) FILTER (WHERE pt > t OR (pt = t AND pid <> id))
			FROM (SELECT id, id::text COLLATE \"C\" AS t,
			             lag(id) OVER w AS pid, lag(id::text COLLATE \"C\") OVER w AS pt
			      FROM s_$t WINDOW w AS (ORDER BY id)) s" 2>"$trace")
		method=$(sed -nE 's/.*(internal|external) sort( of worker -?[0-9]+)? ended.*/\1 sort/p' "$trace" | sort -u | paste -sd, -)
		checks=$((checks + 1))
		if [ "$got" = "$rows|0" ] && [ "$method" = "$want" ]; then
			ok "$t: $rows IDs sorted in $mem ($method) are in the order of their text"
		else
			bad "$t: $rows IDs sorted in $mem ($method, $want expected): (rows, out of text order) = ($got)"
		fi
	done
	q -c "SET maintenance_work_mem = '64MB'; CREATE INDEX s_${t}_id ON s_$t (id)"
	checks=$((checks + 1))
	if q -c "SELECT bt_index_check('s_${t}_id', heapallindexed => true)" >/dev/null; then
		ok "$t: the btree index built on them passes bt_index_check"
	else
		bad "$t: bt_index_check failed on the index built on them"
	fi
	q -c "DROP TABLE s_$t"
done
finish "$checks"
