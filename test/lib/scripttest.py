"""What the Python tests of test/scripts/ share: the report lines, a throwaway cluster, packages
and the npm cache. The shell tests have the same in test/lib/report.sh, nodes.sh and packages.sh,
and both print the same lines:

- "ok: <what>" for a check that held, "FAILED: <what>" for one that did not; finish(expected) ends
  the test, failing it where a check failed or the number of ok lines is not the one expected (a
  check that was skipped fails as a failed one does);
- skip(why): the test does not apply here (exit status 77, the reason its last line).

test/run_tests.sh runs each test with PGHOST, PGPORT, PGUSER (a superuser), PGBIN and
IDTYPES_TEST_START_CLUSTER (test/cluster.sh) set, and reads those lines. Python here is Debian's
(/usr/bin/python3: psycopg, Django, SQLAlchemy and Alembic are its packages).
"""
import atexit
import fcntl
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PGBIN = os.environ.get("PGBIN", "")
PSQL = os.path.join(PGBIN, "psql")
oks = 0
failed = False


def ok(what):
    global oks
    print(f"ok: {what}", flush=True)
    oks += 1


def bad(what):
    global failed
    print(f"FAILED: {what}", flush=True)
    failed = True


def check(held, what, why=""):
    """ok(what) if held, else bad(what, with why after a colon)."""
    if held:
        ok(what)
    else:
        bad(f"{what}: {why}" if why else what)
    return held


def tally(output):
    """The ok and FAILED lines another program printed (the caller showed them) count here."""
    global oks, failed
    lines = output.splitlines()
    oks += sum(1 for line in lines if line.startswith("ok:"))
    failed = failed or any(line.startswith("FAILED") for line in lines)


def skip(why):
    print(why, flush=True)
    sys.exit(77)


def finish(expected):
    if oks != expected:
        bad(f"{oks} checks passed where {expected} were expected")
    else:
        print(f"{oks} checks passed, as expected", flush=True)
    sys.exit(1 if failed else 0)


def indented(text, prefix="    "):
    """Another program's output, shown under the line that reports it."""
    for line in text.splitlines():
        print(prefix + line)
    sys.stdout.flush()


def workdir():
    """A directory for the test's files, removed at exit; readable by the server's user."""
    work = tempfile.mkdtemp()
    os.chmod(work, 0o755)
    atexit.register(shutil.rmtree, work, True)
    return work


