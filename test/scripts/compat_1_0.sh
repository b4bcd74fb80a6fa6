#!/usr/bin/env bash
# compat_1_0.sh: data written by the released 1.0 library reads the same under the current one.
#
# The 1.0 release (the parent of the commit that added idtypes--1.1.sql, checked against the
# mk/checks.mk's IDTYPES_1_0_SHA256) is built from git with this server's pg_config and installed into
# a stage. A throwaway cluster running that library makes, under CREATE EXTENSION idtypes
# VERSION '1.0', a table with a column of each type from the generators (NULLs among them), range
# columns, btree, hash, BRIN minmax and minmax-multi indexes, a table range-partitioned on a ulid
# and one hash-partitioned on a euid; it saves a text dump (the rows, the partitions they are in,
# the order each column sorts in), a binary COPY and the answers of ^@, <@ and = queries.
# The same data directory is then started with the current library (the one run_tests installed:
# IDTYPES_EXTENSION_DESTDIR when the caller has it), once as the 1.0 catalog left it and once after
# ALTER EXTENSION idtypes UPDATE, and each time:
#   - the text dump is byte-identical, and so is a binary COPY of the same rows;
#   - the 1.0 binary COPY file loads into a fresh table with the same rows;
#   - every query gives 1.0's rows through each kind of index (the others dropped inside a
#     transaction that rolls back, seq scan off) and through a seq scan, and its plan uses the
#     index it was left (btree, BRIN minmax, BRIN minmax-multi, hash);
#   - amcheck's bt_index_check(index, heapallindexed) passes on every btree index.
# After the update, new rows from the generators go in and the btree indexes still check.
#
# Run by test/run_tests.sh (PGBIN, PGPORT, PG_CONFIG and IDTYPES_TEST_START_CLUSTER set). Port
# PGPORT+7. Exit status 77 when the checkout has no git history (a release archive) or 1.0 does
# not build on this (newer) server.
set -euo pipefail
trap '' PIPE
umask 022

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
PG_CONFIG=${PG_CONFIG:-$PGBIN/pg_config}
top=$(cd "$(dirname "$0")/../.." && pwd)
# The current library's stage, if the caller's server loads the extension from one; the 1.0
# cluster gets its own stage instead, the current one this again or the server's directories.
current_stage=${IDTYPES_EXTENSION_DESTDIR:-}
unset PGSERVICE PGOPTIONS PGDATABASE
export PGTZ=UTC

. "$top/test/lib/report.sh"
. "$top/test/lib/nodes.sh"

# --- The 1.0 release in git ---------------------------------------------------------------------
if ! toplevel=$(git -C "$top" rev-parse --show-toplevel 2>&1) || [ "$toplevel" != "$top" ]; then
	echo "compat_1_0: $top is not a git checkout (a release archive?; git says: ${toplevel%%$'\n'*}): the 1.0 release cannot be built"
	exit 77
fi
added=$(git -C "$top" log --diff-filter=A --format=%H -- idtypes--1.1.sql | tail -n 1)
if [ -z "$added" ] || ! release=$(git -C "$top" rev-parse -q --verify "$added^" 2>/dev/null); then
	echo "compat_1_0: the git history does not reach the 1.0 release (the parent of the commit adding idtypes--1.1.sql): a shallow clone?"
	exit 77
fi
frozen=$(sed -n 's/^IDTYPES_1_0_SHA256 *= *//p' "$top/mk/checks.mk")
got=$(git -C "$top" show "$release:idtypes--1.0.sql" | sha256sum | cut -d' ' -f1)
if [ -n "$frozen" ] && [ "$got" = "$frozen" ] &&
	grep -qx "default_version = '1.0'" <<<"$(git -C "$top" show "$release:idtypes.control")"; then
	ok "1.0 is commit ${release:0:12}: its idtypes--1.0.sql has the Makefile's sha256 and its default version is 1.0"
