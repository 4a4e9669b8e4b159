"""Main-content text of every HTML page of a folder with Resiliparse, for `cargo bench`'s
comparison with `cetune extract` (issue 15). Resiliparse has no command line of its own; this is
the same job as `cetune extract --format jsonl DIR`: read each file, decode it (Resiliparse's own
encoding detection), extract the main content as plain text, write one JSON line per page.

usage: python resiliparse_folder.py DIR PROCESSES OUT.jsonl
prints: pages=N seconds=S
"""

import json
import os
import sys
import time
from multiprocessing import Pool

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding


def one(path):
    t = time.perf_counter()
    with open(path, "rb") as f:
        raw = f.read()
    html = bytes_to_str(raw, detect_encoding(raw))
    text = extract_plain_text(html, main_content=True)
    ms = (time.perf_counter() - t) * 1000
    return json.dumps({"id": path, "text": text, "words": len(text.split()), "ms": round(ms, 3)})


def main():
    folder, processes, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    paths = sorted(
        os.path.join(d, n)
        for d, _, names in os.walk(folder)
        for n in names
        if n.endswith((".html", ".htm", ".xhtml"))
    )
    t = time.perf_counter()
    with open(out, "w") as f:
        if processes <= 1:
            for line in map(one, paths):
                f.write(line + "\n")
        else:
            with Pool(processes) as pool:
                for line in pool.imap(one, paths, chunksize=16):
                    f.write(line + "\n")
    print(f"pages={len(paths)} seconds={time.perf_counter() - t:.3f}")


if __name__ == "__main__":
    main()
