#!/usr/bin/env bash
# floor_file.sh: a damaged, far-future or unwritable floor file (idtypes_generator.floor in the
# data directory) is reported, never trusted blindly, and never crashes a generator.
#
# One cluster, not preloaded. Each case stops it, writes the file as a fault would leave it,
# starts it and generates in a new session:
#   huge (INT64_MAX, past every type's range), garbage, empty: a WARNING saying the reservation
#     is damaged and why; generate_xid() works, with a time within a minute of now; the file is
#     written anew and reads as a reservation again;
#   far future (the year 2200): a WARNING that the clock is behind the restart floor;
#     generate_xid() fails with SQLSTATE 22008 and a detail naming the restart floor (uid11 ends
#     in 2151); generate_ulid_monotonic() goes on from 2200; then the reset that
#     docs/operations.md describes (stop, remove the file, start): generate_xid() works again;
#   unwritable (mode 000): generate_xid() fails with SQLSTATE 42501 naming the file;
#     generate_ulid() (no state) still works.
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set). Port PGPORT+65.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"

nodes_workdir
major=$(server_major)
dir=$work/n port=$((PGPORT + 65))
file=$dir/data/idtypes_generator.floor
node_start "$dir" "$port"
node_psql "$dir" "$port" -d postgres -c "CREATE EXTENSION idtypes"

# put <content, printf format>: the file as a fault left it, with the server stopped.
put() {
	node_stop "$dir" "$port"
	# shellcheck disable=SC2059
	printf "$1" >"$file"
	[ "$(id -u)" -ne 0 ] || chown postgres: "$file"
	node_start "$dir" "$port"
}

# sql <statements>: one new session; stdout and stderr together, never stopping on an error.
sql() {
	"$PGBIN/psql" -X -q -At -h "$dir" -p "$port" -U postgres -d postgres -v VERBOSITY=verbose -c "$1" 2>&1 || true
}

recent_xid='SELECT abs(extract(epoch FROM xid_timestamp(generate_xid()) - now())) < 60'
# says <pattern> <what held> <what failed>: a check of the last session's output ($out).
says() {
	if grep -q "$1" <<<"$out"; then ok "$2"; else bad "$3: $out"; fi
}
reads_as_reservation() {
	grep -Eq '^[0-9]{20} [0-9]{20}$' <(head -c 42 "$file")
}

for c in huge garbage empty; do
	case $c in
	huge) content='09223372036854775807 00000000000000000003\n' want='past the range of every ID type' ;;
	garbage) content='the floor\n' want='does not hold a time' ;;
	empty) content='' want='it is empty' ;;
	esac
	put "$content"
	out=$(sql "$recent_xid")
	says "WARNING: .*reservation in file \"idtypes_generator.floor\" is damaged: .*$want" \
		"$c: reported: $(grep -m1 WARNING <<<"$out")" "$c: no WARNING that the file is damaged ($want)"
	if [ "$(tail -n 1 <<<"$out")" = t ]; then ok "$c: generate_xid() works, at the current time"; else bad "$c: generate_xid(): $out"; fi
	if reads_as_reservation; then ok "$c: the file was written anew"; else bad "$c: the file reads: $(head -c 64 "$file" | od -c | head -3)"; fi
done

# The year 2200 (7258118400 s after 1970), 500 ms into it.
put '00007258118400500000 00000000000000000003\n'
out=$(sql "SELECT generate_xid()")
says "WARNING: .*the server's clock is [0-9]* s behind the generators' restart floor" \
	"far future: reported: $(grep -m1 WARNING <<<"$out")" "far future: no WARNING about the floor ahead of the clock"
says "ERROR: *22008: the current time is outside the range of type uid11" \
	"far future: generate_xid() fails with 22008" "far future: generate_xid()"
says "DETAIL: .*restart floor" "far future: the error's detail names the restart floor" "far future: generate_xid()'s detail"
# The year in UTC: the floor is 2200-01-01 00:00 UTC, still 2199 in the server's zone west of it.
out=$(sql "SELECT extract(year FROM ulid_timestamp(generate_ulid_monotonic()) AT TIME ZONE 'UTC')")
if [ "$(tail -n 1 <<<"$out")" = 2200 ]; then ok "far future: generate_ulid_monotonic() goes on from the floor (2200)"; else bad "far future: generate_ulid_monotonic(): $out"; fi
# The reset of docs/operations.md: stopped, the file removed.
node_stop "$dir" "$port"
rm "$file"
node_start "$dir" "$port"
out=$(sql "$recent_xid")
if [ "$out" = t ]; then ok "far future: after the reset generate_xid() works at the current time"; else bad "far future: after the reset: $out"; fi

node_stop "$dir" "$port"
chmod 000 "$file"
node_start "$dir" "$port"
out=$(sql "SELECT generate_xid()")
says "ERROR: *42501: could not open file \"idtypes_generator.floor\"" \
	"unwritable: generate_xid() fails with 42501 naming the file" "unwritable: generate_xid()"
out=$(sql "SELECT generate_ulid() IS NOT NULL")
if [ "$out" = t ]; then ok "unwritable: generate_ulid() (no state) works"; else bad "unwritable: generate_ulid(): $out"; fi
chmod 600 "$file"

echo "floor_file.sh on PostgreSQL $major"
finish $((3 * 3 + 5 + 2))
