#!/usr/bin/env python3
"""client_ids.py: IDs made in the application agree with the server, both ways, for the five types
and both clients (run by test/scripts/client_ids.sh, which says what is checked). Each client runs
as a program of its own, importing its package as users do: ids_client.py (Python's idtypes from
clients/python) and ids_client.mjs (Node's idtypes/ids through package.json's "exports"). The
server's side, and the server-made IDs and inputs, are client_ids.sql.

Needs PGHOST, PGPORT, PGUSER and PGBIN (psql's directory). Prints "ok: ..." and "FAILED: ..."
lines, then "N checks passed, as expected"; exit status 0 when every check held, 77 where python3
runs this but node 18 or later is missing.
"""
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TYPES = ["uid11", "timeid", "ulidflake", "ulid", "euid"]
LANGS = ["python", "node"]

# (type, the generator's options, what must hold of each of its IDs: id is the value in SQL)
KINDS = [
    ("uid11", "-", "true"),
    ("uid11", "node=7", "xid_random(id)>>17=7"),
    ("timeid", "-", "timeid_clock_id(id)>=512 AND timeid_clock_id(id)<=991"),
    ("timeid", "clock=0", "timeid_clock_id(id)=0"),
    ("timeid", "clock=1023", "timeid_clock_id(id)=1023"),
    ("ulidflake", "-", "true"),
    ("ulidflake", "sid=31", "ulidflake_sid(id)=31"),
    ("ulidflake", "node=7", "(id::bigint&1048575)>>15=7"),
    ("ulidflake", "sid=5,node=30", "ulidflake_sid(id)=5 AND (id::bigint&1048575)>>15=30"),
    ("ulid", "-", "true"),
    ("ulid", "monotonic", "true"),
    ("euid", "-", "euid_extension(id) IS NULL"),
    ("euid", "ext=0", "euid_extension(id)=0"),
    ("euid", "ext=1", "euid_extension(id)=1"),
    ("euid", "ext=16383", "euid_extension(id)=16383"),
    ("euid", "ext=16384", "euid_extension(id)=16384"),
    ("euid", "ext=32767", "euid_extension(id)=32767"),
]
MONO = [
    ("uid11", "-", "true"),
    ("uid11", "node=3", "xid_random(id)>>17=3"),
    ("timeid", "-", "true"),
    ("timeid", "clock=777", "timeid_clock_id(id)=777"),
    ("ulidflake", "-", "true"),
    ("ulidflake", "sid=13", "ulidflake_sid(id)=13"),
    ("ulidflake", "sid=13,node=9", "ulidflake_sid(id)=13 AND (id::bigint&1048575)>>15=9"),
    ("ulid", "-", "true"),
    ("ulid", "monotonic", "true"),
    ("euid", "-", "euid_extension(id) IS NULL"),
    ("euid", "ext=4242", "euid_extension(id)=4242"),
]

oks = 0
failed = False


def ok(what):
    global oks
    print("ok: " + what, flush=True)
    oks += 1


def bad(what):
    global failed
    print("FAILED: " + what, flush=True)
    failed = True


