#!/usr/bin/env bash
# partman.sh: pg_partman 5.2+ (the release's postgresql-<major>-partman) manages a table partitioned
# by day on each of the five ID types, and on a plain uuid column of UUIDv7 values, through its
# time encoder/decoder hooks.
#
# pg_partman takes a control column of a date/time, integer, text or uuid type only
# (check_control_type); the README's recipe classifies the five ID types with text, so the
# encoder/decoder path written for text and uuid IDs applies: encoder <type>_first_at, decoder a
# one-line SQL function from text to the ID's time. uuid is a control type of pg_partman's own: it
# needs no step, the encoder is uuidv7_first_at and the decoder reads the v7 time. The script
# first checks that create_parent refuses an ID-typed column without that step (so the step is
# still needed), then per type:
#   - create_parent (daily, starting six days ago): the children start at midnight and their
#     bounds are exactly <type>_first_at(day) .. <type>_first_at(day + 1);
#   - rows made by generate_*_at() at random times of the last seven days, and at the first and
#     last unit of each day, land in the child pg_partman names for their time, none in the default;
#   - run_maintenance with a larger premake makes the future children;
#   - retention (3 days, tables dropped) drops the older children and only their rows;
#   - id <@ <type>_time_range(one day) and id ^@ <prefix of a row> scan one child, the right one,
#     and count what a filter on the ID's time (or text) counts.
# The checks are partman.sql beside this script (IDTYPES_PARTMAN_ENCODER_SKEW shifts the encoders
# under test, to see them fail). Then docs/reference.md's pg_partman block runs as written
# (test/lib/docblocks.sh's doc_run) and must print what the doc shows.
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set). Installs the package with
# scripts/install-deps.sh where the release has it; exit status 77 where it has none, or only 4.x.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/packages.sh"
. "$here/../lib/docblocks.sh"

major=$(server_major)
pkg=postgresql-$major-partman
release_package "$pkg" partman '^([0-4]|5\.[01])\.' "the time encoder/decoder hooks need pg_partman 5.2+"
version=$(dpkg-query -W -f='${Version}' "$pkg")

db=idt_partman_$$
out=$(mktemp)
export PGTZ=UTC
psql() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
trap 'psql -d postgres -c "DROP DATABASE IF EXISTS $db" -c "DROP DATABASE IF EXISTS ${db}_doc" >/dev/null 2>&1 || true; rm -f "$out"' EXIT
psql -d postgres -c "CREATE DATABASE $db" -c "CREATE DATABASE ${db}_doc"
psql -d "$db" -c "CREATE EXTENSION idtypes" -c "CREATE SCHEMA partman" -c "CREATE EXTENSION pg_partman SCHEMA partman"
echo "pg_partman $(psql -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'") ($pkg $version)"

psql -d "$db" -v skew="${IDTYPES_PARTMAN_ENCODER_SKEW:-}" -f "$here/partman.sql" >"$out" 2>&1 || echo "FAILED: partman.sql stopped" >>"$out"
cat "$out"
tally "$out"

# docs/reference.md's pg_partman block, as written, in a database of its own.
psql -d "${db}_doc" -c "CREATE EXTENSION idtypes"
doc_run "$here/../../docs/reference.md" partman.sh -d "${db}_doc"

finish 38
