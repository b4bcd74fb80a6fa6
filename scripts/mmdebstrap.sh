#!/usr/bin/env bash
# mmdebstrap.sh [mmdebstrap's arguments...]: mmdebstrap with no descriptor open but 0, 1 and 2.
# mmdebstrap hands apt hooks such as `cat >&N` for /bin/sh, where N is the lowest descriptor free;
# dash reads no N above 9 ("Syntax error: Bad fd number", then "apt download failed"), and under
# make test-matrix a script inherits enough open descriptors (its lane's, its locks) to make it 11.
# Seen with bookworm's mmdebstrap 1.3 and trixie's 1.5.
for fd in /proc/$$/fd/*; do
	fd=${fd##*/}
	[ "$fd" -le 2 ] || eval "exec $fd>&-"
done
exec mmdebstrap "$@"
