
# t/090_standby.pl: the five types on a streaming hot standby. A primary with a table of all five
# (a ulid primary key, a btree index on each other ID column, a ulidrange column, generated
# defaults) and 20,000 rows over hours; a standby made from it by a base backup while it holds
# them; then inserts, updates (of ID columns, the key too), deletes, ANALYZE and VACUUM on the
# primary while the standby streams. Once the standby has replayed it all: its rows are the
# primary's; per type, `^@ prefix` and `<@ <type>_time_range(...)` plan an index scan there and
# return the primary's rows, which are the rows whose text starts with the prefix / whose time lies
# in the window; the monotonic generators refuse (25006), the random ones run, writes are refused.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 20000;

my $primary = idtypes_node('primary', streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE DATABASE phys');
$primary->safe_psql(
	'phys', qq{
	CREATE EXTENSION idtypes;
	@{[ ids_table('ids') ]}
	INSERT INTO ids (u, x, t, f, e, r, n)
	SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts),
	       generate_euid_at(ts),
	       CASE g % 3 WHEN 0 THEN NULL
	                  WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
	                  ELSE 'empty' END,
	       g
	FROM generate_series(1, $rows) g,
	     LATERAL (SELECT now() - g * interval '1 second' - random() * interval '900 ms' AS ts) s});

# The standby: a base backup of the running primary.
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
is($standby->safe_psql('phys', 'SELECT pg_is_in_recovery()'),
	't', 'the standby is in recovery (hot standby)');

# Changes while it streams; the statistics and the visibility map reach it too.
$primary->safe_psql(
	'phys', qq{
	INSERT INTO ids (n, r) SELECT g, ulid_prefix_range(left(generate_ulid()::text, 5))
	FROM generate_series($rows + 1, $rows + 2000) g;
	UPDATE ids SET x = generate_xid_at(xid_timestamp(x)), e = generate_euid_at(euid_timestamp(e))
	WHERE n % 7 = 0;
	UPDATE ids SET u = generate_ulid_at(ulid_timestamp(u)) WHERE n % 11 = 0;
	UPDATE ids SET t = generate_tid_at(timeid_timestamp(t), 7),
	               f = generate_ulidflake_at(ulidflake_timestamp(f), 3) WHERE n % 13 = 0;
	DELETE FROM ids WHERE n % 17 = 0;
	ANALYZE ids;
	VACUUM ids;});
$primary->wait_for_catchup($standby);

# digest(query): the md5 of the query's rows in text order, and their count.
sub digest
{
	my ($query) = @_;
	return "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY q::text), '')) || ':' || count(*)
	        FROM ($query) q";
}

my $want = $primary->safe_psql('phys', digest('SELECT * FROM ids'));
is($standby->safe_psql('phys', digest('SELECT * FROM ids')),
	$want, "the standby has the primary's rows");

for my $c ([ 'x', 'uid11', 'ids_x', 'xid' ], [ 't', 'timeid', 'ids_t', 'timeid' ],
	[ 'f', 'ulidflake', 'ids_f', 'ulidflake' ], [ 'u', 'ulid', 'ids_pkey', 'ulid' ],
	[ 'e', 'euid', 'ids_e', 'euid' ])
{
	my ($col, $type, $index, $ts) = @$c;
	$ts .= '_timestamp';
	# A value from the middle of the data, a prefix of it shared by 1% of the rows at most, and a
	# 200-second window around its time.
	my $val = $primary->safe_psql('phys',
		"SELECT $col FROM ids ORDER BY $col OFFSET @{[ $rows / 2 ]} LIMIT 1");
	my $prefix = $primary->safe_psql(
		'phys', "SELECT p FROM generate_series(1, 12) len, LATERAL (SELECT left('$val', len) AS p) s
		 WHERE (SELECT count(*) FROM ids WHERE left(${col}::text, len) = p) <= @{[ $rows / 100 ]}
		 ORDER BY len LIMIT 1");
	my $mid = $primary->safe_psql('phys',
		"SELECT floor(extract(epoch FROM $ts('$val'::$type)))::bigint");
	my ($lo, $hi) = ($mid - 100, $mid + 100);
	my $window = "tstzrange(to_timestamp($lo), to_timestamp($hi))";
	for my $q (
		[
			"$col ^@ '$prefix'",
			"SELECT * FROM ids WHERE $col ^@ '$prefix'",
			"SELECT * FROM ids WHERE left(${col}::text, @{[ length $prefix ]}) = '$prefix'"
		],
		[
			"$col <@ ${type}_time_range(200 s)",
			"SELECT * FROM ids WHERE $col <@ ${type}_time_range($window)",
			"SELECT * FROM ids WHERE $ts($col) >= to_timestamp($lo) AND $ts($col) < to_timestamp($hi)"
		])
	{
		my ($what, $query, $reference) = @$q;
		my $plan = $standby->safe_psql('phys', "EXPLAIN (COSTS OFF) $query");
		ok( $plan =~ /(Index Scan|Index Only Scan) using $index |Bitmap Index Scan on $index$/m
			  && $plan !~ /Seq Scan/,
			"$type: $what: the standby plans a scan of $index")
		  or diag $plan;
		my $p = $primary->safe_psql('phys', digest($query));
		is($standby->safe_psql('phys', digest($query)),
			$p, "$type: $what: the standby's rows are the primary's");
		is($primary->safe_psql('phys', digest($reference)),
			$p, "$type: $what: the rows are the reference query's");
		unlike($p, qr/:0$/, "$type: $what: some rows");
	}
}

is( $standby->safe_psql(
		'phys',
		'SELECT generate_ulid() IS NOT NULL AND generate_xid_at(now()) IS NOT NULL
		   AND generate_tid_at(now()) IS NOT NULL AND generate_ulidflake_at(now()) IS NOT NULL
		   AND generate_ulid_at(now()) IS NOT NULL AND generate_euid_at(now()) IS NOT NULL'),
	't',
	'the random generators run on the standby');
for my $g (qw(generate_xid generate_tid generate_ulidflake generate_ulid_monotonic generate_euid))
{
	my ($ret, $out, $err) = $standby->psql('phys', "\\set VERBOSITY verbose\nSELECT $g()");
	like(
		$err,
		qr/25006: cannot generate a monotonic \w+ during recovery/,
		"the standby refuses $g() (25006)");
}
my ($ret, $out, $err) = $standby->psql('phys', 'INSERT INTO ids (n) VALUES (-1)');
like($err, qr/read-only transaction/, 'the standby refuses writes');

done_testing();
