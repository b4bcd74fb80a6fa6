#!/usr/bin/python3
"""The Python package of clients/python with the ORMs the release packages, against a throwaway
cluster: the programs of test/orm/python and the Python blocks of docs/orms.md.

- sqlalchemy_check.py with each driver SQLAlchemy has here (psycopg2, psycopg 3 from SQLAlchemy
  2.0, asyncpg): DDL, generated keys, session.get() by a string key, binds cast to the column's
  type, FK join, .prefix(), .in_time_range() and .startswith() rows and index scans, reflection;
- django_check.py (Django 3.2+): sqlmigrate's SQL, create()/get()/bulk_create() with
  database-generated keys and non-key columns (generator=), __prefix, __time_range (F() ends too),
  __startswith/__istartswith (F() patterns too) rows and index scans, form validation, a
  ForeignKey whose column is ulid;
- django_db_default_check.py (Django 5.0+; a skip line before): db_default=generator_call(...) on
  keys and other columns: the migration's DEFAULTs, values read back by create(), save() and
  bulk_create(), a ModelForm leaving the key empty;
- alembic_check.py: autogenerate of a model with each type renders them as
  idtypes.sqlalchemy.<Type>(), the migration applies, a second one finds nothing;
- arrays_check.py: arrays of each type read as lists of str through psycopg 3, psycopg2 and
  asyncpg after idtypes.<driver>.register_types, SQLAlchemy's ARRAY(<type>) with each driver
  after idtypes.sqlalchemy.register_types, Django's ArrayField(<field>); psycopg 3's binary cursor
  and asyncpg's text codec too;
- binary_check.py (psycopg 3, asyncpg): the binary format after register_types: about 2,300
  values of each type (random bytes, small, smallest, largest, generated), alone and in arrays,
  read as the server's text (v::text) through a binary cursor and asyncpg's binary codec; written
  from str (and the other spellings the server reads: lower case, euid's aliases and unchecked
  check, timeid's dashes) by a binary COPY with set_types() and asyncpg parameters, read back by
  the server as that text; texts the server rejects are rejected;
- docs/orms.md: its `sh` block installs clients/python with pip into a venv with no network
  (PIP_NO_INDEX), from a copy of the package; its SQLAlchemy and Django blocks then run with that
  venv's Python, each in a database of its own, and print what they say; the migration SQL block
  is what sqlmigrate prints (its CREATE TABLE lines) and runs.

The checks that need the extension's LIKE on the types print "skip: ..." where the build has none.
A framework or driver the release lacks (psycopg 3 with SQLAlchemy 1.4) prints one line "skip:
<what> (<why>; how to enable)", counted at the end; the test passes if all that ran passed.
Run by test/run_tests.sh, after the packages of scripts/install-deps.sh orm-python (as root; not
root and missing: exit status 77).
"""
import difflib
import importlib
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (PSQL, TOP, Cluster, check, doc_blocks, finish, group_packages, indented,  # noqa: E402
                        program_passed, run, workdir)

PROGRAMS = os.path.join(TOP, "test", "orm", "python")
PYTHON = "/usr/bin/python3"  # Debian's interpreter and packages (the test's own), whatever python3 PATH has first
ULID = "[0-9A-HJKMNP-TV-Z]{26}"
INSTALL = "scripts/install-deps.sh orm-python"
expected = 0
skips = []


def version_of(module):
    """The module's version (its first word: psycopg2's is followed by its build options), or None."""
    try:
        return importlib.import_module(module).__version__.split()[0]
    except ImportError:
        return None


def skipped(what):
    print(f"skip: {what}", flush=True)
    skips.append(what)


def url_of(driver, db):
    return f"postgresql+{driver}://postgres@/{db}?host={cluster.host}&port={cluster.port}"


