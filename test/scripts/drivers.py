#!/usr/bin/python3
"""Real client drivers against a throwaway cluster: the programs in test/drivers/ and the snippets
of docs/drivers.md.

test/drivers/python (psycopg 3, text and binary format), test/drivers/node (node-postgres, type
parsers registered by type name) and test/drivers/java (pgjdbc: PGobject, java.util.UUID) each
create a table with all five ID types (generated defaults), insert IDs as parameters and read them
back exactly, and query by `^@` prefix and by `<@ <type>_time_range(...)` with bound parameters in
prepared statements under plan_cache_mode = force_generic_plan, checking the rows and that the
generic plan is a btree index range scan. Each prints its checks; this test prints them indented,
then "ok: <example>" or "FAILED: <example>". Then each code block of docs/drivers.md (python, js,
java, go, rust) is extracted and run as it stands, in a database of its own: it must exit 0 and
print the ULID it inserted and the row it read back by it.

Missing packages come from `scripts/install-deps.sh drivers` (as root). Node modules and builds are
kept between runs in caches outside the checkout (each IDTYPES_<LANG>_CACHE, else
/var/cache/idtypes-<lang> as root, else ~/.cache/idtypes-<lang>), each under a lock: npm installs
pg into the node cache only when test/drivers/node/package*.json change; the Go snippet (pgx v4)
and the Rust one (tokio-postgres) are built offline from Debian's packaged sources with GOCACHE and
CARGO_TARGET_DIR in their caches, so only a changed snippet or package compiles again (the seconds
of a build are printed). Java compiles into the work directory. One cluster serves all, on its
unix socket and (pgjdbc needs TCP) on 127.0.0.1, at the first free port from PGPORT+60.

Run by test/run_tests.sh (test/lib/scripttest.py).
"""
import contextlib
import difflib
import fcntl
import os
import re
import shutil
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (TOP, Cluster, bad, cache_dir, check, finish, group_packages, indented,  # noqa: E402
                        npm_ci_cached, ok, program_passed, run, workdir)

EXAMPLES = os.path.join(TOP, "test", "drivers")
DOC = open(os.path.join(TOP, "docs", "drivers.md")).read()
PYTHON = "/usr/bin/python3"  # Debian's, for which psycopg is installed
JAR = "/usr/share/java/postgresql.jar"


def client(db, **more):
    """The environment of a program that connects to <db> (PGHOST=127.0.0.1 for pgjdbc: TCP only)."""
    return {**cluster.environ(PGDATABASE=db), **more}


def run_example(name, cmd, env):
    """The program's lines indented, then ok or FAILED: it must exit 0 and report checks, none failed."""
    start = time.monotonic()
    status, out = run(cmd, env=env, timeout=300)
    indented(out)
    oks = len(re.findall(r"^ok: ", out, re.M))
    if oks and program_passed(status, out):
        ok(f"{name}: {oks} checks passed in {time.monotonic() - start:.0f} s")
    else:
        bad(f"{name} (exit status {status})")


def run_snippet(name, cmd, env):
    """It must exit 0 and print "<a ULID> book"."""
    status, out = run(cmd, env=env, timeout=120)
    indented(out)
    check(status == 0 and re.search(r"^[0-9A-HJKMNP-TV-Z]{26} book$", out, re.M),
          f"docs/drivers.md, {name}: the snippet inserts and finds its row", f"exit status {status}")


def snippet(lang):
    """The code block of docs/drivers.md fenced as ```<lang>."""
    m = re.search(rf"^```{lang}\n(.*?)^```$", DOC, re.M | re.S)
    return m.group(1) if m else ""


def update(path, text):
    """<path> holds <text>, written only if it did not (so its modification time, which cargo
    compares, changes only with its content): whether it was written."""
    if os.path.exists(path) and open(path).read() == text:
        return False
    open(path, "w").write(text)
    return True


