#!/usr/bin/env bash
# Prints the python of a throwaway venv with lxml, html5lib, PyYAML and markdown-it-py (created once per CI run under
# /tmp). Exits 1 when it cannot be built: the independent readers must run, never be skipped.
set -euo pipefail
venv=${CETUNE_CI_VENV:-${TMPDIR:-/tmp}/cetune-ci-venv}
if ! "$venv/bin/python" -c 'import lxml.html, html5lib, yaml' 2>/dev/null; then
    if ! command -v python3 >/dev/null || ! python3 -m venv --help >/dev/null 2>&1; then
        (apt-get update -qq && apt-get install -y -qq python3 python3-venv) >/dev/null 2>&1 \
            || { echo "python3 with venv is needed by the independent readers in .ci/" >&2; exit 1; }
    fi
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 || { echo "cannot create a venv at $venv" >&2; exit 1; }
    "$venv/bin/pip" install --quiet lxml html5lib pyyaml >&2 || { echo "cannot install lxml, html5lib and pyyaml into $venv" >&2; exit 1; }
fi
# markdown_check.py's CommonMark reader, added to a venv made before it was needed.
if ! "$venv/bin/python" -c 'import markdown_it' 2>/dev/null; then
    "$venv/bin/pip" install --quiet markdown-it-py >&2 || { echo "cannot install markdown-it-py into $venv" >&2; exit 1; }
fi
echo "$venv/bin/python"
