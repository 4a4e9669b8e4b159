"""A tuned extractor mapped over pages with PySpark, two ways:

- through the Python package: ``mapInPandas`` runs ``cetune.Extractor.extract_many`` on each
  partition's batches inside Spark's Python workers (no process per page, the GIL released);
- through the CLI: ``RDD.pipe`` streams each partition as JSON lines into one ``cetune extract``
  process, which answers with JSON lines (``id``, ``url``, ``text``, ``words``, ``language``,
  ``error``), for a cluster with the binary but not the package.

Pages are records with ``id``, ``url`` (or null) and ``html`` (the JSON lines ``cetune extract``
reads). Run it on a JSONL file of pages in local mode (or submit it to a cluster)::

    spark-submit examples/spark_extract.py best.yaml pages.jsonl out/

``python/tests/test_spark.py`` runs both routes on local[2] and checks them against
``Extractor.extract``.
"""

import json
import shlex
import sys

import cetune

SCHEMA = "id string, url string, text string"


def extract_df(df, params, threads=1):
    """A DataFrame of pages (``id``, ``url``, ``html``) as one of texts (``id``, ``url``,
    ``text``), through the package. ``threads`` per Spark task: Spark already runs a task per
    core, so one thread each keeps the cores from being oversubscribed."""

    def texts(batches):
        ex = cetune.Extractor(params=params)  # one per task: built from the file, cheap
        for b in batches:
            urls = [u if isinstance(u, str) else None for u in b["url"]]
            text = ex.extract_many(list(b["html"]), threads=threads, urls=urls)
            yield b[["id", "url"]].assign(text=text)

    return df.mapInPandas(texts, schema=SCHEMA)


def extract_rdd_cli(rdd, params, cetune_bin="cetune", env=None):
    """An RDD of page dicts (``id``, ``url``, ``html``) as one of ``cetune extract``'s JSON
    records, through the CLI: one process per partition, pages in input order. ``RDD.pipe``
    starts the command with ``env`` as its whole environment (PySpark's default is an empty one,
    whose search path is the system's default), so give ``cetune_bin`` as the binary's path on
    the workers, and ``env`` when an external extractor's worker needs one."""
    command = f"{shlex.quote(cetune_bin)} extract --params {shlex.quote(str(params))} --input-format jsonl --format jsonl -q -"
    return rdd.map(json.dumps).pipe(command, env=env).map(json.loads)


def main(argv):
    params, pages, out = argv
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("cetune-extract").getOrCreate()
    df = spark.read.schema("id string, url string, html string").json(pages)
    extract_df(df, params).write.mode("error").json(out)  # never over an existing folder
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
