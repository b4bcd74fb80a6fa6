#!/usr/bin/env bash
# dump_restore.sh: a database with all five ID types (boundary values, NULLs, ~1000 rows, a primary
# key, hash and range partitions, btree/hash/brin indexes) survives pg_dump and restore, in plain
# and custom format: the restored rows, their partitions and the indexes' answers are the same.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER/PGBIN pointing at a running cluster with
# idtypes installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/ids_table.sh"

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
src=idt_dump_src_$$
plain=idt_dump_plain_$$
custom=idt_dump_custom_$$
work=$(mktemp -d)

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

cleanup() {
	for db in "$src" "$plain" "$custom"; do
		psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

psql_q -d postgres -c "CREATE DATABASE $src TEMPLATE template0"
psql_q -d "$src" <<'SQL'
CREATE EXTENSION idtypes;
CREATE TABLE ids (
	n int PRIMARY KEY,
	a uid11, b timeid, c ulidflake, d ulid, e euid
);
SQL
# boundary values (test/lib/ids_table.sh)
boundary_rows_sql ids | psql_q -d "$src"
psql_q -d "$src" <<'SQL'
-- ~1000 pseudo-random rows, some NULLs
INSERT INTO ids
SELECT 100 + i,
       CASE WHEN i % 97 = 0 THEN NULL ELSE ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 END,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake,
       CASE WHEN i % 89 = 0 THEN NULL ELSE m::uuid::ulid END,
       m::uuid::euid
FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, 1000) i) s;

CREATE INDEX ids_a ON ids (a);
CREATE INDEX ids_d ON ids USING hash (d);
CREATE INDEX ids_e ON ids USING brin (e);
CREATE UNIQUE INDEX ids_b ON ids (b) WHERE n >= 100;

-- partitions keyed by the types: rows must land in the same partitions after the restore
CREATE TABLE by_hash (id ulid, n int) PARTITION BY HASH (id);
CREATE TABLE by_hash_0 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE by_hash_1 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE by_hash_2 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO by_hash SELECT d, n FROM ids WHERE d IS NOT NULL;
CREATE TABLE by_range (id uid11, n int) PARTITION BY RANGE (id);
CREATE TABLE by_range_lo PARTITION OF by_range FOR VALUES FROM (MINVALUE) TO ('NQm6nKp8qFD');
CREATE TABLE by_range_hi PARTITION OF by_range FOR VALUES FROM ('NQm6nKp8qFD') TO (MAXVALUE);
INSERT INTO by_range SELECT a, n FROM ids WHERE a IS NOT NULL;
CREATE TABLE by_hash_uid11 (id uid11, n int) PARTITION BY HASH (id);
CREATE TABLE by_hash_uid11_0 PARTITION OF by_hash_uid11 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE by_hash_uid11_1 PARTITION OF by_hash_uid11 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO by_hash_uid11 SELECT a, n FROM ids WHERE a IS NOT NULL;
ANALYZE;
SQL

# One line per check, the same query in every database.
fingerprint() {
	psql_q -d "$1" <<'SQL'
SELECT 'rows', count(*), md5(string_agg(t::text, ',' ORDER BY n)) FROM ids t;
SELECT 'bytes', count(*), md5(string_agg(concat_ws('|', a::bytea, b::bytea, c::bytea, d::bytea,
                                                   e::bytea), ',' ORDER BY n)) FROM ids;
SELECT 'nulls', count(*) - count(a), count(*) - count(d), count(*) FILTER (WHERE a IS NULL AND e IS NULL) FROM ids;
SELECT 'boundary', n, a, b, c, d, e FROM ids WHERE n < 100 ORDER BY n;
SELECT 'order', md5(string_agg(n::text, ',' ORDER BY a, n)), md5(string_agg(n::text, ',' ORDER BY e, n)) FROM ids;
SELECT 'part', tableoid::regclass, count(*), md5(string_agg(n::text, ',' ORDER BY n)) FROM by_hash GROUP BY 2 ORDER BY tableoid::regclass::text;
SELECT 'part', tableoid::regclass, count(*), md5(string_agg(n::text, ',' ORDER BY n)) FROM by_range GROUP BY 2 ORDER BY tableoid::regclass::text;
SELECT 'part', tableoid::regclass, count(*), md5(string_agg(n::text, ',' ORDER BY n)) FROM by_hash_uid11 GROUP BY 2 ORDER BY tableoid::regclass::text;
SET enable_seqscan = off;
SELECT 'btree', count(*) FROM ids WHERE a >= 'NQm6nKp8qFD';
SELECT 'hash', n FROM ids WHERE d = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT 'brin', count(*) FROM ids WHERE e >= 'G00000000000000000000000002';
SELECT 'indexes', string_agg(indexname || ':' || regexp_replace(indexdef, '^.* USING ', ''), ' ' ORDER BY indexname)
FROM pg_indexes WHERE tablename = 'ids';
SQL
}

fingerprint "$src" >"$work/src.txt"
# Guard against a vacuous comparison: the fingerprint must have seen the data.
if ! grep -q '^rows|1008|' "$work/src.txt" || ! grep -q '^boundary|8|' "$work/src.txt"; then
	echo "dump_restore: unexpected source fingerprint:" >&2
	cat "$work/src.txt" >&2
	exit 1
fi

"$PGBIN/pg_dump" -d "$src" -f "$work/plain.sql"
"$PGBIN/pg_dump" -d "$src" -Fc -f "$work/custom.dump"
grep -q 'CREATE EXTENSION IF NOT EXISTS idtypes' "$work/plain.sql"

psql_q -d postgres -c "CREATE DATABASE $plain TEMPLATE template0"
psql_q -d "$plain" -f "$work/plain.sql" >/dev/null
psql_q -d postgres -c "CREATE DATABASE $custom TEMPLATE template0"
"$PGBIN/pg_restore" --exit-on-error -d "$custom" "$work/custom.dump"

. "$(dirname "$0")/../lib/report.sh"
for db in "$plain" "$custom"; do
	fingerprint "$db" >"$work/$db.txt"
	if diff -u "$work/src.txt" "$work/$db.txt"; then
		ok "restore from ${db%_$$} dump matches the source ($(wc -l <"$work/src.txt") checks)"
	else
		bad "restore from ${db%_$$} dump differs from the source (diff above)"
	fi
done
finish 2