def run(cmd, cwd=None, env=None, timeout=300, stdin=None):
    """(exit status, stdout and stderr together) of a command; 124 when it timed out."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, stdin=stdin if stdin is not None else subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        return 124, (out.decode(errors="replace") if isinstance(out, bytes) else out) + f"\n(timed out after {timeout} s)"


def psql(*args, host=None, port=None, user="postgres", db="postgres", check=True, env=None):
    """psql -X -q -At with ON_ERROR_STOP; its output without the last newline. With check, a
    failure ends the test (FAILED and its output)."""
    cmd = [PSQL, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-U", user, "-d", db]
    if host:
        cmd += ["-h", host]
    if port:
        cmd += ["-p", str(port)]
    p = subprocess.run(cmd + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0 and check:
        print(p.stdout + p.stderr)
        bad(f"psql {' '.join(args)}")
        sys.exit(1)
    return p.stdout.rstrip("\n") if p.returncode == 0 else None


def server_major():
    out = subprocess.run([os.path.join(PGBIN, "postgres"), "--version"], stdout=subprocess.PIPE, text=True).stdout
    return int("".join(c if c.isdigit() else " " for c in out).split()[0])


class Cluster:
    """A throwaway cluster of test/cluster.sh in <dir> on <port> (a socket there, no TCP), stopped
    at exit: host, port, psql(), newdb()."""

    def __init__(self, dir, port, *options):
        self.host, self.port = dir, port
        env = dict(os.environ, PGPORT=str(port))
        status, out = run(["bash", os.environ["IDTYPES_TEST_START_CLUSTER"], "start", dir, *options], env=env)
        if status != 0:
            print(out)
            bad(f"no cluster started on port {port}")
            sys.exit(1)
        atexit.register(run, ["bash", os.environ["IDTYPES_TEST_START_CLUSTER"], "stop", dir], None, env)
        print(f"cluster: PostgreSQL {self.psql('-c', 'SHOW server_version')}, socket {dir}, port {port}", flush=True)

    def psql(self, *args, **kw):
        return psql(*args, host=self.host, port=self.port, **kw)

    def newdb(self, name, extension=True):
        self.psql("-c", f"CREATE DATABASE {name}")
        if extension:
            self.psql("-c", "CREATE EXTENSION idtypes", db=name)

    def environ(self, **more):
        """The environment of a client of this cluster."""
        return dict(os.environ, PGHOST=self.host, PGPORT=str(self.port), PGUSER="postgres", **more)


def group_packages(group, what):
    """scripts/install-deps.sh <group>: as root, installs what is missing; not root and missing,
    the test does not apply here (skip, saying what to run)."""
    status, out = run(["bash", os.path.join(TOP, "scripts", "install-deps.sh"), group], timeout=1800)
    if status == 0:
        print(next((line for line in out.splitlines() if line.startswith("install-deps.sh: installing")), ""), end="")
        return
    missing = [line for line in out.splitlines() if line.startswith("install-deps.sh: missing packages")]
    if os.getuid() != 0 and missing:
        names = missing[0].split(": ", 2)[-1].split(";")[0]
        skip(f"{what} are not installed ({names}): run sudo scripts/install-deps.sh {group} (or make test as root) to run this test")
    print(out)
    bad(f"the packages of scripts/install-deps.sh {group} are missing")
    sys.exit(1)


def cache_dir(name, variable):
    """A cache outside the checkout: $<variable>, else /var/cache/idtypes-<name> as root, else
    ~/.cache/idtypes-<name>."""
    if os.environ.get(variable):
        return os.environ[variable]
    if os.getuid() == 0:
        return f"/var/cache/idtypes-{name}"
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), f"idtypes-{name}")


def npm_ci_cached(project, cache, package, *npm_args):
    """`npm ci` of <project>'s lock file into <cache>, under a lock, only when its package*.json
    changed or <package> is missing there: True if
    the cache is ready; else its log is printed."""
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        same = all(os.path.exists(os.path.join(cache, f)) and filecmp.cmp(os.path.join(project, f), os.path.join(cache, f), shallow=False)
                   for f in ("package.json", "package-lock.json"))
        if same and os.path.exists(os.path.join(cache, "node_modules", package, "package.json")):
            return True
        start = time.monotonic()
        for f in ("package.json", "package-lock.json"):
            shutil.copy(os.path.join(project, f), cache)
        status, out = run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", *npm_args], cwd=cache, timeout=1800)
        if status != 0:
            print(out)
            for f in ("package.json", "package-lock.json"):
                os.remove(os.path.join(cache, f))
            return False
        print(f"npm ci into {cache}: {time.monotonic() - start:.0f} s")
        return True


def doc_blocks(doc, directory):
    """test/lib/docblocks.sh's doc_blocks: each block of <doc> named by a `<!-- file: <name> -->`
    line into <directory>/<name>; their names."""
    out = subprocess.run(["bash", "-c", '. "$1"; doc_blocks "$2" "$3"', "doc_blocks", os.path.join(TOP, "test", "lib", "docblocks.sh"), doc, directory],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return out.split()


def program_passed(status, out):
    """Whether a check program (drivers' examples, the ORMs' programs) passed: it exited 0, printed
    "N checks, 0 failed" and no FAILED line."""
    return (status == 0 and re.search(r"^\d+ checks, 0 failed$", out, re.M) is not None
            and re.search(r"^FAILED", out, re.M) is None)


def node_version():
    """The version of the node on PATH (20.19.2); "" where there is none."""
    if not shutil.which("node"):
        return ""
    return run(["node", "-p", "process.versions.node"])[1].strip()


def version_at_least(version, least):
    """Whether a dotted version is at least another (20.19.2 >= 20.19)."""
    def key(v):
        return [int(p) for p in v.split(".") if p.isdigit()]
    return key(version) >= key(least)
