#!/usr/bin/env bash
# The dialog features' figures of results/README.md ("Dialogs", and "The general model", which
# ships with them), rebuilt from the imported gold sets in gs/ (as results/README.md's commands
# make them: the 120-page samples wcxb-dev-s120 and l3s-gn1-s120 and their rests, and the four
# whole sets). About 25 minutes on 2 cores. Needs lxml (installed with readability-lxml) and
# trafilatura for steps 4 and 5.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=results/reference/dialog
G=results/reference/general
L=results/reference/lists
REG=results/reference/regions
CETUNE=${CETUNE:-target/release/cetune}
case $CETUNE in /*) ;; *) CETUNE=$PWD/$CETUNE ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. One setting, no search: the family's defaults with the dialog features fitted on the WCXB
#    dev sample (a population of one), measured on the other pages; one stage and with the
#    region decision, paired with the same settings without the features (../regions/fixed).
for v in one regions; do
    case $v in
        one) set_=group_dialog=true ;;
        regions) set_=group_dialog=true,regions=true ;;
    esac
    out=$R/fixed/$v
    $CETUNE optimise -e blocktrees --set $set_ --goldset gs/wcxb-dev-s120 --population 1 --elites 0 --max-generations 1 --seed 1 --out $out --force -q
    $CETUNE evaluate --params $out/best.yaml --goldset gs/wcxb-dev-rest --out $out/evaluate-rest --force -q
    gzip -f $out/evaluate-rest/per-document.csv
    python3 $L/paired.py $REG/fixed/wcxb/$v/evaluate-rest/per-document.csv.gz $out/evaluate-rest/per-document.csv.gz --out $out/paired.md
done

# 2. The user's workflow: the family's default search on the 120-page sample (seed 1) with the
#    features on, measured on the set's other pages; paired with the default blocktrees runs of
#    the strategy comparison (the same search without them).
for set in wcxb-dev l3s-gn1; do
    short=${set%%-*}
    out=$R/$short
    $CETUNE optimise -e blocktrees --set group_dialog=true --goldset gs/$set-s120 --seed 1 --out $out --force -q
    $CETUNE evaluate --params $out/best.yaml --goldset gs/$set-rest --out $out/evaluate-rest --force -q
    gzip -f $out/evaluate-rest/per-document.csv
    base=results/reference/strategies/default-blocktrees-$short/evaluate-$short-rest/per-document.csv.gz
    python3 $L/paired.py $base $out/evaluate-rest/per-document.csv.gz --out $out/paired.md
done

# 3. The general model with the features (what ships): built in a scratch folder beside gs/ so
#    that its rebuild line names gs/, then copied to params/ and results/reference/general/,
#    and the grid of its section; paired with the model before the features.
ln -s "$PWD/gs" "$tmp/gs"
SETS=(--goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 --goldset gs/wcxb-dev)
(cd "$tmp" && $CETUNE model build "${SETS[@]}" --set group_dialog=true --host-folds wcxb-dev=2 --out general -q)
(cd "$tmp" && $CETUNE model build "${SETS[@]}" --grid t=0.3,0.4,0.5 --grid trees=80,200 --set group_dialog=true --host-folds wcxb-dev=2 --out grid -q)
cp "$tmp/general/general.yaml" "$tmp/general/general.model" params/
cp "$tmp/general/means.csv" "$tmp/general/pages.csv" $G/
cp "$tmp/grid/means.csv" $G/grid-means.csv
# The trees' own hyperparameters with 2,000 pages (the defaults were chosen on 120-page samples).
(cd "$tmp" && $CETUNE model build "${SETS[@]}" --set group_dialog=true --grid depth=4,5 --grid min_leaf=20,60 --grid learning_rate=0.1,0.2 --host-folds wcxb-dev=2 --out hyper -q)
cp "$tmp/hyper/means.csv" $G/hyper-means.csv
python3 $L/paired.py $R/general-before-pages.csv.gz $G/pages.csv --out $R/general-paired.md

# 4. trafilatura on the same pages, against the general model page by page.
for s in cleaneval-dev cleanportaleval l3s-gn1 wcxb-dev; do
    python3 $R/run_trafilatura.py gs/$s "$tmp/traf/$s"
    $CETUNE score "$tmp/traf/$s" --goldset gs/$s --name trafilatura --out "$tmp/score/$s" --force > /dev/null
done
python3 - "$tmp/score" $R/trafilatura-pages.csv.gz <<'PY'
import csv, gzip, sys
with gzip.open(sys.argv[2], "wt", newline="") as out:
    w = csv.writer(out)
    w.writerow(["set", "package", "id", "precision", "recall", "f1"])
    for s in ["cleaneval-dev", "cleanportaleval", "l3s-gn1", "wcxb-dev"]:
        for r in csv.DictReader(open(f"{sys.argv[1]}/{s}/per-document.csv")):
            w.writerow([s, f"{s}/{r['package']}", r["id"], r["precision"], r["recall"], r["f1"]])
PY
python3 $L/paired.py $R/trafilatura-pages.csv.gz $G/pages.csv --out $R/general-vs-trafilatura.md

# 5. How much text sits in dialogs and aria-hidden subtrees, and how much of it the gold holds.
python3 $R/census.py gs/wcxb-dev gs/l3s-gn1 gs/cleaneval-dev gs/cleanportaleval > $R/census.md

# 6. The error analysis of the best configuration measured here (the defaults with the dialog
#    features and the region decision, fixed/regions): the 30 worst collection, listing, product
#    and service pages of the WCXB dev rest.
$CETUNE extract --params $R/fixed/regions/best.yaml --goldset gs/wcxb-dev-rest --dump "$tmp/dump" --force -q
python3 $L/worst.py $R/fixed/regions/evaluate-rest/per-document.csv.gz "$tmp/dump" gs/wcxb-dev-rest > $R/fixed/regions/worst.md
