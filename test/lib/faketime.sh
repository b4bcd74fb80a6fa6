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

# faketime_shared: export FAKETIME_SHARED naming a semaphore and a shared memory object of
# libfaketime's that every user can open, for processes of several users under one faked clock
# (test/dates.sh: root's shells, the postgres user's servers); faketime_shared_remove removes them.
# Without it each process that finds none to open makes its own, named after its pid and open to
# its user only, and one that exits by exec leaves it behind (libfaketime 0.9.10 has no switch to
# turn this off): a server process that later gets the pid of such a process of root's cannot make
# its own, and libfaketime ends it ("sem_open failed and recreation attempts failed").
# The objects are those a libfaketime process made, copied under a name no process's pid matches
# (libfaketime removes a pair only in the process whose pid names it).
faketime_shared() {
	local made sem shm
	made=$(env -u FAKETIME_SHARED LD_PRELOAD=$(faketime_lib) FAKETIME=+0 bash -c 'echo "$FAKETIME_SHARED"; kill -KILL $$')
	read -r sem shm <<<"$made"
	if [ -z "$shm" ] || [ ! -f "/dev/shm/sem.${sem#/}" ] || [ ! -f "/dev/shm/${shm#/}" ]; then
		echo "faketime.sh: libfaketime made no shared objects (FAKETIME_SHARED '$made')" >&2
		return 1
	fi
	faketime_shared_names="/faketime_sem_-$$ /faketime_shm_-$$"
	install -m 666 "/dev/shm/sem.${sem#/}" "/dev/shm/sem.faketime_sem_-$$" &&
		install -m 666 "/dev/shm/${shm#/}" "/dev/shm/faketime_shm_-$$" || return 1
	rm -f "/dev/shm/sem.${sem#/}" "/dev/shm/${shm#/}"
	export FAKETIME_SHARED=$faketime_shared_names
}
faketime_shared_remove() {
	rm -f "/dev/shm/sem.faketime_sem_-$$" "/dev/shm/faketime_shm_-$$"
}
