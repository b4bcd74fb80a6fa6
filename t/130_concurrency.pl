# t/130_concurrency.pl: 8 pgbench clients insert generated IDs of every kind into unique indexes,
# without and with idtypes preloaded: no error, no duplicate, each session's IDs in order, and
# strict order across sessions wherever the state is cluster-wide: preloaded, and on 17+ without
# preload too (the DSM registry). 48,000 rows per kind: with the shared state's spinlock taken
# out, that many gave duplicates of every kind, IDs out of session order and a pgbench client
# aborted on a duplicate key (preloaded, on 15).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my ($clients, $batch, $rows) = (8, 100, 48000);
my $tx = $rows / $clients / $batch;
my %kinds = (
	xid => [ uid11 => 'generate_xid()' ],
	tid => [ timeid => 'generate_tid()' ],
	ulidflake => [ ulidflake => 'generate_ulidflake()' ],
	ulidflake_sid => [ ulidflake => 'generate_ulidflake(5)' ],
	ulid => [ ulid => 'generate_ulid()' ],
	ulid_mono => [ ulid => 'generate_ulid_monotonic()' ],
	euid => [ euid => 'generate_euid()' ],
	euid_ext => [ euid => 'generate_euid(77)' ],);
my @kinds = sort keys %kinds;
# The kinds whose IDs a cluster-wide state orders across sessions.
my @ordered = qw(xid tid ulidflake ulid_mono euid);

sub run
{
	my ($label, $preload) = @_;
	my $node = idtypes_node("conc_$preload", preload => $preload);
	$node->append_conf('postgresql.conf', "max_connections = 20\n");
	$node->start;
	my $scope = $preload || $node->pg_version->major >= 17 ? 'cluster' : 'backend';
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes; CREATE SEQUENCE gseq;'
		  . join('', map { "CREATE TABLE t_$_ (id $kinds{$_}[0] PRIMARY KEY, client int NOT NULL, ord bigserial);" } @kinds)
		  . join('', map { "CREATE TABLE o_$_ (id $kinds{$_}[0] PRIMARY KEY, g bigint NOT NULL);" } @ordered));
	is($node->safe_psql('postgres', 'SELECT idtypes_generator_scope()'), $scope, "$label: generator scope $scope");

	my $insert = join "\n",
	  map { "INSERT INTO t_$_ (id, client) SELECT $kinds{$_}[1], :client_id FROM generate_series(1, $batch);" } @kinds;
	$node->pgbench("-n -c $clients -j 2 -t $tx", 0, [qr/actually processed: ${\($clients * $tx)}\b/], [qr/^$/],
		"$label: pgbench inserts without an error", { 'insert.sql' => "BEGIN;\n$insert\nCOMMIT;\n" }, 'postgres');
	for my $k (@kinds)
	{
		is($node->safe_psql('postgres', "SELECT count(*) || ' ' || count(DISTINCT id) FROM t_$k"),
			"$rows $rows", "$label $k: $rows rows, all distinct");
		next if $k eq 'ulid';    # generate_ulid() follows the spec: not monotonic
		is( $node->safe_psql('postgres',
				"SELECT coalesce(bool_and(id > p), true) FROM
				   (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY ord) p FROM t_$k) s WHERE p IS NOT NULL"),
			't', "$label $k: increasing in insertion order within each session");
	}
	if ($scope eq 'cluster')
	{
		# Under one advisory lock, generation order is the order of a shared sequence.
		my $order = join "\n",
		  map { "INSERT INTO o_$_ (id, g) SELECT $kinds{$_}[1], nextval('gseq') FROM generate_series(1, 10);" } @ordered;
		$node->pgbench("-n -c $clients -j 2 -t 200", 0, [qr/actually processed/], [qr/^$/],
			"$label: pgbench in generation order without an error",
			{ 'order.sql' => "BEGIN;\nSELECT pg_advisory_xact_lock(4242);\n$order\nCOMMIT;\n" }, 'postgres');
		my $n = $clients * 200 * 10;
		for my $k (@ordered)
		{
			is( $node->safe_psql('postgres',
					"SELECT count(*) = $n AND bool_and(coalesce(id > p, true)) FROM
					   (SELECT id, lag(id) OVER (ORDER BY g) p FROM o_$k) s"),
				't', "$label $k: strictly increasing across sessions in generation order");
		}
	}
	$node->stop;
	return;
}

run('no preload', 0);
run('preload', 1);
done_testing();
