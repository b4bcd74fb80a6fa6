
# t/080_slots.pl: no monotonic generator repeats an ID when one session follows another in the
# same backend slot, after the first ran ahead of the clock or the clock stepped back between
# them. Without shared state (15-16 not preloaded) each backend has its own state, and the
# backend's slot keeps the IDs of live backends apart (the default TID clock id is the slot; xid
# and ulidflake carry it in their counter fields): a new backend in a slot must go on after every
# ID of the backends that had the slot before it. Per scope (not preloaded: 'backend' on 15-16,
# 'cluster' on 17+; preloaded: 'cluster'), with no other backend alive when a session starts (no
# autovacuum, no logical replication launcher, and each session's backend gone before the next
# one connects) so that the two sessions of a check get the same slot (checked: their default
# TID clock ids are equal where it is the slot):
#   run ahead: the clock stands still (libfaketime); session A makes 300,000 TIDs into a table
#     (TID runs up to a second ahead of its clock: these, 0.3 s), one a microsecond from the
#     clock on; session B makes 10,000 (any at or before A's last equals one of A's); no TID of
#     B equals one of A, and all of B's sort after A's;
#   clock step: session A generates every monotonic kind for 0.5 s, the clock steps back 4 s,
#     session B does the same; per kind no ID twice, and B's IDs all sort after A's;
#   crash in place: the same, but session A is killed with SIGKILL just after the step (the
#     server restarts in place, its checkpoint behind A's IDs, and A never says its slot is free).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use POSIX 'strftime';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

plan skip_all => 'libfaketime is not installed (Debian package libfaketime)' unless faketime_lib();

# The monotonic kinds (name, type, call).
my @kinds = (
	[ xid => 'uid11', 'generate_xid()' ],
	[ tid => 'timeid', 'generate_tid()' ],
	[ ulidflake => 'ulidflake', 'generate_ulidflake()' ],
	[ ulidflake_sid => 'ulidflake', 'generate_ulidflake(5)' ],
	[ ulid_mono => 'ulid', 'generate_ulid_monotonic()' ],
	[ euid => 'euid', 'generate_euid()' ],
	[ euid_ext => 'euid', 'generate_euid(77)' ],);

# gone(pid): once the backend of that pid has exited (and left its slot).
sub gone
{
	my ($pid) = @_;
	for (1 .. 2000)
	{
		return if !kill(0, $pid);
		sleep 0.01;
	}
	die "backend $pid did not exit";
}

# sql(node, sql): its output, in a session of its own whose backend has exited on return: no
# backend lingers into the next session, which (per-backend state) then takes the same slot.
sub sql
{
	my ($node, $sql) = @_;
	my ($pid, $out) = split /\n/, $node->safe_psql('postgres', "SELECT pg_backend_pid();\n$sql"), 2;
	gone($pid);
	return $out // '';
}

# generating(session): SQL that generates every kind for 0.5 s, in batches, then prints the
# session's default TID clock id.
sub generating
{
	my ($s) = @_;
	my $inserts = join '',
	  map { "INSERT INTO c_$_->[0] SELECT $s, $_->[2] FROM generate_series(1, 200);\n" } @kinds;
	return qq{DO \$\$
DECLARE
	until_ts timestamptz := clock_timestamp() + interval '0.5 seconds';
BEGIN
	WHILE clock_timestamp() < until_ts LOOP
		$inserts
	END LOOP;
END \$\$;
SELECT timeid_clock_id(generate_tid());
};
}

# same_slot(label, clock id A, clock id B, scope): with per-backend state the default clock id is
# the slot: the sessions must have had the same one for the checks to mean anything.
sub same_slot
{
	my ($label, $clock_a, $clock_b, $scope) = @_;
	ok($scope eq 'cluster' || $clock_a eq $clock_b,
		"$label: the sessions had clock ids $clock_a and $clock_b ($scope scope)");
	return;
}

# check_kinds(node, label, session A, session B): per kind, no ID twice (of all sessions so far),
# B made some, and B's IDs all sort after A's.
sub check_kinds
{
	my ($node, $label, $sa, $sb) = @_;
	my %row = map { (split /\|/)[0] => $_ } split /\n/, sql(
		$node,
		join ' UNION ALL ',
		map {
			"SELECT '$_->[0]', count(*) FILTER (WHERE s IN ($sa, $sb)),
			        count(*) = count(DISTINCT id) AND count(*) FILTER (WHERE s = $sb) > 0,
			        coalesce(min(id) FILTER (WHERE s = $sb) > max(id) FILTER (WHERE s = $sa), false)
			 FROM c_$_->[0]"
		} @kinds);
	for my $k (map { $_->[0] } @kinds)
	{
		my (undef, $n, $distinct, $after) = split /\|/, $row{$k} // '|0|f|f';
		is($distinct, 't', "$label: $k: $n IDs, none twice");
		is($after, 't', "$label: $k: session B's IDs all sort after session A's");
	}
	return;
}

