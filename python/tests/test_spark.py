"""The README's PySpark snippet (examples/spark_extract.py) as printed, on Spark in local mode:
the package's mapInPandas route and the CLI's RDD.pipe route give, page for page, what
Extractor.extract gives. One session, one small job per route. Needs pyspark (with pandas and
pyarrow), Java and the CLI (target/release/cetune); .ci/python.sh provides them, and the test
fails, never skips, without them."""

import os
import sys

import pytest
from pyspark.sql import SparkSession

import cetune


@pytest.fixture
def spark(repo, pages_folder, monkeypatch):
    # Started in the pages' folder: the driver, the Python workers and the piped `cetune`
    # processes all read `pages.jsonl` and `best.yaml` from there, as the snippet does.
    binary = repo / "target/release/cetune"
    assert binary.is_file(), f"{binary}: build the CLI first (cargo build --release)"
    monkeypatch.setenv("PATH", os.pathsep.join([str(binary.parent), os.environ["PATH"]]))
    monkeypatch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)  # the workers import cetune from this venv
    monkeypatch.syspath_prepend(str(repo / "examples"))
    session = (
        SparkSession.builder.master("local[2]")
        .appName("cetune-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_the_readme_spark_snippet_maps_a_tuned_extractor_through_the_package_and_the_cli(spark, pages_folder, readme_block):
    pages = pages_folder
    ex = cetune.Extractor(params="best.yaml")
    want = {p["id"]: ex.extract(p["html"]) for p in pages}
    assert sum(len(t.split()) for t in want.values()) > 1000  # real extracts, not empty ones
    scope = {"spark": spark}
    exec(readme_block("readme-spark"), scope)
    # mapInPandas through the package: id, url, text.
    rows = scope["texts"].collect()
    assert {r.id: r.text for r in rows} == want
    assert {r.id: r.url for r in rows} == {p["id"]: p["url"] for p in pages}
    # RDD.pipe through the CLI: cetune extract's JSON records, the input's URL kept.
    records = scope["records"].collect()
    assert {r["id"]: r["text"] for r in records} == want
    assert all(r["error"] is None for r in records)
    given = {p["id"]: p["url"] for p in pages if p["url"]}
    assert {r["id"]: r["url"] for r in records if r["id"] in given} == given
