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

# node_as_server_user <command...>: as the server's user (postgres when root).
node_as_server_user() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# node_basebackup <primary dir> <primary port> <standby dir>: a streaming standby's data directory
# (pg_basebackup -R: primary_conninfo and standby.signal) made from the running primary; on failure
# it prints pg_basebackup's output and returns 1.
node_basebackup() {
	mkdir -p "$3"
	[ "$(id -u)" -ne 0 ] || chown postgres: "$3"
	if ! node_as_server_user "$PGBIN/pg_basebackup" -h "$1" -p "$2" -U postgres -D "$3/data" \
		-R -X stream -c fast >"$3.basebackup.log" 2>&1; then
		cat "$3.basebackup.log"
		return 1
	fi
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
