# t/160_compat_1_0.pl: data written by the released 1.0 library reads the same under the current
# one.
#
# The 1.0 release (the parent of the commit that added idtypes--1.1.sql, checked against
# mk/checks.mk's IDTYPES_1_0_SHA256) is built from the git history of the checkout that
# IDTYPES_SOURCE_DIR names, with this server's pg_config, and installed into a stage. A node
# running that library makes, under CREATE EXTENSION idtypes VERSION '1.0', a table with a column
# of each type from the generators (NULLs among them), range columns, btree, hash, BRIN minmax and
# minmax-multi indexes, a table range-partitioned on a ulid and one hash-partitioned on a euid; it
# saves a text dump (the rows, the partitions they are in, the order each column sorts in), a
# binary COPY and the answers of ^@, <@ and = queries. The same data directory then runs the
# current library, once on the 1.0 catalog and once after ALTER EXTENSION idtypes UPDATE, and each
# time: the text dump is byte-identical, and so is a binary COPY of the same rows; 1.0's binary
# COPY file loads into a fresh table with the same rows; every query gives 1.0's rows through each
# kind of index (the others dropped inside a transaction that rolls back, seq scan off) and
# through a seq scan, and its plan uses the index it was left; amcheck passes on every btree
# index. After the update, new rows from the generators go in and the btree indexes still check.
# Skipped without the git history, and where 1.0 does not build (PostgreSQL 18+).
use strict;
use warnings FATAL => 'all';

use Digest::SHA 'sha256_hex';
use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

# ---- The 1.0 release in git
my $top = source_dir();
# git as another user than the checkout's owner (the tests run as postgres under root).
my $git = "git -c safe.directory='*' -C '$top'";
my $toplevel = $top && `$git rev-parse --show-toplevel 2>/dev/null`;
plan skip_all => "IDTYPES_SOURCE_DIR ('$top') is no git checkout (a release archive?): 1.0 cannot be built"
  unless $toplevel;
my ($added) = reverse split /\n/, `$git log --diff-filter=A --format=%H -- idtypes--1.1.sql`;
chomp(my $release = $added ? `$git rev-parse -q --verify $added^ 2>/dev/null` : '');
plan skip_all => 'the git history does not reach 1.0 (the parent of the commit adding '
  . 'idtypes--1.1.sql): a shallow clone?'
  unless $release;
my ($frozen) = slurp_file("$top/mk/checks.mk") =~ /^IDTYPES_1_0_SHA256 *= *(\w+)/m;
my $is_release = sha256_hex(`$git show $release:idtypes--1.0.sql`) eq $frozen
  && `$git show $release:idtypes.control` =~ /^default_version = '1.0'$/m;

