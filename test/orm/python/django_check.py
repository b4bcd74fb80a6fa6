#!/usr/bin/env python3
"""idtypes.django against a real server: django_check.py <work directory>.

Connects with PGHOST, PGPORT, PGUSER and PGDATABASE (a database with the extension). Copies the
app djshop (Event with ULIDField(primary_key=True) and a column of each other type, Ticket with a
ForeignKey to it) into the work directory, runs makemigrations, sqlmigrate and migrate, and checks:
- the migration's SQL names our types: the key `ulid ... DEFAULT generate_ulid()`, the FK `ulid`;
- create() returns the key the database generated, as str; get() by the string key (and in lower
  case); bulk_create() sets every new object's key; the other four types round-trip;
- id__prefix, id__time_range (a pair and a DateTimeTZRange) and id__startswith /
  id__istartswith (LIKE, ILIKE on the column) return the rows SQL says, and EXPLAIN (seqscan
  off) shows an index scan;
- a Ticket follows its FK (select_related, and a filter across it by prefix);
- generator=True / generator=<name> on non-key fields: the column's DEFAULT (uid11's is
  generate_uid11_xid()), read back by create() and bulk_create(), found by a window open above;
- id__time_range with F() ends, id__istartswith=F(...) (the pattern's '%' appended);
- a ModelForm refuses malformed IDs (length, symbols, an EUID's check symbol) and may leave a
  database-generated key empty, its save() then inserting a generated key; full_clean() of a new
  object does not ask for the fields the database fills;
- inspectdb still guesses TextField for an idtypes column (the pitfall docs/orms.md describes).
Django older than 3.2 prints "skip: ..." and exits 77.
"""
import datetime as dt
import io
import os
import sys

import django

here = os.path.dirname(os.path.abspath(__file__))
work = sys.argv[1]
label = "Django %s" % django.get_version()
if django.VERSION < (3, 2):
    print("skip: %s (idtypes.django supports Django 3.2, 4.2 and 5.x)" % label)
    sys.exit(77)

from checks import LIKE_SKIP, attempt, check, django_app, django_migration, django_sql, finish, has_like, plan_uses_index, skip  # noqa: E402

django_app("djshop", work)

from django.core.management import call_command  # noqa: E402
from django.db.models import F  # noqa: E402
from django.db.models.functions import Upper  # noqa: E402
try:
    from django.db.backends.postgresql.psycopg_any import DateTimeTZRange  # noqa: E402
except ImportError:  # Django 3.2 (psycopg2 only)
    from psycopg2.extras import DateTimeTZRange  # noqa: E402

from djshop.models import Event, Ticket  # noqa: E402

UTC = dt.timezone.utc


migration = django_migration("djshop")
check('"id" ulid NOT NULL PRIMARY KEY DEFAULT generate_ulid()' in migration,
      "%s: sqlmigrate: the key is ulid with DEFAULT generate_ulid()" % label)
check('"uid11" uid11 NULL' in migration and '"timeid" timeid NULL' in migration
      and '"ulidflake" ulidflake NULL' in migration and '"euid" euid NULL' in migration,
      "%s: sqlmigrate: uid11, timeid, ulidflake, euid columns" % label)
check('"event_id" ulid NOT NULL' in migration, "%s: sqlmigrate: the ForeignKey column is ulid" % label)
check('"tid_gen" timeid NULL DEFAULT generate_timeid()' in migration and '"u11_gen" uid11 NULL DEFAULT generate_uid11_xid()' in migration
      and '"seq" ulid NULL DEFAULT generate_ulid_monotonic()' in migration,
      "%s: sqlmigrate: generator=True and generator=<name> give non-key columns their DEFAULT" % label, migration)
call_command("migrate", "djshop", verbosity=0)

gen = django_sql("SELECT generate_uid11()::text, generate_tid()::text, generate_ulidflake()::text, generate_euid()::text")[0]
event = attempt("%s: create()" % label, lambda: Event.objects.create(
    name="first", uid11=gen[0], timeid=gen[1], ulidflake=gen[2], euid=gen[3]))
key = event.id if event else None
check(isinstance(key, str) and len(key) == 26 and django_sql("SELECT count(*) FROM djshop_event WHERE id = %s", [key])[0][0] == 1,
      "%s: create() returns the key the database generated" % label, repr(key))
