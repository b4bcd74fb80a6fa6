#!/usr/bin/env bash
# sql_edition_hostile.sh: the SQL edition's plain script in a database where other roles are not
# to be trusted, and in a locale that folds case its own way:
#   - hijack: a role with CREATE on public (as every role had before PostgreSQL 15, and still has
#     in clusters upgraded from then) plants, before the install, public.pg_sleep(numeric) and
#     the operators bigint & integer, bigint | integer and bigint % integer, each counting its
#     calls; the database owner installs the edition with the default search_path, and a third
#     role with search_path = public, pg_catalog makes 3,000 IDs of every generator (with
#     generate_euid()'s waits for the next millisecond), reads and writes text and tests
#     prefixes and time windows: none of the planted objects runs;
#   - session state set by hand: the settings of the last ULID, EUID and TID far in the future
#     (what one client of a pooled server connection can leave for the next): each generator
#     answers at once with IDs of the clock's time (generate_timeid() with a new clock id, as where
#     the clock id alone was set), and
#     generate_timeid(5), which could repeat a TID by going on from the clock, raises 55000;
#   - another role's schema: where another role created idtypes_sql first, the script stops
#     before creating anything, with SQLSTATE 42501 and a message naming the schema's owner;
#   - locale: in a database of ICU locale tr-TR (where upper('i') is 'İ'), the prefixes of 200
#     EUIDs written with the aliases i and l for 1 and o for 0 find their own EUID, as in C.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster. Exit status 0 = pass.
set -uo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/lib/report.sh"
script=${IDTYPES_SQL_EDITION_SCRIPT:-$here/sql_edition/idtypes_sql.sql}
tag=idt_hostile_$$
db=$tag
tr_db=${tag}_tr
owner=${tag}_owner
planter=${tag}_planter
victim=${tag}_user
super=${PGUSER:-$(id -un)}

Q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

cleanup() {
	for d in "$db" "$tr_db"; do
		Q -U "$super" -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1
	done
	for r in "$owner" "$planter" "$victim"; do
		Q -U "$super" -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1
	done
}
trap cleanup EXIT

Q -U "$super" -d postgres -c "CREATE ROLE $owner LOGIN" -c "CREATE ROLE $planter LOGIN" \
	-c "CREATE ROLE $victim LOGIN" -c "CREATE DATABASE $db OWNER $owner" >/dev/null || {
	bad "cannot create the roles and the database"
	finish 0
}
Q -U "$super" -d "$db" -c "GRANT CREATE ON SCHEMA public TO PUBLIC" >/dev/null

# ---- hijack ------------------------------------------------------------------------------------

# Each planted object counts its calls in public.hits and answers as core would.
Q -U "$planter" -d "$db" >/dev/null <<'SQL' || bad "the planter's objects could not be created"
CREATE SEQUENCE public.hits;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE public.hits TO PUBLIC;
CREATE FUNCTION public.pg_sleep(numeric) RETURNS void LANGUAGE sql
RETURN (SELECT nextval('public.hits') IS NULL);
CREATE FUNCTION public.hit_and(bigint, integer) RETURNS bigint LANGUAGE sql
RETURN (SELECT $1 & $2::bigint + 0 * nextval('public.hits'));
CREATE FUNCTION public.hit_or(bigint, integer) RETURNS bigint LANGUAGE sql
RETURN (SELECT $1 | $2::bigint + 0 * nextval('public.hits'));
CREATE FUNCTION public.hit_mod(bigint, integer) RETURNS bigint LANGUAGE sql
RETURN (SELECT $1 % $2::bigint + 0 * nextval('public.hits'));
CREATE OPERATOR public.& (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.hit_and);
CREATE OPERATOR public.| (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.hit_or);
CREATE OPERATOR public.% (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.hit_mod);
SQL
# The planted objects work: a call that resolves to them counts.
planted=$(Q -U "$victim" -d "$db" -c "SELECT pg_sleep(0.0001), 7::bigint & 3" \
	-c "SELECT last_value FROM public.hits WHERE is_called")
if [ "$(tail -n 1 <<<"$planted")" -ge 1 ] 2>/dev/null; then
	ok "the planted pg_sleep(numeric) and bigint & integer run for a plain call ($(tail -n 1 <<<"$planted") calls)"
else
	bad "the planted objects do not run where they should: $planted"
fi
Q -U "$super" -d "$db" -c "ALTER SEQUENCE public.hits RESTART" >/dev/null

if Q -U "$owner" -d "$db" -f "$script" >/dev/null 2>"$db.err"; then
	ok "the owner installs the edition beside the planted objects"
else
	bad "the install failed: $(head -n 3 "$db.err")"
