#!/usr/bin/env python3
"""ci_time.py: docs/development.md's "CI's time" table, from the log of a `.ci/run`.

    python3 tools/ci_time.py LOG [--commit REV] [--note TEXT]      prints the section's body
    python3 tools/ci_time.py LOG --update docs/development.md ...  rewrites it in place

test/run_matrix.py ends every run with a table of its lanes (wall and CPU seconds, the costliest
steps), the total line (`.ci/run: N s in all`) and the counts (`N passed, N failed, N skipped`).
This copies them between the markers `<!-- ci-time -->` and `<!-- /ci-time -->`, so the docs keep
the last measured run, not a history of them (that is in the commits' messages).
"""
import argparse
import re
import sys

BEGIN = "<!-- ci-time -->"
END = "<!-- /ci-time -->"


def section(log, commit, note):
    lines = log.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("| lane | wall s | CPU s |")), None)
    if start is None:
        sys.exit("ci_time.py: no lane table in the log")
    table = []
    for l in lines[start:]:
        if not l.startswith("|"):
            break
        table.append(l)
    total = [m.group(1) for m in map(re.compile(r"^\.ci/run: (\d+) s in all").match, lines) if m]
    counts = [l for l in lines if re.match(r"^\d+ passed, \d+ failed", l)]
    if not total or not counts:
        sys.exit("ci_time.py: no total line or no counts in the log")
    seconds = int(total[-1])
    head = f"The last measured run: {seconds:,} s ({seconds / 60:.1f} min), {counts[-1]}"
    if commit:
        head += f", at {commit}"
    if note:
        head += f", {note}"
    return "\n".join([head + ".", "", *table])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--commit")
    ap.add_argument("--note", help="how the run was made (every cache deleted, warm, ...)")
    ap.add_argument("--update", metavar="DOC")
    args = ap.parse_args()
    with open(args.log, encoding="utf-8", errors="replace") as f:
        body = section(f.read(), args.commit, args.note)
    if not args.update:
        print(body)
        return
    with open(args.update, encoding="utf-8") as f:
        doc = f.read()
    if doc.count(BEGIN) != 1 or doc.count(END) != 1:
        sys.exit(f"ci_time.py: {args.update} needs one {BEGIN} and one {END}")
    before, rest = doc.split(BEGIN)
    _, after = rest.split(END)
    with open(args.update, "w", encoding="utf-8") as f:
        f.write(before + BEGIN + "\n" + body + "\n" + END + after)


if __name__ == "__main__":
    main()
