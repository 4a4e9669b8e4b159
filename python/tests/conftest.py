import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def repo() -> pathlib.Path:
    return REPO


def readme_python(marker: str) -> str:
    """The Python block after ``<!-- marker -->`` in the README or a page of the manual
    (``docs/``), exactly as printed."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    found = re.search(rf"<!-- {marker} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"neither README.md nor docs/ has a python block marked <!-- {marker} -->"
    return found.group(1)


@pytest.fixture
def readme_block():
    return readme_python


@pytest.fixture
def pages_folder(tmp_path, monkeypatch):
    """A folder holding what the README's snippets read: ``best.yaml`` (the reference LQF run's)
    and ``pages.jsonl`` (24 pages of the embedded set with ``id``, ``url`` (every other one null)
    and ``html``); the working folder during the test. Returns the pages."""
    import json

    files = sorted((REPO / "goldsets/default").rglob("*.html"))[:24]
    assert len(files) == 24
    pages = [
        {
            "id": f"{f.parent.name}/{f.stem}",
            "url": f"https://example.org/{i}" if i % 2 else None,
            "html": f.read_bytes().decode("utf-8", "replace"),
        }
        for i, f in enumerate(files)
    ]
    (tmp_path / "pages.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pages), encoding="utf-8")
    (tmp_path / "best.yaml").write_bytes((REPO / "results/reference/lqf/best.yaml").read_bytes())
    monkeypatch.chdir(tmp_path)
    return pages
