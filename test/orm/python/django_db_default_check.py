#!/usr/bin/env python3
"""idtypes.django's generator_call() as Django's db_default (Django 5.0+), against a real server:
django_db_default_check.py <work directory>.

Connects with PGHOST, PGPORT, PGUSER and PGDATABASE (a database with the extension). Copies the
app djdefault (Order: a ulid key and timeid, uid11 and ulid columns with db_default=generator_call(...),
one naming generate_ulid_monotonic; Line: a uid11 key the same way and a ForeignKey to Order) into
the work directory, runs makemigrations, sqlmigrate and migrate, and checks:
- the migration's SQL gives each column DEFAULT its generator (uid11's generate_uid11_xid()), once;
- a second makemigrations finds no change (the migration written holds generator_call's Func);
- a new object's key is None, full_clean() passes; create() and save() of a new object read the key and the other columns back as str (RETURNING),
  bulk_create() sets them on every object, an explicit key is kept, save() of a loaded object
  updates its row;
- the generated values are the generators' (windows open above find the new rows, the
  monotonic column increases);
- a Line gets its uid11 key and follows its FK;
- a ModelForm may leave the key empty, and its save() inserts a generated key.
Django older than 5.0 has no db_default: prints "skip: ..." and exits 77.
"""
import datetime as dt
import io
import os
import re
import sys

import django

here = os.path.dirname(os.path.abspath(__file__))
work = sys.argv[1]
label = "Django %s: db_default" % django.get_version()
if django.VERSION < (5, 0):
    print("skip: %s (db_default is new in Django 5.0; Debian unstable packages 5.2)" % label)
    sys.exit(77)

from checks import attempt, check, django_app, django_migration, django_sql, finish  # noqa: E402

django_app("djdefault", work)

from django import forms  # noqa: E402
from django.core.management import call_command  # noqa: E402

from djdefault.models import Line, Order  # noqa: E402

UTC = dt.timezone.utc


def is_id(value, length):
    return isinstance(value, str) and len(value) == length


migration = django_migration("djdefault")
for column, sql_type, function in (("id", "ulid", "generate_ulid"), ("tid", "timeid", "generate_timeid"),
                                   ("u11", "uid11", "generate_uid11_xid"), ("seq", "ulid", "generate_ulid_monotonic")):
    definition = [d.strip() for l in migration.splitlines() if l.startswith('CREATE TABLE "djdefault_order"')
                  for d in l.split(" (", 1)[1].split(", ") if d.strip().startswith('"%s" ' % column)]
    check(len(definition) == 1 and definition[0].startswith('"%s" %s ' % (column, sql_type))
          and definition[0].count("DEFAULT") == 1 and re.search(r"DEFAULT \(?%s\(\)" % function, definition[0]),
          "%s: sqlmigrate: %s %s DEFAULT %s(), once" % (label, column, sql_type, function), definition)
check(re.search(r'"id" uid11 DEFAULT \(?generate_uid11_xid\(\)\)? NOT NULL PRIMARY KEY', migration) and '"order_id" ulid NOT NULL' in migration,
      "%s: sqlmigrate: Line's uid11 key DEFAULT generate_uid11_xid(), the ForeignKey column ulid" % label, migration)
attempt("%s: migrate" % label, lambda: call_command("migrate", "djdefault", verbosity=0))
out = io.StringIO()
status = attempt("%s: makemigrations --check" % label,
                 lambda: call_command("makemigrations", "djdefault", check=True, dry_run=True, stdout=out) or "no changes")
check(status == "no changes", "%s: a second makemigrations finds no change" % label, out.getvalue())

since = dt.datetime.now(UTC) - dt.timedelta(minutes=10)
order = attempt("%s: create()" % label, lambda: Order.objects.create(name="first"))
check(order is not None and is_id(order.id, 26) and is_id(order.tid, 13) and is_id(order.u11, 11) and is_id(order.seq, 26),
      "%s: create() reads back the key and the columns the database generated, as str" % label,
      repr(order and (order.id, order.tid, order.u11, order.seq)))
check(order is not None and is_id(order.id, 26)
      and django_sql("SELECT name FROM djdefault_order WHERE id = %s", [order.id]) == [("first",)],
      "%s: create()'s key is the row's" % label)
second = Order(name="second")
check(second.id is None, "%s: a new object's key is None until saved" % label, repr(second.id))
cleaned = attempt("%s: full_clean() of a new object" % label, lambda: second.full_clean() or True)
check(cleaned is True, "%s: full_clean() of a new object passes (the database fills its key)" % label)
attempt("%s: save() of a new object" % label, second.save)
check(is_id(second.id, 26) and is_id(second.u11, 11) and second.id != getattr(order, "id", None),
      "%s: save() of a new object reads back its key and columns" % label, repr((second.id, second.u11)))
made = attempt("%s: bulk_create()" % label, lambda: Order.objects.bulk_create([Order(name="b1"), Order(name="b2")]))
check(made is not None and all(is_id(o.id, 26) and is_id(o.tid, 13) and is_id(o.u11, 11) and is_id(o.seq, 26) for o in made)
      and Order.objects.filter(id__in=[o.id for o in made]).count() == 2,
      "%s: bulk_create() sets the keys and the generated columns" % label,
      repr([(o.id, o.tid, o.u11, o.seq) for o in made or []]))
given = django_sql("SELECT generate_ulid()::text")[0][0]
kept = attempt("%s: create() with a key" % label, lambda: Order.objects.create(id=given, name="given"))
check(kept is not None and kept.id == given and Order.objects.get(id=given).name == "given",
      "%s: an explicit key is kept" % label)
n = Order.objects.filter(id__time_range=(since, None), tid__time_range=(since, None), u11__time_range=(since, None),
                         seq__time_range=(since, None)).count()
check(n == 5, "%s: windows open above find the 5 new rows by each column (uid11 time-ordered)" % label, n)
seqs = [s for (s,) in django_sql("SELECT seq::text FROM djdefault_order WHERE name <> 'given' ORDER BY id")]
check(len(seqs) == 4 and seqs == sorted(seqs) and len(set(seqs)) == 4,
      "%s: the generate_ulid_monotonic() column increases" % label, seqs)
if order is not None:
    loaded = Order.objects.get(id=order.id)
    loaded.name = "renamed"
    attempt("%s: save() of a loaded object" % label, loaded.save)
    check(Order.objects.get(id=order.id).name == "renamed" and Order.objects.count() == 5,
          "%s: save() of a loaded object updates its row" % label, Order.objects.count())
    line = attempt("%s: Line create()" % label, lambda: Line.objects.create(order=order))
    check(line is not None and is_id(line.id, 11) and Line.objects.select_related("order").get(id=line.id).order.id == order.id,
          "%s: a Line gets its uid11 key and follows its FK" % label, repr(line and line.id))

form = forms.modelform_factory(Order, fields=["id", "name"])({"name": "from a form"})
check(form.is_valid(), "%s: a ModelForm may leave the key empty" % label, form.errors)
saved = attempt("%s: the form's save()" % label, form.save) if form.is_valid() else None
check(saved is not None and is_id(saved.id, 26) and Order.objects.filter(id=saved.id, name="from a form").exists(),
      "%s: the form's save() inserts a generated key" % label, repr(saved and saved.id))
finish()
