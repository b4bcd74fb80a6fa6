# test/lib/doc_blocks.sh (sourced): the code blocks of a doc file that a test runs as they stand.
# A block is named by a line `<!-- file: <name> -->` before its opening fence (other lines, such as
# `<!-- tested by ... -->`, may come between).

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
