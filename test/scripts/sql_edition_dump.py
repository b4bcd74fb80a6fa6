#!/usr/bin/python3
"""A logical dump of a database holding the SQL edition and a table of its IDs (pg_dump -Fc by the
database's owner), restored by pg_restore as the owner of a new database (no superuser), the way
each install form moves between databases and services:

- the plain script and the migration: into an empty database, with nothing installed first;
- with IDTYPES_SQL_EDITION_VIA=pg_tle (sql_edition_tle.sh runs it on its server with pg_tle
  preloaded), the extension made by the pg_tle package: into a database where pg_tle is created
  (the dump brings the package's functions and CREATE EXTENSION; the only errors are pg_tle's own
  schema and comment, which the target has); again where the package was run first (its two
  functions then stand, and are two more errors: pg_tle refuses them); and into a database with no
  pg_tle (another service), where the plain script is run first and the dump's entries of pg_tle,
  its schema pgtle and the extension are left out (pg_restore -L).

Each restored database: the same rows, the same functions, sequences and privileges as the source
(test/lib/edition_objects.sql), and the generators answer there (a new row by each default).

Run by test/run_tests.sh (test/lib/scripttest.py) with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN
pointing at a running cluster (pg_tle preloaded for IDTYPES_SQL_EDITION_VIA=pg_tle).
"""
import atexit
import difflib
import getpass
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import PGBIN, PSQL, TOP, bad, finish, ok, psql, run, workdir  # noqa: E402

VIA = os.environ.get("IDTYPES_SQL_EDITION_VIA", "script")
TAG = f"idt_dump_{os.getpid()}"
ROLE = f"{TAG}_owner"
SUPER = os.environ.get("PGUSER") or getpass.getuser()
EDITION = os.path.join(TOP, "sql_edition")
work = workdir()
DUMP = os.path.join(work, "dump")
databases = []

# One column of each generator's IDs as its default, an index on an expression of the edition's
# functions (restored after them), and a view.
FILL = """CREATE TABLE events (
	ulid uuid PRIMARY KEY DEFAULT idtypes_sql.generate_ulid(),
	euid uuid DEFAULT idtypes_sql.generate_euid(),
	tid bigint DEFAULT idtypes_sql.generate_timeid(),
	xid bigint DEFAULT idtypes_sql.generate_uid11_xid(),
	flake bigint DEFAULT idtypes_sql.generate_ulidflake(),
	v7 uuid DEFAULT idtypes_sql.uuidv7());
CREATE INDEX events_time ON events (idtypes_sql.ulid_timestamp(ulid));
CREATE VIEW events_text AS SELECT idtypes_sql.ulid_to_text(ulid) AS ulid, idtypes_sql.euid_to_text(euid) AS euid,
	idtypes_sql.timeid_to_text(tid) AS tid FROM events;
INSERT INTO events SELECT FROM generate_series(1, 500);"""


def R(db, *args, check=True):
    """psql as the owner (a failure ends the test)."""
    return psql(*args, user=ROLE, db=db, check=check)


def cleanup():
    for d in databases:
        psql("-c", f"DROP DATABASE IF EXISTS {d}", user=SUPER, check=False)
    psql("-c", f"DROP ROLE IF EXISTS {ROLE}", user=SUPER, check=False)


def newdb(name, pg_tle=False):
    """A new database the owner owns; with pg_tle, the extension made in it by the superuser and
    the owner a member of pgtle_admin (as a service's admin role is)."""
    d = f"{TAG}_{name}"
    databases.append(d)
    psql("-c", f"CREATE DATABASE {d} OWNER {ROLE} TEMPLATE template0", user=SUPER)
    if pg_tle:
        psql("-c", "CREATE EXTENSION IF NOT EXISTS pg_tle", "-c", f"GRANT pgtle_admin TO {ROLE}", user=SUPER, db=d)
    return d


def objects(db):
    return R(db, "-f", os.path.join(TOP, "test", "lib", "edition_objects.sql")).splitlines()


def rows(db):
    return R(db, "-c", "SELECT md5(string_agg(e::text, ',' ORDER BY ulid)) FROM events e", check=False)


