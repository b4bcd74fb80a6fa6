# test/lib/docblocks.sh (sourced): the ```sql blocks of the Markdown docs, for test/scripts/doctest.sh
# and for the tests that run a doc's block themselves (partman.sh, timescaledb.sh).
#
# A block is the lines between a line "```sql" and the next line "```". Its output, when the doc
# shows one, is the ```text block that follows it (nothing but blank lines between the two). A line
# `<!-- tested by test/scripts/<name>.sh or .py -->` before a block (nothing but blank lines between) hands
# the block to that script: doctest.sh skips it, and the script runs it with doc_block_for.
# The ORM tests build programs from blocks of any language named by a line `<!-- file: <name> -->`
# before the opening fence (doc_blocks, at the end).

# doc_extract <doc> <dir>: writes each ```sql block of <doc> into <dir> as <line>.sql (<line>: the
# doc's line of the opening fence, 5 digits, so that `ls` gives the doc's order), its output as
# <line>.expected, and the name of the script that runs it instead as <line>.tested-by.
doc_extract() {
	mkdir -p "$2"
	awk -v dir="$2" '
	function name(ext) { return sprintf("%s/%05d.%s", dir, start, ext) }
	state == "sql" {
		if ($0 == "```") { state = "after"; close(name("sql")); next }
		print > name("sql"); next
	}
	state == "text" {
		if ($0 == "```") { state = ""; close(name("expected")); next }
		print > name("expected"); next
	}
	/^```sql[ \t]*$/ {
		start = NR; state = "sql"; printf "" > name("sql")
		if (marker != "") { print marker > name("tested-by"); close(name("tested-by")) }
		marker = ""; next
	}
	state == "after" && /^```text[ \t]*$/ { state = "text"; printf "" > name("expected"); next }
	/^[ \t]*$/ { next }
	{ state = ""; marker = "" }
	match($0, /^<!-- tested by test\/scripts\/[A-Za-z0-9_.-]+\.(sh|py) -->$/) {
		marker = $0; sub(/^<!-- tested by test\/scripts\//, "", marker); sub(/ -->$/, "", marker)
	}
	END { if (state == "sql" || state == "text") { print "unclosed block at line " start > "/dev/stderr"; exit 1 } }
	' "$1"
}

# doc_block_for <doc> <script name>: prints the ```sql blocks of <doc> marked as tested by <script
# name> (e.g. partman.sh), in the doc's order; fails if there is none.
doc_block_for() {
	local dir f found=
	dir=$(mktemp -d)
	doc_extract "$1" "$dir" || { rm -rf "$dir"; return 1; }
	for f in "$dir"/*.tested-by; do
		[ -f "$f" ] || continue
		if [ "$(cat "$f")" = "$2" ]; then
			cat "${f%.tested-by}.sql"
			found=1
		fi
	done
	rm -rf "$dir"
	if [ -z "$found" ]; then
		echo "no block of $1 is marked <!-- tested by test/scripts/$2 -->" >&2
		return 1
	fi
}

# doc_run <doc> <script name> [psql connection options...]: runs the doc's blocks marked as tested
# by <script name> as written, one after the other in one psql session (ON_ERROR_STOP, PGTZ=UTC), in
# the database the options name (which has idtypes and whatever else the script set up), and compares
# what they print with the doc's text blocks after them (doc_mask; blank lines aside, as a text
# block does not end with the blank line psql prints after a result), as doctest.sh does. Reports with
# ok/bad of test/lib/report.sh: one ok line when the blocks ran and printed what the doc shows.
doc_run() {
	local doc=$1 script=$2 dir f
	shift 2
	# The doc as the repository names it (docs/reference.md), in messages.
	local doc_name
	doc_name=$(realpath --relative-to="$(dirname "${BASH_SOURCE[0]}")/../.." "$doc")
	dir=$(mktemp -d)
	doc_extract "$doc" "$dir" || { bad "$doc_name: a code block is not closed"; rm -rf "$dir"; return; }
	: >"$dir/run.psql"
	: >"$dir/want"
	for f in "$dir"/*.tested-by; do
		[ -f "$f" ] && [ "$(cat "$f")" = "$script" ] || continue
		cat "${f%.tested-by}.sql" >>"$dir/run.psql"
		[ ! -f "${f%.tested-by}.expected" ] || cat "${f%.tested-by}.expected" >>"$dir/want"
	done
	if [ ! -s "$dir/run.psql" ]; then
		bad "no block of $doc_name is marked <!-- tested by test/scripts/$script -->"
	elif ! PGTZ=UTC "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "$@" -f "$dir/run.psql" >"$dir/got" 2>"$dir/err"; then
		cat "$dir/err"
		bad "$doc_name: its block for $script failed (above)"
	elif ! diff -u --label "$doc_name (the text block)" --label "what psql printed" \
		<(doc_mask "$dir/run.psql" <"$dir/want" | grep -v '^$') \
		<(doc_mask "$dir/run.psql" <"$dir/got" | grep -v '^$'); then
		bad "$doc_name: its block for $script printed something else than the doc shows (above, masked)"
	else
		ok "$doc_name: the block for $script runs as written and prints what the doc shows"
	fi
	rm -rf "$dir"
}

# doc_mask [<sql file>]: the masking rule, applied to the expected and to the actual output alike
# (stdin to stdout), so that what differs from run to run compares equal:
#   - a UUID (8-4-4-4-12 hex digits) becomes <uuid>;
#   - a timestamp (2026-11-23 21:57:01.836+00, T or space, fraction and zone optional) becomes
#     <time>, then a date (2026-11-23, or 20261123 as in pg_partman's child names) <date>, a year
#     and month of a partition's name (2026_11) <month>;
#   - an ID-shaped word, a run of 11, 13, 26 or 27 letters and digits (uid11, timeid and ulidflake,
#     ulid, euid), becomes <id>;
#   - runs of spaces become one, trailing spaces and trailing blank lines go, and the dashes under a
#     psql header become "--" (column widths follow the masked values).
# An ID or UUID that the block's own SQL (<sql file>) spells out is a constant, and is compared as
# it is, in its case (the canonical text of a cast). Counts, plans and anything else are compared as
# they are.
doc_mask() {
	local keep=() protect=() restore=() t i=0
	if [ -n "${1:-}" ]; then
		mapfile -t keep < <(grep -oE '[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|[0-9A-Za-z]+' "$1" |
			grep -xE '[0-9a-fA-F-]{36}|[0-9A-Za-z]{11}|[0-9A-Za-z]{13}|[0-9A-Za-z]{26}|[0-9A-Za-z]{27}' | sort -u)
	fi
	for t in "${keep[@]}"; do
		i=$((i + 1))
		protect+=(-e "s/(^|[^0-9A-Za-z])$t($|[^0-9A-Za-z])/\\1@keep$i@\\2/g")
		restore+=(-e "s/@keep$i@/$t/g")
	done
	sed -E "${protect[@]}" "${protect[@]}" -e 's/^/ /' |
	sed -E \
		-e 's/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/<uuid>/g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}(:[0-9]{2})?)?/<time>/g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}/<date>/g' \
		-e 's/(^|[^0-9A-Za-z])[0-9]{4}_[0-9]{2}($|[^0-9A-Za-z])/\1<month>\2/g' \
		-e 's/(^|[^0-9])20[0-9]{6}($|[^0-9])/\1<date>\2/g' \
		-e 's/(^|[^0-9A-Za-z])([0-9A-Za-z]{11}|[0-9A-Za-z]{13}|[0-9A-Za-z]{26}|[0-9A-Za-z]{27})($|[^0-9A-Za-z])/\1<id>\3/g' \
		-e 's/(^|[^0-9A-Za-z])([0-9A-Za-z]{11}|[0-9A-Za-z]{13}|[0-9A-Za-z]{26}|[0-9A-Za-z]{27})($|[^0-9A-Za-z])/\1<id>\3/g' \
		"${restore[@]}" -e 's/ +/ /g' -e 's/^ //' -e 's/ $//' -e 's/-{2,}/--/g' |
		awk '{ line[NR] = $0 } END { n = NR; while (n > 0 && line[n] == "") n--; for (i = 1; i <= n; i++) print line[i] }'
}

# doc_blocks <markdown file> <directory>: each named block into <directory>/<name> (a name may
# have subdirectories); prints the names, one a line.
doc_blocks() {
	awk -v dir="$2" '
		/^<!-- file: [^ ]+ -->$/ { name = $3; next }
		name != "" && !on && /^```/ {
			on = 1
			out = dir "/" name
			sub_dir = out
			sub(/\/[^\/]*$/, "", sub_dir)
			system("mkdir -p \"" sub_dir "\"")
			printf "" >out
			next
		}
		on && /^```$/ { on = 0; close(out); print name; name = ""; next }
		on { print >out }
	' "$1"
}
