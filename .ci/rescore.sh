#!/usr/bin/env bash
# Imports CleanEval dev, evaluates `full` on it, dumps the extracts and re-scores them with the
# independent Python implementation of the measure (tests/rescore.py): per document within 0.001;
# then the same for the bow and shingle4 measures from an ids-json dump (tests/rescore_measures.py).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/cetune
cargo build --release --quiet
for ex in full lqf; do
    "$bin" goldset import --input-format cleaneval ../shared/goldsets/cleaneval-dev --out "$tmp/ce" --force >/dev/null
    "$bin" evaluate --goldset "$tmp/ce" --extractor "$ex" --out "$tmp/eval-$ex" --quiet >/dev/null
    "$bin" extract --extractor "$ex" --goldset "$tmp/ce" --dump "$tmp/dump-$ex" --quiet
    python3 tests/rescore.py "$tmp/ce" "$tmp/dump-$ex" "$tmp/eval-$ex/per-document.csv" 0.001
    # The benchmarks' measures, from the ids-json dump (tests/rescore_measures.py).
    "$bin" extract --extractor "$ex" --goldset "$tmp/ce" --dump "$tmp/json-$ex" --format ids-json --quiet
    for m in bow shingle4; do
        "$bin" evaluate --goldset "$tmp/ce" --extractor "$ex" --measure "$m" --out "$tmp/eval-$ex-$m" --quiet >/dev/null
        python3 tests/rescore_measures.py "$m" "$tmp/ce" "$tmp/json-$ex/extract.json" "$tmp/eval-$ex-$m/per-document.csv" 0.001
    done
done
