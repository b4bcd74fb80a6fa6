#!/usr/bin/env python3
"""bench_plot.py SUMMARY_CSV OUT_SVG TITLE [OUT_MD]: the ratios of a `make bench` run as one SVG (no
plotting library needed), and given OUT_MD, as the two Markdown tables docs/performance.md shows.
The plot has one row per workload, one panel per width (64-bit types against bigint, 128-bit types
against uuid); per contestant a bar from 1 to its median ratio on a log scale, with a line from
the smallest to the largest per-round ratio. The A/A bar (the baseline against itself) shows
the noise of the run; ^@ and <@ are against BETWEEN with the same bounds on the same type."""
import csv
import math
import sys

COLORS = {"bigint_aa": "#9a9a9a", "uuid_aa": "#9a9a9a", "uuidv7": "#8c564b",
          "uid11": "#1f77b4", "timeid": "#2ca02c", "ulidflake": "#ff7f0e",
          "ulid": "#1f77b4", "ulid_mono": "#17becf", "euid": "#d62728"}
LABELS = {"bigint_aa": "bigint A/A", "uuid_aa": "uuid A/A", "uid11": "uid11 (generate_xid)",
          "timeid": "timeid", "ulidflake": "ulidflake", "uuidv7": "uuidv7()", "ulid": "ulid",
          "ulid_mono": "ulid (monotonic)", "euid": "euid"}
LO, HI = 0.1, 4.0                 # the ratio axis (log scale); beyond it a bar ends in an arrow
TICKS = [0.125, 0.25, 0.5, 1, 2, 4]
LABEL_W, PANEL_W, GAP = 270, 330, 50
BAR, ROW_PAD, TOP = 7, 8, 84


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def x_of(ratio):
    r = min(max(ratio, LO), HI)
    return PANEL_W * (math.log(r) - math.log(LO)) / (math.log(HI) - math.log(LO))


def markdown(workloads, by_key, path):
    """Per width: the baseline's median (ms; bytes for the index size, ms per 100,000 rows for the
    concurrent inserts), then each contestant's median ratio."""
    out = []
    for ref, names in (("bigint", ["bigint_aa", "uid11", "timeid", "ulidflake"]),
                       ("uuid", ["uuid_aa", "uuidv7", "ulid", "ulid_mono", "euid"])):
        heads = [LABELS[n].replace(" (generate_xid)", " (xid)").replace("()", "") for n in names]
        out += [f"| workload | {ref} | " + " | ".join(heads) + " |", "|---" * (len(names) + 2) + "|"]
        for _, wl in workloads:
            base = by_key.get((wl, ref))
            v = None if base is None else float(base["median"])
            med = "" if v is None else f"{v:.0f}" if v >= 1e5 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"
            cells = [f"{float(by_key[(wl, n)]['ratio']):.2f}x" if (wl, n) in by_key and by_key[(wl, n)]["ratio"]
                     else "" for n in names]
            out.append(f"| {wl} | {med} | " + " | ".join(cells) + " |")
        out.append("")
    open(path, "w").write("\n".join(out))


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    workloads = sorted({(int(r["workload_ord"]), r["workload"]) for r in rows})
    by_key = {(r["workload"], r["contestant"]): r for r in rows}
    if len(sys.argv) > 4:
        markdown(workloads, by_key, sys.argv[4])
    panels = []
    for width, ref in ((64, "bigint"), (128, "uuid")):
        names = sorted({(int(r["contestant_ord"]), r["contestant"]) for r in rows
                        if int(r["width"]) == width and r["contestant"] != ref})
        panels.append((width, ref, [n for _, n in names]))
    per_row = max(len(names) for _, _, names in panels)
    row_h = per_row * BAR + ROW_PAD
    height = TOP + row_h * len(workloads) + 40 + 18 * max(len(n) for _, _, n in panels)
    width_px = LABEL_W + len(panels) * (PANEL_W + GAP)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_px}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width_px / 2}" y="18" text-anchor="middle" font-size="14">{esc(sys.argv[3])}</text>',
           f'<text x="{width_px / 2}" y="34" text-anchor="middle">median ratio per workload, log scale '
           f'(left of 1: faster or smaller); lines: min .. max of the rounds</text>']
    bottom = TOP + row_h * len(workloads)
    for i, (_, wl) in enumerate(workloads):
        y = TOP + i * row_h
        if i % 2 == 0:
            out.append(f'<rect x="0" y="{y - ROW_PAD / 2}" width="{width_px}" height="{row_h}" fill="#f4f4f4"/>')
        out.append(f'<text x="{LABEL_W - 8}" y="{y + per_row * BAR / 2 + 4}" text-anchor="end">'
                   f'{esc(wl)}</text>')
    for p, (width, ref, names) in enumerate(panels):
        x0 = LABEL_W + p * (PANEL_W + GAP)
        out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 22}" text-anchor="middle" font-size="12">'
                   f'{width}-bit types against {ref}</text>')
        for t in TICKS:
            x = x0 + x_of(t)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 12}" y2="{bottom}" '
                       f'stroke="{"#444" if t == 1 else "#ccc"}"/>')
            out.append(f'<text x="{x:.1f}" y="{TOP - 6}" text-anchor="middle">{t:g}x</text>')
            out.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">{t:g}x</text>')
        for i, (_, wl) in enumerate(workloads):
            for j, name in enumerate(names):
                r = by_key.get((wl, name))
                if r is None or r["ratio"] == "":
                    continue
                y = TOP + i * row_h + j * BAR
                ratio, lo, hi = float(r["ratio"]), float(r["lo"]), float(r["hi"])
                a, b = sorted((x0 + x_of(1), x0 + x_of(ratio)))
                out.append(f'<rect class="bar" x="{a:.1f}" y="{y:.1f}" width="{max(b - a, 1):.1f}" '
                           f'height="{BAR - 1}" fill="{COLORS.get(name, "#7f7f7f")}">'
                           f'<title>{esc(wl)}: {LABELS.get(name, name)} {ratio:.2f}x '
                           f'({lo:.2f} .. {hi:.2f})</title></rect>')
                if hi > lo:
                    out.append(f'<line x1="{x0 + x_of(lo):.1f}" x2="{x0 + x_of(hi):.1f}" '
                               f'y1="{y + BAR / 2 - 0.5:.1f}" y2="{y + BAR / 2 - 0.5:.1f}" stroke="#000"/>')
        for j, name in enumerate(names):
            y = bottom + 34 + j * 18
            out.append(f'<rect x="{x0}" y="{y - 9}" width="18" height="10" fill="{COLORS.get(name, "#7f7f7f")}"/>')
            out.append(f'<text x="{x0 + 24}" y="{y}">{LABELS.get(name, name)}</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


main()
