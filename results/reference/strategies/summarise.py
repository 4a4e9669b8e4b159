#!/usr/bin/env python3
"""Tables and the fitness-vs-evaluations plot of the strategy study at equal budget, by sample fitness (README, "Strategies at
equal budget"), from the run folders alone (standard library only).

    python3 results/reference/strategies/summarise.py results/reference/strategies [OUT_STEM]

Run folders are named <space>-<sample>-<strategy>-<seed> (e.g. combine-l3s-ga-adaptive-2) or, for
the older sw runs, sw-<strategy>-<seed>. For each (space, sample) the best known fitness is the
largest full-evaluation fitness of any run; a run reaches 99 % of it after the number of distinct
evaluations (journal rows not served from the cache) at which its best-so-far first reaches
0.99 x that value. Racing runs count partial evaluations as evaluations too and rank only full
ones. Writes OUT_STEM.md (tables) and OUT_STEM.svg (median best-so-far over seeds against
evaluations, one panel per space and sample, one line per strategy).
"""
import csv
import os
import re
import statistics
import sys

STRATEGIES = ["ga", "ga-adaptive", "cmaes", "tpe", "random", "ga-racing"]
COLOURS = {"ga": "#1f77b4", "ga-adaptive": "#ff7f0e", "cmaes": "#2ca02c", "tpe": "#d62728",
           "random": "#7f7f7f", "ga-racing": "#9467bd"}


def curve(path):
    """Best-so-far fitness after each distinct evaluation (full evaluations only rank)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    full = max((int(r["documents"]) for r in rows), default=0) if rows and "documents" in rows[0] else None
    best, out = float("-inf"), []
    for r in rows:
        if r["cached"] == "true":
            continue
        if full is None or int(r["documents"]) == full:
            best = max(best, float(r["fitness"]))
        out.append(best)
    return out


def runs(root):
    found = {}
    for name in sorted(os.listdir(root)):
        m = re.match(r"^(.+?)-(l3s|wcxb)-(.+)-(\d+)$", name) or re.match(r"^(sw)-()(.+)-(\d+)$", name)
        journal = os.path.join(root, name, "individuals.csv")
        if not m or not os.path.exists(journal):
            continue
        space, sample, strategy, seed = m.group(1), m.group(2) or "l3s", m.group(3), int(m.group(4))
        found.setdefault((space, sample), {}).setdefault(strategy, {})[seed] = curve(journal)
    return found


def reach(c, target):
    return next((i + 1 for i, v in enumerate(c) if v >= target), None)


def main():
    root = sys.argv[1]
    stem = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "sample-fitness")
    found = runs(root)
    md = []
    for (space, sample), by in sorted(found.items()):
        best_known = max(max(c) for s in by.values() for c in s.values() if c)
        md.append(f"\n### {space} on {sample}-120 (best known {best_known:.4f})\n")
        md.append("| strategy | best fitness, seeds | median | distinct evaluations (median) "
                  "| evaluations to 99 % of the best known, seeds | median |")
        md.append("|---|---|---:|---:|---|---:|")
        for st in [s for s in STRATEGIES if s in by] + sorted(set(by) - set(STRATEGIES)):
            seeds = sorted(by[st])
            bests = [max(by[st][k]) for k in seeds]
            evals = [len(by[st][k]) for k in seeds]
            hits = [reach(by[st][k], 0.99 * best_known) for k in seeds]
            # A seed that never reached the target counts as beyond its budget.
            ordered = sorted(h if h is not None else float("inf") for h in hits)
            mid = ordered[len(ordered) // 2] if len(ordered) % 2 else None
            med = (f"> {max(evals)}" if mid == float("inf") else str(mid)) if mid is not None else "—"
            md.append(f"| {st} | {' / '.join(f'{b:.4f}' for b in bests)} | {statistics.median(bests):.4f} "
                      f"| {statistics.median(evals):.0f} | {' / '.join(str(h) if h else '—' for h in hits)} | {med} |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md).lstrip() + "\n")
    panels = sorted(found.items())
    w, h, cols = 460, 300, 2
    rows_n = (len(panels) + cols - 1) // cols
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * cols}" height="{h * rows_n + 30}" '
           f'font-family="sans-serif" font-size="11">', '<rect width="100%" height="100%" fill="white"/>']
    for k, ((space, sample), by) in enumerate(panels):
        x0, y0 = (k % cols) * w + 55, (k // cols) * h + 30
        pw, ph = w - 75, h - 70
        # A run with fewer distinct evaluations (cache hits) keeps its best after its last one.
        curves = {}
        for st in by:
            m = max(len(c) for c in by[st].values())
            padded = [c + [c[-1]] * (m - len(c)) for c in by[st].values() if c]
            curves[st] = [statistics.median(c[i] for c in padded) for i in range(m)]
        vals = [v for c in curves.values() for v in c if v != float("-inf")]
        lo, hi = min(vals), max(vals)
        lo = max(lo, hi - 0.1)
        n = max(len(c) for c in curves.values())
        X = lambda i: x0 + pw * i / max(n - 1, 1)
        Y = lambda v: y0 + ph - ph * (max(v, lo) - lo) / max(hi - lo, 1e-9)
        svg.append(f'<text x="{x0}" y="{y0 - 8}" font-size="13">{space} on {sample}-120: median best-so-far over seeds</text>')
        svg.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="black"/>')
        for t in range(5):
            v = lo + (hi - lo) * t / 4
            svg.append(f'<text x="{x0 - 5}" y="{Y(v) + 4}" text-anchor="end">{v:.3f}</text>')
        for t in range(5):
            i = (n - 1) * t // 4
            svg.append(f'<text x="{X(i)}" y="{y0 + ph + 15}" text-anchor="middle">{i + 1}</text>')
        svg.append(f'<text x="{x0 + pw / 2}" y="{y0 + ph + 30}" text-anchor="middle">distinct evaluations</text>')
        for j, (st, c) in enumerate(sorted(curves.items(), key=lambda x: STRATEGIES.index(x[0]) if x[0] in STRATEGIES else 99)):
            pts = " ".join(f"{X(i):.1f},{Y(v):.1f}" for i, v in enumerate(c) if v != float("-inf"))
            col = COLOURS.get(st, "black")
            svg.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.8"/>')
            svg.append(f'<text x="{x0 + pw - 5}" y="{y0 + ph - 8 - 13 * j}" text-anchor="end" fill="{col}">{st}</text>')
    svg.append("</svg>")
    with open(stem + ".svg", "w") as f:
        f.write("\n".join(svg) + "\n")
    print(open(stem + ".md").read())


if __name__ == "__main__":
    main()
