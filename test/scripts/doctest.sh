#!/usr/bin/env bash
# doctest.sh: every ```sql block of README.md and docs/*.md runs on the server under test, and where
# the doc shows the output, the output is what the doc shows.
#
# The convention (docs/development.md, "Examples in the docs"):
#   - Each doc's blocks run in the doc's order, in a fresh database made for that doc, in one psql
#     session (psql -X -q -v ON_ERROR_STOP=1 -f, PGTZ=UTC), as a reader pastes them into psql one
#     after the other: tables and psql variables (\gset) of one block are there for the next. The
#     database gets CREATE EXTENSION idtypes first, unless the doc's first block begins with it.
#   - An error stops the session and fails the test, naming the doc's file and line; the blocks
#     after it do not run (and fail too).
#   - The output a doc shows is a ```text block right after the ```sql block (blank lines only
#     between): everything the block prints, as psql -q prints it (result tables with their
#     "(N rows)" footer, no command tags; NOTICEs go to stderr and are not compared). Both are
#     masked by doc_mask (test/lib/docblocks.sh: UUIDs, timestamps, dates and ID-shaped words become
#     placeholders unless the block's SQL spells them out; spaces and header dashes are collapsed)
#     and must then be equal. A block with no ```text block after it must only run without error.
#   - A block preceded by `<!-- tested by test/scripts/<name>.sh or .py -->` needs what this server run
#     does not have (pg_partman, TimescaleDB, Citus, pgx_ulid's stand-in, an ORM): it is skipped
#     here, and this test checks that the named script is an executable test that runs that doc's
#     block (it calls doc_run, test/lib/docblocks.sh, with the doc's path, and doc_run compares the
#     output the same way; or, for the ORM tests, which build whole projects from a doc's blocks,
#     it extracts them with doc_blocks or sets doc=<the doc's path>).
#   - Every SQL example is a ```sql block, so nothing that looks runnable goes untested.
# DOCTEST_DOCS="README.md docs/reference.md" limits the run to those docs; DOCTEST_KEEP=<dir> keeps
# each block's output there (<doc>/<line>.out), to write a doc's text block from.
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set).
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/report.sh"
. "$here/../lib/docblocks.sh"

work=$(mktemp -d)
db=idt_doctest_$$
trap '"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export PGTZ=UTC

cd "$top"
docs=${DOCTEST_DOCS:-README.md $(ls docs/*.md)}
expect=0
blocks=0
for doc in $docs; do
	dir=$work/$(echo "$doc" | tr / _)
	if ! doc_extract "$doc" "$dir"; then
		bad "$doc: a code block is not closed"
		expect=$((expect + 1))
		continue
	fi
	ls "$dir"/*.sql >/dev/null 2>&1 || continue
	"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
	first=$(ls "$dir"/*.sql | head -n 1)
	if ! awk '!/^ *--/ && NF { print; exit }' "$first" | grep -qi '^CREATE EXTENSION idtypes;'; then
		"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION idtypes"
	fi
	ran=0
	skipped=0
	compared=0
	# The doc's blocks, one after the other in one psql session, each after a line that marks where
	# its output starts; starts.txt maps the session's lines back to the doc's.
	session=$dir/session.psql
	: >"$session"
	: >"$dir/starts.txt"
	n=0
	for sql in "$dir"/*.sql; do
		base=${sql%.sql}
		line=$((10#$(basename "$base")))
		expect=$((expect + 1))
		if [ -f "$base.tested-by" ]; then
			script=$(cat "$base.tested-by")
			if [ ! -x "test/scripts/$script" ]; then
				bad "$doc:$line: the block is marked as tested by test/scripts/$script, which is not an executable test"
			elif ! grep -Eq "(doc_run|doc_block_for|doc_blocks)[ (][^ ]*$doc|^doc=[^ ]*$doc\$" "test/scripts/$script"; then
				bad "$doc:$line: test/scripts/$script does not run this block (no doc_run $doc in it)"
			elif ! doc_block_for "$doc" "$script" >/dev/null; then
				bad "$doc:$line: doc_block_for $doc $script finds no block"
			else
				ok "$doc:$line: run by test/scripts/$script, not here"
				skipped=$((skipped + 1))
			fi
			continue
		fi
		blocks=$((blocks + 1))
		printf '\\echo <<doctest %d>>\n' "$line" >>"$session"
		n=$((n + 1))
		echo "$(($(wc -l <"$session") + 1)) $line" >>"$dir/starts.txt"
		cat "$sql" >>"$session"
	done
	[ "$n" -gt 0 ] || continue
	status=0
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$session" >"$dir/session.out" 2>"$dir/session.err" || status=$?
	# Each block's output: what follows its marker.
	awk -v dir="$dir" '/^<<doctest [0-9]+>>$/ { if (f) close(f); f = sprintf("%s/%05d.out", dir, $2 + 0); printf "" > f; next }
		f { print > f }' "$dir/session.out"
	failed_at=
	if [ "$status" -ne 0 ]; then
		# psql:<file>:<n>: ERROR: ... -> the block (the last one starting at or before n) and the doc's line.
		at=$(sed -nE 's/^psql:[^:]*:([0-9]+): (ERROR|FATAL|error).*/\1/p' "$dir/session.err" | head -n 1)
		read -r start failed_at <<<"$(awk -v n="${at:-999999999}" '$1 <= n { s = $1; l = $2 } END { print s, l }' "$dir/starts.txt")"
		bad "$doc:$((failed_at + ${at:-start} - start + 1)): the block at line $failed_at failed (psql exit status $status):"
		sed "s|^psql:[^:]*:[0-9]*:|  |" "$dir/session.err"
	fi
	for sql in "$dir"/*.sql; do
		base=${sql%.sql}
		line=$((10#$(basename "$base")))
		[ ! -f "$base.tested-by" ] || continue
		[ "$line" != "$failed_at" ] || break
		if [ ! -f "$base.out" ]; then
			bad "$doc:$line: the block did not run (psql exit status $status)"
			continue
		fi
		if [ -f "$base.expected" ]; then
			doc_mask "$sql" <"$base.expected" >"$base.want"
			doc_mask "$sql" <"$base.out" >"$base.got"
			if ! diff -u --label "$doc:$line (the doc's text block)" --label "what psql printed" \
				"$base.want" "$base.got" >"$base.diff"; then
				bad "$doc:$line: the block's output differs from the doc's (after masking):"
				cat "$base.diff"
				continue
			fi
			compared=$((compared + 1))
		fi
		ran=$((ran + 1))
		ok "$doc:$line"
	done
	echo "$doc: $ran blocks ran ($compared with their output compared), $skipped run by other tests"
done
"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
[ -z "${DOCTEST_KEEP:-}" ] || cp -r "$work/." "$DOCTEST_KEEP"
[ "$blocks" -gt 0 ] || bad "no sql block found in $docs"
finish "$expect"
