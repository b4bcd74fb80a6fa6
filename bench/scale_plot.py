#!/usr/bin/env python3
"""scale_plot.py LOAD_CSV OUT_SVG TITLE: rows/s and WAL bytes/row against table size, per
generator, as one SVG with two panels (no plotting library needed)."""
import csv
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 460, 300, 70, 20, 30, 45


def panel(x0, series, key, label, max_rows):
    ymax = max(float(r[key]) for rs in series.values() for r in rs) * 1.1 or 1
    out = [f'<g transform="translate({x0},0)">',
           f'<text x="{PAD_L + (W - PAD_L - PAD_R) / 2}" y="18" text-anchor="middle" '
           f'font-size="14">{label}</text>']
    pw, ph = W - PAD_L - PAD_R, H - PAD_T - PAD_B
    out.append(f'<rect x="{PAD_L}" y="{PAD_T}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>')
    for i in range(6):
        v = ymax * i / 5
        y = PAD_T + ph - ph * i / 5
        out.append(f'<line x1="{PAD_L - 4}" x2="{PAD_L}" y1="{y}" y2="{y}" stroke="#999"/>')
        out.append(f'<text x="{PAD_L - 6}" y="{y + 4}" text-anchor="end" font-size="11">{v:,.0f}</text>')
    for i in range(5):
        v = max_rows * i / 4
        x = PAD_L + pw * i / 4
        out.append(f'<text x="{x}" y="{PAD_T + ph + 16}" text-anchor="middle" font-size="11">'
                   f'{v / 1e6:g} M</text>')
    out.append(f'<text x="{PAD_L + pw / 2}" y="{H - 8}" text-anchor="middle" font-size="12">'
               f'rows in the table</text>')
    for (name, rs), color in zip(series.items(), COLORS):
        pts = " ".join(f"{PAD_L + pw * int(r['rows']) / max_rows:.1f},"
                       f"{PAD_T + ph - ph * float(r[key]) / ymax:.1f}" for r in rs)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
    out.append("</g>")
    return out


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    series = {}
    for r in rows:
        series.setdefault(r["kind"], []).append(r)
    max_rows = max(int(r["rows"]) for r in rows)
    legend_h = 20 * ((len(series) + 3) // 4) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H + legend_h + 30}" '
           f'font-family="sans-serif">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{W}" y="20" text-anchor="middle" font-size="16">Bulk load: {sys.argv[3]}</text>',
           '<g transform="translate(0,25)">']
    out += panel(0, series, "rows_per_s", "rows per second, per batch", max_rows)
    out += panel(W, series, "wal_bytes_per_row", "WAL bytes per row, per batch", max_rows)
    out.append("</g>")
    for i, (name, color) in enumerate(zip(series, COLORS)):
        x = 40 + (i % 4) * 220
        y = H + 45 + (i // 4) * 20
        out.append(f'<line x1="{x}" x2="{x + 24}" y1="{y - 4}" y2="{y - 4}" stroke="{color}" stroke-width="3"/>')
        out.append(f'<text x="{x + 30}" y="{y}" font-size="12">{name}</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


main()