@contextlib.contextmanager
def locked(cache):
    """The cache (made if missing) under its lock, which concurrent runs share."""
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def javac(name, source, classes):
    """Whether <source> compiled into <classes> (else its errors and FAILED: <name>: javac)."""
    status, out = run(["javac", "-cp", JAR, "-d", classes, source])
    if status != 0:
        print(out)
        bad(f"{name}: javac")
    return status == 0


def go_build():
    """Go: pgx v4 from Debian's golang-github-jackc-pgx-v4-dev, whose sources are a GOPATH tree
    (/usr/share/gocode) and no module: GOPATH mode, offline. Debian's go, whatever else is on PATH:
    the packaged sources are the ones Debian's compiler builds. The snippet is built in the cache
    (the same path every run: it is part of Go's cache keys) with GOCACHE there, so a second run
    compiles nothing and only links (-x shows each compiler run, for the seconds of a build).
    Whether it built <work>/snippet-go."""
    cache = cache_dir("go", "IDTYPES_GO_CACHE")
    env = dict(os.environ, GO111MODULE="off", GOPATH="/usr/share/gocode", GOCACHE=f"{cache}/gocache", GOFLAGS="",
               GOPROXY="off", GOTOOLCHAIN="local")

    def build(*flags):
        return run(["/usr/bin/go", "build", *flags, "-o", f"{work}/snippet-go", "main.go"], cwd=f"{cache}/snippet", env=env, timeout=1800)

    with locked(cache):
        os.makedirs(f"{cache}/snippet", exist_ok=True)
        update(f"{cache}/snippet/main.go", snippet("go"))
        start = time.monotonic()
        status, out = build("-x")
        if status != 0:
            # Again without -x: the errors alone.
            print(build()[1])
            return False
        if re.search(r"/pkg/tool/[^/ ]+/(compile|asm|cgo) ", out):
            print(f"go build, GOCACHE {cache}/gocache: {time.monotonic() - start:.0f} s")
        return True


def dependencies(toml):
    """The [dependencies] section of a Cargo.toml: its heading and lines, no blank or comment one."""
    section = re.search(r"^\[dependencies\]$.*?(?=^\[|\Z)", toml, re.M | re.S)
    return [line for line in (section.group(0) if section else "").splitlines() if line.strip() and not line.startswith("#")]


def cargo_build():
    """Rust: tokio-postgres from Debian's librust-tokio-postgres-dev, built by Debian's cargo and
    rustc (not rustup's, if that comes first on PATH) offline, with the registry replaced by
    Debian's /usr/share/cargo/registry in a CARGO_HOME of the cache. The crate is
    test/drivers/rust/Cargo.toml with the snippet as src/main.rs, both written into the cache only
    when they differ (cargo compares modification times), and CARGO_TARGET_DIR is there too: a
    second run compiles nothing ("Compiling" is what cargo says when it does). Whether it built
    <work>/snippet-rust."""
    cache = cache_dir("rust", "IDTYPES_RUST_CACHE")
    with locked(cache):
        for d in ("crate/src", "cargo-home"):
            os.makedirs(f"{cache}/{d}", exist_ok=True)
        update(f"{cache}/crate/Cargo.toml", open(f"{EXAMPLES}/rust/Cargo.toml").read())
        update(f"{cache}/crate/src/main.rs", snippet("rust"))
        update(f"{cache}/cargo-home/config.toml",
               '[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n')
        # Resolved anew every run: after an upgrade of Debian's crates an old lock file would name
        # versions the registry no longer has. An unchanged resolution rebuilds nothing.
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{cache}/crate/Cargo.lock")
        # A new rustc rebuilds everything anyway: the old build goes, or the cache would keep one
        # per compiler that sid has had.
        status, version = run(["/usr/bin/rustc", "-vV"])
        if status != 0:
            print(version)
            return False
        if update(f"{cache}/rustc-version", version):
            shutil.rmtree(f"{cache}/target", ignore_errors=True)
        start = time.monotonic()
        env = dict(os.environ, CARGO_HOME=f"{cache}/cargo-home", CARGO_TARGET_DIR=f"{cache}/target", RUSTC="/usr/bin/rustc")
        status, out = run(["/usr/bin/cargo", "build", "--offline", "--manifest-path", f"{cache}/crate/Cargo.toml"], env=env, timeout=3600)
        if status != 0:
            print(out)
            return False
        if re.search(r"^ *Compiling ", out, re.M):
            print(f"cargo build, CARGO_TARGET_DIR {cache}/target: {time.monotonic() - start:.0f} s")
        # A copy to run: the next run's build may replace the cached one.
        shutil.copy(f"{cache}/target/debug/orders-example", f"{work}/snippet-rust")
        return True


