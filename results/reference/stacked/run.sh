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

# 3. A member fitted on gold, fitted with the trees out of fold: blocktrees at its defaults as
#    member1 (a copy of the family's description with that choice, written here), one setting
#    (the defaults with the dialog features), fitted on each 120-page sample and measured on the
#    set's other pages; paired with the same setting without the member (../dialog/fixed/one on
#    WCXB dev, written here for L3S-GN1).
python3 - params/blocktrees.yaml $R/blocktrees-fitted-member.yaml <<'PY'
import sys
own = open(sys.argv[1]).read()
at = own.index("  - name: member1\n")
end = own.index("  - name: member2\n")
slot = ("  - name: member1\n    type: categorical\n    choices: [none, blocktrees]\n    default: blocktrees\n"
        "    tune: false\n    meaning: \"a stacked member: blocktrees at its defaults, fitted with the trees, out of fold\"\n")
head = "# params/blocktrees.yaml with member1 = blocktrees (written by results/reference/stacked/run.sh).\n"
open(sys.argv[2], "w").write(head + own[:at] + slot + own[end:])
PY
for pair in wcxb-dev-s120:wcxb-dev-rest l3s-gn1-s120:l3s-gn1-rest; do
    sample=${pair%%:*} rest=${pair##*:}
    short=${sample%%-*}
    for v in fitted-member without; do
        [ "$short/$v" = wcxb/without ] && continue
        out=$R/fitted/$short/$v
        member=blocktrees
        [ $v = without ] && member=none
        $CETUNE optimise --params $R/blocktrees-fitted-member.yaml --set group_dialog=true,member1=$member --goldset gs/$sample \
            --population 1 --elites 0 --max-generations 1 --seed 1 --out $out --force -q
        $CETUNE evaluate --params $out/best.yaml --goldset gs/$rest --out $out/evaluate-rest --force -q
        gzip -f $out/evaluate-rest/per-document.csv
    done
done
python3 $L/paired.py results/reference/dialog/fixed/one/evaluate-rest/per-document.csv.gz \
    $R/fitted/wcxb/fitted-member/evaluate-rest/per-document.csv.gz --out $R/fitted/wcxb/paired.md
python3 $L/paired.py $R/fitted/l3s/without/evaluate-rest/per-document.csv.gz \
    $R/fitted/l3s/fitted-member/evaluate-rest/per-document.csv.gz --out $R/fitted/l3s/paired.md
