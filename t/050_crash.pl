
# t/050_crash.pl: a backend killed with SIGKILL while sessions generate IDs: the crash restart
# (the postmaster terminates every backend and reinitializes shared memory, the generators' state
# too) keeps every committed ID, and the generators go on without a duplicate. Preloaded, then not
# (on 17+ the state lives in the DSM registry, which the crash restart recreates; on 15-16 it is
# per backend).
#
# Per scope, on one node with restart_after_crash = on:
#   - four psql sessions insert, in small transactions, one ID of each monotonic kind into five
#     tables whose ID is the primary key, and after each COMMIT echo the IDs acknowledged; one of
#     their backends is killed with kill -9. After the restart every acknowledged transaction's IDs
#     are there with their session and number, the transactions are atomic (the same rows in all
#     five tables), and per session at most the one transaction in flight is there without an
#     acknowledgement. Then four sessions again make 100 transactions each, all succeed, and every
#     ID made after the restart is greater than every ID made before it (each kind is time-ordered
#     and the clock moved on), none twice;
#   - a load with faults (as `make bench-load`'s): pgbench with three clients inserts rows of every
#     monotonic generator's ID (900 a second: enough, and the machine stays free) while a backend
#     is killed with SIGKILL about every 3 s, 3 times, the postmaster restarting each time; then
#     every committed ID is distinct per kind, no session's IDs are out of order, and each server
#     life's IDs sort after the earlier lives'.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

my $before = 100;     # transactions each session has acknowledged before the kill (at least)
my $tx = 100;         # transactions each session makes after the restart
my $sessions = 4;
my $kill_every = 3;   # seconds of load before each kill in the load with faults
my $kills = 3;
my $rate = 900;       # transactions per second of the load with faults, of its three clients

# A kind: its table's name, the ID's type and the generator.
my @kinds = (
	[ xid => 'uid11', 'generate_xid()' ],
	[ tid => 'timeid', 'generate_tid()' ],
	[ ulidflake => 'ulidflake', 'generate_ulidflake()' ],
	[ ulid => 'ulid', 'generate_ulid_monotonic()' ],
	[ euid => 'euid', 'generate_euid()' ],);

# A psql whose backend dies ends (EXIT_BADCONN); writing to it then must not end this process.
$SIG{PIPE} = 'IGNORE';

# transactions(session, phase, from, to): psql input; after each COMMIT, "s i ids...".
sub transactions
{
	my ($s, $phase, $from, $to) = @_;
	my $sql = '';
	for my $i ($from .. $to)
	{
		$sql .= "BEGIN;\n";
		$sql .= "INSERT INTO c_$_->[0] VALUES ($_->[2], $s, $i, $phase) RETURNING id AS $_->[0] \\gset\n"
		  for @kinds;
		$sql .= "COMMIT;\n\\echo $s $i " . join(' ', map { ":$_->[0]" } @kinds) . "\n";
	}
	return $sql;
}

# client(node, session, input): a psql reading its input as it is given (appended to {in}).
sub client
{
	my ($node, $s, $input) = @_;
	my $c = { s => $s, in => $input, out => '', err => '' };
	$c->{h} = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d',
			$node->connstr('postgres') . " application_name=crash_client_$s"
		],
		'<', \$c->{in}, '>', \$c->{out}, '2>', \$c->{err}, IPC::Run::timeout(120));
	return $c;
}

