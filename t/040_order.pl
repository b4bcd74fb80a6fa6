
# t/040_order.pl: in WAL, the reservation that covers an ID precedes every commit that contains
# the ID. Preloaded (the reservations are WAL records), four sessions generate and commit at once
# while the backend that reserves for the cluster pauses 100 ms first
# (idtypes.test_reservation_pause_ms: the others' IDs that need its reservation wait meanwhile,
# and those that a published one covers go on and commit). Then pg_walinspect reads the WAL: for
# every commit of a transaction that stored IDs, the newest reservation before it lies after each
# of its IDs' times.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idtypes_node('order', preload => 1, streaming => 1);    # wal_level replica
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idtypes;
	CREATE EXTENSION pg_walinspect;
	CREATE TABLE o (xid bigint, kind text, us bigint);
	ALTER DATABASE postgres SET idtypes.test_reservation_pause_ms = 100;
	SELECT pg_create_physical_replication_slot('keep', true);    -- the WAL stays until read
	CREATE TABLE start AS SELECT pg_current_wal_lsn() AS lsn});

# Each batch one transaction: TIDs in bulk (they run ahead of the clock, so reservations come
# often), the others a few; each ID's time in Unix microseconds.
my $batch = q{
	INSERT INTO o SELECT pg_current_xact_id()::text::bigint, 'tid',
		(extract(epoch FROM timeid_timestamp(generate_tid())) * 1000000)::bigint FROM generate_series(1, 5000);
	INSERT INTO o SELECT pg_current_xact_id()::text::bigint, 'ulid',
		(extract(epoch FROM ulid_timestamp(generate_ulid_monotonic())) * 1000000)::bigint FROM generate_series(1, 50);
	INSERT INTO o SELECT pg_current_xact_id()::text::bigint, 'xid',
		(extract(epoch FROM xid_timestamp(generate_xid())) * 1000000)::bigint FROM generate_series(1, 50);
	COMMIT;
};
my $loop = "DO \$\$ DECLARE until_ts timestamptz := clock_timestamp() + interval '4 seconds';
	BEGIN WHILE clock_timestamp() < until_ts LOOP $batch END LOOP; END \$\$;\n";
my @sessions = map { $node->background_psql('postgres') } 1 .. 4;
$_->query_until(qr/started/, "\\echo started\n$loop\\echo done\n") for @sessions;
$_->quit for @sessions;

# To the flushed end: 15's pg_walinspect refuses an end past it ("cannot accept future end
# LSN"), and pg_current_wal_lsn() may be there; every commit above was flushed before it returned.
my ($commits, $records, $late) = split /\|/, $node->safe_psql('postgres', q{
	WITH w AS (
		SELECT start_lsn, resource_manager, record_type, xid::text::bigint AS xid,
		       substring(description FROM 'until ([0-9]+) us')::bigint AS until_us
		FROM pg_get_wal_records_info((SELECT lsn FROM start), pg_current_wal_flush_lsn())
		WHERE resource_manager = 'idtypes'
		   OR (resource_manager = 'Transaction' AND record_type LIKE 'COMMIT%')),
	-- each record with the newest reservation before it (a running max: the records in LSN order)
	covered AS (
		SELECT *, max(until_us) OVER (ORDER BY start_lsn ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS covered
		FROM w),
	newest AS (SELECT xid, max(us) AS newest FROM o GROUP BY xid),
	c AS (
		SELECT covered.covered, newest.newest
		FROM covered JOIN newest USING (xid) WHERE resource_manager = 'Transaction')
	SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM w WHERE resource_manager = 'idtypes'),
	       (SELECT count(*) FROM c WHERE covered IS NULL OR newest >= covered)});
ok($commits > 20, "$commits commits of IDs in WAL");
ok($records > 2, "$records reservations in WAL");
is($late, 0, 'every commit of IDs comes after a reservation that covers them');

$node->stop;
done_testing();