def run_program(name, program, *args, db=None):
    """A program of test/orm/python: its lines indented, then ok (it exits 0 with "N checks, 0
    failed" and no FAILED line) or FAILED; or its skip line where it exits 77. Its own skip lines
    are counted too."""
    global expected
    start = time.monotonic()
    env = dict(os.environ, PYTHONPATH=f"{TOP}/clients/python:{PROGRAMS}", **({"PGDATABASE": db} if db else {}))
    status, out = run([PYTHON, os.path.join(PROGRAMS, program), *args], env=env)
    its_skips = re.findall("^skip: (.*)$", out, re.M)
    if status == 77:
        return skipped(its_skips[0] if its_skips else "")
    expected += 1
    indented(out)
    skips.extend(its_skips)
    check(program_passed(status, out),
          f"{name}: {len(re.findall('^ok: ', out, re.M))} checks passed in {time.monotonic() - start:.0f} s",
          f"exit status {status}")


def run_block(name, pattern, program, **env):
    """A block of docs/orms.md, run with the venv's Python in the blocks' directory: it exits 0 and
    prints a line matching the pattern."""
    global expected
    expected += 1
    status, out = run([venv_python, program], cwd=blocks, env=dict(os.environ, **env), timeout=120)
    indented(out)
    check(status == 0 and re.search(pattern, out, re.M), f"docs/orms.md, {name}: prints what it says",
          f"exit status {status}")


group_packages("orm-python", "the Python ORM test's packages")
work = workdir()
cluster = Cluster(os.path.join(work, "pg"), int(os.environ["PGPORT"]) + 10)
os.environ.update(PGHOST=cluster.host, PGPORT=str(cluster.port), PGUSER="postgres")

# SQLAlchemy with each driver, then Alembic's autogenerate of a model with each type (the migration
# names the types, applies, and a second autogenerate finds nothing).
sa = version_of("sqlalchemy")
if not sa:
    skipped(f"SQLAlchemy (not installed; {INSTALL} installs python3-sqlalchemy)")
else:
    for driver in ("psycopg2", "psycopg", "asyncpg"):
        if not version_of(driver):
            skipped(f"SQLAlchemy {sa} with {driver} (python3-{driver} is not installed; {INSTALL})")
        elif driver == "psycopg" and int(sa.split(".")[0]) < 2:
            skipped(f"SQLAlchemy {sa} with psycopg 3 "
                    "(SQLAlchemy 1.4 has no psycopg 3 dialect; 2.0 has: Debian 13, sid)")
        else:
            cluster.newdb(f"sa_{driver}")
            run_program(f"SQLAlchemy {sa}, {driver}", "sqlalchemy_check.py", url_of(driver, f"sa_{driver}"))
            cluster.newdb(f"sa_arrays_{driver}")
            run_program(f"SQLAlchemy {sa}, {driver}: ARRAY(<type>)", "arrays_check.py", "sqlalchemy",
                        url_of(driver, f"sa_arrays_{driver}"))
    if al := version_of("alembic"):
        cluster.newdb("alembic")
        run_program(f"Alembic {al} autogenerate", "alembic_check.py", url_of("psycopg2", "alembic"))
    else:
        skipped(f"Alembic (python3-alembic is not installed; {INSTALL})")

# The drivers alone: idtypes.<driver>.register_types and arrays; the binary format (not psycopg2's).
cluster.newdb("arrays")
for driver in ("psycopg", "psycopg2", "asyncpg"):
    if not (version := version_of(driver)):
        skipped(f"arrays with {driver} (python3-{driver} is not installed; {INSTALL})")
        continue
    run_program(f"{driver} {version}: register_types, arrays", "arrays_check.py", driver, db="arrays")
    if driver != "psycopg2":
        run_program(f"{driver} {version}: binary format", "binary_check.py", driver, db="arrays")

# Django: each program in a database and a project directory of its own.
dj = version_of("django")
if not dj:
    skipped(f"Django (not installed; {INSTALL} installs python3-django)")
else:
    for db, what, program in (("django", "", ["django_check.py"]),
                              ("django_arrays", ": ArrayField(<field>)", ["arrays_check.py", "django"]),
                              ("django_db_default", ": db_default=generator_call(...)",
                               ["django_db_default_check.py"])):
        cluster.newdb(db)
        os.mkdir(os.path.join(work, db))
        run_program(f"Django {dj}{what}", *program, os.path.join(work, db), db=db)

