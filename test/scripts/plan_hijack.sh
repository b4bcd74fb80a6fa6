#!/usr/bin/env bash
# plan_hijack.sh: the planner support of ^@ and <@ never calls a function that another role
# planted. A database still on the 1.0 catalog under this library lacks the helpers that 1.1's
# rewrites call (<type>range_lo/_hi, euid_starts_with_recheck); a role without privileges but
# with CREATE on the extension's schema creates functions of those names and signatures, each
# raising an error when called; a superuser then runs ^@ and <@ on partitioned tables of all five
# types with constants and with parameters under generic plans, and gets the right rows and no
# error. Three layouts: the extension in public, in a schema of its own, and moved there with
# ALTER EXTENSION ... SET SCHEMA. After ALTER EXTENSION idtypes UPDATE the same queries prune.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER/PGBIN pointing at a running cluster with
# idtypes installed. Exit status 0 = pass.
set -euo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
db=idt_hijack_$$
role=idt_hijacker_$$

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

cleanup() {
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	psql_q -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1 || true
}
trap cleanup EXIT

. "$(dirname "$0")/../lib/report.sh"

psql_q -d postgres -c "CREATE ROLE $role LOGIN"
types="uid11 timeid ulidflake ulid euid"

# setup <schema> <how>: a fresh database with idtypes 1.0 in <schema> (how = create: installed
# there; move: installed in public, then SET SCHEMA), a partitioned table per type, and the
# look-alikes planted in <schema> by the unprivileged role.
setup() {
	local schema=$1 how=$2 t gen
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	{
		echo "SET client_min_messages = warning;"
		[ "$schema" = public ] || echo "CREATE SCHEMA $schema;"
		echo "GRANT CREATE, USAGE ON SCHEMA $schema TO $role;"
		if [ "$how" = move ]; then
			echo "CREATE EXTENSION idtypes VERSION '1.0';"
			echo "ALTER EXTENSION idtypes SET SCHEMA $schema;"
		else
			echo "CREATE EXTENSION idtypes VERSION '1.0' SCHEMA $schema;"
		fi
		echo "SET search_path = $schema, public;"
		for t in $types; do
			case $t in
			uid11) gen=generate_xid_at ;;
			timeid) gen=generate_tid_at ;;
			*) gen=generate_${t}_at ;;
			esac
			cat <<SQL
CREATE TABLE p_$t (id $t) PARTITION BY RANGE (id);
SELECT $gen('2026-01-05') AS bound \\gset
CREATE TABLE p_${t}_a PARTITION OF p_$t FOR VALUES FROM (MINVALUE) TO (:'bound');
CREATE TABLE p_${t}_b PARTITION OF p_$t FOR VALUES FROM (:'bound') TO (MAXVALUE);
INSERT INTO p_$t SELECT $gen(timestamptz '2026-01-01' + i * interval '1 minute') FROM generate_series(0, 14399) i;
CREATE INDEX ON p_$t (id);
ANALYZE p_$t;
SQL
		done
	} | psql_q -d "$db"
	{
		echo "SET search_path = $schema;"
		for t in $types; do
			for end in lo hi; do
				cat <<SQL
CREATE FUNCTION ${t}range_$end(r ${t}range) RETURNS $t LANGUAGE plpgsql AS
\$\$BEGIN RAISE EXCEPTION 'hijacked: ${t}range_$end ran as %', current_user; END\$\$;
SQL
			done
		done
		cat <<SQL
CREATE FUNCTION euid_starts_with_recheck(e euid, p text) RETURNS bool LANGUAGE plpgsql AS
\$\$BEGIN RAISE EXCEPTION 'hijacked: euid_starts_with_recheck ran as %', current_user; END\$\$;
SQL
	} | psql_q -d "$db" -U "$role"
}