group_packages("drivers", "the drivers' packages")
work = workdir()
# The first port from PGPORT+60 on which nothing listens on 127.0.0.1.
base = int(os.environ["PGPORT"]) + 60
port = next((p for p in range(base, base + 10) if socket.socket().connect_ex(("127.0.0.1", p)) != 0), None)
if port is None:
    bad(f"no free port in {base}..{base + 9}")
    sys.exit(1)
cluster = Cluster(f"{work}/pg", port, "-c", "listen_addresses=127.0.0.1")
# The programs create the extension themselves; the snippets expect it.
for db in ("idt_python", "idt_node", "idt_java", "snip_python", "snip_js", "snip_java", "snip_go", "snip_rust"):
    cluster.newdb(db, extension=db.startswith("snip_"))

# The programs of test/drivers/.
run_example("python (psycopg 3, text and binary)", [PYTHON, f"{EXAMPLES}/python/idtypes_psycopg.py"], client("idt_python"))

# Node.js: node_modules in the cache, installed by `npm ci` from the checked-in lock file.
node_cache = cache_dir("node", "IDTYPES_NODE_CACHE")
node_ready = npm_ci_cached(f"{EXAMPLES}/node", node_cache, "pg")
node_path = f"{node_cache}/node_modules"
if node_ready:
    run_example("node (pg, text, type parsers)", ["node", f"{EXAMPLES}/node/idtypes_pg.js"], client("idt_node", NODE_PATH=node_path))
else:
    bad(f"node: npm ci into {node_cache}")

if javac("java", f"{EXAMPLES}/java/IdtypesJdbc.java", f"{work}/java"):
    run_example("java (pgjdbc, PGobject, UUID)", ["java", "-cp", f"{work}/java:{JAR}", "IdtypesJdbc"], client("idt_java", PGHOST="127.0.0.1"))

# The snippets of docs/drivers.md, as a user copies them.
update(f"{work}/snippet.py", snippet("python"))
run_snippet("python", [PYTHON, f"{work}/snippet.py"], client("snip_python"))
if node_ready:
    update(f"{work}/snippet.js", snippet("js"))
    run_snippet("node", ["node", f"{work}/snippet.js"], client("snip_js", NODE_PATH=node_path))
os.makedirs(f"{work}/snippet-java")
update(f"{work}/snippet-java/OrdersExample.java", snippet("java"))
if javac("docs/drivers.md, java", f"{work}/snippet-java/OrdersExample.java", f"{work}/snippet-java"):
    run_snippet("java", ["java", "-cp", f"{work}/snippet-java:{JAR}", "OrdersExample"], client("snip_java", PGHOST="127.0.0.1"))
if go_build():
    run_snippet("go", [f"{work}/snippet-go"], client("snip_go"))
else:
    bad("docs/drivers.md, go: go build")
# The crate's [dependencies] must be the ```toml block of docs/drivers.md.
documented, crate = dependencies(snippet("toml")), dependencies(open(f"{EXAMPLES}/rust/Cargo.toml").read())
if documented != crate:
    indented("\n".join(difflib.unified_diff(documented, crate, "docs/drivers.md", "test/drivers/rust/Cargo.toml", lineterm="")))
    bad("docs/drivers.md, rust: its [dependencies] are not those of test/drivers/rust/Cargo.toml")
elif cargo_build():
    run_snippet("rust", [f"{work}/snippet-rust"], client("snip_rust"))
else:
    bad("docs/drivers.md, rust: cargo build")

finish(8)