else
	bad "commit ${release:0:12} (the parent of ${added:0:12}, which added idtypes--1.1.sql) is not the 1.0 release: idtypes--1.0.sql's sha256 is $got, mk/checks.mk's IDTYPES_1_0_SHA256 is '$frozen'"
	exit 1
fi

# --- Build and stage 1.0 ------------------------------------------------------------------------
nodes_workdir
src10=$work/src10 stage10=$work/stage10 out=$work/out
mkdir -p "$src10" "$out"
git -C "$top" archive "$release" | tar -x -C "$src10"
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
# A make of our own: not the caller's job server or flags (make test may be the caller). With
# IDTYPES_CCACHE=1 (CI), which 1.0's Makefile does not know, its compiler through ccache's links.
ccache_path=
[ "${IDTYPES_CCACHE:-0}" != 1 ] || [ ! -d /usr/lib/ccache ] || ccache_path=/usr/lib/ccache:
make10() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DESTDIR PATH="$ccache_path$PATH" make -C "$src10" PG_CONFIG="$PG_CONFIG" "$@"; }
if ! make10 -j2 >"$work/build10.log" 2>&1; then
	# 1.0 was built and tested on 15. On 16+ postgres.h no longer brings SET_VARSIZE and friends
	# (varatt.h); 1.1 added that include to compat.h. The same include, and nothing else, is
	# tried before giving up.
	if [ "$major" -ge 16 ] && grep -qE "VARSIZE|VARDATA|VARHDRSZ" "$work/build10.log"; then
		sed -i 's|#include "nodes/miscnodes.h"|&\n#include "varatt.h"|' "$src10/src/compat.h"
		echo "compat_1_0: 1.0 does not build as released on $major (varatt.h): building it with that include"
		make10 -j2 >"$work/build10.log" 2>&1 || true
	fi
	if [ ! -f "$src10/idtypes.so" ]; then
		grep -m 20 -E "error" "$work/build10.log" || tail -n 20 "$work/build10.log"
		why=$(grep -m 1 -E "error:" "$work/build10.log" || echo "see above")
		if [ "$major" -gt 15 ]; then
			echo "compat_1_0: the 1.0 release does not build on PostgreSQL $major: $why"
			exit 77
		fi
		bad "the 1.0 release does not build on PostgreSQL $major, the server it was released for: $why"
		exit 1
	fi
fi
if make10 install DESTDIR="$stage10" >"$work/install10.log" 2>&1; then
	ok "1.0 builds on PostgreSQL $major and installs into a stage"
else
	cat "$work/install10.log"
	bad "make install of 1.0 into a stage"
	exit 1
fi

dir=$work/n port=$((PGPORT + 7))
Q() { node_psql "$dir" "$port" -d postgres "$@"; }
pkglibdir=$("$PG_CONFIG" --pkglibdir)

# loaded_library <stage>: ok if a backend that calls idtypes_version() maps <stage>'s idtypes.so
# and no other; prints the version the library reports.
loaded_library() {
	local want=$1$pkglibdir/idtypes.so maps
	maps=$(Q 2>&1 <<'SQL'
SELECT 'version ' || idtypes_version();
SELECT pg_backend_pid() AS pid \gset
\setenv IDT_PID :pid
\! grep -oE '/[^ ]*/idtypes[.]so$' /proc/$IDT_PID/maps | sort -u
SQL
	) || true
	if [ "$(grep -c 'idtypes[.]so$' <<<"$maps")" -eq 1 ] && grep -qxF "$want" <<<"$maps"; then
		sed -n 's/^version //p' <<<"$maps"
	else
		echo "does not map $want alone: $(tr '\n' ' ' <<<"$maps")"
		return 1
	fi
}

