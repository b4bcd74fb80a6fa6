
# t/060_floor_file.pl: a damaged, far-future or unwritable floor file (idtypes_generator.floor in
# the data directory) is reported, never trusted blindly, and never crashes a generator.
#
# One node, not preloaded. Each case stops it, writes the file as a fault would leave it, starts
# it and generates in a new session:
#   huge (INT64_MAX, past every type's range), garbage, empty: a WARNING saying the reservation is
#     damaged and why; generate_xid() works, with a time within a minute of now; the file is
#     written anew and holds a reservation near the clock;
#   far future (the year 2200): a WARNING that the clock is behind the restart floor;
#     generate_xid() fails with SQLSTATE 22008 and a detail naming the restart floor (uid11 ends
#     in 2151); generate_ulid_monotonic() goes on from 2200; then the reset that
#     docs/operations.md describes (stop, remove the file, start): generate_xid() works again;
#   unwritable (mode 000): generate_xid() fails with SQLSTATE 42501 naming the file;
#     generate_ulid() (no state) still works.
# The file's reservation is "<until> <life>\n": two 20-digit numbers, until in Unix microseconds
# (src/generate/floor_file.cpp).
use strict;
use warnings FATAL => 'all';

use FindBin;
use lib $FindBin::RealBin;
use IdtypesNode;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idtypes_node('floor_file');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idtypes');
my $file = $node->data_dir . '/idtypes_generator.floor';

# put(content): the file as a fault left it, written with the server stopped.
sub put
{
	my ($content) = @_;
	$node->stop;
	open my $fh, '>', $file or die "$file: $!";
	print $fh $content;
	close $fh;
	$node->start;
	return;
}

# sql(statements): one new session with VERBOSITY verbose (SQLSTATEs shown); its stdout and its
# stderr (the WARNINGs and the ERROR), never dying on an error.
sub sql
{
	my ($statements) = @_;
	my ($ret, $out, $err) =
	  $node->psql('postgres', $statements, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return ($out, $err);
}

# reservation(): the file's reservation (until in Unix microseconds), or undef where its first 42
# bytes do not read as one.
sub reservation
{
	open my $fh, '<', $file or return undef;
	my $n = read($fh, my $head, 42);
	close $fh;
	return defined $n && $head =~ /^(\d{20}) \d{20}\n$/ ? $1 + 0 : undef;
}

my $recent_xid = 'SELECT abs(extract(epoch FROM xid_timestamp(generate_xid()) - now())) < 60';

my %cases = (
	huge => [ "09223372036854775807 00000000000000000003\n", 'its time is past the range of every ID type' ],
	garbage => [ "the floor\n", 'it does not hold a time' ],
	empty => [ '', 'it is empty' ],);
for my $c (qw(huge garbage empty))
{
	my ($content, $why) = @{ $cases{$c} };
	put($content);
	my ($out, $err) = sql($recent_xid);
	like($err,
		qr/WARNING:  XX001: the reservation in file "idtypes_generator\.floor" is damaged: \Q$why\E/,
		"$c: a WARNING that the reservation is damaged ($why)");
	is($out, 't', "$c: generate_xid() works, at the current time") or diag($err);
	my $until = reservation();
	ok(defined $until && abs($until / 1e6 - time()) < 3600,
		"$c: the file was written anew, a reservation near the clock")
	  or diag('the file reads: ' . (defined $until ? "until $until us" : slurp_file($file)));
}

# The year 2200 (7258118400 s after 1970), 500 ms into it.
put("00007258118400500000 00000000000000000003\n");
my ($out, $err) = sql('SELECT generate_xid()');
like($err, qr/WARNING:  [0-9A-Z]{5}: the server's clock is \d+ s behind the generators' restart floor/,
	'far future: a WARNING that the clock is behind the restart floor');
like($err, qr/ERROR:  22008: the current time is outside the range of type uid11/,
	'far future: generate_xid() fails with SQLSTATE 22008');
like($err, qr/ERROR:  22008: [^\n]*\nDETAIL:  [^\n]*restart floor/,
	"far future: the error's detail names the restart floor");
# The year in UTC: the floor is 2200-01-01 00:00 UTC, still 2199 in a zone west of it.
($out, $err) = sql("SELECT extract(year FROM ulid_timestamp(generate_ulid_monotonic()) AT TIME ZONE 'UTC')");
is($out, '2200', 'far future: generate_ulid_monotonic() goes on from the floor (2200)') or diag($err);
# The reset of docs/operations.md: stopped, the file removed.
$node->stop;
unlink $file or die "$file: $!";
$node->start;
($out, $err) = sql($recent_xid);
is($out, 't', 'far future: after the reset generate_xid() works at the current time') or diag($err);

# Unwritable: the server's user may not open it (the tests never run as root: initdb refuses).
$node->stop;
chmod 0000, $file or die "$file: $!";
$node->start;
($out, $err) = sql('SELECT generate_xid()');
like($err, qr/ERROR:  42501: could not open file "idtypes_generator\.floor"/,
	'unwritable: generate_xid() fails with SQLSTATE 42501 naming the file');
($out, $err) = sql('SELECT generate_ulid() IS NOT NULL');
is($out, 't', 'unwritable: generate_ulid() (no state) works') or diag($err);
chmod 0600, $file;

$node->stop;
done_testing();