# ---- Build and stage 1.0: a make of its own (not the caller's job server or flags); under
# IDTYPES_CCACHE=1 (CI), which 1.0's Makefile does not know, through ccache's links.
my $tmp = PostgreSQL::Test::Utils::tempdir;
my ($src10, $stage10) = ("$tmp/src10", "$tmp/stage10");
mkdir $src10;
system("$git archive $release | tar -x -C '$src10'") == 0 or die 'git archive of 1.0';
my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
my $major = server_major();
delete local @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL DESTDIR)};
local $ENV{PATH} = "/usr/lib/ccache:$ENV{PATH}" if ($ENV{IDTYPES_CCACHE} // '') eq '1' && -d '/usr/lib/ccache';
my $make = "make -C '$src10' PG_CONFIG='$pg_config'";
my $log = "$tmp/build10.log";
if (system("$make -j2 >'$log' 2>&1") != 0)
{
	# 1.0 was built and tested on 15. On 16+ postgres.h no longer brings SET_VARSIZE and friends
	# (varatt.h); 1.1 added that include to compat.h. The same include, and nothing else, is
	# tried before giving up.
	if ($major >= 16 && slurp_file($log) =~ /VARSIZE|VARDATA|VARHDRSZ/)
	{
		my $compat = slurp_file("$src10/src/compat.h");
		$compat =~ s{(#include "nodes/miscnodes.h")}{$1\n#include "varatt.h"};
		open my $fh, '>', "$src10/src/compat.h" or die $!;
		print $fh $compat;
		close $fh;
		note "1.0 does not build as released on $major (varatt.h): building it with that include";
		system("$make -j2 >'$log' 2>&1");
	}
	if (!-f "$src10/idtypes.so")
	{
		my ($why) = slurp_file($log) =~ /^(.*error:.*)$/m;
		# It was released for 15 and builds on 17 (with varatt.h); 18 dropped pg_attribute_noreturn.
		plan skip_all => "the 1.0 release does not build on PostgreSQL $major: $why" if $major >= 18;
		diag slurp_file($log);
		BAIL_OUT("1.0 does not build on PostgreSQL $major");
	}
}
ok($is_release,
	"1.0 is commit $release: its idtypes--1.0.sql has IDTYPES_1_0_SHA256, its default version is 1.0")
  or BAIL_OUT('not the 1.0 release');
ok(system("$make install DESTDIR='$stage10' >'$tmp/install10.log' 2>&1") == 0,
	"1.0 builds on PostgreSQL $major and installs into a stage");

# loaded(node, stage): the version idtypes_version() reports if a backend maps <stage>'s
# idtypes.so and no other, else what it maps.
sub loaded
{
	my ($node, $stage) = @_;
	my ($version, @maps) = split /\n/, $node->safe_psql('postgres', "SELECT idtypes_version();\n$mapped_idtypes");
	my $want = $stage . pg_dir('pkglibdir') . '/idtypes.so';
	return @maps == 1 && $maps[0] eq $want ? $version : "maps @maps, not $want";
}

# ---- Under 1.0: the data, its dumps and its answers
my $node = idtypes_node('compat', stage => $stage10);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION idtypes VERSION '1.0';
	CREATE EXTENSION amcheck;
	-- 6000 rows 87 min apart through 2026 from the *_at generators, one in seven of each column
	-- from a generator that reads the clock (and random bits), and NULLs; ranges of each kind,
	-- empty and unbounded ones among them.
	CREATE TABLE ids (n int PRIMARY KEY, u uid11, t timeid, f ulidflake, l ulid, e euid,
	                  ur uid11range, tr timeidrange, fr ulidflakerange, lr ulidrange, er euidrange);
	INSERT INTO ids
	SELECT n, u, t, f, l, e,
	       CASE n % 4 WHEN 0 THEN uid11_time_range(w) WHEN 1 THEN uid11_prefix_range(left(u::text, 2))
	                  WHEN 2 THEN uid11range(u, NULL) ELSE 'empty' END,
	       CASE n % 4 WHEN 0 THEN timeid_time_range(w) WHEN 1 THEN timeid_prefix_range(left(t::text, 4))
	                  WHEN 2 THEN timeidrange(NULL, t, '(]') ELSE 'empty' END,
	       CASE n % 4 WHEN 0 THEN ulidflake_time_range(w) WHEN 1 THEN ulidflake_prefix_range(left(f::text, 3))
	                  WHEN 2 THEN ulidflakerange(f, f, '[]') ELSE NULL END,
	       CASE n % 4 WHEN 0 THEN ulid_time_range(w) WHEN 1 THEN ulid_prefix_range(left(l::text, 6))
	                  WHEN 2 THEN ulidrange(l, NULL) ELSE 'empty' END,
	       CASE n % 4 WHEN 0 THEN euid_time_range(w) WHEN 1 THEN euid_prefix_range(left(e::text, 5))
	                  WHEN 2 THEN euidrange(NULL, e) ELSE 'empty' END
	FROM (
		SELECT n, tstzrange(ts, ts + interval '2 hours') AS w,
		       CASE WHEN n % 101 = 0 THEN NULL WHEN n % 7 = 0 THEN generate_xid()
		            WHEN n % 7 = 1 THEN generate_uid11() ELSE generate_xid_at(ts) END AS u,
		       CASE WHEN n % 103 = 0 THEN NULL WHEN n % 7 = 2 THEN generate_tid(n % 1024)
		            ELSE generate_tid_at(ts, n % 1024) END AS t,
		       CASE WHEN n % 107 = 0 THEN NULL WHEN n % 7 = 3 THEN generate_ulidflake(n % 32)
		            WHEN n % 2 = 0 THEN generate_ulidflake_at(ts, n % 32) ELSE generate_ulidflake_at(ts) END AS f,
		       CASE WHEN n % 109 = 0 THEN NULL WHEN n % 7 = 4 THEN generate_ulid_monotonic()
		            WHEN n % 7 = 5 THEN generate_ulid() ELSE generate_ulid_at(ts) END AS l,
		       CASE WHEN n % 113 = 0 THEN NULL WHEN n % 7 = 5 THEN generate_euid(n % 32768)
		            WHEN n % 2 = 0 THEN generate_euid_at(ts, n % 32768) ELSE generate_euid_at(ts) END AS e
		FROM (SELECT n, '2026-01-01'::timestamptz + n * interval '87 min 13.123457 s' AS ts
		      FROM generate_series(1, 6000) n) s
	) s;
	DO $$
	DECLARE
		ct text;
		col text;
		multi bool := EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops');
	BEGIN
		FOREACH ct IN ARRAY '{u:uid11,t:timeid,f:ulidflake,l:ulid,e:euid}'::text[] LOOP
			col := split_part(ct, ':', 1);
			EXECUTE format('CREATE INDEX ids_%s_btree ON ids (%s)', col, col);
			EXECUTE format('CREATE INDEX ids_%s_hash ON ids USING hash (%s)', col, col);
			EXECUTE format('CREATE INDEX ids_%s_brin ON ids USING brin (%s) WITH (pages_per_range = 4)', col, col);
			IF multi THEN
				EXECUTE format('CREATE INDEX ids_%s_brinm ON ids USING brin (%s %s_minmax_multi_ops) WITH (pages_per_range = 4)',
				               col, col, split_part(ct, ':', 2));
			END IF;
		END LOOP;
	END $$;
	-- Range partitions by month of 2026 on a ulid, the rest (other times, NULL) in the default one.
	CREATE TABLE pl (id ulid, n int) PARTITION BY RANGE (id);
	DO $$
	BEGIN
		FOR i IN 1..12 LOOP
			EXECUTE format('CREATE TABLE pl_%s PARTITION OF pl FOR VALUES FROM (%L) TO (%L)', i,
			               lower(ulid_time_range(tstzrange(make_date(2026, i, 1), NULL))),
			               lower(ulid_time_range(tstzrange(make_date(2026, 1, 1) + make_interval(months => i), NULL))));
		END LOOP;
	END $$;
	CREATE TABLE pl_other PARTITION OF pl DEFAULT;
	CREATE INDEX pl_id_btree ON pl (id);
	INSERT INTO pl SELECT l, n FROM ids;
	-- Hash partitions on a euid: where a row lies is the 1.0 library's euid_hash_extended.
	CREATE TABLE ph (e euid, n int) PARTITION BY HASH (e);
	CREATE TABLE ph_0 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 0);
	CREATE TABLE ph_1 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 1);
	CREATE TABLE ph_2 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 2);
	CREATE TABLE ph_3 PARTITION OF ph FOR VALUES WITH (MODULUS 4, REMAINDER 3);
	INSERT INTO ph SELECT e, n FROM ids;
	VACUUM ANALYZE;});
