# test/lib/faketime.sh (sourced): servers whose clock a script steps, through libfaketime (LD_PRELOAD;
# Debian package libfaketime). Each server reads its offset from a file on every time call
# (FAKETIME_NO_CACHE), so a rewrite of the file steps its clock; the monotonic clock stays true
# (FAKETIME_DONT_FAKE_MONOTONIC), as a real clock step leaves it. Needs nodes.sh.

# faketime_lib: the library's path, or nothing (then the caller skips with status 77).
faketime_lib() {
	local f
	for f in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
		if [ -f "$f" ]; then
			echo "$f"
			return
		fi
	done
}

# faketime_required: exits the calling script with status 77 (does not apply here), saying why,
# when libfaketime is not installed.
faketime_required() {
	if [ -z "$(faketime_lib)" ]; then
		echo "libfaketime is not installed (Debian package libfaketime): the clock cannot be stepped"
		exit 77
	fi
}

# faketime_set <offset file> <offset, e.g. +0 or -7, or an absolute time>: replaced by a rename,
# so that no time call reads it half written; then a moment for the servers' next calls to see it.
# Under test/dates.sh every process's clock is already moved by IDTYPES_FAKETIME_BASE seconds: an
# offset in seconds is added to it, so that the steps start from the faked instant.
faketime_set() {
	local offset=$2
	if [ -n "${IDTYPES_FAKETIME_BASE:-}" ] && [[ $offset =~ ^[+-]?[0-9]+$ ]]; then
		offset=$(printf '%+d' $((IDTYPES_FAKETIME_BASE + offset)))
	fi
	echo "$offset" >"$1.new"
	chmod 644 "$1.new"
	mv "$1.new" "$1"
	sleep 0.5
}

# faketime_start <dir> <port> <offset file> [postgres options...]: (re)start a node under
# libfaketime with the offset the file holds (+0 if it does not exist yet).
faketime_start() {
	local dir=$1 port=$2 file=$3
	shift 3
	[ -f "$file" ] || faketime_set "$file" "+0"
	nodes_started+=("$port:$dir")
	# env -u FAKETIME: libfaketime reads a FAKETIME in the environment (test/dates.sh's) before
	# the file.
	env -u FAKETIME LD_PRELOAD=$(faketime_lib) FAKETIME_TIMESTAMP_FILE=$file FAKETIME_NO_CACHE=1 \
		FAKETIME_DONT_FAKE_MONOTONIC=1 PGPORT=$port bash "$IDTYPES_TEST_START_CLUSTER" start "$dir" "$@" >/dev/null
}
