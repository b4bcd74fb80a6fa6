#!/usr/bin/env bash
# orm_node.sh: Node.js ORMs and query builders with idtypes, against a throwaway cluster: the
# programs in test/orm/node/ (each with the package in clients/node/ where it has a helper) and the
# snippets of docs/orms.md.
#
# test/orm/node: drizzle.mjs (drizzle-kit generate and push emit the ID types, a second run finds
# no change; insert, get by a string id, prefix, window, FK join), kysely.mjs (the same through
# the schema builder, plus introspection), arrays.mjs (idtypes/pg's registerTypes on a pg.Client
# and a pg.Pool, Kysely and TypeORM array columns: lists of strings), binary.mjs (idtypes/pg's
# binary parsers: about 3,600 values of each type and arrays of them, the server's bytes read as
# its text; queries with binary: true through node-postgres, which alters bytes that are not
# UTF-8: each value reads as its text or fails with the error naming that), typeorm.mjs (initialize() refuses the types without
# registerIdtypes(), synchronize makes them and a second sync plans nothing, a text declaration
# plans DROP COLUMN), prisma.ts (Prisma 7's client with @prisma/adapter-pg over a hand-edited
# migration; `prisma generate` runs offline with PRISMA_SCHEMA_ENGINE_BINARY set, as Prisma's CLI
# otherwise downloads a schema engine it does not need for generate) and sequelize.mjs (as it
# stands). Each checks that prefix and window queries return the rows plain SQL returns, by an
# index scan (EXPLAIN of the SQL the ORM sends), and the LIKE helpers (like(), 'like', Like(),
# Op.startsWith) where the server has LIKE on the ID types. Each prints its checks (shown
# indented); this script prints "ok: <program>" or "FAILED: <program>". tsc --strict type-checks
# the package's hand-written declarations (test/orm/node/types.ts) and the doc's TypeScript.
# All run at once, each in a directory and a database of its own; the reports follow in order.
#
# Then the code blocks of the doc ($doc below: docs/orms.md) are extracted and run as they
# stand, one ORM at a time in a directory and a database of its own: a block is the fenced block
# of a language (ts, prisma, sql, sh) whose first line is a comment naming its file
# (`// main.ts`, `-- migration.sql`, `# run.sh`), under the heading of its ORM. Each ORM's
# run.sh is run (bash, node_modules/.bin on PATH): it must exit 0, print a ULID, and print last
# the line that the blocks' last `// prints: ...` comment shows.
#
# versions.mjs runs with each of test/orm/node/versions/{lowest,latest} (the lowest versions of
# Drizzle ORM, Kysely and TypeORM that clients/node's peer ranges accept, and the latest on npm;
# a library whose engines the node here does not meet prints a "skip:" line), each in a project
# where the package is installed by the doc's install-node.sh (npm install --install-links) as it
# stands; it fails if the package ends up a link. Where the node meets Kysely's engines (0.29:
# Node.js 22), kysely.mjs runs there too, with that set's Kysely (0.27.0, 0.29.9).
#
# All other packages come from one lock file, test/orm/node/package-lock.json, installed by `npm ci`
# (install scripts skipped: Prisma's would download engines) into a cache outside the checkout
# (IDTYPES_ORM_NODE_CACHE, else /var/cache/idtypes-orm-node as root, else
# ~/.cache/idtypes-orm-node), under a lock, only when test/orm/node/package*.json change.
# A library whose Node.js requirement the installed node does not meet (Prisma 7 and TypeORM 1.1:
# 20.19; Kysely 0.28: 20; Debian 12's nodejs is 18.19) is skipped with a "skip:" line, and the
# others still run; node itself comes from `scripts/install-deps.sh clients` when missing.
#
# Run by test/run_tests.sh (PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
programs=$top/test/orm/node
doc=$top/docs/orms.md

nodes_workdir
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/npm_cache.sh"
. "$(dirname "$0")/../lib/packages.sh"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	group_packages clients "node and npm"
fi
node_version=$(node -p process.versions.node)
echo "node $node_version, npm $(npm --version)"

# needs <library> <major.minor>: whether the node here is at least that; else prints the skip.
skipped=0
needs() {
	if [ "$(printf '%s\n' "$2" "$node_version" | sort -V | head -n 1)" = "$2" ]; then
		return 0
	fi
	echo "skip: $1 (needs Node.js >= $2; this is $node_version): runs with a newer nodejs (Debian 13's 20.19, or NodeSource's) first on PATH"
	skipped=$((skipped + 1))
	return 1
}

