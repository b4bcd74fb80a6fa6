"""Shared by the ORM test programs: one line per check, and the tally test/scripts/orm_python.py reads."""
import os
import shutil
import sys

_counts = {"checks": 0, "failed": 0}


def check(condition, what, detail=""):
    """Print "ok: <what>" or "FAILED: <what> (<detail>)"; return the condition."""
    _counts["checks"] += 1
    if condition:
        print("ok: " + what)
    else:
        _counts["failed"] += 1
        print("FAILED: " + what + (" (%s)" % detail if detail else ""))
    sys.stdout.flush()
    return condition


def attempt(what, function, *args):
    """Run function(*args); an exception is a failed check named <what> (and None is returned)."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001 - every error is the check's failure
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        check(False, what, "%s: %s" % (type(error).__name__, first))
        return None


def skip(what):
    """A check that does not apply here: "skip: <what> (<why>; how to enable)"."""
    print("skip: " + what)


def has_like(execute_scalar):
    """Whether the installed idtypes has LIKE on its types (the operator ulid ~~ text)."""
    return bool(execute_scalar("SELECT count(*) FROM pg_operator WHERE oprname = '~~'"
                               " AND oprleft = 'ulid'::regtype AND oprright = 'text'::regtype"))


LIKE_SKIP = ("(this build of idtypes has no LIKE on its types; a build with it runs them)")


def finish():
    print("%d checks, %d failed" % (_counts["checks"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)


def plan_uses_index(lines):
    """An EXPLAIN whose scan of the table is an index scan (plain, index-only or bitmap)."""
    text = "\n".join(lines)
    return "Index" in text and "Seq Scan" not in text


def django_configure(app):
    """Django's settings for the app <app> on the database of PGHOST, PGPORT, PGUSER and
    PGDATABASE, then django.setup()."""
    import django
    from django.conf import settings

    settings.configure(
        DATABASES={"default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ["PGDATABASE"], "HOST": os.environ["PGHOST"],
            "PORT": os.environ["PGPORT"], "USER": os.environ["PGUSER"],
        }},
        INSTALLED_APPS=[app], USE_TZ=True, DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    )
    django.setup()


def django_app(app, work, migrations=True):
    """The test app <app> (a directory beside this file) copied into the work directory, with an
    empty migrations package unless migrations=False, importable, and Django configured for it."""
    shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), app), os.path.join(work, app))
    if migrations:
        os.makedirs(os.path.join(work, app, "migrations"))
        open(os.path.join(work, app, "migrations", "__init__.py"), "w").close()
    sys.path.insert(0, work)
    django_configure(app)


def django_migration(app):
    """makemigrations for <app>, then the SQL of its first migration (sqlmigrate), whose CREATE
    TABLE lines are printed."""
    import io

    from django.core.management import call_command

    call_command("makemigrations", app, verbosity=0)
    out = io.StringIO()
    call_command("sqlmigrate", app, "0001", stdout=out)
    migration = out.getvalue()
    print("    " + "\n    ".join(l for l in migration.splitlines() if l.startswith("CREATE TABLE")))
    return migration


def django_sql(query, params=()):
    """A query on Django's connection: its rows, or None for a statement without any."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchall() if cursor.description else None
