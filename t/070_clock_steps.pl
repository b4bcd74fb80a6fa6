
# t/070_clock_steps.pl: the generators while the server's clock steps back 5 s and forward again.
# The server runs under libfaketime, its clock +0, then -5 s, then +0 again, while two sessions
# generate IDs of every kind, in small batches, each batch under one advisory lock and numbered by
# one sequence (the generation order across sessions). The README (Generators) says what each
# generator does: a monotonic generator treats a clock that went back as the last time unit it
# saw (micros + 1 for TID), so afterwards, for each kind, no ID occurs twice, and the monotonic
# ones (all but generate_ulid(), which follows the spec) strictly increase in generation order:
# per session where the state is per backend, across both sessions where
# idtypes_generator_scope() is 'cluster'. Each session did see its clock go back (clock_timestamp()
# just before each call went backwards), so these checks are not vacuous. Two rounds: not
# preloaded (scope 'backend' on 15-16, 'cluster' on 17+) and preloaded ('cluster'); each checks
# the scope, both steps of the server's clock, and that both sessions ran without an error.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

plan skip_all => 'libfaketime is not installed (Debian package libfaketime)' unless faketime_lib();

my $batch = 10;    # rows of one kind per batch
my $step = 5;      # seconds the clock steps back

# Every kind (name, type, call); all but ulid are monotonic.
my @kinds = (
	[ xid => 'uid11', 'generate_xid()' ],
	[ tid => 'timeid', 'generate_tid()' ],
	[ ulidflake => 'ulidflake', 'generate_ulidflake()' ],
	[ ulidflake_sid => 'ulidflake', 'generate_ulidflake(5)' ],
	[ ulid => 'ulid', 'generate_ulid()' ],
	[ ulid_mono => 'ulid', 'generate_ulid_monotonic()' ],
	[ euid => 'euid', 'generate_euid()' ],
	[ euid_ext => 'euid', 'generate_euid(77)' ],);

# lag(node): how many seconds the node's clock is behind this process's, as the least and the
# most it can be: this process's clock read before and after the node's (a slow psql on a loaded
# machine widens the range rather than moving it).
sub lag
{
	my ($node) = @_;
	my $before = time();
	my $server = $node->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())');
	return ($before - $server, time() - $server);
}

# stepped(node, seconds): lag() once a new session's clock is that many seconds behind (within
# one), or after ten seconds of trying. A backend is forked from the postmaster with its copy of
# libfaketime's reading of the clock file, read again only a second or two after the last.
sub stepped
{
	my ($node, $behind) = @_;
	my ($lo, $hi);
	for (1 .. 50)
	{
		($lo, $hi) = lag($node);
		last if $lo < $behind + 1 && $hi > $behind - 1;
		sleep 0.2;
	}
	return ($lo, $hi);
}

# wait_for(node, query, what): until the query says true, for at most 30 s (poll_query_until's
# three minutes, while the sessions fill their tables, would hold a failing run for many more);
# notes it if not.
sub wait_for
{
	my ($node, $query, $what) = @_;
	my $end = time() + 30;
	while (time() < $end)
	{
		return if $node->safe_psql('postgres', $query) eq 't';
		sleep 0.3;
	}
	diag("$what: not within 30 s");
	return;
}

