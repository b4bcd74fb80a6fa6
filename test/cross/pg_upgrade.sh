#!/usr/bin/env bash
# pg_upgrade.sh OLD_PG_CONFIG NEW_PG_CONFIG: a cluster of the old server with tables of all five
# types, their btree/hash/BRIN indexes, a range-typed column and generator defaults is upgraded
# with the new server's pg_upgrade. Before it, on the old cluster: the answers are the known ones
# (row count, ^@ and <@ counts equal to the same question asked without them, the hash and BRIN
# lookups' counts, and a plan that uses each hash and BRIN index), so that comparing the two
# clusters cannot pass on an answer both get wrong. Afterwards: the same answers (the rows'
# checksums of the text form too) and again the known ones, bt_index_check clean on every btree
# index, the generators go on, and ^@ and <@ are still btree index scans. And idtypes_uuidv7, as a
# database of 15-17 has it (a default naming public.uuidv7()): after the upgrade the default makes
# IDs after the old ones, its uuidv7() shares core's per-backend clock, and the documented way
# out (the default set to core's, DROP EXTENSION) leaves core's functions alone.
#
# Run by test/run_matrix.sh in the new major's chroot, with idtypes installed into both servers.
# Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

[ $# -eq 2 ] || { echo "usage: $0 OLD_PG_CONFIG NEW_PG_CONFIG" >&2; exit 2; }
oldbin=$("$1" --bindir)
newbin=$("$2" --bindir)
top=$(cd "$(dirname "$0")/../.." && pwd)
cluster=$top/test/cluster.sh
old_port=54341
new_port=54342

work=$(mktemp -d /tmp/idtup.XXXXXX)
chmod 755 "$work"
# pg_upgrade needs to write into its working directory, as the server's user.
[ "$(id -u)" -ne 0 ] || chown postgres: "$work"
cleanup() {
	PGBIN=$newbin bash "$cluster" stop "$work/new" >/dev/null 2>&1 || true
	PGBIN=$oldbin bash "$cluster" stop "$work/old" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# Both clusters with data checksums: pg_upgrade needs the same setting, and 18 turns them on by
# default where older servers do not.
export IDTYPES_INITDB_OPTS=--data-checksums

. "$top/test/lib/report.sh"
# psql_on <dir> <port> <bin> [psql args]
psql_on() {
	local dir=$1 port=$2 bin=$3
	shift 3
	"$bin/psql" -X -q -v ON_ERROR_STOP=1 -At -h "$dir" -p "$port" -U postgres -d idt_up "$@"
}
old_sql() { psql_on "$work/old" $old_port "$oldbin" "$@"; }
new_sql() { psql_on "$work/new" $new_port "$newbin" "$@"; }
check() { # name, sql on the new cluster returning 't'
	local got
	got=$(new_sql -c "$2")
	if [ "$got" = t ]; then ok "$1"; else bad "$1 (got '$got')"; fi
}

echo "old: $("$oldbin/postgres" --version); new: $("$newbin/postgres" --version)"
PGBIN=$oldbin PGPORT=$old_port bash "$cluster" start "$work/old"
"$oldbin/psql" -X -q -h "$work/old" -p $old_port -U postgres -d postgres -c "CREATE DATABASE idt_up"
old_sql <<'SQL'
CREATE EXTENSION idtypes;
CREATE TABLE ids (
	n int PRIMARY KEY,
	u uid11 NOT NULL DEFAULT generate_xid(),
	t timeid NOT NULL DEFAULT generate_tid(),
	f ulidflake NOT NULL DEFAULT generate_ulidflake(),
	l ulid NOT NULL DEFAULT generate_ulid_monotonic(),
	e euid NOT NULL DEFAULT generate_euid(),
	r ulidrange,
	-- copies of u, l, t and e whose only index is a hash or a BRIN one
	hu uid11, hl ulid, bt timeid, be euid
);
INSERT INTO ids (n) SELECT generate_series(1, 20000);
UPDATE ids SET r = ulidrange(l, l, '[]') WHERE n % 10 = 0;
UPDATE ids SET hu = u, hl = l, bt = t, be = e;
INSERT INTO ids VALUES (0, '11111111111', '2222222222222', '0000000000000',
	'00000000000000000000000000', '000000000000000000000000000', ulid_prefix_range('01'));
INSERT INTO ids VALUES (-1, 'jpXCZedGfVQ', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ',
	'7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ZZZZZZZZZZZZZZZZZZZZZZZZZW3', 'empty');
CREATE UNIQUE INDEX ids_u ON ids (u);
CREATE UNIQUE INDEX ids_t ON ids (t);
CREATE UNIQUE INDEX ids_f ON ids (f);
CREATE UNIQUE INDEX ids_l ON ids (l);
CREATE UNIQUE INDEX ids_e ON ids (e);
CREATE INDEX ids_hl_hash ON ids USING hash (hl);
CREATE INDEX ids_hu_hash ON ids USING hash (hu);
CREATE INDEX ids_bt_brin ON ids USING brin (bt) WITH (pages_per_range = 4);
CREATE INDEX ids_be_brin ON ids USING brin (be) WITH (pages_per_range = 4);
ANALYZE ids;
CREATE FUNCTION plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
END $$;
SET client_min_messages = warning;
CREATE EXTENSION idtypes_uuidv7;
RESET client_min_messages;
CREATE TABLE v7 (id uuid PRIMARY KEY DEFAULT public.uuidv7(), n int);
INSERT INTO v7 (n) SELECT generate_series(1, 1000);
SQL

# The answers to compare: the rows' text (per column), and what each index answers.
answers() { # psql function
	"$@" <<'SQL'
SELECT 'rows ' || md5(string_agg(format('%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s', n, u, t, f, l, e, r, hu, hl, bt, be),
                                 ',' ORDER BY n)) FROM ids;
SELECT 'count ' || count(*) FROM ids;
-- ^@ and <@, then the same questions asked of the text and the timestamps (the "_ref" lines).
SELECT 'prefix ' || (SELECT count(*) FROM ids WHERE u ^@ left((SELECT u::text FROM ids WHERE n = 5000), 5))
	|| ' ' || (SELECT count(*) FROM ids WHERE l ^@ left((SELECT l::text FROM ids WHERE n = 5000), 9))
	|| ' ' || (SELECT count(*) FROM ids WHERE e ^@ left((SELECT e::text FROM ids WHERE n = 5000), 9));
SELECT 'prefix_ref ' || (SELECT count(*) FROM ids WHERE left(u::text, 5) = left((SELECT u::text FROM ids WHERE n = 5000), 5))
	|| ' ' || (SELECT count(*) FROM ids WHERE left(l::text, 9) = left((SELECT l::text FROM ids WHERE n = 5000), 9))
	|| ' ' || (SELECT count(*) FROM ids WHERE left(e::text, 9) = left((SELECT e::text FROM ids WHERE n = 5000), 9));
SELECT 'window ' || (SELECT count(*) FROM ids WHERE t <@ timeid_time_range(tstzrange(
		(SELECT timeid_timestamp(t) FROM ids WHERE n = 1000), (SELECT timeid_timestamp(t) FROM ids WHERE n = 9000))))
	|| ' ' || (SELECT count(*) FROM ids WHERE f <@ ulidflake_time_range(tstzrange(
		(SELECT ulidflake_timestamp(f) FROM ids WHERE n = 1000), (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 9000))));
SELECT 'window_ref ' || (SELECT count(*) FROM ids WHERE timeid_timestamp(t) >= (SELECT timeid_timestamp(t) FROM ids WHERE n = 1000)
		AND timeid_timestamp(t) < (SELECT timeid_timestamp(t) FROM ids WHERE n = 9000))
	|| ' ' || (SELECT count(*) FROM ids WHERE ulidflake_timestamp(f) >= (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 1000)
		AND ulidflake_timestamp(f) < (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 9000));
-- hu, hl, bt and be have only their hash or BRIN index: these lookups go through it.
SET enable_seqscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT 'hash ' || (SELECT count(*) FROM ids a WHERE a.n % 100 = 0 AND EXISTS (SELECT 1 FROM ids b WHERE b.hl = a.l))
	|| ' ' || (SELECT count(*) FROM ids a WHERE a.n % 100 = 0 AND EXISTS (SELECT 1 FROM ids b WHERE b.hu = a.u));
SELECT 'brin ' || (SELECT count(*) FROM ids WHERE bt >= (SELECT t FROM ids WHERE n = 3000) AND bt < (SELECT t FROM ids WHERE n = 4000))
	|| ' ' || (SELECT count(*) FROM ids WHERE be > (SELECT e FROM ids WHERE n = 19000));
SELECT 'plan ' || string_agg(substring(line FROM 'Index Scan (?:using|on) (ids_\w+)'), ' ')
FROM (SELECT plan_lines('SELECT 1 FROM ids WHERE hl = ''01ARZ3NDEKTSV4RRFFQ69G5FAV'''
                  || ' UNION ALL SELECT 1 FROM ids WHERE hu = ''NQm6nKp8qFD'''
                  || ' UNION ALL SELECT 1 FROM ids WHERE bt > ''3kxnlhr3gxq23'''
                  || ' UNION ALL SELECT 1 FROM ids WHERE be > ''C8EE934SR007G5Q94QKKXFRFV8B''') AS line) s;
SQL
}
# known <label> <answers file>: the answers that do not depend on the random bits, and those
# that must equal their reference line.
known() {
	local label=$1 file=$2 a r
	a=$(sed -n 's/^prefix //p' "$file")
	r=$(sed -n 's/^prefix_ref //p' "$file")
	if [ -n "$a" ] && [ "$a" = "$r" ] && [[ ! " $a " =~ \ 0\  ]]; then
		ok "$label: ^@ counts ($a) are those of left(id::text, n) = prefix"
	else
		bad "$label: ^@ counts '$a', left(text) counts '$r'"
	fi
	a=$(sed -n 's/^window //p' "$file")
	r=$(sed -n 's/^window_ref //p' "$file")
	if [ "$a" = "$r" ] && [ "${a%% *}" = 8000 ]; then
		ok "$label: <@ window counts ($a) are those of the timestamps, 8000 timeids"
	else
		bad "$label: <@ window counts '$a', by timestamp '$r' (want 8000 timeids)"
	fi
	for want in "count 20002" "hash 200 200" "brin 1000 1000" "plan ids_hl_hash ids_hu_hash ids_bt_brin ids_be_brin"; do
		if grep -qx "$want" "$file"; then ok "$label: $want"; else bad "$label: no line '$want' in the answers"; fi
	done
}
answers old_sql >"$work/before.txt"
cat "$work/before.txt"
known "old cluster" "$work/before.txt"

# Debian's PostgreSQL 15.20 (its security release of November 2026) gives every column an attribute
# option pg_attver that 17.11's and 18.6's pg_dump copy but their servers reject, so pg_upgrade
# from it fails on any table at all, with or without idtypes. Remove that option from the old
# catalog first: this works around PostgreSQL, and changes nothing of idtypes' data.
old_sql -c "UPDATE pg_attribute SET attoptions = nullif(array(SELECT o FROM unnest(attoptions) o
	WHERE o NOT LIKE 'pg_attver=%'), '{}') WHERE attoptions::text LIKE '%pg_attver=%'"
