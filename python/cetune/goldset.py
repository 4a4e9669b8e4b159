"""Gold sets as Hugging Face datasets, both ways.

>>> from cetune.goldset import to_dataset, from_dataset
>>> ds = to_dataset("goldsets/default")          # one row per page
>>> ds.to_parquet("default.parquet")             # or ds.push_to_hub(...)
>>> from_dataset("default.parquet", "copy/")     # the same gold set, file for file
>>> from_dataset(published, "wcxb/", columns={"text": "main_content", "package": "page_type"},
...              licence="CC-BY-4.0, (c) ...")    # a published dataset becomes a gold set

Columns: ``id`` and ``package`` (the page is ``<package>/<id>.html``), ``url``, ``lang``,
``html`` (the page as text), ``text`` (the gold text; null for a page without one), the gold
fields ``title``, ``author``, ``date`` (ISO 8601), ``comments`` (as cetune scores them: a saved
annotation's over goldset.yaml's, the ``<id>.comments.txt`` sidecar when neither has them),
``posts`` and ``feed`` (JSON text, as in goldset.yaml), ``goldset`` (JSON text of the set's own
keys: name, description, licence, source, latin1_gold; the same on every row, so a subset keeps
them), and ``cetune``, a struct of what the exact round trip needs and the other columns cannot
say: the page's file name (``page_file``), the page's, gold text's and comments sidecar's bytes
as stored when they are not the UTF-8 of ``html``/``text`` (a ``.html.gz`` page, another encoding:
``page_bytes``, ``text_bytes``, ``comments_bytes``), the goldset.yaml entry as written when the
columns do not give it back (``meta``) and the page's annotations.yaml record (``annotation``).

Written back, the pages, gold texts and sidecars are byte-identical and goldset.yaml and
annotations.yaml hold the same data, written as cetune writes them (a set cetune wrote, by
``goldset import``, ``sample`` or ``annotate``, comes back byte for byte; a hand-written
goldset.yaml comes back in cetune's layout, without its comments). Other files of the folder
(feeds, notes) are no part of the gold set: ``to_dataset`` names them in a warning.

Command line: ``python -m cetune.goldset export DIR OUT.parquet`` and ``python -m
cetune.goldset import IN.parquet DIR [--column text=main_content ...] [--licence TEXT]``.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import pathlib
import sys
import warnings
from collections.abc import Iterator, Mapping
from typing import Any, Optional, Union

from . import _cetune

PathLike = Union[str, os.PathLike]

# Page file suffixes in cetune's order of preference when several files share an id.
PAGE_SUFFIXES = (".html", ".html.gz", ".htm")
# The gold fields as plain columns, and those carried as JSON text.
FIELDS = ("title", "author", "date", "comments")
JSON_FIELDS = ("posts", "feed")
# The set's own files, carried in the `goldset` column, `meta` and `annotation`.
SET_FILES = {"goldset.yaml", "annotations.yaml", ".cetune-written"}


def features():
    """The dataset's schema (``datasets.Features``)."""
    from datasets import Features, Value

    text = Value("string")
    return Features(
        {
            "id": text,
            "package": text,
            "url": text,
            "lang": text,
            "html": text,
            "text": text,
            **{f: text for f in FIELDS + JSON_FIELDS},
            "goldset": text,
            "cetune": {
                "page_file": text,
                "page_bytes": Value("binary"),
                "text_bytes": Value("binary"),
                "comments_bytes": Value("binary"),
                "meta": text,
                "annotation": text,
            },
        }
    )


