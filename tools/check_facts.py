#!/usr/bin/env python3
"""check_facts.py: what the C++ glue and the clients write of the five types agrees with
tools/types.json, where each fact is written once (the SQL generators read it directly).

    python3 tools/check_facts.py      (make check-sql runs it)

Checked: src/traits.h (each <type>_traits' name, symbols, length_hint, prefix_hint, range_detail,
sibling); src/planner/planner.h's list of the types; clients/python/idtypes/id_text.py and clients/node/ids.js (their alphabets, the types'
symbols, lengths and range details, and the epochs and largest times of the layouts). Prints each
difference and exits 1 if there is one.
"""
import ast
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import types_facts  # noqa: E402

ROOT = os.path.dirname(HERE)
problems = []


def differ(where, what, got, want):
    if got != want:
        problems.append(f"{where}: {what} is {got!r}, tools/types.json says {want!r}")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def c_string(expr):
    """A C string literal expression (adjacent literals joined) or nullptr, as Python."""
    expr = expr.strip()
    if expr == "nullptr":
        return None
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', expr)
    return "".join(bytes(p, "utf-8").decode("unicode_escape") for p in parts)


# src/traits.h
traits = read("src/traits.h")
for d in types_facts.TYPES:
    t = d["name"]
    m = re.search(r"struct %s_traits\s*\{(.*?)\n\};" % t, traits, re.S)
    if not m:
        problems.append(f"src/traits.h: no struct {t}_traits")
        continue
    body = m.group(1)
    fields = {k: c_string(v) for k, v in
              re.findall(r"static constexpr const char \*(\w+)\s*=\s*(.*?);", body, re.S)}
    sibling = fields.get("sibling")
    for field, key in [("name", "name"), ("symbols", "symbols"), ("length_hint", "length_hint"),
                       ("prefix_hint", "prefix_hint"), ("range_detail", "range_detail")]:
        differ(f"src/traits.h {t}_traits", field, fields.get(field, "(missing)"), d[key])
    if "sibling" in fields or d["sibling"] is not None:
        differ(f"src/traits.h {t}_traits", "sibling", sibling, d["sibling"])

# src/planner/planner.h: the planner's list of the types, in the table's order.
m = re.search(r"#define IDT_PLANNER_TYPES\(X\) (.*)", read("src/planner/planner.h"))
differ("src/planner/planner.h", "IDT_PLANNER_TYPES", re.findall(r"X\((\w+)\)", m.group(1)) if m else None,
       types_facts.NAMES)

# clients/python
source = read("clients/python/idtypes/id_text.py")
tree = ast.parse(source)
values = {}
for node in tree.body:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        try:
            values[node.targets[0].id] = ast.literal_eval(node.value)
        except ValueError:
            pass
py = "clients/python/idtypes/id_text.py"
for key, name in [("base58", "_BASE58"), ("sortable", "_SORTABLE"), ("crockford", "_CROCKFORD")]:
    differ(py, name, values.get(name), types_facts.ALPHABETS[key])
ranges = {d["name"]: d["range_detail"] for d in types_facts.TYPES if d["range_detail"] is not None}
differ(py, "_SYMBOLS", values.get("_SYMBOLS"), {d["name"]: d["symbols"] for d in types_facts.TYPES})
differ(py, "_LENGTHS", values.get("_LENGTHS"), {d["name"]: d["length_hint"] for d in types_facts.TYPES})
differ(py, "_RANGES", values.get("_RANGES"), ranges)
layouts = types_facts.BY_NAME
# The clients' constants of the time layouts (the same names in both), and the table's values.
LAYOUT_CONSTANTS = [("XID_EPOCH_MS", layouts["uid11"]["time_epoch"]),
                    ("XID_MAX_MS", layouts["uid11"]["time_max"]),
                    ("XID_RANDOM_BITS", layouts["uid11"]["bits_below_time"]),
                    ("TIMEID_MAX_US", layouts["timeid"]["time_max"]),
                    ("ULIDFLAKE_EPOCH_MS", layouts["ulidflake"]["time_epoch"]),
                    ("ULIDFLAKE_MAX_MS", layouts["ulidflake"]["time_max"]),
                    ("ULIDFLAKE_RANDOM_BITS", layouts["ulidflake"]["bits_below_time"]),
                    ("ULID_MAX_MS", layouts["ulid"]["time_max"]),
                    ("EUID_MAX_MS", layouts["euid"]["time_max"])]
for name, want in LAYOUT_CONSTANTS:
    got = values.get(name)
    if got is None:  # an expression such as (1 << 42) - 1
        m = re.search(r"^%s = (.+?)(\s+#.*)?$" % name, source, re.M)
        got = eval(m.group(1), {}) if m else None  # noqa: S307 (the module's own constant)
    differ(py, name, got, want)

# clients/node
js = read("clients/node/ids.js")
node = "clients/node/ids.js"


def js_object(name):
    m = re.search(r"const %s = \{(.*?)\n\};" % name, js, re.S)
    if not m:
        return None
    return {k: v for k, v in re.findall(r"^\s*(\w+): '((?:[^'\\]|\\.)*)',?$", m.group(1), re.M)}


def js_number(name):
    m = re.search(r"^const %s = ([^;]+);" % name, js, re.M)
    if not m:
        return None
    expr = m.group(1).replace("_", "")
    expr = re.sub(r"(\d+)n\b", r"\1", expr)
    return eval(expr, {})  # noqa: S307 (the module's own constant)


for key, name in [("base58", "BASE58"), ("sortable", "SORTABLE"), ("crockford", "CROCKFORD")]:
    m = re.search(r"^const %s = '([^']*)';" % name, js, re.M)
    differ(node, name, m.group(1) if m else None, types_facts.ALPHABETS[key])
differ(node, "SYMBOLS", js_object("SYMBOLS"), {d["name"]: d["symbols"] for d in types_facts.TYPES})
differ(node, "LENGTHS", js_object("LENGTHS"), {d["name"]: d["length_hint"] for d in types_facts.TYPES})
differ(node, "RANGES", js_object("RANGES"), ranges)
for name, want in LAYOUT_CONSTANTS:
    differ(node, name, js_number(name), want)

for p in problems:
    print("check_facts: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check_facts: src/traits.h and both clients agree with tools/types.json "
      f"({len(types_facts.TYPES)} types)")
