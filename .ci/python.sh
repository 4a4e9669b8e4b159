#!/usr/bin/env bash
# The Python package (python/): `pip install` into a throwaway venv (maturin, pytest and optuna
# from PyPI), then its pytest suite, run outside the source folder so that the installed package
# is the one tested. Fails, never skips, when anything is missing. CARGO_TARGET_DIR is the
# repository's target/, so the library compiled by the Rust steps is reused.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
export PATH="$work/venv/bin:$PATH"
"$py" -m pip install -q --disable-pip-version-check maturin pytest optuna
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
"$py" -m pip install -q --disable-pip-version-check --no-build-isolation "$repo/python"
cd "$work"
env -u PYTHONPATH "$py" -m pytest -q -p no:cacheprovider --import-mode=importlib "$repo/python/tests"
echo "python package: built and tested in $(( $(date +%s) - started )) s"
