# t/120_node_id.pl: idtypes.node_id keeps generated IDs unique across nodes.
#
# Three servers with node ids 1, 2 and 3 run four sessions each at the same time, each server
# making 50,000 IDs of every kind (with all three given the same node id, 50,000 gave IDs equal
# across the servers for every kind with node bits, in both scopes). On each server every ID
# carries its node id in the documented bits (the top 5 bits of the xid's and ulidflake's counter
# fields, of the TID's clock id); gathered in one table per kind, no ID occurs twice. Before 17
# the state is cluster-wide only with idtypes preloaded, so that run preloads it; then the servers
# restart without preload (state per backend): xid and ulidflake carry node id and backend slot
# and stay unique across the servers, and generate_tid() refuses (0A000) rather than risk a
# collision, as generate_ulidflake(sid) does where the backend slot fills its counter field
# (16,400 connections, without a node id). An explicit clock id (generate_tid(7),
# generate_tid_at(ts, 7)) wins over the node id, and idtypes.tid_clock_id must lie in the node's
# range (any user can set it: it may not undo the partitioning). A fourth server changes its node
# id by ALTER SYSTEM and a reload, preloaded and not: the IDs keep the node id they started with
# until a restart. A session cannot SET the node id (55P02).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 50000;
my $sessions = 4;
my %kinds = (
	xid => [ uid11 => 'generate_xid()', 'xid_random(id) >> 17' ],
	tid => [ timeid => 'generate_tid()', 'timeid_clock_id(id) >> 5' ],
	ulidflake => [ ulidflake => 'generate_ulidflake()', '((id::bigint & 1048575) >> 15)::int' ],
	ulidflake_sid => [ ulidflake => 'generate_ulidflake(5)', '((id::bigint & 1048575) >> 15)::int' ],
	ulid => [ ulid => 'generate_ulid()' ],
	ulid_mono => [ ulid => 'generate_ulid_monotonic()' ],
	euid => [ euid => 'generate_euid()' ],
	euid_ext => [ euid => 'generate_euid(77)' ],);

my @nodes = map { idtypes_node("n$_") } 1 .. 3;
my $major = $nodes[0]->pg_version->major;
my $files = PostgreSQL::Test::Utils::tempdir();
# The library is loaded through one of its functions, found where CREATE EXTENSION found it
# (LOAD 'idtypes' looks only in the server's own directory, which a staged run does not use).
my $load = 'DO $$ BEGIN PERFORM idtypes_version(); END $$;';

# restart(node, preload, more settings): the node (re)started with or without idtypes preloaded.
sub restart
{
	my ($node, $preload, $conf) = @_;
	$node->stop if defined $node->{_pid};
	IdtypesNode::configure($node, preload => $preload);
	$node->append_conf('postgresql.conf', "shared_preload_libraries = ''\n") unless $preload;
	$node->append_conf('postgresql.conf', $conf) if $conf;
	$node->start;
	return;
}

# run(label, preload, kinds...): the three nodes generate at once, then each node's IDs and all of
# them together are checked.
sub run
{
	my ($label, $preload, @run_kinds) = @_;
	my $per = $rows / $sessions;
	for my $i (0 .. 2)
	{
		my $node = $nodes[$i];
		restart($node, $preload, 'idtypes.node_id = ' . ($i + 1) . "\n");
		$node->safe_psql('postgres', "DROP DATABASE IF EXISTS idt_node; CREATE DATABASE idt_node;");
		$node->safe_psql('idt_node',
			'CREATE EXTENSION idtypes;'
			  . join('', map { "CREATE TABLE t_$_ (id $kinds{$_}[0] NOT NULL);" } @run_kinds));
	}
	my $sql = join '',
	  map { "INSERT INTO t_$_ SELECT $kinds{$_}[1] FROM generate_series(1, $per);\n" } @run_kinds;
	my @psqls = map {
		my $node = $_;
		map { $node->background_psql('idt_node') } 1 .. $sessions
	} @nodes;
	$_->query_until(qr/started/, "\\echo started\n$sql") for @psqls;
	$_->quit for @psqls;

	my $gather = join '',
	  map { "CREATE TABLE gathered_$_ (id $kinds{$_}[0] NOT NULL, node int NOT NULL);" } @run_kinds;
	$nodes[0]->safe_psql('idt_node', $gather);
	for my $i (0 .. 2)
	{
		my ($node, $n) = ($nodes[$i], $i + 1);
		for my $k (@run_kinds)
		{
			is($node->safe_psql('idt_node', "SELECT count(*) || ' ' || count(DISTINCT id) FROM t_$k"),
				"$rows $rows", "$label $k: node $n made $rows distinct IDs");
			if (my $bits = $kinds{$k}[2])
			{
				is($node->safe_psql('idt_node', "SELECT bool_and(($bits) = $n) FROM t_$k"),
					't', "$label $k: node ${n}'s IDs all carry node id $n");
			}
			$node->safe_psql('idt_node', "COPY (SELECT id, $n FROM t_$k) TO '$files/$k.$n'");
			$nodes[0]->safe_psql('idt_node', "COPY gathered_$k FROM '$files/$k.$n'");
		}
	}
	my $all = 3 * $rows;
	for my $k (@run_kinds)
	{
		is($nodes[0]->safe_psql('idt_node', "SELECT count(*) || ' ' || count(DISTINCT id) FROM gathered_$k"),
			"$all $all", "$label $k: $all IDs from 3 nodes, none twice");
	}
	return;
}

