# test/lib/faketime.sh (sourced): libfaketime (LD_PRELOAD; Debian package libfaketime) for
# test/dates.sh, which moves every process's clock to an instant (FAKETIME, read once per process).
# The TAP tests step their servers' clocks themselves (t/IdtypesNode.pm).

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
