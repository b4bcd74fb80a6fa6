# t/110_fdw.pl: the five types through postgres_fdw between two servers.
#
# A "remote" server holds a table with a column of each type (a btree index on each, the ulid the
# primary key) and a ulidrange column: rows spread over hours, and rows from the column defaults.
# A "local" server reaches it through a foreign server with OPTIONS (extensions 'idtypes'), and
# keeps a plain copy of the same rows. Per type:
#   - `=`, `<` and `<@ <type>_time_range(...)` on the ID column are shipped (EXPLAIN VERBOSE shows
#     them in "Remote SQL" and no local Filter), and give the rows the local copy gives;
#   - `^@ 'prefix'` is not shipped but evaluated locally, as the README says (postgres_fdw ships
#     an operator whose input collation comes only from a foreign Var, and the prefix is a text
#     constant with the default collation), and gives the right rows;
#   - `<@ <type>_prefix_range('prefix')`, the documented workaround, is shipped and gives the
#     rows of `^@`;
#   - ORDER BY id LIMIT and min()/max() are shipped too;
#   - without the extensions option nothing of idtypes is shipped, with the same rows.
# In a generic plan `u <@ ulid_prefix_range($1)` (a text parameter) is evaluated locally and
# `u <@ $1` (a ulidrange parameter) is shipped; a window computed from a stable expression is
# evaluated locally. INSERT, UPDATE and DELETE through the foreign table reach the remote table.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 20000;

my $remote = idtypes_node('remote');
$remote->start;
$remote->safe_psql('postgres', 'CREATE DATABASE remote');
$remote->safe_psql('remote', qq{
	CREATE EXTENSION idtypes;
	@{[ ids_table('ids') ]}
	-- IDs of times spread over $rows seconds back from now, then some from the column defaults.
	INSERT INTO ids (u, x, t, f, e, r, n)
	SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts),
	       generate_euid_at(ts),
	       CASE g % 4 WHEN 0 THEN NULL
	                  WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
	                  WHEN 2 THEN 'empty'
	                  ELSE ulid_prefix_range(left(generate_ulid_at(ts)::text, 4)) END,
	       g
	FROM generate_series(1, $rows) g,
	     LATERAL (SELECT now() - g * interval '1 second' - random() * interval '900 ms' AS ts) s;
	INSERT INTO ids (n) SELECT g FROM generate_series($rows + 1, $rows + 500) g;
	ANALYZE ids;});

# The local side: the foreign tables (with and without the extensions option) and a plain copy.
my $local = idtypes_node('local');
$local->start;
$local->safe_psql('postgres', 'CREATE DATABASE local');
my ($host, $port) = ($remote->host, $remote->port);
$local->safe_psql('local', qq{
	CREATE EXTENSION idtypes;
	CREATE EXTENSION postgres_fdw;
	CREATE SERVER remote_idt FOREIGN DATA WRAPPER postgres_fdw
		OPTIONS (host '$host', port '$port', dbname 'remote', extensions 'idtypes');
	CREATE USER MAPPING FOR CURRENT_USER SERVER remote_idt;
	CREATE SERVER remote_plain FOREIGN DATA WRAPPER postgres_fdw
		OPTIONS (host '$host', port '$port', dbname 'remote');
	CREATE USER MAPPING FOR CURRENT_USER SERVER remote_plain;
	CREATE FOREIGN TABLE f_ids (u ulid, x uid11, t timeid, f ulidflake, e euid, r ulidrange, n int)
		SERVER remote_idt OPTIONS (table_name 'ids');
	CREATE FOREIGN TABLE p_ids (u ulid, x uid11, t timeid, f ulidflake, e euid, r ulidrange, n int)
		SERVER remote_plain OPTIONS (table_name 'ids');
	@{[ ids_table('l_ids') ]}
	INSERT INTO l_ids SELECT * FROM p_ids;
	ANALYZE l_ids;});

sub L { return $local->safe_psql('local', $_[0]); }

