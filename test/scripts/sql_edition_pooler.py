#!/usr/bin/python3
"""The SQL edition behind PgBouncer (Debian's pgbouncer) in transaction mode, 4 server connections
for 32 clients (pgbench): each transaction makes one ID of every generator, and one transaction in
40 is a client's SET of the edition's session state instead (the last ULID, EUID, TID far in the
future; a TID clock id of its choosing), which stays with the server connection that ran it and
meets the next clients of that connection. Checks:

- no two equal IDs of any generator (but generate_timeid(5)'s: a clock id the caller gives is the
  caller's to keep apart, and 4 connections making TIDs of clock id 5 at once share microseconds,
  as 4 sessions would);
- no ID dated away from the clock: a client's SET reaches no other client's IDs;
- the TIDs' clock ids are those the edition drew, never the one set by hand.

Run by test/run_tests.sh (test/lib/scripttest.py) with PGHOST/PGPORT/PGUSER (a superuser)/PGBIN
pointing at a running cluster. PgBouncer from scripts/install-deps.sh pooler (as root; not root
and missing: exit status 77).
"""
import atexit
import getpass
import os
import pwd
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import PGBIN, TOP, bad, check, finish, group_packages, indented, psql, run, workdir  # noqa: E402

group_packages("pooler", "PgBouncer")
BOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
DB = f"idt_pooler_{os.getpid()}"
SUPER = os.environ.get("PGUSER") or getpass.getuser()
HOST = os.environ.get("PGHOST", "/var/run/postgresql")
PORT = int(os.environ.get("PGPORT", "5432"))
BPORT = PORT + 47
work = workdir()

GENERATE = """INSERT INTO ids VALUES (idtypes_sql.generate_uid11_xid(), idtypes_sql.generate_timeid(), idtypes_sql.generate_timeid(5),
	idtypes_sql.generate_ulidflake(), idtypes_sql.generate_ulid(), idtypes_sql.generate_ulid_monotonic(),
	idtypes_sql.generate_euid(), idtypes_sql.generate_euid(7));
"""
# Each SET is a transaction of its own, on whichever server connection PgBouncer gives it.
TAMPER = """SET idtypes_sql.ulid_last = '99999999999999999';
SET idtypes_sql.ulid_monotonic_last = '7fffffffffff00000000000000000000';
SET idtypes_sql.euid_last = 'fffffffffff800000000000000000000';
SET idtypes_sql.tid_last = '9007199254740000';
SET idtypes_sql.tid_clock = '1000';
"""
TIMESTAMPS = """idtypes_sql.xid_timestamp(x), idtypes_sql.timeid_timestamp(t), idtypes_sql.timeid_timestamp(t5),
	idtypes_sql.ulidflake_timestamp(f), idtypes_sql.ulid_timestamp(l), idtypes_sql.ulid_timestamp(m),
	idtypes_sql.euid_timestamp(e), idtypes_sql.euid_timestamp(e7)"""
# The rows; the equal IDs (generate_timeid(5)'s left out); the rows with an ID dated more than a second from the
# clock; the TIDs of the clock id set by hand; the TIDs' clock ids.
RESULT = f"""SELECT count(*),
	(count(*) - count(DISTINCT x)) + (count(*) - count(DISTINCT t))
	+ (count(*) - count(DISTINCT f)) + (count(*) - count(DISTINCT l)) + (count(*) - count(DISTINCT m))
	+ (count(*) - count(DISTINCT e)) + (count(*) - count(DISTINCT e7)),
	count(*) FILTER (WHERE greatest({TIMESTAMPS}) > clock_timestamp() + interval '1 second'
		OR least({TIMESTAMPS}) < (SELECT at FROM started) - interval '1 second'),
	count(*) FILTER (WHERE idtypes_sql.timeid_clock_id(t) = 1000),
	count(DISTINCT idtypes_sql.timeid_clock_id(t))
FROM ids"""


