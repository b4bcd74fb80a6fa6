#!/usr/bin/python3
"""The SQL edition's migration (sql_edition/idtypes_sql.migration.sql) applied the ways managed
users apply SQL, each into a database of its own by its owner (no superuser), leaving the same
objects as the psql script:

- psql -1 -f (one transaction), and psql -f (each statement its own transaction, as a tool that
  splits the file and runs it in autocommit does);
- the whole file as one simple-query string from psycopg 3 (conn.execute);
- a Django migration's RunSQL (Django splits it with sqlparse and runs it in its transaction);
- an Alembic migration's op.execute (SQLAlchemy 2 with psycopg 3, 1.4 with psycopg2);
- node-postgres's client.query with the whole file (one simple-query string), and
  node-pg-migrate's `up` with the file as an SQL migration, where node 20.11+ and npm are (test/orm/
  node's lock file installed into orm_node's cache); where they are not (the chroots of 17 and 18:
  the client's side is the same on every server, and the server's side is psycopg's one
  simple-query string), a "skip:" line;
- a Supabase-CLI-shaped supabase/migrations/ directory applied file by file, each in a
  transaction: 1.1's psql script with its psql lines taken out (what a user of 1.1 did), then this
  release's migration over it, which updates it (where git history reaches 1.1.0).

Each database's objects (pg_get_functiondef of every function, the sequences and their privileges)
equal those the psql script makes; the generators answer; and where the caller's session goes on
(psycopg 3, Django, Alembic, node-postgres) its search_path is what it was. Prints "ok:" and
"FAILED:" lines (test/lib/report.sh's), exits 1 if a check failed or one did not run.

Run by test/run_tests.sh (test/lib/scripttest.py), after the packages of scripts/install-deps.sh
orm-python (as root; not root and missing: exit status 77).
"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (TOP, bad, cache_dir, finish, group_packages, node_version, npm_ci_cached, ok,  # noqa: E402
                        version_at_least)

group_packages("orm-python", "psycopg 3, Django and Alembic")
import psycopg  # noqa: E402

MIGRATION = os.path.join(TOP, "sql_edition", "idtypes_sql.migration.sql")
HOST = os.environ.get("PGHOST", "/var/run/postgresql")
PORT = os.environ.get("PGPORT", "5432")
SUPER = os.environ.get("PGUSER") or os.environ.get("USER", "postgres")
PSQL = os.path.join(os.environ["PGBIN"], "psql")
TAG = f"idt_mig_{os.getpid()}"
ROLE = f"{TAG}_owner"

# The edition's functions, sequences with their privileges and the schema's privileges, one sorted
# line each.
OBJECTS = open(os.path.join(TOP, "test", "lib", "edition_objects.sql")).read()
ANSWERS = """SELECT idtypes_sql.generate_ulid() IS NOT NULL AND idtypes_sql.generate_euid() IS NOT NULL
	AND idtypes_sql.generate_timeid() > 0 AND idtypes_sql.generate_uid11_xid() > 0
	AND idtypes_sql.ulid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV') IS NOT NULL"""

def connect(db, user=ROLE, **kw):
    return psycopg.connect(host=HOST, port=PORT, user=user, dbname=db, **kw)


def dsn(db):
    return f"host={HOST} port={PORT} user={ROLE} dbname={db}"


