"""The structured formats of ``Extractor.extract`` and ``extract_many``: Markdown, clean HTML
and a JSON record with the page's metadata, beside the plain text that stays the default."""

import pytest

import cetune

PAGE = (
    "<html lang=en><head><title>Storm news | The Bugle</title>"
    '<meta property="og:site_name" content="The Bugle"></head><body>'
    "<h2>Storm hits the coast</h2><ul><li>Power cut<ul><li>Roads closed</li></ul></li></ul>"
    "<table><tr><th>Town</th><th>Homes</th></tr><tr><td colspan=2>All of them</td></tr></table>"
    '<p>See <a href="/more">more</a>.</p></body></html>'
)

MARKDOWN = (
    "## Storm hits the coast\n\n- Power cut\n  - Roads closed\n\n"
    "| Town | Homes |\n| --- | --- |\n| All of them |  |\n\nSee more.\n"
)


def test_markdown_html_and_json_keep_the_structure_beside_the_text():
    ex = cetune.Extractor("full")
    text = ex.extract(PAGE)
    assert ex.extract(PAGE, format="txt") == text
    md = ex.extract(PAGE, format="markdown")
    assert md == MARKDOWN
    assert ex.extract(PAGE, format="markdown", links=True).endswith("See [more](/more).\n")
    html = ex.extract(PAGE, format="html")
    assert html.startswith("<h2>Storm hits the coast</h2>\n<ul><li>Power cut")
    assert '<td colspan="2">All of them</td>' in html
    record = ex.extract(PAGE, format="json")
    assert record["text"] == text and record["markdown"] == md
    # No <h1>: the <title>, without its site-name part.
    assert record["title"] == {"value": "Storm news", "source": "title"}
    assert record["sitename"] == {"value": "The Bugle", "source": "og:site_name"}
    assert record["author"] is None and record["date"] is None
    assert "id" not in record and "error" not in record
    many = ex.extract_many([PAGE, PAGE.encode()], threads=2, format="markdown")
    assert many == [md, md]
    assert ex.extract_many([PAGE]) == [text]


def test_an_unknown_format_is_a_value_error():
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        cetune.Extractor("full").extract(PAGE, format="xml")
