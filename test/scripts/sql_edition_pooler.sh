#!/usr/bin/env bash
# sql_edition_pooler.sh: the SQL edition behind PgBouncer (Debian's pgbouncer) in transaction mode,
# 4 server connections for 32 clients (pgbench): each transaction makes one ID of every generator,
# and one transaction in 40 is a client's SET of the edition's session state instead (the last
# ULID, EUID, TID far in the future; a TID clock id of its choosing), which stays with the server
# connection that ran it and meets the next clients of that connection. Checks:
#   - no two equal IDs of any generator (but generate_timeid(5)'s: a clock id the caller gives is
#     the caller's to keep apart, and 4 connections making TIDs of clock id 5 at once share
#     microseconds, as 4 sessions would);
#   - no ID dated away from the clock: a client's SET reaches no other client's IDs;
#   - the TIDs' clock ids are those the edition drew, never the one set by hand.
#
# Run by test/run_tests.sh with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN pointing at a running
# cluster. PgBouncer from scripts/install-deps.sh pooler (as root; not root and missing: exit
# status 77). Exit status 0 = pass.
set -uo pipefail
trap '' PIPE

: "${PGBIN:?PGBIN must point at the PostgreSQL bin directory}"
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/lib/report.sh"
. "$here/test/lib/packages.sh"
db=idt_pooler_$$
super=${PGUSER:-$(id -un)}
work=$(mktemp -d)
chmod 755 "$work"
bport=$((${PGPORT:-5432} + 47))

Q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
group_packages pooler "PgBouncer"
bouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)

