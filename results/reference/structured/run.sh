#!/usr/bin/env bash
# The structured-data figures of results/README.md ("Structured data"), rebuilt from the imported
# gold sets in gs/ (as results/README.md's commands make them: wcxb-dev-s120 and its rest, and the
# four whole sets). About 5 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=results/reference/structured
D=results/reference/dialog
G=results/reference/general
L=results/reference/lists
CETUNE=${CETUNE:-target/release/cetune}
case $CETUNE in /*) ;; *) CETUNE=$PWD/$CETUNE ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. How much gold text the blocks of structured data hold: every block of the page (the block
#    view's ceiling) with and without them, on each set.
for s in wcxb-dev l3s-gn1 cleaneval-dev cleanportaleval; do
    for v in false true; do
        $CETUNE evaluate -e full_hidden --set structured=$v --goldset gs/$s --out "$tmp/full-$s-$v" --force -q > /dev/null
    done
    python3 $R/census.py "$tmp/full-$s-false/per-document.csv" "$tmp/full-$s-true/per-document.csv" > $R/census-$s.md
done

# 2. One setting, no search: the family's defaults with the dialog features (as shipped) fitted on
#    the WCXB dev sample, measured on the other pages, with group_structured; paired with the same
#    setting without it (../dialog/fixed/one).
out=$R/fixed
$CETUNE optimise -e blocktrees --set group_dialog=true,group_structured=true --goldset gs/wcxb-dev-s120 --population 1 --elites 0 --max-generations 1 --seed 1 --out $out --force -q
$CETUNE evaluate --params $out/best.yaml --goldset gs/wcxb-dev-rest --out $out/evaluate-rest --force -q
gzip -f $out/evaluate-rest/per-document.csv
python3 $L/paired.py $D/fixed/one/evaluate-rest/per-document.csv.gz $out/evaluate-rest/per-document.csv.gz --out $out/paired.md

# 3. The general model's protocol (each set held out: the other three sets fit it; WCXB dev in two
#    folds by host) with group_structured, paired with the shipped model's figures.
ln -s "$PWD/gs" "$tmp/gs"
SETS=(--goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 --goldset gs/wcxb-dev)
(cd "$tmp" && $CETUNE model build "${SETS[@]}" --set group_dialog=true,group_structured=true --host-folds wcxb-dev=2 --out general -q)
cp "$tmp/general/means.csv" $R/general-means.csv
gzip -c "$tmp/general/pages.csv" > $R/general-pages.csv.gz
python3 $L/paired.py $G/pages.csv $R/general-pages.csv.gz --out $R/general-paired.md
