# t/140_dump_restore.pl: a database with all five ID types (boundary values, NULLs, 1,000 rows,
# a primary key, hash and range partitions, btree, hash and BRIN indexes) survives pg_dump and
# restore, in plain and custom format: the restored rows, their partitions and the indexes'
# answers are the same.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idtypes_node('dump');
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src TEMPLATE template0');
my $boundary = slurp_file("$FindBin::RealBin/boundary_rows.sql") =~ s/:tab\b/ids/r;
$node->safe_psql('src', qq{
	CREATE EXTENSION idtypes;
	CREATE TABLE ids (n int PRIMARY KEY, a uid11, b timeid, c ulidflake, d ulid, e euid);
	$boundary
	-- 1,000 rows of every bit pattern (md5 of i), some NULLs
	INSERT INTO ids
	SELECT 100 + i,
	       CASE WHEN i % 97 = 0 THEN NULL ELSE ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11 END,
	       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid,
	       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake,
	       CASE WHEN i % 89 = 0 THEN NULL ELSE m::uuid::ulid END,
	       m::uuid::euid
	FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, 1000) i) s;
	CREATE INDEX ids_a ON ids (a);
	CREATE INDEX ids_d ON ids USING hash (d);
	CREATE INDEX ids_e ON ids USING brin (e);
	CREATE UNIQUE INDEX ids_b ON ids (b) WHERE n >= 100;
	-- partitions keyed by the types: rows must land in the same partitions after the restore
	CREATE TABLE by_hash (id ulid, n int) PARTITION BY HASH (id);
	CREATE TABLE by_hash_0 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
	CREATE TABLE by_hash_1 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
	CREATE TABLE by_hash_2 PARTITION OF by_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
	INSERT INTO by_hash SELECT d, n FROM ids WHERE d IS NOT NULL;
	CREATE TABLE by_range (id uid11, n int) PARTITION BY RANGE (id);
	CREATE TABLE by_range_lo PARTITION OF by_range FOR VALUES FROM (MINVALUE) TO ('NQm6nKp8qFD');
	CREATE TABLE by_range_hi PARTITION OF by_range FOR VALUES FROM ('NQm6nKp8qFD') TO (MAXVALUE);
	INSERT INTO by_range SELECT a, n FROM ids WHERE a IS NOT NULL;
	CREATE TABLE by_hash_uid11 (id uid11, n int) PARTITION BY HASH (id);
	CREATE TABLE by_hash_uid11_0 PARTITION OF by_hash_uid11 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
	CREATE TABLE by_hash_uid11_1 PARTITION OF by_hash_uid11 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
	INSERT INTO by_hash_uid11 SELECT a, n FROM ids WHERE a IS NOT NULL;
	ANALYZE;});

# fingerprint(db): one line per check, the same queries in every database.
sub fingerprint
{
	my $part = q{SELECT 'part', tableoid::regclass, count(*), md5(string_agg(n::text, ',' ORDER BY n))
		FROM %s GROUP BY 2 ORDER BY tableoid::regclass::text;};
	return $node->safe_psql($_[0], q{
		SELECT 'rows', count(*), md5(string_agg(t::text, ',' ORDER BY n)) FROM ids t;
		SELECT 'bytes', count(*), md5(string_agg(concat_ws('|', a::bytea, b::bytea, c::bytea, d::bytea,
		       e::bytea), ',' ORDER BY n)) FROM ids;
		SELECT 'nulls', count(*) - count(a), count(*) - count(d),
		       count(*) FILTER (WHERE a IS NULL AND e IS NULL) FROM ids;
		SELECT 'boundary', n, a, b, c, d, e FROM ids WHERE n < 100 ORDER BY n;
		SELECT 'order', md5(string_agg(n::text, ',' ORDER BY a, n)), md5(string_agg(n::text, ',' ORDER BY e, n))
		FROM ids;}
		  . join('', map { sprintf $part, $_ } qw(by_hash by_range by_hash_uid11)) . q{
		SET enable_seqscan = off;
		SELECT 'btree', count(*) FROM ids WHERE a >= 'NQm6nKp8qFD';
		SELECT 'hash', n FROM ids WHERE d = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
		SELECT 'brin', count(*) FROM ids WHERE e >= 'G00000000000000000000000002';
		SELECT 'indexes', string_agg(indexname || ':' || regexp_replace(indexdef, '^.* USING ', ''), ' '
		       ORDER BY indexname) FROM pg_indexes WHERE tablename = 'ids';});
}

my $src = fingerprint('src');
# Not a vacuous comparison: the fingerprint saw the data.
like($src, qr/^rows\|1008\|/m, 'the source has 1,008 rows');
is(scalar(() = $src =~ /^boundary\|/mg), 8, 'the source has the 8 boundary rows');

my $dir = $node->basedir;
$node->command_ok([ 'pg_dump', '-d', 'src', '-f', "$dir/plain.sql" ], 'pg_dump, plain');
$node->command_ok([ 'pg_dump', '-d', 'src', '-Fc', '-f', "$dir/custom.dump" ], 'pg_dump, custom');
like(slurp_file("$dir/plain.sql"), qr/CREATE EXTENSION IF NOT EXISTS idtypes/, 'the dump creates the extension');
$node->safe_psql('postgres', 'CREATE DATABASE plain TEMPLATE template0; CREATE DATABASE custom TEMPLATE template0');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'plain', '-f', "$dir/plain.sql" ],
	'the plain dump restores');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'custom', "$dir/custom.dump" ], 'the custom dump restores');
is(fingerprint($_), $src, "the restore of the $_ dump matches the source") for qw(plain custom);

$node->stop;
done_testing();
