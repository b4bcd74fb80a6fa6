#!/usr/bin/env python3
"""run_matrix.py: the whole suite on every supported server (`make test-matrix`), and the tests
that span two servers (pg_upgrade).

Each server is Debian's own package, tested on the Debian release that ships it: a major the host
release packages (15 on Debian 12) runs on the host, the others each inside a clean chroot of
their release made by scripts/chroot.sh (17: trixie; 18 and 19: sid), each with that release's
compiler and Catch2. Unit tests run once per release (a second major on the same release skips
them). PG_VERSIONS (default "15 17 18 19"; "none": no server lane) picks the servers. More lanes:

  UBSAN_TOO=1         the lanes of UBSAN_MAJORS build the extension with UBSan for their whole suite
  USER_TOO=1          USER_MAJORS run part of the suite again as a user without root
  DATES_TOO=1         the host's regression suite again at two faked instants (dates(), below)
  FUZZ_SECONDS_TOO=N  every libFuzzer target of core, N seconds each (on the host)
  DEB_TOO=1           the Debian package built and tested installed on each server, and the other
                      channels (CHANNEL_JOBS)
  ARCH_TOO="<arch>.." the suite on other CPU architectures (all: every one of ARCH_LANES)

The lanes run at once (IDTYPES_MATRIX_SERIAL=1: one after the other), each a list of jobs; a line
tells when a job starts and ends, and the lanes' logs follow in order when all are done. A test
that says it does not apply (exit status 77) is fine only where MAY_SKIP expects it; an unexpected
skip, or an expected one that ran, fails the matrix. Ends with the seconds each job took, a table
of the lanes (wall and CPU seconds, the costliest steps: tools/ci_time.py copies it into
docs/development.md), what failed and skipped where, and one "N passed, N failed, N skipped" line
adding up every run. Exit status 0 only if nothing failed. IDTYPES_TAP and IDTYPES_SCRIPTS, where
set, narrow each server's TAP tests and scripts (a quick run of part of the matrix).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(TOP)
ENV = os.environ

# ---- the table ------------------------------------------------------------------------------------

# Where each test runs, scripts of test/scripts/ by name and TAP tests by path: a test not listed
# runs on every server's lane (what it tests differs between majors: the planner, the generator
# state, catalogs, replication, pg_dump, the update path, the integrations packaged per major).
# A test listed runs on the majors named only: what it tests is the same on every major, or
# differs per Debian release (18 and 19 share sid's packages) and not per server.
# docs/development.md has the table.
RUNS_ON = {
    # Client programs and packages: the client's side of the protocol, the same on every major.
    # Once per Debian release where they use the release's packages (the ORMs: Django 3.2, 4.2 and
    # 5.2, SQLAlchemy 1.4 and 2.0, ActiveRecord; sid's in 19's lane, which 18's shares), once where
    # they bring their own (npm's packages; the drivers' programs): on the host, where .ci/run
    # installs their packages before the lanes start (Go, Rust and a JDK installed and compiled in
    # a chroot would cost a run minutes).
    "drivers.py": "15",
    "orm_node.py": "15",
    "orm_python.py": "15 17 19",
    "orm_ruby.py": "15 17 19",
    "clients_dist.py": "15",
    # The clients' own generators and parsers against the server's: the same formats everywhere.
    "client_ids.sh": "15",
    # make demo from a copy of the checkout, as a user runs it.
    "demo.sh": "15",
    # Files of the tree (documents, versions, META.json, the PGXN archive, make release's refusals).
    "doc_check.sh": "19",
    "pgxn_meta.sh": "19",
    "dist.sh": "17",
    "release.sh": "15",
    # The C++ layout, with the host's clang-format 14 (another version lays lines out otherwise).
    "format_check.sh": "15",
    # The CloudNativePG image built and the whole suite loaded from it, once:
    # extension_control_path is new in 18 and works alike on 19 (t/170_extension_dir.pl checks it
    # on both); release_full.sh builds 19's image too.
    "image.sh": "18",
    # The generators under load (pgbench). Where they differ by major, src/compat.h says so: 17,
    # 18 and 19 build the same code but for the DSM registry's callback (19's signature), and 18's
    # compiler (sid's) builds 19's too. So on 15 (no DSM registry) and 19; the TAP tests of the
    # generators' lives, the regression suite's generator tests and the isolation specs run on
    # every major.
    "bench_smoke.sh": "15 19",
    # bench/count.sh end to end at a small size, where valgrind is (the host): a tool's run.
    "bench_count.sh": "15",
    # bench/load.py end to end at a small size: a tool's run; its fault check (kills, an immediate
    # restart) is t/050_crash.pl's, on every major.
    "bench_load.sh": "15",
    # The SQL edition against the native one: PL/pgSQL and SQL functions on core types, the same on
    # every major but for the planner's inlining and pruning: the oldest and newest released major.
    "sql_edition.sh": "15 18",
    # Its migration applied as psql, psycopg 3, Django, Alembic, node-postgres, node-pg-migrate and
    # a Supabase migrations/ directory do (the release's ORM packages; node's where node and npm
    # are, on the host).
    "sql_edition_migrations.py": "15 17 18",
    # A dump of the plain script's and the migration's databases restored (pg_dump differs per
    # major). The pg_tle form's dump runs in sql_edition_tle.sh.
    "sql_edition_dump.py": "15 18",
    # The edition behind PgBouncer in transaction mode: a client's side, once.
    "sql_edition_pooler.py": "15",
    # Through pg_tle: the oldest and newest majors pg_tle 1.5.2 supports here; on 15 with pg_tle
    # 1.4.0 too.
    "sql_edition_tle.sh": "15 18",
    # The TAP tests of the generators' lives (failover, restarts, waits, the WAL order, crashes, the
    # floor file, clock steps, slots, node ids, concurrency), the standbys, logical replication,
    # postgres_fdw, pg_dump and the update paths run on every major: the state per backend before
    # 17, the DSM registry from 17 (19 with its own callback signature), the WAL and recovery code
    # each major brings. The others where they apply (each also skips itself elsewhere, saying why):
    "t/160_compat_1_0.pl": "15 17",  # 1.0 builds on 15 to 17 only
    "t/170_extension_dir.pl": "18 19",  # extension_control_path is new in 18
    "t/180_pg_upgrade.pl": "",  # two servers: cross() runs it for each of CROSS_PAIRS
    "t/190_sql_edition_hostile.pl": "15 18",  # the SQL edition, as sql_edition.sh
    # Citus 14 supports 16 to 18: on the newest (its build from source is the longest step of a run
    # with nothing cached).
    "t/200_citus.pl": "18",
}
# Tests that do not apply to a server: (major, test) -> why.
MAY_SKIP = {
    ("15", "partman.sh"): "Debian 12 packages pg_partman 4.7, which has no time encoder hooks",
    ("19", "partman.sh"): "no postgresql-19-partman package yet",
    ("15", "timescaledb.sh"): "Debian 12 packages no TimescaleDB",
    ("19", "timescaledb.sh"): "no postgresql-19-timescaledb package yet",
}
# UBSAN_TOO=1: these lanes build the extension with UBSan (-fno-sanitize-recover: a report aborts
# the backend, and run_tests.sh fails on it in the server logs) for their whole suite: 15 on the
# host (the generator state per backend) and 19 in its chroot (the state shared by the cluster
# without preload, 17+). The sanitized build is the plain one (pg_config's -O2) with checks added,
# so it runs instead of the plain build: 17, 18, the architectures and every package test the plain.
UBSAN_MAJORS = {"15", "19"}
# These lanes run the regression tests at the small sizes (IDTYPES_REGRESS_SMALL, as under
# qemu-user: the same plans and checks on fewer rows; a third to a half of the suite's CPU). The
# full sizes run on the sanitized lanes and in debsrc.sh's autopkgtest against 17's package.
SMALL_MAJORS = {"17", "18"}
# USER_TOO=1: these majors (in their chroots) run part of the suite again as a user without root:
# the server of Debian 13, where a user's `make test` stages the extension through
# extension_destdir. No unit tests; the regression tests of USER_REGRESS (the extension loaded from
# the stage; the whole suite ran as root in the same chroot just before), the isolation specs, and
# only the TAP tests and scripts whose work differs as a user: what they install into the stage,
# servers a user starts, stops, crashes and restarts (the floor file in a data directory the user
# owns) and libfaketime preloaded by a user.
USER_MAJORS = {"17"}
USER_ENV = {"IDTYPES_SKIP_UNIT": "1", "IDTYPES_REGRESS": "io casts generate security",
            "IDTYPES_SCRIPTS": "minor_release.sh", "IDTYPES_TAP": "t/150_update_path.pl"}
# ARCH_TOO: the suite on other CPU architectures, each on a server of a release that packages it
# there, with the scripts each must cover (the whole script suite runs on amd64): arch ->
# (major, scripts). i386 runs natively, in a chroot of its own (scripts/chroot.sh --arch), built
# there (a 32-bit Datum: 64-bit types passed by reference); where the kernel runs no 32-bit program
# it is cross-built like the others. The others are cross-compiled on the host and run under
# qemu-user against the release's server of that architecture, extracted into a sysroot
# (scripts/sysroot.sh; a chroot configured and built in under emulation would take several times
# as long): arm64 (unsigned char, and the package) and s390x (big-endian; Debian 13's s390x point
# releases are not in the archive these machines reach: sid's, with 18). Not t/130_concurrency.pl
# under qemu-user: qemu runs the guest's loads and stores in the host's order, stronger (x86's)
# than arm64's, so a missing barrier cannot show; it runs on every amd64 lane and on i386.
ARCH_LANES = {"i386": ("15", "arch_values.sh"), "arm64": ("15", "arch_values.sh"), "s390x": ("18", "arch_values.sh")}
# The regression tests and isolation specs left out under qemu-user (REGRESS_SKIP): the races (the
# isolation specs, generate_parallel's workers), as for t/130_concurrency.pl; on arm64 the
# planner's tests too (its Datum, byte order and alignment are amd64's; what differs, unsigned
# char, is the codecs', which the rest of the suite and arch_values.sh read). s390x keeps them (the
# estimators read the IDs' bytes as numbers: big-endian), i386 too (a 32-bit Datum).
EMULATED_RACES = "commit_order generate_first_id opfamily_while_planning slot_handoff update_while_generating generate_parallel"
ARCH_REGRESS_SKIP = {"arm64": EMULATED_RACES + " estimates partition_prune joins", "s390x": EMULATED_RACES}
# Under qemu-user: no JIT (LLVM compiling under emulation costs minutes and tests nothing of ours);
# the regression suite and the unit tests' randomized cases at their small sizes (the same plans,
# checks and paths: at full size they pass their time limits under emulation; the full counts run
# on amd64); no unit tests under ASan+UBSan (the cross toolchains' sanitizer runtimes are not in the
# sysroot, or do not link); no TAP tests (the floor, its WAL records and waits are the same C++
# there, and each test starts several servers, minutes each under emulation).
EMULATED_ENV = {"IDTYPES_SERVER_OPTS": "-c jit=off", "IDTYPES_REGRESS_TIMEOUT": "2400", "SANITIZE_TOO": "0",
                "IDTYPES_REGRESS_SMALL": "1", "IDTYPES_UNIT_SMALL": "1", "IDTYPES_TAP": "0"}
# The package is cross-built and tested installed on these too (deb_cross), with the part of the
# regression suite that needs the installed files (the suite ran in the lane already).
ARCH_DEBS = {"arm64"}
# The package test's regression tests: the whole suite on DEB_FULL_SUITE (15, whose lane's own build
# is sanitized: the package is the plain build there; at the small sizes, the host's lane ran the
# full ones); DEB_REGRESS_SUBSET elsewhere, where the lane ran the whole suite against the same
# plain build just before (17; debsrc.sh's autopkgtest runs it again against the package built
# from the source package), or release_full.sh builds the package once more (19): what the package
# adds there is its files, which these load, as the owner of a database and as postgres.
DEB_FULL_SUITE = {"15"}
DEB_REGRESS_SUBSET = "init io casts generate"
# No package test on 18: it shares sid's packaging with 19, whose package is tested (and
# release_full.sh builds 18's .deb); what differs is the major in the files' paths.
DEB_UNPACKAGED = {"18"}
# DEB_TOO=1: after the package test, in the same chroot, the other channels' tests per major: the
# source package with lintian and autopkgtest on Debian 13 (12's binary package is built from the
# same debian/ and tested installed), pgxn install from the zip, and the whole `make release`
# (its .deb files and images for 18 and 19).
CHANNEL_JOBS = {"15": [["test/pgxn/pgxn_install.sh"]], "17": [["test/deb/debsrc.sh"]],
                "19": [["test/release/release_full.sh", "18", "19"]]}
# pg_upgrade from the old major to the new (t/180_pg_upgrade.pl), both packaged by the new one's
# release, in the new major's chroot.
CROSS_PAIRS = [("18", "19")]

for name in RUNS_ON:
    if not os.path.isfile(name if name.startswith("t/") else f"test/scripts/{name}"):
        sys.exit(f"run_matrix: {name} is named in RUNS_ON but does not exist")

versions = ENV.get("PG_VERSIONS", "15 17 18 19").split()
if versions == ["none"]:
    versions = []
on = {k: ENV.get(k, "0") == "1" for k in ("UBSAN_TOO", "USER_TOO", "DATES_TOO", "DEB_TOO", "IDTYPES_MATRIX_SERIAL")}
fuzz_seconds = int(ENV.get("FUZZ_SECONDS_TOO", "0") or 0)
tmp = tempfile.mkdtemp()
releases = {}


def release_of(major):
    if major not in releases:
        p = subprocess.run(["bash", "scripts/chroot.sh", "--release", major], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        releases[major] = p.stdout.strip()
    return releases[major]


def os_release():
    try:
        return next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release")
                     if line.startswith("VERSION_CODENAME=")), "")
    except OSError:
        return ""


host_release = os_release()


def runs_on(name, major):
    return name not in RUNS_ON or major in RUNS_ON[name].split()


def scripts_for(major):
    names = sorted(os.path.basename(f) for f in glob.glob("test/scripts/*.sh") + glob.glob("test/scripts/*.py"))
    wanted = ENV.get("IDTYPES_SCRIPTS")
    return [n for n in names if runs_on(n, major) and (wanted is None or n in wanted.split())]


def tap_for(major):
    if ENV.get("IDTYPES_TAP"):
        return ENV["IDTYPES_TAP"]
    return " ".join(t for t in sorted(glob.glob("t/*.pl")) if runs_on(t, major)) or "0"


# ---- lanes, jobs and their CPU seconds --------------------------------------------------------------
# Each lane runs in a cgroup of its own (cgroup v1's cpuacct, else v2), which every process it
# starts stays in, servers and chroots included: its CPU seconds are cpuacct.usage (v1) or cpu.stat's
# usage_usec (v2). IDTYPES_CPU_FILE names that file for test/run_tests.sh's CPU seconds per step
# (scripts/chroot.sh shows it inside a chroot). Where no cgroup can be made (not root, no cgroup
# file system), "-".
cgroup_base = None
if os.access("/sys/fs/cgroup/cpuacct", os.W_OK) and os.path.isfile("/sys/fs/cgroup/cpuacct/cpuacct.usage"):
    cgroup_base = f"/sys/fs/cgroup/cpuacct/idtypes-matrix.{os.getpid()}"
elif os.path.isfile("/sys/fs/cgroup/cgroup.procs") and os.access("/sys/fs/cgroup", os.W_OK):
    cgroup_base = f"/sys/fs/cgroup/idtypes-matrix.{os.getpid()}"
progress_lock = threading.Lock()


def progress(line):
    with progress_lock:
        print(line, flush=True)


SUMMARY = re.compile(r"^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$")


class Job:
    def __init__(self, lane, label, major):
        self.lane, self.label, self.major = lane, label, major
        self.lines, self.secs, self.cpu, self.server_scripts = [], 0, None, None

    def say(self, line):
        """A line of the job's own output."""
        self.lines.append(line + "\n")
        self.lane.write(line + "\n")

    def run(self, cmd, env=None, cwd=None, keep=None):
        """Runs a command, its output into the job's log and the lane's; keep(line) picks the lines
        shown. (exit status, output)"""
        if self.lane.procs:
            cmd = ["sh", "-c", 'echo $$ 2>/dev/null >"$0"; exec "$@"', self.lane.procs, *cmd]
        p = subprocess.Popen(cmd, cwd=cwd, env=dict(ENV, **self.lane.env, **(env or {})), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        out = []
        for line in p.stdout:
            out.append(line)
            if keep is None or keep(line):
                self.lines.append(line)
                self.lane.write(line)
        return p.wait(), "".join(out)

    def counted(self, cmd, env=None):
        """A test that reports by its "ok:" and "FAILED:" lines (test/lib/report.sh), counted; an
        exit status other than 0 without a FAILED line counts as one failure."""
        status, out = self.run(cmd, env)
        lines = out.splitlines()
        passed = sum(1 for line in lines if line.startswith("ok: "))
        failed = sum(1 for line in lines if line.startswith("FAILED: "))
        self.say(f"{passed} passed, {max(failed, 1 if status else 0)} failed")

    def summary(self):
        return next((line.rstrip("\n") for line in reversed(self.lines) if SUMMARY.match(line.rstrip("\n"))), None)


class Lane:
    def __init__(self, n, body, *args):
        self.n, self.body, self.args, self.jobs, self.env, self.procs = n, body, args, [], {}, None
        self.out = open(f"{tmp}/lane-{n}.out", "w")
        self.wall = self.cpu_total = None
        if cgroup_base:
            g = f"{cgroup_base}/lane-{n}"
            try:
                os.makedirs(g, exist_ok=True)
                self.procs = f"{g}/cgroup.procs"
                self.cpu_file = f"{g}/cpuacct.usage" if os.path.isfile(f"{g}/cpuacct.usage") else f"{g}/cpu.stat"
                self.env = {"IDTYPES_CPU_FILE": self.cpu_file}
            except OSError:
                self.procs = None

    def write(self, text):
        self.out.write(text)
        self.out.flush()

    def cpu(self):
        """CPU seconds so far, or None."""
        if not self.procs:
            return None
        text = open(self.cpu_file).read()
        if self.cpu_file.endswith("cpu.stat"):
            return int(re.search(r"^usage_usec (\d+)", text, re.M).group(1)) / 1e6
        return int(text) / 1e9

    def job(self, label, major, body, *args):
        """A job: prints a line as it starts and ends, its output into the lane's log."""
        j = Job(self, label, major)
        self.jobs.append(j)
        start, cpu0 = time.monotonic(), self.cpu()
        progress(f"run_matrix: started: {label}")
        self.write(f"\n######## {label}\n")
        body(j, *args)
        j.secs = round(time.monotonic() - start)
        if cpu0 is not None:
            j.cpu = round(self.cpu() - cpu0)
        progress(f"run_matrix: done in {j.secs} s: {label} ({j.summary() or ''})")
        return j

    def run(self):
        start = time.monotonic()
        try:
            self.body(self, *self.args)
        except Exception:  # the matrix's own fault: counted as a failure, not lost with the thread
            trace = traceback.format_exc()
            self.job(f"lane {self.n}", "-", lambda j: (j.say(trace), j.say("FAILED: run_matrix: the lane broke off (above)"),
                                                       j.say("0 passed, 1 failed")))
        self.wall = round(time.monotonic() - start)
        cpu = self.cpu()
        self.cpu_total = "-" if cpu is None else round(cpu)
        self.out.close()


# ---- jobs ------------------------------------------------------------------------------------------

def server(j, v, skip_unit):
    """The suite against one major (UBSAN_TOO=1: built with UBSan on UBSAN_MAJORS). On the host,
    with SANITIZE_TOO=1, the unit tests run only under ASan+UBSan with a tenth of the randomized
    rounds (every test case and path): the full counts run plain on the other releases and on i386."""
    scripts = scripts_for(v)
    j.server_scripts = scripts
    env = {"IDTYPES_SCRIPTS": " ".join(scripts), "IDTYPES_TAP": tap_for(v), "IDTYPES_SKIP_UNIT": skip_unit}
    if v in SMALL_MAJORS:
        env["IDTYPES_REGRESS_SMALL"] = "1"
    ubsan = "1" if on["UBSAN_TOO"] and v in UBSAN_MAJORS else "0"
    if release_of(v) == host_release:
        status, _ = j.run(["bash", "scripts/install-deps.sh", "base"], {"IDTYPES_PG_MAJOR": v})
        if status == 0:
            j.run(["bash", "test/run_tests.sh"], dict(env, UBSAN=ubsan, IDTYPES_UNIT_PLAIN="0", PG_CONFIG=f"/usr/lib/postgresql/{v}/bin/pg_config",
                                                      IDTYPES_UNIT_SMALL=ENV.get("SANITIZE_TOO", "0")))
    else:
        # (UBSAN is not among the variables chroot.sh passes in, hence env.)
        j.run(["bash", "scripts/chroot.sh", v, "env", f"UBSAN={ubsan}", "make", "--no-print-directory", "test"], env)


def fuzz(j):
    """Every target at once for FUZZ_SECONDS_TOO each, beside the other lanes (the coverage each
    reaches is about that of two at a time on an idle machine; `make fuzz` alone fuzzes long)."""
    if j.run(["bash", "scripts/install-deps.sh", "fuzz"])[0] == 0:
        j.run(["make", "--no-print-directory", "fuzz", f"FUZZ_SECONDS={fuzz_seconds}",
               f"FUZZ_JOBS={len(glob.glob('fuzz/fuzz_*.cpp'))}"])


def dates(j, v):
    """The regression suite and the isolation specs on the host's server once more, every process's
    clock moved to the two instants of `test/dates.sh --near` (the coming month's first half hour,
    the year's last): a test written against today's month or year fails here before it fails on
    that day. With client_ids.sh, whose clients read the clock and pause under libfaketime too. In a
    copy of the checkout, the extension staged (the host's lane installs its UBSan build meanwhile),
    at the small sizes."""
    copy = f"{tmp}/dates-checkout"
    if j.run(["bash", "scripts/copy-checkout.sh", copy])[0] == 0:
        j.run(["bash", "test/dates.sh", "--near"], cwd=copy, env={
            "IDTYPES_INSTALL_STAGE": "1", "IDTYPES_TEST_PORT": "54429", "IDTYPES_REGRESS_SMALL": "1",
            "IDTYPES_DATES_SCRIPTS": "client_ids.sh", "IDTYPES_DATES_TAP": "0",
            "PG_CONFIG": f"/usr/lib/postgresql/{v}/bin/pg_config"})


CROSS = """set -e
IDTYPES_PG_MAJOR=$1 bash scripts/install-deps.sh base
for v in "$1" "$2"; do
    make -s clean
    make -s install PG_CONFIG=/usr/lib/postgresql/$v/bin/pg_config >/dev/null
done
tap=$(mktemp -d)
cp -a --parents Makefile fuzz/fuzz.mk mk t "$tap"
chown -R postgres: "$tap"
runuser -u postgres -- env IDTYPES_UPGRADE_FROM="/usr/lib/postgresql/$1" make --no-print-directory \\
    -C "$tap" prove_installcheck PG_CONFIG="/usr/lib/postgresql/$2/bin/pg_config" \\
    PROVE_TESTS=t/180_pg_upgrade.pl PROVE_FLAGS=-v"""


def cross(j, old, new):
    """t/180_pg_upgrade.pl in the new major's chroot, with the old major's server installed there
    too and idtypes built and installed for both; as the server's user (initdb refuses root) in a
    copy of the TAP files that user owns. Counted per check."""
    status, out = j.run(["timeout", ENV.get("IDTYPES_SCRIPT_TIMEOUT", "900"), "bash", "scripts/chroot.sh", new,
                         "bash", "-c", CROSS, "cross", old, new], keep=lambda line: not re.match(r"#|\[[0-9:.]+\]", line))
    passed = len(re.findall(r"^ok [0-9]+", out, re.M))
    failed = len(re.findall(r"^not ok [0-9]+", out, re.M))
    if status != 0 and failed == 0:
        j.say(f"FAILED: t/180_pg_upgrade.pl {old} -> {new} (exit status {status})")
        lines = out.splitlines()
        near = sorted({k for i, line in enumerate(lines) if re.search("ERROR|FATAL|died", line)
                       for k in range(max(0, i - 2), min(len(lines), i + 9))})
        for k in near[-40:]:
            j.say(lines[k])
        failed = 1
    j.say(f"{passed} passed, {failed} failed")


def chroot_test(j, major, cmd, env=None, arch=None):
    """A test that runs as root in a chroot of the major's release (a clean system: 15's too, the
    host is none), counted."""
    j.counted(["bash", "scripts/chroot.sh", *(["--arch", arch] if arch else []), major, "bash", *cmd], env)


def deb(j, v):
    """`make deb` and the package's install test (test/deb/deb_install.sh) in the major's chroot;
    after the server's own run there, because it removes the idtypes files that run installed."""
    env = {"IDTYPES_REGRESS_SMALL": "1"} if v in DEB_FULL_SUITE else {"IDTYPES_DEB_REGRESS": DEB_REGRESS_SUBSET}
    chroot_test(j, v, ["test/deb/deb_install.sh"], env)


def package_jobs(lane, v, where):
    """The package test, then the major's CHANNEL_JOBS."""
    lane.job(f"Debian package on PostgreSQL {v} ({where})", "deb", deb, v)
    for cmd in CHANNEL_JOBS.get(v, []):
        name = os.path.basename(cmd[0]).removesuffix(".sh")
        lane.job(f"{name} on PostgreSQL {v} ({where})", v, chroot_test, v, cmd)


def deb_cross(j, major, arch):
    """The package cross-built on the host (`make deb` in scripts/sysroot.sh), installed with dpkg
    --root into the architecture's sysroot, where the release's server and what it depends on are
    registered as installed, and tested there by test/deb/deb_install.sh (its Depends checked by
    dpkg, its files, the regression tests of IDTYPES_DEB_REGRESS under qemu-user, the purge). No
    chroot of the architecture is configured under emulation (tens of minutes with nothing cached):
    what apt does with a package is the same on every architecture, and amd64's jobs test it."""
    debs = f"{tmp}/debs-{arch}"
    os.makedirs(debs, exist_ok=True)
    env = dict(EMULATED_ENV, IDTYPES_DEB_REGRESS=DEB_REGRESS_SUBSET)
    if (j.run(["bash", "scripts/install-deps.sh", "deb"])[0] == 0
            and j.run(["bash", "scripts/sysroot.sh", "--arch", arch, major, "make", "-s", "deb", f"DEB_DIR={debs}"], env)[0] == 0):
        j.say(f"ok: make deb, cross-built for {arch}: {' '.join(sorted(os.listdir(debs)))}")
    else:
        j.say(f"FAILED: make deb, cross-built for {arch} (scripts/sysroot.sh)")
        j.say("0 passed, 1 failed")
        return
    j.counted(["bash", "scripts/sysroot.sh", "--arch", arch, major, "bash", "test/deb/deb_install.sh"], dict(env, IDTYPES_DEB_DIR=debs))


# ---- the lanes --------------------------------------------------------------------------------------
# One per server (its run, then the cross-server tests whose new major it is, its run as a user, its
# package test), one per architecture, one for the package test of the host's server (in a chroot
# of the host's release, apart from the host's run), one for the faked dates, one for fuzzing: each
# server has a chroot of its own (the host's server: the host), so they do not wait on each other;
# the jobs of one chroot take turns anyway (its lock), so they follow each other in its lane.

def server_lane(lane, v):
    release = release_of(v)
    if not release:
        lane.job(f"PostgreSQL {v}", v, lambda j: (j.say(f"FAILED: no Debian release packages PostgreSQL {v}"),
                                                  j.say("0 passed, 1 failed")))
        return
    # Unit tests: once per release, by its first major on the list.
    first = next(m for m in versions if release_of(m) == release)
    where = f"{release}, host" if release == host_release else release
    if on["UBSAN_TOO"] and v in UBSAN_MAJORS:
        where += ", UBSan"
    lane.job(f"PostgreSQL {v} ({where})", v, server, v, "0" if first == v else "1")
    for old, new in CROSS_PAIRS:
        if new == v and old in versions:
            lane.job(f"pg_upgrade {old} -> {new} ({release} chroot)", "cross", cross, old, new)
    if on["USER_TOO"] and v in USER_MAJORS and release != host_release:
        lane.job(f"PostgreSQL {v} as a user ({release} chroot)", v, lambda j: j.run(
            ["bash", "scripts/chroot.sh", v, "bash", "scripts/as-user.sh", "make", "--no-print-directory", "test"], USER_ENV))
    if on["DEB_TOO"] and release != host_release and v not in DEB_UNPACKAGED:
        package_jobs(lane, v, f"{release} chroot")


def arch_lane(lane, arch):
    major, scripts = ARCH_LANES[arch]
    release = release_of(major)
    lane.out.flush()
    native = arch == "i386" and subprocess.run(["bash", "scripts/chroot.sh", "--native", "i386"], stdout=lane.out,
                                               stderr=subprocess.STDOUT).returncode == 0
    if native:
        # At the small sizes too: what i386 tests is the 32-bit Datum, which a fifth of the rows
        # passes as the whole does.
        lane.job(f"PostgreSQL {major} on {arch} ({release} chroot, 32-bit, no emulator)", major, lambda j: j.run(
            ["bash", "scripts/chroot.sh", "--arch", arch, major, "make", "--no-print-directory", "test"],
            {"IDTYPES_SCRIPTS": scripts, "IDTYPES_REGRESS_SMALL": "1", "IDTYPES_TAP": "t/130_concurrency.pl"}))
    else:
        lane.job(f"PostgreSQL {major} on {arch} ({release} sysroot, cross-built, qemu-user)", major, lambda j: j.run(
            ["bash", "scripts/sysroot.sh", "--arch", arch, major, "make", "--no-print-directory", "test",
             f"REGRESS_SKIP={ARCH_REGRESS_SKIP.get(arch, '')}"], dict(EMULATED_ENV, IDTYPES_SCRIPTS=scripts)))
    if on["DEB_TOO"] and arch in ARCH_DEBS:
        lane.job(f"Debian package on PostgreSQL {major} on {arch} (cross-built, installed by dpkg in its sysroot, qemu-user)",
                 "deb", deb_cross, major, arch)


specs = [(server_lane, v) for v in versions]
arch_list = ENV.get("ARCH_TOO", "").split()
if arch_list == ["all"]:
    arch_list = sorted(ARCH_LANES)
for arch in arch_list:
    if arch not in ARCH_LANES:
        sys.exit(f"run_matrix: no lane for architecture {arch} (ARCH_TOO); there are: {' '.join(ARCH_LANES)}")
    specs.append((arch_lane, arch))
host_major = next((v for v in versions if release_of(v) == host_release), None)
if host_major and on["DEB_TOO"]:
    specs.append((package_jobs, host_major, f"{host_release} chroot"))
if host_major and on["DATES_TOO"]:
    specs.append((lambda lane: lane.job(f"PostgreSQL {host_major} at two faked instants ({host_release}, host)",
                                        host_major, dates, host_major),))
if fuzz_seconds > 0:
    specs.append((lambda lane: lane.job(f"fuzzing ({fuzz_seconds} s per target)", "fuzz", fuzz),))
lanes = [Lane(i, *spec) for i, spec in enumerate(specs)]

if on["IDTYPES_MATRIX_SERIAL"]:
    for lane in lanes:
        lane.run()
        sys.stdout.write(open(lane.out.name).read())
else:
    threads = [threading.Thread(target=lane.run) for lane in lanes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for lane in lanes:
        sys.stdout.write(open(lane.out.name).read())
sys.stdout.flush()
if cgroup_base:
    for g in glob.glob(f"{cgroup_base}/lane-*") + [cgroup_base]:
        try:
            os.rmdir(g)
        except OSError:
            pass

# ---- summary ---------------------------------------------------------------------------------------
passed = failed = skipped = 0
report, failures = [], []  # failures: printed again above the last line (a CI log is often read from its tail)


def add(j):
    """The job's closing line added up, what failed noted, what skipped checked against MAY_SKIP."""
    global passed, failed, skipped
    line = j.summary()
    if line is None:
        failed += 1
        report.append(f"{j.label}: no summary line (the run broke off)")
        failures.append(report[-1])
        return
    counts = [int(n) for n in re.findall(r"\d+", line)] + [0]
    passed, failed, skipped = passed + counts[0], failed + counts[1], skipped + counts[2]
    report.append(f"{j.label}: {line}")
    log = "".join(j.lines)
    if counts[1] > 0:
        for what in re.findall(r"^(?:run_tests: FAILED|run_matrix: FAILED|not ok [0-9]+ |FAILED).*$|^.*\.\.\. FAILED.*$", log, re.M):
            report.append(f"    {what}")
            failures.append(f"{j.label}: {what}")
    # Skips: each must be on the list for this major, and each listed one must have skipped.
    said = sorted({os.path.basename(s) for s in re.findall(r"^run_tests: SKIPPED: (\S+)", log, re.M)})
    for name in said:
        if (j.major, name) in MAY_SKIP:
            report.append(f"    skipped as expected: {name} ({MAY_SKIP[(j.major, name)]})")
        else:
            failed += 1
            report.append(f"    FAILED: {name} said it does not apply, which is not expected on {j.major}")
            failures.append(f"{j.label}: {name} said it does not apply")
    for (major, name) in MAY_SKIP:
        if j.server_scripts is not None and major == j.major and name in j.server_scripts and name not in said:
            failed += 1
            report.append(f"    FAILED: {name} was expected not to apply on {major}, but it ran: update the list")
            failures.append(f"{j.label}: {name} ran where it was expected not to apply")


STEP = re.compile(r"^ *([0-9]+) s  ([^ ].*)$")


def lane_steps(lane):
    """The lane's steps, (wall, name, CPU or None): test/run_tests.sh's stage times, the chroot or
    sysroot made and the packages installed, and each job with no stage times of its own (a package
    test, fuzzing); the job's label before a step where the lane has more than one job."""
    steps, job = [], None
    for line in open(lane.out.name).read().splitlines():
        if line.startswith("######## "):
            job = re.sub(r" \(.*", "", line[9:])
            continue
        prefix = f"{job} > " if len(lane.jobs) > 1 else ""
        m = STEP.match(line)
        if m and job:
            name, cpu = m.group(2), None
            c = re.search(r"  \(CPU ([0-9]+) s\)$", name)
            if c:
                name, cpu = name[:c.start()], int(c.group(1))
            name = re.sub(r"^script test/scripts/", "", name)
            name = re.sub(r"^regression tests .*", "regression tests", name)
            name = "build and install" if name == "build, check-sql, check-abi, install" else name
            if name != "summary":
                steps.append((int(m.group(1)), prefix + name, cpu))
            continue
        m = re.match(r"^(chroot|sysroot)\.sh\[([^]]*)\]: made in ([0-9]+) s$", line)
        if m:
            steps.append((int(m.group(3)), f"{prefix}making {m.group(1)} {m.group(2)}", None))
        m = re.match(r"^chroot\.sh\[[^]]*\]: packages for PostgreSQL [0-9]+ ready in ([0-9]+) s$", line)
        if m:
            steps.append((int(m.group(1)), prefix + "packages installed", None))
    for j in lane.jobs:
        if not any(STEP.match(line) for line in j.lines):
            steps.append((j.secs, j.label, j.cpu))
    return steps


timing = []
for lane in lanes:
    for j in lane.jobs:
        add(j)
        timing.append(f"{j.secs:5d} s  {j.label}")
print("\n######## matrix summary")
print("\n".join(timing))
print("\nLanes (at once; CPU: every process of the lane, servers included):\n")
print("| lane | wall s | CPU s | its five costliest steps (wall/CPU s) |\n|---|---:|---:|---|")
for lane in lanes:
    if lane.wall is None:
        continue
    costliest = sorted(lane_steps(lane), key=lambda s: -(s[0] if s[2] is None else s[2]))[:5]
    steps = ", ".join(f"{name} {wall}" + ("" if cpu is None else f"/{cpu}") for wall, name, cpu in costliest)
    print(f"| {lane.jobs[0].label if lane.jobs else f'lane {lane.n}'} | {lane.wall} | {lane.cpu_total} | {steps} |")
print("\n".join(report))
if failures:
    print("\nWhat failed:")
    print("\n".join(f"  {f}" for f in failures))
print(f"{passed} passed, {failed} failed, {skipped} skipped", flush=True)
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failed else 0)
