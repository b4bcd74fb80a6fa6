#!/usr/bin/env python3
"""scale_summary_plot.py SUMMARY_CSV OUT_SVG: the end of `make bench-scale`'s bulk loads per
generator, as one SVG of two bar panels (no plotting library needed): the btree index at the last
row count, and rows per second of the first and of the last batches (medians of five), one bar
per server.

SUMMARY_CSV has the columns generator, server, first_rows_per_s, last_rows_per_s, index_mb: the
figures of docs/performance.md's bulk-load tables (bench/scale-2026-11-26.csv: the run that put
generate_ulid() beside uuidv7(); bench/scale-2026-11-24.csv: the run before it)."""
import csv
import sys

SERVER_COLORS = ["#9ecae1", "#1f77b4", "#fdae6b", "#e6550d"]
ROW_H, BAR_H, LABEL_W, PANEL_W, GAP, TOP = 34, 12, 260, 330, 40, 60


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    generators = list(dict.fromkeys(r["generator"] for r in rows))
    servers = list(dict.fromkeys(r["server"] for r in rows))
    color = dict(zip(servers, SERVER_COLORS))
    by = {(r["generator"], r["server"]): r for r in rows}
    height = TOP + ROW_H * len(generators) + 50
    width = LABEL_W + 2 * PANEL_W + GAP + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">'
           f'Bulk load of 20 M rows, batches of 1 M (make bench-scale)</text>']
    panels = [("btree index at 20 M rows, MB", lambda r: float(r["index_mb"]), "{:,.0f}"),
              ("rows/s, median of the last five batches", lambda r: float(r["last_rows_per_s"]), "{:,.0f}")]
    for p, (title, value, fmt) in enumerate(panels):
        x0 = LABEL_W + p * (PANEL_W + GAP)
        vmax = max(value(r) for r in rows) * 1.25
        out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 18}" text-anchor="middle" '
                   f'font-size="13">{title}</text>')
        out.append(f'<line x1="{x0}" x2="{x0}" y1="{TOP - 8}" y2="{TOP + ROW_H * len(generators)}" '
                   f'stroke="#999"/>')
        for i, g in enumerate(generators):
            y = TOP + i * ROW_H
            for j, s in enumerate(servers):
                r = by.get((g, s))
                by_ = y + j * BAR_H
                if r is None:
                    why = "18+ only" if g.startswith("uuidv7") else "not in this run"
                    out.append(f'<text x="{x0 + 4}" y="{by_ + BAR_H - 2}" fill="#777">'
                               f'({s}: {why})</text>')
                    continue
                w = PANEL_W * value(r) / vmax
                out.append(f'<rect x="{x0}" y="{by_}" width="{w:.1f}" height="{BAR_H - 1}" '
                           f'fill="{color[s]}"/>')
                out.append(f'<text x="{x0 + w + 4:.1f}" y="{by_ + BAR_H - 2}">{fmt.format(value(r))}'
                           f'</text>')
    for i, g in enumerate(generators):
        y = TOP + i * ROW_H + BAR_H + 4
        out.append(f'<text x="{LABEL_W - 8}" y="{y}" text-anchor="end">{g}</text>')
    ly = TOP + ROW_H * len(generators) + 25
    for j, s in enumerate(servers):
        x = LABEL_W + j * 160
        out.append(f'<rect x="{x}" y="{ly - 10}" width="14" height="10" fill="{color[s]}"/>')
        out.append(f'<text x="{x + 20}" y="{ly}">PostgreSQL {s}</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


main()
