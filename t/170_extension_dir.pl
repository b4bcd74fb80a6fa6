# t/170_extension_dir.pl: on PostgreSQL 18+, idtypes in a directory of its own (the tree `make
# install DESTDIR=<dir>` makes, which a container image's extension directory holds) is loaded from
# there through extension_control_path and dynamic_library_path, by a server whose own directories
# have no idtypes at all.
#
# The server is this one, copied: its bin directory, its lib and share directories as links to
# the original files but idtypes' (PostgreSQL finds its directories relative to its binary, so the
# copy has no idtypes whatever the original has). Without the two settings CREATE EXTENSION
# fails. With docs/operations.md's settings for a DESTDIR tree (its example directory replaced by
# this one), and then for the layout of a CloudNativePG extension image (<image>/share/extension/,
# <image>/lib/idtypes.so): CREATE EXTENSION makes the default version, a generator of each type
# works, and the backend maps idtypes.so from there and no other; from the DESTDIR tree also
# CREATE EXTENSION ... VERSION '1.0' and ALTER EXTENSION UPDATE.
use strict;
use warnings FATAL => 'all';

use File::Basename 'dirname';
use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $major = server_major();
plan skip_all => "extension_control_path is new in PostgreSQL 18; this server is $major" if $major < 18;
my $top = source_dir();
my $tmp = PostgreSQL::Test::Utils::tempdir;
my ($bindir, $sharedir, $pkglibdir) = map { pg_dir($_) } qw(bindir sharedir pkglibdir);

# The extension's files as `make install DESTDIR=<dest>` lays them out, from where they are
# installed (or staged) here.
my $dest = "$tmp/dest";
system("mkdir -p '$dest$sharedir/extension' '$dest$pkglibdir' && cp -a "
	  . installed_path('sharedir') . '/extension/idtypes* ' . "'$dest$sharedir/extension/' && cp -a "
	  . installed_path('pkglibdir') . "/idtypes.so '$dest$pkglibdir/'") == 0
  or die 'copying the extension';
my $default = default_version("$dest$sharedir/extension");

# The server without idtypes.
my $tree = "$tmp/server";
system(
	"mkdir -p '$tree" . dirname($bindir) . "' '$tree" . dirname($sharedir) . "' '$tree" . dirname($pkglibdir) . "'
	cp -a '$bindir' '$tree$bindir' && cp -as '$pkglibdir' '$tree$pkglibdir' && cp -as '$sharedir' '$tree$sharedir'
	rm -rf '$tree$pkglibdir'/idtypes* '$tree$pkglibdir/bitcode/idtypes'* '$tree$sharedir'/extension/idtypes*") == 0
  or die 'copying the server';
chomp(my $copy_share = `'$tree$bindir/pg_config' --sharedir`);
is($copy_share . `find '$tree' -name 'idtypes*'`, "$tree$sharedir",
	'the copied server uses its own directories, which have no idtypes file');
my $node = PostgreSQL::Test::Cluster->new('extdir', install_path => dirname("$tree$bindir"));
$node->init;
$node->append_conf('postgresql.conf', "log_min_messages = warning\n");
$node->start;
my ($ret, $out, $err) = $node->psql('postgres', 'CREATE EXTENSION idtypes');
like($err, qr/is not available|could not open extension control file/,
	'without extension_control_path the copied server has no idtypes');

# setting(name, example directory, its directory here): docs/operations.md's value of the setting
# for its example directory, that directory and its server 18 replaced by this one's.
my $operations = slurp_file("$top/docs/operations.md");
sub setting
{
	my ($name, $example, $here) = @_;
	my ($v) = $operations =~ /^$name = '(.*\Q$example\E.*)'$/m;
	return $v =~ s/\Q$example\E/$here/r =~ s{/postgresql/18}{/postgresql/$major}r;
}

# loads(what, extension_control_path, dynamic_library_path, library): with those settings CREATE
# EXTENSION idtypes makes the default version, the five generators work and the backend maps
# <library>, no other idtypes.so. Leaves the node running with the database idt_dir.
sub loads
{
	my ($what, $control_path, $library_path, $library) = @_;
	$node->append_conf('postgresql.conf',
		"extension_control_path = '$control_path'\ndynamic_library_path = '$library_path'\n");
	$node->restart;
	$node->safe_psql('postgres', 'DROP DATABASE IF EXISTS idt_dir; CREATE DATABASE idt_dir');
	is( $node->safe_psql('idt_dir', q{CREATE EXTENSION idtypes;
			SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
			SELECT concat_ws(' ', length(generate_ulid()::text), length(generate_euid()::text),
			                 length(generate_ulidflake()::text), length(generate_tid()::text),
			                 length(generate_uid11()::text));} . $mapped_idtypes),
		"$default\n26 27 13 13 11\n$library",
		"$what ('$control_path', '$library_path'): CREATE EXTENSION idtypes ($default), the five "
		  . "generators work, the backend maps $library alone");
	return;
}

# The DESTDIR tree, its directories first.
my ($control_path, $library_path) = map { setting($_, '/opt/idtypes', $dest) } qw(extension_control_path dynamic_library_path);
is("$control_path $library_path", "$dest$sharedir:\$system $dest$pkglibdir:\$libdir",
	"docs/operations.md's settings for a DESTDIR tree name its directories");
loads('make install DESTDIR', $control_path, $library_path, "$dest$pkglibdir/idtypes.so");
is( $node->safe_psql('idt_dir', q{DROP EXTENSION idtypes;
		CREATE EXTENSION idtypes VERSION '1.0';
		CREATE TABLE t (id ulid DEFAULT generate_ulid(), n int);
		INSERT INTO t (n) VALUES (1);
		ALTER EXTENSION idtypes UPDATE;
		SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
		INSERT INTO t (n) VALUES (2);
		SELECT count(DISTINCT id) FROM t}),
	"$default\n2", "CREATE EXTENSION VERSION '1.0' and ALTER EXTENSION UPDATE from the DESTDIR tree");

# An extension image's layout as CloudNativePG mounts it (share/extension/, lib/ at the image's
# root, mounted at /extensions/<name>), its directories after the server's own.
my $img = "$tmp/extensions/idtypes";
system("mkdir -p '$img/share' '$img/lib' && cp -a '$dest$sharedir/extension' '$img/share/'
	cp -a '$dest$pkglibdir/idtypes.so' '$img/lib/'") == 0 or die 'the image layout';
($control_path, $library_path) = map { setting($_, '/extensions/idtypes', $img) } qw(extension_control_path dynamic_library_path);
is("$control_path $library_path", "\$system:$img/share \$libdir:$img/lib",
	"docs/operations.md's settings for an extension image name its share and lib");
loads('extension image layout', $control_path, $library_path, "$img/lib/idtypes.so");

$node->stop;
done_testing();