# queries <schema>: every type's ^@ and <@ with a constant and with a parameter (generic plan),
# each with its row count against an oracle of text or time; one line per query, "<t> <what> ok",
# or the error.
queries() {
	local schema=$1 t
	for t in $types; do
		psql_q -d "$db" <<SQL 2>&1 || true
SET search_path = $schema, public;
SET plan_cache_mode = force_generic_plan;
SELECT left(min(id)::text, 6) AS p FROM p_$t \gset
SELECT count(*) AS want_p FROM p_$t WHERE id::text LIKE :'p' || '%' \gset
SELECT count(*) AS want_w FROM p_$t WHERE id::timestamptz >= '2026-01-04 12:00+00' AND id::timestamptz < '2026-01-06 12:00+00' \gset
PREPARE qp(text) AS SELECT count(*) FROM p_$t WHERE id ^@ \$1;
PREPARE qw(tstzrange) AS SELECT count(*) FROM p_$t WHERE id <@ ${t}_time_range(\$1);
SELECT '$t ^@ constant ' || CASE WHEN count(*) = :want_p THEN 'ok' ELSE 'wrong' END FROM p_$t WHERE id ^@ :'p';
EXECUTE qp(:'p') \gset got_
SELECT '$t ^@ parameter ' || CASE WHEN :got_count = :want_p THEN 'ok' ELSE 'wrong' END;
SELECT '$t <@ constant ' || CASE WHEN count(*) = :want_w THEN 'ok' ELSE 'wrong' END
FROM p_$t WHERE id <@ ${t}_time_range('[2026-01-04 12:00+00,2026-01-06 12:00+00)');
EXECUTE qw('[2026-01-04 12:00+00,2026-01-06 12:00+00)') \gset got_
SELECT '$t <@ parameter ' || CASE WHEN :got_count = :want_w THEN 'ok' ELSE 'wrong' END;
SQL
	done
}

# check <label> <schema>: the queries give the right rows and call nothing planted.
check() {
	local label=$1 schema=$2 out
	out=$(queries "$schema")
	if grep -q hijacked <<<"$out"; then
		bad "$label: a planted function ran: $(grep -m1 hijacked <<<"$out")"
	elif [ "$(grep -c ' ok$' <<<"$out")" -ne 20 ]; then
		bad "$label: $(grep -c ' ok$' <<<"$out") of 20 queries right: $out"
	else
		ok "$label: 20 queries of ^@ and <@ (constants, generic plans) right, nothing planted ran"
	fi
}

# pruned <label> <schema>: after the update, the generic plan of <@ prunes at executor start.
pruned() {
	local label=$1 schema=$2 plan
	plan=$(psql_q -d "$db" <<SQL
SET search_path = $schema, public;
SET plan_cache_mode = force_generic_plan;
PREPARE qw(tstzrange) AS SELECT count(*) FROM p_ulid WHERE id <@ ulid_time_range(\$1);
EXPLAIN (COSTS OFF) EXECUTE qw('[2026-01-06 00:00+00,2026-01-06 12:00+00)');
SQL
	)
	if grep -q 'Subplans Removed: 1' <<<"$plan"; then
		ok "$label: after the update the same generic plan prunes at executor start"
	else
		bad "$label: no run-time pruning after the update: $plan"
	fi
}

for layout in "public create" "idt create" "idt move"; do
	read -r schema how <<<"$layout"
	setup "$schema" "$how"
	check "1.0 catalog, extension in $schema ($how)" "$schema"
	# 1.1 creates functions of the planted names and signatures: the update would fail with them
	# there (PostgreSQL's own protection of an extension's objects), so they go first.
	{
		echo "SET search_path = $schema;"
		for t in $types; do
			echo "DROP FUNCTION ${t}range_lo(${t}range), ${t}range_hi(${t}range);"
		done
		echo "DROP FUNCTION euid_starts_with_recheck(euid, text);"
	} | psql_q -d "$db" -U "$role"
	psql_q -d "$db" -c "ALTER EXTENSION idtypes UPDATE"
	check "1.1 catalog, extension in $schema ($how)" "$schema"
	pruned "1.1 catalog, extension in $schema ($how)" "$schema"
done
finish 9
