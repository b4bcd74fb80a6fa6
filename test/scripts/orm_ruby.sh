#!/usr/bin/env bash
# orm_ruby.sh: ActiveRecord (Debian's ruby-activerecord and ruby-pg) with the type registration
# of docs/orms.md, against a throwaway cluster.
#
# - test/orm/ruby/activerecord_check.rb with the doc's recipe: migrations make columns of the five
#   types, keys generated and read back as Strings, find by a string key, ^@ and <@ rows and
#   index scans, Arel matches (LIKE, ILIKE; "skip: ..." where the installed build has no LIKE on
#   the types), a FK join, no "unknown OID" warning, and schema.rb dumped and loaded into an
#   empty database;
# - docs/orms.md's ActiveRecord blocks as they stand: the example must print what it says; the
#   schema.rb block's lines must be in what the dumper writes for the example's database, and
#   the block must load into an empty database.
# A release without ActiveRecord prints "skip: ..." (counted) and the script exits 77.
#
# Missing packages come from `scripts/install-deps.sh orm-ruby` (as root).
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
. "$(dirname "$0")/../lib/docblocks.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
programs=$top/test/orm/ruby

nodes_workdir
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/orm.sh"
. "$(dirname "$0")/../lib/packages.sh"

group_packages orm-ruby "the ActiveRecord test's packages"
# Debian's interpreter, whatever ruby comes first on PATH.
ruby=/usr/bin/ruby
if ! ar=$("$ruby" -e 'require "active_record"; require "pg"; puts ActiveRecord::VERSION::STRING' 2>"$work/ruby.log"); then
	cat "$work/ruby.log"
	echo "skip: ActiveRecord (ruby-activerecord and ruby-pg do not load; scripts/install-deps.sh orm-ruby installs them)"
	exit 77
fi
orm_cluster

blocks=$work/blocks
mkdir -p "$blocks"
doc_blocks "$top/docs/orms.md" "$blocks" >/dev/null
recipe=$blocks/idtypes_activerecord.rb

new_db activerecord
new_db activerecord_fresh bare
PGDATABASE=activerecord run_program "ActiveRecord $ar" "$ruby" "$programs/activerecord_check.rb" "$recipe" activerecord_fresh

new_db snip_activerecord
PGDATABASE=snip_activerecord run_block "activerecord_example.rb (ActiveRecord $ar)" \
	'^[0-9A-HJKMNP-TV-Z]{26} launch 1 1 launch$' "$ruby" activerecord_example.rb
# The schema.rb block: its lines are what the dumper writes, and it loads into an empty database.
expected=$((expected + 1))
new_db snip_schema bare
if PGDATABASE=snip_activerecord "$ruby" "$programs/schema_tool.rb" "$recipe" dump >"$work/dumped.rb" 2>"$work/dump.log" &&
	missing=$(grep -E '^ *(create_table|t\.|add_foreign_key|enable_extension)' "$blocks/schema.rb" |
		grep -vxF -f "$work/dumped.rb" || true) && [ -z "$missing" ] &&
	PGDATABASE=snip_schema "$ruby" "$programs/schema_tool.rb" "$recipe" load "$blocks/schema.rb" >"$work/load.log" 2>&1 &&
	[ "$(node_psql "$dir" "$port" -d snip_schema -c "SELECT string_agg(format_type(atttypid, atttypmod), ' ' ORDER BY attrelid, attnum)
		FROM pg_attribute WHERE attrelid IN ('events'::regclass, 'tickets'::regclass) AND attnum > 0")" = "ulid timeid text ulid ulid" ]; then
	ok "docs/orms.md, schema.rb: the dumper writes its lines, and it loads into an empty database"
else
	sed 's/^/    /' "$work/dump.log" "$work/load.log" 2>/dev/null || true
	printf '    not dumped: %s\n' "${missing:-}"
	bad "docs/orms.md, schema.rb"
fi

orm_finish
