#!/usr/bin/env bash
# The stacked-member figures of results/README.md ("Stacked members"), rebuilt from the imported
# gold sets in gs/ (as results/README.md's commands make them: the four shared sets, the 120-page
# samples wcxb-dev-s120 and l3s-gn1-s120, and their rests). Needs Python with trafilatura and
# cetune's worker module (PYTHONPATH=python:examples). About 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=results/reference/stacked
L=results/reference/lists
CETUNE=${CETUNE:-target/release/cetune}
export PYTHONPATH=python:examples

# 1. The user's workflow: tune on the 120-page sample (the family's default search, seed 1), the
#    three member slots as genes (trafilatura, jusText, readability, each on or off), measured on
#    the set's other pages; paired with the default blocktrees runs of the strategy comparison
#    (the same search without members).
for set in wcxb-dev l3s-gn1; do
    short=${set%%-*}
    out=$R/$short
    $CETUNE optimise --params params/external/blocktrees-stacked.yaml --goldset gs/$set-s120 --seed 1 --out $out --force -q
    $CETUNE evaluate --params $out/best.yaml --goldset gs/$set-rest --out $out/evaluate-rest -q
    gzip -f $out/evaluate-rest/per-document.csv
    base=results/reference/strategies/default-blocktrees-$short/evaluate-$short-rest/per-document.csv.gz
    python3 $L/paired.py $base $out/evaluate-rest/per-document.csv.gz --out $out/paired.md
done
# The error analysis: the 30 worst collection, listing, product and service pages of the WCXB run.
$CETUNE extract --params $R/wcxb/best.yaml --goldset gs/wcxb-dev-rest --dump "${TMPDIR:-/tmp}/cetune-stacked-dump" --force -q
python3 $L/worst.py $R/wcxb/evaluate-rest/per-document.csv.gz "${TMPDIR:-/tmp}/cetune-stacked-dump" gs/wcxb-dev-rest > $R/wcxb/worst.md

# 2. The general model's protocol (each set held out; WCXB dev 2 folds by host): jusText and
#    readability stacked, with and without trafilatura, against the shipped model's pages.
$CETUNE model build --params params/external/blocktrees-stacked.yaml --grid member1=none,params/external/trafilatura.yaml \
    --goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 --goldset gs/wcxb-dev --host-folds wcxb-dev=2 \
    --out $R/general --force -q
# The model is not kept: fitted on every page, it measures nothing here.
rm -f $R/general/general.model
python3 $L/paired.py results/reference/general/pages.csv $R/general/pages.csv --out $R/general/paired.md
# jusText and readability stacked with the record groups and the steps after the trees (lists
# section): do the gains add?
$CETUNE model build -e blocktrees --set member1=justext --set member2=readability --set group_lists=true \
    --grid vote=0,0.5 --grid focus=0,0.25 \
    --goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 --goldset gs/wcxb-dev --host-folds wcxb-dev=2 \
    --out $R/general-lists --force -q
rm -f $R/general-lists/general.model
python3 $L/paired.py results/reference/general/pages.csv $R/general-lists/pages.csv --out $R/general-lists/paired.md
