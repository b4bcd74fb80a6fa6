#!/usr/bin/env bash
# doc_check.sh: the user docs speak to users, and every version string agrees.
#
# 1. README.md, docs/*.md (but docs/development.md) and clients/*/README.md contain none of the
#    development vocabulary listed in test/doc_words.txt (test paths, "CI", "lane", "chroot",
#    "stand-in", issue and commit references, ...). HTML comments are not read: they are the
#    markers doctest.sh reads (<!-- tested by ... -->), which no reader sees.
# 2. The version is the same everywhere it is written: META.json (version, provides), the control
#    file's default_version and the library's IDTYPES_LIBRARY_VERSION (major.minor), the newest
#    install script, debian/changelog, the newest heading of CHANGELOG.md, clients/python and
#    clients/node, and every package or archive name in the docs (idtypes_X.Y.Z-N, idtypes-X.Y.Z).
#    A CHANGELOG heading "(unreleased)" goes with META.json's release_status "testing" or
#    "unstable", a dated one with "stable".
#
# Needs no server: run by test/run_tests.sh like the other scripts; DOC_CHECK_ROOT=<dir> checks
# another tree (what the failure test of this script does with a copy).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=${DOC_CHECK_ROOT:-$(cd "$here/../.." && pwd)}
. "$here/../lib/report.sh"
cd "$top" || exit 1

words=test/doc_words.txt
docs=(README.md)
for f in docs/*.md clients/*/README.md; do
	[ "$f" = docs/development.md ] || docs+=("$f")
done

# ---- 1. development vocabulary ------------------------------------------------------------------

# Each pattern against each doc, HTML comments blanked (line numbers kept), case-insensitively
# unless the pattern turns that off itself ((?-i)).
hits=$(python3 - "$words" "${docs[@]}" <<'PY'
import re, sys
words, docs = sys.argv[1], sys.argv[2:]
pats = []
for line in open(words, encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    if line.startswith("(?-i)"):
        pats.append((line, re.compile(line[len("(?-i)"):])))
    else:
        pats.append((line, re.compile(line, re.I)))
for doc in docs:
    text = open(doc, encoding="utf-8").read()
    text = re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    for n, line in enumerate(text.split("\n"), 1):
        for src, p in pats:
            m = p.search(line)
            if not m:
                continue
            print(f"hit\t{doc}:{n}: {m.group(0)!r} (pattern {src})")
PY
) || { bad "doc_check.sh: reading the word list or the docs failed"; finish 0; }

if grep -q '^hit' <<<"$hits"; then
	printf '%s\n' "$hits" | sed -n 's/^hit\t/  /p'
	bad "development vocabulary in the user docs (above; the words are in $words, and how idtypes is tested belongs in docs/development.md)"
else
	ok "no development vocabulary in ${#docs[@]} user docs ($(grep -cv '^\(#\|$\)' "$words") patterns)"
fi

# ---- 2. versions ------------------------------------------------------------------------------

problems=$(python3 - "${docs[@]}" CHANGELOG.md <<'PY'
import glob, json, re, sys
out = []
meta = json.load(open("META.json"))
v = meta.get("version", "")
mm = ".".join(v.split(".")[:2])
def want(what, got, expected):
    if got != expected:
        out.append(f"{what}: {got!r}, not {expected!r}")
for name, p in meta.get("provides", {}).items():
    want(f"META.json provides.{name}.version", p.get("version"), v)
control = open("idtypes.control").read()
want("idtypes.control default_version",
     re.search(r"default_version\s*=\s*'([^']*)'", control).group(1), mm)
lib = open("src/module.cpp").read()
want("src/module.cpp IDTYPES_LIBRARY_VERSION",
     re.search(r'#define IDTYPES_LIBRARY_VERSION "([^"]*)"', lib).group(1), mm)
scripts = sorted(glob.glob("idtypes--[0-9]*.sql"))
newest = max((s for s in scripts if "--" not in s[len("idtypes--"):]),
             key=lambda s: [int(x) for x in s[len("idtypes--"):-4].split(".")])
want("newest install script", newest, f"idtypes--{mm}.sql")
deb = re.match(r"idtypes \(([^)-]*)-[^)]*\)", open("debian/changelog").read())
want("debian/changelog", deb.group(1) if deb else None, v)
log = open("CHANGELOG.md").read()
head = re.search(r"^## (\S+)(.*)$", log, re.M)
want("CHANGELOG.md newest version", head.group(1) if head else None, v)
status = meta.get("release_status")
if head and "unreleased" in head.group(2):
    if status == "stable":
        out.append("CHANGELOG.md says unreleased, META.json release_status says stable")
elif status != "stable":
    out.append(f"CHANGELOG.md dates {v}, META.json release_status says {status}")
# pyproject.toml takes its version from the package (dynamic, attr idtypes.__version__).
py = re.search(r'^__version__\s*=\s*"([^"]*)"', open("clients/python/idtypes/__init__.py").read(), re.M)
want("clients/python/idtypes/__init__.py __version__", py.group(1) if py else None, v)
want("clients/python/pyproject.toml version source",
     "attr" if re.search(r'^version\s*=\s*\{\s*attr\s*=\s*"idtypes.__version__"', open("clients/python/pyproject.toml").read(), re.M) else None, "attr")
want("clients/node/package.json version", json.load(open("clients/node/package.json")).get("version"), v)
for doc in sys.argv[1:]:
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        for m in re.finditer(r"idtypes[_-](\d+\.\d+\.\d+)(-\d+)?", line):
            if m.group(1) != v and doc != "CHANGELOG.md":
                out.append(f"{doc}:{n}: {m.group(0)} is not version {v}")
print("\n".join(out))
PY
) || { bad "doc_check.sh: reading the version files failed"; finish 1; }
if [ -n "$problems" ]; then
	printf '%s\n' "$problems" | sed 's/^/  /'
	bad "version strings disagree (above)"
else
	ok "every version string says $(sed -n 's/^   "version": "\(.*\)",$/\1/p' META.json)"
fi

finish 2