fi
rm -f "$db.err"
Q -U "$owner" -d "$db" -c "GRANT USAGE ON SCHEMA idtypes_sql TO $victim" >/dev/null

out=$(Q -U "$victim" -d "$db" 2>&1 <<'SQL'
SET search_path = public, pg_catalog;
CREATE TEMP TABLE ids AS
SELECT n, idtypes_sql.generate_xid() AS x, idtypes_sql.generate_uid11() AS u,
	idtypes_sql.generate_tid() AS t, idtypes_sql.generate_tid(5) AS t5,
	idtypes_sql.generate_ulidflake() AS f, idtypes_sql.generate_ulidflake(7) AS f7,
	idtypes_sql.generate_ulid() AS l, idtypes_sql.generate_ulid_monotonic() AS m,
	idtypes_sql.generate_euid() AS e,
	CASE WHEN n % 2 = 0 THEN idtypes_sql.generate_euid(32767) ELSE idtypes_sql.generate_euid(0) END AS ex,
	idtypes_sql.generate_xid_at(now()) AS xa, idtypes_sql.generate_tid_at(now()) AS ta,
	idtypes_sql.generate_ulidflake_at(now(), 3) AS fa, idtypes_sql.generate_ulid_at(now()) AS la,
	idtypes_sql.generate_euid_at(now(), 9) AS ea
FROM generate_series(1, 3000) n;
SELECT count(*) FILTER (WHERE
	idtypes_sql.uid11_from_text(idtypes_sql.uid11_to_text(x)) <> x
	OR idtypes_sql.timeid_from_text(idtypes_sql.timeid_to_text(t)) <> t
	OR idtypes_sql.ulidflake_from_text(idtypes_sql.ulidflake_to_text(f)) <> f
	OR idtypes_sql.ulid_from_text(idtypes_sql.ulid_to_text(l)) <> l
	OR idtypes_sql.euid_from_text(idtypes_sql.euid_to_text(ex)) <> ex
	OR NOT idtypes_sql.uid11_starts_with(x, left(idtypes_sql.uid11_to_text(x), 5))
	OR NOT idtypes_sql.timeid_starts_with(t, left(idtypes_sql.timeid_to_text(t), 5))
	OR NOT idtypes_sql.ulidflake_starts_with(f, left(idtypes_sql.ulidflake_to_text(f), 5))
	OR NOT idtypes_sql.ulid_starts_with(l, left(idtypes_sql.ulid_to_text(l), 9))
	OR NOT idtypes_sql.euid_starts_with(ex, left(idtypes_sql.euid_to_text(ex), 9))
	OR idtypes_sql.timeid_clock_id(t5) <> 5 OR idtypes_sql.ulidflake_sid(f7) <> 7
	OR idtypes_sql.euid_extension(ea) <> 9
	OR NOT idtypes_sql.ulid_in_time_range(l, tstzrange(now() - interval '1 hour', now() + interval '1 hour'))
	OR NOT idtypes_sql.uid11_in_time_range(x, tstzrange(now() - interval '1 hour', now() + interval '1 hour'))
	) AS wrong,
	count(DISTINCT ex) AS ex_distinct
FROM ids;
SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.hits;
SQL
)
wrong=$(sed -n 1p <<<"$out" | cut -d'|' -f1)
distinct=$(sed -n 1p <<<"$out" | cut -d'|' -f2)
hits=$(sed -n 2p <<<"$out")
if [ "$wrong" = 0 ] && [ "$distinct" = 3000 ]; then
	ok "3,000 IDs of every generator, read back and tested by prefix and time window, as another role with search_path public, pg_catalog"
else
	bad "the victim's run: $out"
fi
if [ "$hits" = 0 ]; then
	ok "none of the planted pg_sleep(numeric), &, | and % (bigint, integer) ran"
else
	bad "the planted objects ran $hits times with the victim's rights"
fi

# ---- session state set by hand ------------------------------------------------------------------

