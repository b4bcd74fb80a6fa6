# t/150_update_path.pl: each released version (1.0 and 1.1, frozen) updated with ALTER EXTENSION
# idtypes UPDATE has exactly the objects of a fresh install of the default version: every member
# of the extension, the definitions of its functions, operators, types, casts and operator
# families, and their comments. Data made under 1.0 still reads after the update. Every path
# works for a non-superuser who owns the database (idtypes is trusted).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idtypes_node('update');
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE owner LOGIN;'
	  . join('', map { "CREATE DATABASE $_ OWNER owner;" } qw(updated updated11 fresh)));
# as_owner(db, sql): the SQL as the databases' owner, not a superuser.
sub as_owner { return $node->safe_psql($_[0], $_[1], extra_params => [ '-U', 'owner' ]); }

as_owner('updated', q{
	CREATE EXTENSION idtypes VERSION '1.0';
	CREATE TABLE t (u uid11 DEFAULT generate_xid(), f ulidflake DEFAULT generate_ulidflake(),
	                t timeid DEFAULT generate_tid(), l ulid DEFAULT generate_ulid_monotonic(),
	                e euid DEFAULT generate_euid(), r ulidrange);
	INSERT INTO t (r) SELECT ulid_prefix_range('01') FROM generate_series(1, 1000);
	CREATE INDEX ON t (u); CREATE INDEX ON t USING hash (l); CREATE INDEX ON t USING brin (e);
	CREATE TABLE before AS SELECT md5(string_agg(t::text, ',' ORDER BY u)) AS sum FROM t;});
is(as_owner('updated', "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'"),
	'1.0', 'a non-superuser installs version 1.0');
as_owner('updated', 'ALTER EXTENSION idtypes UPDATE');
as_owner('updated11', "CREATE EXTENSION idtypes VERSION '1.1'; ALTER EXTENSION idtypes UPDATE");
as_owner('fresh', 'CREATE EXTENSION idtypes');
my $default = as_owner('fresh', "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'");

# Every object of the extension, with what defines it, one line each, sorted.
my $objects = q{
	WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'idtypes'),
	members AS (
		SELECT d.classid, d.objid FROM pg_depend d, ext
		WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
	)
	SELECT line FROM (
		SELECT 'member ' || pg_describe_object(classid, objid, 0)
		       || coalesce(' -- ' || obj_description(objid, classid::regclass::name), '') AS line
		FROM members
		UNION ALL
		SELECT format('function %s(%s) returns %s: %s %s strict=%s leakproof=%s parallel=%s cost=%s rows=%s support=%s src=%s',
		              p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
		              p.prokind, p.provolatile, p.proisstrict, p.proleakproof, p.proparallel, p.procost,
		              p.prorows, p.prosupport, p.prosrc)
		FROM pg_proc p JOIN members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
		UNION ALL
		SELECT format('operator %s(%s, %s) = %s restrict=%s join=%s commutator=%s negator=%s merges=%s hashes=%s',
		              o.oprname, o.oprleft::regtype, o.oprright::regtype, o.oprcode, o.oprrest, o.oprjoin,
		              o.oprcom::regoperator, o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
		FROM pg_operator o JOIN members m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
		UNION ALL
		SELECT format('type %s len=%s byval=%s align=%s storage=%s in=%s out=%s recv=%s send=%s',
		              t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage, t.typinput, t.typoutput,
		              t.typreceive, t.typsend)
		FROM pg_type t JOIN members m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
		UNION ALL
		SELECT format('cast %s -> %s via %s context %s', c.castsource::regtype, c.casttarget::regtype,
		              c.castfunc::regprocedure, c.castcontext)
		FROM pg_cast c JOIN members m ON m.classid = 'pg_cast'::regclass AND m.objid = c.oid
		UNION ALL
		SELECT 'family member ' || pg_describe_object('pg_amop'::regclass, a.oid, 0)
		FROM pg_amop a JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = a.amopfamily
		UNION ALL
		SELECT 'family member ' || pg_describe_object('pg_amproc'::regclass, a.oid, 0)
		FROM pg_amproc a JOIN members m ON m.classid = 'pg_opfamily'::regclass AND m.objid = a.amprocfamily
		UNION ALL
		SELECT format('opclass %s of %s default=%s', c.opcname, c.opcintype::regtype, c.opcdefault)
		FROM pg_opclass c JOIN members m ON m.classid = 'pg_opclass'::regclass AND m.objid = c.oid
	) s
	ORDER BY line;};
my $fresh = $node->safe_psql('fresh', $objects);
my $lines = () = $fresh =~ /\n/g;
ok($lines > 300, "a fresh $default has $lines catalog lines");
is($node->safe_psql('updated', $objects), $fresh, "1.0 updated to $default has the catalog lines of a fresh $default");
is($node->safe_psql('updated11', $objects), $fresh, "1.1 updated to $default has the catalog lines of a fresh $default");

is($node->safe_psql('updated', "SELECT (SELECT sum FROM before) = md5(string_agg(t::text, ',' ORDER BY u)) FROM t"),
	't', 'data written under 1.0 reads the same after the update');
is(as_owner('updated', 'INSERT INTO t DEFAULT VALUES RETURNING u > (SELECT max(u) FROM before, t)'),
	't', 'the generators go on after the update');

$node->stop;
done_testing();
