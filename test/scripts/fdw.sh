#!/usr/bin/env bash
# fdw.sh: the five types through postgres_fdw between two clusters.
#
# A "remote" cluster holds a table with a column of each type (btree index on each, the ulid the
# primary key) and a ulidrange column, FDW_ROWS (default 20,000) rows spread over hours plus rows
# from the column defaults. A "local" cluster reaches it through a foreign server with
# OPTIONS (extensions 'idtypes') and keeps a plain copy of the same rows. Per type:
#   - `=`, `<` and `<@ <type>_time_range(...)` on the ID column are shipped (EXPLAIN VERBOSE shows
#     them in "Remote SQL" and no local Filter), and give the rows the local copy gives;
#   - `^@ 'prefix'` is not shipped but evaluated locally, as the README says (postgres_fdw ships
#     an operator whose input collation comes only from a foreign Var, and the prefix is a text
#     constant with the default collation), and gives the right rows;
#   - `<@ <type>_prefix_range('prefix')`, the documented workaround, is shipped and gives the
#     same rows as `^@`;
#   - ORDER BY id LIMIT and min()/max() are shipped too.
# In a generic plan `u <@ ulid_prefix_range($1)` (a text parameter) is evaluated locally and
# `u <@ $1` (a ulidrange parameter) is shipped; a window computed from a stable expression is
# evaluated locally. Each as the README states it, with the right rows.
# Also: without the extensions option nothing of idtypes is shipped (and results are the same),
# and INSERT/UPDATE/DELETE through the foreign table reach the remote table.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Ports PGPORT+54
# (remote) and PGPORT+55 (local).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
. "$(dirname "$0")/../lib/ids_table.sh"

ROWS=${FDW_ROWS:-20000}
nodes_workdir
major=$(server_major)
rdir=$work/remote rport=$((PGPORT + 54))
ldir=$work/local lport=$((PGPORT + 55))
R() { node_psql "$rdir" "$rport" -d remote "$@"; }
L() { node_psql "$ldir" "$lport" -d local "$@"; }

. "$(dirname "$0")/../lib/report.sh"

start=$SECONDS
node_start "$rdir" "$rport"
node_start "$ldir" "$lport"
node_psql "$rdir" "$rport" -d postgres -c "CREATE DATABASE remote"
node_psql "$ldir" "$lport" -d postgres -c "CREATE DATABASE local"

TABLE_DDL=$(ids_columns)

R <<SQL
CREATE EXTENSION idtypes;
$(ids_table_sql ids)
-- IDs of times spread over $ROWS seconds back from now, then some from the column defaults.
INSERT INTO ids (u, x, t, f, e, r, n)
SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts),
       generate_euid_at(ts),
       CASE g % 4 WHEN 0 THEN NULL
                  WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
                  WHEN 2 THEN 'empty'
                  ELSE ulid_prefix_range(left(generate_ulid_at(ts)::text, 4)) END,
       g
FROM generate_series(1, $ROWS) g,
     LATERAL (SELECT now() - g * interval '1 second' - random() * interval '900 ms' AS ts) s;
INSERT INTO ids (n) SELECT g FROM generate_series($ROWS + 1, $ROWS + 500) g;
ANALYZE ids;
SQL

# The local side: the foreign tables and a plain copy of the rows.
L <<SQL
CREATE EXTENSION idtypes;
CREATE EXTENSION postgres_fdw;
CREATE SERVER remote_idt FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$rdir', port '$rport', dbname 'remote', extensions 'idtypes');
CREATE USER MAPPING FOR postgres SERVER remote_idt OPTIONS (user 'postgres');
CREATE SERVER remote_plain FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$rdir', port '$rport', dbname 'remote');
CREATE USER MAPPING FOR postgres SERVER remote_plain OPTIONS (user 'postgres');
CREATE FOREIGN TABLE f_ids (u ulid, x uid11, t timeid, f ulidflake, e euid, r ulidrange, n int)
	SERVER remote_idt OPTIONS (table_name 'ids');
CREATE FOREIGN TABLE p_ids (u ulid, x uid11, t timeid, f ulidflake, e euid, r ulidrange, n int)
	SERVER remote_plain OPTIONS (table_name 'ids');
