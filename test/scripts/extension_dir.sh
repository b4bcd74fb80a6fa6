#!/usr/bin/env bash
# extension_dir.sh: on PostgreSQL 18+, idtypes installed into a directory of its own (`make
# install DESTDIR=<dir>`, the tree a container image's extension directory holds) is loaded from
# there through extension_control_path and dynamic_library_path, by a server whose own directories
# have no idtypes at all.
#
# The server is this one, copied (its bin directory; its lib and share directories as links to the
# original files, without any idtypes file): PostgreSQL finds its directories relative to its
# binary, so this copy has no idtypes whatever the original has (a run as root installs into it).
# Checks: without the two settings CREATE EXTENSION fails (the server's own directories really lack
# it); with extension_control_path = '<dir>/usr/share/postgresql/NN:$system' and
# dynamic_library_path = '<dir>/usr/lib/postgresql/NN/lib:$libdir' (the control file's
# module_pathname stays '$libdir/idtypes'), CREATE EXTENSION, a generator of each type,
# CREATE EXTENSION ... VERSION '1.0' and ALTER EXTENSION UPDATE to 1.1, and the backend maps
# idtypes.so from <dir> (/proc/<pid>/maps), no other.
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
# Exit status 77 before PostgreSQL 18, which has no extension_control_path.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"

major=$(server_major)
if [ "$major" -lt 18 ]; then
	echo "extension_control_path is new in PostgreSQL 18; this server is $major"
	exit 77
fi
# The stage of a staged run is not what this test is about: only <dir> and $system here.
unset IDTYPES_EXTENSION_DESTDIR

nodes_workdir
pg_config=${PG_CONFIG:-$PGBIN/pg_config}
bindir=$("$pg_config" --bindir)
sharedir=$("$pg_config" --sharedir)
pkglibdir=$("$pg_config" --pkglibdir)

# The extension, into <dir> only.
dest=$work/dest
if ! make -C "$top" --no-print-directory install DESTDIR="$dest" PG_CONFIG="$pg_config" >"$work/install.log" 2>&1; then
	cat "$work/install.log"
	echo "FAILED: make install DESTDIR=$dest"
	exit 1
fi
for f in "$dest$sharedir/extension/idtypes.control" "$dest$sharedir/extension/idtypes--1.0.sql" \
	"$dest$pkglibdir/idtypes.so"; do
	[ -f "$f" ] || bad "make install DESTDIR put no ${f#"$dest"} into $dest"
done

# The server without idtypes: a copy of bin (the binaries find lib and share relative to
# themselves), links to everything else but idtypes.
tree=$work/server
mkdir -p "$tree$(dirname "$bindir")" "$tree$(dirname "$sharedir")" "$tree$(dirname "$pkglibdir")"
cp -a "$bindir" "$tree$bindir"
cp -as "$pkglibdir" "$tree$pkglibdir"
cp -as "$sharedir" "$tree$sharedir"
rm -rf "$tree$pkglibdir"/idtypes* "$tree$pkglibdir/bitcode/idtypes"* "$tree$sharedir"/extension/idtypes*
export PGBIN=$tree$bindir
if [ "$("$PGBIN/pg_config" --sharedir)" != "$tree$sharedir" ]; then
	echo "FAILED: the copied server does not use its own share directory: $("$PGBIN/pg_config" --sharedir)"
	exit 1
fi
left=$(find "$tree" -name 'idtypes*')
[ -z "$left" ] || bad "the copied server still has idtypes files: $left"

dir=$work/pg
port=$((PGPORT + 40))
psql_at() { "$PGBIN/psql" -X -q -At -h "$dir" -p "$port" -U postgres "$@"; }

# 1. Without the settings: the server's own directories have no idtypes.
node_start "$dir" "$port"
if out=$(psql_at -d postgres -c 'CREATE EXTENSION idtypes' 2>&1); then
	bad "CREATE EXTENSION idtypes succeeded on the copied server without extension_control_path"
	psql_at -d postgres -c 'DROP EXTENSION idtypes' >/dev/null 2>&1 || true
elif grep -q 'is not available\|could not open extension control file' <<<"$out"; then
	ok "without extension_control_path the server has no idtypes ($(head -n 1 <<<"$out"))"
else
	bad "CREATE EXTENSION without the settings failed otherwise: $out"
fi
node_stop "$dir" "$port"

# 2. With them.
control_path="$dest$sharedir:\$system"
library_path="$dest$pkglibdir:\$libdir"
node_start "$dir" "$port" -c "extension_control_path=$control_path" -c "dynamic_library_path=$library_path"
echo "extension_control_path = '$control_path'"
echo "dynamic_library_path = '$library_path'"

psql_at -d postgres -c 'CREATE DATABASE idt_dir'
if out=$(psql_at -d idt_dir -v ON_ERROR_STOP=1 2>&1 <<'SQL'
CREATE EXTENSION idtypes;
SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
SELECT concat_ws(' ', length(generate_ulid()::text), length(generate_euid()::text),
                 length(generate_ulidflake()::text), length(generate_tid()::text),
                 length(generate_uid11()::text));
SELECT pg_backend_pid() AS pid \gset
\setenv IDT_PID :pid
\! grep -oE '/[^ ]*/idtypes[.]so$' /proc/$IDT_PID/maps | sort -u
SQL
); then
	mapfile -t lines <<<"$out"
	[ "${lines[0]:-}" = 1.1 ] && ok "CREATE EXTENSION idtypes from $dest (version 1.1)" ||
		bad "CREATE EXTENSION: version '${lines[0]:-}', expected 1.1"
	[ "${lines[1]:-}" = "26 27 13 13 11" ] && ok "the five generators work (text lengths ${lines[1]})" ||
		bad "generators: text lengths '${lines[1]:-}', expected '26 27 13 13 11'"
	if [ "${lines[2]:-}" = "$dest$pkglibdir/idtypes.so" ] && [ ${#lines[@]} -eq 3 ]; then
		ok "the backend maps $dest$pkglibdir/idtypes.so, no other idtypes.so"
	else
		bad "the backend maps '${lines[*]:2}', expected $dest$pkglibdir/idtypes.so"
	fi
else
	bad "CREATE EXTENSION idtypes with the settings: $out"
fi

# The update path, from the released 1.0 script in <dir>.
if out=$(psql_at -d idt_dir -v ON_ERROR_STOP=1 2>&1 <<'SQL'
DROP EXTENSION idtypes;
CREATE EXTENSION idtypes VERSION '1.0';
CREATE TABLE t (id ulid DEFAULT generate_ulid(), n int);
INSERT INTO t (n) VALUES (1);
ALTER EXTENSION idtypes UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
INSERT INTO t (n) VALUES (2);
SELECT count(DISTINCT id) FROM t;
SQL
); then
	[ "$out" = "$(printf '1.1\n2')" ] && ok "CREATE EXTENSION VERSION '1.0' and ALTER EXTENSION UPDATE to 1.1 from $dest" ||
		bad "update path: got '$out', expected 1.1 and 2 rows"
else
	bad "the update path from 1.0: $out"
fi
psql_at -d postgres -c 'DROP DATABASE idt_dir'

finish 5
