
# t/IdtypesNode.pm: what the TAP tests share: nodes that load the extension (from the server's
# directories, or from a `make install DESTDIR=...` stage named by IDTYPES_EXTENSION_DESTDIR),
# clocks a test steps (libfaketime), and the monotonic generators' IDs collected in a table.
package IdtypesNode;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use File::Basename 'dirname';
use FindBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(idtypes_node faketime_lib set_clock start_at stop_node kinds generate_into
  repeats not_after run_rows ids_table installed_path stage_conf pg_dir server_major
  default_version $mapped_idtypes source_dir);

# The monotonic generators (a kind and its call): the ones with a floor.
my @kinds = (
	[ xid => 'generate_xid()::text' ],
	[ tid => 'generate_tid()::text' ],
	[ ulidflake => 'generate_ulidflake()::text' ],
	[ ulid => 'generate_ulid_monotonic()::text' ],
	[ euid => 'generate_euid()::text' ],);

sub kinds { return map { $_->[0] } @kinds; }

# ids_table(name): the SQL of a table of the five types that the tests between servers move
# around: a ulid primary key, the other four types with generated defaults and a btree index each,
# a ulidrange column and a counter.
sub ids_table
{
	my ($t) = @_;
	return qq{CREATE TABLE $t (
		u ulid PRIMARY KEY DEFAULT generate_ulid_monotonic(),
		x uid11 NOT NULL DEFAULT generate_xid(),
		t timeid NOT NULL DEFAULT generate_tid(),
		f ulidflake NOT NULL DEFAULT generate_ulidflake(),
		e euid DEFAULT generate_euid(),
		r ulidrange,
		n int NOT NULL);\n} . join('', map { "CREATE INDEX ${t}_$_ ON $t ($_);\n" } qw(x t f e));
}

# idtypes_node(name, preload => 0|1, streaming => 0|1, stage => dir): a new node, initialized,
# not started, with idtypes preloaded or not (from that stage: see configure). Its clock (see
# set_clock) is read from <basedir>/clock.
sub idtypes_node
{
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => $opts{streaming} ? 1 : 0);
	configure($node, %opts);
	return $node;
}

# configure(node, preload => 0|1, stage => dir): the settings every node of these tests has (a
# standby made from a backup too: its postgresql.conf is the primary's, so this is idempotent).
# The extension comes from the stage IDTYPES_EXTENSION_DESTDIR names, or the one given.
sub configure
{
	my ($node, %opts) = @_;
	my $conf = "log_min_messages = warning\n";
	my $stage = exists $opts{stage} ? $opts{stage} : $ENV{IDTYPES_EXTENSION_DESTDIR};
	my $preload = 'idtypes';
	if ($stage)
	{
		# The staged library by its path, which CREATE EXTENSION's $libdir/idtypes then finds as
		# the same file (not another one installed in the server's directory).
		$preload = "$stage" . pg_dir('pkglibdir') . '/idtypes';
		$conf .= stage_conf($node, $stage);
	}
	$conf .= "shared_preload_libraries = '$preload'\n" if $opts{preload};
	$node->append_conf('postgresql.conf', $conf);
	return;
}

# stage_conf(node, stage): the settings that load the extension from a `make install DESTDIR=`
# stage, or ('') from the server's own directories again.
sub stage_conf
{
	my ($node, $stage) = @_;
	my %settings = map { (split /\t/)[0] => 1 } split /\n/,
	  `@{[ $node->installed_command('postgres') ]} --describe-config`;
	return "extension_destdir = '$stage'\n" if $settings{extension_destdir};
	return "extension_control_path = '\$system'\ndynamic_library_path = '\$libdir'\n" unless $stage;
	return "extension_control_path = '$stage" . pg_dir('sharedir') . ":\$system'\n"
	  . "dynamic_library_path = '$stage" . pg_dir('pkglibdir') . ":\$libdir'\n";
}

# pg_dir(what): a directory pg_config names (sharedir, pkglibdir).
sub pg_dir
{
	my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
	chomp(my $dir = `$pg_config --$_[0]`);
	return $dir;
}

# server_major(): the major of the server PG_CONFIG (else pg_config on PATH) names, before any node
# starts: for a test that applies to some majors only.
sub server_major
{
	my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
	my ($major) = `$pg_config --version` =~ /PostgreSQL (\d+)/
	  or BAIL_OUT("$pg_config --version names no PostgreSQL major");
	return $major;
}

# installed_path(what): a directory of pg_config (sharedir, pkglibdir) as the nodes find the
# extension's files there: below the stage IDTYPES_EXTENSION_DESTDIR names, if any.
sub installed_path { return ($ENV{IDTYPES_EXTENSION_DESTDIR} // '') . pg_dir($_[0]); }

# default_version([extension directory]): the default_version of the control file there (the
# one the nodes find by default).
sub default_version
{
	my $dir = $_[0] // installed_path('sharedir') . '/extension';
	my ($v) = slurp_file("$dir/idtypes.control") =~ /^default_version = '(.*)'$/m;
	return $v;
}

# SQL (a superuser's): each idtypes library the backend has mapped, by its path, one a line.
our $mapped_idtypes = q{SELECT DISTINCT substring(l FROM '(/\S*/idtypes[^/ ]*[.]so)$')
	FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), '\n') l WHERE l ~ 'idtypes[^/ ]*[.]so$'};