got = attempt("%s: get()" % label, lambda: Event.objects.get(id=key))
check(got is not None and got.name == "first", "%s: get() by the string key" % label)
check(got is not None and (got.uid11, got.timeid, got.ulidflake, got.euid) == tuple(gen),
      "%s: uid11, timeid, ulidflake and euid values round-trip as str" % label)
got = attempt("%s: get() in lower case" % label, lambda: Event.objects.get(pk=key.lower()))
check(got is not None and got.id == key, "%s: get() by the key in lower case" % label)
made = attempt("%s: bulk_create()" % label, lambda: Event.objects.bulk_create([Event(name="b1"), Event(name="b2")]))
ids = [e.id for e in made or []]
check(len(ids) == 2 and all(isinstance(i, str) and len(i) == 26 for i in ids)
      and Event.objects.filter(id__in=ids).count() == 2, "%s: bulk_create() sets the generated keys" % label, ids)
check(event is not None and all(isinstance(v, str) and len(v) > 10 for v in (event.tid_gen, event.u11_gen, event.seq)),
      "%s: create() reads back the non-key columns the database generated" % label,
      repr(event and (event.tid_gen, event.u11_gen, event.seq)))
check(all(isinstance(e.tid_gen, str) and isinstance(e.u11_gen, str) for e in made or []),
      "%s: bulk_create() reads back the non-key generated columns" % label)
# uid11's default is time-ordered (generate_uid11_xid()): a window open above finds the new rows.
since = dt.datetime.now(UTC) - dt.timedelta(minutes=10)
n = Event.objects.filter(u11_gen__time_range=(since, None)).count()
check(n == 3, "%s: u11_gen__time_range=(10 minutes ago, None) finds the 3 new rows" % label, n)
n = Event.objects.filter(tid_gen__time_range=(since, None), seq__time_range=(since, None)).count()
check(n == 3, "%s: tid_gen and seq windows find the 3 new rows" % label, n)
# __time_range with F(): the window's ends from another column.
Event.objects.update(at=dt.datetime(2100, 1, 1, tzinfo=UTC))
Event.objects.filter(id=key).update(at=dt.datetime(2000, 1, 1, tzinfo=UTC))
n = attempt("%s: id__time_range=(F('at'), None)" % label,
            lambda: Event.objects.filter(id__time_range=(F("at"), None)).count())
check(n == 1, "%s: id__time_range=(F('at'), None) compares with the row's own column" % label, n)

# Forms: the model form refuses a malformed ID before the database sees it.
from django import forms  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ["name", "uid11", "timeid", "ulidflake", "euid"]


good = EventForm({"name": "f", "uid11": gen[0], "timeid": gen[1], "ulidflake": gen[2], "euid": gen[3]})
check(good.is_valid(), "%s: a ModelForm takes the generated IDs" % label, good.errors)
for field, bad in (("uid11", gen[0][:-1]), ("uid11", "0" + gen[0][1:]), ("timeid", gen[1].upper()),
                   ("ulidflake", gen[2] + "Z"), ("euid", gen[3][:-1] + ("1" if gen[3][-1] != "1" else "2"))):
    form = EventForm({"name": "f", field: bad})
    check(not form.is_valid() and field in form.errors, "%s: the form refuses %s %r" % (label, field, bad),
          form.errors)
form = forms.modelform_factory(Event, fields=["id", "name"])({"name": "f"})
check(form.is_valid(), "%s: a form may leave the database-generated key empty" % label, form.errors)
saved = attempt("%s: the form's save()" % label, form.save) if form.is_valid() else None
check(saved is not None and isinstance(saved.id, str) and len(saved.id) == 26
      and Event.objects.filter(id=saved.id, name="f").exists(),
      "%s: the form's save() inserts a generated key" % label, repr(saved and saved.id))
if saved is not None:
    saved.delete()

fresh = Event(name="unsaved")
try:
    fresh.full_clean()
    errors = {}
except ValidationError as error:
    errors = error.message_dict
check(not {"id", "tid_gen", "u11_gen", "seq"} & set(errors) and fresh.id is None,
      "%s: full_clean() of a new object leaves the fields the database fills to it" % label, errors)
event.name = "renamed"
event.save()
check(Event.objects.get(id=key).name == "renamed" and Event.objects.count() == 3,
      "%s: save() of a loaded object updates its row" % label)

