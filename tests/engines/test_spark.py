"""The PySpark recipes of docs/scale-out.md, on a local two-core session.

Runs only where pyspark (and a Java runtime) is installed; it is not part of
the test extra.
"""

from __future__ import annotations

import os
import sys
from importlib.resources import files
from typing import Iterator

import pandas as pd
import pytest

pyspark = pytest.importorskip("pyspark")

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql.functions import pandas_udf  # noqa: E402

import fasturi  # noqa: E402
import fasturi.dask as fd  # noqa: E402

URLS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()
BASE = "https://docs.example.org/guide/intro/index.html"
DROP = ("utm_*", "ref")

# pyspark warns about pandas releases newer than it was tested with.
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("fasturi-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def urls(spark):
    return spark.createDataFrame(pd.DataFrame({"url": URLS})).repartition(3)


@pytest.fixture(scope="module")
def recipes():
    """The recipes as docs/scale-out.md gives them.

    Made here, not at import: closures are shipped to Spark's workers by
    value, while module-level functions of a test file would be looked up by
    a module name the workers cannot import.
    """

    @pandas_udf("string")
    def canonical_key(urls: pd.Series) -> pd.Series:
        return fd.canonicalize_partition(urls, drop_params=DROP)

    @pandas_udf("string")
    def absolute(refs: pd.Series) -> pd.Series:
        return fd.resolve_partition(refs, BASE)

    def split_batches(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        for batch in batches:
            parts = fd.split_partition(batch["url"])
            yield pd.concat([batch[["url"]], parts], axis=1)

    return canonical_key, absolute, split_batches


SPLIT_SCHEMA = (
    "url string, scheme string, authority string, path string, query string, fragment string"
)


def test_pandas_udf_canonicalize(urls, recipes):
    canonical_key = recipes[0]
    rows = urls.select("url", canonical_key("url").alias("key")).collect()
    assert len(rows) == len(URLS)
    got = {row.url: row.key for row in rows}
    want = dict(zip(URLS, fasturi.canonicalize_many(URLS, drop_params=DROP)))
    assert got == want


def test_pandas_udf_resolve(spark, recipes):
    absolute = recipes[1]
    refs = ["../g", "./a/b?x#y", "//other/p", "?q", "", "#frag", "HTTP://X/./y"]
    df = spark.createDataFrame(pd.DataFrame({"ref": refs}))
    rows = df.select("ref", absolute("ref").alias("abs")).collect()
    assert {row.ref: row.abs for row in rows} == dict(zip(refs, fasturi.resolve_many(BASE, refs)))


def test_map_in_pandas_split(urls, recipes):
    split_batches = recipes[2]
    rows = urls.mapInPandas(split_batches, SPLIT_SCHEMA).collect()
    got = {row.url: tuple(row)[1:] for row in rows}
    assert got == {u: tuple(fasturi.split(u)) for u in URLS}
