# test/lib/sql_edition.sh (sourced, after test/lib/report.sh): a throwaway owner and databases for
# the SQL edition's tests, and what a database's edition is made of, for comparing two installs
# (test/scripts/sql_edition_migrations.sh, sql_edition_dump.sh). Needs PGBIN.

Q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# edition_setup <tag>: a login role <tag>_owner without superuser ($role), the superuser of PGUSER
# ($super), a work directory ($work), and an EXIT trap that drops the databases newdb made, the
# role and the directory. Where the role cannot be made, the script fails.
edition_setup() {
	tag=$1
	role=${tag}_owner
	super=${PGUSER:-$(id -un)}
	work=$(mktemp -d)
	dbs=()
	trap edition_cleanup EXIT
	Q -U "$super" -d postgres -c "CREATE ROLE $role LOGIN" >/dev/null || {
		bad "cannot create the role"
		finish 0
	}
}
edition_cleanup() {
	local d
	for d in "${dbs[@]}"; do
		Q -U "$super" -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1
	done
	Q -U "$super" -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1
	rm -rf "$work"
}

# newdb <name> [pg_tle]: a new database the role owns, its name printed; with pg_tle, the
# extension made in it by the superuser and the role a member of pgtle_admin (as a service's admin
# role is).
newdb() {
	local d=${tag}_$1
	dbs+=("$d")
	Q -U "$super" -d postgres -c "CREATE DATABASE $d OWNER $role TEMPLATE template0" >/dev/null
	if [ "${2:-}" = pg_tle ]; then
		Q -U "$super" -d "$d" -c "CREATE EXTENSION IF NOT EXISTS pg_tle" -c "GRANT pgtle_admin TO $role" >/dev/null
	fi
	echo "$d"
}

# edition_objects <psql command...>: the schema idtypes_sql's functions (pg_get_functiondef), its
# sequences and their privileges, and the schema's privileges, one sorted line each, from the
# database that the psql command (with -At) connects to.
edition_objects() {
	"$@" <<'SQL'
SELECT line FROM (
	SELECT pg_get_functiondef(p.oid) AS line FROM pg_proc p WHERE p.pronamespace = 'idtypes_sql'::regnamespace
	UNION ALL
	SELECT format('sequence %s %s %s %s', c.relname, s.seqtypid::regtype, s.seqcycle, c.relacl)
	FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid WHERE c.relnamespace = 'idtypes_sql'::regnamespace
	UNION ALL
	SELECT format('schema %s %s', n.nspname, n.nspacl) FROM pg_namespace n WHERE n.nspname = 'idtypes_sql'
) s ORDER BY line;
SQL
}
