# t/150_update_path.pl: every released version of idtypes updates to the default one with this
# library, and the names an installed database relies on stay stable (a renamed library or a
# dropped C symbol breaks the databases of an earlier release).
#   - The library is idtypes.so: the control file's module_pathname is '$libdir/idtypes', every
#     C function of every script names MODULE_PATHNAME, and a backend maps .../idtypes.so alone.
#   - That idtypes.so exports every C symbol any install or update script names (on this server:
#     blocks for newer servers left out), each with its pg_finfo_ record.
#   - pg_extension_update_paths leads from every version to the default.
#   - Each released version (its install script is in the tree: 1.0 and 1.1, frozen), created by
#     a non-superuser who owns the database (idtypes is trusted) with this library, filled by its
#     generators and indexed, then updated: the version is the default; the catalog has exactly
#     the objects of a fresh install (every member, the definitions of its functions, operators,
#     types, casts and operator families, and their comments); the rows read as before; amcheck
#     passes on the btree indexes; every C function names $libdir/idtypes; the generators go on.
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idtypes_node('update');
$node->start;
my $ext = installed_path('sharedir') . '/extension';
my @scripts = sort glob("$ext/idtypes--*.sql");
my ($control) = slurp_file("$ext/idtypes.control");
my ($default) = $control =~ /^default_version = '(.*)'$/m;
my @released = grep { $_ ne $default } map { m{/idtypes--([0-9.]+)\.sql$} ? $1 : () } @scripts;
ok(@released >= 2, "released versions beside $default: @released");

# ---- the library and its symbols
my $num = $node->safe_psql('postgres', 'SHOW server_version_num');
my (%named, @others);
for my $script (@scripts)
{
	my $needs = 0;
	for (split /\n/, slurp_file($script))
	{
		if (/IF current_setting\('server_version_num'\)::int >= (\d+) THEN/) { $needs = $1; }
		elsif (/\bEND IF;/) { $needs = 0; }
		push @others, $1 while /AS '((?!MODULE_PATHNAME')[^']*)', *'\w+'/g;
		next if $num < $needs;
		$named{$1} = 1 while /AS 'MODULE_PATHNAME', *'(\w+)'/g;
	}
}
my @maps = $node->safe_psql('postgres', "CREATE EXTENSION idtypes;
	SELECT idtypes_version() IS NULL;
	$mapped_idtypes;
	DROP EXTENSION idtypes;") =~ m{^(/.*)$}mg;
ok($control =~ /^module_pathname = '\$libdir\/idtypes'$/m && !@others && @maps == 1
	  && $maps[0] =~ m{/idtypes\.so$},
	"the library is idtypes.so: module_pathname '\$libdir/idtypes', every script names "
	  . "MODULE_PATHNAME, a backend maps @maps (other libraries named: @others)");
my %exported = map { (split ' ')[2] => 1 } grep { / T / } split /\n/, `nm -D --defined-only $maps[0]`;
my @missing = grep { !$exported{$_} || !$exported{"pg_finfo_$_"} } sort keys %named;
ok(keys %named > 200 && !@missing,
	scalar(keys %named) . ' C symbols named by ' . scalar(@scripts) . ' scripts, each exported '
	  . "with its pg_finfo_ (missing: @missing)");
is($node->safe_psql('postgres', "SELECT string_agg(source, ' ') FROM pg_extension_update_paths('idtypes')
	WHERE target = '$default' AND path IS NULL AND source <> '$default'"),
	'', "an update path leads from every version to $default");

# ---- each released version, created by the database's owner and updated
$node->safe_psql('postgres', 'CREATE ROLE owner LOGIN; CREATE DATABASE fresh OWNER owner;'
	  . join('', map { "CREATE DATABASE v$_ OWNER owner;" } map { s/\./_/r } @released));
# as_owner(db, sql): the SQL as the databases' owner, not a superuser.
sub as_owner { return $node->safe_psql($_[0], $_[1], extra_params => [ '-U', 'owner' ]); }
as_owner('fresh', 'CREATE EXTENSION idtypes');

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

for my $v (@released)
{
	my $db = 'v' . ($v =~ s/\./_/r);
	as_owner($db, qq{SET check_function_bodies = on;
		CREATE EXTENSION idtypes VERSION '$v';
		CREATE TABLE t (n int PRIMARY KEY, u uid11, tt timeid, f ulidflake, l ulid, e euid, r ulidrange);
		INSERT INTO t SELECT g, generate_xid(), generate_tid(), generate_ulidflake(),
			generate_ulid_monotonic(), generate_euid(), ulid_prefix_range('01') FROM generate_series(1, 2000) g;
		CREATE INDEX ON t (u); CREATE INDEX ON t (tt); CREATE INDEX ON t (f); CREATE INDEX ON t (l);
		CREATE INDEX ON t (e); CREATE INDEX ON t USING hash (l); CREATE INDEX ON t USING brin (e);
		CREATE TABLE before AS SELECT md5(string_agg(t::text, ',' ORDER BY n)) AS sum FROM t;
		ALTER EXTENSION idtypes UPDATE;});
	is($node->safe_psql($db, $objects), $fresh, "$v updated has the catalog lines of a fresh $default");
	is($node->safe_psql($db, q{CREATE EXTENSION amcheck;
		SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
		SELECT (SELECT sum FROM before) = md5(string_agg(t::text, ',' ORDER BY n)) FROM t;
		SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 't'::regclass AND a.amname = 'btree';
		SELECT string_agg(DISTINCT p.probin, ',') FROM pg_proc p JOIN pg_depend d
			ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
			JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'idtypes' WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')}),
		"$default\nt\n6\n\$libdir/idtypes",
		"$v updated to $default: the rows read the same, amcheck passes on 6 btree indexes, "
		  . 'every C function names $libdir/idtypes');
	is(as_owner($db, q{INSERT INTO t SELECT 100000 + g, generate_xid(), generate_tid(), generate_ulidflake(),
			generate_ulid_monotonic(), generate_euid() FROM generate_series(1, 100) g;
		SELECT count(*) FILTER (WHERE u > (SELECT max(u) FROM t WHERE n <= 2000) AND l > (SELECT max(l)
			FROM t WHERE n <= 2000)) FROM t WHERE n > 100000}),
		'100', "$v updated: the generators go on after the last IDs made before");
}

$node->stop;
done_testing();