def restored(what, src, dst, fits, *options):
    """pg_restore of the dump into dst by the owner, its outcome as fits(exit status, messages,
    errors) expects; then dst's rows and objects are src's, and its generators answer (a new row)."""
    status, out = run([os.path.join(PGBIN, "pg_restore"), "-U", ROLE, "-d", dst, *options, DUMP])
    if not fits(status, out, [line for line in out.splitlines() if line.startswith("pg_restore: error:")]):
        return bad(f"{what}: pg_restore said: {out}")
    got, want = objects(dst), objects(src)
    if rows(src) != rows(dst):
        return bad(f"{what}: the rows differ")
    if got != want:
        print("\n".join(list(difflib.unified_diff(want, got, "source", "restored", lineterm=""))[:20]))
        return bad(f"{what}: the objects differ from the source's (above)")
    _, more = run([PSQL, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-U", ROLE, "-d", dst, "-c", "INSERT INTO events DEFAULT VALUES",
                   "-c", "SELECT count(*) = 501 AND count(DISTINCT tid) = 501 FROM events",
                   "-c", "SELECT count(*) FROM events_text WHERE ulid > '0'"])
    if more.split() != ["t", "501"]:
        return bad(f"{what}: a new row: {' '.join(more.split())}")
    n = sum(line.startswith("CREATE OR REPLACE FUNCTION") for line in got)
    ok(f"{what}: the 500 rows, the source's {n} functions and sequences; a new row by the defaults")


def dump(src):
    """The table filled in src, and src dumped (pg_dump -Fc) by the owner."""
    R(src, "-c", FILL)
    status, out = run([os.path.join(PGBIN, "pg_dump"), "-U", ROLE, "-d", src, "-Fc", "-f", DUMP])
    if status != 0:
        print(out)
        bad(f"pg_dump of {src}")
        sys.exit(1)


psql("-c", f"CREATE ROLE {ROLE} LOGIN", user=SUPER)
atexit.register(cleanup)

if VIA == "script":
    for form, args in (("script", ["-f", os.path.join(EDITION, "idtypes_sql.sql")]),
                       ("migration", ["-1", "-f", os.path.join(EDITION, "idtypes_sql.migration.sql")])):
        src = newdb(f"{form}_src")
        R(src, *args)
        dump(src)
        restored(f"the {form}'s database, restored into an empty one", src, newdb(f"{form}_dst"),
                 lambda status, out, errors: status == 0, "--exit-on-error")
    finish(2)

# pg_tle. The package's own notices and errors do not matter here: the extension it makes does.
PACKAGE = os.path.join(EDITION, "idtypes_sql.pg_tle.sql")
src = newdb("tle_src", pg_tle=True)
R(src, "-f", PACKAGE, check=False)
# pg_tle 1.4 names no schema: the schema first (the package's notice says so)
R(src, "-c", "CREATE SCHEMA IF NOT EXISTS idtypes_sql", "-c", "CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql")
dump(src)

restored("pg_tle: restored where pg_tle is created (its schema and comment the 2 errors)", src, newdb("tle_dst", pg_tle=True),
         lambda status, out, errors: len(errors) == 2 and 'schema "pgtle" already exists' in out
         and "must be owner of extension pg_tle" in out)

dst = newdb("tle_pkg", pg_tle=True)
R(dst, "-f", PACKAGE, check=False)
refused = ("already exists", "pgtle schema reserved for pg_tle functions")
restored("pg_tle: restored where the package was run first (its 2 functions 2 more errors)", src, dst,
         lambda status, out, errors: len(errors) == 4
         and sum(any(r in line for r in refused) for line in out.splitlines()) == 3)

# No pg_tle: the plain script first, the dump without pg_tle's, pgtle's and the extension's entries.
dst = newdb("tle_plain")
R(dst, "-f", os.path.join(EDITION, "idtypes_sql.sql"))
left_out = re.compile(r" (pgtle|pg_tle)( |$)|(SCHEMA|EXTENSION) - idtypes_sql |EXTENSION (pg_tle|idtypes_sql) ")
with open(os.path.join(work, "list"), "w") as f:
    f.writelines(line + "\n" for line in run([os.path.join(PGBIN, "pg_restore"), "-l", DUMP])[1].splitlines()
                 if not left_out.search(line))
restored("pg_tle: restored where there is no pg_tle, over the plain script (pg_restore -L)", src, dst,
         lambda status, out, errors: status == 0, "--exit-on-error", "-L", os.path.join(work, "list"))
finish(3)
