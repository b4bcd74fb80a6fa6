#!/usr/bin/env bash
# upgrade_paths.sh: every released version of idtypes upgrades to this one with this library, and
# the names an installed database relies on stay stable (a renamed library or a dropped C symbol
# breaks databases created by an earlier release: neon issue 10397, `$libdir/ulid` missing).
#
# The released versions are those whose install script the tree keeps (idtypes--X.Y.sql, frozen
# once released: 1.0 today). Checks:
#   - the library is idtypes.so: the control file's module_pathname is '$libdir/idtypes', every
#     C function of every script names MODULE_PATHNAME (no other library), and the server maps
#     .../idtypes.so;
#   - every C symbol any script of any version names (install and update scripts) is exported by
#     this build's idtypes.so, with its pg_finfo_ record (the version-1 calling convention);
#   - pg_extension_update_paths leads from every version to the control file's default_version;
#   - for each released version, in a database of its own: CREATE EXTENSION idtypes VERSION 'X.Y'
#     with this library (each C function's symbol is looked up as it is created), a table of every
#     type filled by that version's generators and indexed, ALTER EXTENSION idtypes UPDATE, then:
#     the version is the default, the rows read as before, amcheck passes on the btree indexes,
#     every C function in the catalog names '$libdir/idtypes', and the generators go on.
# The data, indexes and plans under the released library itself (built from git) are
# compat_1_0.sh's; this test runs on every server, where 1.0's library does not build too.
#
# Run by test/run_tests.sh (PGBIN, PGHOST, PGPORT, PGUSER set; PG_CONFIG).
set -uo pipefail
trap '' PIPE
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/report.sh"
: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
cd "$top" || exit 1
work=$(mktemp -d)
dbs=()
cleanup() {
	for db in "${dbs[@]}"; do
		"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT
Q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

default=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" idtypes.control)
scripts=(idtypes--*.sql)
# Released versions: the install scripts but the default version's (unless it is released too,
# which changes nothing here: it is then created and updated to itself).
released=$(ls idtypes--*.sql | sed -n 's/^idtypes--\([0-9.]*\)\.sql$/\1/p' | grep -vx "$default" | sort -V | tr '\n' ' ')

# ---- the C symbols -----------------------------------------------------------------------------
# The symbols each script names, but those inside an IF server_version_num >= N ... END IF block of
# a newer server than this one (skip support: 18+), which this server's scripts do not create.
num=$(Q -d postgres -c "SHOW server_version_num")
python3 - "$num" "${scripts[@]}" >"$work/named" <<'PY' || bad "reading the scripts' symbols"
import re, sys
num, names = int(sys.argv[1]), set()
for path in sys.argv[2:]:
    needs = 0
    for line in open(path, encoding="utf-8"):
        m = re.search(r"IF current_setting\('server_version_num'\)::int >= (\d+) THEN", line)
        if m:
            needs = int(m.group(1))
        elif re.search(r"\bEND IF;", line):
            needs = 0
        for sym in re.findall(r"AS 'MODULE_PATHNAME', *'([A-Za-z0-9_]+)'", line):
            if num >= needs:
                names.add(sym)
print("\n".join(sorted(names)))
PY
LC_ALL=C sort -u -o "$work/named" "$work/named"
nm -D --defined-only idtypes.so | awk '$2 == "T" { print $3 }' | LC_ALL=C sort -u >"$work/exported"
missing=$(LC_ALL=C comm -23 "$work/named" "$work/exported")
nofinfo=$(sed 's/^/pg_finfo_/' "$work/named" | LC_ALL=C sort | LC_ALL=C comm -23 - "$work/exported")
n=$(wc -l <"$work/named")
if [ "$n" -gt 200 ] && [ -z "$missing$nofinfo" ]; then
	ok "idtypes.so exports each of the $n C symbols the ${#scripts[@]} scripts name on this server (${scripts[*]}), each with its pg_finfo_"
else
	echo "  not exported: $(echo $missing) $(echo $nofinfo)"
	bad "idtypes.so lacks C symbols that the scripts name ($n named; above): a database of the version naming them breaks"
fi

# ---- the library's name, and the update paths (in a database of their own) -----------------------
db=idt_paths_$$
dbs+=("$db")
Q -d postgres -c "CREATE DATABASE $db"
others=$(grep -hoE "AS '[^']*', *'[A-Za-z0-9_]+'" "${scripts[@]}" | grep -v "^AS 'MODULE_PATHNAME'," | sort -u)
maps=$(Q -d "$db" 2>&1 <<'SQL'
CREATE EXTENSION idtypes;
SELECT idtypes_version() IS NULL;
SELECT pg_backend_pid() AS pid \gset
\setenv IDT_PID :pid
\! grep -oE '/[^ ]*/idtypes[^/ ]*[.]so$' /proc/$IDT_PID/maps | sort -u
SQL
) || maps="(the server did not load it: $(echo $maps))"
Q -d "$db" -c "DROP EXTENSION idtypes"
maps=$(grep -v '^f$' <<<"$maps")
if grep -qx "module_pathname = '\$libdir/idtypes'" idtypes.control && [ -z "$others" ] &&
	[ "$(grep -c . <<<"$maps")" = 1 ] && [ "$(basename "$maps")" = idtypes.so ]; then
	ok "the library is idtypes.so: module_pathname '\$libdir/idtypes', every script names MODULE_PATHNAME, the server maps $maps"
else
	echo "  control: $(grep module_pathname idtypes.control); other libraries named: ${others:-none}; mapped: $maps"
	bad "the library's name changed (above): databases of earlier releases would not find it"
fi

stranded=$(Q -d "$db" -c "SELECT source FROM pg_extension_update_paths('idtypes')
	WHERE target = '$default' AND path IS NULL AND source <> '$default'")
if [ -z "$stranded" ] && [ -n "$released" ]; then
	ok "an update path leads from every version (${released% }) to $default"
else
	bad "no update path to $default from: $stranded (released: ${released:-none found})"
fi

# ---- each released version, created with this library and updated --------------------------------
for v in $released; do
	db=idt_up_${v//./_}_$$
	dbs+=("$db")
	Q -d postgres -c "CREATE DATABASE $db"
	if ! out=$(Q -d "$db" 2>&1 <<SQL
SET check_function_bodies = on;
CREATE EXTENSION idtypes VERSION '$v';
CREATE EXTENSION amcheck;
CREATE TABLE t (n int PRIMARY KEY, u uid11, tt timeid, f ulidflake, l ulid, e euid, r ulidrange);
INSERT INTO t SELECT g, generate_xid(), generate_tid(), generate_ulidflake(), generate_ulid_monotonic(),
                     generate_euid(), ulid_prefix_range('01') FROM generate_series(1, 2000) g;
CREATE INDEX ON t (u); CREATE INDEX ON t (tt); CREATE INDEX ON t (f); CREATE INDEX ON t (l);
CREATE INDEX ON t (e); CREATE INDEX ON t USING hash (l); CREATE INDEX ON t USING brin (e);
CREATE TABLE before AS SELECT md5(string_agg(t::text, ',' ORDER BY n)) AS sum FROM t;
SQL
	); then
		echo "$out"
		bad "CREATE EXTENSION idtypes VERSION '$v' and a table of its types, with this library (above)"
		continue
	fi
	got=$(Q -d "$db" 2>&1 <<SQL
ALTER EXTENSION idtypes UPDATE;
SELECT 'version ' || extversion FROM pg_extension WHERE extname = 'idtypes';
SELECT 'same ' || ((SELECT sum FROM before) = md5(string_agg(t::text, ',' ORDER BY n))) FROM t;
SELECT 'amcheck ' || count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 't'::regclass AND a.amname = 'btree';
SELECT 'libraries ' || string_agg(DISTINCT p.probin, ',') FROM pg_proc p JOIN pg_depend d
	ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'idtypes' WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c');
INSERT INTO t SELECT 100000 + g, generate_xid(), generate_tid(), generate_ulidflake(), generate_ulid_monotonic(),
                     generate_euid() FROM generate_series(1, 100) g;
SELECT 'new ' || count(*) FILTER (WHERE u > (SELECT max(u) FROM t WHERE n <= 2000)) FROM t WHERE n > 100000;
SQL
	) || true
	want="version $default
same true
amcheck 6
libraries \$libdir/idtypes
new 100"
	if [ "$got" = "$want" ]; then
		ok "$v created with this library, filled, updated to $default: the rows read the same, amcheck passes on 6 btree indexes, every C function names \$libdir/idtypes, the generators go on"
	else
		diff <(echo "$want") <(echo "$got") | sed 's/^/  /'
		bad "$v updated to $default with this library (< expected, > got)"
	fi
done

finish $((3 + $(wc -w <<<"$released")))