ticket = attempt("%s: create() with a ForeignKey" % label, lambda: Ticket.objects.create(event_id=key))
fk_type = django_sql("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
              " WHERE attrelid = 'djshop_ticket'::regclass AND attname = 'event_id'")[0][0]
check(fk_type == "ulid", "%s: the ForeignKey column is ulid" % label, fk_type)
if ticket:
    back = Ticket.objects.select_related("event").get(id=ticket.id)
    check(back.event.id == key and back.event.name == "renamed", "%s: a Ticket follows its FK (select_related)" % label)
    check(list(Ticket.objects.filter(event__id__prefix=key[:10])) == [ticket],
          "%s: a filter across the FK by prefix" % label)

django_sql("INSERT INTO djshop_event (id, name) SELECT generate_ulid_at("
    "timestamptz '2026-03-01 00:00+00' + i * interval '1 hour'), 'h' || i FROM generate_series(0, 47) i")
django_sql("ANALYZE djshop_event")
django_sql("SET enable_seqscan = off")
prefix = django_sql("SELECT left(id::text, 8) FROM djshop_event WHERE name = 'h20'")[0][0]
want = {r[0] for r in django_sql("SELECT name FROM djshop_event WHERE id::text LIKE %s", [prefix + "%"])}


def rows_and_plan(what, queryset, expected):
    names = attempt("%s: %s" % (label, what), lambda: {e.name for e in queryset})
    if names is not None:
        check(names == expected, "%s: %s returns the rows SQL says" % (label, what), names)
        plan = queryset.explain().splitlines()
        check(plan_uses_index(plan), "%s: %s is an index scan" % (label, what), plan)


rows_and_plan("id__prefix=%r" % prefix, Event.objects.filter(id__prefix=prefix), want)
lo, hi = dt.datetime(2026, 3, 1, 10, tzinfo=UTC), dt.datetime(2026, 3, 1, 20, tzinfo=UTC)
hours = {"h%d" % i for i in range(10, 20)}
rows_and_plan("id__time_range=(lo, hi)", Event.objects.filter(id__time_range=(lo, hi)), hours)
names = {e.name for e in Event.objects.filter(id__time_range=DateTimeTZRange(lo, hi, "[]"))}
check(names == hours | {"h20"}, "%s: id__time_range=DateTimeTZRange(lo, hi, '[]') includes hi" % label, names)
names = {e.name for e in Event.objects.filter(id__time_range=(None, dt.datetime(2026, 3, 1, 2, tzinfo=UTC)))}
check(names == {"h0", "h1"}, "%s: id__time_range=(None, hi) is open below" % label, names)

# docs/orms.md's introspection pitfall: inspectdb guesses TextField for an idtypes column.
out = io.StringIO()
call_command("inspectdb", "djshop_ticket", stdout=out)
check("id = models.TextField(primary_key=True)  # This field type is a guess." in out.getvalue(),
      "%s: inspectdb guesses TextField, as docs/orms.md says" % label, out.getvalue())

# Need the extension's LIKE and ILIKE on the types (`operator does not exist: ulid ~~ ...` without).
if has_like(lambda q: django_sql(q)[0][0]):
    rows_and_plan("id__startswith=%r [LIKE]" % prefix, Event.objects.filter(id__startswith=prefix), want)
    query = str(Event.objects.filter(id__startswith=prefix).query)
    check("::text" not in query, "%s: id__startswith compares the column, not ::text [LIKE]" % label, query)
    names = attempt("%s: id__istartswith [ILIKE]" % label,
                    lambda: {e.name for e in Event.objects.filter(id__istartswith=prefix.lower())})
    check(names == want, "%s: id__istartswith=%r returns the rows SQL says [ILIKE]" % (label, prefix.lower()), names)
    # A prefix from another column: F("name") is the pattern's text, '%' appended.
    Event.objects.filter(name="h21").update(name=Event.objects.get(name="h21").id[:6].lower())
    n = attempt("%s: id__istartswith=F('name') [ILIKE]" % label,
                lambda: Event.objects.filter(id__istartswith=F("name")).count())
    check(n == 1, "%s: id__istartswith=F('name') finds the row whose name is its prefix [ILIKE]" % label, n)
    n = Event.objects.filter(id__startswith=Upper(F("name"))).count()
    check(n == 1, "%s: id__startswith=Upper(F('name')) finds it too [LIKE]" % label, n)
else:
    skip("%s: id__startswith, id__istartswith, 6 checks %s" % (label, LIKE_SKIP))
finish()
