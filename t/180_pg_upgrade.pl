# t/180_pg_upgrade.pl: a cluster of an older server (IDTYPES_UPGRADE_FROM: its installation, e.g.
# /usr/lib/postgresql/18, with idtypes installed there too) with tables of all five types, their
# btree/hash/BRIN indexes, a range-typed column and generator defaults is upgraded with this
# server's pg_upgrade. Before it, on the old cluster: the answers are the known ones (row count, ^@
# and <@ counts equal to the same question asked without them, the hash and BRIN lookups' counts,
# and a plan that uses each hash and BRIN index), so that comparing the two clusters cannot pass
# on an answer both get wrong. Afterwards: the same answers (the rows' checksums of the text form
# too) and again the known ones, bt_index_check clean on every btree index, the generators go on,
# and ^@ and <@ are still btree index scans. And idtypes_uuidv7, as a database of 15-17 has it (a
# default naming public.uuidv7()): after the upgrade the default makes IDs after the old ones, its
# uuidv7() shares core's per-backend clock, and the documented way out (the default set to core's,
# DROP EXTENSION) leaves core's functions alone. Skipped without IDTYPES_UPGRADE_FROM
# (test/run_matrix.py sets it for its pairs of servers).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $from = $ENV{IDTYPES_UPGRADE_FROM};
plan skip_all => 'IDTYPES_UPGRADE_FROM names no older server to upgrade from' unless $from;

# Both clusters with data checksums: pg_upgrade needs the same setting, and 18 turns them on by
# default where older servers do not.
my $old = PostgreSQL::Test::Cluster->new('old', install_path => $from);
my $new = PostgreSQL::Test::Cluster->new('new');
$_->init(extra => ['--data-checksums']) for $old, $new;
note 'old: ' . $old->config_data('--version') . '; new: ' . $new->config_data('--version');
$old->start;
$old->safe_psql('postgres', 'CREATE DATABASE idt_up');
$old->safe_psql('idt_up', q{
	CREATE EXTENSION idtypes;
	CREATE TABLE ids (
		n int PRIMARY KEY,
		u uid11 NOT NULL DEFAULT generate_xid(),
		t timeid NOT NULL DEFAULT generate_tid(),
		f ulidflake NOT NULL DEFAULT generate_ulidflake(),
		l ulid NOT NULL DEFAULT generate_ulid_monotonic(),
		e euid NOT NULL DEFAULT generate_euid(),
		r ulidrange,
		-- copies of u, l, t and e whose only index is a hash or a BRIN one
		hu uid11, hl ulid, bt timeid, be euid
	);
	INSERT INTO ids (n) SELECT generate_series(1, 20000);
	UPDATE ids SET r = ulidrange(l, l, '[]') WHERE n % 10 = 0;
	UPDATE ids SET hu = u, hl = l, bt = t, be = e;
	INSERT INTO ids VALUES (0, '11111111111', '2222222222222', '0000000000000',
		'00000000000000000000000000', '000000000000000000000000000', ulid_prefix_range('01'));
	INSERT INTO ids VALUES (-1, 'jpXCZedGfVQ', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ',
		'7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ZZZZZZZZZZZZZZZZZZZZZZZZZW3', 'empty');
	CREATE UNIQUE INDEX ids_u ON ids (u);
	CREATE UNIQUE INDEX ids_t ON ids (t);
	CREATE UNIQUE INDEX ids_f ON ids (f);
	CREATE UNIQUE INDEX ids_l ON ids (l);
	CREATE UNIQUE INDEX ids_e ON ids (e);
	CREATE INDEX ids_hl_hash ON ids USING hash (hl);
	CREATE INDEX ids_hu_hash ON ids USING hash (hu);
	CREATE INDEX ids_bt_brin ON ids USING brin (bt) WITH (pages_per_range = 4);
	CREATE INDEX ids_be_brin ON ids USING brin (be) WITH (pages_per_range = 4);
	ANALYZE ids;
	CREATE FUNCTION plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
	END $$;
	SET client_min_messages = warning;
	CREATE EXTENSION idtypes_uuidv7;
	RESET client_min_messages;
	CREATE TABLE v7 (id uuid PRIMARY KEY DEFAULT public.uuidv7(), n int);
	INSERT INTO v7 (n) SELECT generate_series(1, 1000);});

