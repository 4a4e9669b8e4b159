"""Type stubs of cetune's extension module."""

from os import PathLike
from typing import Any, Iterable, Optional, Union

__version__: str

Page = Union[str, bytes]
Value = Union[bool, int, float, str]

class Extractor:
    """A configured extractor: a family or combination by name, or a parameter file.

    Raises ValueError (bad name, parameter or file content) or OSError (unreadable file) with
    cetune's one-line message.
    """

    def __init__(
        self,
        name: Optional[str] = None,
        *,
        params: Optional[Union[str, PathLike[str]]] = None,
        confidence: Optional[Union[str, PathLike[str]]] = None,
        **overrides: Value,
    ) -> None: ...
    @property
    def name(self) -> str:
        """The extractor's registry name."""
    @property
    def params(self) -> dict[str, Value]:
        """Every parameter's value, in the order of the space."""
    def extract(
        self,
        html: Page,
        url: Optional[str] = None,
        format: str = "txt",
        links: bool = False,
        images: bool = False,
    ) -> Any:
        """The main text of one page (``format="txt"``), its kept elements as Markdown
        (``"markdown"``) or a clean HTML fragment (``"html"``), links and images included when
        asked for, or a dict (``"json"``: ``url``, ``text``, ``markdown``, ``words``,
        ``language`` and the metadata fields ``title``, ``author``, ``date``, ``sitename``,
        ``canonical_url``, ``metadata_language``, each ``{"value", "source"}`` or None);
        RuntimeError when the extractor fails on it. ``url`` (else the one the page declares in
        its head) goes to an external extractor's worker."""
    def extract_result(self, html: Page, url: Optional[str] = None) -> Extracted:
        """As ``extract``, with the page's confidence (an estimate of its F1; None without a
        confidence model given as ``Extractor(..., confidence="best.confidence.json")``) and words."""
    def extract_many(
        self,
        pages: Iterable[Page],
        threads: Optional[int] = None,
        urls: Optional[Iterable[Optional[str]]] = None,
        format: str = "txt",
        links: bool = False,
        images: bool = False,
    ) -> list[Any]:
        """The main text (or ``extract``'s other formats) of each page, in order, extracted in
        parallel with the GIL released; ``urls`` (any iterable of str or None, one per page) as
        ``extract``'s ``url``."""

class Extracted:
    """One page's result: ``str()`` of it is the text."""

    @property
    def text(self) -> str: ...
    @property
    def confidence(self) -> Optional[float]:
        """An estimate of the page's F1 in (0, 1); None without a confidence model."""
    @property
    def words(self) -> int: ...

def score(gold: str, text: str, measure: str = "lcs") -> tuple[float, float, float]:
    """(precision, recall, f1) of ``text`` against ``gold`` by ``lcs``, ``bow`` or ``shingle4``."""

def evaluate(
    goldset: Union[str, PathLike[str]], params: str, measure: str = "lcs", **overrides: Value
) -> list[dict[str, Any]]:
    """One dict per document of a native gold set: package, id, precision, recall, f1,
    extract_words, gold_words, error."""

def space(params: str) -> dict[str, Any]:
    """A parameter space (a family name or a parameter file) as plain data."""

def decode_page(page: bytes) -> str:
    """Page bytes decoded as cetune decodes pages, line endings normalised."""

def goldset_manifest(goldset: Union[str, PathLike[str]]) -> tuple[Optional[str], str]:
    """A native gold set's goldset.yaml as written (JSON, None without one) and its
    annotations.yaml records (JSON), for cetune.goldset."""

class GoldsetWriter:
    """cetune's gold-set writer: a new folder put in place by ``finish``."""

    def __init__(self, out: Union[str, PathLike[str]], manifest: str, force: bool = False) -> None: ...
    def add(self, rel: str, data: bytes) -> None:
        """One file of the set at ``package/name``."""
    def finish(self, annotations: Optional[str] = None) -> str:
        """Writes goldset.yaml (and annotations.yaml) and puts the set in place; its path."""
