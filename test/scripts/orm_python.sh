#!/usr/bin/env bash
# orm_python.sh: the Python package of clients/python with the ORMs the release packages, against
# a throwaway cluster: the programs of test/orm/python and the Python blocks of docs/orms.md.
#
# - test/orm/python/sqlalchemy_check.py with each driver SQLAlchemy has here (psycopg2, psycopg 3
#   from SQLAlchemy 2.0, asyncpg): DDL, generated keys, session.get() by a string key, binds cast
#   to the column's type, FK join, .prefix(), .in_time_range() and .startswith() rows and index
#   scans, reflection to our types;
# - test/orm/python/django_check.py (Django 3.2+): sqlmigrate's SQL, create()/get()/
#   bulk_create() with database-generated keys and non-key columns (generator=), __prefix,
#   __time_range (F() ends too), __startswith/__istartswith (F() patterns too) rows and index
#   scans, form validation, a ForeignKey whose column is ulid;
# - test/orm/python/django_db_default_check.py (Django 5.0+; a skip line before): db_default=
#   generator_call(...) on keys and other columns: the migration's DEFAULTs, values read back by
#   create(), save() and bulk_create(), a ModelForm leaving the key empty;
# - test/orm/python/alembic_check.py: Alembic's autogenerate of a model with each type renders
#   them as idtypes.sqlalchemy.<Type>(), the migration applies, a second one finds nothing;
# - test/orm/python/arrays_check.py: arrays of each type read as lists of str through psycopg 3,
#   psycopg2 and asyncpg after idtypes.<driver>.register_types, SQLAlchemy's ARRAY(<type>) with
#   each driver after idtypes.sqlalchemy.register_types, Django's ArrayField(<field>);
# - docs/orms.md: its `sh` block installs clients/python with pip into a venv with no network
#   (PIP_NO_INDEX), in a copy of the package; its SQLAlchemy and Django blocks then run with that
#   venv's Python, each in a database of its own, and must print what they say; the migration SQL
#   block must be what sqlmigrate prints (its CREATE TABLE lines) and must run.
# The checks that need the extension's LIKE on the types print "skip: ..." where the installed
# build has none. A framework or driver the release lacks (psycopg 3 with SQLAlchemy 1.4) prints one line "skip: <what> (<why>; how to enable)" and
# is counted at the end; the script passes if all that ran passed.
#
# Missing packages come from `scripts/install-deps.sh orm-python` (as root).
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
. "$(dirname "$0")/../lib/docblocks.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
programs=$top/test/orm/python

nodes_workdir
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/orm.sh"
. "$(dirname "$0")/../lib/packages.sh"

group_packages orm-python "the Python ORM test's packages"
orm_cluster

# Debian's interpreter and packages, whatever python3 comes first on PATH.
python=/usr/bin/python3
version_of() { "$python" -c "import $1; print($1.__version__)" 2>/dev/null; }
url_of() { echo "postgresql+$1://postgres@/$2?host=$dir&port=$port"; }

# SQLAlchemy with each driver.
if ! sa=$(version_of sqlalchemy); then
	skipped "SQLAlchemy (not installed; scripts/install-deps.sh orm-python installs python3-sqlalchemy)"
else
	for driver in psycopg2 psycopg asyncpg; do
		if ! version_of "$driver" >/dev/null; then
			skipped "SQLAlchemy $sa with $driver (python3-$driver is not installed; scripts/install-deps.sh orm-python)"
		elif [ "$driver" = psycopg ] && [ "${sa%%.*}" -lt 2 ]; then
			skipped "SQLAlchemy $sa with psycopg 3 (SQLAlchemy 1.4 has no psycopg 3 dialect; 2.0 has: Debian 13, sid)"
		else
			new_db "sa_$driver"
			PYTHONPATH=$top/clients/python:$programs run_program "SQLAlchemy $sa, $driver" \
				"$python" "$programs/sqlalchemy_check.py" "$(url_of "$driver" "sa_$driver")"
			new_db "sa_arrays_$driver"
			PYTHONPATH=$top/clients/python:$programs run_program "SQLAlchemy $sa, $driver: ARRAY(<type>)" \
				"$python" "$programs/arrays_check.py" sqlalchemy "$(url_of "$driver" "sa_arrays_$driver")"
		fi
	done
fi

# Alembic autogenerate of a model with each type: the migration names the types, applies, and a
# second autogenerate finds nothing.
if [ -n "${sa:-}" ] && al=$(version_of alembic); then
	new_db alembic
	PYTHONPATH=$top/clients/python:$programs run_program "Alembic $al autogenerate" \
		"$python" "$programs/alembic_check.py" "$(url_of psycopg2 alembic)"
elif [ -n "${sa:-}" ]; then
	skipped "Alembic (python3-alembic is not installed; scripts/install-deps.sh orm-python)"
fi

# The drivers alone: idtypes.<driver>.register_types and arrays.
new_db arrays
for driver in psycopg psycopg2 asyncpg; do
	if ! version_of "$driver" >/dev/null; then
		skipped "arrays with $driver (python3-$driver is not installed; scripts/install-deps.sh orm-python)"
	else
		PYTHONPATH=$top/clients/python:$programs PGDATABASE=arrays run_program "$driver $(version_of "$driver" | cut -d" " -f1): register_types, arrays" \
			"$python" "$programs/arrays_check.py" "$driver"
	fi
done

