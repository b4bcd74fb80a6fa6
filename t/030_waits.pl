
# t/030_waits.pl: every wait of a monotonic generator can be ended: with the floor file locked by
# another process, statement_timeout, pg_cancel_backend and pg_terminate_backend end a generator
# waiting for the lock (and one waiting for that generator's reservation) within seconds, and
# pg_stat_activity shows what each waits for. And a generator waiting out an overflow (more IDs
# asked for in a millisecond than it holds) sleeps: under half a CPU core, in a wait event of
# its own (17+), until pg_cancel_backend ends it.
use strict;
use warnings FATAL => 'all';

use Fcntl ':flock';
use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes 'time';

my $hold = 60;    # seconds the file stays locked: far longer than any wait may last

# wait_event_of(node, pid): the backend's wait event once it waits (polled).
sub wait_event_of
{
	my ($node, $pid) = @_;
	my $ev = '';
	for (1 .. 100)
	{
		$ev = $node->safe_psql('postgres',
			"SELECT coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $pid");
		last if $ev =~ /^(IdtypesFloor|Extension)/;
		select(undef, undef, undef, 0.1);
	}
	return $ev;
}

sub waits
{
	my ($preload) = @_;
	my $what = $preload ? 'preloaded' : 'not preloaded';
	my $node = idtypes_node("waits_$preload", preload => $preload);
	# On the real clock, also under test/dates.sh: with any offset, libfaketime keeps a server's
	# statement_timeout from firing (a 1 s timeout let pg_sleep(3) run 3 s). These waits do not
	# depend on the date.
	delete local $ENV{LD_PRELOAD};
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes; SELECT generate_tid()');
	# A new life; its first ID takes the restart floor (reading the file) and a reservation; once
	# that half second has passed, the next ID needs a reservation of its own, under the file's
	# lock (in cluster scope: the floor is taken, so a second backend waits for the first's
	# reservation, not for the file).
	$node->restart;
	$node->safe_psql('postgres', 'SELECT generate_tid()');
	select(undef, undef, undef, 1.5);
	my $custom = $node->safe_psql('postgres', "SELECT current_setting('server_version_num')::int >= 170000") eq 't';
	my $scope = $node->safe_psql('postgres', 'SELECT idtypes_generator_scope()');

	# Another process holds the file's lock for $hold seconds (a wait that cannot be ended lasts
	# that long, and fails the checks below instead of hanging).
	pipe(my $ready_r, my $ready_w) or die "pipe: $!";
	my $holder = fork() // die "fork: $!";
	if ($holder == 0)
	{
		open my $fh, '+<', $node->data_dir . '/idtypes_generator.floor' or die "floor file: $!";
		flock($fh, LOCK_EX) or die "flock: $!";
		print $ready_w "locked\n";
		close $ready_w;
		sleep $hold;
		exit 0;
	}
	close $ready_w;
	<$ready_r>;
	my $locked = time();

	# statement_timeout ends the wait.
	my $t0 = time();
	my ($ret, $out, $err) = $node->psql('postgres', "SET statement_timeout = '1s'; SELECT generate_ulid_monotonic()");
	my $took = time() - $t0;
	like($err, qr/canceling statement due to statement timeout/, "$what: statement_timeout ends a wait for the floor file");
	ok($took < 6, sprintf("$what: ... after %.1f s (1 s timeout)", $took));

	# A wait shows in pg_stat_activity, and pg_cancel_backend ends it.
	my $a = $node->background_psql('postgres', on_error_stop => 0);
	my $pid_a = $a->query_safe('SELECT pg_backend_pid()');
	$a->query_until(qr/sent/, "\\echo sent\nSELECT generate_tid();\n");
	my $ev = wait_event_of($node, $pid_a);
	is($ev, $custom ? 'IdtypesFloorFile' : 'Extension', "$what: a backend waiting for the floor file shows wait event $ev");

	# In cluster scope a second backend waits for the first's reservation.
	my $b;
	if ($scope eq 'cluster')
	{
		$b = $node->background_psql('postgres', on_error_stop => 0);
		my $pid_b = $b->query_safe('SELECT pg_backend_pid()');
		$b->query_until(qr/sent/, "\\echo sent\nSELECT generate_xid();\n");
		$ev = wait_event_of($node, $pid_b);
		is($ev, $custom ? 'IdtypesFloorReservation' : 'Extension',
			"$what: a backend waiting for another's reservation shows wait event $ev");
		$t0 = time();
		$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid_b)");
		$b->query_until(qr/back/, "\\echo back\n");
		ok(time() - $t0 < 5, "$what: pg_cancel_backend ends a wait for another's reservation");
		$b->quit;
	}
	$t0 = time();
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid_a)");
	$a->query_until(qr/back/, "\\echo back\n");
	ok(time() - $t0 < 5, "$what: pg_cancel_backend ends a wait for the floor file");
	like($a->{stderr}, qr/canceling statement due to user request/, "$what: ... with the cancel's error");
	$a->quit;

	# pg_terminate_backend ends one.
	my $c = $node->background_psql('postgres', on_error_stop => 0);
	my $pid_c = $c->query_safe('SELECT pg_backend_pid()');
	$c->query_until(qr/sent/, "\\echo sent\nSELECT generate_euid();\n");
	wait_event_of($node, $pid_c);
	$t0 = time();
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid_c)");
	ok($node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid_c")
		  && time() - $t0 < 5,
		"$what: pg_terminate_backend ends a wait for the floor file");
	eval { $c->quit };

	ok(time() - $locked < $hold, "$what: all of it while the file stayed locked");
	kill 'KILL', $holder;
	waitpid $holder, 0;
	is($node->safe_psql('postgres', 'SELECT generate_tid() IS NOT NULL'), 't', "$what: the lock let go, generators go on");
	$node->stop;
	return;
}

