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
# block of docs/drivers.md (python, js, java, go, rust) is extracted and run as it stands, in a
# database of its own: it must exit 0 and print the ULID it inserted and the row it read back by it.
#
# Missing packages come from `scripts/install-deps.sh drivers` (as root). Node modules and builds
# are kept between runs in caches outside the checkout (each IDTYPES_<LANG>_CACHE, else
# /var/cache/idtypes-<lang> as root, else ~/.cache/idtypes-<lang>), each under a lock: npm installs
# pg into the node cache only when test/drivers/node/package*.json change; the Go snippet (pgx v4)
# and the Rust one (tokio-postgres) are built offline from Debian's packaged sources with GOCACHE
# and CARGO_TARGET_DIR in their caches, so only a changed snippet or package compiles again (the
# seconds of a build are printed). Java compiles into a temporary directory. One cluster serves
# all, on its unix socket and (pgjdbc needs TCP) on 127.0.0.1, at the first free port from
# PGPORT+60.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
examples=$top/test/drivers

nodes_workdir
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/npm_cache.sh"
. "$(dirname "$0")/../lib/packages.sh"

group_packages drivers "the drivers' packages"

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
for db in idt_python idt_node idt_java snip_python snip_js snip_java snip_go snip_rust; do
	node_psql "$dir" "$port" -d postgres -c "CREATE DATABASE $db"
done
for db in snip_python snip_js snip_java snip_go snip_rust; do
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

# copy_if_changed <file> <copy>: a copy whose content (and so its modification time, which the
# builds below compare) changes only when the file's does.
copy_if_changed() { cmp -s "$1" "$2" || cp "$1" "$2"; }

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
node_cache=$(cache_dir node IDTYPES_NODE_CACHE)
node_ready=
if npm_ci_cached "$examples/node" "$node_cache" pg >"$work/npm.log" 2>&1; then
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

# Go: pgx v4 from Debian's golang-github-jackc-pgx-v4-dev, whose sources are a GOPATH tree
# (/usr/share/gocode) and no module: GOPATH mode, offline. Debian's go, whatever else is on PATH:
# the packaged sources are the ones Debian's compiler builds. The snippet is built in the cache
# (the same path every run: it is part of Go's cache keys) with GOCACHE there, so a second run
# compiles nothing and only links (-x shows each compiler run, for the seconds of a build).
go_cache=$(cache_dir go IDTYPES_GO_CACHE)
go_build() {
	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=$go_cache/gocache GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
		/usr/bin/go build "$@" -o "$work/snippet-go" main.go
}
snippet go >"$work/snippet.go"
if mkdir -p "$go_cache/snippet" && (
	flock 9
	copy_if_changed "$work/snippet.go" "$go_cache/snippet/main.go" || exit 1
	start=$SECONDS
	cd "$go_cache/snippet" || exit 1
	if ! go_build -x >"$work/go-build.log" 2>&1; then
		# Again without -x: the errors alone.
		go_build
		exit 1
	fi
	if grep -qE '/pkg/tool/[^/ ]+/(compile|asm|cgo) ' "$work/go-build.log"; then
		echo "go build, GOCACHE $go_cache/gocache: $((SECONDS - start)) s"
	fi
) 9>"$go_cache/.lock" >"$work/go.log" 2>&1; then
	cat "$work/go.log"
	PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=snip_go run_snippet go "$work/snippet-go"
else
	cat "$work/go.log"
	bad "docs/drivers.md, go: go build"
fi

# Rust: tokio-postgres from Debian's librust-tokio-postgres-dev, built by Debian's cargo and rustc
# (not rustup's, if that comes first on PATH) offline, with the registry replaced by Debian's
# /usr/share/cargo/registry in a CARGO_HOME of the cache. The crate is test/drivers/rust/Cargo.toml
# (its [dependencies] must be the ```toml block of docs/drivers.md) with the snippet as
# src/main.rs, both copied into the cache only when they differ (cargo compares modification times),
# and CARGO_TARGET_DIR is there too: a second run compiles nothing ("Compiling" is what cargo says
# when it does).
rust_cache=$(cache_dir rust IDTYPES_RUST_CACHE)
crate=$examples/rust
deps_of() { awk '/^\[/ { on = ($0 == "[dependencies]") } on && NF && !/^#/'; }
snippet rust >"$work/snippet.rs"
if ! cmp -s <(snippet toml | deps_of) <(deps_of <"$crate/Cargo.toml"); then
	diff <(snippet toml | deps_of) <(deps_of <"$crate/Cargo.toml") | sed 's/^/    /' || true
	bad "docs/drivers.md, rust: its [dependencies] are not those of test/drivers/rust/Cargo.toml"
elif mkdir -p "$rust_cache/crate/src" "$rust_cache/cargo-home" && (
	flock 9
	copy_if_changed "$crate/Cargo.toml" "$rust_cache/crate/Cargo.toml" || exit 1
	copy_if_changed "$work/snippet.rs" "$rust_cache/crate/src/main.rs" || exit 1
	printf '%s\n' '[source.crates-io]' 'replace-with = "debian"' '' '[source.debian]' \
		'directory = "/usr/share/cargo/registry"' >"$work/cargo-config.toml"
	copy_if_changed "$work/cargo-config.toml" "$rust_cache/cargo-home/config.toml" || exit 1
	# Resolved anew every run: after an upgrade of Debian's crates an old lock file would name
	# versions the registry no longer has. An unchanged resolution rebuilds nothing.
	rm -f "$rust_cache/crate/Cargo.lock"
	# A new rustc rebuilds everything anyway: the old build goes, or the cache would keep one per
	# compiler that sid has had.
	/usr/bin/rustc -vV >"$work/rustc-version" || exit 1
	if ! cmp -s "$work/rustc-version" "$rust_cache/rustc-version"; then
		rm -rf "$rust_cache/target" && cp "$work/rustc-version" "$rust_cache/rustc-version" || exit 1
	fi
	start=$SECONDS
	CARGO_HOME=$rust_cache/cargo-home CARGO_TARGET_DIR=$rust_cache/target RUSTC=/usr/bin/rustc \
		/usr/bin/cargo build --offline --manifest-path "$rust_cache/crate/Cargo.toml" >"$work/cargo.log" 2>&1 || {
		cat "$work/cargo.log"
		exit 1
	}
	if grep -q '^ *Compiling ' "$work/cargo.log"; then
		echo "cargo build, CARGO_TARGET_DIR $rust_cache/target: $((SECONDS - start)) s"
	fi
	# A copy to run: the next run's build may replace the cached one.
	cp "$rust_cache/target/debug/orders-example" "$work/snippet-rust"
) 9>"$rust_cache/.lock" >"$work/rust.log" 2>&1; then
	cat "$work/rust.log"
	PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=snip_rust run_snippet rust "$work/snippet-rust"
else
	cat "$work/rust.log"
	bad "docs/drivers.md, rust: cargo build"
fi

finish 8