sub round
{
	my ($preload) = @_;
	my $what = $preload ? 'preloaded' : 'not preloaded';
	my $node = idtypes_node("clock_steps_$preload", preload => $preload);
	start_at($node);
	$node->safe_psql('postgres',
		join '',
		"CREATE EXTENSION idtypes; CREATE SEQUENCE g;
		 CREATE TABLE ctl (stop bool NOT NULL); INSERT INTO ctl VALUES (false);\n",
		map {
			"CREATE TABLE c_$_->[0] (t timestamptz NOT NULL, id $_->[1] NOT NULL, s int NOT NULL,
			   g bigint NOT NULL);\n"
		} @kinds);

	my ($scope, $v17) = split /\|/, $node->safe_psql('postgres',
		"SELECT idtypes_generator_scope(), current_setting('server_version_num')::int >= 170000");
	my $shared = $preload || $v17 eq 't';
	is($scope, $shared ? 'cluster' : 'backend', "$what: generator scope is $scope");

	# Each session generates batches until ctl.stop, each batch committed (the test watches the
	# rows arrive). clock_timestamp() before the generator: what the session's clock said when the
	# call began. No pg_sleep between batches: it measures its
	# time on the faked clock, and a step back would stretch one sleep by the whole step.
	my @sessions = map {
		my $s = $_;
		my $inserts = join '', map {
			"INSERT INTO c_$_->[0] (t, id, s, g)
			   SELECT clock_timestamp(), $_->[2], $s, nextval('g') FROM generate_series(1, $batch);\n"
		} @kinds;
		my $psql = $node->background_psql('postgres');
		$psql->query_until(qr/started/, qq{\\echo started
DO \$\$
BEGIN
	LOOP
		EXIT WHEN (SELECT stop FROM ctl);
		PERFORM pg_advisory_lock(4242);
		$inserts
		PERFORM pg_advisory_unlock(4242);
		COMMIT;
	END LOOP;
END \$\$;
\\echo done
});
		$psql
	} 1, 2;

	# Each phase lasts until both sessions have generated in it, not a fixed time: a process reads
	# the clock file again only about every second or two (FAKETIME_CACHE_DURATION), and after the
	# step back the first TID waits, holding the batch lock, until the clock is within a second of
	# the last TID: on a loaded machine a fixed second or two could pass with a session not
	# generating on the stepped clock at all.
	wait_for($node, 'SELECT count(DISTINCT s) = 2 FROM c_xid', "$what: both sessions generating");
	set_clock($node, "-$step");
	my ($lo, $hi) = stepped($node, $step);
	ok($lo < $step + 1 && $hi > $step - 1,
		sprintf("$what: the server's clock stepped back $step s (%.1f to %.1f s behind)", $lo, $hi));
	# A session has generated on the stepped-back clock once its calls' times went backwards.
	wait_for($node, qq{
		SELECT count(DISTINCT s) = 2 FROM (
			SELECT s, t < lag(t) OVER (PARTITION BY s ORDER BY g) AS back FROM c_xid) x
		 WHERE back}, "$what: both sessions generating on the stepped-back clock");
	set_clock($node, '+0');
	($lo, $hi) = stepped($node, 0);
	ok($lo < 1 && $hi > -1,
		sprintf("$what: the server's clock stepped forward again (%.1f to %.1f s behind)", $lo, $hi));
	# ... and on the clock stepped forward once a call began after this moment of it (on the clock
	# still stepped back, that takes the step's seconds, longer than a process reads the file).
	my $forward = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
	wait_for($node, "SELECT count(DISTINCT s) = 2 FROM c_xid WHERE t > '$forward'",
		"$what: both sessions generating after the step forward");
	$node->safe_psql('postgres', 'UPDATE ctl SET stop = true');
	my $errors = '';
	for my $psql (@sessions)
	{
		$psql->quit;
		$errors .= $psql->{stderr};
	}
	is($errors, '', "$what: both sessions generated without an error");

	# Each session saw its clock go back: a call of the session began before its previous one did
	# (on the server's clock), which without a step back does not happen. By how much varies: a
	# session can be waiting for a TID, or for the other session's batch, when its clock steps.
	my $union = join ' UNION ALL ', map { "SELECT t, s, g FROM c_$_->[0]" } @kinds;
	my $back = $node->safe_psql('postgres', qq{
		SELECT string_agg(round(extract(epoch FROM back)::numeric, 3)::text, ' and ' ORDER BY s)
		  FROM (SELECT s, max(p - t) AS back FROM (
				  SELECT s, t, lag(t) OVER (PARTITION BY s ORDER BY g) AS p FROM ($union) a) b
				 WHERE t < p GROUP BY s) c});
	ok($back =~ /^[0-9.]+ and [0-9.]+$/, "$what: both sessions saw their clock go back ($back s)");

	# The order that must be increasing: per session, or across sessions for a cluster-wide state.
	my $part = $scope eq 'cluster' ? '' : 'PARTITION BY s';
	my $where = $scope eq 'cluster' ? 'across both sessions' : 'in each session';
	my $checks = join ' UNION ALL ', map {
		"SELECT '$_->[0]', count(*), count(*) > 0 AND count(*) = count(DISTINCT id),
		        (SELECT coalesce(bool_and(id > p), false) FROM
		           (SELECT id, lag(id) OVER ($part ORDER BY g) p FROM c_$_->[0]) s
		         WHERE p IS NOT NULL)
		 FROM c_$_->[0]"
	} @kinds;
	my %row = map { (split /\|/)[0] => $_ } split /\n/, $node->safe_psql('postgres', $checks);
	for my $k (map { $_->[0] } @kinds)
	{
		my (undef, $n, $distinct, $increasing) = split /\|/, $row{$k} // '|0|f|f';
		is($distinct, 't', "$what: $k: $n IDs, none twice");
		next if $k eq 'ulid';    # generate_ulid() follows the spec: not monotonic
		is($increasing, 't', "$what: $k: strictly increasing $where through both steps");
	}
	$node->stop;
	return;
}

round(0);
round(1);

done_testing();