def rows(goldset: PathLike) -> Iterator[dict[str, Any]]:
    """The rows of :func:`to_dataset`, one per page, in package and id order."""
    root = pathlib.Path(goldset)
    manifest_json, annotations_json = _cetune.goldset_manifest(root)
    manifest = json.loads(manifest_json) if manifest_json is not None else None
    documents = (manifest or {}).pop("documents", {})
    annotations = json.loads(annotations_json)
    set_keys = None if manifest is None else json.dumps(manifest, ensure_ascii=False, sort_keys=True)
    left_out = [p.name for p in sorted(root.iterdir()) if p.name not in SET_FILES and not _is_package(p)]
    for pkg in sorted(p for p in root.iterdir() if _is_package(p)):
        pages: dict[str, list[tuple[int, pathlib.Path]]] = {}
        used = set()
        files = sorted(f for f in pkg.iterdir() if f.is_file())
        for f in files:
            for rank, suffix in enumerate(PAGE_SUFFIXES):
                if f.name.endswith(suffix):
                    pages.setdefault(f.name[: -len(suffix)], []).append((rank, f))
                    break
        for id_, found in sorted(pages.items()):
            found.sort()
            if len(found) > 1:
                left_out += [f"{pkg.name}/{f.name}" for _, f in found[1:]]
            page = found[0][1]
            gold, sidecar = pkg / f"{id_}.txt", pkg / f"{id_}.comments.txt"
            used.update({page, gold, sidecar})
            key = f"{pkg.name}/{id_}"
            yield _row(pkg.name, id_, page, gold, sidecar, documents.get(key), annotations.get(key), set_keys)
        left_out += [f"{pkg.name}/{f.name}" for f in files if f not in used]
    if left_out:
        shown = ", ".join(left_out[:5]) + (f" and {len(left_out) - 5} more" if len(left_out) > 5 else "")
        warnings.warn(f"{root}: {len(left_out)} files are no part of the gold set and stay out of the dataset: {shown}", stacklevel=3)


def _is_package(p: pathlib.Path) -> bool:
    return p.is_dir() and not p.name.startswith(".")


def _unpack(raw: bytes) -> bytes:
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def _text(raw: bytes) -> tuple[str, Optional[bytes]]:
    """The text of a file as stored, and the stored bytes when that text's UTF-8 is not them."""
    data = _unpack(raw)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _cetune.decode_page(data)
    return text, (None if raw == text.encode("utf-8") else raw)


def _row(package, id_, page, gold, sidecar, entry, annotation, set_keys) -> dict[str, Any]:
    entry = entry or {}
    html, page_bytes = _text(page.read_bytes())
    text, text_bytes = _text(gold.read_bytes()) if gold.is_file() else (None, None)
    comments_bytes = sidecar.read_bytes() if sidecar.is_file() else None
    # The gold fields as cetune reads them (native::doc_fields): an annotation's saved fields
    # replace goldset.yaml's; the sidecar gives the comments when neither does.
    saved = (annotation or {}).get("fields")
    got = {f: (saved or {}).get(f) if saved is not None else entry.get(f) for f in FIELDS}
    if got["comments"] is None and saved is None and comments_bytes is not None:
        got["comments"] = _cetune.decode_page(_unpack(comments_bytes))
    row = {
        "id": id_,
        "package": package,
        "url": entry.get("url"),
        "lang": entry.get("lang"),
        "html": html,
        "text": text,
        **got,
        **{f: json.dumps(entry[f], ensure_ascii=False) if f in entry else None for f in JSON_FIELDS},
        "goldset": set_keys,
    }
    exact = _entry(row, comments_bytes is not None) == entry
    row["cetune"] = {
        "page_file": page.name,
        "page_bytes": page_bytes,
        "text_bytes": text_bytes,
        "comments_bytes": comments_bytes,
        "meta": None if exact else json.dumps(entry, ensure_ascii=False),
        "annotation": None if annotation is None else json.dumps(annotation, ensure_ascii=False),
    }
    return row


def _entry(row: Mapping[str, Any], sidecar: bool) -> dict[str, Any]:
    """The goldset.yaml entry the plain columns of a row give (empty values left out)."""
    out: dict[str, Any] = {}
    for f in ("url", "lang", *FIELDS):
        v = _value(row.get(f))
        if v is not None and not (f == "comments" and sidecar):
            out[f] = v
    for f in JSON_FIELDS:
        v = row.get(f)
        if v not in (None, ""):
            out[f] = json.loads(v) if isinstance(v, str) else v
    return out


def _value(v: Any) -> Optional[str]:
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    return str(v)


