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
# Then docs/reference.md's pg_partman block runs as written (test/lib/docblocks.sh's doc_run) and
# must print what the doc shows.
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
export PGTZ=UTC
q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
trap '"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
q <<'SQL'
CREATE EXTENSION idtypes;
CREATE SCHEMA partman;
CREATE EXTENSION pg_partman SCHEMA partman;
SQL
echo "pg_partman $(q -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'") ($pkg $version)"

# Without the README's step, create_parent refuses a custom-typed control column.
q -c "CREATE TABLE refused (id ulid NOT NULL) PARTITION BY RANGE (id)"
err=$(q -c "SELECT partman.create_parent('public.refused', 'id', '1 day',
		p_time_encoder := 'ulid_first_at', p_time_decoder := 'ulid_timestamp')" 2>&1 || true)
if grep -q 'Supplied column is of type ulid' <<<"$err"; then
	ok "pg_partman $version refuses a ulid control column as shipped (the README's step is needed)"
else
	bad "create_parent on a ulid column without the README's step: expected its type error, got: $err"
fi

# The README's recipe: the five ID types are classified with text by check_control_type, and a
# decoder from text to time per type.
q <<'SQL'
DO $$
DECLARE
	def text := pg_get_functiondef('partman.check_control_type(text, text, text)'::regprocedure);
BEGIN
	IF def NOT LIKE '%''ulid''%' THEN
		def := replace(def, $s$WHEN typname IN ('text', 'varchar') THEN$s$,
			$s$WHEN typname IN ('text', 'varchar', 'uid11', 'timeid', 'ulidflake', 'ulid', 'euid') THEN$s$);
		IF def NOT LIKE '%''ulid''%' THEN
			RAISE EXCEPTION 'partman.check_control_type is not the function this recipe expects';
		END IF;
		EXECUTE def;
	END IF;
END $$;
CREATE FUNCTION public.uid11_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.uid11_timestamp($1::public.uid11)';
CREATE FUNCTION public.timeid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.timeid_timestamp($1::public.timeid)';
CREATE FUNCTION public.ulidflake_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.ulidflake_timestamp($1::public.ulidflake)';
CREATE FUNCTION public.ulid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.ulid_timestamp($1::public.ulid)';
CREATE FUNCTION public.euid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT public.euid_timestamp($1::public.euid)';
-- uuid: pg_partman passes the decoder a bound's or a row's text. A bound (uuidv7_first_at) has
-- all bits but the time zero, no v7 version: the decoder reads the first 48 bits of any uuid
-- (uuidv7_to_ulid() would refuse the bound).
CREATE FUNCTION public.uuid_partman_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	AS 'SELECT public.ulid_timestamp($1::uuid::public.ulid)';
-- the tests' own: a UUIDv7 at a time, and a UUIDv7's time
CREATE FUNCTION uuid_gen_at(timestamptz) RETURNS uuid
	LANGUAGE sql AS 'SELECT ulid_to_uuidv7(generate_ulid_at($1))';
CREATE FUNCTION uuid_time_of(uuid) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE AS 'SELECT ulid_timestamp(uuidv7_to_ulid($1))';
SQL

# The encoder under test; IDTYPES_PARTMAN_ENCODER_SKEW shifts it (to see the checks fail).
skew=${IDTYPES_PARTMAN_ENCODER_SKEW:-}
today=$(q -c "SELECT date_trunc('day', now())::date")

for t in uid11 timeid ulidflake ulid euid uuid; do
	# The generator at a time, the encoder (first ID at a time), the ID's time, the time range.
	case $t in
	uid11) gen=generate_xid_at ;; timeid) gen=generate_tid_at ;; uuid) gen=uuid_gen_at ;; *) gen=generate_${t}_at ;;
	esac
	if [ "$t" = uuid ]; then
		first_at=uuidv7_first_at time_of=uuid_time_of time_range=uuidv7_time_range
	else
		first_at=${t}_first_at time_of=${t}_timestamp time_range=${t}_time_range
	fi
	enc=public.$first_at
	if [ -n "$skew" ]; then
		q -c "CREATE FUNCTION ${t}_skewed_first_at(timestamptz) RETURNS $t LANGUAGE sql IMMUTABLE
			AS 'SELECT public.$first_at(\$1 + interval ''$skew'')'"
		enc=public.${t}_skewed_first_at
	fi
	p=ev_$t
	q >/dev/null <<SQL
