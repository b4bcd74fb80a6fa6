# t/100_logical_replication.pl: the five types through logical replication, in text and binary
# mode.
#
# A publisher (wal_level = logical) with two tables of all five types, column defaults from the
# generators, a btree index on every ID column and a ulidrange column: `ids` has the ulid as
# primary key (replica identity default), `ids_full` has no key (REPLICA IDENTITY FULL: the
# subscriber finds the old row by the types' equality, on 16+ through their btree indexes). A
# subscriber has two databases with the same tables: sub_text subscribes in text mode, sub_bin
# with `binary = true` (on 15 binary mode applies to the streamed changes, on 16+ to the initial
# copy as well).
#
# After the initial copy and again after thousands of inserts, updates (of ID columns, the
# primary key included) and deletes, made partly by two sessions at once in small transactions,
# each subscriber database has exactly the publisher's rows (md5 of the ordered rows). Catch-up
# is awaited: every table of a subscription ready, then the publisher's walsender for it at or
# past the publisher's WAL position. The subscriber logs no ERROR once the subscriptions exist.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 3000;
my $pub = idtypes_node('publisher', streaming => 1);    # wal senders
$pub->append_conf('postgresql.conf', "wal_level = logical\n");
$pub->start;
my $sub = idtypes_node('subscriber');
$sub->append_conf('postgresql.conf',
	"max_logical_replication_workers = 8\nmax_worker_processes = 16\nwal_retrieve_retry_interval = 200ms\n");
$sub->start;
my $major = $pub->pg_version->major;

my $schema = qq{
	CREATE EXTENSION idtypes;
	@{[ ids_table('ids') ]}
	CREATE TABLE ids_full (
		x uid11 NOT NULL DEFAULT generate_xid(),
		t timeid NOT NULL DEFAULT generate_tid(),
		f ulidflake NOT NULL DEFAULT generate_ulidflake(),
		u ulid NOT NULL DEFAULT generate_ulid(),
		e euid DEFAULT generate_euid(77),
		r ulidrange,
		n int NOT NULL);
	ALTER TABLE ids_full REPLICA IDENTITY FULL;
	CREATE INDEX ids_full_x ON ids_full (x);
	CREATE INDEX ids_full_u ON ids_full (u);
	CREATE INDEX ids_full_e ON ids_full (e);
};
my %subs = (sub_text => 's_text', sub_bin => 's_bin');
$pub->safe_psql('postgres', 'CREATE DATABASE pub');
$pub->safe_psql('pub', $schema);
for my $db (sort keys %subs)
{
	$sub->safe_psql('postgres', "CREATE DATABASE $db");
	$sub->safe_psql($db, $schema);
}

# The rows of the initial copy: defaults, times spread over hours, NULLs, empty ranges.
my $half = $rows / 2;
$pub->safe_psql('pub', qq{
	INSERT INTO ids (n) SELECT g FROM generate_series(1, $half) g;
	INSERT INTO ids (u, x, t, f, e, r, n)
	SELECT generate_ulid_at(ts), generate_xid_at(ts), generate_tid_at(ts), generate_ulidflake_at(ts, 9),
	       CASE WHEN g % 10 = 0 THEN NULL ELSE generate_euid_at(ts, g % 100) END,
	       CASE g % 3 WHEN 0 THEN NULL WHEN 1 THEN ulid_time_range(tstzrange(ts, ts + interval '1 minute'))
	                  ELSE 'empty' END,
	       g
	FROM generate_series($half + 1, $rows) g,
	     LATERAL (SELECT now() - g * interval '1 second' AS ts) s;
	INSERT INTO ids_full (n, r)
	SELECT g, CASE WHEN g % 2 = 0 THEN ulid_prefix_range(left(generate_ulid()::text, 6)) END
	FROM generate_series(1, $rows) g;
	CREATE PUBLICATION idt_pub FOR TABLE ids, ids_full;});

my $log_from = -s $sub->logfile;
my $conn = $pub->connstr . ' dbname=pub';
$sub->safe_psql('sub_text', "CREATE SUBSCRIPTION s_text CONNECTION '$conn' PUBLICATION idt_pub");
$sub->safe_psql('sub_bin',
	"CREATE SUBSCRIPTION s_bin CONNECTION '$conn' PUBLICATION idt_pub WITH (binary = true)");
