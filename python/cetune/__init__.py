"""cetune for Python: tuned web content extraction.

>>> import cetune
>>> ex = cetune.Extractor("lqf", t=0.3)            # a family with parameter overrides
>>> ex = cetune.Extractor(params="best.yaml")       # a tuned setting (a run's best.yaml)
>>> ex.extract("<html>...</html>")                  # the main text of one page
>>> ex = cetune.Extractor(params="best.yaml", confidence="best.confidence.json")
>>> r = ex.extract_result(html); r.text, r.confidence  # with an estimate of the page's F1
>>> ex.extract_many(pages, threads=4)               # many pages in parallel, GIL released
>>> cetune.score(gold, text, measure="lcs")         # (precision, recall, f1)
>>> cetune.evaluate("goldsets/default", "lqf")      # one dict per document

External extractors (any ``f(html, **params) -> str``) are served to the CLI by
``python -m cetune.worker module:function``; ``cetune.optuna`` runs cetune's extractors under
Optuna's samplers and storages; ``cetune.datatrove.Cetune`` is a datatrove extractor step (the
``datatrove`` extra); ``cetune.goldset`` turns gold sets into Hugging Face datasets and back.
"""

try:
    from ._cetune import Extracted, Extractor, __version__, evaluate, score, space
except ImportError as _missing:  # the worker side (cetune.worker) is pure Python and runs without it
    _why = _missing

    def __getattr__(name: str):
        if name in __all__:
            raise ImportError(f"cetune's extension module is not built ({_why}); pip install ./python") from _why
        raise AttributeError(name)


__all__ = ["Extracted", "Extractor", "evaluate", "score", "space", "__version__"]