CREATE TABLE $p (id $t NOT NULL, day date NOT NULL) PARTITION BY RANGE (id);
SELECT partman.create_parent('public.$p', 'id', '1 day', p_premake := 2,
	p_start_partition := (date '$today' - 6)::text,
	p_time_encoder := '$enc', p_time_decoder := 'public.${t}_partman_decoder');
-- 40 rows a day at random times, and one at the first and one at the last unit of the day
INSERT INTO $p
SELECT $gen(d + random() * interval '1 day'), d FROM generate_series(-6, 0) k,
	LATERAL (SELECT (date '$today' + k)::timestamptz AS d) s, generate_series(1, 40)
UNION ALL
SELECT $gen(d), d FROM generate_series(-6, 0) k, LATERAL (SELECT (date '$today' + k)::timestamptz AS d) s
UNION ALL
SELECT $gen(d + interval '1 day' - CASE WHEN '$t' = 'timeid' THEN interval '1 microsecond'
	ELSE interval '1 millisecond' END), d
FROM generate_series(-6, 0) k, LATERAL (SELECT (date '$today' + k)::timestamptz AS d) s;
ANALYZE $p;
SQL

	# The children and their bounds, as pg_partman reports their start times.
	children() {
		q -c "SELECT count(*) FILTER (WHERE i.child_start_time = date_trunc('day', i.child_start_time)
				AND pg_get_expr(c.relpartbound, c.oid) = format(
				'FOR VALUES FROM (%L) TO (%L)', $first_at(i.child_start_time),
				$first_at(i.child_start_time + interval '1 day'))) || ' ' || count(*)
				|| ' ' || coalesce(min(i.child_start_time::date)::text, '-')
				|| ' ' || coalesce(max(i.child_start_time::date)::text, '-')
			FROM partman.show_partitions('public.$p') s,
				LATERAL partman.show_partition_info(s.partition_schemaname || '.' || s.partition_tablename,
					p_parent_table := 'public.$p') i, pg_class c
			WHERE c.oid = (s.partition_schemaname || '.' || s.partition_tablename)::regclass"
	}
	read -r exact n first last <<<"$(children)"
	want_last=$(q -c "SELECT (date '$today' + 2)")
	want_first=$(q -c "SELECT (date '$today' - 6)")
	if [ "$n" = 9 ] && [ "$exact" = 9 ] && [ "$first" = "$want_first" ] && [ "$last" = "$want_last" ]; then
		ok "$t: create_parent made 9 daily children $first..$last, bounds exactly $first_at(day) .. $first_at(day + 1)"
	else
		bad "$t: create_parent: $n children ($first..$last, want 9, $want_first..$want_last), $exact with exact bounds"
	fi

	res=$(q -c "SELECT count(*), count(*) FILTER (WHERE tableoid::regclass::text =
			(SELECT partition_table FROM partman.show_partition_name('public.$p', $time_of(id)::text))
			AND $time_of(id)::date = day), count(*) FILTER (WHERE tableoid = 'public.${p}_default'::regclass)
		FROM $p")
	read -r total right indefault <<<"${res//|/ }"
	if [ "$total" = 294 ] && [ "$right" = 294 ] && [ "$indefault" = 0 ]; then
		ok "$t: all 294 rows of seven days (random times, first and last unit of each day) landed in their day's child"
	else
		bad "$t: rows: $total (want 294), $right in their day's child, $indefault in the default"
	fi

	q -c "UPDATE partman.part_config SET premake = 5 WHERE parent_table = 'public.$p'"
	q -c "SELECT partman.run_maintenance('public.$p')" >/dev/null
	read -r exact n first last <<<"$(children)"
	want_last=$(q -c "SELECT (date '$today' + 5)")
	if [ "$n" = 12 ] && [ "$exact" = 12 ] && [ "$last" = "$want_last" ]; then
		ok "$t: run_maintenance (premake 5) made the future children up to $last, bounds exact"
	else
		bad "$t: run_maintenance: $n children ($first..$last, want 12 up to $want_last), $exact with exact bounds"
	fi

	q -c "UPDATE partman.part_config SET retention = '3 days', retention_keep_table = false
		WHERE parent_table = 'public.$p'"
	q -c "SELECT partman.run_maintenance('public.$p')" >/dev/null
	read -r exact n first last <<<"$(children)"
	want_first=$(q -c "SELECT (date '$today' - 3)")
	rows=$(q -c "SELECT count(*) || ' ' || count(*) FILTER (WHERE day >= date '$today' - 3) FROM $p")
	if [ "$first" = "$want_first" ] && [ "$n" = 9 ] && [ "$rows" = "168 168" ]; then
		ok "$t: retention of 3 days dropped the children before $first and only their rows (168 left)"
	else
		bad "$t: retention: children from $first (want $want_first), $n (want 9), rows left and recent: $rows (want 168 168)"
	fi

	# <@ a day's time range: one child scanned, the right one; the same count as a filter on time.
	d=$(q -c "SELECT date '$today' - 1")
	child=$(q -c "SELECT partition_table FROM partman.show_partition_name('public.$p', '$d')")
	plan=$(q -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM $p WHERE id <@ $time_range('[$d, $d 24:00)')")
	scanned=$(printf '%s\n' "$plan" | grep -cE 'Scan on ' || true)
	got=$(q -c "SELECT count(*) FROM $p WHERE id <@ $time_range('[$d, $d 24:00)')")
	want=$(q -c "SELECT count(*) FROM $p WHERE $time_of(id) >= '$d' AND $time_of(id) < '$d'::date + 1")
	if [ "$scanned" = 1 ] && grep -q "Scan on $child " <<<"$plan" && [ "$got" = "$want" ] && [ "$got" = 42 ]; then
		ok "$t: id <@ $time_range(one day) scans $child only, $got rows as the time filter"
	else
		bad "$t: <@ one day: $scanned scans (want 1 of $child), $got rows (time filter: $want, want 42); plan: $plan"
	fi

	# ^@ the text of a row from mid-day without its last four symbols.
	prefix=$(q -c "SELECT left(id::text, length(id::text) - 4) FROM $p
		WHERE day = '$d' AND $time_of(id) BETWEEN '$d 01:00' AND '$d 23:00' ORDER BY id LIMIT 1")
	plan=$(q -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM $p WHERE id ^@ '$prefix'")
	scanned=$(printf '%s\n' "$plan" | grep -cE 'Scan on ' || true)
	got=$(q -c "SELECT count(*) FROM $p WHERE id ^@ '$prefix'")
	want=$(q -c "SELECT count(*) FROM $p WHERE left(id::text, length('$prefix')) = '$prefix'")
	if [ "$scanned" = 1 ] && grep -q "Scan on $child " <<<"$plan" && [ "$got" = "$want" ] && [ "$got" -ge 1 ]; then
		ok "$t: id ^@ '$prefix' scans $child only, $got rows as a filter on the text"
	else
		bad "$t: ^@ '$prefix': $scanned scans (want 1 of $child), $got rows (text filter: $want); plan: $plan"
	fi
done

# docs/reference.md's pg_partman block, as written, in a database of its own.
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE ${db}_doc"
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "${db}_doc" -c "CREATE EXTENSION idtypes"
doc_run "$here/../../docs/reference.md" partman.sh -d "${db}_doc"
"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE ${db}_doc"

finish 38
