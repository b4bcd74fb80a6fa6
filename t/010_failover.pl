
# t/010_failover.pl: no monotonic generator repeats an ID across the promotion of a streaming
# standby, with the old primary's clock run fast and stepped back, and with the promoted server
# restarted (crashed) before its first ID; a hot standby refuses them. Preloaded, WAL redo carries
# the floor; not preloaded, the promoted server refuses until the timeline is accepted.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime is not installed (Debian package libfaketime)' unless faketime_lib();

my $rows = 20000;
my $all = join ' ', map { "$_ $rows" } kinds();

# failover(preload, restart): a primary whose clock runs 20 s fast while it makes run 1, then steps
# back before run 2; its standby (made before the first ID, so without a floor file) replays
# both; the primary crashes; the standby is promoted (and, restart => 1, crashes and starts
# again before any ID); then run 3 in three sessions at once.
sub failover
{
	my ($preload, $restart) = @_;
	my $what = ($preload ? 'preloaded' : 'not preloaded') . ($restart ? ', restarted' : '');
	my $primary = idtypes_node("primary_${preload}_$restart", preload => $preload, streaming => 1);
	start_at($primary);
	$primary->safe_psql('postgres', 'CREATE EXTENSION idtypes');
	$primary->backup('b');
	my $standby = PostgreSQL::Test::Cluster->new("standby_${preload}_$restart");
	$standby->init_from_backup($primary, 'b', has_streaming => 1);
	start_at($standby);

	set_clock($primary, '+20');
	generate_into($primary, 1, $rows);
	set_clock($primary, '+0');
	generate_into($primary, 2, $rows);
	$primary->wait_for_catchup($standby);

	# A hot standby: the monotonic generators refuse, the random ones run.
	my ($ret, $out, $err) = $standby->psql('postgres', 'SELECT generate_tid()');
	like($err, qr/cannot generate a monotonic timeid during recovery/,
		"$what: a hot standby refuses generate_tid()");
	is( $standby->safe_psql(
			'postgres',
			'SELECT generate_ulid() IS NOT NULL AND generate_ulid_at(now()) IS NOT NULL
			   AND generate_tid_at(now(), 7) IS NOT NULL AND gen_random_uuid() IS NOT NULL'),
		't',
		"$what: a hot standby runs generate_ulid() and the _at generators");

	stop_node($primary, 'immediate');
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'the standby was not promoted';
	if ($restart)
	{
		stop_node($standby, 'immediate');
		start_at($standby);
	}

	if (!$preload)
	{
		my ($r, $o, $e) = $standby->psql('postgres', 'SELECT generate_ulid_monotonic()');
		like($e, qr/the generators' floor is not known on timeline 2/,
			"$what: the promoted server refuses the monotonic generators");
		# As docs/operations.md says: ALTER SYSTEM in a session that loaded idtypes, then a reload.
		$standby->safe_psql('postgres', 'SELECT idtypes_version(); ALTER SYSTEM SET idtypes.accept_timeline = 2');
		$standby->reload;
		$standby->poll_query_until('postgres', "SELECT current_setting('idtypes.accept_timeline') = '2'")
		  or die 'idtypes.accept_timeline was not reloaded';
	}
	generate_into($standby, 3, $rows, 3);
	is(run_rows($standby, 3), join(', ', map { "$_ " . 3 * $rows } sort(kinds())),
		"$what: the promoted server made its IDs");
	if ($preload)
	{
		is(repeats($standby), 'none', "$what: no ID made twice");
		is(not_after($standby, 3), 'none', "$what: the promoted server's IDs sort after the old primary's");
	}
	else
	{
		# The timeline accepted, the first reservation records it: a restart goes on.
		stop_node($standby, 'immediate');
		start_at($standby);
		is($standby->safe_psql('postgres', 'SELECT generate_tid() IS NOT NULL'),
			't', "$what: after a crash the accepted timeline is the file's");
	}
	$standby->stop;
	return;
}

for my $preload (1, 0)
{
	for my $restart (0, 1)
	{
		failover($preload, $restart);
	}
}

done_testing();
