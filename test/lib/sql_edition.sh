# test/lib/sql_edition.sh (sourced, after test/lib/report.sh): a throwaway owner and databases for
# the SQL edition's tests, and what a database's edition is made of, for comparing two installs
# (test/scripts/sql_edition_dump.sh). Needs PGBIN.

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

# edition_objects <psql command...>: the objects of the database that the psql command (with -At)
# connects to, one sorted line each (edition_objects.sql beside this file).
edition_objects() { "$@" <"$(dirname "${BASH_SOURCE[0]}")/edition_objects.sql"; }
