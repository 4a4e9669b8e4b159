#!/usr/bin/env bash
# Imports the four shared gold sets with `cetune goldset import` and compares every gold text with
# the independent reading of .ci/gold_check.py (Python + lxml, a throwaway venv under /tmp).
# Fails when lxml cannot be installed: this check must not be skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash .ci/venv.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/cetune
cargo build --release --quiet
shared=../shared/goldsets
status=0
for set in cleaneval:cleaneval-dev:cleaneval cleaneval:cleanportaleval:cleanportaleval l3s:l3s-gn1:l3s wcxb:wcxb-dev:wcxb; do
    IFS=: read -r format dir reader <<<"$set"
    "$bin" goldset import --format "$format" "$shared/$dir" --out "$tmp/$dir" >/dev/null 2>&1
    "$py" .ci/gold_check.py "$reader" "$shared/$dir" "$tmp/$dir" || status=1
done
exit $status