PGBIN=$oldbin bash "$cluster" stop "$work/old"

# A new, empty cluster, stopped, then the upgrade, run as the server's user.
PGBIN=$newbin PGPORT=$new_port bash "$cluster" start "$work/new"
PGBIN=$newbin bash "$cluster" stop "$work/new"
as_server_user() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if ! (cd "$work" && as_server_user "$newbin/pg_upgrade" -b "$oldbin" -B "$newbin" \
	-d "$work/old/data" -D "$work/new/data" -p $old_port -P $new_port -s "$work" -U postgres \
	>"$work/pg_upgrade.log" 2>&1); then
	cat "$work/pg_upgrade.log"
	find "$work/new/data" -name 'pg_upgrade_dump_*.log' -exec grep -B2 -A8 -E 'ERROR|FATAL' {} + 2>/dev/null || true
	echo "FAILED: pg_upgrade"
	exit 1
fi
ok "pg_upgrade"
PGBIN=$newbin PGPORT=$new_port bash "$cluster" start "$work/new"

answers new_sql >"$work/after.txt"
if diff "$work/before.txt" "$work/after.txt"; then
	ok "the same rows, prefix and window counts, hash and BRIN answers after the upgrade"
else
	bad "answers differ after the upgrade"
fi
known "new cluster" "$work/after.txt"

