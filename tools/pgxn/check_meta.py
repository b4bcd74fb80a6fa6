#!/usr/bin/env python3
"""check_meta.py: a META.json is valid under the PGXN Meta Spec 1.0.0.

    python3 tools/pgxn/check_meta.py [META.json]      (default: META.json of this tree)

Validates against meta-spec-1.0.0.schema.json (beside this file; written from the spec's text) with
python3-jsonschema. Prints each violation as "<path>: <message>" and exits 1 if there is any, 2 if
the file or the schema cannot be read or jsonschema is missing; prints "valid" and exits 0 otherwise.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "META.json")
try:
    import jsonschema
except ImportError:
    print("check_meta: python3-jsonschema is missing (scripts/install-deps.sh base)")
    sys.exit(2)
try:
    schema = json.load(open(os.path.join(here, "meta-spec-1.0.0.schema.json"), encoding="utf-8"))
    meta = json.load(open(path, encoding="utf-8"))
except (OSError, ValueError) as e:
    print(f"check_meta: {e}")
    sys.exit(2)
validator = jsonschema.Draft7Validator(schema)
errors = sorted(validator.iter_errors(meta), key=lambda e: list(map(str, e.absolute_path)))
for e in errors:
    where = "/".join(map(str, e.absolute_path)) or "(top)"
    print(f"{where}: {e.message}")
if errors:
    sys.exit(1)
print("valid")
