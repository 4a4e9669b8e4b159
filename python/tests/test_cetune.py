"""The package's API: extraction, parallel extraction, scores, per-document evaluation, errors."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import cetune

PAGE = (
    "<html><body><ul><li><a href=/a>Home</a></li><li><a href=/b>World</a></li></ul>"
    "<p>The city council approved the new budget on Monday after a long and heated debate.</p>"
    "<footer><a href=/i>Imprint</a></footer></body></html>"
)


def test_extract_keeps_the_text_and_drops_the_links():
    ex = cetune.Extractor("lqf")
    assert ex.extract(PAGE).strip() == "The city council approved the new budget on Monday after a long and heated debate."
    # bytes are decoded as cetune decodes pages
    assert ex.extract(PAGE.encode("utf-8")) == ex.extract(PAGE)
    assert "Home" in cetune.Extractor("full").extract(PAGE)


def test_extract_many_equals_extract_in_order_on_any_number_of_threads(repo):
    pages = [p.read_bytes() for p in sorted((repo / "goldsets/default").rglob("*.html"))][:30]
    ex = cetune.Extractor("readability")
    one = [ex.extract(p) for p in pages]
    assert ex.extract_many(pages) == one
    assert ex.extract_many(iter(pages), threads=2) == one
    assert ex.extract_many([]) == []


def test_overrides_and_parameter_files(repo):
    ex = cetune.Extractor("lqf", t=0.3)
    assert ex.params["t"] == pytest.approx(0.3)
    assert ex.name == "lqf"
    f = cetune.Extractor(params=repo / "params/lqf.yaml", t=0.4)
    assert f.params["t"] == pytest.approx(0.4)
    c = cetune.Extractor("combine", **{"lqf.on": False, "v": 1})
    assert c.params["lqf.on"] is False


def test_errors_carry_cetunes_one_line_message(tmp_path):
    with pytest.raises(ValueError, match="unknown extractor 'nope'"):
        cetune.Extractor("nope")
    with pytest.raises(ValueError, match=r"parameter 't'.*must lie in"):
        cetune.Extractor("lqf", t=7)
    with pytest.raises(ValueError, match="unknown parameter|has no parameter"):
        cetune.Extractor("lqf", zz=1)
    bad = tmp_path / "bad.yaml"
    bad.write_text("extractor: lqf\ncommand: x\n")
    with pytest.raises(ValueError, match=r"bad.yaml:2: 'command' belongs to an external extractor"):
        cetune.Extractor(params=bad)
    with pytest.raises(OSError):
        cetune.Extractor(params=tmp_path / "missing.yaml")
    with pytest.raises(ValueError, match="measure"):
        cetune.score("a", "a", measure="nope")


def test_score_is_the_lcs_f1():
    # gold a b c d, text a x c d: the LCS is a c d, 3 of 4 tokens each way
    p, r, f = cetune.score("a b c d", "a x c d")
    assert (p, r, f) == pytest.approx((0.75, 0.75, 0.75))
    # Gottron's worked example: LCS 4 of an 5-token extract and a 6-token gold: F1 = 8/11
    p, r, f = cetune.score("one two three four five six", "one two nine three four")
    assert f == pytest.approx(8 / 11)
    assert cetune.score("a b", "b a", measure="bow")[2] == pytest.approx(1.0)


def test_evaluate_gives_one_row_per_document_that_extract_and_score_agree_with(repo):
    gs = repo / "goldsets/default"
    rows = cetune.evaluate(gs, "lqf")
    assert len(rows) == len(list(gs.rglob("*.html")))
    assert set(rows[0]) == {"package", "id", "precision", "recall", "f1", "extract_words", "gold_words", "error"}
    ex = cetune.Extractor("lqf")
    for r in rows[:10]:
        page = next((gs / r["package"]).glob(r["id"] + ".html*"))
        gold = (gs / r["package"] / (r["id"] + ".txt")).read_text(encoding="utf-8")
        p, rec, f = cetune.score(gold, ex.extract(page.read_bytes()))
        assert f == pytest.approx(r["f1"], abs=1e-9), r
    tuned = cetune.evaluate(gs, "lqf", t=0.9)
    assert [r["f1"] for r in tuned] != [r["f1"] for r in rows]


WORKER = textwrap.dedent(
    """
    def extract(html, min_words=1, url=None):
        if "BOOM" in html:
            raise RuntimeError("no article")
        print("noise that must not reach stdout")
        words = html.replace("<p>", " ").replace("</p>", " ").split()
        return " ".join(words) if len(words) >= min_words else ""
    """
)


def _worker_env(tmp_path):
    (tmp_path / "myworker.py").write_text(WORKER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    return env


def test_the_worker_speaks_the_protocol(tmp_path):
    env = _worker_env(tmp_path)
    reqs = [
        {"id": 1, "html": "<p>a b c</p>", "url": None, "params": {"min_words": 2}},
        {"id": 2, "html": "<p>BOOM</p>", "url": None, "params": {}},
        {"id": 3, "html": "<p>a</p>", "url": "http://x", "params": {"min_words": 2}},
    ]
    out = subprocess.run(
        [sys.executable, "-m", "cetune.worker", "myworker:extract"],
        input="".join(json.dumps(r) + "\n" for r in reqs),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[0]["name"] == "myworker:extract"
    assert lines[1:] == [
        {"id": 1, "text": "a b c"},
        {"id": 2, "error": "RuntimeError: no article"},
        {"id": 3, "text": ""},
    ]
    assert "noise that must not reach stdout" in out.stderr


def test_an_external_worker_runs_as_an_extractor_from_python(tmp_path):
    env = _worker_env(tmp_path)
    os.environ["PYTHONPATH"] = env["PYTHONPATH"]
    params = tmp_path / "w.yaml"
    params.write_text(
        f"extractor: external\ncommand: {sys.executable} -m cetune.worker myworker:extract\n"
        "parameters:\n  - {name: min_words, type: int, min: 1, max: 9, default: 1}\n"
    )
    ex = cetune.Extractor(params=params)
    assert ex.extract("<p>quick brown fox</p>").strip() == "quick brown fox"
    assert cetune.Extractor(params=params, min_words=5).extract("<p>quick brown fox</p>") == ""
    assert ex.extract_many(["<p>one two</p>", "<p>three</p>"], threads=2) == ["one two", "three"]
    with pytest.raises(RuntimeError, match="page 1: myworker:extract .*: the worker failed on this page: RuntimeError: no article"):
        ex.extract_many(["<p>fine</p>", "<p>BOOM</p>"])


def test_the_page_url_reaches_the_worker(tmp_path):
    (tmp_path / "urlworker.py").write_text(
        "def pick(html, url=None):\n    return url.rstrip('/').rsplit('/', 1)[-1] if url else 'none'\n"
    )
    os.environ["PYTHONPATH"] = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    params = tmp_path / "u.yaml"
    params.write_text(f"extractor: external\ncommand: {sys.executable} -m cetune.worker urlworker:pick\n")
    ex = cetune.Extractor(params=params)
    page = "<html><head>{}</head><body><p>alpha</p><p>beta</p><p>none</p></body></html>"
    plain, declared = page.format(""), page.format("<link rel=canonical href='https://x.org/beta'>")
    assert ex.extract(plain, url="https://x.org/alpha") == "alpha"
    assert ex.extract(plain) == "none"
    assert ex.extract(declared) == "beta"  # the URL the page declares in its head
    assert ex.extract(declared, url="https://x.org/alpha") == "alpha"  # the given one first
    assert ex.extract_many([plain, plain, declared], urls=["https://x.org/alpha", None, None]) == ["alpha", "none", "beta"]
    assert ex.extract_many(iter([plain]), urls=iter(["https://x.org/beta"])) == ["beta"]  # any iterables
    with pytest.raises(ValueError, match="urls: 1 given for 2 pages"):
        ex.extract_many([plain, plain], urls=[None])
    with pytest.raises(ValueError, match="urls: item 1 is neither a str nor None"):
        ex.extract_many([plain, plain], urls=[None, float("nan")])


def test_extractor_with_no_name_is_the_shipped_general_model(repo):
    """No name and no file: the general model (blocktrees with the compiled-in model), the same
    extractor as ``Extractor("general")`` and as ``cetune extract`` with no flags."""
    pages = [p.read_bytes() for p in sorted((repo / "goldsets/default").rglob("*.html"))][:12]
    default = cetune.Extractor()
    assert default.name == "blocktrees"
    assert default.params == cetune.Extractor("general").params
    texts = default.extract_many(pages)
    assert texts == cetune.Extractor("general").extract_many(pages)
    # the model, not the untrained prior: it drops words that keep-everything keeps
    full = cetune.Extractor("full").extract_many(pages)
    assert sum(len(t.split()) for t in texts) < sum(len(t.split()) for t in full)
    assert any(t.strip() for t in texts)


def test_extract_result_gives_the_text_and_the_confidence_the_cli_gives(repo, tmp_path):
    cli = str(repo / "target/release/cetune")
    model = tmp_path / "lqf.confidence.json"
    fit = [cli, "confidence", "-e", "lqf", "--goldset", str(repo / "goldsets/default"), "--out", str(model), "-q"]
    subprocess.run(fit, check=True, capture_output=True)
    path = repo / "goldsets/default/news/01.html"
    page = path.read_bytes()
    ex = cetune.Extractor("lqf", confidence=model)
    r = ex.extract_result(page)
    assert isinstance(r, cetune.Extracted)
    assert r.text == ex.extract(page) == str(r)
    assert 0.0 < r.confidence < 1.0
    # The same page through the CLI: the same confidence and words.
    line = subprocess.run(
        [cli, "extract", "-e", "lqf", "--confidence", str(model), "--format", "jsonl", str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    v = json.loads(line)
    assert abs(v["confidence"] - r.confidence) < 1e-4 and v["words"] == r.words
    # Without a model: no confidence, today's calls unchanged.
    plain = cetune.Extractor("lqf")
    assert plain.extract_result(page).confidence is None and plain.extract(page) == r.text
    # A model of another setting, a damaged one: cetune's one-line message naming the file.
    with pytest.raises(ValueError, match="fitted for"):
        cetune.Extractor("full", confidence=model)
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.json"):
        cetune.Extractor("lqf", confidence=bad)
