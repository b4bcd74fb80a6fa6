#!/usr/bin/env python3
"""Runs the Django blocks of docs/orms.md as a project would: django_snippet.py <directory>.

<directory> holds shop/models.py and shop_usage.py (extracted from the doc). With the database of
PGHOST, PGPORT, PGUSER and PGDATABASE: makemigrations for the app shop, sqlmigrate's SQL of 0001
into <directory>/sqlmigrate.sql, migrate, then shop_usage.py. Django older than 3.2: exit 77.
"""
import io
import os
import runpy
import sys

import django

work = sys.argv[1]
if django.VERSION < (3, 2):
    print("skip: Django %s (idtypes.django supports 3.2, 4.2 and 5.x)" % django.get_version())
    sys.exit(77)
os.makedirs(os.path.join(work, "shop", "migrations"), exist_ok=True)
for init in ("shop/__init__.py", "shop/migrations/__init__.py"):
    open(os.path.join(work, init), "a").close()
sys.path.insert(0, work)

from checks import django_configure  # noqa: E402

django_configure("shop")

from django.core.management import call_command  # noqa: E402

call_command("makemigrations", "shop", verbosity=0)
out = io.StringIO()
call_command("sqlmigrate", "shop", "0001", stdout=out)
with open(os.path.join(work, "sqlmigrate.sql"), "w") as f:
    f.write(out.getvalue())
call_command("migrate", "shop", verbosity=0)
runpy.run_path(os.path.join(work, "shop_usage.py"), run_name="__main__")
