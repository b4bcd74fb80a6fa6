#!/usr/bin/python3
"""`make clients-dist` (clients/dist.sh) builds what the registries take, and it is complete: the
wheel and sdist of clients/python and the npm tarball of clients/node, each with the LICENSE; the
wheel with py.typed and its metadata (author, license, classifiers, version from
idtypes.__version__); every file that package.json's "exports" names in the tarball, and peer
ranges with an upper bound; no relative links out of the package in either README (they break on
the registries' pages); the versions agree with META.json's. Then the wheel installs into a venv
offline and imports, and the tarball installs with npm (`npm install ./idtypes-<version>.tgz`, as
docs/orms.md says) and imports from ES modules and CommonJS. mypy checks the type hints (strict,
as clients/python/pyproject.toml configures it).

Needs python3 with setuptools, wheel, venv and pip (scripts/install-deps.sh orm-python), mypy
(mypy), node and npm (clients). Run by test/run_tests.sh (test/lib/scripttest.py); needs no cluster.
"""
import json
import os
import re
import shutil
import sys
import tarfile
import time
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from scripttest import (TOP, bad, finish, group_packages, indented, node_version, ok, run, version_at_least,  # noqa: E402
                        workdir)

LICENSE = open(os.path.join(TOP, "LICENSE")).read()
VERSION = json.load(open(os.path.join(TOP, "META.json")))["version"]


def result(held, log, good, fault):
    """ok(good) if held, else the log indented and FAILED: fault."""
    if held:
        ok(good)
    else:
        indented(log)
        bad(fault)


def run_all(*cmds, cwd, env=None):
    """Each command in turn until one fails: (the last one's status, their output)."""
    log = ""
    for cmd in cmds:
        status, out = run(cmd, cwd=cwd, env=env)
        log += out
        if status != 0:
            return status, log
    return 0, log


group_packages("orm-python", "the Python build's packages")
# node and npm, setuptools and wheel (not the drivers' group: Go, Rust and a JDK are not needed here).
group_packages("clients", "node and npm")
group_packages("mypy", "mypy")
work = workdir()
dist = f"{work}/dist"

start = time.monotonic()
status, out = run(["make", "-s", "-C", TOP, "clients-dist", f"CLIENTS_DIST_DIR={dist}"])
built = " ".join(os.path.basename(line) for line in out.splitlines() if line.startswith("clients-dist: "))
result(status == 0, out, f"make clients-dist: {built} in {time.monotonic() - start:.0f} s", "make clients-dist")
if status != 0:
    sys.exit(1)
wheel, sdist, tarball = (f"{dist}/idtypes-{VERSION}{end}" for end in ("-py3-none-any.whl", ".tar.gz", ".tgz"))

# The Python packages.
with zipfile.ZipFile(wheel) as z, tarfile.open(sdist) as t:
    names, members = z.namelist(), t.getnames()
    meta = z.read(f"idtypes-{VERSION}.dist-info/METADATA").decode()
    # dist-info/LICENSE (setuptools before 77), dist-info/licenses/LICENSE (from 77: PEP 639).
    licenses = [n for n in names if n.startswith(f"idtypes-{VERSION}.dist-info/") and n.endswith("/LICENSE")]
    licensed = licenses and all(z.read(n).decode() == LICENSE for n in licenses)
problems = [f"wheel: no {need}" for need in ("idtypes/py.typed", "idtypes/psycopg.py", "idtypes/psycopg2.py",
                                              "idtypes/asyncpg.py", "idtypes/sqlalchemy.py", "idtypes/django.py") if need not in names]
if not licensed:
    problems.append(f"wheel: no LICENSE in its dist-info, or not the repository's: {licenses!r}")
problems += [f"wheel METADATA: no {field!r}" for field in (
    f"Version: {VERSION}", "Author: ", "Classifier: License :: OSI Approved :: PostgreSQL License",
    "Classifier: Typing :: Typed", "Requires-Python: ", "Provides-Extra: psycopg") if f"\n{field}" not in meta]
problems += [f"sdist: no {need}" for need in ("LICENSE", "README.md", "pyproject.toml", "idtypes/py.typed")
             if f"idtypes-{VERSION}/{need}" not in members]
result(not problems, "\n".join(problems),
       f"wheel and sdist: py.typed, LICENSE, the driver modules, metadata (author, license, classifiers, extras), version {VERSION}",
       "wheel and sdist are incomplete")

