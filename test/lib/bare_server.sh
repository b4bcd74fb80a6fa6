# test/lib/bare_server.sh (sourced): a copy of this server that has no idtypes, for the tests that
# load the extension from a directory of its own (extension_control_path, 18+).
#
#   bare_server <tree>   copies the server of $PG_CONFIG (else $PGBIN/pg_config) under <tree>: its bin
#                        directory (PostgreSQL finds its lib and share directories relative to its
#                        binary), its lib and share directories as links to the original files, every
#                        idtypes file left out; sets PGBIN to the copy's bin directory. Returns 1
#                        (saying why) if the copy does not use its own directories or has idtypes.
bare_server() {
	local tree=$1 pg_config=${PG_CONFIG:-$PGBIN/pg_config} bindir sharedir pkglibdir left
	bindir=$("$pg_config" --bindir)
	sharedir=$("$pg_config" --sharedir)
	pkglibdir=$("$pg_config" --pkglibdir)
	mkdir -p "$tree$(dirname "$bindir")" "$tree$(dirname "$sharedir")" "$tree$(dirname "$pkglibdir")"
	cp -a "$bindir" "$tree$bindir"
	cp -as "$pkglibdir" "$tree$pkglibdir"
	cp -as "$sharedir" "$tree$sharedir"
	rm -rf "$tree$pkglibdir"/idtypes* "$tree$pkglibdir/bitcode/idtypes"* "$tree$sharedir"/extension/idtypes*
	PGBIN=$tree$bindir
	export PGBIN
	if [ "$("$PGBIN/pg_config" --sharedir)" != "$tree$sharedir" ]; then
		echo "FAILED: the copied server does not use its own share directory: $("$PGBIN/pg_config" --sharedir)"
		return 1
	fi
	left=$(find "$tree" -name 'idtypes*')
	if [ -n "$left" ]; then
		echo "FAILED: the copied server still has idtypes files: $left"
		return 1
	fi
}

# operations_setting <name> <example directory> <its directory here>: the value docs/operations.md
# gives the setting <name> for its example directory, that directory replaced, and its server 18
# by this one's major ($major).
operations_setting() {
	local v doc
	doc=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/docs/operations.md
	v=$(sed -n "s|^$1 = '\(.*$2.*\)'\$|\1|p" "$doc" | head -n 1)
	v=${v//$2/$3}
	echo "${v//\/postgresql\/18/\/postgresql\/$major}"
}

# control_path_required: for the tests of extension_control_path (new in PostgreSQL 18): exits 77
# (saying why) on an older server; sets major; unsets IDTYPES_EXTENSION_DESTDIR (a staged run's
# stage is not where these tests load idtypes from). Needs server_major (test/lib/nodes.sh).
control_path_required() {
	major=$(server_major)
	if [ "$major" -lt 18 ]; then
		echo "extension_control_path is new in PostgreSQL 18; this server is $major"
		exit 77
	fi
	unset IDTYPES_EXTENSION_DESTDIR
}