cache=$(cache_dir orm-node IDTYPES_ORM_NODE_CACHE)
if ! npm_ci_cached "$programs" "$cache" drizzle-orm --ignore-scripts >"$work/npm.log" 2>&1; then
	cat "$work/npm.log"
	echo "FAILED: npm ci into $cache"
	exit 1
fi
cat "$work/npm.log"

# app_dir <dir>: a directory for programs, whose node_modules links the cache's packages and holds
# a copy of clients/node as `idtypes` (ES modules resolve from the importing file's directory,
# not NODE_PATH; a copy, not a link, so that its own imports find the cache's packages).
app_dir() {
	mkdir -p "$1/node_modules"
	local f
	for f in "$cache"/node_modules/* "$cache"/node_modules/.bin; do
		ln -s "$f" "$1/node_modules/"
	done
	cp -r "$top/clients/node" "$1/node_modules/idtypes"
}

port=$((PGPORT + 70))
dir=$work/pg
if ! node_start "$dir" "$port" 2>"$work/start.log"; then
	cat "$work/start.log"
	echo "FAILED: no cluster started on port $port"
	exit 1
fi
echo "cluster: PostgreSQL $(node_psql "$dir" "$port" -d postgres -c 'SHOW server_version'), socket $dir, port $port"
newdb() {
	node_psql "$dir" "$port" -d postgres -c "CREATE DATABASE $1"
	node_psql "$dir" "$port" -d "$1" -c "CREATE EXTENSION idtypes"
}
# Prisma's CLI: no engine download (generate needs none), no update check.
export PRISMA_SCHEMA_ENGINE_BINARY=/bin/false CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1
export PGHOST=$dir PGPORT=$port PGUSER=postgres

# run_example <name> <database> <command...>: in its database, show its lines indented, then ok
# or FAILED: it must exit 0 and end with "N checks, 0 failed".
run_example() {
	local name=$1 db=$2 start=$SECONDS status=0 log=$work/$1.log
	shift 2
	(cd "$work/app" && PGDATABASE=$db timeout 300 "$@") >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ "$status" -eq 0 ] && grep -qE '^[0-9]+ checks, 0 failed$' "$log" && ! grep -q '^FAILED' "$log"; then
		ok "$name: $(grep -c '^ok: ' "$log") checks passed in $((SECONDS - start)) s"
	else
		bad "$name (exit status $status)"
	fi
}

# launch <name> <database> <function> [arguments...]: the database made (unless "-"), then the
# function run in the background into its own report (all run at once; report prints them in order).
launched=()
launch() {
	local name=$1
	[ "$2" = - ] || newdb "$2"
	shift 2
	"$@" >"$work/report-$name" 2>&1 &
	launched+=("$name:$!")
}
report() {
	local j
	for j in "${launched[@]}"; do
		wait "${j#*:}" || true
		cat "$work/report-${j%%:*}"
		tally "$work/report-${j%%:*}"
	done
}

app_dir "$work/app"
cp -r "$programs"/*.mjs "$programs"/*.ts "$programs/prisma" "$work/app/"
tsx=$work/app/node_modules/.bin/tsx
run_prisma() {
	if (cd "$work/app" && node_modules/.bin/prisma generate --schema prisma/schema.prisma) >"$work/prisma-generate.log" 2>&1; then
		run_example prisma orm_prisma "$tsx" prisma.ts
	else
		sed 's/^/    /' "$work/prisma-generate.log"
		bad "prisma: prisma generate"
	fi
}
ran=0
if needs "Drizzle" 18.0; then
	launch drizzle orm_drizzle run_example drizzle orm_drizzle "$tsx" drizzle.mjs
	ran=$((ran + 1))
fi
if needs "Kysely 0.28" 20.0; then
	launch kysely orm_kysely run_example kysely orm_kysely node kysely.mjs
	ran=$((ran + 1))
fi
if needs "TypeORM 1.1" 20.19; then
	launch typeorm orm_typeorm run_example typeorm orm_typeorm node typeorm.mjs
	ran=$((ran + 1))
fi
if needs "arrays (Kysely 0.28, TypeORM 1.1)" 20.19; then
	launch arrays orm_arrays run_example arrays orm_arrays node arrays.mjs
	ran=$((ran + 1))
fi
if needs "binary (node-postgres)" 18.0; then
	launch binary orm_binary run_example binary orm_binary node binary.mjs
	ran=$((ran + 1))
fi
if needs "Prisma 7" 20.19; then
	launch prisma orm_prisma run_prisma
	ran=$((ran + 1))
fi
if needs "Sequelize" 18.0; then
	launch sequelize orm_sequelize run_example sequelize orm_sequelize node sequelize.mjs
	ran=$((ran + 1))
fi

# The versions at both ends: versions/<set>/package.json (the lowest versions the peer ranges
# accept, the latest on npm) installed by `npm ci` into a cache of its own, copied into a
# project, the package installed there by the doc's install-node.sh as it stands (npm from its
# cache, --prefer-offline), then versions.mjs.
. "$(dirname "$0")/../lib/docblocks.sh"
mkdir -p "$work/docblocks"
doc_blocks "$doc" "$work/docblocks" >/dev/null
run_versions() {
	local set=$1 d=$work/v-$1 log=$work/v-$1.log status=0 start=$SECONDS vcache
	vcache=$(cache_dir "orm-node-$set" "IDTYPES_ORM_NODE_CACHE_${set^^}")
	if ! npm_ci_cached "$programs/versions/$set" "$vcache" drizzle-orm >"$log" 2>&1; then
		sed 's/^/    /' "$log"
		bad "versions, $set: npm ci into $vcache"
		return
	fi
	mkdir -p "$d/clients"
	cp "$programs/versions/$set/package.json" "$programs/versions/$set/package-lock.json" "$programs"/common.mjs "$programs"/versions.mjs "$d/"
	cp -r "$top/clients/node" "$d/clients/node"
	(flock 9 && cp -a "$vcache/node_modules" "$d/") 9>"$vcache/.lock"
	(cd "$d" && npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false npm_config_loglevel=error \
		timeout 300 bash -e "$work/docblocks/install-node.sh") >>"$log" 2>&1 || status=$?
	if [ "$status" -ne 0 ] || [ -L "$d/node_modules/idtypes" ] || [ ! -f "$d/node_modules/idtypes/package.json" ]; then
		sed 's/^/    /' "$log"
		bad "versions, $set: the doc's install-node.sh (exit status $status) did not copy the package into node_modules"
		return
	fi
	echo "    install-node.sh: $((SECONDS - start)) s"
	# What the doc says of npm ls after it: the copy is valid given the same flag, and "invalid"
	# (ELSPROBLEMS) without it.
	if (cd "$d" && npm ls --install-links idtypes) >"$d/ls.log" 2>&1 && grep -q 'idtypes@' "$d/ls.log" &&
		! grep -q invalid "$d/ls.log" && ! (cd "$d" && npm ls idtypes) >"$d/ls-plain.log" 2>&1 &&
		grep -q invalid "$d/ls-plain.log"; then
		echo "    npm ls --install-links: valid; npm ls: invalid, as docs/orms.md says"
	else
		sed 's/^/    /' "$d/ls.log" "$d/ls-plain.log"
		bad "versions, $set: npm ls after the doc's install-node.sh is not what docs/orms.md says"
		return
	fi
	(cd "$d" && PGDATABASE=orm_v_$set timeout 300 node versions.mjs) >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ "$status" -ne 0 ] || ! grep -qE '^[0-9]+ checks, 0 failed$' "$log" || grep -q '^FAILED' "$log"; then
		bad "versions, $set (exit status $status)"
		return
	fi
	# Kysely's whole program (kysely.mjs: prefix, windows, index scans, joins) with this set's
	# Kysely too, where versions.mjs ran its checks (the node meets its engines).
	local kysely="" klog=$work/v-$1-kysely.log
	if ! grep -q '^skip: kysely ' "$log"; then
		kysely=$(cd "$d" && node -p "require('./node_modules/kysely/package.json').version")
		cp "$programs/kysely.mjs" "$d/"
		newdb "orm_vk_$set" >/dev/null
		echo "    kysely.mjs with kysely $kysely:"
		(cd "$d" && PGDATABASE=orm_vk_$set timeout 300 node kysely.mjs) >"$klog" 2>&1 || status=$?
		sed 's/^/        /' "$klog"
		if [ "$status" -ne 0 ] || ! grep -qE '^[0-9]+ checks, 0 failed$' "$klog" || grep -q '^FAILED' "$klog"; then
			bad "versions, $set: kysely.mjs with kysely $kysely (exit status $status)"
			return
		fi
		kysely=", kysely.mjs with kysely $kysely: $(grep -c '^ok: ' "$klog") checks"
	fi
	ok "versions, $set ($(sed -n 's/^ok: \([a-z-]* [0-9.]*\):.*/\1/p' "$log" | sort -u | paste -sd, - | sed 's/,/, /g')): the doc's install, $(grep -c '^ok: ' "$log") checks$kysely passed in $((SECONDS - start)) s"
}
for set in lowest latest; do
	launch "versions-$set" "orm_v_$set" run_versions "$set"
	ran=$((ran + 1))