# digest(query): md5 and count of the query's rows, in a fixed order.
sub digest
{
	return L("SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*)
		FROM ($_[0]) q");
}
sub plan_of { return L("EXPLAIN (VERBOSE, COSTS OFF) $_[0]"); }
sub remote_sql { return join ' ', plan_of($_[0]) =~ /^\s*Remote SQL: (.*)$/mg; }
sub local_filter { return join ' ', plan_of($_[0]) =~ /^\s*(Filter: .*)$/mg; }

# same_rows(what, query with %T for the table): the foreign table gives the local copy's rows,
# and at least one.
sub same_rows
{
	my ($what, $q) = @_;
	(my $fq = $q) =~ s/%T/f_ids/g;
	(my $lq = $q) =~ s/%T/l_ids/g;
	my $want = digest($lq);
	is(digest($fq), $want, "$what: the rows of the local copy");
	unlike($want, qr/:0$/, "$what: some rows");
	return;
}

# shipped(what, query, text of Remote SQL): the condition is in Remote SQL, no local Filter.
sub shipped
{
	my ($what, $q, $text) = @_;
	my $rs = remote_sql($q);
	ok(index($rs, $text) >= 0 && local_filter($q) eq '', "$what is shipped")
	  or diag "Remote SQL: $rs; local: " . local_filter($q);
	return;
}

for my $ct ([qw(x uid11 xid)], [qw(t timeid timeid)], [qw(f ulidflake ulidflake)], [qw(u ulid ulid)],
	[qw(e euid euid)])
{
	my ($c, $ty, $fn) = @$ct;
	# A value from the data (the median row), a prefix of it that 1% of the rows share at most,
	# and a 200 s window around it, with literal bounds: an expression with now() or
	# timestamptz - interval is only stable, not folded at plan time, so not shipped (below).
	my $half = $rows / 2;
	my $val = L("SELECT $c FROM l_ids ORDER BY $c OFFSET $half LIMIT 1");
	my $ts = L("SELECT ${fn}_timestamp('$val'::$ty)");
	my $prefix = L("SELECT p FROM generate_series(1, 12) len, LATERAL (SELECT left('$val', len) AS p) s
		WHERE (SELECT count(*) FROM l_ids WHERE left(${c}::text, len) = p) <= $rows / 100 ORDER BY len LIMIT 1");
	my $window = L("SELECT quote_literal(tstzrange('$ts'::timestamptz - interval '100 s',
		'$ts'::timestamptz + interval '100 s'))") . '::tstzrange';

	my $q = "SELECT * FROM %T WHERE $c = '$val'";
	(my $fq = $q) =~ s/%T/f_ids/g;
	shipped("$ty: $c = const", $fq, "$c OPERATOR(public.=) '$val'");
	same_rows("$ty: $c = const", $q);

	$q = "SELECT * FROM %T WHERE $c < '$val'";
	($fq = $q) =~ s/%T/f_ids/g;
	shipped("$ty: $c < const", $fq, "$c OPERATOR(public.<) '$val'");
	same_rows("$ty: $c < const", $q);

	$q = "SELECT * FROM %T WHERE $c <@ ${ty}_time_range($window)";
	($fq = $q) =~ s/%T/f_ids/g;
	shipped("$ty: $c <@ ${ty}_time_range(...)", $fq, "($c OPERATOR(public.<@) '");
	same_rows("$ty: $c <@ ${ty}_time_range(...)", $q);

	# ^@ is evaluated locally (the README says so), with the right rows: those whose text starts
	# with the prefix.
	$q = "SELECT * FROM f_ids WHERE $c ^@ '$prefix'";
	ok(index(remote_sql($q), '^@') < 0 && index(local_filter($q), '^@') >= 0,
		"$ty: $c ^@ '$prefix' is evaluated locally");
	my $want = digest("SELECT * FROM l_ids WHERE left(${c}::text, " . length($prefix) . ") = '$prefix'");
	is(digest($q), $want, "$ty: ^@ over the foreign table = left(text) on the local copy");
	unlike($want, qr/:0$/, "$ty: ^@ '$prefix': some rows");

	# The workaround: <@ <type>_prefix_range('p') is folded to a range constant and shipped.
	$q = "SELECT * FROM f_ids WHERE $c <@ ${ty}_prefix_range('$prefix')";
	shipped("$ty: $c <@ ${ty}_prefix_range('$prefix')", $q, "($c OPERATOR(public.<@) '");
	is(digest($q), $want, "$ty: <@ ${ty}_prefix_range('$prefix') gives the rows of ^@");

	$q = "SELECT $c FROM %T ORDER BY $c DESC LIMIT 5";
	($fq = $q) =~ s/%T/f_ids/g;
	shipped("$ty: ORDER BY $c LIMIT", $fq, "ORDER BY $c");
	same_rows("$ty: ORDER BY $c DESC LIMIT 5", $q);
	$q = "SELECT min($c), max($c) FROM %T";
	($fq = $q) =~ s/%T/f_ids/g;
	shipped("$ty: min($c), max($c)", $fq, "min($c)");
	same_rows("$ty: min($c), max($c)", $q);

	# Without the extensions option postgres_fdw keeps every idtypes operator local.
	$q = "SELECT * FROM p_ids WHERE $c = '$val'";
	ok(index(local_filter($q), "$c = '$val'::$ty)") >= 0,
		"$ty: without extensions 'idtypes', = is evaluated locally");
	is(digest($q), digest("SELECT * FROM l_ids WHERE $c = '$val'"), "$ty: and gives the same row");
}

# A generic plan: <@ ulid_prefix_range($1) cannot be folded to a constant: evaluated locally (the
# text parameter has a collation); a range parameter has none, and is shipped.
my $third = int($rows / 3);
my $p = L("SELECT left(u::text, 7) FROM l_ids ORDER BY u OFFSET $third LIMIT 1");
my $generic = 'SET plan_cache_mode = force_generic_plan;';
my $d = q{SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*)};
my $gp = L("$generic PREPARE q(text) AS SELECT * FROM f_ids WHERE u <@ ulid_prefix_range(\$1);
	EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q('$p')");
ok($gp =~ /^\s*Filter: .*ulid_prefix_range/m && $gp !~ /^\s*Remote SQL: .*ulid_prefix_range/m,
	'generic plan: u <@ ulid_prefix_range($1) is evaluated locally')
  or diag $gp;
my $want = digest("SELECT * FROM l_ids WHERE left(u::text, 7) = '$p'");
is( L("$generic PREPARE q(text) AS $d FROM (SELECT * FROM f_ids WHERE u <@ ulid_prefix_range(\$1)) q;
	EXECUTE q('$p')"),
	$want, 'generic plan: u <@ ulid_prefix_range($1) gives the rows of left(text)');
$gp = L("$generic PREPARE q(ulidrange) AS SELECT * FROM f_ids WHERE u <@ \$1;
	EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q(ulid_prefix_range('$p'))");
ok($gp =~ /^\s*Remote SQL: .*OPERATOR\(public\.<@\) \$1/m && $gp !~ /^\s*Filter: /m,
	'generic plan: u <@ $1 (a ulidrange parameter) is shipped')
  or diag $gp;
is( L("$generic PREPARE q(ulidrange) AS $d FROM (SELECT * FROM f_ids WHERE u <@ \$1) q;
	EXECUTE q(ulid_prefix_range('$p'))"),
	$want, 'generic plan: u <@ $1 gives the same rows');

# A window computed at run time is stable, not folded, so not shipped: the scan fetches every row.
# Its end is read once (text -> timestamptz is stable, as now() is), so that both sides see the
# same window.
my $end = "'" . L('SELECT now()::text') . "'::text::timestamptz";
my $q = "SELECT * FROM %T WHERE u <@ ulid_time_range(tstzrange($end - interval '1 hour', $end))";
(my $fq = $q) =~ s/%T/f_ids/g;
ok(index(local_filter($fq), 'ulid_time_range') >= 0 && index(remote_sql($fq), '<@') < 0,
	'u <@ ulid_time_range(<stable window of 1 hour>) is evaluated locally');
same_rows('u <@ ulid_time_range(<stable window of 1 hour>)', $q);

# Writes through the foreign table: IDs made locally, sent as text, read back from the remote.
L(q{
	CREATE TABLE l_new AS
	SELECT generate_ulid() AS u, generate_xid() AS x, generate_tid() AS t, generate_ulidflake() AS f,
	       generate_euid() AS e, ulid_time_range(tstzrange(now(), now() + interval '1 s')) AS r,
	       -g AS n
	FROM generate_series(1, 300) g;
	INSERT INTO f_ids SELECT * FROM l_new;
	UPDATE f_ids SET x = generate_xid_at('2020-01-01'), e = generate_euid()
	WHERE n IN (SELECT n FROM l_new WHERE n % 3 = 0);
	DELETE FROM f_ids WHERE u IN (SELECT u FROM l_new WHERE n % 5 = 0);});
is( $remote->safe_psql('remote',
		"$d FROM (SELECT u, t, f, r, n, n % 3 = 0 AS upd FROM ids WHERE n < 0) q"),
	digest('SELECT u, t, f, r, n, n % 3 = 0 AS upd FROM l_new WHERE n % 5 <> 0'),
	'INSERT and DELETE through the foreign table: the remote rows as sent');
is( $remote->safe_psql('remote',
		"SELECT bool_and(xid_timestamp(x) >= '2020-01-01' AND xid_timestamp(x) < '2020-01-01 00:00:00.001'
		 AND e IS NOT NULL) FROM ids WHERE n < 0 AND n % 3 = 0"),
	't', 'UPDATE of ID columns through the foreign table reached the remote rows');

$local->stop;
$remote->stop;
done_testing();
