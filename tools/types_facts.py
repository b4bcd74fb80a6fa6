"""types_facts.py: the five types' facts (tools/types.json), for the SQL generators and the checks.

TYPES: one dict per type, in the order the scripts define them; ALPHABETS: the digit tables (a
symbol's value is its 0-based position). Everything else the generators write per type is
derived from these.
"""
import json
import os

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "types.json"), encoding="utf-8") as _f:
    _DOC = json.load(_f)

TYPES = _DOC["types"]
NAMES = [t["name"] for t in TYPES]
ALPHABETS = _DOC["alphabets"]
BY_NAME = {t["name"]: t for t in TYPES}
