#!/usr/bin/env bash
# The learned region decision's figures of results/README.md ("Learned regions"), rebuilt from
# the imported gold sets in gs/ (as results/README.md's commands make them: the 120-page samples
# wcxb-dev-s120 and l3s-gn1-s120, the halves cleaneval-dev-s28 and cleanportaleval-s35, and each
# one's rest). About 25 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
R=results/reference/regions
L=results/reference/lists
CETUNE=${CETUNE:-target/release/cetune}
case $CETUNE in /*) ;; *) CETUNE=$PWD/$CETUNE ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. One setting, no search: the family's defaults fitted on each sample (a population of one),
#    measured on the set's other pages: one stage (the defaults), with the second stage
#    (`stack`), and with the region decision (`regions`, which implies the second stage).
#    `stack` is a gene (`--set` would move the search's start only), so its run reads a copy of
#    the family's description with it fixed on, written here (`blocktrees-stack.yaml`).
python3 - params/blocktrees.yaml $R/blocktrees-stack.yaml <<'PY'
import sys
text = open(sys.argv[1]).read()
old = "  - name: stack\n    type: bool\n    default: false\n"
assert old in text
new = "  - name: stack\n    type: bool\n    default: true\n    tune: false\n"
head = "# params/blocktrees.yaml with `stack` fixed on (written by results/reference/regions/run.sh).\n"
open(sys.argv[2], "w").write(head + text.replace(old, new))
PY
for pair in wcxb-dev-s120:wcxb-dev-rest l3s-gn1-s120:l3s-gn1-rest cleaneval-dev-s28:cleaneval-dev-rest cleanportaleval-s35:cleanportaleval-rest; do
    sample=${pair%%:*} rest=${pair##*:}
    short=${sample%%-*}
    for v in one stack regions; do
        case $v in
            one) args=(-e blocktrees) ;;
            stack) args=(--params $R/blocktrees-stack.yaml) ;;
            regions) args=(-e blocktrees --set regions=true) ;;
        esac
        out=$R/fixed/$short/$v
        $CETUNE optimise "${args[@]}" --goldset gs/$sample --population 1 --elites 0 --max-generations 1 --seed 1 --out $out --force -q
        $CETUNE evaluate --params $out/best.yaml --goldset gs/$rest --out $out/evaluate-rest --force -q
        gzip -f $out/evaluate-rest/per-document.csv
    done
    for base in one stack; do
        python3 $L/paired.py $R/fixed/$short/$base/evaluate-rest/per-document.csv.gz \
            $R/fixed/$short/regions/evaluate-rest/per-document.csv.gz --out $R/fixed/$short/paired-$base.md
    done
done

# 2. The user's workflow: the family's default search on the 120-page sample (seed 1) with the
#    region decision on, measured on the set's other pages; paired with the default blocktrees
#    runs of the strategy comparison (the same search without it).
for set in wcxb-dev l3s-gn1; do
    short=${set%%-*}
    out=$R/$short
    $CETUNE optimise -e blocktrees --set regions=true --goldset gs/$set-s120 --seed 1 --out $out --force -q
    $CETUNE evaluate --params $out/best.yaml --goldset gs/$set-rest --out $out/evaluate-rest --force -q
    gzip -f $out/evaluate-rest/per-document.csv
    base=results/reference/strategies/default-blocktrees-$short/evaluate-$short-rest/per-document.csv.gz
    python3 $L/paired.py $base $out/evaluate-rest/per-document.csv.gz --out $out/paired.md
done
# The error analysis: the 30 worst collection, listing, product and service pages of the WCXB run.
$CETUNE extract --params $R/wcxb/best.yaml --goldset gs/wcxb-dev-rest --dump "$tmp/dump" --force -q
python3 $L/worst.py $R/wcxb/evaluate-rest/per-document.csv.gz "$tmp/dump" gs/wcxb-dev-rest > $R/wcxb/worst.md

# 3. Item 4's census: how many WCXB dev pages carry a description in JSON-LD whose words the
#    gold holds but the page's visible text does not (structured data as candidate blocks).
python3 $R/jsonld.py gs/wcxb-dev > $R/jsonld.md

# 4. With all the public gold (the general model's protocol): the shipped general model's build
#    (the dialog features on) with the region decision, each set held out (WCXB dev 2 folds by
#    host; each fold's training pages folded again for the second stage), paired by page with
#    the shipped build (../general/pages.csv). About 9 minutes on 2 cores.
ln -s "$PWD/gs" "$tmp/gs"
(cd "$tmp" && $CETUNE model build --goldset gs/cleaneval-dev --goldset gs/cleanportaleval --goldset gs/l3s-gn1 \
    --goldset gs/wcxb-dev --set group_dialog=true,regions=true --host-folds wcxb-dev=2 --out general -q)
mkdir -p $R/general
cp "$tmp/general/means.csv" "$tmp/general/pages.csv" $R/general/
python3 $L/paired.py results/reference/general/pages.csv $R/general/pages.csv --out $R/general/paired.md
