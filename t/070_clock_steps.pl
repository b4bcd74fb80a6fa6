
# t/070_clock_steps.pl: the generators while the server's clock steps back 5 s and forward again.
# The server runs under libfaketime, its clock +0, then -5 s, then +0 again, while two sessions
# generate IDs of every kind, in small batches, each batch under one advisory lock and numbered by
# one sequence (the generation order across sessions). The README (Generators) says what each
# generator does: a monotonic generator treats a clock that went back as the last time unit it
# saw (micros + 1 for TID), so afterwards, for each kind, no ID occurs twice, and the monotonic
# ones (all but generate_ulid(), which follows the spec) strictly increase in generation order:
# per session where the state is per backend, across both sessions where
# idtypes_generator_scope() is 'cluster'. The sessions did see their clock go back
# (clock_timestamp() just before each call: by more than half the step), so these checks are not vacuous. Two rounds: not
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
my $phase = 1.5;   # seconds of generation before, during and after the step

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

	# Each session generates batches until ctl.stop. clock_timestamp() before the generator: what
	# the session's clock said when the call began. No pg_sleep between batches: it measures its
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
	END LOOP;
END \$\$;
\\echo done
});
		$psql
	} 1, 2;

	sleep $phase;
	set_clock($node, "-$step");
	my ($lo, $hi) = lag($node);
	ok($lo < $step + 1 && $hi > $step - 1,
		sprintf("$what: the server's clock stepped back $step s (%.1f to %.1f s behind)", $lo, $hi));
	sleep $phase;
	set_clock($node, '+0');
	($lo, $hi) = lag($node);
	ok($lo < 1 && $hi > -1,
		sprintf("$what: the server's clock stepped forward again (%.1f to %.1f s behind)", $lo, $hi));
	sleep $phase;
	$node->safe_psql('postgres', 'UPDATE ctl SET stop = true');
	my $errors = '';
	for my $psql (@sessions)
	{
		$psql->quit;
		$errors .= $psql->{stderr};
	}
	is($errors, '', "$what: both sessions generated without an error");

	# A call that began more than half the step (on the server's clock) before one that began
	# earlier: without a step back no call begins before an earlier one. Not the whole step: on a
	# loaded machine the sessions can stall for a second or more around it (3.7 s of 5 seen once).
	my $union = join ' UNION ALL ', map { "SELECT t, g FROM c_$_->[0]" } @kinds;
	my $back = $node->safe_psql('postgres', qq{
		SELECT coalesce(extract(epoch FROM max(before - t)), 0) FROM (
			SELECT t, max(t) OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
			         AS before
			  FROM ($union) a) s});
	ok($back > $step / 2, "$what: the sessions saw their clock go back $back s");

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
