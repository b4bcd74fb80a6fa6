#!/usr/bin/env python3
"""check_versions.py: every version string of the tree agrees, and a release tag with them.

    python3 tools/check_versions.py [--tag vX.Y.Z] [--docs FILE...] [ROOT]

The version is META.json's "version" (X.Y.Z). It must be, in ROOT (default: the current directory):
META.json's provides.*.version; idtypes.control's default_version and src/module.cpp's
IDTYPES_LIBRARY_VERSION (X.Y); the newest install script idtypes--X.Y.sql; debian/changelog's
upstream version; the newest heading of CHANGELOG.md; clients/python (idtypes.__version__, which
pyproject.toml reads) and clients/node/package.json; every package or archive name
(idtypes_X.Y.Z-N, idtypes-X.Y.Z) in the --docs files. A CHANGELOG heading "(unreleased)" goes with META.json's release_status "testing" or
"unstable", a dated one with "stable".

With --tag (a release): the tag is vX.Y.Z (or X.Y.Z), the release is no longer "(unreleased)" in
CHANGELOG.md, META.json's release_status is "stable", and debian/changelog names a distribution
(not UNRELEASED).

Prints each disagreement on a line of its own and exits 1 if there is any; prints the version and
exits 0 otherwise.
"""
import argparse
import glob
import json
import os
import re
import sys


def problems(root, tag, docs):
    out = []
    meta = json.load(open(os.path.join(root, "META.json")))
    v = meta.get("version", "")
    mm = ".".join(v.split(".")[:2])

    def read(path):
        return open(os.path.join(root, path), encoding="utf-8").read()

    def want(what, got, expected):
        if got != expected:
            out.append(f"{what}: {got!r}, not {expected!r}")

    def find(pattern, text, flags=0):
        m = re.search(pattern, text, flags)
        return m.group(1) if m else None

    for name, p in meta.get("provides", {}).items():
        want(f"META.json provides.{name}.version", p.get("version"), v)
    want("idtypes.control default_version",
         find(r"default_version\s*=\s*'([^']*)'", read("idtypes.control")), mm)
    want("src/module.cpp IDTYPES_LIBRARY_VERSION",
         find(r'#define IDTYPES_LIBRARY_VERSION "([^"]*)"', read("src/module.cpp")), mm)
    scripts = [os.path.basename(s) for s in glob.glob(os.path.join(root, "idtypes--[0-9]*.sql"))]
    installs = [s for s in scripts if "--" not in s[len("idtypes--"):]]
    newest = max(installs, key=lambda s: [int(x) for x in s[len("idtypes--"):-4].split(".")], default=None)
    want("newest install script", newest, f"idtypes--{mm}.sql")
    deb = re.match(r"idtypes \(([^)-]*)-[^)]*\) (\S+);", read("debian/changelog"))
    want("debian/changelog", deb.group(1) if deb else None, v)
    log = read("CHANGELOG.md")
    head = re.search(r"^## (\S+)(.*)$", log, re.M)
    want("CHANGELOG.md newest version", head.group(1) if head else None, v)
    status = meta.get("release_status")
    unreleased = bool(head and "unreleased" in head.group(2))
    if unreleased and status == "stable":
        out.append("CHANGELOG.md says unreleased, META.json release_status says stable")
    elif not unreleased and status != "stable":
        out.append(f"CHANGELOG.md dates {v}, META.json release_status says {status}")
    # pyproject.toml takes its version from the package (dynamic, attr idtypes.__version__).
    want("clients/python/idtypes/__init__.py __version__",
         find(r'^__version__\s*=\s*"([^"]*)"', read("clients/python/idtypes/__init__.py"), re.M), v)
    want("clients/python/pyproject.toml version source",
         "attr" if re.search(r'^version\s*=\s*\{\s*attr\s*=\s*"idtypes.__version__"',
                             read("clients/python/pyproject.toml"), re.M) else None, "attr")
    want("clients/node/package.json version",
         json.loads(read("clients/node/package.json")).get("version"), v)
    for doc in docs:
        if os.path.basename(doc) == "CHANGELOG.md":
            continue
        for n, line in enumerate(open(os.path.join(root, doc), encoding="utf-8"), 1):
            for m in re.finditer(r"idtypes[_-](\d+\.\d+\.\d+)(-\d+)?", line):
                if m.group(1) != v:
                    out.append(f"{doc}:{n}: {m.group(0)} is not version {v}")
    if tag is not None:
        if tag not in (v, "v" + v):
            out.append(f"tag {tag!r} is not v{v}, the version of the tree it names")
        if unreleased:
            out.append(f"CHANGELOG.md: {v} is still '(unreleased)': give it the release date")
        if status != "stable":
            out.append(f"META.json release_status is {status!r}, not 'stable'")
        if deb and deb.group(2) == "UNRELEASED":
            out.append("debian/changelog: the entry's distribution is UNRELEASED")
    return v, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tag")
    ap.add_argument("--docs", nargs="*", default=[])
    ap.add_argument("root", nargs="?", default=".")
    a = ap.parse_args()
    try:
        v, out = problems(a.root, a.tag, a.docs)
    except (OSError, ValueError, AttributeError) as e:
        print(f"check_versions: cannot read the version files: {e}")
        return 1
    for line in out:
        print(line)
    if out:
        return 1
    print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
