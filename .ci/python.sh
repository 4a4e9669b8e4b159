#!/usr/bin/env bash
# The Python package (python/): `pip install` into a throwaway venv (maturin, pytest and optuna
# from PyPI; pyspark, pandas and datasets for the manual's Spark and datasets snippets; the
# package's `datatrove` extra for docs/pipelines.md), then its pytest suite, run outside the
# source folder so that the installed package is the one tested. Fails, never skips, when
# anything is missing (Java and libmagic are installed when absent; the real-data tests need
# ../shared). python/ is a member of the repository's workspace, so the build shares target/ and
# Cargo.lock.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
if ! command -v java >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq default-jre-headless) >/dev/null || { echo "Java is needed by the PySpark test" >&2; exit 1; }
fi
if ! ldconfig -p | grep -q 'libmagic\.so\.1'; then   # python-magic, which datatrove's WARC reader imports
    (apt-get update -qq && apt-get install -y -qq libmagic1) >/dev/null || { echo "libmagic is needed by the datatrove test" >&2; exit 1; }
fi
(cd "$repo" && cargo build --release --quiet)   # the CLI the Spark test pipes pages through
# The extension builds the library without its `cli` feature: none of the command line's crates.
cli_crates=$(cd "$repo" && cargo tree -p cetune-python -e normal --prefix none | grep -E '^(clap|indicatif|ctrlc|plotters|png|tiny_http) ' | sort -u || true)
if [ -n "$cli_crates" ]; then
    echo "the Python extension compiles the command line's crates:" >&2
    echo "$cli_crates" >&2
    exit 1
fi
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
export PATH="$work/venv/bin:$PATH"
install() { "$py" -m pip install -q --disable-pip-version-check "$@"; }
install maturin pytest optuna
# The snippets' packages (pyspark is a ~400 MB download) install while the extension compiles.
# pandas < 3: pyspark 4.3 warns that it does not yet fully support pandas 3.
install "pyspark[sql]" "pandas<3" datasets >"$work/extras.log" 2>&1 &
extras=$!
"$py" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$work/wheel" "$repo/python"
built=$(date +%s)
wait "$extras" || { cat "$work/extras.log" >&2; echo "installing pyspark, pandas and datasets failed" >&2; exit 1; }
waited=$(date +%s)
# The wheel with its datatrove extra, as `pip install './python[datatrove]'` installs it.
wheel=$(ls "$work"/wheel/cetune-*.whl)
install "$wheel[datatrove]"
echo "python package: venv and build $((built - started)) s, waited $((waited - built)) s more for the snippets' packages, the datatrove extra $(($(date +%s) - waited)) s"
cd "$work"
export CETUNE_REQUIRE_REAL_DATA=1   # the real-data tests of cetune.goldset fail, never skip, without ../shared
env -u PYTHONPATH "$py" -m pytest -q -p no:cacheprovider --import-mode=importlib --durations=5 "$repo/python/tests"
echo "python package: built and tested in $(( $(date +%s) - started )) s"