# --- Under 1.0: the data, its dumps and its answers ---------------------------------------------
IDTYPES_EXTENSION_DESTDIR=$stage10 node_start "$dir" "$port"
Q <<'SQL'
CREATE EXTENSION idtypes VERSION '1.0';
CREATE EXTENSION amcheck;
-- 6000 rows 87 min apart through 2026 from the *_at generators, one in seven of each column from
-- a generator that reads the clock (and random bits), and NULLs; ranges of each kind, empty and
-- unbounded ones among them.
CREATE TABLE ids (n int PRIMARY KEY, u uid11, t timeid, f ulidflake, l ulid, e euid,
                  ur uid11range, tr timeidrange, fr ulidflakerange, lr ulidrange, er euidrange);
INSERT INTO ids
SELECT n, u, t, f, l, e,
       CASE n % 4 WHEN 0 THEN uid11_time_range(w) WHEN 1 THEN uid11_prefix_range(left(u::text, 2))
                  WHEN 2 THEN uid11range(u, NULL) ELSE 'empty' END,
       CASE n % 4 WHEN 0 THEN timeid_time_range(w) WHEN 1 THEN timeid_prefix_range(left(t::text, 4))
                  WHEN 2 THEN timeidrange(NULL, t, '(]') ELSE 'empty' END,
       CASE n % 4 WHEN 0 THEN ulidflake_time_range(w) WHEN 1 THEN ulidflake_prefix_range(left(f::text, 3))
                  WHEN 2 THEN ulidflakerange(f, f, '[]') ELSE NULL END,
       CASE n % 4 WHEN 0 THEN ulid_time_range(w) WHEN 1 THEN ulid_prefix_range(left(l::text, 6))
                  WHEN 2 THEN ulidrange(l, NULL) ELSE 'empty' END,
       CASE n % 4 WHEN 0 THEN euid_time_range(w) WHEN 1 THEN euid_prefix_range(left(e::text, 5))
                  WHEN 2 THEN euidrange(NULL, e) ELSE 'empty' END
FROM (
	SELECT n, tstzrange(ts, ts + interval '2 hours') AS w,
	       CASE WHEN n % 101 = 0 THEN NULL WHEN n % 7 = 0 THEN generate_xid()
	            WHEN n % 7 = 1 THEN generate_uid11() ELSE generate_xid_at(ts) END AS u,
	       CASE WHEN n % 103 = 0 THEN NULL WHEN n % 7 = 2 THEN generate_tid(n % 1024)
	            ELSE generate_tid_at(ts, n % 1024) END AS t,
	       CASE WHEN n % 107 = 0 THEN NULL WHEN n % 7 = 3 THEN generate_ulidflake(n % 32)
	            WHEN n % 2 = 0 THEN generate_ulidflake_at(ts, n % 32) ELSE generate_ulidflake_at(ts) END AS f,
	       CASE WHEN n % 109 = 0 THEN NULL WHEN n % 7 = 4 THEN generate_ulid_monotonic()
	            WHEN n % 7 = 5 THEN generate_ulid() ELSE generate_ulid_at(ts) END AS l,
	       CASE WHEN n % 113 = 0 THEN NULL WHEN n % 7 = 5 THEN generate_euid(n % 32768)
	            WHEN n % 2 = 0 THEN generate_euid_at(ts, n % 32768) ELSE generate_euid_at(ts) END AS e
	FROM (SELECT n, '2026-01-01'::timestamptz + n * interval '87 min 13.123457 s' AS ts
	      FROM generate_series(1, 6000) n) s
) s;
DO $$
DECLARE
	ct text;
	col text;
	multi bool := EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops');
BEGIN
	FOREACH ct IN ARRAY '{u:uid11,t:timeid,f:ulidflake,l:ulid,e:euid}'::text[] LOOP
		col := split_part(ct, ':', 1);
		EXECUTE format('CREATE INDEX ids_%s_btree ON ids (%s)', col, col);
		EXECUTE format('CREATE INDEX ids_%s_hash ON ids USING hash (%s)', col, col);
		EXECUTE format('CREATE INDEX ids_%s_brin ON ids USING brin (%s) WITH (pages_per_range = 4)', col, col);
		IF multi THEN
			EXECUTE format('CREATE INDEX ids_%s_brinm ON ids USING brin (%s %s_minmax_multi_ops) WITH (pages_per_range = 4)',
			               col, col, split_part(ct, ':', 2));
		END IF;
	END LOOP;
