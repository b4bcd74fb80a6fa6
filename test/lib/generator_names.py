#!/usr/bin/env python3
"""generator_names.py <root> <doc>...: one generator per type, and every reader is told the same one.

The source is the table "| type | its generator | also named ..." of docs/reference.md's
Generators section (type -> its generator). Checked against it:
  - clients/python/idtypes/__init__.py's GENERATORS and clients/node/index.js's GENERATORS (the
    default of `generator=True` / `generator: true`) name the same function for each type;
  - README.md's paragraph "Each type has one generator ..." names the five, in the table's order;
  - the names that are aliases (each "alias `generate_...(`" of that section: the specs' names and
    1.0's generate_uid11()) appear in the docs given, demo/*.sql and the clients' sources only
    where the same paragraph (a code block: the same line) calls them an alias, so that no
    example, column default or ORM recipe uses them as a type's generator;
  - the generator figures table (between <!-- generator figures: ... --> and
    <!-- generator figures: end -->) is the same in README.md and docs/reference.md, with a row
    for each type's generator.
Prints one line per problem; exit status 1 if any, else prints a summary line and exits 0.
"""
import glob
import os
import re
import sys

root, docs = sys.argv[1], sys.argv[2:]
problems = []


def read(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


ref = read("docs/reference.md")
section = ref[ref.index("\n## Generators\n"):]
section = section[:section.index("\n## ", 1)]
m = re.search(r"^\| type \| its generator \|[^\n]*\n\|[-| ]+\n((?:\|[^\n]*\n)+)", section, re.M)
if not m:
    print("docs/reference.md: no table '| type | its generator | ...' in the Generators section")
    sys.exit(1)
generators = {}
for row in m.group(1).splitlines():
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    g = re.match(r"`(generate_\w+)\(\)`$", cells[1])
    if not g:
        problems.append(f"docs/reference.md: the generator of {cells[0]} is not one `generate_...()`")
        continue
    generators[cells[0].strip("`")] = g.group(1)
aliases = sorted(set(re.findall(r"alias `(generate_\w+)\(", section)))
if not aliases:
    problems.append("docs/reference.md: the Generators section names no alias")


def client(rel, pattern):
    text = read(rel)
    block = re.search(r"GENERATORS = (?:Object\.freeze\()?\{(.*?)\}", text, re.S)
    found = dict(re.findall(pattern, block.group(1))) if block else {}
    if found != generators:
        problems.append(f"{rel}: GENERATORS is {found}, docs/reference.md says {generators}")


client("clients/python/idtypes/__init__.py", r'"(\w+)": "(generate_\w+)"')
client("clients/node/index.js", r"(\w+): '(generate_\w+)'")

readme = read("README.md")
para = re.search(r"\nEach type has one generator[^\n]*\n(?:[^\n]+\n)*", readme)
if not para:
    problems.append("README.md: no paragraph 'Each type has one generator ...'")
else:
    first = para.group(0).split(". ")[0]
    named = re.findall(r"`(generate_\w+)\(\)`", first)
    if named != list(generators.values()):
        problems.append(f"README.md: 'Each type has one generator' names {named}, "
                        f"docs/reference.md {list(generators.values())}")

# Paragraphs of prose, lines of code blocks: a unit that names an alias must say "alias".
alias_re = re.compile(r"\b(%s)\(" % "|".join(aliases)) if aliases else None
sources = sorted(set(docs) | set(glob.glob("demo/*.sql", root_dir=root))
                 | set(glob.glob("clients/node/*.js", root_dir=root))
                 | set(glob.glob("clients/node/*.d.ts", root_dir=root))
                 | set(glob.glob("clients/python/idtypes/*.py", root_dir=root)))
uses = 0
for rel in sources if alias_re else []:
    lines = read(rel).split("\n")
    prose = rel.endswith(".md")
    units, unit, start, fenced = [], [], 1, False
    for n, line in enumerate(lines, 1):
        if prose and line.startswith("```"):
            fenced = not fenced
        if prose and not fenced and line.strip():
            if not unit:
                start = n
            unit.append(line)
            continue
        if unit:
            units.append((start, " ".join(unit)))
            unit = []
        if line.strip():
            units.append((n, line))
    if unit:
        units.append((start, " ".join(unit)))
    for n, text in units:
        for hit in alias_re.finditer(text):
            uses += 1
            if "alias" not in text.lower():
                problems.append(f"{rel}:{n}: {hit.group(1)}() is an alias; name the type's generator "
                                f"({', '.join(f'{t}: {g}()' for t, g in generators.items())}) "
                                f"or say it is an alias")

# The figures table: the same in README.md and docs/reference.md, every type's generator in it.
figures = {}
for rel in ("README.md", "docs/reference.md"):
    m = re.search(r"<!-- generator figures:[^\n]*-->\n(.*?)<!-- generator figures: end -->",
                  read(rel), re.S)
    if not m:
        problems.append(f"{rel}: no generator figures table (<!-- generator figures: ... -->)")
    else:
        figures[rel] = m.group(1)
if len(set(figures.values())) > 1:
    problems.append("README.md and docs/reference.md show different generator figures tables")
for rel, table in figures.items():
    listed = re.findall(r"^\| `(generate_\w+)\(", table, re.M)
    missing = [g for g in generators.values() if g not in listed]
    if missing:
        problems.append(f"{rel}: the generator figures table has no row for {missing}")

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"{len(generators)} types' generators named alike in docs/reference.md, README.md and both "
      f"clients, one figures table in both docs; {len(aliases)} aliases ({', '.join(aliases)}) named {uses} times, each as an alias, "
      f"in {len(sources)} files")
