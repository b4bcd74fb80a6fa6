# t/190_sql_edition_hostile.pl: the SQL edition's plain script in a database where other roles are
# not to be trusted, and in a locale that folds case its own way:
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
#     the clock id alone was set), and generate_timeid(5), which could repeat a TID by going on
#     from the clock, raises 55000;
#   - another role's schema: where another role created idtypes_sql first, the script stops
#     before creating anything, with SQLSTATE 42501 and a message naming the schema's owner;
#   - locale: in a database of ICU locale tr-TR (where upper('i') is 'İ'), the prefixes of 200
#     EUIDs written with the aliases i and l for 1 and o for 0 find their own EUID, as in C.
# The script is sql_edition/idtypes_sql.sql of the checkout (IDTYPES_SOURCE_DIR).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $script = source_dir() . '/sql_edition/idtypes_sql.sql';
plan skip_all => "no SQL edition script at $script" unless -f $script;
my $node = idtypes_node('hostile');
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE ROLE planter LOGIN; CREATE ROLE victim LOGIN;
	CREATE DATABASE hostile OWNER owner');
$node->safe_psql('hostile', 'GRANT CREATE ON SCHEMA public TO PUBLIC');
# as(role, sql, [db]): the SQL as that role.
sub as { return $node->safe_psql($_[2] // 'hostile', $_[1], extra_params => [ '-U', $_[0] ]); }

# ---- hijack: each planted object counts its calls in public.hits and answers as core would.
as('planter', q{
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
	CREATE OPERATOR public.% (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.hit_mod);});
# The planted objects work: a call that resolves to them counts.
like(as('victim', 'SELECT pg_sleep(0.0001), 7::bigint & 3; SELECT last_value FROM public.hits WHERE is_called'),
	qr/\n[1-9]\d*$/, 'the planted pg_sleep(numeric) and bigint & integer run for a plain call');
$node->safe_psql('hostile', 'ALTER SEQUENCE public.hits RESTART');
as('owner', "\\i $script\nGRANT USAGE ON SCHEMA idtypes_sql TO victim;");
is( as('victim', q{
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
		FROM ids;}),
	'0|3000',
	'3,000 IDs of every generator, read back and tested by prefix and time window, as another role with search_path public, pg_catalog');
is(as('victim', 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.hits'),
	'0', 'none of the planted pg_sleep(numeric), &, | and % (bigint, integer) ran');

# ---- session state set by hand: settings far ahead of the clock (what one client of a pooled
# connection can leave for the next). statement_timeout catches a wait.
my ($ret, $out, $err) = $node->psql('hostile', q{
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
	SELECT idtypes_sql.generate_timeid(5);}, extra_params => [ '-U', 'victim' ]);
ok($out eq "0|1|t\nclock id true" && $err =~ /ERROR:  the session's last timeid is \d+ ms ahead of the clock/,
	'far-future settings: 1,000 IDs of each generator at the clock\'s time, a new clock id for '
	  . 'generate_timeid() (and where the clock id was set by hand), 55000 for generate_timeid(5)')
  or diag "$out\n$err";

# ---- another role's schema
$node->safe_psql('hostile', 'DROP SCHEMA idtypes_sql CASCADE; CREATE SCHEMA idtypes_sql AUTHORIZATION planter');
($ret, $out, $err) = $node->psql('hostile', "\\set VERBOSITY verbose\n\\i $script", extra_params => [ '-U', 'owner' ]);
ok( $err =~ /42501/
	  && $err =~ /schema "idtypes_sql" belongs to role "planter"/
	  && $err =~ /ALTER SCHEMA idtypes_sql OWNER TO owner/
	  && $node->safe_psql('hostile', "SELECT count(*) FROM pg_proc WHERE pronamespace = 'idtypes_sql'::regnamespace") eq '0',
	'a schema idtypes_sql of another role: 42501 naming its owner and the way out, nothing created')
  or diag $err;

# ---- locale: ICU tr-TR
SKIP:
{
	skip 'this server has no ICU', 1
	  unless $node->safe_psql('postgres', "SELECT count(*) > 0 FROM pg_collation WHERE collprovider = 'i'") eq 't';
	$node->safe_psql('postgres', q{CREATE DATABASE tr OWNER owner TEMPLATE template0 ENCODING 'UTF8'
		LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'tr-TR'});
	my ($upper, $found, $prefixes) = split /\|/, (split /\n/, as('owner', "\\i $script\n" . q{
		SELECT upper('i') = 'I' AS upper_i_is_ascii,
			count(*) FILTER (WHERE idtypes_sql.euid_starts_with(e, p)) AS found,
			count(*) AS prefixes
		FROM (SELECT e, translate(lower(left(idtypes_sql.euid_to_text(e), 25 + n % 3)), '10', 'io') AS p
		      FROM (SELECT n, idtypes_sql.generate_euid() AS e FROM generate_series(1, 200) n) g) s
		WHERE p ~ '[io]';}, 'tr'))[-1];
	ok($upper eq 'f' && $found == $prefixes && $prefixes >= 100,
		"tr-TR (upper('i') is not 'I'): every one of $prefixes EUID prefixes written with i and o finds its EUID ($found)");
}

$node->stop;
done_testing();