is(loaded($node, $stage10), '1.0', 'the node runs the staged 1.0 library');

# The queries: name, the index (ids_<column>, or table) it should use, the kinds of index it runs
# through besides a seq scan, and the SQL. Prefixes are those of one row's IDs, the window is two
# weeks of the *_at rows.
my %prefix = split /[|\n]/, $node->safe_psql('postgres', q{
	SELECT 'u|' || left(u::text, 2) FROM ids WHERE n = 3002 UNION ALL
	SELECT 't|' || left(t::text, 3) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'f|' || left(f::text, 3) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'l|' || left(l::text, 4) FROM ids WHERE n = 3002 UNION ALL
	SELECT 'e|' || left(e::text, 3) FROM ids WHERE n = 3002});
my @brins = ('brin');
push @brins, 'brinm'
  if $node->safe_psql('postgres', "SELECT EXISTS (SELECT FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops')") eq 't';
my $window = "'[2026-03-01,2026-03-15)'";
my @queries;
for (qw(u:uid11 t:timeid f:ulidflake l:ulid e:euid))
{
	my ($c, $type) = split /:/;
	my $p = $prefix{$c};
	my $len = length $p;
	push @queries, [ "prefix_$c", "ids_$c", [ 'btree', @brins ], "SELECT n FROM ids WHERE $c ^@ '$p'" ],
	  # A right side that is not a constant: bounds from the catalog's *_prefix_range and
	  # *range_first/_last at scan start.
	  [ "prefix_stable_$c", "ids_$c", [ 'btree', @brins ], "SELECT n FROM ids WHERE $c ^@ left('$p' || now(), $len)" ],
	  [ "window_$c", "ids_$c", [ 'btree', @brins ], "SELECT n FROM ids WHERE $c <@ ${type}_time_range($window)" ],
	  [ "eq_$c", "ids_$c", [ 'btree', 'hash' ],
		"SELECT p.n, ARRAY(SELECT x.n FROM ids x WHERE x.$c = p.$c ORDER BY x.n) FROM ids p WHERE p.n % 40 = 0" ];
}
push @queries, [ 'pl_prefix', 'pl', ['btree'], "SELECT n, tableoid::regclass FROM pl WHERE id ^@ '$prefix{l}'" ],
  [ 'pl_window', 'pl', ['btree'], "SELECT n, tableoid::regclass FROM pl WHERE id <@ ulid_time_range($window)" ],
  # Each lookup goes to the partition the current euid_hash_extended names.
  [ 'ph_eq', 'ph', [], "SELECT p.n, ARRAY(SELECT h.n FROM ph h WHERE h.e = p.e ORDER BY h.n) FROM ids p WHERE p.n % 40 = 0" ];

