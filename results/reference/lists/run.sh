#!/usr/bin/env bash
# The record-group figures of results/README.md ("Record groups: lists, whole, vote and focus"),
# rebuilt from the imported gold sets in gs/ (gs/NAME as results/README.md's commands make them:
# the four shared sets, the 120-page samples wcxb-dev-s120 and l3s-gn1-s120, and their rests).
# About 20 minutes on 2 cores. Then paired.py writes the tables beside the runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=results/reference/lists
CETUNE=${CETUNE:-target/release/cetune}
SETS=(--goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 --goldset gs/wcxb-dev --host-folds wcxb-dev=2)

# 1. The general model's protocol (each set held out; WCXB dev 2 folds by host), with and without
#    the lists features, over a grid of the steps after the trees.
$CETUNE model build -e blocktrees --set group_lists=false --grid vote=0,0.25,0.5,0.75,1 "${SETS[@]}" --out $R/general-off --force -q
$CETUNE model build -e blocktrees --set group_lists=true --grid vote=0,0.25,0.5 --grid whole=0,0.5,1 "${SETS[@]}" --out $R/general-whole --force -q
$CETUNE model build -e blocktrees --set group_lists=true --grid vote=0,0.5 --grid focus=0,0.25,0.5,1 "${SETS[@]}" --out $R/general-focus --force -q
# The models are not kept: fitted on every page, they measure nothing here.
rm -f $R/general-*/general.model
rm -f $R/general-off/pages.csv $R/general-whole/pages.csv  # each build choice per set: the focus build's is the one compared
python3 $R/paired.py results/reference/general/pages.csv $R/general-focus/pages.csv --out $R/general-focus/paired.md

# 2. The user's workflow: tune on the 120-page sample (the family's default search, seed 1) with
#    the groups and their steps as genes, measure on the set's other pages; paired with the
#    default blocktrees runs of the strategy comparison (the same search without them).
for set in wcxb-dev l3s-gn1; do
    short=${set%%-*}
    out=$R/groups-$short
    $CETUNE optimise --params $R/blocktrees-groups.yaml --goldset gs/$set-s120 --seed 1 --out $out --force -q
    $CETUNE evaluate --params $out/best.yaml --goldset gs/$set-rest --out $out/evaluate-rest -q
    gzip -f $out/evaluate-rest/per-document.csv
    base=results/reference/strategies/default-blocktrees-$short/evaluate-$short-rest/per-document.csv.gz
    python3 $R/paired.py $base $out/evaluate-rest/per-document.csv.gz --out $out/paired.md
done
# Ablation: the WCXB dev winner with its region decision off.
$CETUNE evaluate --params $R/groups-wcxb/best.yaml --set focus=0 --goldset gs/wcxb-dev-rest --out $R/groups-wcxb/evaluate-rest-focus0 -q
gzip -f $R/groups-wcxb/evaluate-rest-focus0/per-document.csv
# The error analysis: the 30 worst collection, listing, product and service pages of that run.
$CETUNE extract --params $R/groups-wcxb/best.yaml --goldset gs/wcxb-dev-rest --dump "${TMPDIR:-/tmp}/cetune-groups-dump" --force -q
python3 $R/worst.py $R/groups-wcxb/evaluate-rest/per-document.csv.gz "${TMPDIR:-/tmp}/cetune-groups-dump" gs/wcxb-dev-rest > $R/groups-wcxb/worst.md
python3 $R/grid.py shipped=results/reference/general/means.csv lists-off=$R/general-off/means.csv \
    lists-on=$R/general-whole/means.csv lists-on=$R/general-focus/means.csv --out $R/general.md
# The same analysis of the run without the groups (before the change).
$CETUNE extract --params results/reference/strategies/default-blocktrees-wcxb/best.yaml --goldset gs/wcxb-dev-rest --dump "${TMPDIR:-/tmp}/cetune-default-dump" --force -q
python3 $R/worst.py results/reference/strategies/default-blocktrees-wcxb/evaluate-wcxb-rest/per-document.csv.gz "${TMPDIR:-/tmp}/cetune-default-dump" gs/wcxb-dev-rest > $R/worst-before.md