waits(1);
waits(0);

# With idtypes.test_counter_bits = 2 a millisecond holds four xids, so a statement asking for
# 200,000 takes about 50 s, nearly all of it waiting (the checks take a second and a half on an
# idle machine, many more on a loaded one).
{
	delete local $ENV{LD_PRELOAD};    # on the real clock, as above
	my $node = idtypes_node('overflow');
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes');
	my $want = $node->pg_version->major >= 17 ? 'IdtypesGeneratorOverflow' : 'Extension';
	my $s = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $s->query_safe('SELECT pg_backend_pid()');
	$s->query_safe("SET idtypes.test_counter_bits = 2; SET idtypes.on_overflow = 'wait'");
	$s->query_until(qr/sent/, "\\echo sent\nSELECT count(DISTINCT id) FROM
		(SELECT generate_xid() AS id FROM generate_series(1, 200000)) s;\n");
	select(undef, undef, undef, 0.2);
	# The backend's CPU time (user + system, in clock ticks) from /proc.
	my $ticks = sub { my @f = split ' ', slurp_file("/proc/$pid/stat"); return $f[13] + $f[14]; };
	my $t0 = $ticks->();
	my %events;
	for (1 .. 10)
	{
		$events{ $node->safe_psql('postgres',
			"SELECT coalesce(wait_event_type, '-') || '/' || coalesce(wait_event, '-')
			 FROM pg_stat_activity WHERE pid = $pid") }++;
		select(undef, undef, undef, 0.1);
	}
	chomp(my $hz = `getconf CLK_TCK`);
	my $used = ($ticks->() - $t0) / $hz;
	ok($used < 0.5, "overflow: a backend waiting out overflows used $used s of CPU in 1 s (under half a core)");
	ok($events{"Extension/$want"}, "overflow: pg_stat_activity shows it waiting in Extension/$want")
	  or diag explain \%events;
	my $c0 = time();
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	$s->query_until(qr/back/, "\\echo back\n");
	ok(time() - $c0 < 5, 'overflow: pg_cancel_backend() ends an overflow wait');
	like($s->{stderr}, qr/canceling statement due to user request/, 'overflow: ... with the cancel\'s error');
	$s->quit;
	$node->stop;
}

done_testing();
