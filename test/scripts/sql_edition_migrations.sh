#!/usr/bin/env bash
# sql_edition_migrations.sh: the SQL edition's migration (sql_edition/idtypes_sql.migration.sql)
# applied the ways managed users apply SQL, each into a database of its own by its owner (no
# superuser), leaving the same objects as the psql script:
#   - psql -1 -f (one transaction), and psql -f (each statement its own transaction, as a tool
#     that splits the file and runs it in autocommit does);
#   - the whole file as one simple-query string from psycopg 3 (conn.execute);
#   - a Django migration's RunSQL (Django splits it with sqlparse and runs it in its transaction);
#   - an Alembic migration's op.execute (SQLAlchemy 2 with psycopg 3, 1.4 with psycopg2);
#   - node-postgres's client.query with the whole file (one simple-query string), and
#     node-pg-migrate's `up` with the file as an SQL migration (where node 20.11+ and npm are: the
#     packages of test/orm/node's lock file, in orm_node.sh's cache);
#   - a Supabase-CLI-shaped supabase/migrations/ directory applied file by file, each in a
#     transaction: 1.1's psql script with its psql lines taken out (what a user of 1.1 did), then
#     this release's migration over it, which updates it (where git history reaches 1.1.0).
# Each database's objects (pg_get_functiondef of every function, the sequences and their
# privileges) equal those the psql script makes; the generators answer; and where the caller's
# session goes on (psycopg 3, Django, Alembic) its search_path is what it was.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster. Needs Debian's /usr/bin/python3 with psycopg 3, Django and Alembic (scripts/install-deps.sh
# orm-python, which installs them as root; not root and missing: exit status 77). Exit status 0 = pass.
set -uo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/lib/report.sh"
. "$here/test/lib/packages.sh"
. "$here/test/lib/sql_edition.sh"
migration=$here/sql_edition/idtypes_sql.migration.sql
edition_setup "idt_mig_$$"
group_packages orm-python "psycopg 3, Django and Alembic"
host=${PGHOST:-/var/run/postgresql}
dsn() { echo "host=$host port=${PGPORT:-5432} user=$role dbname=$1"; }

objects() { edition_objects Q -U "$role" -d "$1"; }
answers() {
	Q -U "$role" -d "$1" -c "SELECT idtypes_sql.generate_ulid() IS NOT NULL AND idtypes_sql.generate_euid() IS NOT NULL
		AND idtypes_sql.generate_timeid() > 0 AND idtypes_sql.generate_uid11_xid() > 0
		AND idtypes_sql.ulid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV') IS NOT NULL" 2>&1
}

reference=$(newdb ref)
Q -U "$role" -d "$reference" -f "$here/sql_edition/idtypes_sql.sql" >/dev/null
objects "$reference" >"$work/ref.txt"
n=$(grep -c '^CREATE OR REPLACE FUNCTION' "$work/ref.txt")
[ "$n" -gt 100 ] || bad "the psql script made $n functions"

# compare <form> <db> [extra check]: the objects equal the psql script's, the generators answer.
compare() {
	objects "$2" >"$work/$1.txt"
	if ! diff -q "$work/ref.txt" "$work/$1.txt" >/dev/null; then
		diff -u "$work/ref.txt" "$work/$1.txt" | head -n 20
		bad "$1: the objects differ from the psql script's (above)"
	elif [ "$(answers "$2")" != t ]; then
		bad "$1: the generators do not answer: $(answers "$2")"
	else
		ok "$1: the psql script's $n functions, sequences and privileges; the generators answer"
	fi
}

# ---- psql ----------------------------------------------------------------------------------
d=$(newdb psql1)
if out=$(Q -U "$role" -d "$d" -1 -f "$migration" 2>&1); then compare "psql -1 -f" "$d"; else bad "psql -1 -f: $out"; fi
d=$(newdb psqlauto)
if out=$(Q -U "$role" -d "$d" -f "$migration" 2>&1); then compare "psql -f, each statement its own transaction" "$d"; else bad "psql -f: $out"; fi

# ---- Python: psycopg 3, Django, Alembic ------------------------------------------------------
cat >"$work/apply.py" <<'PY'
import os, sys
form, dsn, path = sys.argv[1], sys.argv[2], sys.argv[3]
sql = open(path, encoding="utf-8").read()
kv = dict(p.split("=", 1) for p in dsn.split())
before = after = None
if form == "psycopg":
    import psycopg
    with psycopg.connect(dsn) as conn:
        before = conn.execute("SHOW search_path").fetchone()[0]
        conn.execute(sql)          # no parameters: one simple-query string
        conn.commit()
        after = conn.execute("SHOW search_path").fetchone()[0]
elif form == "django":
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": kv["dbname"], "USER": kv["user"],
        "HOST": kv["host"], "PORT": kv["port"]}}, INSTALLED_APPS=[], USE_TZ=True)
    django.setup()
    from django.db import connection
    from django.db.migrations.operations import RunSQL
    with connection.cursor() as c:
        c.execute("SHOW search_path")
        before = c.fetchone()[0]
    with connection.schema_editor(atomic=True) as editor:
        RunSQL(sql).database_forwards("idtypes_sql", editor, None, None)
    with connection.cursor() as c:
        c.execute("SHOW search_path")
        after = c.fetchone()[0]