# explicit_clock_id(label): on node 2 (whose default clock ids lie in 64..95), the clock id given
# wins, and the setting must lie in the node's range.
sub explicit_clock_id
{
	my ($label) = @_;
	is($nodes[1]->safe_psql('idt_node', 'SELECT timeid_clock_id(generate_tid(7))'),
		7, "$label: generate_tid(7) has clock id 7, not the node id's");
	is($nodes[1]->safe_psql('idt_node', 'SELECT timeid_clock_id(generate_tid_at(now(), 7))'),
		7, "$label: generate_tid_at(ts, 7) has clock id 7");
	my ($rc, $out, $err) = $nodes[1]->psql('idt_node', 'SET idtypes.tid_clock_id = 9; SELECT generate_tid()',
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/22023/, "$label: idtypes.tid_clock_id = 9, outside node 2's range, is refused (22023)");
	is($nodes[1]->safe_psql('idt_node', 'SET idtypes.tid_clock_id = 70; SELECT timeid_clock_id(generate_tid())'),
		70, "$label: idtypes.tid_clock_id = 70 gives clock id 70");
	return;
}

my @all_kinds = sort keys %kinds;
if ($major >= 17)
{
	run('cluster-wide state (DSM registry)', 0, @all_kinds);
	explicit_clock_id('cluster-wide state');
}
else
{
	run('cluster-wide state (preloaded)', 1, @all_kinds);
	explicit_clock_id('cluster-wide state');
	$rows /= 4;
	run('per-backend state', 0, qw(xid ulidflake ulidflake_sid));
	explicit_clock_id('per-backend state');
	my ($rc, $out, $err) = $nodes[0]->psql('idt_node', 'SELECT generate_tid()',
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/0A000.*idtypes.node_id leaves too few clock id bits/s,
		'per-backend state: generate_tid() refuses to run with a node id (0A000)');

	# Without a node id, a backend's slot must fit its counter field too: with more than 16,384
	# backends, generate_ulidflake(sid) (a 15-bit field) refuses (0A000) instead of masking the
	# slot (two backends would then share a partition); generate_ulidflake() (20 bits) goes on.
	my $many = idtypes_node('many');
	$many->append_conf('postgresql.conf', "max_connections = 16400\n");
	$many->start;
	($rc, $out, $err) = $many->psql('postgres', 'CREATE EXTENSION idtypes; SELECT generate_ulidflake(1)',
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/0A000.*too many backends/s,
		'per-backend state, 16,400 connections: generate_ulidflake(1) refuses (0A000)');
	is($many->safe_psql('postgres', 'SELECT generate_ulidflake() IS NOT NULL'),
		't', 'per-backend state, 16,400 connections: generate_ulidflake() goes on (20-bit field)');
	$many->stop;
}

# A live change (ALTER SYSTEM and a reload) takes effect at the next start: until then every
# backend, new ones too, makes IDs with the node id the generators started with, or backends on two
# node ids could make the same ID in one millisecond. Preloaded, the server keeps the setting
# itself (pending_restart); otherwise the generators keep theirs (17+: in the shared state; 15-16:
# in the floor file, per server life) and a backend whose setting differs is warned, once.
my $live = idtypes_node('live');
my $ids = q{SELECT (xid_random(generate_xid()) >> 17) || ' ' || ((generate_ulidflake()::bigint & 1048575) >> 15)};
for my $preload (1, 0)
{
	my $label = 'live change, '
	  . ($preload ? 'preloaded' : $major >= 17 ? 'not preloaded (DSM registry)' : 'not preloaded (per-backend state)');
	restart($live, $preload);
	$live->safe_psql('postgres', "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS idtypes;
		$load ALTER SYSTEM SET idtypes.node_id = 6");
	$live->restart;
	is($live->safe_psql('postgres', $ids), '6 6', "$label: node id 6 from the start");
	$live->safe_psql('postgres', "$load ALTER SYSTEM SET idtypes.node_id = 7; SELECT pg_reload_conf()");
	# The reload reached new backends (preloaded the setting stays, pending a restart).
	$live->poll_query_until('postgres',
		"SELECT current_setting('idtypes.node_id') = '7'
		   OR coalesce((SELECT pending_restart FROM pg_settings WHERE name = 'idtypes.node_id'), false)")
	  or die 'the reload did not reach new backends';
	my ($rc, $out, $err) = $live->psql('postgres', "$ids; $ids;
		SELECT setting || ' ' || pending_restart FROM pg_settings WHERE name = 'idtypes.node_id'");
	my $warnings = () = $err =~ /WARNING:  idtypes.node_id is 7, but the generators use node id 6 until the server restarts/g;
	is(join(',', split /\n/, $out) . " $warnings",
		$preload ? '6 6,6 6,6 true 0' : '6 6,6 6,7 false 1',
		"$label: after ALTER SYSTEM and a reload, a new backend's IDs carry node id 6"
		  . ($preload ? ' (setting 6, pending restart)' : ', and it is warned once'));
	$live->restart;
	is($live->safe_psql('postgres', $ids), '7 7', "$label: after a restart, node id 7");
	$live->safe_psql('postgres', 'ALTER SYSTEM RESET idtypes.node_id');
}
$live->stop;

# The setting is node-wide: a session cannot change it.
is($nodes[0]->safe_psql('idt_node', "$load SELECT setting || ' ' || context FROM pg_settings WHERE name = 'idtypes.node_id'"),
	'1 sighup', 'idtypes.node_id is 1 on node 1, context sighup');
my ($rc, $out, $err) = $nodes[0]->psql('idt_node', "$load SET idtypes.node_id = 2",
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/55P02/, 'SET idtypes.node_id in a session fails (55P02)');

$_->stop for @nodes;
done_testing();
