#!/usr/bin/env bash
# Regenerates the committed reference runs (every results/**/run.yaml) from the shared gold
# sets: imports the sets a run names into a scratch folder, then reruns the command the run
# recorded. Run from anywhere; it works in the repository root.
#
#   results/reproduce.sh                 every run, rebuilt in place (results/...)
#   results/reproduce.sh RUN...          those runs only (a folder: results/reference/accb, or accb)
#   results/reproduce.sh --kinds         one reference run of each kind (family, combination,
#                                        route, fitted): the cheap ones CI rebuilds
#   results/reproduce.sh --check ...     leave the committed runs as they are, and fail unless each
#                                        run rebuilt in the scratch folder has the committed best.yaml
#   results/reproduce.sh --list ...      print the commands, run nothing
#
# Environment:
#   CETUNE_SCRATCH  the scratch folder (default: $TMPDIR/cetune-scratch). Runs record the gold
#                   sets as $CETUNE_SCRATCH/NAME; imported sets are kept there and reused.
#   CETUNE_SHARED   the shared gold sets in their original layouts (default: ../shared/goldsets)
#   CETUNE          the cetune binary (default: target/release/cetune, built when missing)
#
# A script and not a cetune subcommand: it only strings together commands a user types
# (`goldset import`, `goldset sample`, `optimise`), so it shows them as they are; the gold
# sets' recipes below are the project's layout, not something the tool should know.
set -euo pipefail
cd "$(dirname "$0")/.."

# One cheap committed run of each kind, as CI rebuilds them (results/reference/ci: small seeded
# runs this script made for the purpose).
KINDS=(
    results/reference/ci/family-lqf
    results/reference/ci/combination-vote
    results/reference/ci/route
    results/reference/blocktrees-ce
)

check=0 list=0 runs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check=1 ;;
        --list) list=1 ;;
        --kinds) runs+=("${KINDS[@]}") ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "reproduce.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) runs+=("$1") ;;
    esac
    shift
done

export CETUNE_SCRATCH=${CETUNE_SCRATCH:-${TMPDIR:-/tmp}/cetune-scratch}
SHARED=${CETUNE_SHARED:-../shared/goldsets}
CETUNE=${CETUNE:-target/release/cetune}
mkdir -p "$CETUNE_SCRATCH"
if [ "$list" = 0 ] && [ ! -x "$CETUNE" ]; then
    cargo build --release --quiet
fi

# The gold set NAME in the scratch folder, made once: an import of a shared set, or a seeded
# sample of one. Fails (status 1) for a set with no recipe here.
goldset() {
    local name=$1 dir=$CETUNE_SCRATCH/$1
    [ -f "$dir/goldset.yaml" ] && return 0
    case "$name" in
        cleaneval-dev | cleanportaleval) import cleaneval "$name" ;;
        l3s-gn1) import l3s "$name" ;;
        wcxb-dev) import wcxb "$name" ;;
        l3s-gn1-s120 | wcxb-dev-s120) sample "${name%-s120}" 120 "$name" ;;
        cleaneval-dev-s28) sample cleaneval-dev 28 "$name" ;;
        cleanportaleval-s35) sample cleanportaleval 35 "$name" ;;
        *) echo "  no recipe for the gold set '$name' (see results/README.md for how it was made)" >&2; return 1 ;;
    esac
}
import() {
    echo "  importing $SHARED/$2 ($1) into \$CETUNE_SCRATCH/$2"
    "$CETUNE" goldset import --input-format "$1" "$SHARED/$2" --out "$CETUNE_SCRATCH/$2" --force -q >/dev/null
}
sample() {
    goldset "$1" || return 1
    echo "  sampling $3 (--n $2 --seed 1 of $1)"
    "$CETUNE" goldset sample --n "$2" --seed 1 "$CETUNE_SCRATCH/$1" --out "$CETUNE_SCRATCH/$3" --force >/dev/null
}

# The `command:` of a run.yaml: one line, or a folded block (`>-`) of indented lines.
command_of() {
    awk '/^command: / { v = substr($0, 10); if (v == ">-" || v == ">") { fold = 1; next } print v; exit }
         fold && /^  / { sub(/^  /, ""); out = out (out == "" ? "" : " ") $0; next }
         fold { print out; exit }' "$1"
}

if [ ${#runs[@]} = 0 ]; then
    mapfile -t runs < <(find results -name run.yaml -printf '%h\n' | sort)
fi

failed=() different=() same=0
for run in "${runs[@]}"; do
    run=${run%/}
    [ -f "$run/run.yaml" ] || run=results/reference/$run
    if [ ! -f "$run/run.yaml" ]; then
        echo "reproduce.sh: $run: no run.yaml there" >&2
        exit 2
    fi
    line=$(command_of "$run/run.yaml")
    # Words as the shell reads them, $CETUNE_SCRATCH expanded; leading NAME=VALUE words (a run
    # started with CETUNE_GENERAL_MODEL records it so) are the run's environment.
    eval "set -- $line"
    vars=()
    while [ $# -gt 0 ] && [[ $1 == CETUNE_*=* ]]; do vars+=("$1"); shift; done
    shift
    # Built in the scratch folder (a committed run folder may hold files cetune did not list as
    # its own, which --force will not clear), then, unless --check, copied over the run's files.
    out=$CETUNE_SCRATCH/runs/$run
    args=() gs="" force=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --out) args+=(--out "$out"); shift ;;
            --goldset) gs=$2; args+=("$1" "$2"); shift ;;
            --force) force=1; args+=("$1") ;;
            *) args+=("$1") ;;
        esac
        shift
    done
    [ "$force" = 1 ] || args+=(--force)
    echo "== $run"
    echo "   ${vars[*]}${vars[*]:+ }cetune ${args[*]}"
    [ "$list" = 1 ] && continue
    case "$gs" in
        "$CETUNE_SCRATCH"/*) name=${gs#"$CETUNE_SCRATCH"/}; goldset "${name%%/*}" || { failed+=("$run (gold set)"); continue; } ;;
    esac
    start=$SECONDS
    if ! env "${vars[@]}" "$CETUNE" "${args[@]}"; then
        failed+=("$run")
        continue
    fi
    echo "   done in $((SECONDS - start)) s"
    if [ "$check" = 0 ]; then
        # The run's own files (its subfolders, such as evaluations of its best setting, stay),
        # naming the committed folder instead of the scratch one.
        find "$out" -maxdepth 1 -type f ! -name .lock -exec cp {} "$run/" \;
        for f in run.yaml best.yaml; do
            sed -i "s|\$CETUNE_SCRATCH/runs/$run|$run|g" "$run/$f"
        done
        continue
    fi
    # best.yaml names the folder it was written in (`run:`); everything else must match.
    if diff <(grep -v '^  run: ' "$run/best.yaml") <(grep -v '^  run: ' "$out/best.yaml") >/dev/null; then
        echo "   best.yaml: the same as the committed one"
        same=$((same + 1))
    else
        echo "   best.yaml differs from the committed one:"
        diff <(grep -v '^  run: ' "$run/best.yaml") <(grep -v '^  run: ' "$out/best.yaml") | sed 's/^/     /' || true
        different+=("$run")
    fi
done

[ "$list" = 1 ] && exit 0
[ "$check" = 1 ] && echo "reproduce.sh: $same run(s) rebuilt to the committed best.yaml"
if [ ${#different[@]} -gt 0 ]; then
    echo "reproduce.sh: best.yaml differs for: ${different[*]}" >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "reproduce.sh: failed: ${failed[*]}" >&2
fi
[ ${#different[@]} = 0 ] && [ ${#failed[@]} = 0 ]
