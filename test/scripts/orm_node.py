#!/usr/bin/python3
"""Node.js ORMs and query builders with idtypes, against a throwaway cluster: the programs in
test/orm/node/ (each with the package in clients/node/ where it has a helper) and the snippets of
docs/orms.md, all at once, each in a directory and a database of its own; the reports follow in order.

test/orm/node: drizzle.mjs (drizzle-kit generate and push emit the ID types, a second run finds no
change; insert, get by a string id, prefix, window, FK join), kysely.mjs (the same through the
schema builder, plus introspection), arrays.mjs (idtypes/pg's registerTypes on a pg.Client and a
pg.Pool, Kysely and TypeORM array columns: lists of strings), binary.mjs (idtypes/pg's binary
parsers: about 3,600 values of each type and arrays of them read as the server's text; with
binary: true node-postgres alters bytes that are not UTF-8: each value reads as its text or fails
with the error naming that), typeorm.mjs (initialize() refuses the types without
registerIdtypes(), synchronize makes them and a second sync plans nothing, a text declaration plans
DROP COLUMN), prisma.ts (Prisma 7's client with @prisma/adapter-pg over a hand-edited migration;
`prisma generate` runs offline with PRISMA_SCHEMA_ENGINE_BINARY set) and sequelize.mjs. Each checks
that prefix and window queries return the rows plain SQL returns, by an index scan (EXPLAIN of the
SQL the ORM sends), and the LIKE helpers where the server has LIKE on the ID types; it prints its
checks (shown indented), and this test "ok: <program>" or "FAILED: <program>". tsc --strict
type-checks the package's declarations (test/orm/node/types.ts) and the doc's TypeScript.

docs/orms.md: under each ORM's heading, the fenced blocks whose first line is a comment naming
their file (`// main.ts`, `-- migration.sql`, `# run.sh`) are written out and its run.sh is run
(node_modules/.bin on PATH): it must exit 0, print a ULID, and print last the line that the last
`// prints: ...` comment shows.

versions.mjs runs with test/orm/node/versions/{lowest,latest} (the lowest versions of Drizzle ORM,
Kysely and TypeORM that clients/node's peer ranges accept, and the latest on npm; a library whose
engines the node does not meet prints a "skip:" line), in a project where the doc's install-node.sh
(npm install --install-links) installs the package: not as a link, and npm ls says what the doc
says. Where the node meets Kysely's engines (0.29: Node.js 22), kysely.mjs runs there too, with
that set's Kysely.

The other packages come from test/orm/node/package-lock.json, installed by `npm ci` (install
scripts skipped: Prisma's would download engines) into a cache outside the checkout
(IDTYPES_ORM_NODE_CACHE, else /var/cache/idtypes-orm-node as root, else ~/.cache/idtypes-orm-node)
under a lock, only when test/orm/node/package*.json change. What the installed node is too old for
(Prisma 7 and TypeORM 1.1: 20.19; Kysely 0.28: 20; Debian 12's nodejs is 18.19) is skipped with a
"skip:" line, and the rest still runs; node itself comes from `scripts/install-deps.sh clients`.
Run by test/run_tests.sh (test/lib/scripttest.py).
"""
import fcntl
import os
import re
import shutil
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (TOP, Cluster, bad, cache_dir, doc_blocks, finish, group_packages,  # noqa: E402
                        node_version, npm_ci_cached, program_passed, run, tally, version_at_least,
                        workdir)

NODE = f"{TOP}/test/orm/node"
DOC = f"{TOP}/docs/orms.md"

if not shutil.which("node") or not shutil.which("npm"):
    group_packages("clients", "node and npm")
nodejs = node_version()
print(f"node {nodejs}, npm {run(['npm', '--version'])[1].strip()}")

skipped = 0


def needs(what, least):
    """Whether the node here is at least <least>; else the skip line."""
    global skipped
    if version_at_least(nodejs, least):
        return True
    print(f"skip: {what} (needs Node.js >= {least}; this is {nodejs}): runs with a newer nodejs "
          "(Debian 13's 20.19, or NodeSource's) first on PATH")
    skipped += 1
    return False


