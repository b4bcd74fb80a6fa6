#!/usr/bin/env bash
# pgx_ulid.sh: the README's migration from pgx_ulid ("From pgx_ulid") runs as written, against a
# stand-in for pgx_ulid, and keeps every row.
#
# No Debian release packages pgx_ulid (a Rust extension built with pgrx), so the test installs an
# extension of the same name into a stage of its own: its `ulid` type is a domain over text whose
# values are ULID text (pgx_ulid's is a 16-byte base type with the same text form), with a
# gen_ulid() default. That is what the recipe relies on: a type named ulid in the schema idtypes
# moves to, a text form the conversion goes through, and an extension that can be dropped once no
# column uses its type. pgx_ulid's own binary type, casts and functions are not tested.
# The script starts its own cluster with the stage (idtypes as the run installed it, and the
# stand-in), creates a table t with a pgx_ulid key and 1,000 rows, runs the README's block
# (test/lib/docblocks.sh's doc_run), and checks: every row kept, with the same text; pgx_ulid gone;
# idtypes in public; a new row gets a generated idtypes ulid after the old ones.
#
# Run by test/run_tests.sh (PGBIN, PGPORT, IDTYPES_TEST_START_CLUSTER set, and
# IDTYPES_EXTENSION_DESTDIR when the run installed idtypes into a stage).
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/docblocks.sh"

nodes_workdir
pg_config=${PG_CONFIG:-$PGBIN/pg_config}
stage=$work/stage
mkdir -p "$stage"
if [ -n "${IDTYPES_EXTENSION_DESTDIR:-}" ]; then
	cp -a "$IDTYPES_EXTENSION_DESTDIR/." "$stage/"
fi
ext=$stage$("$pg_config" --sharedir)/extension
mkdir -p "$ext"
cat >"$ext/pgx_ulid.control" <<'EOF'
comment = 'a stand-in for pgx_ulid in the tests of idtypes (a type named ulid with ULID text)'
default_version = '0.1'
relocatable = false
schema = public
EOF
cat >"$ext/pgx_ulid--0.1.sql" <<'EOF'
CREATE DOMAIN ulid AS text CHECK (VALUE ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$');
CREATE FUNCTION gen_ulid() RETURNS ulid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	a constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
	ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
	r text := '';
BEGIN
	FOR i IN 1..10 LOOP
		r := substr(a, (ms % 32)::int + 1, 1) || r;
		ms := ms / 32;
	END LOOP;
	FOR i IN 1..16 LOOP
		r := r || substr(a, floor(random() * 32)::int + 1, 1);
	END LOOP;
	RETURN r;
END $$;
EOF
chmod -R a+rX "$stage"

port=$((PGPORT + 45))
IDTYPES_EXTENSION_DESTDIR=$stage node_start "$work/n" "$port"
q() { node_psql "$work/n" "$port" -d postgres "$@"; }
q >/dev/null <<'SQL'
CREATE EXTENSION pgx_ulid;
CREATE TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g;
CREATE TABLE before AS SELECT id::text AS id, n FROM t;
SQL
echo "before: $(q -c "SELECT count(*) FROM t") rows, t.id of type $(q -c "SELECT pg_typeof(id) FROM t LIMIT 1") (the stand-in pgx_ulid's)"

doc_run "$here/../../README.md" pgx_ulid.sh -h "$work/n" -p "$port" -U postgres -d postgres

got=$(q -c "SELECT (SELECT count(*) FROM t JOIN before b ON t.id::text = b.id AND t.n = b.n)
	|| ' ' || (SELECT count(*) FROM t) || ' ' || format_type(a.atttypid, NULL) || ' ' || e.extnamespace::regnamespace
	|| ' ' || (SELECT count(*) FROM pg_extension WHERE extname = 'pgx_ulid')
	FROM pg_attribute a, pg_extension e WHERE a.attrelid = 't'::regclass AND a.attname = 'id' AND e.extname = 'idtypes'")
if [ "$got" = "1000 1000 ulid public 0" ]; then
	ok "after the README's block: all 1,000 rows with the same ID text, t.id of idtypes' ulid, idtypes in public, pgx_ulid dropped"
else
	bad "after the README's block: rows kept with the same text, rows, type of t.id, idtypes' schema, pgx_ulid left: '$got' (want '1000 1000 ulid public 0')"
fi
# The new ID's type and the extension it belongs to, and whether it sorts after the old ones.
got=$(q -c "INSERT INTO t (n) VALUES (0) RETURNING pg_typeof(id)::text || ' of ' || (SELECT e.extname
	FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid WHERE d.classid = 'pg_type'::regclass
	AND d.objid = pg_typeof(id) AND d.deptype = 'e') || ' ' || (id > ALL (SELECT id FROM t WHERE n > 0))::text")
if [ "$got" = "ulid of idtypes true" ]; then
	ok "a new row gets a generated ulid (the default idtypes.generate_ulid()), after the old ones"
else
	bad "a new row's ID: type and whether after the old ones: '$got' (want 'ulid of idtypes true')"
fi
finish 3