cleanup() {
	[ -f "$work/pgbouncer.pid" ] && kill "$(cat "$work/pgbouncer.pid")" 2>/dev/null
	Q -U "$super" -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

Q -U "$super" -d postgres -c "CREATE DATABASE $db" >/dev/null || {
	bad "cannot create the database"
	finish 0
}
Q -U "$super" -d "$db" -f "$here/sql_edition/idtypes_sql.sql" >/dev/null || bad "the install failed"
Q -U "$super" -d "$db" -c "CREATE TABLE ids (x bigint, t bigint, t5 bigint, f bigint, l uuid, m uuid, e uuid, e7 uuid)" \
	-c "CREATE TABLE started AS SELECT clock_timestamp() AS at" >/dev/null

cat >"$work/pgbouncer.ini" <<EOF
[databases]
$db = host=${PGHOST:-/var/run/postgresql} port=${PGPORT:-5432} dbname=$db
[pgbouncer]
listen_addr =
listen_port = $bport
unix_socket_dir = $work
auth_type = trust
auth_file = $work/users.txt
pool_mode = transaction
default_pool_size = 4
max_client_conn = 100
logfile = $work/pgbouncer.log
pidfile = $work/pgbouncer.pid
EOF
echo "\"$super\" \"\"" >"$work/users.txt"
# PgBouncer does not run as root: as the owner of the server's socket directory then.
runas=()
if [ "$(id -u)" -eq 0 ]; then
	owner=$(stat -c %U "${PGHOST:-/var/run/postgresql}")
	chown -R "$owner" "$work"
	runas=(runuser -u "$owner" --)
fi
if ! "${runas[@]}" "$bouncer" -d "$work/pgbouncer.ini" >"$work/start.log" 2>&1; then
	bad "PgBouncer did not start: $(cat "$work/start.log" "$work/pgbouncer.log" 2>/dev/null | tail -n 5)"
	finish 0
fi
for _ in $(seq 50); do
	[ -S "$work/.s.PGSQL.$bport" ] && break
	sleep 0.1
done

cat >"$work/generate.sql" <<'SQL'
INSERT INTO ids VALUES (idtypes_sql.generate_uid11_xid(), idtypes_sql.generate_timeid(), idtypes_sql.generate_timeid(5),
	idtypes_sql.generate_ulidflake(), idtypes_sql.generate_ulid(), idtypes_sql.generate_ulid_monotonic(),
	idtypes_sql.generate_euid(), idtypes_sql.generate_euid(7));
SQL
# Each SET is a transaction of its own, on whichever server connection PgBouncer gives it.
cat >"$work/tamper.sql" <<'SQL'
SET idtypes_sql.ulid_last = '99999999999999999';
SET idtypes_sql.ulid_monotonic_last = '7fffffffffff00000000000000000000';
SET idtypes_sql.euid_last = 'fffffffffff800000000000000000000';
SET idtypes_sql.tid_last = '9007199254740000';
SET idtypes_sql.tid_clock = '1000';
SQL
# 5 is generate_timeid(5)'s: its errors (55000 after a far-future tid_last) are counted, not fatal.
"$PGBIN/pgbench" -n -h "$work" -p "$bport" -U "$super" -c 32 -j 2 -t 250 \
	-f "$work/generate.sql@39" -f "$work/tamper.sql@1" --failures-detailed "$db" >"$work/pgbench.log" 2>&1
grep -E "^number of (transactions actually processed|failed)|^latency average" "$work/pgbench.log" | sed 's/^/  /'

out=$(Q -U "$super" -d "$db" <<'SQL'
SELECT count(*) AS rows,
	(count(*) - count(DISTINCT x)) + (count(*) - count(DISTINCT t))
	+ (count(*) - count(DISTINCT f)) + (count(*) - count(DISTINCT l)) + (count(*) - count(DISTINCT m))
	+ (count(*) - count(DISTINCT e)) + (count(*) - count(DISTINCT e7)) AS equal,
	count(*) FILTER (WHERE greatest(idtypes_sql.xid_timestamp(x), idtypes_sql.timeid_timestamp(t),
		idtypes_sql.timeid_timestamp(t5), idtypes_sql.ulidflake_timestamp(f), idtypes_sql.ulid_timestamp(l),
		idtypes_sql.ulid_timestamp(m), idtypes_sql.euid_timestamp(e), idtypes_sql.euid_timestamp(e7))
		> clock_timestamp() + interval '1 second'
		OR least(idtypes_sql.xid_timestamp(x), idtypes_sql.timeid_timestamp(t), idtypes_sql.timeid_timestamp(t5),
		idtypes_sql.ulidflake_timestamp(f), idtypes_sql.ulid_timestamp(l), idtypes_sql.ulid_timestamp(m),
		idtypes_sql.euid_timestamp(e), idtypes_sql.euid_timestamp(e7)) < (SELECT at FROM started) - interval '1 second') AS off_clock,
	count(*) FILTER (WHERE idtypes_sql.timeid_clock_id(t) = 1000) AS set_clock_id,
	count(DISTINCT idtypes_sql.timeid_clock_id(t)) AS clock_ids
FROM ids;
SQL
)
IFS='|' read -r rows equal off set_clock clocks <<<"$out"
echo "  rows $rows, equal IDs $equal, off the clock $off, with the clock id set by hand $set_clock, clock ids $clocks"
if [ "${rows:-0}" -ge 6000 ] && [ "$equal" = 0 ]; then
	ok "32 clients on 4 server connections, 1 transaction in 40 a SET of the state: $rows rows, no two equal IDs of any generator without a given clock id"
else
	bad "rows $rows (at least 6,000 expected), equal IDs $equal"
fi
if [ "$off" = 0 ]; then
	ok "no ID dated away from the clock (the SETs reached no other client's IDs)"
else
	bad "$off rows hold an ID dated more than a second from the clock"
fi
if [ "$set_clock" = 0 ] && [ "${clocks:-0}" -ge 4 ]; then
	ok "generate_timeid()'s clock ids are the edition's ($clocks drawn), never the one set by hand"
else
	bad "clock ids: $set_clock TIDs with the clock id set by hand, $clocks clock ids"
fi
finish 3