def cleanup():
    try:
        os.kill(int(open(os.path.join(work, "pgbouncer.pid")).read()), signal.SIGTERM)
    except (OSError, ValueError):
        pass
    psql("-c", f"DROP DATABASE IF EXISTS {DB}", user=SUPER, check=False)


psql("-c", f"CREATE DATABASE {DB}", user=SUPER)
atexit.register(cleanup)
psql("-f", os.path.join(TOP, "sql_edition", "idtypes_sql.sql"), user=SUPER, db=DB)
psql("-c", "CREATE TABLE ids (x bigint, t bigint, t5 bigint, f bigint, l uuid, m uuid, e uuid, e7 uuid)",
     "-c", "CREATE TABLE started AS SELECT clock_timestamp() AS at", user=SUPER, db=DB)

files = {"pgbouncer.ini": f"""[databases]
{DB} = host={HOST} port={PORT} dbname={DB}
[pgbouncer]
listen_addr =
listen_port = {BPORT}
unix_socket_dir = {work}
auth_type = trust
auth_file = {work}/users.txt
pool_mode = transaction
default_pool_size = 4
max_client_conn = 100
logfile = {work}/pgbouncer.log
pidfile = {work}/pgbouncer.pid
""", "users.txt": f'"{SUPER}" ""\n', "generate.sql": GENERATE, "tamper.sql": TAMPER}
for name, text in files.items():
    with open(os.path.join(work, name), "w") as f:
        f.write(text)
# PgBouncer does not run as root: as the owner of the server's socket directory then.
runas = []
if os.getuid() == 0:
    owner = os.stat(HOST).st_uid
    for p in [work] + [os.path.join(work, name) for name in files]:
        os.chown(p, owner, -1)
    runas = ["runuser", "-u", pwd.getpwuid(owner).pw_name, "--"]
status, out = run(runas + [BOUNCER, "-d", os.path.join(work, "pgbouncer.ini")])
if status != 0:
    log = os.path.join(work, "pgbouncer.log")
    out += open(log).read() if os.path.exists(log) else ""
    bad(f"PgBouncer did not start: {' | '.join(out.splitlines()[-5:])}")
    finish(0)
for _ in range(50):
    if os.path.exists(os.path.join(work, f".s.PGSQL.{BPORT}")):
        break
    time.sleep(0.1)

# 5 is generate_timeid(5)'s: its errors (55000 after a far-future tid_last) are counted, not fatal.
_, out = run([os.path.join(PGBIN, "pgbench"), "-n", "-h", work, "-p", str(BPORT), "-U", SUPER, "-c", "32", "-j", "2",
              "-t", "250", "-f", os.path.join(work, "generate.sql@39"), "-f", os.path.join(work, "tamper.sql@1"),
              "--failures-detailed", DB])
indented("\n".join(line for line in out.splitlines()
                   if line.startswith(("number of transactions actually processed", "number of failed", "latency average"))), "  ")

rows, equal, off, set_clock, clocks = map(int, psql("-c", RESULT, user=SUPER, db=DB).split("|"))
print(f"  rows {rows}, equal IDs {equal}, off the clock {off}, with the clock id set by hand {set_clock}, clock ids {clocks}")
check(rows >= 6000 and equal == 0,
      f"32 clients on 4 server connections, 1 transaction in 40 a SET of the state: {rows} rows, no two equal IDs of any generator without a given clock id",
      f"rows {rows} (at least 6,000 expected), equal IDs {equal}")
check(off == 0, "no ID dated away from the clock (the SETs reached no other client's IDs)",
      f"{off} rows hold an ID dated more than a second from the clock")
check(set_clock == 0 and clocks >= 4, f"generate_timeid()'s clock ids are the edition's ({clocks} drawn), never the one set by hand",
      f"clock ids: {set_clock} TIDs with the clock id set by hand, {clocks} clock ids")
finish(3)
