
# t/020_restart.pl: no monotonic generator repeats an ID across a crash or a clean restart after
# which the server's clock is behind (7 s after the crash, 180 s after the clean restart), and
# they go on meanwhile (at half the clock's rate); preloaded and not. And the edge of a
# reservation that ends inside the millisecond of the last IDs before a crash.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime is not installed (Debian package libfaketime)' unless faketime_lib();

my $seconds = 2;

# run(node, run, seconds): every kind generating for that long, one transaction per batch (TIDs
# 20,000 a statement, so that TID runs ahead of its clock).
sub run
{
	my ($node, $run, $secs) = @_;
	$node->safe_psql('postgres',
		'CREATE TABLE IF NOT EXISTS ids (kind text NOT NULL, id text COLLATE "C" NOT NULL, run int NOT NULL)');
	my $inserts = join '', map {
		my ($kind, $n) = ($_, $_ eq 'tid' ? 20000 : 500);
		my $call = {
			xid => 'generate_xid()', tid => 'generate_tid()', ulidflake => 'generate_ulidflake()',
			ulid => 'generate_ulid_monotonic()', euid => 'generate_euid()'
		}->{$kind};
		"INSERT INTO ids SELECT '$kind', $call, $run FROM generate_series(1, $n);\n"
	} kinds();
	$node->safe_psql('postgres', qq{
		DO \$\$
		DECLARE until_ts timestamptz := clock_timestamp() + interval '$secs seconds';
		BEGIN
			WHILE clock_timestamp() < until_ts LOOP
				$inserts
				COMMIT;
			END LOOP;
		END \$\$});
	return;
}

# lag(node): how many seconds the node's clock is behind this process's (this process's clock
# read after the node's: a slow psql start on a loaded machine then adds no negative error).
sub lag
{
	my ($node) = @_;
	my $server = $node->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())');
	return int(time() - $server + 0.5);
}

sub restarts
{
	my ($preload) = @_;
	my $what = $preload ? 'preloaded' : 'not preloaded';
	my $node = idtypes_node("restarts_$preload", preload => $preload);
	start_at($node);
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes');
	run($node, 1, $seconds);
	stop_node($node, 'immediate');
	set_clock($node, '-7');
	start_at($node);
	my $lag = lag($node);
	ok($lag >= 6 && $lag <= 9, "$what: after the crash the clock is $lag s behind (7)");
	run($node, 2, $seconds);
	stop_node($node, 'fast');
	set_clock($node, '-180');
	start_at($node);
	$lag = lag($node);
	ok($lag >= 179 && $lag <= 182, "$what: after the clean restart the clock is $lag s behind (180)");
	# xid's unit is a second: a longer run, so that half the clock's rate shows in it.
	run($node, 3, 3 * $seconds);
	is(repeats($node), 'none', "$what: no ID made twice in the three runs");
	is(not_after($node, 2) . ' / ' . not_after($node, 3), 'none / none',
		"$what: each run's IDs sort after the runs before");
	my ($xid_s, $ulid_s) = split /\n/, $node->safe_psql('postgres', q{
		SELECT extract(epoch FROM max(xid_timestamp(id::uid11)) - min(xid_timestamp(id::uid11)))
		  FROM ids WHERE run = 3 AND kind = 'xid'
		UNION ALL
		SELECT extract(epoch FROM max(ulid_timestamp(id::ulid)) - min(ulid_timestamp(id::ulid)))
		  FROM ids WHERE run = 3 AND kind = 'ulid'});
	ok($xid_s > 3 * $seconds / 4 && $ulid_s > 3 * $seconds / 4,
		"$what: with the clock behind, the IDs' times go on (xid $xid_s s, ulid $ulid_s s of " . 3 * $seconds . ' s)');
	$node->stop;
	return;
}

# edge: the floor file reserves up to a time inside the millisecond of the last IDs made (an ID
# made before the reservation's end asks for no new one, so the file can end a few microseconds
# after it), the server crashes and comes back with its clock far behind: the IDs made after the
# restart sort after those, whose unit is that whole millisecond. The file is written as it stood
# then: the ms kinds' last IDs in one millisecond, the reservation 1 us after the clock read just
# after them.
sub edge
{
	my $node = idtypes_node('edge', preload => 1);
	start_at($node);
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes; CREATE TABLE edge (run int, x uid11, f ulidflake, u ulid, e euid)');
	# With the clock behind the last checkpoint the floor is that checkpoint's next second and
	# more: these IDs come over two seconds after it, so that the floor is the file's.
	$node->safe_psql('postgres', 'CHECKPOINT');
	sleep 2.5;
	my ($t_us, $n);
	my $ids = 'SELECT generate_xid() x, generate_ulidflake() f, generate_ulid_monotonic() u, generate_euid() e, clock_timestamp() t';
	for my $try (1 .. 50)
	{
		($t_us, $n) = split /\|/, $node->safe_psql('postgres', qq{
			WITH g AS MATERIALIZED ($ids), i AS (INSERT INTO edge SELECT 1, x, f, u, e FROM g)
			SELECT (extract(epoch FROM t) * 1000000)::bigint,
			       (SELECT count(DISTINCT v) FROM (VALUES (xid_timestamp(x)), (ulidflake_timestamp(f)),
			          (ulid_timestamp(u)), (euid_timestamp(e)), (date_trunc('milliseconds', t))) s(v))
			FROM g});
		last if $n == 1;
	}
	stop_node($node, 'immediate');
	is($n, 1, 'edge: the four kinds\' last IDs and the clock in one millisecond');
	my $floor = $node->data_dir . '/idtypes_generator.floor';
	open my $fh, '+<', $floor or die "$floor: $!";
	printf $fh "%020d %020d\n", $t_us + 1, 1;
	close $fh;
	set_clock($node, '-180');
	start_at($node);
	$node->safe_psql('postgres', "INSERT INTO edge SELECT 2, x, f, u, e FROM ($ids) g");
	is( $node->safe_psql('postgres', q{
			SELECT (SELECT min(x) FROM edge WHERE run = 2) > (SELECT max(x) FROM edge WHERE run = 1)
			   AND (SELECT min(f) FROM edge WHERE run = 2) > (SELECT max(f) FROM edge WHERE run = 1)
			   AND (SELECT min(u) FROM edge WHERE run = 2) > (SELECT max(u) FROM edge WHERE run = 1)
			   AND (SELECT min(e) FROM edge WHERE run = 2) > (SELECT max(e) FROM edge WHERE run = 1)}),
		't', 'edge: 180 s behind after the crash, the next IDs sort after the last ones');
	$node->stop;
	return;
}

restarts(1);
restarts(0);
edge();

done_testing();