# The probe: per index kind (and "seq"), in a transaction that drops the other kinds' indexes on
# ids and rolls back, "kind|query|row count and md5 of the rows|indexes the plan uses (am:name)".
my $probe = q{
	CREATE FUNCTION pg_temp.digest(q text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		r text;
	BEGIN
		EXECUTE format('SELECT count(*) || '' '' || md5(coalesce(string_agg(s::text, '','' ORDER BY s::text), '''')) FROM (%s) s', q) INTO r;
		RETURN r;
	END $$;
	CREATE FUNCTION pg_temp.plan_indexes(q text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		line text;
		m text[];
		found text[] := '{}';
	BEGIN
		FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
			m := regexp_match(line, '(?:Index Scan|Index Only Scan) using (\S+)|Bitmap Index Scan on (\S+)');
			IF m IS NOT NULL THEN
				found := found || (SELECT a.amname || ':' || c.relname FROM pg_class c JOIN pg_am a ON a.oid = c.relam
				                   WHERE c.relkind = 'i' AND c.relname = coalesce(m[1], m[2]));
			END IF;
		END LOOP;
		RETURN coalesce((SELECT string_agg(DISTINCT x, ' ' ORDER BY x) FROM unnest(found) x), '-');
	END $$;
};
my @kinds = ('btree', @brins, 'hash');
for my $kind ('seq', @kinds)
{
	my @drop = map { my $k = $_; map { "ids_${_}_$k" } qw(u t f l e) } grep { $_ ne $kind } @kinds;
	$probe .= "BEGIN;\n"
	  . ($kind eq 'seq'
		? "SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;\n"
		: 'DROP INDEX ' . join(', ', @drop) . ";\nSET LOCAL enable_seqscan = off;\n")
	  . "SELECT '$kind', name, pg_temp.digest(q), pg_temp.plan_indexes(q) FROM (VALUES\n"
	  . join(",\n", map { "('$_->[0]', \$q\$$_->[3]\$q\$)" } grep { my $q = $_; $kind eq 'seq' || grep { $_ eq $kind } @{ $q->[2] } } @queries)
	  . ") v(name, q);\nROLLBACK;\n";
}
# The dump: the rows, the partitions they are in, and the order each column sorts in.
my $dump = "COPY (SELECT * FROM ids ORDER BY n) TO STDOUT;
	COPY (SELECT tableoid::regclass, * FROM pl ORDER BY n) TO STDOUT;
	COPY (SELECT tableoid::regclass, * FROM ph ORDER BY n) TO STDOUT;\n"
  . join('', map { "SELECT '$_ sorts as ' || string_agg(n::text, ',' ORDER BY $_, n) FROM ids;\n" } qw(u t f l e ur tr fr lr er));

# rows(probe output): each line's kind, query and digest, without the plan.
sub rows { return join "\n", map { join '|', (split /\|/)[ 0 .. 2 ] } split /\n/, $_[0]; }
# not_as_seq(probe output): the lines whose rows are not the seq scan's.
sub not_as_seq
{
	my %seq = map { (split /\|/)[ 1, 2 ] } grep { /^seq\|/ } split /\n/, $_[0];
	return grep { my @f = split /\|/; $f[2] ne $seq{ $f[1] } } split /\n/, $_[0];
}
# plans_missing(probe output): the queries whose plan does not use the index of the kind they
# were left (ids_<column>_<kind>, or a btree index of pl's partitions).
sub plans_missing
{
	my %want = map { $_->[0] => $_->[1] } @queries;
	return grep {
		my ($kind, $name, undef, $used) = split /\|/;
		my $am = $kind eq 'brinm' ? 'brin' : $kind;
		$kind ne 'seq'
		  && !($want{$name} eq 'pl' ? " $used " =~ / btree:pl_/ : " $used " =~ / $am:$want{$name}_$kind /);
	} split /\n/, $_[0];
}

my $dump10 = $node->safe_psql('postgres', $dump);
my $text10 = $node->safe_psql('postgres', 'COPY (SELECT * FROM ids ORDER BY n) TO STDOUT');
$node->safe_psql('postgres', "\\copy (SELECT * FROM ids ORDER BY n) TO '$tmp/ids-1.0.bin' WITH (FORMAT binary)");
my $probe10 = $node->safe_psql('postgres', $probe);
my $runs = () = $probe10 =~ /\n/g;
my @empty = grep { (split /\|/)[2] =~ /^0 / } split /\n/, $probe10;
ok($runs > 50 && !not_as_seq($probe10) && !@empty,
	"under 1.0, $runs query runs (each through a seq scan and each kind of index) find rows, the same through every index")
  or diag join "\n", not_as_seq($probe10), @empty;
$node->stop;

# ---- Under the current library
$node->append_conf('postgresql.conf', stage_conf($node, $ENV{IDTYPES_EXTENSION_DESTDIR} // ''));
$node->start;
my $btrees = q{SELECT count(bt_index_check(c.oid, true)) FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace};
for my $round ('before the update', 'after the update')
{
	like(loaded($node, $ENV{IDTYPES_EXTENSION_DESTDIR} // ''), qr/^\d+\.\d+/, "$round: the current library serves the data");
	is($node->safe_psql('postgres', $dump), $dump10, "$round: the text dump (rows, partitions, sort orders) is 1.0's");
	$node->safe_psql('postgres', "\\copy (SELECT * FROM ids ORDER BY n) TO '$tmp/ids.bin' WITH (FORMAT binary)");
	ok(slurp_file("$tmp/ids.bin") eq slurp_file("$tmp/ids-1.0.bin"), "$round: a binary COPY of the rows is 1.0's");
	is($node->safe_psql('postgres', "CREATE TABLE ids_bin (LIKE ids);
		\\copy ids_bin FROM '$tmp/ids-1.0.bin' WITH (FORMAT binary)
		COPY (SELECT * FROM ids_bin ORDER BY n) TO STDOUT;
		DROP TABLE ids_bin;"), $text10, "$round: 1.0's binary COPY file loads into a fresh table as the same rows");
	my $probed = $node->safe_psql('postgres', $probe);
	is(rows($probed), rows($probe10), "$round: the $runs query runs give 1.0's rows");
	ok(!not_as_seq($probed), "$round: every index (btree, BRIN, hash) gives the seq scan's rows")
	  or diag join "\n", not_as_seq($probed);
	ok(!plans_missing($probed), "$round: each query's plan uses the index it was left")
	  or diag join "\n", plans_missing($probed);
	# ids: the key and five columns; pl: thirteen partitions.
	is($node->safe_psql('postgres', $btrees), '19', "$round: amcheck passes on the 19 btree indexes");
	last if $round =~ /after/;
	$node->safe_psql('postgres', 'ALTER EXTENSION idtypes UPDATE');
	my $default = default_version();
	is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'"),
		$default, "ALTER EXTENSION idtypes UPDATE: 1.0 -> $default");
}
is($node->safe_psql('postgres', q{
	INSERT INTO ids (n, u, t, f, l, e)
	SELECT 100000 + g, generate_xid(), generate_tid(), generate_ulidflake(), generate_ulid_monotonic(), generate_euid()
	FROM generate_series(1, 500) g;
	INSERT INTO pl SELECT l, n FROM ids WHERE n > 100000;
	INSERT INTO ph SELECT e, n FROM ids WHERE n > 100000;
	SET enable_seqscan = off;
	SELECT count(*) FILTER (WHERE EXISTS (SELECT FROM ids b WHERE b.u = a.u AND b.t = a.t AND b.n = a.n)
	                          AND EXISTS (SELECT FROM ids b WHERE b.f = a.f AND b.l = a.l AND b.e = a.e AND b.n = a.n)
	                          AND EXISTS (SELECT FROM pl WHERE pl.id = a.l AND pl.n = a.n)
	                          AND EXISTS (SELECT FROM ph WHERE ph.e = a.e AND ph.n = a.n))
	FROM ids a WHERE n > 100000;
	RESET enable_seqscan;} . "\n$btrees"), "500\n19",
	'after the update, 500 new rows are found through the indexes and partitions, and amcheck passes');
$node->stop;
done_testing();