END $$;

-- Range partitions by month of 2026 on a ulid, the rest (other times, NULL) in the default one.
CREATE TABLE pl (id ulid, n int) PARTITION BY RANGE (id);
DO $$
BEGIN
	FOR i IN 1..12 LOOP
		EXECUTE format('CREATE TABLE pl_%s PARTITION OF pl FOR VALUES FROM (%L) TO (%L)', i,
		               lower(ulid_time_range(tstzrange(make_date(2026, i, 1), NULL))),
		               lower(ulid_time_range(tstzrange(make_date(2026, 1, 1) + make_interval(months => i), NULL))));
	END LOOP;
END $$;
CREATE TABLE pl_other PARTITION OF pl DEFAULT;
CREATE INDEX pl_id_btree ON pl (id);
INSERT INTO pl SELECT l, n FROM ids;
-- Hash partitions on a euid: where a row lies is the 1.0 library's euid_hash_extended.
CREATE TABLE ph (e euid, n int) PARTITION BY HASH (e);
CREATE TABLE ph_0 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE ph_1 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE ph_2 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE ph_3 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO ph SELECT e, n FROM ids;
VACUUM ANALYZE;
SQL
if v=$(loaded_library "$stage10") && [ "$v" = 1.0 ]; then
	ok "the first cluster runs the 1.0 library (idtypes_version() = 1.0, from the stage)"
else
	bad "the first cluster does not run the staged 1.0 library: $v"
fi