sub acks { my ($c) = @_; return $c->{out} =~ tr/\n//; }

# finish(harness): its exit status once it has ended; undef where it had to be killed (it outlived
# its timeout).
sub finish
{
	my ($h) = @_;
	return $h->full_result(0) if eval { $h->finish; 1 };
	diag('killed after an error: ' . (split /\n/, $@)[0]);
	$h->kill_kill;
	return undef;
}

# restarted(node, victim, logpos): true once the log after logpos says that the victim, killed
# with SIGKILL, ended, and that the server reinitialized; and it accepts connections again.
sub restarted
{
	my ($node, $victim, $logpos) = @_;
	my $t0 = time();
	my $crash = qr/\(PID $victim\) was terminated by signal 9(?s:.*)all server processes terminated; reinitializing/;
	until ($node->log_contains($crash, $logpos))
	{
		return 0 if time() - $t0 > 60;
		sleep 0.1;
	}
	# Accepting connections (pg_isready) before a query: a psql that the recovering server turns
	# away exits before it reads its query from stdin, and poll_query_until's write of the query
	# to it then dies of EPIPE ("ack Broken pipe"), ending the test.
	until (system($node->installed_command('pg_isready'), '-q', '-h', $node->host, '-p', $node->port) == 0)
	{
		return 0 if time() - $t0 > 60;
		sleep 0.1;
	}
	return $node->poll_query_until('postgres', 'SELECT true');
}

# checks(node, [name, sql returning t], ...): the checks, in one session.
sub checks
{
	my ($node, @checks) = @_;
	my @got = split /\n/, $node->safe_psql('postgres', join '', map { "$_->[1];\n" } @checks);
	is($got[$_] // '', 't', $checks[$_][0]) for 0 .. $#checks;
	return;
}

sub crash
{
	my ($node, $what, $scope) = @_;
	$node->safe_psql('postgres', join '', map {
		"CREATE TABLE c_$_->[0] (id $_->[1] PRIMARY KEY, s int NOT NULL, i int NOT NULL, phase int NOT NULL);\n"
	} @kinds);
	checks($node, [ "$what: generator scope is $scope", "SELECT idtypes_generator_scope() = '$scope'" ]);

	# Phase 1: four sessions until the crash, each given transactions ahead of what it acknowledged.
	my @c = map { client($node, $_, transactions($_, 1, 1, 100)) } 1 .. $sessions;
	$_->{sent} = 100 for @c;
	my $feed = sub {
		for my $c (@c)
		{
			$c->{h}->pump_nb if $c->{h}->pumpable;
			next if $c->{sent} - acks($c) > 50;
			$c->{in} .= transactions($c->{s}, 1, $c->{sent} + 1, $c->{sent} + 100);
			$c->{sent} += 100;
		}
	};
	my $t0 = time();
	while (grep { acks($_) < $before } @c)
	{
		last if time() - $t0 > 60 || grep { !$_->{h}->pumpable } @c;
		$feed->();
		sleep 0.01;
	}
	my @short = grep { acks($_) < $before } @c;
	ok(!@short, "$what: each session acknowledged $before transactions before the kill")
	  or diag(join "\n", map { "session $_->{s}: " . acks($_) . " acks: $_->{err}" } @short);
	my $victim = $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE application_name = 'crash_client_2'");
	my $logpos = -s $node->logfile;
	# The sessions go on a second more, and are killed in the midst: none waits for input.
	$t0 = time();
	while (time() - $t0 < 1)
	{
		$feed->();
		sleep 0.01;
	}
	my $restarted = $victim && kill('KILL', $victim) && restarted($node, $victim, $logpos);
	# What was never sent stays unsent (a psql gone, the write would fail). Every client ends.
	$_->{in} = '' for @c;
	my @hung = grep { !defined finish($_->{h}) } @c;
	ok($restarted && !@hung,
		"$what: backend $victim killed with SIGKILL, the server reinitialized and accepts connections again,"
		  . ' the clients ended');
	note "$what: sessions that lost their connection in the crash: "
	  . scalar(grep { $_->{err} =~ /connection/ } @c)
	  . " of $sessions";

	# What the clients saw acknowledged is there. An acknowledgement is a line of the \echo after a
	# COMMIT: the session's number, the transaction's and five IDs. A client's output can hold one
	# other line, written as its connection broke: an INSERT's RETURNING row that reached it just
	# before the server's FATAL message is not the last result of its query, and psql prints such
	# a result where \gset would have stored the last (SHOW_ALL_RESULTS, PostgreSQL 15+).
	my @ack = map {
		my $s = $_->{s};
		grep { /^$s \d+( \S+){5}$/ } split /\n/, $_->{out}
	} @c;
	note "$what: acknowledged transactions: " . scalar(@ack);
	my $values = join ', ', map { '(' . join(', ', map { "'$_'" } split / /) . ')' } @ack;
	$node->safe_psql('postgres',
		"CREATE TABLE ack (s int, i int, xid uid11, tid timeid, ulidflake ulidflake, ulid ulid, euid euid);\n"
		  . (@ack ? "INSERT INTO ack VALUES $values" : ''));
	my @checks;
	for my $k (map { $_->[0] } @kinds)
	{
		push @checks,
		  [
			"$what: $k: every acknowledged ID survived the crash with its session and number",
			"SELECT count(*) > 0 AND bool_and(EXISTS
			   (SELECT 1 FROM c_$k c WHERE c.id = a.$k AND c.s = a.s AND c.i = a.i)) FROM ack a"
		  ];
		next if $k eq 'xid';
		push @checks,
		  [
			"$what: $k: transactions are atomic (the same rows as c_xid)",
			"SELECT NOT EXISTS ((SELECT s, i FROM c_xid EXCEPT SELECT s, i FROM c_$k)
			                    UNION ALL (SELECT s, i FROM c_$k EXCEPT SELECT s, i FROM c_xid))"
		  ];
	}
	push @checks,
	  [
		"$what: per session, at most the transaction in flight committed without acknowledgement", q{
		SELECT coalesce(bool_and(n <= 1 AND (n = 0 OR unacked = acked + 1)), false) FROM (
			SELECT c.s, count(*) FILTER (WHERE a.s IS NULL) AS n,
			       max(c.i) FILTER (WHERE a.s IS NULL) AS unacked, (SELECT max(i) FROM ack WHERE ack.s = c.s) AS acked
			FROM c_xid c LEFT JOIN ack a USING (s, i) GROUP BY c.s) x}
	  ];
	checks($node, @checks);

	# Phase 2: the generators go on.
	@c = map { client($node, $_, transactions($_, 2, 1, $tx)) } 1 .. $sessions;
	my @failed = grep { (finish($_->{h}) // -1) != 0 } @c;
	ok(!@failed, "$what: after the restart $sessions sessions made $tx transactions each without error")
	  or diag(join "\n", map { "session $_->{s}: $_->{err}" } @failed);
	my %before = split /[|\n]/, $node->safe_psql('postgres',
		join ' UNION ALL ', map { "SELECT '$_->[0]', count(*) FROM c_$_->[0] WHERE phase = 1" } @kinds);
	@checks = ([ "$what: generator scope is still $scope", "SELECT idtypes_generator_scope() = '$scope'" ]);
	for my $k (map { $_->[0] } @kinds)
	{
		push @checks,
		  [
			"$what: $k: " . $sessions * $tx . " IDs after the restart, all greater than the $before{$k} before it",
			"SELECT count(*) FILTER (WHERE phase = 2) = $sessions * $tx
			    AND min(id) FILTER (WHERE phase = 2) > max(id) FILTER (WHERE phase = 1) FROM c_$k"
		  ],
		  [ "$what: $k: no ID twice", "SELECT count(*) = count(DISTINCT id) FROM c_$k" ];
	}
	checks($node, @checks);
	return;
}

# per_kind(node, sql with KIND for a column, returning a count): "kind n, ..." where n > 0, or 'none'.
sub per_kind
{
	my ($node, $sql) = @_;
	my $union = join ' UNION ALL ', map { "SELECT '$_->[0]' AS kind, (" . ($sql =~ s/KIND/$_->[0]/gr) . ') AS n' } @kinds;
	return $node->safe_psql('postgres',
		"SELECT coalesce(string_agg(kind || ' ' || n, ', ' ORDER BY kind), 'none') FROM ($union) s WHERE n > 0");
}

# faults(node, what): pgbench inserting every monotonic generator's ID while a backend is killed
# every $kill_every s, $kills times; pgbench starts again after each restart (a server life, "life"
# in the rows), and runs 1 s in the last. A session is a life and a backend's pid (a pgbench client
# keeps its connection for its whole run).
sub faults
{
	my ($node, $what) = @_;
	$node->safe_psql('postgres',
		'CREATE TABLE f (n bigserial, life int NOT NULL, pid int NOT NULL DEFAULT pg_backend_pid(), '
		  . join(', ', map { "$_->[0] $_->[1] NOT NULL DEFAULT $_->[2]" } @kinds) . ')');
	my $script = $node->basedir . '/fault.sql';
	open my $fh, '>', $script or die "$script: $!";
	print $fh "INSERT INTO f (life) VALUES (:life);\n";
	close $fh;
	my $restarts = 0;
	for my $life (1 .. $kills + 1)
	{
		my $last = $life > $kills;
		my $log = $node->basedir . "/pgbench_$life.log";
		my $h = do
		{
			local $ENV{PGAPPNAME} = 'fault_load';
			IPC::Run::start(
				[
					$node->installed_command('pgbench'), '-n', '-c', '3', '-j', '1', '-R', $rate,
					'-T', $last ? 1 : 60, '-D', "life=$life", '-f', $script,
					'-h', $node->host, '-p', $node->port, 'postgres'
				],
				'>&', $log, IPC::Run::timeout(90));
		};
		if (!$last)
		{
			sleep $kill_every;
			my $victim = $node->safe_psql('postgres',
				"SELECT pid FROM pg_stat_activity WHERE application_name = 'fault_load' AND pid <> pg_backend_pid()
				   ORDER BY random() LIMIT 1");
			my $logpos = -s $node->logfile;
			if ($victim && kill('KILL', $victim) && restarted($node, $victim, $logpos))
			{
				$restarts++;
			}
			else
			{
				diag("$what, faults: life $life: no restart after killing backend '$victim'");
				$h->kill_kill;
			}
		}
		finish($h);
	}
	is($restarts, $kills,
		"$what, faults: $kills backends killed with SIGKILL under load, the server restarted each time");
	is( $node->safe_psql('postgres',
			"SELECT count(*) FILTER (WHERE n > 0) || ' of ' || count(*) FROM
			   (SELECT l, (SELECT count(*) FROM f WHERE life = l) AS n FROM generate_series(1, $kills + 1) l) s"),
		($kills + 1) . ' of ' . ($kills + 1),
		"$what, faults: every server life committed IDs");
	note "$what, faults: rows per life: "
	  . $node->safe_psql('postgres',
		"SELECT string_agg(life || ': ' || n, ', ' ORDER BY life) FROM (SELECT life, count(*) AS n FROM f GROUP BY life) s");
	is(per_kind($node, 'SELECT count(*) - count(DISTINCT KIND) FROM f'),
		'none', "$what, faults: every committed ID distinct, per kind");
	is( per_kind($node,
			'SELECT count(DISTINCT (life, pid)) FROM
			   (SELECT life, pid, KIND, lag(KIND) OVER (PARTITION BY life, pid ORDER BY n) AS prev FROM f) s
			 WHERE KIND <= prev'),
		'none',
		"$what, faults: no session's IDs out of order (sessions with one, per kind)");
	is( per_kind($node,
			'SELECT count(*) FROM (SELECT life, min(KIND) AS lo FROM f GROUP BY life) a
			 WHERE a.lo <= (SELECT max(KIND) FROM f WHERE f.life < a.life)'),
		'none',
		"$what, faults: each server life's IDs sort after the earlier lives' (lives with one, per kind)");
	return;
}

for my $preload (1, 0)
{
	my $node = idtypes_node("crash_$preload", preload => $preload);
	# log_statement = all (the test default) would log every insert.
	$node->append_conf('postgresql.conf', "restart_after_crash = on\nlog_statement = none\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idtypes');
	my $major = $node->safe_psql('postgres', "SELECT current_setting('server_version_num')::int / 10000");
	my ($what, $scope) =
		$preload ? ('preloaded', 'cluster')
	  : $major >= 17 ? ('DSM registry (no preload)', 'cluster')
	  : ('per backend (no preload)', 'backend');
	my $t0 = time();
	crash($node, $what, $scope);
	my $t1 = time();
	faults($node, $what);
	note sprintf("$what: crash %.1f s, faults %.1f s", $t1 - $t0, time() - $t1);
	$node->stop;
}

done_testing();
