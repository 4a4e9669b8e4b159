"""The README's Hugging Face `datasets` snippet, run as printed on 24 pages: the new `text`
column is, page for page, what Extractor.extract gives. Needs `datasets`; .ci/python.sh
installs it, and the test fails, never skips, without it."""

import cetune


def test_the_readme_datasets_snippet_runs_as_printed(pages_folder, readme_block, monkeypatch, capsys):
    monkeypatch.setenv("HF_HOME", "hf")  # the dataset cache stays in the test's folder
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    scope = {}
    exec(readme_block("readme-datasets"), scope)
    ds = scope["ds"]
    assert ds.column_names == ["id", "url", "text"]
    ex = cetune.Extractor(params="best.yaml")
    assert ds["id"] == [p["id"] for p in pages_folder]
    assert ds["text"] == [ex.extract(p["html"]) for p in pages_folder]
    assert sum(len(t.split()) for t in ds["text"]) > 1000
    assert "num_rows: 24" in capsys.readouterr().out