def to_dataset(goldset: PathLike):
    """A native gold set as a ``datasets.Dataset``, one row per page (see the module's doc)."""
    from datasets import Dataset

    return Dataset.from_list(list(rows(goldset)), features=features())


def from_dataset(
    ds: Any,
    out: PathLike,
    *,
    columns: Optional[Mapping[str, str]] = None,
    name: Optional[str] = None,
    licence: Optional[str] = None,
    description: Optional[str] = None,
    latin1_gold: Optional[bool] = None,
    package: str = "pages",
    force: bool = False,
) -> pathlib.Path:
    """Writes a dataset as a native gold set in ``out`` and returns its path.

    ``ds`` is a ``datasets.Dataset`` (a ``DatasetDict`` of one split, a Parquet file's path),
    from :func:`to_dataset` or published: ``columns`` maps this module's column names to the
    dataset's (``{"text": "main_content", "package": "page_type", "date": "publish_date"}``);
    only ``html`` and ``text`` are required. Without ``package`` every page goes to one
    package, ``package``; without ``id`` pages are numbered (an ``id`` of the form
    ``package/id`` gives both). ``name``, ``licence``, ``description`` and ``latin1_gold`` set
    or replace the set's own keys. ``out`` must not exist, or be empty, or (with ``force``)
    hold a gold set cetune wrote. The set is written with cetune's own writer: into a new
    folder, put in place when complete.
    """
    ds = _as_dataset(ds)
    names = {c: c for c in ("id", "package", "url", "lang", "html", "text", *FIELDS, *JSON_FIELDS, "goldset", "cetune")}
    for ours, theirs in (columns or {}).items():
        if ours not in names:
            raise ValueError(f"columns: unknown column {ours!r} (expected one of {', '.join(names)})")
        names[ours] = theirs
    have = set(ds.column_names)
    for need in ("html", "text"):
        if names[need] not in have:
            raise ValueError(f"the dataset has no column {names[need]!r} (columns: {', '.join(ds.column_names)}); map one with columns={{{need!r}: ...}}")
    for ours, theirs in (columns or {}).items():
        if theirs not in have:
            raise ValueError(f"columns: the dataset has no column {theirs!r} (for {ours!r}; columns: {', '.join(ds.column_names)})")
    names = {ours: theirs for ours, theirs in names.items() if theirs in have}

    set_keys = _set_keys(ds, names.get("goldset"))
    if set_keys is None:
        set_keys = {"source": f"imported from a dataset (columns: {', '.join(f'{k}={v}' for k, v in names.items())})"}
    given = {"name": name, "licence": licence, "description": description, "latin1_gold": latin1_gold}
    set_keys.update({k: v for k, v in given.items() if v is not None})
    if not set_keys.get("latin1_gold"):
        set_keys.pop("latin1_gold", None)
    if "name" not in set_keys:
        set_keys["name"] = pathlib.Path(out).name

    documents, annotations, files, seen = {}, {}, [], {}
    width = len(str(max(len(ds) - 1, 0)))
    for i, raw in enumerate(ds):
        row = {ours: raw[theirs] for ours, theirs in names.items()}
        pkg, id_ = _where(row, i, width, package, "package" in names)
        key = f"{pkg}/{id_}"
        if key in seen:
            raise ValueError(f"rows {seen[key]} and {i}: both are page {key}")
        seen[key] = i
        native = row.get("cetune") or {}
        page_file = native.get("page_file") or f"{id_}.html"
        if not any(page_file == id_ + s for s in PAGE_SUFFIXES):
            raise ValueError(f"row {i}: page file {page_file!r} is not {id_} with .html, .html.gz or .htm")
        files.append((f"{pkg}/{page_file}", _bytes(native.get("page_bytes"), row["html"], i, "html")))
        if row["text"] is not None or native.get("text_bytes") is not None:
            files.append((f"{pkg}/{id_}.txt", _bytes(native.get("text_bytes"), row["text"], i, "text")))
        sidecar = native.get("comments_bytes")
        if sidecar is not None:
            files.append((f"{pkg}/{id_}.comments.txt", sidecar))
        entry = json.loads(native["meta"]) if native.get("meta") else _entry(row, sidecar is not None)
        if entry:
            documents[key] = entry
        if native.get("annotation"):
            annotations[key] = json.loads(native["annotation"])

    manifest = {**set_keys, "documents": documents}
    try:
        writer = _cetune.GoldsetWriter(os.fspath(out), json.dumps(manifest), force)
    except ValueError as e:
        raise ValueError(f"{e} (a date must be ISO 8601, e.g. 2012-05-11)") if "date" in str(e) else e
    for rel, data in files:
        writer.add(rel, data)
    return pathlib.Path(writer.finish(json.dumps(annotations) if annotations else None))


