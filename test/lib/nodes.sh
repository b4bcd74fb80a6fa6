# test/lib/nodes.sh (sourced): several throwaway clusters on this machine, for the scripts that need
# more than one server. Each node is test/cluster.sh in its own directory with its own port;
# the caller runs nodes_stop_all on exit. Needs PGBIN and IDTYPES_TEST_START_CLUSTER (set by
# test/run_tests.sh).
nodes_started=()

# nodes_workdir: a scratch directory in $work for the nodes (readable by the server user, since the
# clusters live below it), removed with every node stopped when the script exits.
nodes_workdir() {
	work=$(mktemp -d)
	chmod 755 "$work"
	trap 'nodes_stop_all; rm -rf "$work"' EXIT
}

# node_start <dir> <port> [postgres options...]: start (initdb the first time) a node.
node_start() {
	local dir=$1 port=$2
	shift 2
	nodes_started+=("$port:$dir")
	PGPORT=$port bash "$IDTYPES_TEST_START_CLUSTER" start "$dir" "$@" >/dev/null
}

# node_stop <dir> <port>
node_stop() {
	PGPORT=$2 bash "$IDTYPES_TEST_START_CLUSTER" stop "$1" >/dev/null 2>&1 || true
}

nodes_stop_all() {
	local n
	for n in "${nodes_started[@]}"; do
		node_stop "${n#*:}" "${n%%:*}"
	done
}

# node_psql <dir> <port> [psql arguments...]: psql as postgres on that node, stop on error.
node_psql() {
	local dir=$1 port=$2
	shift 2
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -h "$dir" -p "$port" -U postgres "$@"
}

# The server's major version.
server_major() {
	"$PGBIN/postgres" --version | sed -E 's/^[^0-9]*([0-9]+).*/\1/'
}

# preload_setting: the shared_preload_libraries value that loads this build's idtypes. With a
# stage (IDTYPES_EXTENSION_DESTDIR) it is the staged library's path, the one CREATE EXTENSION
# loads through extension_destdir: a bare `idtypes` would load the server's own $libdir copy,
# if there is one, and CREATE EXTENSION then a second library that defines the same settings.
preload_setting() {
	if [ -n "${IDTYPES_EXTENSION_DESTDIR:-}" ]; then
		echo "shared_preload_libraries=$IDTYPES_EXTENSION_DESTDIR$("$PG_CONFIG" --pkglibdir)/idtypes"
	else
		echo "shared_preload_libraries=idtypes"
	fi
}
