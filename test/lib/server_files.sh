# test/lib/server_files.sh (sourced): the idtypes files in the server's own directories, for the
# tests that install idtypes there as a user's tool does (a package, pgxn) in a chroot. Needs
# $pkglibdir and $extdir (the server's `pg_config --pkglibdir` and `--sharedir`/extension).

# idtypes_files: every idtypes file in the server's directories, one path a line.
idtypes_files() {
	find "$pkglibdir" "$extdir" -maxdepth 2 \( -name 'idtypes.so' -o -name 'idtypes.control' \
		-o -name 'idtypes--*.sql' -o -name 'idtypes.index.bc' -o -path "$pkglibdir/bitcode/idtypes" \) \
		2>/dev/null | sort
}

# remove_unpackaged_files: remove the idtypes files that no package owns (those a `make test` as
# root installed there, say), saying how many; returns 1 if idtypes files are left (a package's).
remove_unpackaged_files() {
	local f stray=0
	for f in $(idtypes_files); do
		if ! dpkg -S "$f" >/dev/null 2>&1; then
			rm -rf "$f"
			stray=$((stray + 1))
		fi
	done
	[ "$stray" -eq 0 ] || echo "removed $stray idtypes files in the server's directories that no package owns"
	[ -z "$(idtypes_files)" ]
}
