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
# CREATE EXTENSION ... VERSION '1.0' and ALTER EXTENSION UPDATE to the default, and the backend maps
# idtypes.so from <dir> (/proc/<pid>/maps), no other. The same files in the layout of a
# CloudNativePG extension image (<image>/share/extension/, <image>/lib/idtypes.so) with its settings
# ('$system:<image>/share', '$libdir:<image>/lib'): CREATE EXTENSION, the generators, the mapping.
# The settings are those of docs/operations.md's "Extension directories", its example directories
# replaced by these.
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
# Exit status 77 before PostgreSQL 18, which has no extension_control_path.
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
default_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$top/idtypes.control")
. "$here/../lib/nodes.sh"
. "$here/../lib/report.sh"
. "$here/../lib/bare_server.sh"

control_path_required

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

# The server without idtypes (test/lib/bare_server.sh): PGBIN becomes the copy's.
bare_server "$work/server" || exit 1

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

# loads <what> <extension_control_path> <dynamic_library_path> <library>: with those settings
# CREATE EXTENSION idtypes makes the control file's default version, the five generators work and the backend maps
# <library>, no other idtypes.so. Leaves the server running with the database idt_dir.
loads() {
	local what=$1 lines
	node_stop "$dir" "$port"
	node_start "$dir" "$port" -c "extension_control_path=$2" -c "dynamic_library_path=$3"
	echo "$what: extension_control_path = '$2', dynamic_library_path = '$3'"
	psql_at -d postgres -c 'DROP DATABASE IF EXISTS idt_dir' 2>/dev/null
	psql_at -d postgres -c 'CREATE DATABASE idt_dir'
	if ! out=$(psql_at -d idt_dir -v ON_ERROR_STOP=1 2>&1 <<'SQL'
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
		bad "$what: CREATE EXTENSION idtypes: $out"
		return
	fi
	mapfile -t lines <<<"$out"
	if [ "${lines[0]:-}" = "$default_version" ] && [ "${lines[1]:-}" = "26 27 13 13 11" ]; then
		ok "$what: CREATE EXTENSION idtypes ($default_version), the five generators work"
	else
		bad "$what: version '${lines[0]:-}' and text lengths '${lines[1]:-}', expected $default_version and '26 27 13 13 11'"
	fi
	if [ "${lines[2]:-}" = "$4" ] && [ ${#lines[@]} -eq 3 ]; then
		ok "$what: the backend maps $4, no other idtypes.so"
	else
		bad "$what: the backend maps '${lines[*]:2}', expected $4"
	fi
}

# 2. The DESTDIR tree, its directories first.
control_path=$(operations_setting extension_control_path /opt/idtypes "$dest")
library_path=$(operations_setting dynamic_library_path /opt/idtypes "$dest")
if [ "$control_path" = "$dest$sharedir:\$system" ] && [ "$library_path" = "$dest$pkglibdir:\$libdir" ]; then
	ok "docs/operations.md's settings for a DESTDIR tree name its directories"
else
	bad "docs/operations.md's settings for a DESTDIR tree are '$control_path' and '$library_path', expected '$dest$sharedir:\$system' and '$dest$pkglibdir:\$libdir'"
fi
loads "make install DESTDIR" "$control_path" "$library_path" "$dest$pkglibdir/idtypes.so"

# The update path, from the released 1.0 script in the tree.
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
	if [ "$out" = "$(printf '%s\n2' "$default_version")" ]; then
		ok "CREATE EXTENSION VERSION '1.0' and ALTER EXTENSION UPDATE to $default_version from the DESTDIR tree"
	else
		bad "update path: got '$out', expected $default_version and 2 rows"
	fi
else
	bad "the update path from 1.0: $out"
fi

# 3. An extension image's layout as CloudNativePG mounts it (share/extension/, lib/ at the image's
# root, mounted at /extensions/<name>), its directories after the server's own.
img=$work/extensions/idtypes
mkdir -p "$img/share" "$img/lib"
cp -a "$dest$sharedir/extension" "$img/share/"
cp -a "$dest$pkglibdir/idtypes.so" "$img/lib/"
control_path=$(operations_setting extension_control_path /extensions/idtypes "$img")
library_path=$(operations_setting dynamic_library_path /extensions/idtypes "$img")
if [ "$control_path" = "\$system:$img/share" ] && [ "$library_path" = "\$libdir:$img/lib" ]; then
	ok "docs/operations.md's settings for an extension image name its share and lib"
else
	bad "docs/operations.md's settings for an extension image are '$control_path' and '$library_path', expected '\$system:$img/share' and '\$libdir:$img/lib'"
fi
loads "extension image layout" "$control_path" "$library_path" "$img/lib/idtypes.so"
psql_at -d postgres -c 'DROP DATABASE idt_dir'

finish 8