# docs/orms.md: pip installs the package into a venv, offline, from a copy of clients/python (a build
# leaves build/ and *.egg-info beside the sources); Debian's python3 first on PATH, as on a Debian
# system, and no pip configuration of this machine's (PIP_* variables, pip.conf) nor package index.
blocks, user = os.path.join(work, "blocks"), os.path.join(work, "user")
doc_blocks(f"{TOP}/docs/orms.md", blocks)
shutil.copytree(os.path.join(TOP, "clients", "python"), os.path.join(user, "clients", "python"))
expected += 1
start = time.monotonic()
pip_env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
pip_env.update(PATH="/usr/bin:/bin:" + os.environ["PATH"], PIP_CONFIG_FILE="/dev/null", PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
venv_python = os.path.join(user, "venv", "bin", "python")
status, log = run(["bash", "-e", os.path.join(blocks, "install.sh")], cwd=user, env=pip_env)
if status == 0:
    # idtypes is imported from the venv, not from the copy of the sources below the directory.
    status, where = run([venv_python, "-c", "import idtypes; print(idtypes.__file__)"], cwd=user)
    log += where
if not check(status == 0 and re.search(rf"^{re.escape(user)}/venv/lib/.*/idtypes/__init__\.py$", log, re.M),
             "docs/orms.md, install.sh: pip installs clients/python into a venv offline "
             f"({time.monotonic() - start:.0f} s)", "pip install of clients/python"):
    indented(log)
    venv_python = None

if venv_python and sa:
    # The driver the doc names first that is here.
    driver = "psycopg" if int(sa.split(".")[0]) >= 2 and version_of("psycopg") else "psycopg2"
    cluster.newdb("snip_sqlalchemy")
    for program, pattern in (("sqlalchemy_example.py", f"^{ULID} launch 1 1 launch$"),
                             ("sqlalchemy_reflect.py", r"^ULID\(\) TimeID\(\) launch$"),
                             ("arrays_example.py", "^1 01KJW5T8X0Q9M2N3P4R5S6T7V8$")):
        run_block(f"{program} ({driver})", pattern, program, DATABASE_URL=url_of(driver, "snip_sqlalchemy"))

if venv_python and dj:
    cluster.newdb("snip_django")
    status, log = run([venv_python, os.path.join(PROGRAMS, "django_snippet.py"), blocks],
                      env=dict(os.environ, PGDATABASE="snip_django"), timeout=120)
    if status == 77:
        skipped("docs/orms.md, the Django blocks: " + "".join(re.findall("^skip: (.*)$", log, re.M)))
    else:
        expected += 2
        indented(log)
        check(status == 0 and re.search(rf"^{ULID} launch 1 1 launch 13$", log, re.M),
              "docs/orms.md, shop/models.py and shop_usage.py: migrate, then the usage prints what it says",
              f"exit status {status}")
        # The doc's migration SQL: sqlmigrate's CREATE TABLE lines (django_snippet.py wrote them), and it runs.
        doc_sql, printed = ([line for line in open(f) if line.startswith("CREATE TABLE")] if os.path.exists(f) else []
                            for f in (f"{blocks}/shop_0001.sql", f"{blocks}/sqlmigrate.sql"))
        cluster.newdb("snip_django_sql")
        status, log = run([PSQL, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", "snip_django_sql", "-f",
                           f"{blocks}/shop_0001.sql"])
        column = cluster.psql("-c", "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid ="
                              " 'shop_ticket'::regclass AND attname = 'event_id'", db="snip_django_sql", check=False)
        if not check(doc_sql == printed and status == 0 and column == "ulid",
                     "docs/orms.md, shop_0001.sql: sqlmigrate prints its CREATE TABLE lines, and it runs"):
            indented("".join(difflib.unified_diff(doc_sql, printed, "shop_0001.sql", "sqlmigrate.sql")) + log)

if skips:
    print(f"{len(skips)} skipped:")
    indented("\n".join(skips))
finish(expected)
