#!/usr/bin/env bash
# update_path.sh: each released version (1.0 and 1.1, frozen) updated with ALTER EXTENSION idtypes
# UPDATE has exactly the objects of a fresh install of the default version: every member of the
# extension, the definitions of its functions, operators, types, casts and operator families, and
# their comments. Data made under 1.0 still reads after the update. Every path also works for a
# non-superuser who has CREATE on the database (idtypes is trusted).
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER/PGBIN pointing at a running cluster with
# idtypes installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
updated=idt_up_updated_$$
updated11=idt_up_updated11_$$
fresh=idt_up_fresh_$$
role=idt_up_owner_$$
work=$(mktemp -d)

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

cleanup() {
	for db in "$updated" "$updated11" "$fresh"; do
		psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	done
	psql_q -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

. "$(dirname "$0")/../lib/report.sh"

psql_q -d postgres -c "CREATE ROLE $role LOGIN" \
	-c "CREATE DATABASE $updated OWNER $role" -c "CREATE DATABASE $updated11 OWNER $role" \
	-c "CREATE DATABASE $fresh OWNER $role"
default=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$(dirname "$0")/../../idtypes.control")

# As the database owner, not a superuser: 1.0, some data, then the update.
psql_q -d "$updated" -U "$role" <<'SQL'
CREATE EXTENSION idtypes VERSION '1.0';
CREATE TABLE t (u uid11 DEFAULT generate_xid(), f ulidflake DEFAULT generate_ulidflake(),
                t timeid DEFAULT generate_tid(), l ulid DEFAULT generate_ulid_monotonic(),
                e euid DEFAULT generate_euid(), r ulidrange);
INSERT INTO t (r) SELECT ulid_prefix_range('01') FROM generate_series(1, 1000);
CREATE INDEX ON t (u); CREATE INDEX ON t USING hash (l); CREATE INDEX ON t USING brin (e);
CREATE TABLE before AS SELECT md5(string_agg(t::text, ',' ORDER BY u)) AS sum FROM t;
SQL
if [ "$(psql_q -d "$updated" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")" = 1.0 ]; then
	ok "a non-superuser installs version 1.0"
else
	bad "version 1.0 did not install"
fi
psql_q -d "$updated" -U "$role" -c "ALTER EXTENSION idtypes UPDATE"
psql_q -d "$updated11" -U "$role" -c "CREATE EXTENSION idtypes VERSION '1.1'" -c "ALTER EXTENSION idtypes UPDATE"
psql_q -d "$fresh" -U "$role" -c "CREATE EXTENSION idtypes"

# Every object of the extension, with what defines it, one line each, sorted.
cat >"$work/objects.sql" <<'SQL'
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'idtypes'),
members AS (
	SELECT d.classid, d.objid FROM pg_depend d, ext
	WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
)
SELECT line FROM (
	SELECT 'member ' || pg_describe_object(classid, objid, 0)
	       || coalesce(' -- ' || obj_description(objid, classid::regclass::name), '') AS line
	FROM members
	UNION ALL
	SELECT format('function %s(%s) returns %s: %s %s strict=%s leakproof=%s parallel=%s cost=%s rows=%s support=%s src=%s',
	              p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
	              p.prokind, p.provolatile, p.proisstrict, p.proleakproof, p.proparallel, p.procost,
	              p.prorows, p.prosupport, p.prosrc)
	FROM pg_proc p JOIN members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
	UNION ALL
	SELECT format('operator %s(%s, %s) = %s restrict=%s join=%s commutator=%s negator=%s merges=%s hashes=%s',
	              o.oprname, o.oprleft::regtype, o.oprright::regtype, o.oprcode, o.oprrest, o.oprjoin,
	              o.oprcom::regoperator, o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
	FROM pg_operator o JOIN members m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
	UNION ALL
	SELECT format('type %s len=%s byval=%s align=%s storage=%s in=%s out=%s recv=%s send=%s',
	              t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage, t.typinput, t.typoutput,
	              t.typreceive, t.typsend)
	FROM pg_type t JOIN members m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
	UNION ALL
	SELECT format('cast %s -> %s via %s context %s', c.castsource::regtype, c.casttarget::regtype,
	              c.castfunc::regprocedure, c.castcontext)
	FROM pg_cast c JOIN members m ON m.classid = 'pg_cast'::regclass AND m.objid = c.oid
	UNION ALL
	SELECT 'family member ' || pg_describe_object('pg_amop'::regclass, a.oid, 0)
	FROM pg_amop a JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = a.amopfamily
	UNION ALL
	SELECT 'family member ' || pg_describe_object('pg_amproc'::regclass, a.oid, 0)
	FROM pg_amproc a JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = a.amprocfamily
	UNION ALL
	SELECT format('opclass %s of %s default=%s', c.opcname, c.opcintype::regtype, c.opcdefault)
	FROM pg_opclass c JOIN members m ON m.classid = 'pg_opclass'::regclass AND m.objid = c.oid
) s
ORDER BY line;
SQL
psql_q -d "$fresh" -f "$work/objects.sql" >"$work/fresh.txt"
n=$(wc -l <"$work/fresh.txt")
for from in 1.0 1.1; do
	db=$updated
	[ "$from" = 1.1 ] && db=$updated11
	psql_q -d "$db" -f "$work/objects.sql" >"$work/updated-$from.txt"
	if [ "$n" -gt 300 ] && diff -u "$work/fresh.txt" "$work/updated-$from.txt"; then
		ok "$from updated to $default has the same $n catalog lines as a fresh $default"
	else
		bad "$from updated to $default and a fresh $default differ (above), or too few objects ($n lines)"
	fi
done

if [ "$(psql_q -d "$updated" -c "SELECT (SELECT sum FROM before) = md5(string_agg(t::text, ',' ORDER BY u)) FROM t")" = t ]; then
	ok "data written under 1.0 reads the same after the update"
else
	bad "data written under 1.0 reads differently after the update"
fi
if [ "$(psql_q -d "$updated" -U "$role" -c "INSERT INTO t DEFAULT VALUES RETURNING u > (SELECT max(u) FROM before, t)")" = t ]; then
	ok "the generators go on after the update"
else
	bad "the generators after the update"
fi
finish 5
