"""cetune as a step of a datatrove pipeline: ``Cetune`` is an extractor like datatrove's own
``Trafilatura``, so a pipeline swaps one step to run a tuned setting.

>>> from datatrove.pipeline.readers import WarcReader
>>> from datatrove.pipeline.writers import JsonlWriter
>>> from cetune.datatrove import Cetune
>>> pipeline = [WarcReader("crawl/"), Cetune(params="best.yaml"), JsonlWriter("out/")]

It extracts in batches (``batch_size`` pages, one ``extract_many`` call on cetune's threads with
the GIL released) inside datatrove's extractor sandbox, so datatrove's per-page ``timeout`` and
its accounting (``extracted``, ``timeout``, ``broken_process``, ``clean_error``, ``forwarded``,
``dropped``) hold as for its own extractors: a batch that runs over its pages' summed timeouts,
fails, or loses its process is run again page by page, each page with ``timeout``, and only the
pages that then time out, fail or kill the process are counted so and dropped. Whatever the
package's result carries besides the text (a confidence, the page's title, author, date...) is
written into ``doc.metadata`` as ``cetune_<field>`` for later filter steps. Installed by
``pip install './python[datatrove]'``; docs/pipelines.md is the worked example.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Optional, Union

from datatrove.data import Document, DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

import cetune

Fields = dict[str, Any]


def results(extractor: cetune.Extractor, pages: list, urls: list, threads: Optional[int]) -> list:
    """The package's results for a batch of pages, one per page: today ``extract_many``'s texts.
    When the package returns a result type (text with a confidence and the page's metadata),
    this call is the one line to change; :func:`fields` forwards whatever it carries."""
    return extractor.extract_many(pages, threads=threads, urls=urls)


def fields(result: Any) -> tuple[str, Fields]:
    """A result's text and its other fields: a ``str`` is the text alone; a mapping gives its
    items, an object its public attributes (properties included), a ``metadata`` mapping among
    them merged in. Fields that are ``None`` are left out; values become plain data (numbers,
    strings, lists, dicts) that every datatrove writer stores."""
    if isinstance(result, str):
        return result, {}
    items = dict(result) if isinstance(result, Mapping) else _attributes(result)
    text = items.pop("text")
    nested = items.pop("metadata", None)
    if isinstance(nested, Mapping):
        items = {**nested, **items}
    return text, {k: _plain(v) for k, v in items.items() if v is not None}


def _attributes(obj: Any) -> Fields:
    names = (n for n in dir(obj) if not n.startswith("_"))
    return {n: v for n in names if not callable(v := getattr(obj, n))}


def _plain(v: Any) -> Any:
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    attrs = _attributes(v)
    return {k: _plain(x) for k, x in attrs.items()} if attrs else str(v)


class Cetune(BaseExtractor):
    """A cetune setting as a datatrove extractor.

    Args:
        extractor: a family or combination by name (``"readability"``); with neither it nor
            ``params``, the package's default extractor (``cetune.Extractor()``).
        params: a parameter file: a run's ``best.yaml``, a ``params/*.yaml`` description.
        timeout: seconds per page, as datatrove's extractors take it.
        batch_size: pages per ``extract_many`` call.
        threads: cetune's threads per batch (default: one per core). With as many datatrove
            tasks as cores, ``threads=1`` avoids running more threads than cores.
        metadata: write the result's fields into ``doc.metadata``: ``True`` all of them,
            ``False`` none, or an iterable of field names.
        prefix: the metadata key of field ``f`` is ``prefix + f``.
        **overrides: parameter overrides, as ``cetune.Extractor`` takes them (``t=0.3``).
    """

    name = "🎯 cetune"

    def __init__(
        self,
        extractor: Optional[str] = None,
        *,
        params: Union[str, os.PathLike, None] = None,
        timeout: float = 1,
        batch_size: int = 64,
        threads: Optional[int] = None,
        metadata: Union[bool, Iterable[str]] = True,
        prefix: str = "cetune_",
        **overrides: Any,
    ):
        super().__init__(timeout)
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.extractor_name = extractor
        # Absolute, so that the tasks find it whatever their working folder.
        self.params = None if params is None else os.path.abspath(os.fspath(params))
        self.overrides = overrides
        self.batch_size = batch_size
        self.threads = threads
        self.metadata = metadata if isinstance(metadata, bool) else frozenset(metadata)
        self.prefix = prefix
        # Built now so that a bad name or file fails when the pipeline is made, not in its tasks.
        self._extractor: Optional[cetune.Extractor] = self._build()

    def _build(self) -> cetune.Extractor:
        if self.params is None and self.extractor_name is None:
            return cetune.Extractor(**self.overrides)
        return cetune.Extractor(self.extractor_name, params=self.params, **self.overrides)

    @property
    def extractor(self) -> cetune.Extractor:
        """The configured ``cetune.Extractor`` (built again in each process)."""
        if self._extractor is None:
            self._extractor = self._build()
        return self._extractor

    def __getstate__(self) -> dict:
        # Executors pickle the pipeline for their tasks; the extension's object stays behind.
        state = self.__dict__.copy()
        state["_extractor"] = None
        return state

    def extract(self, text: str) -> str:
        """The main text of one page (datatrove's extractor interface)."""
        return fields(results(self.extractor, [text], [None], self.threads)[0])[0]

    def extract_batch(self, pages: list, urls: list) -> Union[list[tuple[str, Fields]], Exception]:
        """Each page's text and fields; runs inside the sandbox's process. A failure is returned,
        not raised: the sandbox re-raises it in the task and keeps its process."""
        try:
            return [fields(r) for r in results(self.extractor, pages, urls, self.threads)]
        except Exception as e:  # noqa: BLE001 - every failure is the batch's, counted by the task
            return e

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        with ExtractorSandbox(timeout=self.timeout, warmup_text=([], [])) as sandbox:
            docs = iter(data or ())
            while batch := list(itertools.islice(docs, self.batch_size)):
                yield from self._run_batch(sandbox, batch)

    def _run_batch(self, sandbox: ExtractorSandbox, batch: list[Document]) -> Iterator[Document]:
        for _ in batch:
            self.stat_update(StatHints.total)
        pages = [d.text for d in batch]
        urls = [d.metadata.get("url") for d in batch]
        out: list[Optional[tuple[str, Fields]]]
        with self.track_time(unit="batch"):
            try:
                self._ready(sandbox)
                sandbox.timeout = self.timeout * len(batch)
                out = list(sandbox.process_document((pages, urls), self.extract_batch))
            except Exception as e:  # noqa: BLE001 - TimeoutError, EOFError or the batch's failure
                logger.info(f"cetune: a batch of {len(batch)} pages failed ({type(e).__name__}): page by page")
                self.stat_update("batches_retried", unit="batch")
                out = [self._one(sandbox, p, u) for p, u in zip(pages, urls)]
        for doc, got in zip(batch, out):
            if got is None:
                continue
            self.stat_update("extracted")
            doc.text, found = got
            self._annotate(doc, found)
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)

    def _ready(self, sandbox: ExtractorSandbox) -> None:
        """The sandbox's process running, started again if a page killed it, and its extractor
        built (a fitted model read) within a whole batch's budget, so that the pages' own
        timeouts are theirs alone: an empty batch."""
        sandbox.timeout = self.timeout * self.batch_size
        sandbox.process_document(([], []), self.extract_batch)

    def _one(self, sandbox: ExtractorSandbox, page: Any, url: Optional[str]) -> Optional[tuple[str, Fields]]:
        """One page in the sandbox with datatrove's timeout and its accounting; None when dropped."""
        try:
            self._ready(sandbox)
            sandbox.timeout = self.timeout
            return sandbox.process_document(([page], [url]), self.extract_batch)[0]
        except TimeoutError:
            self.stat_update("timeout")
            logger.warning("⏰ Timeout while cleaning record text. Skipping record.")
        except EOFError:
            self.stat_update("broken_process")
            logger.warning("Process died unexpectedly, will create new process for next document")
        except Exception as e:  # noqa: BLE001 - datatrove's extractors count every other failure
            self.stat_update("clean_error")
            if not self._warned_error:
                logger.warning(f'❌ Error "{e}" while cleaning record text. Skipping record. This message will only appear once.')
                self._warned_error = True
        return None

    def _annotate(self, doc: Document, found: Fields) -> None:
        if self.metadata is False:
            return
        for name, value in found.items():
            if self.metadata is True or name in self.metadata:
                doc.metadata[self.prefix + name] = value