# The answers to compare: the rows' text (per column), and what each index answers.
my $answers = q{
	SELECT 'rows ' || md5(string_agg(format('%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s', n, u, t, f, l, e, r, hu, hl, bt, be),
	                                 ',' ORDER BY n)) FROM ids;
	SELECT 'count ' || count(*) FROM ids;
	-- ^@ and <@, then the same questions asked of the text and the timestamps (the "_ref" lines).
	SELECT 'prefix ' || (SELECT count(*) FROM ids WHERE u ^@ left((SELECT u::text FROM ids WHERE n = 5000), 5))
		|| ' ' || (SELECT count(*) FROM ids WHERE l ^@ left((SELECT l::text FROM ids WHERE n = 5000), 9))
		|| ' ' || (SELECT count(*) FROM ids WHERE e ^@ left((SELECT e::text FROM ids WHERE n = 5000), 9));
	SELECT 'prefix_ref ' || (SELECT count(*) FROM ids WHERE left(u::text, 5) = left((SELECT u::text FROM ids WHERE n = 5000), 5))
		|| ' ' || (SELECT count(*) FROM ids WHERE left(l::text, 9) = left((SELECT l::text FROM ids WHERE n = 5000), 9))
		|| ' ' || (SELECT count(*) FROM ids WHERE left(e::text, 9) = left((SELECT e::text FROM ids WHERE n = 5000), 9));
	SELECT 'window ' || (SELECT count(*) FROM ids WHERE t <@ timeid_time_range(tstzrange(
			(SELECT timeid_timestamp(t) FROM ids WHERE n = 1000), (SELECT timeid_timestamp(t) FROM ids WHERE n = 9000))))
		|| ' ' || (SELECT count(*) FROM ids WHERE f <@ ulidflake_time_range(tstzrange(
			(SELECT ulidflake_timestamp(f) FROM ids WHERE n = 1000), (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 9000))));
	SELECT 'window_ref ' || (SELECT count(*) FROM ids WHERE timeid_timestamp(t) >= (SELECT timeid_timestamp(t) FROM ids WHERE n = 1000)
			AND timeid_timestamp(t) < (SELECT timeid_timestamp(t) FROM ids WHERE n = 9000))
		|| ' ' || (SELECT count(*) FROM ids WHERE ulidflake_timestamp(f) >= (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 1000)
			AND ulidflake_timestamp(f) < (SELECT ulidflake_timestamp(f) FROM ids WHERE n = 9000));
	-- hu, hl, bt and be have only their hash or BRIN index: these lookups go through it.
	SET enable_seqscan = off;
	SET enable_hashjoin = off;
	SET enable_mergejoin = off;
	SELECT 'hash ' || (SELECT count(*) FROM ids a WHERE a.n % 100 = 0 AND EXISTS (SELECT 1 FROM ids b WHERE b.hl = a.l))
		|| ' ' || (SELECT count(*) FROM ids a WHERE a.n % 100 = 0 AND EXISTS (SELECT 1 FROM ids b WHERE b.hu = a.u));
	SELECT 'brin ' || (SELECT count(*) FROM ids WHERE bt >= (SELECT t FROM ids WHERE n = 3000) AND bt < (SELECT t FROM ids WHERE n = 4000))
		|| ' ' || (SELECT count(*) FROM ids WHERE be > (SELECT e FROM ids WHERE n = 19000));
	SELECT 'plan ' || string_agg(substring(line FROM 'Index Scan (?:using|on) (ids_\w+)'), ' ')
	FROM (SELECT plan_lines('SELECT 1 FROM ids WHERE hl = ''01ARZ3NDEKTSV4RRFFQ69G5FAV'''
	                  || ' UNION ALL SELECT 1 FROM ids WHERE hu = ''NQm6nKp8qFD'''
	                  || ' UNION ALL SELECT 1 FROM ids WHERE bt > ''3kxnlhr3gxq23'''
	                  || ' UNION ALL SELECT 1 FROM ids WHERE be > ''C8EE934SR007G5Q94QKKXFRFV8B''') AS line) s;
};
# known(label, answers): the answers that do not depend on the random bits, and those that must
# equal their reference line.
sub known
{
	my ($label, $got) = @_;
	my %a = map { /^(\S+) (.*)$/ } split /\n/, $got;
	ok($a{prefix} eq $a{prefix_ref} && " $a{prefix} " !~ / 0 /,
		"$label: ^@ counts ($a{prefix}) are those of left(id::text, n) = prefix ($a{prefix_ref})");
	ok($a{window} eq $a{window_ref} && $a{window} =~ /^8000 /,
		"$label: <@ window counts ($a{window}) are those of the timestamps ($a{window_ref}), 8000 timeids");
	is(join("\n", map { "$_ $a{$_}" } qw(count hash brin plan)),
		"count 20002\nhash 200 200\nbrin 1000 1000\nplan ids_hl_hash ids_hu_hash ids_bt_brin ids_be_brin",
		"$label: the row count, hash and BRIN lookups, and the plans on those indexes");
	return;
}
my $before = $old->safe_psql('idt_up', $answers);
known('old cluster', $before);