def psql(db, sql=None, stdin=None, *opts):
    """psql's unaligned output of sql (or of the script on stdin), its lines."""
    cmd = [os.path.join(os.environ["PGBIN"], "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", db, *opts]
    if sql is not None:
        cmd += ["-c", sql]
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("psql: %s%s" % (out.stderr, sql or ""))
    return out.stdout.splitlines()


def rows(db, sql):
    return [line.split("|") for line in psql(db, sql)]


def copy_in(db, table, lines):
    psql(db, "\\copy %s FROM pstdin" % table, "".join(line + "\n" for line in lines))


class Clients:
    def __init__(self, work):
        # The Node.js package as an installed one: idtypes/ids resolves through its "exports".
        os.makedirs(os.path.join(work, "node_modules"))
        os.symlink(os.path.join(TOP, "clients", "node"), os.path.join(work, "node_modules", "idtypes"))
        shutil.copy(os.path.join(HERE, "ids_client.mjs"), work)
        self.work = work

    def run(self, lang, args, lines):
        """The client's output lines, split at tabs, for the input lines."""
        if lang == "python":
            env = dict(os.environ, PYTHONPATH=os.path.join(TOP, "clients", "python"))
            cmd = [sys.executable, os.path.join(HERE, "ids_client.py")]
        else:
            env, cmd = os.environ, ["node", os.path.join(self.work, "ids_client.mjs")]
        out = subprocess.run(cmd + args, input="".join(line + "\n" for line in lines), capture_output=True,
                             text=True, env=env, check=True)
        return [line.split("\t") for line in out.stdout.splitlines()]

    def make(self, lang, specs):
        """(type, kind, n) specs: (type, kind, seq, ID, µs before the call) rows."""
        return self.run(lang, ["make"], ["%s %s %d" % s for s in specs])


def client_made(db, clients):
    """1. client-made IDs parse in the server as the client reads them."""
    now_us = "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
    for lang in LANGS:
        t0 = psql(db, now_us)[0]
        made = clients.make(lang, [(t, k, 100) for t, k, _ in KINDS])
        t1 = psql(db, now_us)[0]
        views = clients.run(lang, ["view", "plain"], ["%s\t%s" % (r[0], r[3]) for r in made])
        copy_in(db, "c1", ["\t".join([lang, r[0], r[1], r[3], v[2]]) for r, v in zip(made, views)])
        for typ in TYPES:
            kinds = [(k, c) for t, k, c in KINDS if t == typ]
            cases = " ".join("WHEN '%s' THEN %s" % kc for kc in kinds)
            n, wrong, outside, fields = rows(db, f"""
                SELECT count(*), count(*) FILTER (WHERE sv IS DISTINCT FROM cview),
                    count(*) FILTER (WHERE NOT coalesce(us(cview) BETWEEN floor({t0} / 1000.0) * 1000 AND {t1}, false)),
                    count(*) FILTER (WHERE NOT coalesce(CASE kind {cases} END, false))
                FROM (SELECT *, CASE WHEN sv NOT LIKE 'ERR:%' THEN t::{typ} END AS id
                    FROM (SELECT *, sv(type, t) FROM c1 WHERE lang = '{lang}' AND type = '{typ}') a) s""")[0]
            want = 100 * len(kinds)
            if [n, wrong, outside, fields] == [str(want), "0", "0", "0"]:
                ok("%s: %s client-made %ss (%s) parse in the server with the client's text, value, time and field; "
                   "times within the generation's, fields as asked" % (lang, n, typ, " ".join(k for k, _ in kinds)))
            else:
                for line in psql(db, f"SELECT t, cview, sv(type, t) FROM c1 WHERE lang = '{lang}' AND type = '{typ}' "
                                     "AND sv(type, t) IS DISTINCT FROM cview LIMIT 3"):
                    print("    " + line)
                bad("%s: client-made %ss: %s of %d made, %s read otherwise by the server, %s with a time outside "
                    "[%s, %s] µs, %s without the fields asked for" % (lang, typ, n, want, wrong, outside, t0, t1, fields))

    # A ulid's 12 bits after the ms are the ms's fraction at the call (in 4096ths): each of 2,000 in
    # a row is at or after the wall clock just before its call, and at most the clock just before
    # the next call (or the last one's + 1, where two calls fall in one 4096th).
    for lang in LANGS:
        copy_in(db, "uf", ["\t".join([lang, r[2], r[3], r[4]]) for r in clients.make(lang, [("ulid", "-", 2000)])])
        # Floor and ceiling by div() on numeric: microseconds since 1970 times 4096 pass 2^63 in
        # 2041 (bigint out of range), and from 2047 numeric's "/" rounds that product's quotient to
        # an integer (it keeps 16 significant digits), so floor() of it could be one too high.
        got = psql(db, f"""
            SELECT count(*), count(*) FILTER (WHERE NOT (v >= div(before_us::numeric * 4096, 1000)
                AND (after_us IS NULL OR v <= greatest(div(after_us::numeric * 4096 + 999, 1000), pv + 1))))
            FROM (SELECT *, lead(before_us) OVER w AS after_us, lag(v) OVER w AS pv
                FROM (SELECT *, ('x' || substr(encode(t::bytea, 'hex'), 1, 15))::bit(60)::bigint AS v
                    FROM uf WHERE lang = '{lang}') a WINDOW w AS (ORDER BY seq)) b""")[0]
        if got == "2000|0":
            ok("%s: 2,000 ulids: the 12 bits after the ms are the ms's fraction at the call" % lang)
        else:
            bad("%s: ulids: (made, with a fraction outside the call's time) = %s" % (lang, got))


def pause(seconds):
    """Sleep. Not time.sleep(): under test/dates.sh's libfaketime (FAKETIME_DONT_FAKE_MONOTONIC=1),
    Python's clock_nanosleep on an absolute monotonic deadline fails with EINVAL or waits for as
    long as the offset; select()'s timeout is relative."""
    select.select([], [], [], seconds)


def time_order(db, clients):
    """2. client-made IDs sort between the server's made before and after them."""
    def server_group(lang, g):
        psql(db, "".join("INSERT INTO s SELECT '%s', '%s', %d, generate_%s()::text FROM generate_series(1, 50);"
                         % (lang, t, g, "uid11_xid" if t == "uid11" else t) for t in TYPES))

    for lang in LANGS:
        server_group(lang, 1)
        pause(0.05)
        copy_in(db, "s", ["\t".join([lang, r[0], "2", r[3]]) for r in clients.make(lang, [(t, "-", 50) for t in TYPES])])
        pause(0.05)
        server_group(lang, 3)
        for typ in TYPES:
            n, inversions, groups = rows(db, f"""
                SELECT count(*), count(*) FILTER (WHERE g < p), string_agg(DISTINCT g::text, ',')
                FROM (SELECT g, lag(g) OVER (ORDER BY id) AS p
                    FROM (SELECT g, CASE WHEN sv(type, t) NOT LIKE 'ERR:%' THEN t::{typ} END AS id
                        FROM s WHERE lang = '{lang}' AND type = '{typ}') a) x""")[0]
            if n == "150" and inversions == "0":
                ok("%s: 50 client-made %ss sort between the server's made before and after (ORDER BY the %s)"
                   % (lang, typ, typ))
            else:
                bad("%s: %s: of %s IDs in groups %s, %s sort before an ID of an earlier group"
                    % (lang, typ, n, groups, inversions))


def read_alike(db, clients):
    """3. server-made IDs read in the client as in the server; 4. inputs read alike by both."""
    for table in ("srv", "inp"):
        # type, the text in hex, the server's view
        server = [line.split("\t") for line in psql(
            db, "COPY (SELECT type, encode(convert_to(t, 'UTF8'), 'hex'), sv(type, t) FROM %s ORDER BY type) TO STDOUT"
            % table)]
        for lang in LANGS:
            client = clients.run(lang, ["view"], ["%s\t%s" % (r[0], r[1]) for r in server])
            for typ in TYPES:
                pairs = [(s[1], s[2], c[2]) for s, c in zip(server, client) if s[0] == typ]
                differ = [p for p in pairs if p[1] != p[2]]
                rejected = sum(1 for p in pairs if p[1].startswith("ERR:") and p[1] == p[2])
                n = len(pairs)
                if table == "srv":
                    if n >= 1000 and not differ and rejected == 0:
                        ok("%s: %d server-made %ss (generators and edge values) read in the client with the "
                           "server's text, value, time and field" % (lang, n, typ))
                    else:
                        for p in differ[:3]:
                            print("    server %s  client %s" % p[1:])
                        bad("%s: server-made %ss: %d of %d read otherwise in the client" % (lang, typ, len(differ), n))
                elif n >= 10 and not differ and 5 <= rejected < n:
                    ok("%s: %d %s inputs read alike: %d rejected by both with the same SQLSTATE, %d accepted by "
                       "both with the same value" % (lang, n, typ, rejected, n - rejected))
                else:
                    for p in differ[:5]:
                        print("    %s: server %s  client %s" % p)
                    bad("%s: %s inputs: %d of %d read otherwise by the client (%d rejected by both)"
                        % (lang, typ, len(differ), n, rejected))


def monotonic(db, clients):
    """5. 10,000 IDs in a row from one process strictly increase, with their fields read back."""
    for lang in LANGS:
        copy_in(db, "m", ["\t".join([lang] + r[:4]) for r in clients.make(lang, [(t, k, 10000) for t, k, _ in MONO])])
        for typ, kind, check in MONO:
            # One statement a kind: a text the server rejects fails its own kind only.
            try:
                n, distinct, down, fields = rows(db, f"""
                    SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE id <= p),
                        count(*) FILTER (WHERE NOT coalesce({check}, false))
                    FROM (SELECT t::{typ} AS id, lag(t::{typ}) OVER (ORDER BY seq) AS p FROM m
                        WHERE lang = '{lang}' AND type = '{typ}' AND kind = '{kind}') s""")[0]
            except RuntimeError as e:
                print(e)
                bad("%s: %s (%s): the server rejects some of the 10,000 (above)" % (lang, typ, kind))
                continue
            if [n, distinct, down, fields] == ["10000", "10000", "0", "0"]:
                ok("%s: 10,000 %ss (%s) in a row strictly increase, all distinct%s"
                   % (lang, typ, kind, "" if check == "true" else ", fields read back"))
            else:
                bad("%s: %s (%s): %s made, %s distinct, %s not above the one before, %s without the fields asked for"
                    % (lang, typ, kind, n, distinct, down, fields))


def main():
    node = shutil.which("node")
    if not node or int(subprocess.run([node, "-p", "process.versions.node.split('.')[0]"], capture_output=True,
                                      text=True).stdout or 0) < 18:
        print("client_ids.py: no node 18 or later")
        return 77
    db = "idt_client_ids_%d" % os.getpid()
    psql("postgres", "CREATE DATABASE " + db)
    work = tempfile.mkdtemp()
    started = time.monotonic()
    try:
        psql(db, "CREATE EXTENSION idtypes")
        psql(db, None, None, "-f", os.path.join(HERE, "client_ids.sql"))
        clients = Clients(work)
        for step in (client_made, time_order, read_alike, monotonic):
            step(db, clients)
            print("client_ids.py: %s done at %d s" % (step.__name__, time.monotonic() - started))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run([os.path.join(os.environ["PGBIN"], "psql"), "-X", "-q", "-d", "postgres", "-c",
                        "DROP DATABASE IF EXISTS " + db], capture_output=True)
    expected = 2 * (5 + 1 + 5 + 5 + 5 + len(MONO))
    if oks != expected:
        bad("%d checks passed where %d were expected" % (oks, expected))
    else:
        print("%d checks passed, as expected" % oks)
    return 1 if failed else 0


sys.exit(main())