CREATE TABLE l_ids $TABLE_DDL;
SQL
R -c "COPY ids TO STDOUT" | L -c "COPY l_ids FROM STDIN"
L -c "ANALYZE l_ids"
echo "postgres_fdw on PostgreSQL $major: $(L -c "SELECT count(*) FROM l_ids") rows copied in $((SECONDS - start)) s"

# rows_md5 <query>: digest and count of the query's rows, in a fixed order.
rows_md5() {
	L -c "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*) FROM ($1) q"
}
plan() { L -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
remote_sql() { plan "$1" | sed -n 's/^ *Remote SQL: //p'; }
# local_filter <query>: the Filter lines of the plan (evaluated on the local side).
local_filter() { plan "$1" | grep -E '^ *Filter: ' || true; }

# same_rows <what> <query with %T for the table>: the foreign table gives the local copy's rows
# (and at least one row, unless the third argument is "maybe_empty").
same_rows() {
	local what=$1 q=$2 fq lq want got
	fq=${q//%T/f_ids}
	lq=${q//%T/l_ids}
	want=$(rows_md5 "$lq")
	got=$(rows_md5 "$fq")
	if [ "$want" = "$got" ] && { [ "${want#*:}" != 0 ] || [ "${3:-}" = maybe_empty ]; }; then
		ok "$what: ${want#*:} rows, as on the local copy"
	else
		bad "$what: foreign '$got', local copy '$want'"
	fi
}

# shipped <what> <query> <pattern in Remote SQL>: the condition is in Remote SQL, no local Filter.
shipped() {
	local what=$1 q=$2 pat=$3 rs lf
	rs=$(remote_sql "$q")
	lf=$(local_filter "$q")
	if grep -qF -- "$pat" <<<"$rs" && [ -z "$lf" ]; then
		ok "$what is shipped: $rs"
	else
		bad "$what is not shipped: Remote SQL '$rs'; local '$lf'"
	fi
}

# Per type: column, type name (for the function names).
for ct in "x uid11" "t timeid" "f ulidflake" "u ulid" "e euid"; do
	read -r c ty <<<"$ct"
	# A constant from the data (the median row), a prefix of it that ~1% of the rows share at most,
	# and a 200 s window around it.
	val=$(L -c "SELECT $c FROM l_ids ORDER BY $c OFFSET $((ROWS / 2)) LIMIT 1")
	ts=$(L -c "SELECT ${ty/uid11/xid}_timestamp('$val'::$ty)")
	prefix=$(L -c "SELECT p FROM generate_series(1, 12) len, LATERAL (SELECT left('$val', len) AS p) s
		WHERE (SELECT count(*) FROM l_ids WHERE left($c::text, len) = p) <= $ROWS / 100 ORDER BY len LIMIT 1")
	# Literal bounds: an expression with now() or timestamptz - interval is only stable, so it is
	# not folded at plan time and postgres_fdw would not ship it (reported once below).
	window=$(L -c "SELECT quote_literal(tstzrange('$ts'::timestamptz - interval '100 s', '$ts'::timestamptz + interval '100 s'))")
	window="$window::tstzrange"

	q="SELECT * FROM %T WHERE $c = '$val'"
	shipped "$ty: $c = const" "${q//%T/f_ids}" "$c OPERATOR(public.=) '$val'"
	same_rows "$ty: $c = const" "$q"

	q="SELECT * FROM %T WHERE $c < '$val'"
	shipped "$ty: $c < const" "${q//%T/f_ids}" "$c OPERATOR(public.<) '$val'"
	same_rows "$ty: $c < const" "$q"

	q="SELECT * FROM %T WHERE $c <@ ${ty}_time_range($window)"
	shipped "$ty: $c <@ ${ty}_time_range(...)" "${q//%T/f_ids}" "($c OPERATOR(public.<@) '"
	same_rows "$ty: $c <@ ${ty}_time_range(...)" "$q"

	# ^@ is evaluated locally (the README says so); its rows must be right.
	q="SELECT * FROM %T WHERE $c ^@ '$prefix'"
	rs=$(remote_sql "${q//%T/f_ids}")
	lf=$(local_filter "${q//%T/f_ids}")
	if ! grep -qF '^@' <<<"$rs" && grep -qF '^@' <<<"$lf"; then
		ok "$ty: $c ^@ '$prefix' is not shipped: evaluated locally (${lf#"${lf%%[![:space:]]*}"})"
	else
		bad "$ty: $c ^@ '$prefix' is not evaluated locally as the README says: Remote SQL '$rs'; local '$lf'"
	fi
	same_rows "$ty: $c ^@ '$prefix' (prefix of ~1% at most)" "$q"
	# The reference: the ID's text starts with the prefix, without the operator.
	want=$(rows_md5 "SELECT * FROM l_ids WHERE left($c::text, ${#prefix}) = '$prefix'")
	got=$(rows_md5 "${q//%T/f_ids}")
	if [ "$want" = "$got" ]; then ok "$ty: ^@ over the foreign table = left(text) on the local copy"; else bad "$ty: ^@ over the foreign table '$got', left(text) '$want'"; fi

	# The workaround: <@ <type>_prefix_range('p') is folded to a range constant and shipped.
	q2="SELECT * FROM %T WHERE $c <@ ${ty}_prefix_range('$prefix')"
	shipped "$ty: $c <@ ${ty}_prefix_range('$prefix')" "${q2//%T/f_ids}" "($c OPERATOR(public.<@) '"
	got2=$(rows_md5 "${q2//%T/f_ids}")
	if [ "$got2" = "$want" ]; then ok "$ty: <@ ${ty}_prefix_range('$prefix') gives the rows of ^@ '$prefix' (${want#*:})"; else bad "$ty: <@ prefix_range '$got2', ^@ '$want'"; fi

	q="SELECT $c FROM %T ORDER BY $c DESC LIMIT 5"
	shipped "$ty: ORDER BY $c LIMIT" "${q//%T/f_ids}" "ORDER BY $c"
	same_rows "$ty: ORDER BY $c DESC LIMIT 5" "$q"
	q="SELECT min($c), max($c) FROM %T"
	shipped "$ty: min($c), max($c)" "${q//%T/f_ids}" "min($c)"
	same_rows "$ty: min($c), max($c)" "$q"

	# Without the extensions option postgres_fdw keeps every idtypes operator local.
	q="SELECT * FROM p_ids WHERE $c = '$val'"
	lf=$(local_filter "$q")
	if grep -qF "$c = '$val'::$ty)" <<<"$lf"; then
		ok "$ty: without extensions 'idtypes', = is evaluated locally"
	else
		bad "$ty: without extensions 'idtypes': local filter '$lf', Remote SQL '$(remote_sql "$q")'"
	fi
	want=$(rows_md5 "SELECT * FROM l_ids WHERE $c = '$val'")
	got=$(rows_md5 "$q")
	if [ "$want" = "$got" ]; then ok "$ty: and gives the same row"; else bad "$ty: without extensions: '$got', want '$want'"; fi
done

# A generic plan: <@ <type>_prefix_range(\$1) cannot be folded to a constant: evaluated locally.
if [ "$major" -ge 12 ]; then
	p=$(L -c "SELECT left(u::text, 7) FROM l_ids ORDER BY u OFFSET $((ROWS / 3)) LIMIT 1")
	gp=$(L -c "SET plan_cache_mode = force_generic_plan" \
		-c "PREPARE q(text) AS SELECT * FROM f_ids WHERE u <@ ulid_prefix_range(\$1)" \
		-c "EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q('$p')")
	if grep -qE '^ *Filter: .*ulid_prefix_range' <<<"$gp" &&
		! grep -qE '^ *Remote SQL: .*ulid_prefix_range' <<<"$gp"; then
		ok "generic plan: u <@ ulid_prefix_range(\$1) is evaluated locally (the text parameter has a collation too)"
	else
		bad "generic plan: u <@ ulid_prefix_range(\$1) is not evaluated locally as the README says: $gp"
	fi
	want=$(rows_md5 "SELECT * FROM l_ids WHERE left(u::text, 7) = '$p'")
	got=$(L -c "SET plan_cache_mode = force_generic_plan" \
		-c "PREPARE q(text) AS SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*) FROM (SELECT * FROM f_ids WHERE u <@ ulid_prefix_range(\$1)) q" \
		-c "EXECUTE q('$p')")
	if [ "$want" = "$got" ]; then ok "generic plan: u <@ ulid_prefix_range(\$1) gives ${want#*:} rows, as left(text) does"; else bad "generic plan: '$got', want '$want'"; fi
	# A range parameter (the range computed beforehand) has no collation: shipped as a parameter.
	gp=$(L -c "SET plan_cache_mode = force_generic_plan" \
		-c "PREPARE q(ulidrange) AS SELECT * FROM f_ids WHERE u <@ \$1" \
		-c "EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q(ulid_prefix_range('$p'))")
	rs=$(sed -n 's/^ *Remote SQL: //p' <<<"$gp")
	if grep -qF "OPERATOR(public.<@) \$1" <<<"$rs" && ! grep -qE '^ *Filter: ' <<<"$gp"; then
		ok "generic plan: u <@ \$1 (a ulidrange parameter) is shipped: $rs"
	else
		bad "generic plan: u <@ \$1 (ulidrange) is not shipped: $gp"
	fi
	got=$(L -c "SET plan_cache_mode = force_generic_plan" \
		-c "PREPARE q(ulidrange) AS SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*) FROM (SELECT * FROM f_ids WHERE u <@ \$1) q" \
		-c "EXECUTE q(ulid_prefix_range('$p'))")
	if [ "$want" = "$got" ]; then ok "generic plan: u <@ \$1 gives the same ${want#*:} rows"; else bad "generic plan: u <@ \$1: '$got', want '$want'"; fi
fi

# A window computed at run time is stable, not folded, so not shipped: the scan fetches every row.
# The end of the window is read once (text -> timestamptz is stable, as now() is), so that both
# sides see the same window: with now() itself, a row an hour old could fall in one and not the other.
t_end=$(L -c "SELECT now()::text")
stable_end="'$t_end'::text::timestamptz"
q="SELECT * FROM f_ids WHERE u <@ ulid_time_range(tstzrange($stable_end - interval '1 hour', $stable_end))"
lf=$(local_filter "$q")
if grep -qF 'ulid_time_range' <<<"$lf" && ! grep -qF '<@' <<<"$(remote_sql "$q")"; then
	ok "u <@ ulid_time_range(<stable window of 1 hour>) is evaluated locally: Remote SQL $(remote_sql "$q")"
else
	bad "u <@ ulid_time_range(<stable window of 1 hour>) is not evaluated locally as the README says: local '$lf', Remote SQL '$(remote_sql "$q")'"
fi
same_rows "u <@ ulid_time_range(<stable window of 1 hour>)" "${q//f_ids/%T}"

# Writes through the foreign table: IDs made locally, sent as text, read back from the remote.
L <<'SQL'
CREATE TABLE l_new AS
SELECT generate_ulid() AS u, generate_xid() AS x, generate_tid() AS t, generate_ulidflake() AS f,
       generate_euid() AS e, ulid_time_range(tstzrange(now(), now() + interval '1 s')) AS r,
       -g AS n
FROM generate_series(1, 300) g;
INSERT INTO f_ids SELECT * FROM l_new;
UPDATE f_ids SET x = generate_xid_at('2020-01-01'), e = generate_euid() WHERE n IN (SELECT n FROM l_new WHERE n % 3 = 0);
DELETE FROM f_ids WHERE u IN (SELECT u FROM l_new WHERE n % 5 = 0);
SQL
want=$(rows_md5 "SELECT u, t, f, r, n, n % 3 = 0 AS upd FROM l_new WHERE n % 5 <> 0")
got=$(R -c "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*)
	FROM (SELECT u, t, f, r, n, n % 3 = 0 AS upd FROM ids WHERE n < 0) q")
if [ "$want" = "$got" ]; then ok "INSERT/DELETE through the foreign table: remote rows as sent (${want#*:})"; else bad "writes through the foreign table: remote '$got', sent '$want'"; fi
got=$(R -c "SELECT bool_and(xid_timestamp(x) >= '2020-01-01' AND xid_timestamp(x) < '2020-01-01 00:00:00.001'
	AND e IS NOT NULL) FROM ids WHERE n < 0 AND n % 3 = 0")
if [ "$got" = t ]; then ok "UPDATE of ID columns through the foreign table reached the remote rows"; else bad "UPDATE through the foreign table: '$got'"; fi

echo "fdw.sh: $((SECONDS - start)) s"
# 17 per type; the generic plans 4; the stable window 2; the writes 2.
finish $((5 * 17 + 4 + 2 + 2))
