#!/usr/bin/env python3
"""reference_check.py: is every object the extension installs named in the SQL reference?

    reference_check.py docs/reference.md objects.tsv

objects.tsv (written by test/scripts/reference.sh from pg_depend and pg_settings) has one object
per line: kind<TAB>name<TAB>detail, kind one of function, operator, type, cast, opclass, setting
(detail: the operator's argument types; the cast's source<TAB>target).

The reference is docs/reference.md from its "# SQL reference" title up to the next level-1
heading (the end of the file). Names are read from its code spans (fenced blocks left out), where `<type>` stands for each of the five types and `{a,b}` for a and for
b (as in a shell). A function, type, operator class or setting is named when its name occurs in a
code span; an operator when its symbol is a code span's word, and each of its argument types is
named; a cast when one line of the table under "## Casts" names both of its types (`every type` names all
five). Prints every object that is missing and exits 1 if any is.
"""

import re
import sys

TYPES = ["uid11", "timeid", "ulidflake", "ulid", "euid"]
ALIASES = {"timestamp with time zone": "timestamptz", "bigint": "bigint", "numeric": "numeric"}


def expand(span):
    """All the texts a code span stands for: <type> and {a,b} expanded."""
    out = [span]
    while any("<type>" in s for s in out):
        out = [s.replace("<type>", t, 1) if "<type>" in s else s for s in out for t in TYPES]
        out = list(dict.fromkeys(out))
    done = []
    while out:
        s = out.pop()
        m = re.search(r"\{([^{}]*,[^{}]*)\}", s)
        if m:
            out += [s[:m.start()] + alt + s[m.end():] for alt in m.group(1).split(",")]
        else:
            done.append(s)
    return done


def reference_section(doc):
    m = re.search(r"^# SQL reference$(.*?)(?=^# |\Z)", doc, re.M | re.S)
    if not m:
        sys.exit("reference_check: no '# SQL reference' title in " + sys.argv[1])
    return m.group(1)


def main():
    doc = open(sys.argv[1], encoding="utf-8").read()
    # Fenced blocks are examples, not names: their three backticks would pair with an inline
    # span's and shift every span after them.
    ref = re.sub(r"^```.*?^```[ \t]*$", "", reference_section(doc), flags=re.M | re.S)
    spans = [x for s in re.findall(r"`([^`]+)`", ref) for x in expand(s)]
    words = set()
    for s in spans:
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", s))
        words.update(s.split())
    casts_table = re.search(r"^## Casts$(.*?)(?=^## )", ref, re.M | re.S)
    if not casts_table:
        sys.exit("reference_check: no '## Casts' section followed by another section")
    cast_lines = []
    for line in (casts_table.group(1) if casts_table else "").splitlines():
        line = line.replace("every type", " ".join(f"`{t}`" for t in TYPES))
        names = set()
        for s in re.findall(r"`([^`]+)`", line):
            for x in expand(s):
                names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", x))
        cast_lines.append(names)

    missing = []
    for row in open(sys.argv[2], encoding="utf-8"):
        kind, name, *detail = row.rstrip("\n").split("\t")
        if kind in ("function", "type", "opclass", "setting"):
            ok = name in words
        elif kind == "operator":
            args = [a for a in detail[0].split(",") if a]
            ok = name in words and all(a in words for a in args)
        elif kind == "cast":
            src, dst = (ALIASES.get(x, x) for x in detail)
            ok = any(src in names and dst in names for names in cast_lines)
        else:
            ok = False
        if not ok:
            missing.append(f"{kind} {name} {' '.join(detail)}".strip())
    for m in missing:
        print(f"not in the SQL reference ({sys.argv[1]}): {m}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