new_sql -c "CREATE EXTENSION amcheck"
check "bt_index_check (heapallindexed) clean on all 6 btree indexes" \
	"SELECT count(*) = 6 FROM (SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'ids'::regclass AND a.amname = 'btree') s"
default_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$top/idtypes.control")
check "the extension is the same version ($default_version)" \
	"SELECT extversion = '$default_version' FROM pg_extension WHERE extname = 'idtypes'"

# The generators go on: new rows by default, after every old one (the clock moved on).
new_sql -c "INSERT INTO ids (n) SELECT generate_series(20001, 21000)"
check "generated IDs after the upgrade sort after the old ones" \
	"SELECT bool_and(u > (SELECT max(u) FROM ids WHERE n BETWEEN 1 AND 20000) AND t > (SELECT max(t) FROM ids WHERE n BETWEEN 1 AND 20000)
	  AND f > (SELECT max(f) FROM ids WHERE n BETWEEN 1 AND 20000) AND l > (SELECT max(l) FROM ids WHERE n BETWEEN 1 AND 20000)
	  AND e > (SELECT max(e) FROM ids WHERE n BETWEEN 1 AND 20000)) FROM ids WHERE n > 20000"

# ^@ and <@ are btree index range scans on the new server.
for q in "u ^@ '1'" "l ^@ '01'" "e <@ euid_time_range('[2020-01-01, 2030-01-01)')" "t <@ timeid_time_range('[2020-01-01, 2030-01-01)')"; do
	plan=$(new_sql -c "SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) SELECT * FROM ids WHERE $q")
	if grep -qE 'Index (Only )?Scan using ids_' <<<"$plan" && grep -q 'Index Cond' <<<"$plan"; then
		ok "$q is an index range scan"
	else
		bad "$q is not an index range scan:"
		echo "$plan"
	fi
