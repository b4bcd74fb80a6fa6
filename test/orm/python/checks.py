"""Shared by the ORM test programs: one line per check, and the tally test/scripts/orm_python.sh reads."""
import os
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