# The queries, one a line: name, the column (or table) whose index it should use, the index kinds
# it is run through besides a seq scan, and the SQL. Prefixes are those of one row's IDs, the
# window is two weeks of the *_at rows.
declare -A prefix
while IFS='|' read -r col p; do prefix[$col]=$p; done < <(Q -c "
	SELECT 'u|' || left(u::text, 2) FROM ids WHERE n = 3002 UNION ALL
	SELECT 't|' || left(t::text, 3) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'f|' || left(f::text, 3) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'l|' || left(l::text, 4) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'e|' || left(e::text, 3) FROM ids WHERE n = 3002")
window="'[2026-03-01,2026-03-15)'"
multi=$(Q -c "SELECT EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops')")
brins=brin
[ "$multi" = f ] || brins="brin brinm"
queries() {
	local spec col ty p
	for spec in u:uid11 t:timeid f:ulidflake l:ulid e:euid; do
		col=${spec%%:*} ty=${spec#*:} p=${prefix[${spec%%:*}]}
		echo "prefix_$col|ids_$col|btree $brins|SELECT n FROM ids WHERE $col ^@ '$p'"
		# A right side that is not a constant: bounds from the catalog's *_prefix_range and
		# *range_first/_last at scan start.
		echo "prefix_stable_$col|ids_$col|btree $brins|SELECT n FROM ids WHERE $col ^@ left('$p' || now(), ${#p})"
		echo "window_$col|ids_$col|btree $brins|SELECT n FROM ids WHERE $col <@ ${ty}_time_range($window)"
		echo "eq_$col|ids_$col|btree hash|SELECT p.n, ARRAY(SELECT x.n FROM ids x WHERE x.$col = p.$col ORDER BY x.n) FROM ids p WHERE p.n % 40 = 0"
	done
	echo "pl_prefix|pl|btree|SELECT n, tableoid::regclass FROM pl WHERE id ^@ '${prefix[l]}'"
	echo "pl_window|pl|btree|SELECT n, tableoid::regclass FROM pl WHERE id <@ ulid_time_range($window)"
	# Each lookup goes to the partition the current euid_hash_extended names.
	echo "ph_eq|ph||SELECT p.n, ARRAY(SELECT h.n FROM ph h WHERE h.e = p.e ORDER BY h.n) FROM ids p WHERE p.n % 40 = 0"
}
queries >"$out/queries"

# probe_sql: per index kind (and "seq"), in a transaction that drops the other kinds' indexes on
# ids and rolls back, "kind|query|row count and md5 of the rows|indexes the plan uses (am:name)".
probe_sql() {
	local kind drop k c name want kinds sql
	cat <<'SQL'
CREATE FUNCTION pg_temp.digest(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE format('SELECT count(*) || '' '' || md5(coalesce(string_agg(s::text, '','' ORDER BY s::text), '''')) FROM (%s) s', q) INTO r;
	RETURN r;
END $$;
CREATE FUNCTION pg_temp.plan_indexes(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	m text[];
	found text[] := '{}';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		m := regexp_match(line, '(?:Index Scan|Index Only Scan) using (\S+)|Bitmap Index Scan on (\S+)');
		IF m IS NOT NULL THEN
			found := found || (SELECT a.amname || ':' || c.relname FROM pg_class c JOIN pg_am a ON a.oid = c.relam
			                   WHERE c.relkind = 'i' AND c.relname = coalesce(m[1], m[2]));
		END IF;
	END LOOP;
	RETURN coalesce((SELECT string_agg(DISTINCT x, ' ' ORDER BY x) FROM unnest(found) x), '-');
END $$;
SQL
	for kind in seq btree $brins hash; do
		echo "BEGIN;"
		if [ "$kind" = seq ]; then
			echo "SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;"
		else
			drop=()
			for k in btree $brins hash; do
				[ "$k" = "$kind" ] && continue
				for c in u t f l e; do drop+=("ids_${c}_$k"); done
			done
			echo "DROP INDEX $(IFS=,; echo "${drop[*]}");"
			echo "SET LOCAL enable_seqscan = off;"
		fi
		echo "SELECT '$kind', name, pg_temp.digest(q), pg_temp.plan_indexes(q) FROM (VALUES"
		sep=
		while IFS='|' read -r name want kinds sql; do
			[ "$kind" = seq ] || [[ " $kinds " == *" $kind "* ]] || continue
			printf '%s(%s, $q$%s$q$)\n' "$sep" "'$name'" "$sql"
			sep=,
		done <"$out/queries"
		echo ") v(name, q);"
		echo "ROLLBACK;"
	done
}
probe_sql >"$out/probe.sql"

dump_sql() {
	local c
	echo "COPY (SELECT * FROM ids ORDER BY n) TO STDOUT;"
	echo "COPY (SELECT tableoid::regclass, * FROM pl ORDER BY n) TO STDOUT;"
	echo "COPY (SELECT tableoid::regclass, * FROM ph ORDER BY n) TO STDOUT;"
	# The order each column sorts in (its btree comparison).
	for c in u t f l e ur tr fr lr er; do
		echo "SELECT '$c sorts as ' || string_agg(n::text, ',' ORDER BY $c, n) FROM ids;"
	done
}
dump_sql >"$out/dump.sql"
Q -f "$out/dump.sql" >"$out/dump-1.0.txt"
Q -c "COPY (SELECT * FROM ids ORDER BY n) TO STDOUT" >"$out/ids-1.0.txt"
Q -c "\\copy (SELECT * FROM ids ORDER BY n) TO '$out/ids-1.0.bin' WITH (FORMAT binary)"
Q -f "$out/probe.sql" >"$out/probe-1.0.txt"
cut -d'|' -f1-3 "$out/probe-1.0.txt" >"$out/rows-1.0.txt"

# same_as_seq <probe file>: every index kind gave the seq scan's rows; prints those that did not.
same_as_seq() {
	awk -F'|' '$1 == "seq" { seq[$2] = $3; next } { all[NR] = $0; k[NR] = $2; r[NR] = $3 }
		END { for (i in all) if (r[i] != seq[k[i]]) print "  " all[i] "  (seq scan: " seq[k[i]] ")" }' "$1"
}
# plans_missing <probe file>: the queries whose plan does not use the index of the kind they were
# left (ids_<column>_<kind>, or a btree index of pl's partitions).
plans_missing() {
	local kind name digest used want
	while IFS='|' read -r kind name digest used; do
		[ "$kind" = seq ] && continue
		want=$(awk -F'|' -v n="$name" '$1 == n { print $2 }' "$out/queries")
		case $want in
		pl) [[ " $used " == *" btree:pl_"* ]] && continue ;;
		*)
			local am=$kind
			[ "$kind" = brinm ] && am=brin
			[[ " $used " == *" $am:${want}_$kind "* ]] && continue
			;;
		esac
		echo "  $kind $name uses: $used"
	done <"$1"
}

n_queries=$(wc -l <"$out/rows-1.0.txt")
wrong=$(same_as_seq "$out/probe-1.0.txt")
empty=$(awk -F'|' '$3 ~ /^0 / { print "  " $1 " " $2 " finds no row" }' "$out/probe-1.0.txt")
if [ -z "$wrong$empty" ] && [ "$n_queries" -gt 50 ]; then
	ok "under 1.0, $n_queries query runs (each query through a seq scan and each kind of index) find rows, the same through every index"
else
	bad "under 1.0 the query runs disagree with the seq scan or find nothing ($n_queries runs):"
	printf '%s\n' "$wrong" "$empty"
fi
node_stop "$dir" "$port"
unset IDTYPES_EXTENSION_DESTDIR

# --- Under the current library ------------------------------------------------------------------
n_btree=
check_round() { # check_round <label>
	local label=$1 v wrong missing got
	if v=$(loaded_library "$current_stage"); then
		ok "$label: the current library (idtypes_version() = $v) serves the data"
	else
		bad "$label: the cluster does not run the current library: $v"
	fi

	Q -f "$out/dump.sql" >"$out/dump-$label.txt"
	if cmp -s "$out/dump-1.0.txt" "$out/dump-$label.txt"; then
		ok "$label: the text dump ($(wc -l <"$out/dump-$label.txt") lines: rows, partitions, sort orders) is byte-identical to 1.0's"
	else
		bad "$label: the text dump differs from 1.0's:"
		diff "$out/dump-1.0.txt" "$out/dump-$label.txt" >"$out/dump-$label.diff" || true
		head -n 12 "$out/dump-$label.diff" | cut -c1-200
	fi

	Q -c "\\copy (SELECT * FROM ids ORDER BY n) TO '$out/ids-$label.bin' WITH (FORMAT binary)"
	if cmp "$out/ids-1.0.bin" "$out/ids-$label.bin"; then
		ok "$label: a binary COPY of the rows is byte-identical to 1.0's"
	else
		bad "$label: a binary COPY of the rows differs from 1.0's (above)"
	fi
	got=$(Q 2>&1 <<SQL
CREATE TABLE ids_bin (LIKE ids);
\\copy ids_bin FROM '$out/ids-1.0.bin' WITH (FORMAT binary)
\\o $out/ids_bin-$label.txt
COPY (SELECT * FROM ids_bin ORDER BY n) TO STDOUT;
\\o
SELECT (SELECT count(*) FROM (TABLE ids EXCEPT ALL TABLE ids_bin) a)
       + (SELECT count(*) FROM (TABLE ids_bin EXCEPT ALL TABLE ids) b);
DROP TABLE ids_bin;
SQL
	) || true
	if [ "$got" = 0 ] && cmp -s "$out/ids-1.0.txt" "$out/ids_bin-$label.txt"; then
		ok "$label: 1.0's binary COPY file loads into a fresh table: the same rows and text"
	else
		bad "$label: 1.0's binary COPY file loads differently (rows not in both: $got)"
		diff "$out/ids-1.0.txt" "$out/ids_bin-$label.txt" >"$out/ids_bin-$label.diff" 2>&1 || true
		head -n 12 "$out/ids_bin-$label.diff" | cut -c1-200
	fi

	Q -f "$out/probe.sql" >"$out/probe-$label.txt"
	cut -d'|' -f1-3 "$out/probe-$label.txt" >"$out/rows-$label.txt"
	if diff "$out/rows-1.0.txt" "$out/rows-$label.txt" >"$out/rows-$label.diff"; then
		ok "$label: the $n_queries query runs give 1.0's rows"
	else
		bad "$label: query runs give other rows than under 1.0 (< 1.0, > now; kind|query|count md5):"
		head -n 30 "$out/rows-$label.diff"
	fi
	wrong=$(same_as_seq "$out/probe-$label.txt")
	if [ -z "$wrong" ]; then
		ok "$label: every index (btree, BRIN, hash) gives the seq scan's rows"
	else
		bad "$label: an index gives other rows than the seq scan (kind|query|count md5|indexes):"
		echo "$wrong"
	fi
	missing=$(plans_missing "$out/probe-$label.txt")
	if [ -z "$missing" ]; then
		ok "$label: each query's plan uses the index it was left (^@, <@ and = through btree, BRIN and hash indexes)"
	else
		bad "$label: plans that do not use the index they were left:"
		echo "$missing"
	fi

	got=$(Q -c "SELECT count(bt_index_check(c.oid, true)) FROM pg_class c JOIN pg_am a ON a.oid = c.relam
		WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace" 2>&1) || true
	# ids: the key and five columns; pl: thirteen partitions.
	if [ "$got" = 19 ]; then
		ok "$label: amcheck bt_index_check(heapallindexed) passes on all $got btree indexes"
	else
		bad "$label: amcheck of the btree indexes: $got"
	fi
}

if [ -n "$current_stage" ]; then
	IDTYPES_EXTENSION_DESTDIR=$current_stage node_start "$dir" "$port"
else
	node_start "$dir" "$port"
fi
check_round before-update

# The version the checkout installs, from its control file (pg_available_extensions does not see
# a stage's control file through Debian's extension_destdir).
want_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$top/idtypes.control")
got=$(Q -c "ALTER EXTENSION idtypes UPDATE" -c "SELECT extversion || ' ' || (extversion = '$want_version')
	FROM pg_extension WHERE extname = 'idtypes'" 2>&1) || true
if [ "${got#* }" = true ] && [ "${got% *}" != 1.0 ]; then
	ok "ALTER EXTENSION idtypes UPDATE: 1.0 -> ${got% *}"
else
	bad "ALTER EXTENSION idtypes UPDATE: $got"
fi
check_round after-update

got=$(Q 2>&1 <<'SQL'
INSERT INTO ids (n, u, t, f, l, e)
SELECT 100000 + g, generate_xid(), generate_tid(), generate_ulidflake(), generate_ulid_monotonic(), generate_euid()
FROM generate_series(1, 500) g;
INSERT INTO pl SELECT l, n FROM ids WHERE n > 100000;
INSERT INTO ph SELECT e, n FROM ids WHERE n > 100000;
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE EXISTS (SELECT FROM ids b WHERE b.u = a.u AND b.t = a.t AND b.n = a.n)
                          AND EXISTS (SELECT FROM ids b WHERE b.f = a.f AND b.l = a.l AND b.e = a.e AND b.n = a.n)
                          AND EXISTS (SELECT FROM pl WHERE pl.id = a.l AND pl.n = a.n)
                          AND EXISTS (SELECT FROM ph WHERE ph.e = a.e AND ph.n = a.n))
FROM ids a WHERE n > 100000;
RESET enable_seqscan;
SELECT count(bt_index_check(c.oid, true)) FROM pg_class c JOIN pg_am a ON a.oid = c.relam
WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
SQL
) || true
if [ "$got" = $'500\n19' ]; then
	ok "after the update, 500 new rows from the generators are found through the indexes and partitions, and amcheck passes"
else
	bad "new rows after the update: $got"
fi
node_stop "$dir" "$port"
finish 22
