"""cetune as a stage of Spark (issue 15, part 3): an RDD of WARC paths is piped through
`cetune extract --files-from -`, one cetune process per partition, and the JSONL lines come back
as the RDD's elements. Run once locally (PySpark in local mode); not part of CI.

usage: python spark_extract.py CETUNE BEST_YAML OUT_DIR CORES WARC...
prints: pages=N seconds=S pages_per_s=R
"""

import json
import shlex
import sys
import time

from pyspark.sql import SparkSession


def main():
    cetune, best, out, cores, warcs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    spark = SparkSession.builder.master(f"local[{cores}]").appName("cetune-extract").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    command = shlex.join([cetune, "extract", "--params", best, "--format", "jsonl", "--threads", "1", "-q", "--files-from", "-"])
    t = time.perf_counter()
    # One partition per WARC file: each cetune process reads its paths from standard input.
    lines = sc.parallelize(warcs, len(warcs)).pipe(command)
    lines.saveAsTextFile(out)
    seconds = time.perf_counter() - t
    pages = sc.textFile(out).count()
    failed = sc.textFile(out).filter(lambda l: json.loads(l)["error"] is not None).count()
    print(f"pages={pages} failed={failed} seconds={seconds:.2f} pages_per_s={pages / seconds:.1f}")
    spark.stop()


if __name__ == "__main__":
    main()
