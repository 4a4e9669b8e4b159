#!/usr/bin/env bash
# The independent readers (Python, written apart from the Rust code; a throwaway venv under /tmp
# with lxml and html5lib; CI fails when it cannot be built, never skips):
# 1. .ci/gold_check.py: every gold text of the four shared sets, read from the original layout,
#    against what `cetune goldset import` wrote;
# 2. .ci/render_check.py: pages rendered to words by the browser's rules against
#    `cetune extract --extractor full` (CleanEval dev, CleanPortalEval, and 120-page samples of
#    L3S-GN1 and WCXB dev: 366 pages);
# 3. .ci/feed_check.py: feeds read from their formats (lxml) against what `cetune goldset
#    from-feed` wrote: gold texts and title/author/date of the real mirrors of ../shared/feeds and
#    of the synthetic blog set laid out as a mirror;
# 4. .ci/markdown_check.py: `cetune extract --format markdown` of 200 WCXB dev and 100 L3S-GN1
#    pages (full and readability) read back by markdown-it-py: it parses, its words are the txt
#    output's, headings and tables match the source page's (with render_check.py's walk).
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash .ci/venv.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/cetune
cargo build --release --quiet
shared=../shared/goldsets
status=0
for set in cleaneval:cleaneval-dev:cleaneval cleaneval:cleanportaleval:cleanportaleval l3s:l3s-gn1:l3s wcxb:wcxb-dev:wcxb; do
    IFS=: read -r format dir reader <<<"$set"
    "$bin" goldset import --input-format "$format" "$shared/$dir" --out "$tmp/$dir" >/dev/null 2>&1
    "$py" .ci/gold_check.py "$reader" "$shared/$dir" "$tmp/$dir" || status=1
done
"$bin" goldset sample "$tmp/l3s-gn1" --n 120 --seed 1 --out "$tmp/l3s-s120" >/dev/null
"$bin" goldset sample "$tmp/wcxb-dev" --n 120 --seed 1 --out "$tmp/wcxb-s120" >/dev/null
for set in cleaneval-dev cleanportaleval l3s-s120 wcxb-s120; do
    "$bin" extract --extractor full --goldset "$tmp/$set" --dump "$tmp/full-$set" --quiet >/dev/null
    "$py" .ci/render_check.py "$tmp/$set" "$tmp/full-$set" || status=1
done
# The structured output: a sample of each set, two families, txt and Markdown dumps.
"$bin" goldset sample "$tmp/wcxb-dev" --n 200 --seed 1 --out "$tmp/wcxb-s200" >/dev/null
"$bin" goldset sample "$tmp/l3s-gn1" --n 100 --seed 1 --out "$tmp/l3s-s100" >/dev/null
for set in wcxb-s200 l3s-s100; do
    for ex in full readability; do
        "$bin" extract --extractor "$ex" --goldset "$tmp/$set" --dump "$tmp/txt-$ex-$set" --quiet >/dev/null
        "$bin" extract --extractor "$ex" --goldset "$tmp/$set" --dump "$tmp/md-$ex-$set" --format markdown \
            --quiet >/dev/null
        "$py" .ci/markdown_check.py "$tmp/$set" "$tmp/txt-$ex-$set" "$tmp/md-$ex-$set" || status=1
    done
done
"$py" .ci/feed_check.py --make-mirror goldsets/blogs "$tmp/blogs-mirror"
"$bin" goldset from-feed "$tmp/blogs-mirror" --out "$tmp/blogs-feed" --quiet
"$py" .ci/feed_check.py "$tmp/blogs-mirror" --gold "$tmp/blogs-feed" || status=1
feeds=(../shared/feeds/*/)
"$bin" goldset from-feed "${feeds[@]}" --out "$tmp/real-feed" --min-full-words 1 --keep-summaries --quiet
"$py" .ci/feed_check.py "${feeds[@]}" --gold "$tmp/real-feed" --min-full-words 1 || status=1
exit $status
