#!/usr/bin/env bash
# cluster.sh: start or stop a throwaway PostgreSQL cluster that listens only on a socket in <dir>.
#
#   test/cluster.sh start <dir> [extra postgres options, e.g. -c shared_preload_libraries=idtypes]
#   test/cluster.sh stop <dir>
#
# start creates <dir> if needed, makes <dir>/data the first time (so stop + start with other options
# restarts the same cluster: initdb, or a copy of initdb's output for the same server, options and
# user, kept in $IDTYPES_INITDB_TEMPLATES, default ${TMPDIR:-/tmp}/idtypes-initdb-<uid>), and
# starts the server with no TCP listener: the socket is <dir>/.s.PGSQL.$PGPORT, so clusters in
# different directories never clash. Connect with PGHOST=<dir> PGPORT=$PGPORT PGUSER=postgres
# (trust authentication). The caller removes <dir>.
# As root the server runs as the postgres user; otherwise as the calling user.
# Environment: PGBIN (default: pg_config --bindir), PGPORT (default 54329),
# IDTYPES_EXTENSION_DESTDIR (a `make install DESTDIR=...` stage, for non-root runs; PG_CONFIG
# names the server's directories inside it on 18+),
# IDTYPES_INITDB_OPTS (more initdb options, split on spaces) and IDTYPES_SERVER_LOGS (a directory
# that stop copies the cluster's server log into).
set -euo pipefail

PGBIN=${PGBIN:-$(pg_config --bindir)}
PGPORT=${PGPORT:-54329}

usage() {
	echo "usage: $0 start <dir> [postgres options...] | stop <dir>" >&2
	exit 2
}

as_server_user() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# pg_ctl hands -o to /bin/sh: quote each word for it.
sh_quote() {
	printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2

case $cmd in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	# The server user may not be able to enter the caller's working directory.
	cd /
	if [ ${#dir} -gt 90 ]; then
		echo "cluster.sh: socket directory path too long (${#dir} bytes): $dir" >&2
		exit 1
	fi
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres: "$dir"
		if ! runuser -u postgres -- test -w "$dir"; then
			echo "cluster.sh: the postgres user cannot reach $dir (a parent directory is closed)" >&2
			exit 1
		fi
	fi
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		# initdb once per server, options and user: its data directory is kept as a template and
		# copied for every later cluster (initdb is about a CPU second natively and 7 under
		# qemu-user, and a CI run makes a few hundred clusters). The key holds what initdb's output
		# depends on: the server's programs (path, size, time, inode), the options and the user.
		# The copies share initdb's system identifier, as a standby made by pg_basebackup does.
		template_dir=${IDTYPES_INITDB_TEMPLATES:-${TMPDIR:-/tmp}/idtypes-initdb-$(id -u)}
		key=$(printf '%s\n' "$PGBIN" "$(stat -L -c '%s %Y %i' "$PGBIN/initdb" "$PGBIN/postgres")" \
			"$(as_server_user id -u)" "${IDTYPES_INITDB_OPTS:-}" | md5sum | cut -c1-16)
		template=$template_dir/$key
		# Under a faked clock (test/dates.sh) initdb runs at the faked instant, each time.
		if [ -z "${FAKETIME:-}" ] && [ -f "$template/PG_VERSION" ] && cp -a "$template" "$dir/data" 2>/dev/null; then
			echo "copied from $template (initdb's output)" >"$dir/initdb.log"
		else
			rm -rf "$dir/data"
			if ! as_server_user "$PGBIN/initdb" --pgdata="$dir/data" --locale=C --encoding=UTF8 \
				--auth=trust --username=postgres --no-sync ${IDTYPES_INITDB_OPTS:-} >"$dir/initdb.log" 2>&1; then
				cat "$dir/initdb.log" >&2
				exit 1
			fi
			# The template: a copy under a name of its own, renamed into place (the first of two
			# clusters made at once wins; the other's copy is removed).
			mkdir -p -m 700 "$template_dir"
			if [ -z "${FAKETIME:-}" ] && cp -a "$dir/data" "$template.$$" 2>/dev/null; then
				mv -T "$template.$$" "$template" 2>/dev/null || rm -rf "$template.$$"
			else
				rm -rf "$template.$$"
			fi
		fi
	fi
	opts="-p $PGPORT -c listen_addresses= -c unix_socket_directories=$(sh_quote "$dir")"
	opts+=" -c fsync=off"
	# IDTYPES_SERVER_OPTS: more server options, split on spaces ("-c jit=off" under qemu-user).
	opts+=" ${IDTYPES_SERVER_OPTS:-}"
	if [ -n "${IDTYPES_EXTENSION_DESTDIR:-}" ]; then
		# A stage: Debian's servers up to 17 have extension_destdir (a Debian patch); 18+ have
		# extension_control_path, and then find '$libdir/idtypes' through dynamic_library_path.
		stage=$IDTYPES_EXTENSION_DESTDIR
		settings=$("$PGBIN/postgres" --describe-config | cut -f1) || {
			echo "cluster.sh: $PGBIN/postgres --describe-config failed" >&2
			exit 1
		}
		if grep -qx extension_destdir <<<"$settings"; then
			opts+=" -c extension_destdir=$(sh_quote "$stage")"
		elif grep -qx extension_control_path <<<"$settings"; then
			pg_config=${PG_CONFIG:-$PGBIN/pg_config}
			opts+=" -c extension_control_path=$(sh_quote "$stage$("$pg_config" --sharedir):\$system")"
			opts+=" -c dynamic_library_path=$(sh_quote "$stage$("$pg_config" --pkglibdir):\$libdir")"
		else
			echo "cluster.sh: this server can load an extension only from its own directories" \
				"(no extension_destdir, no extension_control_path): install it there" >&2
			exit 1
		fi
	fi
	for arg in "$@"; do
		opts+=" $(sh_quote "$arg")"
	done
	if ! as_server_user "$PGBIN/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
		--options="$opts" start >/dev/null; then
		echo "cluster.sh: server did not start; $dir/server.log says:" >&2
		tail -n 30 "$dir/server.log" >&2 || true
		exit 1
	fi
	;;
stop)
	dir=$(cd "$dir" 2>/dev/null && pwd) || exit 0
	cd /
	status=0
	if [ -f "$dir/data/postmaster.pid" ]; then
		as_server_user "$PGBIN/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null || status=$?
	fi
	# IDTYPES_SERVER_LOGS (set by test/run_tests.sh): keep a copy of every stopped cluster's log
	# there, so the runner can read the logs of clusters that scripts start and remove.
	if [ -n "${IDTYPES_SERVER_LOGS:-}" ] && [ -f "$dir/server.log" ]; then
		mkdir -p "$IDTYPES_SERVER_LOGS"
		cp "$dir/server.log" "$(mktemp "$IDTYPES_SERVER_LOGS/$(basename "$dir").XXXXXX")"
	fi
	exit "$status"
	;;
*)
	usage
	;;
esac