# Django.
if ! dj=$(version_of django); then
	skipped "Django (not installed; scripts/install-deps.sh orm-python installs python3-django)"
else
	new_db django
	mkdir "$work/django"
	PYTHONPATH=$top/clients/python:$programs PGDATABASE=django run_program "Django $dj" \
		"$python" "$programs/django_check.py" "$work/django"
	new_db django_arrays
	mkdir "$work/django_arrays"
	PYTHONPATH=$top/clients/python:$programs PGDATABASE=django_arrays run_program "Django $dj: ArrayField(<field>)" \
		"$python" "$programs/arrays_check.py" django "$work/django_arrays"
	new_db django_db_default
	mkdir "$work/django_db_default"
	PYTHONPATH=$top/clients/python:$programs PGDATABASE=django_db_default run_program "Django $dj: db_default=generator_call(...)" \
		"$python" "$programs/django_db_default_check.py" "$work/django_db_default"
fi

# docs/orms.md: pip installs the package into a venv, offline, from a copy of clients/python (a
# build leaves build/ and *.egg-info beside the sources).
blocks=$work/blocks
mkdir -p "$blocks" "$work/user/clients"
doc_blocks "$top/docs/orms.md" "$blocks" >/dev/null
cp -r "$top/clients/python" "$work/user/clients/python"
expected=$((expected + 1))
start=$SECONDS
# Debian's python3 first on PATH, as on a Debian system; no pip configuration of this machine's
# (PIP_* variables, pip.conf) and no package index.
unset $(compgen -e | grep '^PIP_' || true)
if (cd "$work/user" && PATH=/usr/bin:/bin:$PATH PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 \
	PIP_DISABLE_PIP_VERSION_CHECK=1 timeout 300 bash -e "$blocks/install.sh") >"$work/pip.log" 2>&1 &&
	(cd "$work/user" && venv/bin/python -c 'import idtypes; print(idtypes.__file__)') >>"$work/pip.log" 2>&1 &&
	grep -q "^$work/user/venv/lib/.*/idtypes/__init__.py\$" "$work/pip.log"; then
	ok "docs/orms.md, install.sh: pip installs clients/python into a venv offline ($((SECONDS - start)) s)"
	venv_python=$work/user/venv/bin/python
else
	sed 's/^/    /' "$work/pip.log"
	bad "docs/orms.md, install.sh: pip install of clients/python"
	venv_python=
fi

ulid='[0-9A-HJKMNP-TV-Z]{26}'
if [ -n "$venv_python" ] && [ -n "${sa:-}" ]; then
	# The driver the doc names first that is here.
	driver=psycopg2
	if [ "${sa%%.*}" -ge 2 ] && version_of psycopg >/dev/null; then driver=psycopg; fi
	new_db snip_sqlalchemy
	DATABASE_URL=$(url_of "$driver" snip_sqlalchemy) run_block "sqlalchemy_example.py ($driver)" \
		"^$ulid launch 1 1 launch\$" "$venv_python" sqlalchemy_example.py
	DATABASE_URL=$(url_of "$driver" snip_sqlalchemy) run_block "sqlalchemy_reflect.py ($driver)" \
		'^ULID\(\) TimeID\(\) launch$' "$venv_python" sqlalchemy_reflect.py
	DATABASE_URL=$(url_of "$driver" snip_sqlalchemy) run_block "arrays_example.py ($driver)" \
		'^1 01KJW5T8X0Q9M2N3P4R5S6T7V8$' "$venv_python" arrays_example.py
fi
if [ -n "$venv_python" ] && [ -n "${dj:-}" ]; then
	new_db snip_django
	status=0
	PGDATABASE=snip_django timeout 120 "$venv_python" "$programs/django_snippet.py" "$blocks" >"$work/django.log" 2>&1 || status=$?
	if [ "$status" -eq 77 ]; then
		skipped "docs/orms.md, the Django blocks: $(sed -n 's/^skip: //p' "$work/django.log")"
	else
		expected=$((expected + 2))
		sed 's/^/    /' "$work/django.log"
		if [ "$status" -eq 0 ] && grep -qE "^$ulid launch 1 1 launch 13\$" "$work/django.log"; then
			ok "docs/orms.md, shop/models.py and shop_usage.py: migrate, then the usage prints what it says"
		else
			bad "docs/orms.md, the Django blocks (exit status $status)"
		fi
		# The doc's migration SQL: sqlmigrate's CREATE TABLE lines, and it runs.
		new_db snip_django_sql
		if diff <(grep '^CREATE TABLE' "$blocks/shop_0001.sql") <(grep '^CREATE TABLE' "$blocks/sqlmigrate.sql") >"$work/diff.log" &&
			node_psql "$dir" "$port" -d snip_django_sql -f "$blocks/shop_0001.sql" >"$work/sql.log" 2>&1 &&
			[ "$(node_psql "$dir" "$port" -d snip_django_sql -c "SELECT format_type(atttypid, atttypmod) FROM pg_attribute
				WHERE attrelid = 'shop_ticket'::regclass AND attname = 'event_id'")" = ulid ]; then
			ok "docs/orms.md, shop_0001.sql: sqlmigrate prints its CREATE TABLE lines, and it runs"
		else
			sed 's/^/    /' "$work/diff.log" "$work/sql.log"
			bad "docs/orms.md, shop_0001.sql: not what sqlmigrate prints, or it fails"
		fi
	fi
fi

orm_finish