def _as_dataset(ds: Any):
    from datasets import Dataset, DatasetDict

    if isinstance(ds, (str, os.PathLike)):
        return Dataset.from_parquet(os.fspath(ds))
    if isinstance(ds, DatasetDict):
        if len(ds) != 1:
            raise ValueError(f"a DatasetDict of {len(ds)} splits ({', '.join(ds)}): pass one split, ds['train']")
        return next(iter(ds.values()))
    return ds


def _set_keys(ds, column: Optional[str]) -> Optional[dict[str, Any]]:
    if column is None:
        return None
    values = set(ds.unique(column))
    if len(values) > 1:
        raise ValueError(f"the rows disagree on the set's own keys (column {column!r}): rows of {len(values)} gold sets")
    value = next(iter(values), None)
    return None if value is None else json.loads(value)


def _where(row: Mapping[str, Any], i: int, width: int, default_package: str, has_package: bool) -> tuple[str, str]:
    id_ = row.get("id")
    id_ = f"{i:0{width}d}" if id_ is None else str(id_)
    pkg = row.get("package") if has_package else None
    if pkg is None and "/" in id_ and not has_package:
        pkg, id_ = id_.split("/", 1)
    pkg = default_package if pkg is None else str(pkg)
    for what, v in (("package", pkg), ("id", id_)):
        if not v or v.startswith(".") or any(c in v for c in "/\\\0") or v.endswith(".comments"):
            raise ValueError(f"row {i}: {what} {v!r} cannot be a file name (empty, leading '.', '/', '\\' or a .comments suffix)")
    return pkg, id_


def _bytes(stored: Optional[bytes], value: Any, i: int, column: str) -> bytes:
    if stored is not None:
        return stored
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise ValueError(f"row {i}: {column} is {type(value).__name__}, not text")


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cetune.goldset", description="Gold sets as Parquet datasets, both ways.")
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("export", help="a native gold set as one Parquet file")
    e.add_argument("goldset")
    e.add_argument("parquet")
    i = sub.add_parser("import", help="a Parquet dataset (or one written by export) as a native gold set")
    i.add_argument("parquet")
    i.add_argument("goldset")
    i.add_argument("--column", action="append", default=[], metavar="OURS=THEIRS", help="map a column: text=main_content")
    i.add_argument("--name")
    i.add_argument("--licence")
    i.add_argument("--description")
    i.add_argument("--latin1-gold", action="store_true", default=None)
    i.add_argument("--package", default="pages", help="the package of every page when the dataset has no package column")
    i.add_argument("--force", action="store_true")
    a = p.parse_args(argv)
    try:
        if a.command == "export":
            if os.path.exists(a.parquet):
                raise ValueError(f"{a.parquet}: exists; choose a new file")
            ds = to_dataset(a.goldset)
            ds.to_parquet(a.parquet)
            print(f"wrote {len(ds)} pages of {a.goldset} to {a.parquet}", file=sys.stderr)
        else:
            columns = dict(c.split("=", 1) for c in a.column if "=" in c)
            if len(columns) != len(a.column):
                raise ValueError("--column takes OURS=THEIRS, e.g. --column text=main_content")
            out = from_dataset(a.parquet, a.goldset, columns=columns, name=a.name, licence=a.licence,
                               description=a.description, latin1_gold=a.latin1_gold, package=a.package, force=a.force)
            print(f"wrote the gold set {out}", file=sys.stderr)
    except (ValueError, OSError) as err:
        print(f"cetune: {err}", file=sys.stderr)
        return 2 if isinstance(err, ValueError) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
