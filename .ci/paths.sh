#!/usr/bin/env bash
# Fails on any absolute path of one machine in a committed file outside tests/ (whose fixtures
# may hold such paths on purpose): a run folder, a script or a document that names a scratch
# folder or a home folder cannot be repeated elsewhere. Prints file:line: text for each hit.
# Runs recorded by cetune write such paths relative to the working folder or as
# $CETUNE_SCRATCH/... (src/paths.rs, `recorded`).
set -euo pipefail
cd "$(dirname "$0")/.."
# A path starting at the root with a machine's scratch or home folder: /tmp/, /work/, /home/,
# /root/, /Users/, /mnt/, /var/folders/ (not preceded by a word character, so URLs such as
# https://example.org/home/ do not count).
pattern='(^|[^[:alnum:]_.~-])/(tmp|work|home|root|Users|mnt|var/folders)/'
# Binary files (plots, fonts) are skipped (-I).
if hits=$(git grep -n -I -E "$pattern" -- . ':(exclude)tests/' ':(exclude).ci/paths.sh'); then
    echo "$hits" | cut -c1-240
    echo "absolute machine paths in $(echo "$hits" | cut -d: -f1 | sort -u | wc -l) committed file(s) (record them relative to the repository or as \$CETUNE_SCRATCH/...)" >&2
    exit 1
fi
echo "no absolute machine path in a committed file outside tests/"
