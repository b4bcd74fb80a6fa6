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
#    "unstable", a dated one with "stable". The rules are in tools/check_versions.py (make release
#    runs it too, with the release tag).
# 3. Each type's generator (docs/reference.md's table) is the one README lists and both clients
#    default to, and the aliases (the specs' generate_xid() and generate_tid(), 1.0's
#    generate_uid11()) appear in the user docs, the demo and the clients' sources only as aliases;
#    README.md and docs/reference.md show one generator figures table (test/lib/generator_names.py).
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

# tools/check_versions.py holds the rules (make release runs it too, with the release's tag).
problems=$(python3 tools/check_versions.py --docs "${docs[@]}" CHANGELOG.md -- . 2>&1)
status=$?
if [ "$status" -ne 0 ]; then
	printf '%s\n' "$problems" | sed 's/^/  /'
	bad "version strings disagree (above)"
else
	ok "every version string says $problems"
fi

# ---- 3. one generator per type ------------------------------------------------------------------

# test/lib/generator_names.py holds the rules: docs/reference.md's table of each type's generator,
# the clients' GENERATORS and README's list agree, and the aliases (the specs' names, 1.0's
# generate_uid11()) are named only as aliases. Not in docs/performance.md, whose tables name the
# functions its benchmarks call.
named=()
for f in "${docs[@]}"; do
	[ "$f" = docs/performance.md ] || named+=("$f")
done
if problems=$(python3 "$here/../lib/generator_names.py" . "${named[@]}" 2>&1); then
	ok "$problems"
else
	printf '%s\n' "$problems" | sed 's/^/  /'
	bad "the type's generators are not named alike, or the generator figures differ (above)"
fi

finish 3
