"""sqlsrc.py: SQL source files with {{key}} placeholders, read by the generators of the install
scripts (tools/sql/, tools/gen_sql.py) and of the SQL edition (sql_edition/src/,
tools/gen_sql_edition.py). A file's leading comment lines (its header, for its reader) are not
part of the text; every placeholder must get a value."""

import os


def load(path, **values):
    """The text of path after its leading "--" lines, its {{key}} placeholders replaced."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    while lines and lines[0].startswith("--"):
        lines.pop(0)
    text = "\n".join(lines)
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", str(value))
    if "{{" in text:
        raise SystemExit(f"{os.path.basename(path)} has a placeholder with no value")
    return text
