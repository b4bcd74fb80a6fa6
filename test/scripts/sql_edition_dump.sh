#!/usr/bin/env bash
# sql_edition_dump.sh: a logical dump of a database holding the SQL edition and a table of its IDs
# (pg_dump -Fc by the database's owner), restored by pg_restore as the owner of a new database (no
# superuser), the way each install form moves between databases and services:
#   - the plain script and the migration: into an empty database, with nothing installed first;
#   - with IDTYPES_SQL_EDITION_VIA=pg_tle (sql_edition_tle.sh runs it on its server with pg_tle
#     preloaded), the extension made by the pg_tle package: into a database where pg_tle is
#     created (the dump brings the package's functions and CREATE EXTENSION; the only errors are
#     pg_tle's own schema and comment, which the target has); again where the package was run
#     first (its two functions then stand, and are two more errors: pg_tle refuses them); and into a database with no pg_tle
#     (another service), where the plain script is run first and the dump's entries of pg_tle, its
#     schema pgtle and the extension are left out (pg_restore -L).
# Each restored database: the same rows, the same functions, sequences and privileges as the
# source, and the generators answer there (a new row by each default).
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster (pg_tle preloaded for IDTYPES_SQL_EDITION_VIA=pg_tle). Exit status 0 = pass.
set -uo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/lib/report.sh"
. "$here/test/lib/sql_edition.sh"
via=${IDTYPES_SQL_EDITION_VIA:-script}
edition_setup "idt_dump_$$"
R() { Q -U "$role" -d "$@"; }

# The table: one column of each generator's IDs as its default, an index on an expression of the
# edition's functions (restored after them), and a view.
fill() {
	R "$1" >/dev/null <<'SQL'
CREATE TABLE events (
	ulid uuid PRIMARY KEY DEFAULT idtypes_sql.generate_ulid(),
	euid uuid DEFAULT idtypes_sql.generate_euid(),
	tid bigint DEFAULT idtypes_sql.generate_timeid(),
	xid bigint DEFAULT idtypes_sql.generate_uid11_xid(),
	flake bigint DEFAULT idtypes_sql.generate_ulidflake(),
	v7 uuid DEFAULT idtypes_sql.uuidv7());
CREATE INDEX events_time ON events (idtypes_sql.ulid_timestamp(ulid));
CREATE VIEW events_text AS SELECT idtypes_sql.ulid_to_text(ulid) AS ulid, idtypes_sql.euid_to_text(euid) AS euid,
	idtypes_sql.timeid_to_text(tid) AS tid FROM events;
INSERT INTO events SELECT FROM generate_series(1, 500);
SQL
}
rows() { R "$1" -c "SELECT md5(string_agg(e::text, ',' ORDER BY ulid)) FROM events e"; }
more() {
	R "$1" -c "INSERT INTO events DEFAULT VALUES" \
		-c "SELECT count(*) = 501 AND count(DISTINCT tid) = 501 FROM events" \
		-c "SELECT count(*) FROM events_text WHERE ulid > '0'" 2>&1 | tr '\n' ' '
}

# check <what> <source> <target>: the target's rows and objects are the source's, its generators
# answer.
check() {
	edition_objects R "$2" >"$work/src.txt"
	edition_objects R "$3" >"$work/dst.txt"
	if [ "$(rows "$2")" != "$(rows "$3")" ]; then
		bad "$1: the rows differ"
	elif ! diff -q "$work/src.txt" "$work/dst.txt" >/dev/null; then
		diff -u "$work/src.txt" "$work/dst.txt" | head -n 20
		bad "$1: the objects differ from the source's (above)"
	elif [ "$(more "$3")" != "t 501 " ]; then
		bad "$1: a new row: $(more "$3")"
	else
		ok "$1: the 500 rows, the source's $(grep -c '^CREATE OR REPLACE FUNCTION' "$work/dst.txt") functions and sequences; a new row by the defaults"
	fi
}
# restore <target> [pg_restore options...]: pg_restore of the dump by the role; its errors in
# $work/restore.err.
restore() {
	local d=$1
	shift
	"$PGBIN/pg_restore" -U "$role" -d "$d" "$@" "$work/dump" 2>"$work/restore.err"
}
errors() { grep -c '^pg_restore: error:' "$work/restore.err"; }

if [ "$via" = script ]; then
	for form in script migration; do
		src=$(newdb "${form}_src")
		if [ "$form" = script ]; then
			R "$src" -f "$here/sql_edition/idtypes_sql.sql" >/dev/null
		else
			R "$src" -1 -f "$here/sql_edition/idtypes_sql.migration.sql" >/dev/null
		fi
		fill "$src"
		"$PGBIN/pg_dump" -U "$role" -d "$src" -Fc -f "$work/dump"
		dst=$(newdb "${form}_dst")
		if restore "$dst" --exit-on-error; then
			check "the $form's database, restored into an empty one" "$src" "$dst"
		else
			bad "the $form's database: $(cat "$work/restore.err")"
		fi
	done
	finish 2
fi

# ---- pg_tle ----------------------------------------------------------------------------------
src=$(newdb tle_src pg_tle)
R "$src" -f "$here/sql_edition/idtypes_sql.pg_tle.sql" >/dev/null 2>&1
# pg_tle 1.4 names no schema: the schema first (the package's notice says so)
R "$src" -c "CREATE SCHEMA IF NOT EXISTS idtypes_sql" -c "CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql" >/dev/null
fill "$src"
"$PGBIN/pg_dump" -U "$role" -d "$src" -Fc -f "$work/dump"

dst=$(newdb tle_dst pg_tle)
restore "$dst"
if [ "$(errors)" = 2 ] && grep -q 'schema "pgtle" already exists' "$work/restore.err" &&
	grep -q 'must be owner of extension pg_tle' "$work/restore.err"; then
	check "pg_tle: restored where pg_tle is created (its schema and comment the 2 errors)" "$src" "$dst"
else
	bad "pg_tle: the restore where pg_tle is created said: $(cat "$work/restore.err")"
fi

dst=$(newdb tle_pkg pg_tle)
R "$dst" -f "$here/sql_edition/idtypes_sql.pg_tle.sql" >/dev/null 2>&1
restore "$dst"
if [ "$(errors)" = 4 ] && [ "$(grep -c 'already exists\|pgtle schema reserved for pg_tle functions' "$work/restore.err")" = 3 ]; then
	check "pg_tle: restored where the package was run first (its 2 functions 2 more errors)" "$src" "$dst"
else
	bad "pg_tle: the restore over the package said: $(cat "$work/restore.err")"
fi

dst=$(newdb tle_plain)
R "$dst" -f "$here/sql_edition/idtypes_sql.sql" >/dev/null
"$PGBIN/pg_restore" -l "$work/dump" | grep -v -E ' (pgtle|pg_tle)( |$)|(SCHEMA|EXTENSION) - idtypes_sql |EXTENSION (pg_tle|idtypes_sql) ' >"$work/list"
if restore "$dst" --exit-on-error -L "$work/list"; then
	check "pg_tle: restored where there is no pg_tle, over the plain script (pg_restore -L)" "$src" "$dst"
else
	bad "pg_tle: the restore over the plain script said: $(cat "$work/restore.err")"
fi
finish 3
