#!/usr/bin/python3
"""ActiveRecord (Debian's ruby-activerecord and ruby-pg) with the type registration of
docs/orms.md, against a throwaway cluster.

- test/orm/ruby/activerecord_check.rb with the doc's recipe: migrations make columns of the five
  types, keys generated and read back as Strings, find by a string key, ^@ and <@ rows and index
  scans, Arel matches (LIKE, ILIKE; "skip: ..." where the installed build has no LIKE on the
  types), a FK join, no "unknown OID" warning, and schema.rb dumped and loaded into an empty
  database;
- docs/orms.md's ActiveRecord blocks as they stand: the example prints what it says; the schema.rb
  block's lines are in what the dumper writes for the example's database, and the block loads
  into an empty database.

A release without ActiveRecord: exit status 77. Run by test/run_tests.sh, after the packages of
scripts/install-deps.sh orm-ruby (as root; not root and missing: exit status 77).
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (TOP, Cluster, check, doc_blocks, finish, group_packages, indented, program_passed, run, skip,  # noqa: E402
                        workdir)

PROGRAMS = os.path.join(TOP, "test", "orm", "ruby")
RUBY = "/usr/bin/ruby"  # Debian's interpreter, whatever ruby PATH has first

group_packages("orm-ruby", "the ActiveRecord test's packages")
status, ar = run([RUBY, "-e", 'require "active_record"; require "pg"; puts ActiveRecord::VERSION::STRING'])
if status != 0:
    print(ar)
    skip("skip: ActiveRecord (ruby-activerecord and ruby-pg do not load; scripts/install-deps.sh orm-ruby installs them)")
ar = ar.strip().splitlines()[-1]  # (after any warning the interpreter printed)
work = workdir()
cluster = Cluster(os.path.join(work, "pg"), int(os.environ["PGPORT"]) + 10)
os.environ.update(PGHOST=cluster.host, PGPORT=str(cluster.port), PGUSER="postgres")
blocks = os.path.join(work, "blocks")
doc_blocks(f"{TOP}/docs/orms.md", blocks)
recipe = os.path.join(blocks, "idtypes_activerecord.rb")


def ruby(db, *args, cwd=None):
    return run([RUBY, *args], cwd=cwd, env=dict(os.environ, PGDATABASE=db))


# The check program: it exits 0 with "N checks, 0 failed" and no FAILED line.
cluster.newdb("activerecord")
cluster.newdb("activerecord_fresh", extension=False)
start = time.monotonic()
status, out = ruby("activerecord", os.path.join(PROGRAMS, "activerecord_check.rb"), recipe, "activerecord_fresh")
indented(out)
skips = re.findall("^skip: (.*)$", out, re.M)
check(program_passed(status, out),
      f"ActiveRecord {ar}: {len(re.findall('^ok: ', out, re.M))} checks passed in {time.monotonic() - start:.0f} s",
      f"exit status {status}")

# The doc's example, in the blocks' directory.
cluster.newdb("snip_activerecord")
status, out = ruby("snip_activerecord", "activerecord_example.rb", cwd=blocks)
indented(out)
check(status == 0 and re.search("^[0-9A-HJKMNP-TV-Z]{26} launch 1 1 launch$", out, re.M),
      f"docs/orms.md, activerecord_example.rb (ActiveRecord {ar}): prints what it says", f"exit status {status}")

# The schema.rb block: its lines are what the dumper writes, and it loads into an empty database.
cluster.newdb("snip_schema", extension=False)
status, dumped = ruby("snip_activerecord", os.path.join(PROGRAMS, "schema_tool.rb"), recipe, "dump")
doc_lines = [line.rstrip("\n") for line in open(os.path.join(blocks, "schema.rb"))
             if re.match(r" *(create_table|t\.|add_foreign_key|enable_extension)", line)]
missing = [line for line in doc_lines if line not in dumped.splitlines()] if status == 0 else ["(the dump failed)"]
loaded, log = ruby("snip_schema", os.path.join(PROGRAMS, "schema_tool.rb"), recipe, "load", os.path.join(blocks, "schema.rb"))
columns = cluster.psql("-c", "SELECT string_agg(format_type(atttypid, atttypmod), ' ' ORDER BY attrelid, attnum) FROM "
                       "pg_attribute WHERE attrelid IN ('events'::regclass, 'tickets'::regclass) AND attnum > 0",
                       db="snip_schema", check=False)
if not check(not missing and loaded == 0 and columns == "ulid timeid text ulid ulid",
             "docs/orms.md, schema.rb: the dumper writes its lines, and it loads into an empty database"):
    indented(("" if status == 0 else dumped) + log + "".join(f"not dumped: {line}\n" for line in missing))

if skips:
    print(f"{len(skips)} skipped:")
    indented("\n".join(skips))
finish(3)
