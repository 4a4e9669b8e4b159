#!/usr/bin/env python3
"""trafilatura's metadata of every page of a native gold set, one ids-json file per field, for
`cetune score --field title|author|date --goldset GOLDSET OUT/title.json` (results/README.md,
"Structured output").

usage: trafilatura_meta.py GOLDSET OUT
  Each page is read as bytes and given to `trafilatura.extract(html, output_format="json",
  with_metadata=True)`; a page it returns nothing for gets empty fields. Writes OUT/title.json,
  OUT/author.json, OUT/date.json ({"package/id": value}) and prints the seconds taken.
"""
import gzip
import json
import os
import sys
import time

import trafilatura


def pages(goldset):
    for dirpath, _, files in os.walk(goldset):
        for name in sorted(files):
            for ext in (".html", ".html.gz"):
                if name.endswith(ext):
                    yield os.path.relpath(dirpath, goldset), name[: -len(ext)], os.path.join(dirpath, name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    goldset, out = sys.argv[1:]
    fields = {"title": {}, "author": {}, "date": {}}
    started = time.time()
    for package, doc_id, path in sorted(pages(goldset)):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            page = f.read()
        try:
            got = trafilatura.extract(page, output_format="json", with_metadata=True)
        except Exception:  # a page trafilatura fails on gives no fields
            got = None
        meta = json.loads(got) if got else {}
        for name, values in fields.items():
            values[f"{package}/{doc_id}"] = meta.get(name) or ""
    os.makedirs(out, exist_ok=True)
    for name, values in fields.items():
        with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as f:
            json.dump(values, f, ensure_ascii=False, indent=0)
    print(f"{len(fields['title'])} pages in {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