def psql(db, *args):
    """psql as the owner: (succeeded, its output)."""
    r = subprocess.run([PSQL, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-U", ROLE, "-d", db, *args],
                       capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


databases = []


def newdb(name):
    d = f"{TAG}_{name}"
    databases.append(d)
    with connect("postgres", SUPER, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {d} OWNER {ROLE} TEMPLATE template0")
    return d


def objects(db):
    with connect(db) as c:
        return [r[0] for r in c.execute(OBJECTS)]


def answers(db):
    try:
        with connect(db) as c:
            return c.execute(ANSWERS).fetchone()[0]
    except psycopg.Error as e:
        return str(e).strip()


def compare(form, db):
    """The objects equal the psql script's, the generators answer."""
    got = objects(db)
    if got != reference:
        diff = difflib.unified_diff("\n".join(reference).splitlines(), "\n".join(got).splitlines(), lineterm="")
        print("\n".join(list(diff)[:20]))
        bad(f"{form}: the objects differ from the psql script's (above)")
    elif (a := answers(db)) is not True:
        bad(f"{form}: the generators do not answer: {a}")
    else:
        ok(f"{form}: the psql script's {n} functions, sequences and privileges; the generators answer")


def apply_psycopg(db, sql):
    with connect(db) as conn:
        before = conn.execute("SHOW search_path").fetchone()[0]
        conn.execute(sql)  # no parameters: one simple-query string
        conn.commit()
        return before, conn.execute("SHOW search_path").fetchone()[0]


def apply_django(db, sql):
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": db, "USER": ROLE, "HOST": HOST, "PORT": PORT}},
        INSTALLED_APPS=[], USE_TZ=True)
    django.setup()
    from django.db import connection
    from django.db.migrations.operations import RunSQL

    def show():
        with connection.cursor() as c:
            c.execute("SHOW search_path")
            return c.fetchone()[0]
    before = show()
    with connection.schema_editor(atomic=True) as editor:
        RunSQL(sql).database_forwards("idtypes_sql", editor, None, None)
    after = show()
    connection.close()
    return before, after


def apply_alembic(db, sql):
    import sqlalchemy as sa
    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    # psycopg 3 where SQLAlchemy has its dialect (2.0), else psycopg2 (1.4, Debian 12's)
    driver = "psycopg" if int(sa.__version__.split(".")[0]) >= 2 else "psycopg2"
    url = sa.engine.URL.create("postgresql+" + driver, username=ROLE, host=HOST, port=int(PORT), database=db)
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        before = conn.exec_driver_sql("SHOW search_path").scalar()
        Operations(MigrationContext.configure(conn)).execute(sql)
        after = conn.exec_driver_sql("SHOW search_path").scalar()
    engine.dispose()
    return before, after


# node-postgres: client.query with the whole file and no values, one simple-query string.
NODE_PG = r"""
const fs = require("fs");
const { Client } = require("pg");
const [db, path] = process.argv.slice(2);
(async () => {
	const client = new Client({ host: process.env.PGHOST, port: Number(process.env.PGPORT), user: process.env.ROLE, database: db });
	await client.connect();
	const before = (await client.query("SHOW search_path")).rows[0].search_path;
	await client.query(fs.readFileSync(path, "utf8"));
	const after = (await client.query("SHOW search_path")).rows[0].search_path;
	await client.end();
	if (before !== after) throw new Error(`search_path was ${before}, ${after} after`);
	console.log("applied");
})().catch((e) => { console.error(e.message); process.exit(1); });
"""


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def tail(text, lines=5):
    return " | ".join(text.splitlines()[-lines:])


def main(work):
    global reference, n
    with connect("postgres", SUPER, autocommit=True) as c:
        c.execute(f"CREATE ROLE {ROLE} LOGIN")
    sql = open(MIGRATION, encoding="utf-8").read()

    ref = newdb("ref")
    done, out = psql(ref, "-f", os.path.join(TOP, "sql_edition", "idtypes_sql.sql"))
    if not done:
        bad(f"the psql script: {tail(out)}")
        return 0
    reference = objects(ref)
    n = sum(line.startswith("CREATE OR REPLACE FUNCTION") for line in reference)
    if n <= 100:
        bad(f"the psql script made {n} functions")

    # psql
    for form, name, args in (("psql -1 -f", "psql1", ["-1", "-f", MIGRATION]),
                             ("psql -f, each statement its own transaction", "psqlauto", ["-f", MIGRATION])):
        d = newdb(name)
        done, out = psql(d, *args)
        compare(form, d) if done else bad(f"{form}: {tail(out)}")

    # Python: psycopg 3, Django, Alembic
    for form, apply in (("psycopg", apply_psycopg), ("django", apply_django), ("alembic", apply_alembic)):
        d = newdb(form)
        try:
            before, after = apply(d, sql)
        except Exception as e:  # the form's own error, whatever its library raises
            bad(f"{form}: {type(e).__name__}: {tail(str(e))}")
            continue
        if before != after:
            bad(f"{form}: search_path was {before!r} before, {after!r} after")
        else:
            compare(f"{form} (the caller's search_path kept)", d)

    # Node.js: node-postgres, node-pg-migrate
    expected = 6
    modules, why = node_modules()
    if not modules:
        print(f"skip: node-postgres and node-pg-migrate ({why})")
    else:
        expected = 8
        script = os.path.join(work, "apply.cjs")
        open(script, "w").write(NODE_PG)
        d = newdb("nodepg")
        done, out = run(["node", script, d, MIGRATION], env=dict(os.environ, NODE_PATH=modules, ROLE=ROLE,
                                                                  PGHOST=HOST, PGPORT=PORT))
        if done and out.splitlines()[-1:] == ["applied"]:
            compare("node-postgres, one query string (the caller's search_path kept)", d)
        else:
            bad(f"node-postgres: {tail(out)}")
        # node-pg-migrate: the file as an SQL migration (its "-- Up Migration" section), applied
        # by `node-pg-migrate up` in its transaction.
        pgm = os.path.join(work, "pgm")
        os.mkdir(pgm)
        with open(os.path.join(pgm, "1764633600000_idtypes-sql.sql"), "w") as f:
            f.write("-- Up Migration\n" + sql + "-- Down Migration\n")
        d = newdb("pgmigrate")
        done, out = run([os.path.join(modules, ".bin", "node-pg-migrate"), "up", "--migrations-dir", pgm], cwd=work,
                        env=dict(os.environ, DATABASE_URL=f"postgresql://{ROLE}@localhost:{PORT}/{d}?host={HOST}"))
        compare("node-pg-migrate up, an SQL migration", d) if done else bad(f"node-pg-migrate: {tail(out)}")

    # A Supabase migrations/ directory, 1.1 then this release
    done, released = run(["git", "-C", TOP, "log", "--format=%H", "-1", "--grep=^Release 1\\.1\\.0"])
    done, old = run(["git", "-C", TOP, "show", f"{released}:sql_edition/idtypes_sql.sql"]) if released else (False, "")
    if not done:
        print("sql_edition_migrations: no git history reaching release 1.1.0 (a release archive?): "
              "the update over 1.1 is not checked")
        return expected - 1
    migrations = os.path.join(work, "supabase", "migrations")
    os.makedirs(migrations)
    with open(os.path.join(migrations, "20261128000000_idtypes_sql_1_1.sql"), "w") as f:
        f.writelines(line + "\n" for line in old.splitlines()
                     if not line.startswith("\\set ") and line not in ("BEGIN;", "COMMIT;"))
    with open(os.path.join(migrations, "20261202000000_idtypes_sql.sql"), "w") as f:
        f.write(sql)
    d = newdb("supabase")
    status = None
    for name in sorted(os.listdir(migrations)):
        done, out = psql(d, "-1", "-f", os.path.join(migrations, name))
        if not done:
            status = f"{name}: {tail(out)}"
            break
    compare("supabase/migrations/, 1.1's file then this release's", d) if status is None \
        else bad(f"supabase/migrations/: {status}")
    return expected


def node_modules():
    """test/orm/node's packages (orm_node's cache) where node 20.11+ and npm are: (their
    node_modules, None), else (None, why not)."""
    if not shutil.which("node") or not shutil.which("npm"):
        return None, "no node and npm here"
    version = node_version()
    if not version_at_least(version, "20.11"):
        return None, f"node-pg-migrate 8 needs Node.js 20.11 or later, this is {version}"
    cache = cache_dir("orm-node", "IDTYPES_ORM_NODE_CACHE")
    if not npm_ci_cached(os.path.join(TOP, "test", "orm", "node"), cache, "node-pg-migrate", "--ignore-scripts"):
        bad("npm ci of test/orm/node failed (above)")
        sys.exit(1)
    return os.path.join(cache, "node_modules"), None


def cleanup():
    try:
        with connect("postgres", SUPER, autocommit=True) as c:
            for d in databases:
                c.execute(f"DROP DATABASE IF EXISTS {d}")
            c.execute(f"DROP ROLE IF EXISTS {ROLE}")
    except psycopg.Error as e:
        print(f"sql_edition_migrations: cleaning up: {e}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as work:
        try:
            expected = main(work)
        finally:
            cleanup()
    finish(expected)