sub round
{
	my ($preload) = @_;
	my $what = $preload ? 'preloaded' : 'not preloaded';
	my $node = idtypes_node("slots_$preload", preload => $preload);
	# No process of its own with a slot: no autovacuum launcher, and no logical replication
	# launcher, which takes one anew after the crash and would race session B for the lowest free
	# one. A crash restarts the server in place (PostgreSQL::Test::Cluster turns that off).
	$node->append_conf('postgresql.conf',
		"autovacuum = off\nmax_logical_replication_workers = 0\nrestart_after_crash = on\n");
	start_at($node);
	my $scope = sql(
		$node,
		join '',
		"CREATE EXTENSION idtypes;
		 CREATE TABLE ta (t timeid NOT NULL); CREATE TABLE tb (t timeid NOT NULL);\n",
		(map { "CREATE TABLE c_$_->[0] (s int NOT NULL, id $_->[1] NOT NULL);\n" } @kinds),
		'SELECT idtypes_generator_scope()');

	# Run ahead, then a new session in the same slot. The clock stands still (a few seconds
	# ahead), so that session A's TIDs run ahead of it whatever this machine's speed: its 300,000
	# TIDs, every microsecond from the clock on, end 0.3 s after it. A session B that started
	# anywhere from the clock to A's last TID (as the clock and the other kinds would have it)
	# would make one of them. A's TIDs are what this check costs (more under libfaketime, which
	# wraps every time call).
	set_clock($node, strftime('%Y-%m-%d %H:%M:%S', localtime(time() + 3)));
	my ($clock_a, $ahead) = split / /, sql($node, q{
		INSERT INTO ta SELECT generate_tid() FROM generate_series(1, 300000);
		SELECT min(timeid_clock_id(t)) || ' '
		       || round(extract(epoch FROM timeid_timestamp(max(t)) - clock_timestamp()), 3)
		  FROM ta});
	my $clock_b = sql($node, 'INSERT INTO tb SELECT generate_tid() FROM generate_series(1, 10000);
		SELECT timeid_clock_id(t) FROM tb LIMIT 1');
	set_clock($node, '+0');
	same_slot("$what: run ahead ($ahead s at the end of session A)", $clock_a, $clock_b, $scope);
	my ($equal, $after) = split /\|/, sql($node,
		'SELECT (SELECT count(*) FROM ta JOIN tb USING (t)),
		        (SELECT min(t) FROM tb) > (SELECT max(t) FROM ta)');
	is($equal, '0', "$what: run ahead: no TID of session B equals one of session A");
	is($after, 't', "$what: run ahead: session B's TIDs all sort after session A's");

	# The clock steps back 4 s between two sessions.
	$clock_a = sql($node, generating(1));
	set_clock($node, '-4');
	$clock_b = sql($node, generating(2));
	set_clock($node, '+0');
	same_slot("$what: clock step", $clock_a, $clock_b, $scope);
	check_kinds($node, "$what: clock step", 1, 2);

	# The clock steps back 4 s while session A sleeps after its IDs, then A is killed: the server
	# restarts in place, its checkpoint behind A's IDs too, so that only the reservation covers
	# them.
	my $psql = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $psql->query_safe('SELECT pg_backend_pid()');
	my $out = $psql->query_until(qr/generated\n/,
		generating(3) . "\\echo generated\nSELECT pg_sleep(60);\n");
	($clock_a) = $out =~ /^(\d+)$/m;
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE pid = $pid AND wait_event = 'PgSleep'")
	  or die 'session A does not sleep';
	set_clock($node, '-4');
	kill 'KILL', $pid;
	eval { $psql->quit };
	my $back;
	for (1 .. 200)
	{
		# A psql that cannot connect yet (the server restarting) may exit before it reads the
		# statement from its stdin, and IPC::Run then dies of the broken pipe: another try.
		my ($ret, $p) = eval { $node->psql('postgres', 'SELECT pg_backend_pid()') };
		$back = $p if defined $ret && $ret == 0 && $p =~ /^\d+$/;
		last if $back;
		sleep 0.2;
	}
	die 'the server did not come back after the crash' unless $back;
	gone($back);
	$clock_b = sql($node, generating(4));
	set_clock($node, '+0');
	same_slot("$what: crash in place", $clock_a // 'none', $clock_b, $scope);
	check_kinds($node, "$what: crash in place", 3, 4);
	$node->stop;
	return;
}

round(0);
round(1);

done_testing();
