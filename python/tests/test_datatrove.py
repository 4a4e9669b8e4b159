"""cetune.datatrove.Cetune, the datatrove extractor step: the same text as the package's
extract_many, datatrove's accounting when a page times out, fails or kills the process, the
result's fields in doc.metadata, and a step that pickles for the executors. Needs datatrove
(the package's `datatrove` extra); .ci/python.sh installs it, and the tests fail, never skip,
without it."""

import os
import pickle
import re
import time

import pytest
from datatrove.data import Document
from datatrove.pipeline.extractors.base import BaseExtractor

import cetune
import cetune.datatrove as cd
from cetune.datatrove import Cetune


@pytest.fixture
def docs(repo):
    files = sorted((repo / "goldsets/default").rglob("*.html"))
    return lambda: [
        Document(text=f.read_text(encoding="utf-8"), id=f"{f.parent.name}/{f.stem}", metadata={"url": f"https://example.org/{i}"})
        for i, f in enumerate(files)
    ]


def best(repo):
    return repo / "results/reference/lqf/best.yaml"


def counts(step):
    """The step's datatrove stats: each counter's total."""
    return {k: v if isinstance(v, (int, float)) else v["total"] for k, v in step.stats.to_dict()["stats"].items()}


def test_the_step_is_a_datatrove_extractor_giving_what_extract_many_gives(repo, docs):
    step = Cetune(params=best(repo), batch_size=7, threads=2)  # 48 pages: 6 full batches and one of 6
    assert isinstance(step, BaseExtractor)
    given = docs()
    want = cetune.Extractor(params=best(repo)).extract_many([d.text for d in given], urls=[d.metadata["url"] for d in given])
    out = list(step.run(iter(docs())))
    assert [d.id for d in out] == [d.id for d, t in zip(given, want) if t]
    assert [d.text for d in out] == [t for t in want if t]
    assert sum(len(t.split()) for t in want) > 5000  # real extracts, not empty ones
    stats = counts(step)
    assert stats["total"] == stats["extracted"] == 48
    assert stats["forwarded"] == len(out)
    # datatrove's own interface, one page at a time
    assert step.extract(given[0].text) == want[0]


def test_an_empty_extract_is_dropped_as_datatrove_drops_it(repo):
    step = Cetune(params=best(repo))
    out = list(step.run(iter([Document(text="<html><body></body></html>", id="empty")])))
    assert out == []
    assert counts(step)["dropped"] == 1


def fake_results(extractor, pages, urls, threads):
    """Stands in for the package: a page saying HANG hangs, FAIL raises, DIE kills the
    process; any other page is its own text."""
    for p in pages:
        if "HANG" in p:
            time.sleep(60)
        if "DIE" in p:
            os._exit(3)
        if "FAIL" in p:
            raise RuntimeError("page 0: the extractor failed on this page")
    return [p.upper() for p in pages]


def test_a_batch_that_hangs_fails_or_dies_is_run_page_by_page_with_datatroves_accounting(repo, monkeypatch):
    # The sandbox's process is forked from this one, so it sees the stand-in.
    monkeypatch.setattr(cd, "results", fake_results)
    step = Cetune(params=best(repo), timeout=0.5, batch_size=10)
    pages = ["one", "HANG", "two", "FAIL", "three", "DIE", "four"]
    started = time.monotonic()
    out = list(step.run(iter([Document(text=p, id=str(i)) for i, p in enumerate(pages)])))
    assert [d.text for d in out] == ["ONE", "TWO", "THREE", "FOUR"]
    assert [d.id for d in out] == ["0", "2", "4", "6"]
    stats = counts(step)
    assert {k: stats[k] for k in ("total", "extracted", "timeout", "clean_error", "broken_process", "forwarded")} == {
        "total": 7,
        "extracted": 4,
        "timeout": 1,
        "clean_error": 1,
        "broken_process": 1,
        "forwarded": 4,
    }
    assert stats["batches_retried"] == 1
    # The batch's budget (7 x 0.5 s), then the hanging page's own 0.5 s: not its 60 s.
    assert time.monotonic() - started < 30


STARTED = []


def slow_start(extractor, pages, urls, threads):
    """fake_results whose process takes longer to start (a large model to read) than a page's
    timeout: its first call (the sandbox's warm-up, with no pages) is slow. A process forked
    from this one starts with STARTED empty."""
    if not STARTED:
        time.sleep(0.8)
        STARTED.append(True)
    return fake_results(extractor, pages, urls, threads)