elif form == "alembic":
    import sqlalchemy as sa
    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    # psycopg 3 where SQLAlchemy has its dialect (2.0), else psycopg2 (1.4, Debian 12's)
    driver = "psycopg" if sa.__version__.split(".")[0] >= "2" else "psycopg2"
    url = sa.engine.URL.create("postgresql+" + driver, username=kv["user"], host=kv["host"],
                               port=int(kv["port"]), database=kv["dbname"])
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        before = conn.exec_driver_sql("SHOW search_path").scalar()
        Operations(MigrationContext.configure(conn)).execute(sql)
        after = conn.exec_driver_sql("SHOW search_path").scalar()
else:
    sys.exit(f"unknown form {form}")
if before != after:
    sys.exit(f"search_path was {before!r} before, {after!r} after")
print("applied")
PY
for form in psycopg django alembic; do
	d=$(newdb "$form")
	if out=$(/usr/bin/python3 "$work/apply.py" "$form" "$(dsn "$d")" "$migration" 2>&1) && [ "$(tail -n 1 <<<"$out")" = applied ]; then
		compare "$form (the caller's search_path kept)" "$d"
	else
		bad "$form: $(tail -n 5 <<<"$out")"
	fi
done

# ---- Node.js: node-postgres, node-pg-migrate -------------------------------------------------
# From test/orm/node's lock file, in the cache orm_node.sh keeps (test/lib/npm_cache.sh). Where no
# node and npm are (the chroots of 17 and 18: the client's side is the same on every server, and
# the server's side is psycopg's one simple-query string above), a "skip:" line.
expected=6
node_skip=
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	node_skip="no node and npm here"
elif [ "$(printf '%s\n' 20.11 "$(node -p process.versions.node)" | sort -V | head -n 1)" != 20.11 ]; then
	node_skip="node-pg-migrate 8 needs Node.js 20.11 or later, this is $(node -p process.versions.node)"
else
	. "$here/test/lib/npm_cache.sh"
	cache=$(cache_dir orm-node IDTYPES_ORM_NODE_CACHE)
	if ! npm_ci_cached "$here/test/orm/node" "$cache" node-pg-migrate --ignore-scripts >"$work/npm.log" 2>&1; then
		cat "$work/npm.log"
		bad "npm ci of test/orm/node failed (above)"
		node_skip="npm ci failed"
	fi
fi
if [ -n "$node_skip" ]; then
	echo "skip: node-postgres and node-pg-migrate ($node_skip)"
else
	expected=8
	# node-postgres: client.query with the whole file and no values, one simple-query string.
	cat >"$work/apply.cjs" <<'JS'
const fs = require("fs");
const { Client } = require("pg");
const [dsn, path] = process.argv.slice(2);
const kv = Object.fromEntries(dsn.split(" ").map((p) => p.split(/=(.*)/s).slice(0, 2)));
(async () => {
	const client = new Client({ host: kv.host, port: Number(kv.port), user: kv.user, database: kv.dbname });
	await client.connect();
	const before = (await client.query("SHOW search_path")).rows[0].search_path;
	await client.query(fs.readFileSync(path, "utf8"));
	const after = (await client.query("SHOW search_path")).rows[0].search_path;
	await client.end();
	if (before !== after) throw new Error(`search_path was ${before}, ${after} after`);
	console.log("applied");
})().catch((e) => { console.error(e.message); process.exit(1); });
JS
	d=$(newdb nodepg)
	if out=$(NODE_PATH=$cache/node_modules node "$work/apply.cjs" "$(dsn "$d")" "$migration" 2>&1) && [ "$(tail -n 1 <<<"$out")" = applied ]; then
		compare "node-postgres, one query string (the caller's search_path kept)" "$d"
	else
		bad "node-postgres: $(tail -n 5 <<<"$out")"
	fi
	# node-pg-migrate: the file as an SQL migration (its "-- Up Migration" section), applied by
	# `node-pg-migrate up` in its transaction.
	mkdir -p "$work/pgm"
	{ echo '-- Up Migration'; cat "$migration"; echo '-- Down Migration'; } >"$work/pgm/1764633600000_idtypes-sql.sql"
	d=$(newdb pgmigrate)
	if out=$(cd "$work" && DATABASE_URL="postgresql://$role@localhost:${PGPORT:-5432}/$d?host=$host" \
		"$cache/node_modules/.bin/node-pg-migrate" up --migrations-dir "$work/pgm" 2>&1); then
		compare "node-pg-migrate up, an SQL migration" "$d"
	else
		bad "node-pg-migrate: $(tail -n 5 <<<"$out")"
	fi
fi

# ---- a Supabase migrations/ directory, 1.1 then this release --------------------------------
released=$(git -C "$here" log --format=%H -1 --grep='^Release 1\.1\.0' 2>/dev/null)
if [ -z "$released" ] || ! git -C "$here" show "$released:sql_edition/idtypes_sql.sql" >"$work/old.sql" 2>/dev/null; then
	echo "sql_edition_migrations: no git history reaching release 1.1.0 (a release archive?): the update over 1.1 is not checked"
	finish $((expected - 1))
fi
mkdir -p "$work/supabase/migrations"
grep -v '^\\set \|^BEGIN;$\|^COMMIT;$' "$work/old.sql" >"$work/supabase/migrations/20261128000000_idtypes_sql_1_1.sql"
cp "$migration" "$work/supabase/migrations/20261202000000_idtypes_sql.sql"
d=$(newdb supabase)
status=ok
for f in "$work"/supabase/migrations/*.sql; do
	out=$(Q -U "$role" -d "$d" -1 -f "$f" 2>&1) || {
		status="$(basename "$f"): $out"
		break
	}
done
if [ "$status" = ok ]; then
	compare "supabase/migrations/, 1.1's file then this release's" "$d"
else
	bad "supabase/migrations/: $status"
fi
finish "$expected"
