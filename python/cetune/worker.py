"""The worker side of cetune's external extractors: ``python -m cetune.worker module:function``.

Turns any ``function(html, **params) -> str`` into an extractor family that cetune can tune::

    extractor: external
    command: python3 -m cetune.worker mymodule:extract
    parameters:
      - {name: threshold, type: float, min: 0, max: 1, default: 0.5}

The protocol is JSON lines on stdin/stdout: the first line is the handshake ``{"name",
"version"}``; then each request ``{"id", "html", "url", "params"}`` gets one reply ``{"id",
"text"}`` or ``{"id", "error"}``. The function also receives ``url=`` when it declares a
``url`` parameter. An exception becomes an ``error`` reply (the page is an error row, the
worker goes on); ``None`` is the empty text. Nothing but replies may go to stdout: what the
function prints is sent to stderr.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import sys
from typing import Callable, TextIO


def load(spec: str) -> Callable[..., object]:
    """The function named by ``module:function`` (``module.sub:function`` works too)."""
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"expected module:function, got {spec!r}")
    obj: object = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{spec} is not callable")
    return obj  # type: ignore[return-value]


def version_of(module: str) -> str:
    """The version of the distribution (or module) that provides ``module``."""
    top = module.split(".")[0]
    mod = sys.modules.get(top)
    v = getattr(mod, "__version__", None)
    if v:
        return str(v)
    try:
        from importlib.metadata import version

        return version(top)
    except Exception:
        return "unknown"


def serve(function: Callable[..., object], name: str, version: str, stdin: TextIO, stdout: TextIO) -> None:
    """Answers requests from ``stdin`` on ``stdout`` until ``stdin`` closes."""
    try:
        wants_url = "url" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        wants_url = False
    stdout.write(json.dumps({"name": name, "version": version}) + "\n")
    stdout.flush()
    for line in stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            rid = req["id"]
        except Exception as e:  # a request we cannot read: nothing to answer to
            print(f"cetune.worker: unreadable request: {e}", file=sys.stderr)
            continue
        try:
            params = dict(req.get("params") or {})
            if wants_url:
                params["url"] = req.get("url")
            with contextlib.redirect_stdout(sys.stderr):
                text = function(req["html"], **params)
            reply = {"id": rid, "text": "" if text is None else str(text)}
        except Exception as e:
            reply = {"id": rid, "error": f"{type(e).__name__}: {e}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m cetune.worker module:function``."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m cetune.worker module:function", file=sys.stderr)
        return 2
    try:
        function = load(argv[0])
    except Exception as e:
        print(f"cetune.worker: {argv[0]}: {e}", file=sys.stderr)
        return 2
    serve(function, argv[0], version_of(argv[0].partition(":")[0]), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