def test_a_process_started_again_after_a_page_killed_it_does_not_cost_the_next_page_its_timeout(repo, monkeypatch):
    monkeypatch.setattr(cd, "results", slow_start)
    step = Cetune(params=best(repo), timeout=0.5, batch_size=10)
    out = list(step.run(iter([Document(text=p, id=p) for p in ["one", "DIE", "two"]])))
    assert [d.text for d in out] == ["ONE", "TWO"]
    stats = counts(step)
    assert (stats["broken_process"], stats.get("timeout", 0), stats["extracted"]) == (1, 0, 2)
    # A batch smaller than its process's start (one page here) is not counted against it either.
    one = Cetune(params=best(repo), timeout=0.5, batch_size=10)
    assert [d.text for d in one.run(iter([Document(text="one", id="1")]))] == ["ONE"]
    assert "batches_retried" not in counts(one)


def test_a_batch_without_trouble_is_one_call(repo, monkeypatch):
    calls = []

    def counting(extractor, pages, urls, threads):
        calls.append(len(pages))
        return [p.upper() for p in pages]

    monkeypatch.setattr(cd, "results", counting)
    step = Cetune(params=best(repo), batch_size=4)
    out = list(step.run(iter([Document(text=f"page {i}", id=str(i)) for i in range(10)])))
    assert len(out) == 10
    # Forked processes keep their own list: count the batches from the stats instead.
    assert "batches_retried" not in counts(step)
    assert step.stats.time_stats.n == 3  # 4 + 4 + 2 pages: three batches


class Result:
    """What the package's result type may carry (a confidence, issue 40; metadata, issue 42)."""

    def __init__(self, text, confidence, title):
        self.text, self.confidence, self.language = text, confidence, None
        self.metadata = {"title": title, "date": {"value": "2024-05-01", "source": "json-ld"}}

    def words(self):
        return len(self.text.split())


def test_whatever_the_result_carries_goes_into_the_metadata(repo, monkeypatch):
    monkeypatch.setattr(cd, "results", lambda ex, pages, urls, threads: [Result(p, 0.25 * i, f"T{i}") for i, p in enumerate(pages)])
    page = lambda i: Document(text=f"text {i}", id=str(i), metadata={"url": "u"})
    out = list(Cetune(params=best(repo)).run(iter([page(i) for i in range(3)])))
    assert out[2].text == "text 2"
    assert out[2].metadata == {
        "url": "u",
        "cetune_confidence": 0.5,
        "cetune_title": "T2",
        "cetune_date": {"value": "2024-05-01", "source": "json-ld"},
    }
    # A later filter step reads them.
    assert [d.id for d in out if d.metadata["cetune_confidence"] >= 0.25] == ["1", "2"]
    only = list(Cetune(params=best(repo), metadata=["confidence"], prefix="x_").run(iter([page(0), page(1)])))
    assert only[1].metadata == {"url": "u", "x_confidence": 0.25}
    none = list(Cetune(params=best(repo), metadata=False).run(iter([page(0)])))
    assert none[0].metadata == {"url": "u"}


def test_fields_reads_text_mappings_and_objects():
    assert cd.fields("just text") == ("just text", {})
    assert cd.fields({"text": "t", "confidence": 0.9, "author": None}) == ("t", {"confidence": 0.9})
    text, found = cd.fields(Result("t", 0.1, "A"))
    assert text == "t" and found["title"] == "A" and "words" not in found and "language" not in found


def test_the_step_pickles_for_the_executors_without_its_extension_object(repo, docs):
    step = Cetune(params=best(repo), t=0.4)
    back = pickle.loads(pickle.dumps(step))
    assert back._extractor is None
    page = docs()[0].text
    assert back.extract(page) == cetune.Extractor(params=best(repo), t=0.4).extract(page)
    assert back.extractor.params["t"] == 0.4


def test_a_relative_params_file_is_found_from_any_folder(repo, tmp_path, monkeypatch):
    (tmp_path / "best.yaml").write_bytes(best(repo).read_bytes())
    monkeypatch.chdir(tmp_path)
    step = Cetune(params="best.yaml")
    monkeypatch.chdir(repo)
    assert pickle.loads(pickle.dumps(step)).extractor.name == "lqf"


def test_bad_settings_fail_when_the_pipeline_is_made(repo, tmp_path):
    with pytest.raises(FileNotFoundError, match="parameter file not found"):
        Cetune(params=tmp_path / "missing.yaml")
    with pytest.raises(ValueError, match="nosuchfamily"):
        Cetune("nosuchfamily")
    with pytest.raises(ValueError, match="batch_size"):
        Cetune(params=best(repo), batch_size=0)


def test_without_a_name_or_params_the_step_is_the_packages_default():
    try:
        want = cetune.Extractor()
    except ValueError as e:  # no default extractor in this build: the step says what the package says
        with pytest.raises(ValueError, match=re.escape(str(e))):
            Cetune()
    else:
        got = Cetune().extractor
        assert (got.name, got.params) == (want.name, want.params)
