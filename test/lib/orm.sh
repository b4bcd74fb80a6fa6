# test/lib/orm.sh (sourced after nodes.sh and report.sh, with $work set by nodes_workdir): what
# test/scripts/orm_ruby.sh uses: a throwaway cluster, databases with the
# extension, check programs and doc blocks run with their output indented, and the skips counted.

# orm_cluster: a cluster at PGPORT+10 in $work/pg; sets dir and port, exports PGHOST, PGPORT
# and PGUSER for it.
orm_cluster() {
	dir=$work/pg
	port=$((PGPORT + 10))
	if ! node_start "$dir" "$port" 2>"$work/start.log"; then
		cat "$work/start.log"
		echo "FAILED: no cluster started on port $port"
		exit 1
	fi
	echo "cluster: PostgreSQL $(node_psql "$dir" "$port" -d postgres -c 'SHOW server_version'), socket $dir, port $port"
	export PGHOST=$dir PGPORT=$port PGUSER=postgres
}

# new_db <name> [bare]: a database, with the extension unless "bare".
new_db() {
	node_psql "$dir" "$port" -d postgres -c "CREATE DATABASE $1"
	[ "${2:-}" = bare ] || node_psql "$dir" "$port" -d "$1" -c "CREATE EXTENSION idtypes"
}

expected=0
skips=()
# skipped <what (why; how to enable)>: a skip line, counted at the end.
skipped() {
	echo "skip: $1"
	skips+=("$1")
}

# run_program <name> <command...>: a check program; its lines indented, then ok or FAILED (it
# must exit 0 with "N checks, 0 failed" and no FAILED line), or its skip line where it exits
# 77. Its own skip lines are counted too.
run_program() {
	local name=$1 start=$SECONDS status=0 log=$work/program.log line
	shift
	timeout 300 "$@" >"$log" 2>&1 || status=$?
	if [ "$status" -eq 77 ]; then
		skipped "$(sed -n 's/^skip: //p' "$log" | head -n 1)"
		return
	fi
	expected=$((expected + 1))
	sed 's/^/    /' "$log"
	while read -r line; do skips+=("$line"); done < <(sed -n 's/^skip: //p' "$log")
	if [ "$status" -eq 0 ] && grep -qE '^[0-9]+ checks, 0 failed$' "$log" && ! grep -q '^FAILED' "$log"; then
		ok "$name: $(grep -c '^ok: ' "$log") checks passed in $((SECONDS - start)) s"
	else
		bad "$name (exit status $status)"
	fi
}

# run_block <name> <pattern> <command...>: a block of docs/orms.md, run in $blocks; it must exit
# 0 and print a line matching the pattern (extended regexp).
run_block() {
	local name=$1 pattern=$2 status=0 log=$work/block.log
	shift 2
	expected=$((expected + 1))
	(cd "$blocks" && timeout 120 "$@") >"$log" 2>&1 || status=$?
	sed 's/^/    /' "$log"
	if [ "$status" -eq 0 ] && grep -qE "$pattern" "$log"; then
		ok "docs/orms.md, $name: prints what it says"
	else
		bad "docs/orms.md, $name (exit status $status)"
	fi
}

# orm_finish: the skips, counted, then report.sh's finish with the checks expected.
orm_finish() {
	if [ ${#skips[@]} -gt 0 ]; then
		echo "${#skips[@]} skipped:"
		printf '    %s\n' "${skips[@]}"
	fi
	finish "$expected"
}