done

# The snippets of the doc.
# blocks <section>: "<language> <file>" for each block under "## <section>" whose first line names
# its file.
blocks() {
	awk -v section="$1" '
		/^#+ / { h = $0; sub(/^#+ /, "", h); on = (h == section || index(h, section " ") == 1); next }
		on && /^```[a-z]+$/ { lang = substr($0, 4); getline; if (match($0, /^(\/\/|--|#) [A-Za-z0-9_.\/-]+$/)) { split($0, w, " "); print lang, w[2] } }
	' "$doc"
}
# block <section> <file>: the code of that block.
block() {
	awk -v section="$1" -v file="$2" '
		/^#+ / { h = $0; sub(/^#+ /, "", h); on = (h == section || index(h, section " ") == 1); next }
		on && /^```[a-z]+$/ { getline; split($0, w, " "); if (w[2] == file && NF == 2) { grab = 1; print; next } }
		grab && /^```$/ { exit }
		grab { print }
	' "$doc"
}
# run_snippets <section> <database>: its blocks as files, then its run.sh.
run_snippets() {
	local section=$1 d=$work/snip-$2 log=$work/snip-$2.log status=0 n=0 lang file want start=$SECONDS
	app_dir "$d"
	# An ES module project, as the doc says.
	echo '{ "type": "module" }' >"$d/package.json"
	while read -r lang file; do
		mkdir -p "$(dirname "$d/$file")"
		block "$section" "$file" >"$d/$file"
		n=$((n + 1))
	done < <(blocks "$section")
	if [ ! -f "$d/run.sh" ]; then
		bad "$doc, $section: no run.sh block ($n blocks)"
		return
	fi
	# What the last line printed must be: the last "// prints: ..." comment of the blocks.
	want=$(find "$d" -maxdepth 1 \( -name '*.ts' -o -name '*.mjs' \) -exec sed -n 's|.*// prints: ||p' {} + | tail -n 1)
	(cd "$d" && PATH=$d/node_modules/.bin:$PATH PGDATABASE=$2 timeout 300 bash run.sh) >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ -z "$want" ]; then
		bad "$(basename "$doc"), $section: no '// prints:' comment in its blocks"
	elif [ "$status" -eq 0 ] && grep -qE '(^|[^0-9A-Z])[0-9A-HJKMNP-TV-Z]{26}([^0-9A-Z]|$)' "$log" &&
		[ "$(tail -n 1 "$log")" = "$want" ]; then
		ok "$(basename "$doc"), $section: its $n blocks run in $((SECONDS - start)) s, print an ID and then: $want"
	else
		bad "$(basename "$doc"), $section (exit status $status)"
	fi
}
# run_types: tsc --noEmit (strict) over test/orm/node/types.ts and the doc's TypeScript blocks of
# Drizzle, Kysely and TypeORM: the package's hand-written declarations against the libraries'.
run_types() {
	local d=$work/types status=0 section file lang start=$SECONDS
	app_dir "$d"
	echo '{ "type": "module" }' >"$d/package.json"
	cp "$programs/types.ts" "$programs/tsconfig.json" "$d/"
	for section in Drizzle Kysely TypeORM; do
		while read -r lang file; do
			[ "$lang" = ts ] || continue
			mkdir -p "$d/$section"
			block "$section" "$file" >"$d/$section/$file"
		done < <(blocks "$section")
	done
	(cd "$d" && timeout 300 node_modules/.bin/tsc -p .) >"$work/tsc.log" 2>&1 || status=$?
	sed 's/^/    /' "$work/tsc.log"
	if [ "$status" -eq 0 ]; then
		ok "tsc --strict: types.ts and the doc's TypeScript of $(cd "$d" && echo */*.ts | wc -w) files type-check in $((SECONDS - start)) s"
	else
		bad "tsc: the package's declarations or the doc's TypeScript (exit status $status)"
	fi
}
snips=0
if needs "tsc" 18.0; then
	launch types - run_types
	snips=$((snips + 1))
fi
for s in Drizzle:18.0 Kysely:20.0 TypeORM:20.19 Prisma:20.19 Sequelize:18.0; do
	section=${s%%:*}
	if needs "$section snippets" "${s#*:}"; then
		launch "snip-$section" "snip_${section,,}" run_snippets "$section" "snip_${section,,}"
		snips=$((snips + 1))
	fi
done
report

[ "$skipped" -eq 0 ] || echo "$skipped skipped for Node.js $node_version (see the skip: lines)"
finish $((ran + snips))