# Debian's PostgreSQL 15.20 gives every column an attribute option pg_attver that 17.11's and
# 18.6's pg_dump copy but their servers reject, so pg_upgrade from it fails on any table at all,
# with or without idtypes. That option leaves the old catalog first: this works around
# PostgreSQL, and changes nothing of idtypes' data.
$old->safe_psql('idt_up', q{UPDATE pg_attribute SET attoptions = nullif(array(SELECT o FROM unnest(attoptions) o
	WHERE o NOT LIKE 'pg_attver=%'), '{}') WHERE attoptions::text LIKE '%pg_attver=%'});
$old->stop;

chdir $new->basedir;    # pg_upgrade writes into its working directory
command_ok(
	[
		'pg_upgrade', '--no-sync',
		'-d' => $old->data_dir, '-D' => $new->data_dir,
		'-b' => $old->config_data('--bindir'), '-B' => $new->config_data('--bindir'),
		'-s' => $new->host, '-p' => $old->port, '-P' => $new->port
	],
	'pg_upgrade');
$new->start;

is($new->safe_psql('idt_up', $answers), $before,
	'the same rows, prefix and window counts, hash and BRIN answers after the upgrade');
known('new cluster', $new->safe_psql('idt_up', $answers));
my $default = default_version();
is( $new->safe_psql('idt_up', q{CREATE EXTENSION amcheck;
		SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'ids'::regclass AND a.amname = 'btree';
		SELECT extversion FROM pg_extension WHERE extname = 'idtypes'}),
	"6\n$default", "bt_index_check (heapallindexed) clean on all 6 btree indexes; the extension is $default");

# The generators go on: new rows by default, after every old one (the clock moved on).
is( $new->safe_psql('idt_up', q{INSERT INTO ids (n) SELECT generate_series(20001, 21000);
		SELECT bool_and(u > (SELECT max(u) FROM ids WHERE n BETWEEN 1 AND 20000) AND t > (SELECT max(t) FROM ids WHERE n BETWEEN 1 AND 20000)
		  AND f > (SELECT max(f) FROM ids WHERE n BETWEEN 1 AND 20000) AND l > (SELECT max(l) FROM ids WHERE n BETWEEN 1 AND 20000)
		  AND e > (SELECT max(e) FROM ids WHERE n BETWEEN 1 AND 20000)) FROM ids WHERE n > 20000}),
	't', 'generated IDs after the upgrade sort after the old ones');

# ^@ and <@ are btree index range scans on the new server.
for my $q ("u ^@ '1'", "l ^@ '01'", "e <@ euid_time_range('[2020-01-01, 2030-01-01)')",
	"t <@ timeid_time_range('[2020-01-01, 2030-01-01)')")
{
	like(
		$new->safe_psql('idt_up',
			"SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) SELECT * FROM ids WHERE $q"),
		qr/Index (Only )?Scan using ids_.*\n.*Index Cond/,
		"$q is an index range scan");
}

# idtypes_uuidv7 moved to the new server.
is( $new->safe_psql('idt_up', q{INSERT INTO v7 (n) SELECT generate_series(1001, 2000);
		SELECT pg_get_expr(d.adbin, d.adrelid) = 'public.uuidv7()' AND (SELECT bool_and(id > (SELECT id FROM v7 WHERE n <= 1000 ORDER BY id DESC LIMIT 1))
		   FROM v7 WHERE n > 1000) FROM pg_attrdef d WHERE d.adrelid = 'v7'::regclass}),
	't', 'idtypes_uuidv7: the default public.uuidv7() goes on, after the old IDs');
is( $new->safe_psql('idt_up', q{SELECT bool_and(a < b AND a > prev_b) FROM (SELECT a, b, lag(b, 1, '00000000-0000-0000-0000-000000000000')
		OVER (ORDER BY n) AS prev_b FROM (SELECT n, public.uuidv7() AS a, pg_catalog.uuidv7() AS b
		FROM generate_series(1, 20000) n) g) s}),
	't', "idtypes_uuidv7: its uuidv7() and core's share one clock (interleaved, increasing)");
is( $new->safe_psql('idt_up', q{ALTER TABLE v7 ALTER COLUMN id SET DEFAULT pg_catalog.uuidv7();
		DROP EXTENSION idtypes_uuidv7;
		INSERT INTO v7 (n) SELECT generate_series(2001, 2100);
		SELECT count(*) = 2 AND bool_and(pronamespace = 'pg_catalog'::regnamespace) FROM pg_proc WHERE proname = 'uuidv7'}),
	't', "idtypes_uuidv7 dropped after the default moved to core's: core's uuidv7() and extraction remain");

$new->stop;
done_testing();