is($sub->safe_psql('sub_bin', "SELECT subbinary FROM pg_subscription WHERE subname = 's_bin'"),
	't', 's_bin is a binary subscription');

# caught_up(): every table of each subscription copied, then each walsender at or past the
# publisher's WAL position.
sub caught_up
{
	for my $db (sort keys %subs)
	{
		$sub->poll_query_until($db,
			"SELECT count(*) = 2 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel")
		  or die "$db: initial copy not finished: "
		  . $sub->safe_psql($db,
			"SELECT string_agg(srrelid::regclass || '=' || srsubstate, ' ') FROM pg_subscription_rel");
		$pub->wait_for_catchup($subs{$db});
	}
	return;
}

# compare(when): every subscriber database has the publisher's rows in both tables.
sub compare
{
	my ($when) = @_;
	for my $db (sort keys %subs)
	{
		for my $t ([ 'ids', 'u' ], [ 'ids_full', 'q::text' ])
		{
			my $digest = "SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY $t->[1]), ''))
				|| ':' || count(*) FROM $t->[0] q";
			my $want = $pub->safe_psql('pub', $digest);
			is($sub->safe_psql($db, $digest), $want, "$when: $db.$t->[0] has the publisher's rows");
		}
	}
	return;
}

caught_up();
compare('initial copy');

# Two sessions of 500 small transactions each (two inserts, two updates and a delete), then bulk
# statements (3,000 inserts, updates of about 40% of the rows, deletes of about 20%).
my $loop = q{DO $$ DECLARE k int; BEGIN FOR i IN 1..500 LOOP
	k := 1 + (random() * 8999)::int;
	INSERT INTO ids (n, r) VALUES (100000 + k, ulid_time_range(tstzrange(now(), now() + interval '1 s')));
	INSERT INTO ids_full (n) VALUES (100000 + k);
	UPDATE ids SET x = generate_xid(), t = generate_tid(), r = NULL WHERE n = k;
	UPDATE ids_full SET u = generate_ulid(), f = generate_ulidflake() WHERE n = k + 1;
	DELETE FROM ids_full WHERE n = k + 2;
	COMMIT;
END LOOP; END $$;
};
my @sessions = map { $pub->background_psql('pub') } 1 .. 2;
$_->query_until(qr/started/, "\\echo started\n$loop\\echo done\n") for @sessions;
$_->quit for @sessions;
my $more = $rows + 3000;
$pub->safe_psql('pub', qq{
	INSERT INTO ids (n) SELECT g FROM generate_series($rows + 1, $more) g;
	INSERT INTO ids_full (n, e) SELECT g, generate_euid(g % 300) FROM generate_series($rows + 1, $more) g;
	UPDATE ids SET u = generate_ulid_monotonic() WHERE n % 10 = 3;
	UPDATE ids SET x = generate_xid(), t = generate_tid(), f = generate_ulidflake(), e = NULL WHERE n % 10 = 5;
	UPDATE ids SET e = generate_euid(), r = ulid_prefix_range(left(u::text, 4)) WHERE n % 10 = 6;
	UPDATE ids_full SET x = generate_xid(), e = NULL, r = 'empty' WHERE n % 10 = 7;
	DELETE FROM ids WHERE n % 10 = 9;
	DELETE FROM ids_full WHERE n % 10 = 1;});
caught_up();
compare('after inserts, updates and deletes');

for my $db (sort keys %subs)
{
	# 16+: the apply worker finds REPLICA IDENTITY FULL rows through a btree index on an ID column.
	if ($major >= 16)
	{
		ok( $sub->poll_query_until($db,
				"SELECT coalesce(sum(idx_scan), 0) > 0 FROM pg_stat_user_indexes WHERE relname = 'ids_full'"),
			"$db: the apply worker looked up ids_full (replica identity full) rows through an ID index");
	}
	# The subscriber's IDs are the publisher's, so its unique index holds.
	is($sub->safe_psql($db, 'SELECT count(*) = count(DISTINCT u) FROM ids'),
		't', "$db: primary key values distinct");
}

my $log = PostgreSQL::Test::Utils::slurp_file($sub->logfile);
my @errors = grep { /ERROR|FATAL/ && !/terminating logical replication worker due to administrator command/ }
  split /\n/, substr($log, $log_from);
is(join("\n", @errors[ 0 .. ($#errors < 9 ? $#errors : 9) ]), '', 'the subscriber logged no error');

$sub->stop;
$pub->stop;
done_testing();
