#!/usr/bin/env python3
"""The strategy comparison on what a user gets (README, "Strategies at equal wall time, measured
on held-out pages"): each run's winner scored on the pages of its set the run never saw.

    python3 results/reference/strategies/held-out.py results/reference/strategies/held-out [OUT.md]

writes OUT.md (default: comparison.md beside the runs' folder) and prints the summary table.

Run folders are named <family>-<set>-<strategy>-<seed> (e.g. combine-wcxb-dev-tpe-2), each a
run folder (`run.yaml`, `best.yaml`) with `rest/`, the `cetune evaluate` of its best setting on
the rest of the set (`per-document.csv` or `per-document.csv.gz`). Standard library only.

For each family and set, a strategy's figure is the mean over its seeds of its winner's mean F1
over the rest's pages. A difference between two strategies is paired by page: per page, the
mean over seeds of one strategy's F1 minus the other's. Its 95 % interval is a two-level
percentile bootstrap (fixed seed): each resample draws the pages with replacement (the same
pages for both strategies) and, for each strategy apart, its seeds with replacement, so the
interval carries both the page sample's noise and the search's own (which seed of a strategy
one happens to run).
"""
import csv
import gzip
import os
import random
import re
import sys

STRATEGIES = ["ga", "random", "tpe", "cmaes", "hyperband"]
NAMES = {"ga": "GA", "random": "random", "tpe": "TPE", "cmaes": "CMA-ES", "hyperband": "Hyperband"}
RESAMPLES = 2000


def per_document(rest):
    """Page id -> F1 of one evaluation folder."""
    for name, opener in (("per-document.csv", open), ("per-document.csv.gz", gzip.open)):
        path = os.path.join(rest, name)
        if os.path.exists(path):
            with opener(path, "rt", newline="") as f:
                return {(r["package"], r["id"]): float(r["f1"]) for r in csv.DictReader(f)}
    raise SystemExit(f"{rest}: no per-document.csv(.gz)")


def top_level(path):
    """The top-level scalar fields of a run.yaml and the best fitness (no YAML parser needed)."""
    out, block = {}, None
    with open(path) as f:
        for line in f:
            if not line.startswith(" ") and ":" in line:
                key, _, value = line.partition(":")
                block = key
                if value.strip():
                    out[key] = value.strip().strip('"')
            elif block == "best" and line.startswith("  fitness:"):
                out["best_fitness"] = line.split(":", 1)[1].strip()
            elif block == "fidelity" and line.startswith("  full_evaluations:"):
                out["full_evaluations"] = line.split(":", 1)[1].strip()
    return out


def runs(root):
    found = {}
    for name in sorted(os.listdir(root)):
        m = re.match(r"^([a-z]+)-(.+)-(" + "|".join(STRATEGIES) + r")-(\d+)$", name)
        if not m or not os.path.isdir(os.path.join(root, name, "rest")):
            continue
        family, gold, strategy, seed = m.group(1), m.group(2), m.group(3), int(m.group(4))
        run = top_level(os.path.join(root, name, "run.yaml"))
        run["pages"] = per_document(os.path.join(root, name, "rest"))
        found.setdefault((family, gold), {}).setdefault(strategy, {})[seed] = run
    return found


def mean(xs):
    return sum(xs) / len(xs)


def resamples(table, n, rng):
    """For each bootstrap resample and strategy, the mean over its resampled seeds of the mean
    F1 over the resampled pages (the same pages for every strategy: the pairing)."""
    out = []
    for _ in range(RESAMPLES):
        counts = [0] * n
        for _ in range(n):
            counts[rng.randrange(n)] += 1
        row = {}
        for s, seeds in table.items():
            means = [sum(c * x for c, x in zip(counts, f)) / n for f in seeds]
            row[s] = mean([means[rng.randrange(len(means))] for _ in means])
        out.append(row)
    return out


def interval(boot, a, b):
    """95 % percentile interval of the difference a − b over the resamples."""
    diffs = sorted(r[a] - r[b] for r in boot)
    return diffs[int(0.025 * len(diffs))], diffs[int(0.975 * len(diffs)) - 1]


def main():
    root = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(root)), "comparison.md")
    rng = random.Random(39)
    lines = [
        "<!-- written by results/reference/strategies/held-out.py; do not edit -->",
        "",
        "# Strategies at equal wall time, winners measured on held-out pages",
        "",
    ]
    summary = ["| family, set (rest pages) | " + " | ".join(NAMES[s] for s in STRATEGIES) + " | best − random [95 % CI] |",
               "|---|" + "---:|" * len(STRATEGIES) + "---|"]
    for (family, gold), by in sorted(runs(root).items()):
        missing = [s for s in STRATEGIES if s not in by]
        if missing:
            raise SystemExit(f"{family} on {gold}: no runs of {', '.join(missing)}")
        pages = sorted(next(iter(by["ga"].values()))["pages"])
        table = {}
        for s in STRATEGIES:
            seeds = sorted(by[s])
            for k in seeds:
                if sorted(by[s][k]["pages"]) != pages:
                    raise SystemExit(f"{family}-{gold}-{s}-{k}: rest pages differ from the GA's")
            table[s] = [[by[s][k]["pages"][p] for p in pages] for k in seeds]
        rest = {s: mean([mean(x) for x in table[s]]) for s in STRATEGIES}
        best = max(STRATEGIES, key=lambda s: rest[s])
        boot = resamples(table, len(pages), rng)
        lines += [f"## {family} on {gold} ({len(pages)} rest pages)", "",
                  "| strategy | rest F1, seeds | **mean** | vs GA [95 % CI] | vs random [95 % CI] | sample fitness, mean | settings evaluated, mean | wall s, mean |",
                  "|---|---|---:|---|---|---:|---:|---:|"]
        for s in STRATEGIES:
            seeds = sorted(by[s])
            per_seed = " / ".join(f"{mean(x):.4f}" for x in table[s])
            cells = []
            for base in ("ga", "random"):
                if s == base:
                    cells.append("—")
                    continue
                lo, hi = interval(boot, s, base)
                cells.append(f"{rest[s] - rest[base]:+.4f} [{lo:+.4f}, {hi:+.4f}]")
            fit = mean([float(by[s][k]["best_fitness"]) for k in seeds])
            evals = mean([int(by[s][k]["evaluations"]) for k in seeds])
            wall = mean([float(by[s][k]["wall_seconds"]) for k in seeds])
            mark = f"**{rest[s]:.4f}**" if s == best else f"{rest[s]:.4f}"
            lines.append(f"| {NAMES[s]} | {per_seed} | {mark} | {cells[0]} | {cells[1]} | {fit:.4f} | {evals:.0f} | {wall:.0f} |")
        lines.append("")
        lo, hi = interval(boot, best, "random")
        summary.append(f"| {family}, {gold} ({len(pages)}) | "
                       + " | ".join(f"**{rest[s]:.4f}**" if s == best else f"{rest[s]:.4f}" for s in STRATEGIES)
                       + (f" | {NAMES[best]} {rest[best] - rest['random']:+.4f} [{lo:+.4f}, {hi:+.4f}] |" if best != "random" else " | random is best |"))
    lines[4:4] = ["Mean over 3 seeds of each winner's mean LCS F1 on the set's rest (the pages the run never saw).", ""] + summary + [""]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
