#!/usr/bin/env bash
# drivers.sh: real client drivers against a throwaway cluster: the programs in test/drivers/ and
# the snippets of docs/drivers.md.
#
# test/drivers/python (psycopg 3, text and binary format), test/drivers/node (node-postgres, type
# parsers registered by type name) and test/drivers/java (pgjdbc: PGobject, java.util.UUID) each create a table
# with all five ID types (generated defaults), insert IDs as parameters and read them back exactly,
# and query by `^@` prefix and by `<@ <type>_time_range(...)` with bound parameters in prepared
# statements under plan_cache_mode = force_generic_plan, checking the rows and that the generic
# plan is a btree index range scan. Each prints its checks; this script prints them indented, then
# "ok: <example>" or "FAILED: <example>", and exits 1 if any example failed. Then each code
# block of docs/drivers.md (python, js, java) is extracted and run as it stands, in a database of
# its own: it must exit 0 and print the ULID it inserted and the row it read back by it.
#
# Missing packages come from `scripts/install-deps.sh drivers` (as root). npm installs pg into a
# cache outside the checkout (IDTYPES_NODE_CACHE; default /var/cache/idtypes-node as root, else
# ~/.cache/idtypes-node), again only when test/drivers/node/package*.json change. Java compiles into a
# temporary directory. One cluster serves all three, on its unix socket and (pgjdbc needs TCP) on
# 127.0.0.1, at the first free port from PGPORT+60.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
examples=$top/test/drivers

nodes_workdir
. "$(dirname "$0")/../lib/report.sh"

if ! bash "$top/scripts/install-deps.sh" drivers >"$work/deps.log" 2>&1; then
	cat "$work/deps.log"
	echo "FAILED: the packages of scripts/install-deps.sh drivers are missing"
	exit 1
fi
grep -q '^install-deps.sh: installing' "$work/deps.log" && head -n 1 "$work/deps.log"

# A TCP port nothing listens on (a connect that fails), from PGPORT+60 up.
tcp_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
dir=$work/pg
port=
for ((p = PGPORT + 60; p < PGPORT + 70; p++)); do
	tcp_free "$p" || continue
	if node_start "$dir" "$p" -c listen_addresses=127.0.0.1 2>"$work/start.log"; then
		port=$p
		break
	fi
done
if [ -z "$port" ]; then
	cat "$work/start.log" 2>/dev/null || true
	echo "FAILED: no cluster started on a free port in $((PGPORT + 60))..$((PGPORT + 69))"
	exit 1
fi
for db in idt_python idt_node idt_java snip_python snip_js snip_java; do
	node_psql "$dir" "$port" -d postgres -c "CREATE DATABASE $db"
done
for db in snip_python snip_js snip_java; do
	node_psql "$dir" "$port" -d "$db" -c "CREATE EXTENSION idtypes"
done
echo "cluster: PostgreSQL $(node_psql "$dir" "$port" -d postgres -c 'SHOW server_version'), socket $dir and 127.0.0.1, port $port"

# run_example <name> <command...>: run it (environment set by the caller), show its lines indented,
# then ok or FAILED: it must exit 0, report checks and no failed one.
run_example() {
	local name=$1 start=$SECONDS status=0 log=$work/$1.log
	shift
	timeout 300 "$@" >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ "$status" -eq 0 ] && grep -q '^ok: ' "$log" && ! grep -q '^FAILED' "$log" &&
		grep -qE '^[0-9]+ checks, 0 failed$' "$log"; then
		ok "$name: $(grep -c '^ok: ' "$log") checks passed in $((SECONDS - start)) s"
	else
		bad "$name (exit status $status)"
	fi
}

# Python: Debian's psycopg is installed for the system interpreter.
python=/usr/bin/python3
if "$python" -c 'import psycopg' 2>"$work/py.log"; then
	PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=idt_python \
		run_example "python (psycopg 3, text and binary)" "$python" "$examples/python/idtypes_psycopg.py"
else
	cat "$work/py.log"
	bad "python: psycopg does not import in $python"
fi

# Node.js: node_modules in the cache, installed by `npm ci` from the checked-in lock file.
node_cache=${IDTYPES_NODE_CACHE:-}
if [ -z "$node_cache" ]; then
	if [ "$(id -u)" -eq 0 ]; then node_cache=/var/cache/idtypes-node; else node_cache=${XDG_CACHE_HOME:-$HOME/.cache}/idtypes-node; fi
fi
node_ready=
if mkdir -p "$node_cache" && (
	flock 9
	if ! cmp -s "$examples/node/package.json" "$node_cache/package.json" ||
		! cmp -s "$examples/node/package-lock.json" "$node_cache/package-lock.json" ||
		[ ! -f "$node_cache/node_modules/pg/package.json" ]; then
		start=$SECONDS
		cp "$examples/node/package.json" "$examples/node/package-lock.json" "$node_cache/" || exit 1
		(cd "$node_cache" && npm ci --no-audit --no-fund --loglevel=error) || exit 1
		echo "npm ci into $node_cache: $((SECONDS - start)) s"
	fi
) 9>"$node_cache/.lock" >"$work/npm.log" 2>&1; then
	node_ready=1
	grep '^npm ci into' "$work/npm.log" || true
else
	cat "$work/npm.log"
	bad "node: npm ci into $node_cache"
fi
if [ -n "$node_ready" ]; then
	PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=idt_node NODE_PATH=$node_cache/node_modules \
		run_example "node (pg, text, type parsers)" node "$examples/node/idtypes_pg.js"
fi

# Java: compiled into the work directory; pgjdbc connects over TCP.
jar=/usr/share/java/postgresql.jar
if javac -cp "$jar" -d "$work/java" "$examples/java/IdtypesJdbc.java" >"$work/javac.log" 2>&1; then
	PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=idt_java \
		run_example "java (pgjdbc, PGobject, UUID)" java -cp "$work/java:$jar" IdtypesJdbc
else
	cat "$work/javac.log"
	bad "java: javac"
fi

# The snippets of docs/drivers.md, as a user copies them.
# snippet <lang>: the code block fenced as ```<lang> there.
snippet() {
	awk -v fence='```'"$1" '$0 == fence { on = 1; next } on && /^```$/ { exit } on { print }' \
		"$top/docs/drivers.md"
}
# run_snippet <name> <command...>: it must exit 0 and print "<a ULID> book".
run_snippet() {
	local name=$1 log=$work/snippet.log status=0
	shift
	timeout 120 "$@" >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ "$status" -eq 0 ] && grep -qE '^[0-9A-HJKMNP-TV-Z]{26} book$' "$log"; then
		ok "docs/drivers.md, $name: the snippet inserts and finds its row"
	else
		bad "docs/drivers.md, $name (exit status $status)"
	fi
}
snippet python >"$work/snippet.py"
PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=snip_python run_snippet python "$python" "$work/snippet.py"
if [ -n "$node_ready" ]; then
	snippet js >"$work/snippet.js"
	PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=snip_js NODE_PATH=$node_cache/node_modules \
		run_snippet node node "$work/snippet.js"
fi
mkdir -p "$work/snippet-java"
snippet java >"$work/snippet-java/OrdersExample.java"
if javac -cp "$jar" -d "$work/snippet-java" "$work/snippet-java/OrdersExample.java" >"$work/javac.log" 2>&1; then
	PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=snip_java \
		run_snippet java java -cp "$work/snippet-java:$jar" OrdersExample
else
	cat "$work/javac.log"
	bad "docs/drivers.md, java: javac"
fi

finish 6
