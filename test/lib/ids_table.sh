# test/lib/ids_table.sh (sourced): the table of all five types that the tests between servers
# (logical_replication.sh, physical_replica.sh, fdw.sh) move around: a ulid primary key, the other
# four types with generated defaults and a btree index each, a ulidrange column and a counter.

# ids_columns: the column list, in parentheses.
ids_columns() {
	cat <<'SQL'
(
	u ulid PRIMARY KEY DEFAULT generate_ulid_monotonic(),
	x uid11 NOT NULL DEFAULT generate_xid(),
	t timeid NOT NULL DEFAULT generate_tid(),
	f ulidflake NOT NULL DEFAULT generate_ulidflake(),
	e euid DEFAULT generate_euid(),
	r ulidrange,
	n int NOT NULL
)
SQL
}

# ids_table_sql <name>: CREATE TABLE <name> with its indexes <name>_x, _t, _f, _e.
ids_table_sql() {
	local t=$1 c
	echo "CREATE TABLE $t $(ids_columns);"
	for c in x t f e; do
		echo "CREATE INDEX ${t}_$c ON $t ($c);"
	done
}
