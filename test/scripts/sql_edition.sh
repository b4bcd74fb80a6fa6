#!/usr/bin/env bash
# sql_edition.sh: the SQL edition, installed by a role without superuser, against the native edition
# in the same database:
#   - text out and in of sample values of the five formats: the same text and the same bits;
#   - invalid texts and prefixes: the same SQLSTATE, message, detail and hint;
#   - prefix and time-window bounds, first_at and the fields: the same values (uid11's bigint
#     order checked through the predicates, whose results must equal ^@ and <@);
#   - every generator: read back by the native parser, its time the clock's, its layout (clock
#     id, sid, extension), distinct, and increasing within the session where the docs say so;
#   - the predicates inlined into btree index conditions on uuid and bigint indexes, in custom
#     and generic plans, and partition pruning with first_at bounds;
#   - the move to the native edition: a table filled by the SQL edition's generators converted with
#     ALTER COLUMN ... TYPE (the table's file kept for ulid, euid and uid11), the same answers,
#     native defaults, and the SQL edition dropped with nothing else going with it.
#
# IDTYPES_SQL_EDITION_VIA says how it is installed: `script` (the default) runs
# sql_edition/idtypes_sql.sql with psql -f as the database's owner; `pg_tle` (test/scripts/
# sql_edition_tle.sh, on a server with pg_tle preloaded) runs the pg_tle package as a role with
# pgtle_admin, then CREATE EXTENSION idtypes_sql, and also checks the package's update path.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster with idtypes installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
via=${IDTYPES_SQL_EDITION_VIA:-script}
db=idt_sql_edition_$$
role=idt_sql_edition_$$
super=${PGUSER:-$(id -un)}

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

cleanup() {
	psql_q -U "$super" -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	psql_q -U "$super" -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1 || true
}
trap cleanup EXIT

psql_q -U "$super" -d postgres -c "CREATE ROLE $role LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
# The plain script's database folds case as Turkish does (ICU tr-TR: upper('i') is 'İ'), the pg_tle
# package's as C: every comparison with the native edition holds in both.
locale="LC_COLLATE 'C' LC_CTYPE 'C'"
if [ "$via" = script ] &&
	[ "$(psql_q -U "$super" -d postgres -c "SELECT count(*) > 0 FROM pg_collation WHERE collprovider = 'i'")" = t ]; then
	locale="LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'tr-TR'"
fi
echo "the database's locale: $locale"
psql_q -U "$super" -d postgres -c "CREATE DATABASE $db OWNER $role TEMPLATE template0 ENCODING 'UTF8' $locale"
# The native edition beside it, to compare with (made by the superuser).
psql_q -U "$super" -d "$db" -c "CREATE EXTENSION idtypes"
[ "$(psql_q -U "$role" -d "$db" -c "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")" = f ]
case $via in
script)
	# The SQL edition as the database's owner: no superuser, no C.
	psql_q -U "$role" -d "$db" -f "$here/sql_edition/idtypes_sql.sql"
	;;
pg_tle)
	# pg_tle by the superuser (as a service does), the package by a pgtle_admin member.
	psql_q -U "$super" -d "$db" -c "CREATE EXTENSION pg_tle" -c "GRANT pgtle_admin TO $role"
	psql_q -U "$role" -d "$db" -f "$here/sql_edition/idtypes_sql.pg_tle.sql"
	tle=$(psql_q -U "$role" -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_tle'")
	echo "pg_tle $tle"
	if [ "$(psql_q -U "$role" -d "$db" -c "SELECT string_to_array('$tle', '.')::int[] < '{1,5,0}'")" = t ]; then
		# pg_tle 1.4 names no schema for an extension (docs/managed.md)
		psql_q -U "$role" -d "$db" -c "CREATE SCHEMA IF NOT EXISTS idtypes_sql" \
			-c "CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql"
	else
		psql_q -U "$role" -d "$db" -c "CREATE EXTENSION idtypes_sql"
	fi
	;;
*)
	echo "sql_edition.sh: IDTYPES_SQL_EDITION_VIA is script or pg_tle, not '$via'" >&2
	exit 2
	;;
esac
echo "ok   installed ($via) by a role without superuser"

fails=0
# check <what> <sql printing one line per failure>
check() {
	local out t0=$SECONDS
	out=$(psql_q -U "$role" -d "$db" -v core="$core" -v tle="$tle" -v version="$version" -v next="$next" \
		-v package="$here/sql_edition/idtypes_sql.pg_tle.sql" <<<"$2" 2>&1) || { echo "FAIL $1: $out"; fails=$((fails + 1)); return; }
	if [ -n "$out" ]; then
		echo "FAIL $1:"
		echo "$out" | head -20
		fails=$((fails + 1))
	else
		echo "ok   $1 ($((SECONDS - t0)) s)"
	fi
}

# uuid (PostgreSQL 18's functions, for 15 to 17): compared with core's on 18+, the native
# idtypes_uuidv7's before.
core=$(psql_q -U "$super" -d "$db" -c "SELECT CASE WHEN current_setting('server_version_num')::int >= 180000
	THEN 'pg_catalog' ELSE 'public' END")
[ "$core" = pg_catalog ] || psql_q -U "$super" -d "$db" -c "CREATE EXTENSION idtypes_uuidv7"
version=$(sed -n 's/^VERSION = "\(.*\)"$/\1/p' "$here/tools/gen_sql_edition.py")
tle=false next=/dev/null
if [ "$via" = pg_tle ]; then
	# the package of a later version, for the update path's check
	tle=true next=$(mktemp)
	python3 "$here/tools/gen_sql_edition.py" tle "$version.99" >"$next"
fi

# The checks (test/scripts/sql_edition.sql): its setup, then every value the project documents
# (docs/formats.md's vectors) and feeds its I/O tests (sql/io.sql's literals) into vec, then each
# check section.
checks=$here/test/scripts/sql_edition.sql
sed -E '/^-- check( \(pg_tle\))?: /,$d' "$checks" | psql_q -U "$role" -d "$db"
{ grep -o '`[^`]*`' "$here/docs/formats.md" | tr -d '`'; grep -o "'[^']*'" "$here/sql/io.sql" | sed "s/^'//; s/'\$//"; } |
	awk 'length($0) <= 40 && index($0, "$v$") == 0' | sort -u | sed 's/.*/INSERT INTO vec VALUES ($v$&$v$);/' |
	psql_q -U "$role" -d "$db"
# each section, from its "-- check" line to the next
name=
flush() { [ -z "$name" ] || check "$name" "$sql"; }
while IFS= read -r line; do
	case $line in
	'-- check: '*) flush && name=${line#-- check: } sql= ;;
	'-- check (pg_tle): '*) flush && name= sql= && { [ "$tle" = false ] || name=${line#-- check (pg_tle): }; } ;;
	*) sql+=$line$'\n' ;;
	esac
done < <(sed -nE '/^-- check( \(pg_tle\))?: /,$p' "$checks")
flush
[ "$tle" = false ] || rm -f "$next"

[ "$fails" -eq 0 ] || { echo "sql_edition.sh: $fails checks failed"; exit 1; }
echo "sql_edition.sh: all checks passed"
