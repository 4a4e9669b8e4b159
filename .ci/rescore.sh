#!/usr/bin/env bash
# Imports CleanEval dev, evaluates `full` on it, dumps the extracts and re-scores them with the
# independent Python implementation of the measure (tests/rescore.py): per document within 0.001.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/cetune
cargo build --release --quiet
for ex in full lqf; do
    "$bin" goldset import --format cleaneval ../shared/goldsets/cleaneval-dev --out "$tmp/ce" --force >/dev/null
    "$bin" evaluate --goldset "$tmp/ce" --extractor "$ex" --out "$tmp/eval-$ex" --quiet >/dev/null
    "$bin" extract --extractor "$ex" --goldset "$tmp/ce" --dump "$tmp/dump-$ex" --quiet
    python3 tests/rescore.py "$tmp/ce" "$tmp/dump-$ex" "$tmp/eval-$ex/per-document.csv" 0.001
done