cache = cache_dir("orm-node", "IDTYPES_ORM_NODE_CACHE")
if not npm_ci_cached(NODE, cache, "drizzle-orm", "--ignore-scripts"):
    bad(f"npm ci into {cache}")
    sys.exit(1)

work = workdir()
cluster = Cluster(f"{work}/pg", int(os.environ["PGPORT"]) + 70)
# Prisma's CLI: no engine download (generate needs none), no update check.
os.environ.update(PRISMA_SCHEMA_ENGINE_BINARY="/bin/false", CHECKPOINT_DISABLE="1", PRISMA_HIDE_UPDATE_MESSAGE="1",
                  PGHOST=cluster.host, PGPORT=str(cluster.port), PGUSER="postgres")


def app_dir(d):
    """A directory for programs, whose node_modules links the cache's packages and holds a copy of
    clients/node as `idtypes` (ES modules resolve from the importing file's directory, not
    NODE_PATH; a copy, not a link, so that its own imports find the cache's packages)."""
    os.makedirs(f"{d}/node_modules")
    for name in os.listdir(f"{cache}/node_modules"):
        if not name.startswith(".") or name == ".bin":
            os.symlink(f"{cache}/node_modules/{name}", f"{d}/node_modules/{name}")
    shutil.copytree(f"{TOP}/clients/node", f"{d}/node_modules/idtypes")


class Report(list):
    """A job's lines, printed once those of the jobs launched before it have been."""

    def __init__(self):
        super().__init__()
        self.start = time.monotonic()

    def show(self, out, prefix="    "):
        self.extend(prefix + line for line in out.splitlines())
        return self

    def ok(self, what):
        self.append(f"ok: {what}")
        return self

    def bad(self, what):
        self.append(f"FAILED: {what}")
        return self

    def check(self, held, what, failure):
        return self.ok(what) if held else self.bad(failure)

    def secs(self):
        return f"{time.monotonic() - self.start:.0f}"


def oks(out):
    return len(re.findall(r"^ok: ", out, re.M))


def in_db(db, **more):
    return dict(os.environ, PGDATABASE=db, **more)


pool = ThreadPoolExecutor(max_workers=16)
jobs = []


def launch(name, db, job, *args):
    """The database made (unless None), then the job run while the next ones are launched."""
    if db:
        cluster.newdb(db)
    jobs.append((name, pool.submit(job, *args)))


APP = f"{work}/app"
app_dir(APP)
for f in os.listdir(NODE):
    if f.endswith((".mjs", ".ts")):
        shutil.copy(f"{NODE}/{f}", APP)
shutil.copytree(f"{NODE}/prisma", f"{APP}/prisma")
TSX = f"{APP}/node_modules/.bin/tsx"


def run_example(name, *cmd):
    """A program in its database (orm_<name>): shown indented, then ok or FAILED."""
    r = Report()
    status, out = run(list(cmd), cwd=APP, env=in_db(f"orm_{name}"))
    return r.show(out).check(program_passed(status, out), f"{name}: {oks(out)} checks passed in {r.secs()} s",
                             f"{name} (exit status {status})")


def run_prisma():
    status, out = run([f"{APP}/node_modules/.bin/prisma", "generate", "--schema", "prisma/schema.prisma"], cwd=APP)
    return run_example("prisma", TSX, "prisma.ts") if status == 0 else Report().show(out).bad("prisma: prisma generate")


# (program, the Node.js it needs, what needs that, what runs <program>.mjs; prisma.ts: run_prisma)
for name, least, what, runner in [("drizzle", "18.0", "Drizzle", TSX), ("kysely", "20.0", "Kysely 0.28", "node"),
                                  ("typeorm", "20.19", "TypeORM 1.1", "node"),
                                  ("arrays", "20.19", "arrays (Kysely 0.28, TypeORM 1.1)", "node"),
                                  ("binary", "18.0", "binary (node-postgres)", "node"),
                                  ("prisma", "20.19", "Prisma 7", None), ("sequelize", "18.0", "Sequelize", "node")]:
    if needs(what, least):
        launch(name, f"orm_{name}", *((run_example, name, runner, f"{name}.mjs") if runner else (run_prisma,)))