# The npm tarball (package/ in it).
with tarfile.open(tarball) as t:
    files = {os.path.normpath(n) for n in t.getnames()}
    pkg = json.load(t.extractfile("package/package.json"))
    license = t.extractfile("package/LICENSE").read().decode() if "package/LICENSE" in files else None
types, peers = pkg.get("types"), pkg["peerDependencies"]
problems = [why for held, why in [
    (pkg.get("version") == VERSION, f"version {pkg.get('version')}"),
    (license == LICENSE, "no LICENSE, or not the repository's"),
    *((os.path.normpath(f"package/{file}") in files, f'exports["{sub}"]: {file} is not in the tarball')
      for sub, target in pkg["exports"].items() for file in ([target] if isinstance(target, str) else target.values())),
    (os.path.normpath(f"package/{types}") in files, f"types: {types} is not in the tarball"),
    *((re.search(r"<\s*\d", peers[name]), f"peer {name} {peers[name]} has no upper bound") for name in peers),
    *((pkg.get("peerDependenciesMeta", {}).get(name, {}).get("optional"), f"peer {name} is not optional") for name in peers),
    (pkg.get("author") and pkg.get("license"), "no author or license")] if not held]
result(not problems, "\n".join(problems),
       f'npm tarball: LICENSE, every file "exports" names, optional peers with upper bounds, version {VERSION}',
       "the npm tarball is incomplete")

# The READMEs as the registries show them: no link to a file outside the package.
links = [f"{readme}:{n}:{line}" for readme in (f"{TOP}/clients/python/README.md", f"{TOP}/clients/node/README.md")
         for n, line in enumerate(open(readme).read().splitlines(), 1) if "](../" in line]
result(not links, "\n".join(links), "the packages' READMEs link nothing outside the package",
       "the packages' READMEs link outside the package (broken on PyPI and npm)")

# The type hints: mypy with clients/python/pyproject.toml's [tool.mypy] (strict; the frameworks
# without type information are Any), Debian's mypy and interpreter.
status, out = run(["/usr/bin/mypy", "--cache-dir", f"{work}/mypy-cache", "--python-executable", "/usr/bin/python3"],
                  cwd=f"{TOP}/clients/python")
result(status == 0, out, f"mypy (strict, pyproject.toml): {(out.strip().splitlines() or [''])[-1]}",
       "mypy finds type errors in clients/python")

# Installed as a user would: the wheel offline into a venv, the tarball by npm.
start = time.monotonic()
status, out = run_all(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "venv"],
                      ["venv/bin/pip", "install", "-q", wheel],
                      ["venv/bin/python", "-c", 'import idtypes, idtypes.psycopg2, importlib.resources as r; '
                       'print(idtypes.__version__, r.files("idtypes").joinpath("py.typed").is_file())'],
                      cwd=work, env=dict(os.environ, PIP_CONFIG_FILE="/dev/null", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1"))
result(status == 0 and f"{VERSION} True" in out.splitlines(), out,
       f"the wheel installs offline into a venv and imports, py.typed installed ({time.monotonic() - start:.0f} s)",
       "the wheel does not install or import")

start = time.monotonic()
project = f"{work}/project"
os.makedirs(project)
open(f"{project}/package.json", "w").write('{ "name": "user-project", "private": true, "type": "module" }\n')
shutil.copy(tarball, project)
# require() of ES modules: Node.js 20.19 and 22.12 on.
nodejs = node_version()
cjs = version_at_least(nodejs, "22.12") or (nodejs.startswith("20.") and version_at_least(nodejs, "20.19"))
status, out = run_all(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", f"./idtypes-{VERSION}.tgz"],
                      ["node", "-e", 'import("idtypes").then((m) => console.log("esm", m.GENERATORS.uid11))'],
                      *([["node", "-e", 'console.log("cjs", require("idtypes/pg").parseIdArray("{A,NULL}").length)']] if cjs else []),
                      cwd=project)
lines = out.splitlines()
result(status == 0 and "esm generate_uid11_xid" in lines and (not cjs or "cjs 2" in lines), out,
       f"npm install ./idtypes-{VERSION}.tgz: imports from an ES module"
       + (" and from CommonJS" if cjs else f" (CommonJS not checked: Node.js {nodejs} has no require() of ES modules)")
       + f" ({time.monotonic() - start:.0f} s)",
       "npm install of the tarball, or its imports")

finish(7)
