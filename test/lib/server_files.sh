# test/lib/server_files.sh (sourced): the idtypes files in the server's own directories, for the
# tests that install idtypes there as a user's tool does (a package, pgxn) in a chroot, and for
# test/scripts/demo.sh, which checks that `make demo` leaves them as they were.

# server_setup <script> <what it does as root>: such a test's start: it must run as root (exit 2
# otherwise, saying so); sets and exports PG_CONFIG (default: pg_config on PATH), and sets PGBIN,
# major, pkglibdir and extdir (the server's `pg_config --pkglibdir` and `--sharedir`/extension).
server_setup() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "$1: needs root ($2): run it in a chroot" >&2
		exit 2
	fi
	PG_CONFIG=${PG_CONFIG:-pg_config}
	export PG_CONFIG
	PGBIN=$("$PG_CONFIG" --bindir)
	major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	extdir=$("$PG_CONFIG" --sharedir)/extension
}

# In a sysroot of another architecture (scripts/sysroot.sh sets IDTYPES_SYSROOT), the server's
# directories are below it and its packages are dpkg's of that root (dpkg --root); elsewhere the
# system's.
sysroot=${IDTYPES_SYSROOT:-}
# dpkg_ <dpkg arguments>: dpkg of the server's system. dpkg_owner <path>: the package owning a
# file of the server's directories, or nothing.
dpkg_() { dpkg ${sysroot:+--root="$sysroot"} "$@"; }
dpkg_owner() { dpkg_ -S "${1#"$sysroot"}" 2>/dev/null | cut -d: -f1; }

# idtypes_files: every idtypes file in the server's directories, one path a line.
idtypes_files() {
	find "$pkglibdir" "$extdir" -maxdepth 2 \( -name 'idtypes.so' -o -name 'idtypes.control' \
		-o -name 'idtypes--*.sql' -o -name 'idtypes_uuidv7.control' -o -name 'idtypes_uuidv7--*.sql' -o -name 'idtypes.index.bc' -o -path "$pkglibdir/bitcode/idtypes" \) \
		2>/dev/null | sort
}

# remove_unpackaged_files: remove the idtypes files that no package owns (those a `make test` as
# root installed there, say), saying how many; returns 1 if idtypes files are left (a package's).
remove_unpackaged_files() {
	local f stray=0
	for f in $(idtypes_files); do
		if [ -z "$(dpkg_owner "$f")" ]; then
			rm -rf "$f"
			stray=$((stray + 1))
		fi
	done
	[ "$stray" -eq 0 ] || echo "removed $stray idtypes files in the server's directories that no package owns"
	[ -z "$(idtypes_files)" ]
}