# source_dir(): the checkout the tests were copied from (IDTYPES_SOURCE_DIR, set by make test),
# else the one they run in.
sub source_dir { return $ENV{IDTYPES_SOURCE_DIR} // "$FindBin::RealBin/.."; }

# The path of libfaketime, or undef.
sub faketime_lib
{
	for my $f (glob('/usr/lib/*/faketime/libfaketime.so.1'), '/usr/lib/faketime/libfaketime.so.1')
	{
		return $f if -f $f;
	}
	return undef;
}

# set_clock(node, offset): the node's clock, e.g. '+20' (seconds ahead) or '+0'; written by a
# rename (no process reads it half written). The node's processes read it again at most once a
# second (start_at), so the step is theirs when this returns, 1.1 s later.
# Under test/dates.sh every process's clock is already moved by IDTYPES_FAKETIME_BASE seconds (this
# one's too): an offset in seconds is counted from there.
sub set_clock
{
	my ($node, $offset) = @_;
	$offset = sprintf('%+d', $ENV{IDTYPES_FAKETIME_BASE} + $offset)
	  if $ENV{IDTYPES_FAKETIME_BASE} && $offset =~ /^[+-]?\d+$/;
	my $file = $node->basedir . '/clock';
	open my $fh, '>', "$file.new" or die "$file.new: $!";
	print $fh "$offset\n";
	close $fh;
	rename "$file.new", $file or die "rename $file: $!";
	select(undef, undef, undef, 1.1);
	return;
}

# start_at(node, [restart => 1]): start (or restart) the node under libfaketime, its clock
# read from its clock file (+0 if none); the monotonic clock stays true, as a real step leaves it.
sub start_at
{
	my ($node, %opts) = @_;
	set_clock($node, '+0') unless -f $node->basedir . '/clock';
	local $ENV{LD_PRELOAD} = faketime_lib();
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $node->basedir . '/clock';
	# Read again at most once a second, not at every time call: libfaketime reads the file with
	# fopen(), also inside the server's signal handlers, which call the clock (PostgreSQL's
	# SIGALRM handler does); landing on a malloc() of the interrupted code, that aborted a backend
	# ("malloc(): mismatching next->prev_size") once and hung three sessions once, in about 25
	# runs of t/010 under load.
	local $ENV{FAKETIME_CACHE_DURATION} = 1;
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = 1;
	delete local $ENV{FAKETIME};
	$opts{restart} ? $node->restart : $node->start;
	return;
}

# stop_node(node, mode): stop it (immediate: a crash), and forget that it ran.
sub stop_node
{
	my ($node, $mode) = @_;
	$node->stop($mode // 'fast');
	return;
}

# generate_into(node, run, rows, [sessions]): each kind's generator makes <rows> IDs into table
# ids (kind, id, run) in one statement per kind and session, each its own transaction; with
# sessions > 1, that many sessions at once. The table is made if missing.
sub generate_into
{
	my ($node, $run, $rows, $sessions) = @_;
	$sessions //= 1;
	$node->safe_psql('postgres',
		'CREATE TABLE IF NOT EXISTS ids (kind text NOT NULL, id text COLLATE "C" NOT NULL, run int NOT NULL)');
	my $sql = join '',
	  map { "INSERT INTO ids SELECT '$_->[0]', $_->[1], $run FROM generate_series(1, $rows);\n" }
	  @kinds;
	if ($sessions == 1)
	{
		$node->safe_psql('postgres', $sql);
		return;
	}
	my @psqls = map { $node->background_psql('postgres') } 1 .. $sessions;
	$_->query_until(qr/started/, "\\echo started\n$sql\\echo done\n") for @psqls;
	# Done within 150 s (seconds here), or what the sessions wait for is shown before the harness's
	# own timeout (180 s) ends the test without it.
	my $deadline = time() + 150;
	my $want = $rows * @kinds * $sessions;
	my $have;
	while (($have = $node->safe_psql('postgres', "SELECT count(*) FROM ids WHERE run = $run")) < $want
		&& time() < $deadline)
	{
		select(undef, undef, undef, 0.2);
	}
	if ($have < $want)
	{
		diag $node->safe_psql('postgres',
			"SELECT pid, wait_event_type, wait_event, now() - query_start, left(query, 70)
			 FROM pg_stat_activity WHERE backend_type = 'client backend'");
		diag 'floor file: ' . PostgreSQL::Test::Utils::slurp_file($node->data_dir . '/idtypes_generator.floor');
		diag 'server clock: ' . $node->safe_psql('postgres', 'SELECT clock_timestamp()');
		die "generate_into: $have of $want IDs after 150 s";
	}
	$_->quit for @psqls;
	return;
}

# run_rows(node, run): the rows of run, per kind ("kind n, ...").
sub run_rows
{
	my ($node, $run) = @_;
	return $node->safe_psql('postgres',
		"SELECT string_agg(kind || ' ' || n, ', ' ORDER BY kind) FROM
		   (SELECT kind, count(*) AS n FROM ids WHERE run = $run GROUP BY kind) s");
}

# repeats(node): per kind, how many IDs of table ids occur more than once ("kind n, ...").
sub repeats
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		"SELECT coalesce(string_agg(kind || ' ' || n, ', ' ORDER BY kind), 'none') FROM
		   (SELECT kind, count(*) - count(DISTINCT id) AS n FROM ids GROUP BY kind) s WHERE n > 0");
}

# not_after(node, run): the kinds whose IDs of run are not all after every earlier run's
# (text order is each type's order).
sub not_after
{
	my ($node, $run) = @_;
	return $node->safe_psql('postgres',
		"SELECT coalesce(string_agg(kind, ', ' ORDER BY kind), 'none') FROM
		   (SELECT kind FROM ids GROUP BY kind
		    HAVING min(id) FILTER (WHERE run = $run) <= max(id) FILTER (WHERE run < $run)) s");
}

1;