doc_blocks(f"{TOP}/docs/orms.md", f"{work}/docblocks")


def run_versions(set_):
    """versions/<set>/package.json (the lowest versions the peer ranges accept, the latest on npm)
    installed by `npm ci` into a cache of its own, copied into a project, the package installed
    there by the doc's install-node.sh as it stands (npm from its cache, --prefer-offline), then
    versions.mjs."""
    r, d, versions = Report(), f"{work}/v-{set_}", f"{NODE}/versions/{set_}"
    vcache = cache_dir(f"orm-node-{set_}", f"IDTYPES_ORM_NODE_CACHE_{set_.upper()}")
    if not npm_ci_cached(versions, vcache, "drizzle-orm"):
        return r.bad(f"versions, {set_}: npm ci into {vcache}")
    shutil.copytree(f"{TOP}/clients/node", f"{d}/clients/node")
    for f in (f"versions/{set_}/package.json", f"versions/{set_}/package-lock.json", "common.mjs", "versions.mjs"):
        shutil.copy(f"{NODE}/{f}", d)
    with open(f"{vcache}/.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.copytree(f"{vcache}/node_modules", f"{d}/node_modules", symlinks=True)
    status, out = run(["bash", "-e", f"{work}/docblocks/install-node.sh"], cwd=d,
                      env=dict(os.environ, npm_config_prefer_offline="true", npm_config_audit="false",
                               npm_config_fund="false", npm_config_loglevel="error"))
    copy = f"{d}/node_modules/idtypes"
    if status != 0 or os.path.islink(copy) or not os.path.isfile(f"{copy}/package.json"):
        return r.show(out).bad(f"versions, {set_}: the doc's install-node.sh (exit status {status}) did not copy the "
                               "package into node_modules")
    r.append(f"    install-node.sh: {r.secs()} s")
    # What the doc says of npm ls after it: the copy is valid given the same flag, and "invalid"
    # (ELSPROBLEMS) without it.
    linked, ls = run(["npm", "ls", "--install-links", "idtypes"], cwd=d)
    plain, ls_plain = run(["npm", "ls", "idtypes"], cwd=d)
    if linked != 0 or "idtypes@" not in ls or "invalid" in ls or plain == 0 or "invalid" not in ls_plain:
        return r.show(ls + ls_plain).bad(f"versions, {set_}: npm ls after the doc's install-node.sh is not what "
                                         "docs/orms.md says")
    r.append("    npm ls --install-links: valid; npm ls: invalid, as docs/orms.md says")
    status, out = run(["node", "versions.mjs"], cwd=d, env=in_db(f"orm_v_{set_}"))
    r.show(out)
    if not program_passed(status, out):
        return r.bad(f"versions, {set_} (exit status {status})")
    # Kysely's whole program (kysely.mjs: prefix, windows, index scans, joins) with this set's
    # Kysely too, where versions.mjs ran its checks (the node meets its engines).
    kysely = ""
    if not re.search(r"^skip: kysely ", out, re.M):
        version = run(["node", "-p", "require('./node_modules/kysely/package.json').version"], cwd=d)[1].strip()
        shutil.copy(f"{NODE}/kysely.mjs", d)
        cluster.newdb(f"orm_vk_{set_}")
        r.append(f"    kysely.mjs with kysely {version}:")
        status, kout = run(["node", "kysely.mjs"], cwd=d, env=in_db(f"orm_vk_{set_}"))
        r.show(kout, " " * 8)
        if not program_passed(status, kout):
            return r.bad(f"versions, {set_}: kysely.mjs with kysely {version} (exit status {status})")
        kysely = f", kysely.mjs with kysely {version}: {oks(kout)} checks"
    libraries = ", ".join(sorted(set(re.findall(r"^ok: ([a-z-]* [0-9.]*):", out, re.M))))
    return r.ok(f"versions, {set_} ({libraries}): the doc's install, {oks(out)} checks{kysely} passed in {r.secs()} s")


for set_ in ("lowest", "latest"):
    launch(f"versions-{set_}", f"orm_v_{set_}", run_versions, set_)


def blocks(section):
    """(language, file, code) of each block under the heading <section> (or one that starts with
    it and a space) whose first line is a comment naming its file."""
    found, lang, on = [], None, False
    for line in open(DOC).read().splitlines():
        if lang is None:
            if re.match(r"#+ ", line):
                heading = line.split(" ", 1)[1]
                on = heading == section or heading.startswith(section + " ")
            elif line.startswith("```"):
                lang, code = line[3:], []
        elif line == "```":
            named = re.fullmatch(r"(?://|--|#) ([A-Za-z0-9_./-]+)", code[0]) if code else None
            if on and named and re.fullmatch(r"[a-z]+", lang):
                found.append((lang, named[1], "\n".join(code) + "\n"))
            lang = None
        else:
            code.append(line)
    return found


def project(d, files):
    """An ES module project (as the doc says) in <d>, with the files {path: code}."""
    app_dir(d)
    files["package.json"] = '{ "type": "module" }\n'
    for path, code in files.items():
        os.makedirs(os.path.dirname(f"{d}/{path}"), exist_ok=True)
        with open(f"{d}/{path}", "w") as f:
            f.write(code)


def run_snippets(section, db):
    """The section's blocks as files, then its run.sh."""
    r, d, doc = Report(), f"{work}/snip-{db}", os.path.basename(DOC)
    found = blocks(section)
    project(d, {file: code for _, file, code in found})
    if not os.path.isfile(f"{d}/run.sh"):
        return r.bad(f"{DOC}, {section}: no run.sh block ({len(found)} blocks)")
    # What the last line printed must be: the last "// prints: ..." comment of the programs.
    prints = [m for _, file, code in found if "/" not in file and file.endswith((".ts", ".mjs"))
              for m in re.findall(r"// prints: (.*)", code)]
    status, out = run(["bash", "run.sh"], cwd=d, env=in_db(db, PATH=f"{d}/node_modules/.bin:{os.environ['PATH']}"))
    r.show(out)
    if not prints:
        return r.bad(f"{doc}, {section}: no '// prints:' comment in its blocks")
    last = out.removesuffix("\n").split("\n")[-1]
    held = status == 0 and re.search(r"(?<![0-9A-Z])[0-9A-HJKMNP-TV-Z]{26}(?![0-9A-Z])", out) and last == prints[-1]
    return r.check(held, f"{doc}, {section}: its {len(found)} blocks run in {r.secs()} s, print an ID and then: "
                   f"{prints[-1]}", f"{doc}, {section} (exit status {status})")


def run_types():
    """tsc --noEmit (strict) over test/orm/node/types.ts and the doc's TypeScript blocks of Drizzle,
    Kysely and TypeORM: the package's hand-written declarations against the libraries'."""
    r, d = Report(), f"{work}/types"
    ts = {f"{section}/{file}": code for section in ("Drizzle", "Kysely", "TypeORM")
          for lang, file, code in blocks(section) if lang == "ts"}
    project(d, ts.copy())
    for f in ("types.ts", "tsconfig.json"):
        shutil.copy(f"{NODE}/{f}", d)
    status, out = run([f"{d}/node_modules/.bin/tsc", "-p", "."], cwd=d)
    return r.show(out).check(status == 0, f"tsc --strict: types.ts and the doc's TypeScript of {len(ts)} files "
                             f"type-check in {r.secs()} s",
                             f"tsc: the package's declarations or the doc's TypeScript (exit status {status})")


if needs("tsc", "18.0"):
    launch("types", None, run_types)
for section, least in [("Drizzle", "18.0"), ("Kysely", "20.0"), ("TypeORM", "20.19"), ("Prisma", "20.19"),
                       ("Sequelize", "18.0")]:
    if needs(f"{section} snippets", least):
        launch(f"snip-{section}", f"snip_{section.lower()}", run_snippets, section, f"snip_{section.lower()}")

for name, job in jobs:
    try:
        text = "\n".join(job.result())
    except Exception:
        text = f"{traceback.format_exc()}FAILED: {name}: broke off (above)"
    print(text, flush=True)
    tally(text)

if skipped:
    print(f"{skipped} skipped for Node.js {nodejs} (see the skip: lines)")
finish(len(jobs))