# Settings far ahead of the clock (what one client of a pooled connection can leave for the next):
# the generators answer at once with IDs of the clock's time, or (a timeid of a given clock id,
# which going on from the clock could repeat) raise 55000. statement_timeout catches a wait.
out=$(Q -U "$victim" -d "$db" 2>&1 <<'SQL'
SET statement_timeout = '10s';
SET idtypes_sql.ulid_last = '99999999999999999';
SET idtypes_sql.ulid_monotonic_last = '7fffffffffff00000000000000000000';
SET idtypes_sql.euid_last = 'fffffffffff800000000000000000000';
SET idtypes_sql.tid_last = '9007199254740000';
SET idtypes_sql.tid_clock = '1000';
CREATE TEMP TABLE made AS
SELECT idtypes_sql.generate_ulid() AS l, idtypes_sql.generate_ulid_monotonic() AS m,
	idtypes_sql.generate_euid() AS e, idtypes_sql.generate_euid(7) AS e7,
	idtypes_sql.generate_timeid() AS t
FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE abs(extract(epoch FROM idtypes_sql.ulid_timestamp(l) - now())) > 60
		OR abs(extract(epoch FROM idtypes_sql.ulid_timestamp(m) - now())) > 60
		OR abs(extract(epoch FROM idtypes_sql.euid_timestamp(e) - now())) > 60
		OR abs(extract(epoch FROM idtypes_sql.euid_timestamp(e7) - now())) > 60
		OR abs(extract(epoch FROM idtypes_sql.timeid_timestamp(t) - now())) > 60) AS off_time,
	count(DISTINCT idtypes_sql.timeid_clock_id(t)) AS clock_ids,
	bool_and(idtypes_sql.timeid_clock_id(t) <> 1000) AS new_clock_id
FROM made;
SET idtypes_sql.tid_clock = '1000';
SELECT 'clock id ' || (idtypes_sql.timeid_clock_id(idtypes_sql.generate_timeid()) <> 1000);
SET idtypes_sql.tid_last = '9007199254740000';
SELECT idtypes_sql.generate_timeid(5);
SQL
)
if grep -qx "0|1|t" <<<"$out" && grep -qx "clock id true" <<<"$out" && grep -q "ERROR:  the session's last timeid is [0-9]* ms ahead of the clock" <<<"$out"; then
	ok "far-future settings: 1,000 IDs of each generator at the clock's time, a new clock id for generate_timeid() (and where the clock id was set by hand), 55000 for generate_timeid(5)"
else
	bad "far-future settings (off-time IDs | clock ids | new clock id; the error): $out"
fi

# ---- another role's schema -------------------------------------------------------------------

err=$(Q -U "$super" -d "$db" -c "DROP SCHEMA idtypes_sql CASCADE" \
	-c "CREATE SCHEMA idtypes_sql AUTHORIZATION $planter" 2>&1 >/dev/null) || bad "setup: $err"
err=$(Q -U "$owner" -d "$db" -v VERBOSITY=verbose -f "$script" 2>&1 >/dev/null)
created=$(Q -U "$super" -d "$db" -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 'idtypes_sql'::regnamespace")
if grep -q "42501" <<<"$err" && grep -q "schema \"idtypes_sql\" belongs to role \"$planter\"" <<<"$err" &&
	grep -q "ALTER SCHEMA idtypes_sql OWNER TO $owner" <<<"$err" && [ "$created" = 0 ]; then
	ok "a schema idtypes_sql of another role: 42501 naming its owner and the way out, nothing created"
else
	bad "a schema idtypes_sql of another role: $created functions created; the script said: $(head -n 4 <<<"$err")"
fi

# ---- locale: ICU tr-TR -----------------------------------------------------------------------

if [ "$(Q -U "$super" -d postgres -c "SELECT count(*) > 0 FROM pg_collation WHERE collprovider = 'i'")" != t ]; then
	echo "sql_edition_hostile: this server has no ICU: the tr-TR check cannot run"
	finish 7
fi
if ! err=$(Q -U "$super" -d postgres -c "CREATE DATABASE $tr_db OWNER $owner TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'tr-TR'" 2>&1); then
	bad "cannot create a database of ICU locale tr-TR: $err"
	finish 0
fi
Q -U "$owner" -d "$tr_db" -f "$script" >/dev/null || bad "the install into the tr-TR database failed"
out=$(Q -U "$owner" -d "$tr_db" <<'SQL'
SELECT upper('i') = 'I' AS upper_i_is_ascii,
	count(*) FILTER (WHERE idtypes_sql.euid_starts_with(e, p)) AS found,
	count(*) AS prefixes
FROM (SELECT e, translate(lower(left(idtypes_sql.euid_to_text(e), 25 + n % 3)), '10', 'io') AS p
      FROM (SELECT n, idtypes_sql.generate_euid() AS e FROM generate_series(1, 200) n) g) s
WHERE p ~ '[io]';
SQL
)
if [ "$out" = "f|$(cut -d'|' -f3 <<<"$out")|$(cut -d'|' -f3 <<<"$out")" ] && [ "$(cut -d'|' -f3 <<<"$out")" -ge 100 ]; then
	ok "tr-TR (upper('i') is not 'I'): every one of $(cut -d'|' -f3 <<<"$out") EUID prefixes written with i and o finds its EUID"
else
	bad "tr-TR: upper('i') = 'I', found, prefixes: $out"
fi
finish 7
