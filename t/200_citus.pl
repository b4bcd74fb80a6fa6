
# t/200_citus.pl: the five types as Citus distribution columns (PostgreSQL 16-18; Citus 14.0.1,
# which test/run_tests.sh builds from its vendored source with scripts/vendor-build.sh and installs
# into the server before the TAP tests, as root).
#
# A coordinator and two workers (citus preloaded, idtypes.node_id 1, 2 and 3). CREATE EXTENSION
# citus on every node, the workers added on the coordinator, then CREATE EXTENSION idtypes on the
# coordinator only: Citus creates it on the workers. Per type:
#   - a table `id <type> PRIMARY KEY DEFAULT generate_...()` distributed on id, 100,000 rows loaded
#     by INSERT ... SELECT, COPY text and COPY binary: exact total, no shard above twice its fair
#     share;
#   - WHERE id = const is a router query (Task Count: 1) and finds its row;
#   - ^@ prefix and <@ time range queries return what the same query returns on a local table with
#     the same rows, and every shard query uses the btree index (EXPLAIN ANALYZE, all tasks);
#   - a join with a co-located table and one with a reference table keyed by the ID: right rows;
#   - every result the same with citus.enable_binary_protocol on and off.
# The checks are SQL (200_citus.sql): each prints "ok: <what>" or "FAILED: <what>" as a notice.
#
# Skips on servers Citus 14 does not support, and where Citus is not installed (a clone has no
# vendored source: IDTYPES_VENDOR_DIR names it; building needs root), saying which; in CI
# (CI=true), which builds it as root from the source beside the checkout, that fails instead.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 100000;
my $shards = 8;

my $major = server_major();
plan skip_all => "Citus 14 supports PostgreSQL 16-18; this server is $major" if $major < 16 || $major > 18;
if (!-f pg_dir('pkglibdir') . '/citus.so')
{
	my $vendor = $ENV{IDTYPES_VENDOR_DIR};
	my $why = $vendor && -f "$vendor/citus-14.0.1.tar.gz"
	  ? 'Citus is not installed: scripts/vendor-build.sh citus <pg_config> installs it from '
	  . 'IDTYPES_VENDOR_DIR, as root (make test as root does)'
	  : 'Citus is not installed, and no vendored source to build it from (IDTYPES_VENDOR_DIR)';
	plan skip_all => $why unless ($ENV{CI} // '') eq 'true';
	fail("CI requires Citus here: $why");
	done_testing();
	exit;
}

my @nodes;
for my $n (1 .. 3)
{
	my $node = idtypes_node("citus$n");
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'citus'\nmax_prepared_transactions = 100\nidtypes.node_id = $n\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE idt_citus');
	$node->safe_psql('idt_citus', 'CREATE EXTENSION citus');
	push @nodes, $node;
}
my ($coordinator, @workers) = @nodes;
$coordinator->safe_psql('idt_citus', sprintf("SELECT citus_set_coordinator_host('%s', %d)",
		$coordinator->host, $coordinator->port));
$coordinator->safe_psql('idt_citus', sprintf("SELECT citus_add_node('%s', %d)", $_->host, $_->port))
  for @workers;
note 'Citus ' . $coordinator->safe_psql('idt_citus', "SELECT extversion FROM pg_extension WHERE extname = 'citus'");

$coordinator->safe_psql('idt_citus', 'CREATE EXTENSION idtypes');
for my $n (0, 1)
{
	my $got = $workers[$n]->safe_psql('idt_citus', "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'");
	ok($got ne '', 'CREATE EXTENSION idtypes on the coordinator created idtypes ' . $got . ' on worker ' . ($n + 2));
}

# The SQL of 200_citus.sql: its helpers, then its checks of one type ({{t}} and the rest filled in).
my ($helpers, $checks) = split /^-- ---- per type\n/m, slurp_file("$FindBin::RealBin/200_citus.sql");
$coordinator->safe_psql('idt_citus', $helpers);

my $copy = $coordinator->basedir . '/copy';
for my $type (
	[ 'uid11', 'generate_xid()', 'xid_timestamp' ],
	[ 'timeid', 'generate_tid()', 'timeid_timestamp' ],
	[ 'ulidflake', 'generate_ulidflake()' ],
	[ 'ulid', 'generate_ulid_monotonic()' ],
	[ 'euid', 'generate_euid()' ])
{
	my ($t, $gen, $ts) = @$type;
	my %v = (t => $t, gen => $gen, ts => $ts // "${t}_timestamp", tr => "${t}_time_range", d => "d_$t",
		l => "l_$t", rows => $rows, shards => $shards, probe_n => $rows / 2,
		lo => int($rows * 495 / 1000), hi => int($rows * 505 / 1000));
	my $third = int($rows / 3);
	# Three loads: defaults under INSERT ... SELECT, then IDs made on the coordinator through COPY
	# in text and in binary format.
	$coordinator->safe_psql('idt_citus', qq{
		SET citus.shard_count = $shards;
		CREATE TABLE d_$t (id $t PRIMARY KEY DEFAULT $gen, n int NOT NULL);
		SELECT create_distributed_table('d_$t', 'id');
		INSERT INTO d_$t (n) SELECT g FROM generate_series(1, @{[ $rows - 2 * $third ]}) g;});
	$coordinator->safe_psql('idt_citus', qq{
		\\copy (SELECT $gen, g FROM generate_series(@{[ $rows - 2 * $third + 1 ]}, @{[ $rows - $third ]}) g) TO '$copy.txt'
		\\copy d_$t FROM '$copy.txt'
		\\copy (SELECT $gen, g FROM generate_series(@{[ $rows - $third + 1 ]}, $rows) g) TO '$copy.bin' (FORMAT binary)
		\\copy d_$t FROM '$copy.bin' (FORMAT binary)
		VACUUM ANALYZE d_$t;});
	(my $sql = $checks) =~ s/\{\{(\w+)\}\}/exists $v{$1} ? $v{$1} : die "200_citus.sql: {{$1}}"/ge;
	my ($out, $err) = ('', '');
	$coordinator->psql('idt_citus', "SET client_min_messages = notice;\n$sql",
		stdout => \$out, stderr => \$err, on_error_stop => 1);
	my @verdicts = $err =~ /NOTICE:\s+((?:ok|FAILED): .*)$/mg;
	is(scalar @verdicts, 15, "$t: 15 checks ran") or diag $err;
	ok($_ =~ /^ok: (.*)/, $_ =~ s/^(?:ok|FAILED): //r) for @verdicts;
	diag $err if grep { /^FAILED/ } @verdicts;
}

$_->stop for reverse @nodes;
done_testing();