done

# idtypes_uuidv7 moved to the new server.
new_sql -c "INSERT INTO v7 (n) SELECT generate_series(1001, 2000)"
check "idtypes_uuidv7: the default public.uuidv7() goes on, after the old IDs" \
	"SELECT pg_get_expr(d.adbin, d.adrelid) = 'public.uuidv7()' AND (SELECT bool_and(id > (SELECT id FROM v7 WHERE n <= 1000 ORDER BY id DESC LIMIT 1))
	   FROM v7 WHERE n > 1000) FROM pg_attrdef d WHERE d.adrelid = 'v7'::regclass"
check "idtypes_uuidv7: its uuidv7() and core's share one clock (interleaved, increasing)" \
	"SELECT bool_and(a < b AND a > prev_b) FROM (SELECT a, b, lag(b, 1, '00000000-0000-0000-0000-000000000000')
	   OVER (ORDER BY n) AS prev_b FROM (SELECT n, public.uuidv7() AS a, pg_catalog.uuidv7() AS b
	   FROM generate_series(1, 20000) n) g) s"
new_sql -c "ALTER TABLE v7 ALTER COLUMN id SET DEFAULT pg_catalog.uuidv7()" -c "DROP EXTENSION idtypes_uuidv7" \
	-c "INSERT INTO v7 (n) SELECT generate_series(2001, 2100)"
check "idtypes_uuidv7 dropped after the default moved to core's: core's uuidv7() and extraction remain" \
	"SELECT count(*) = 2 AND bool_and(pronamespace = 'pg_catalog'::regnamespace) FROM pg_proc WHERE proname = 'uuidv7'"

# known twice (6 each), pg_upgrade, the same answers, amcheck, version, generators, 4 plans,
# idtypes_uuidv7's 3.
finish $((2 * 6 + 1 + 1 + 2 + 1 + 4 + 3))
