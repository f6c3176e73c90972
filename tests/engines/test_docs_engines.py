"""The documentation's engine recipes run for real (tests/doc_blocks.py
says which blocks run and how): pandas, polars, DuckDB, Spark and Dask,
on the small files the recipes read."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from doc_blocks import (
    HREFS,
    PAGE,
    REFERENCE,
    URLS,
    blocks,
    check_entries,
    documented_names,
    make_fixtures,
    public,
    run_doctests,
    run_script,
    runs,
)

import fasturi
from fasturi.arrow import FUNCTIONS

pytestmark = [
    # pyspark warns about pandas releases newer than it was tested with.
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    # dask's read_parquet passes pandas 3.1 a keyword it deprecates
    pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_fixtures(tmp_path_factory.mktemp("docs"))


# A Spark recipe starts from the session the pyspark shell calls "spark".
# It runs in a child Python: Spark's JVM reads relative paths from the
# folder it started in, and this process's JVM may have started elsewhere.
SPARK = """\
import os, sys
from pyspark.sql import SparkSession
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate()
)
"""


def _older_duckdb():
    import duckdb

    return tuple(int(x) for x in duckdb.__version__.split(".")[:2]) < (1, 2)


@pytest.mark.parametrize("run", runs(engine=True))
def test_runs(run, folder, monkeypatch):
    if isinstance(run, Path):  # (the doctests the document runs)
        text = "".join(b.text for b in blocks(run) if b.is_doctest)
    else:
        text = run.text
    if "fasturi.duckdb.connect(" in text and _older_duckdb():
        # DuckDB 1.1 cannot load the extension: the recipes run as they
        # are, through Arrow, and the user is told so once
        import fasturi.duckdb

        monkeypatch.setattr(fasturi.duckdb, "_warned", False)
        with pytest.warns(RuntimeWarning, match="cannot load extensions built on C API v1.2.0"):
            _run(run, folder, monkeypatch)
        return
    _run(run, folder, monkeypatch)


def _run(run, folder, monkeypatch):
    if isinstance(run, Path):
        monkeypatch.chdir(folder)
        run_doctests(run, engine=True)
        return
    done = run_script(run, folder, prelude=SPARK if "spark." in run.text else "")
    for marker, check in CHECKS.items():
        if marker in run.text:
            check(done, folder)


# ---- what the recipes of docs/scale-out.md give ------------------------------------


def _rows(values):
    return [None if pd.isna(v) else v for v in values]  # NaN, NA: None


def _pandas(ns, folder):
    df = ns["df"]
    urls = _rows(df["url"])
    assert _rows(df["norm"]) == [u and fasturi.normalize(u) for u in urls]
    assert _rows(df["url_host"]) == [u and fasturi.URI(u).host for u in urls]
    assert _rows(df["target"])[:2] == [
        fasturi.resolve("https://example.com/docs/", h) for h in HREFS[:2]
    ]
    assert list(ns["bad"]["url"]) == [u for u in URLS if u and not fasturi.is_valid(u)]


def _polars(ns, folder):
    hits = dict(zip(ns["hits"]["host"], ns["hits"]["hits"]))
    assert hits == Counter(fasturi.URI(u).host for u in URLS if u and fasturi.is_valid(u))
    links = ns["links"]
    assert list(links["target"]) == [
        None if h is None else fasturi.resolve(PAGE, h) for h in links["href"]
    ]


def _duckdb(ns, folder):
    assert sorted(ns["hits"], key=str)[0][1] >= 1
    assert len(ns["targets"]) == len(HREFS)


def _dask(ns, folder):
    keys = ns["keys"]
    assert _rows(keys["key"]) == [
        u and fasturi.canonicalize(u, drop_params=("utm_*", "fbclid")) for u in _rows(keys["url"])
    ]
    assert _rows(ns["targets"]["target"]) == [
        fasturi.resolve(PAGE, h) if isinstance(h, str) else None for h in ns["targets"]["href"]
    ]


def _bag(done, folder):
    want = [fasturi.canonicalize(u, drop_params=("utm_*",)) for u in URLS if u is not None]
    assert sorted(ast.literal_eval(done["stdout"])) == sorted(want)


def _spark(done, folder):
    table = pq.read_table(folder / "crawl-keys")
    want = {fasturi.canonicalize(u, drop_params=["utm_*"]) for u in URLS if u is not None}
    assert set(table.column("key").to_pylist()) - {None} == want


CHECKS = {
    "import fasturi.pandas": _pandas,
    "import fasturi.polars": _polars,
    "import fasturi.duckdb": _duckdb,
    "ddf = dd.read_parquet": _dask,
    "fd.map_bag": _bag,
    "import fasturi.spark": _spark,
}


# ---- docs/reference.md's entries for the engine modules ------------------------------


def documented(name):
    return name in documented_names()


def test_reference_pandas():
    import fasturi.pandas as fpd

    accessor = fpd.UriAccessor
    expected = {
        f"Series.uri.{n}": getattr(accessor, n)
        for n in public(accessor)
        if documented(f"Series.uri.{n}")
    }
    assert set(public(accessor)) == set(FUNCTIONS)  # the rest: one line for them all
    # the methods are the fasturi.arrow functions, called with the Series as col
    assert check_entries(expected, drop=("col",)) == []
    assert "fasturi.pandas.UriAccessor" in REFERENCE.read_text("utf-8")


def test_reference_polars():
    import fasturi.polars as fpl

    assert public(fpl.UriSeries) == public(fpl.UriExpr)  # one table documents both
    expected = {
        f"Expr.uri.{n}": getattr(fpl.UriExpr, n)
        for n in public(fpl.UriExpr)
        if documented(f"Expr.uri.{n}")
    }
    assert set(public(fpl.UriExpr)) == set(FUNCTIONS)
    assert check_entries(expected) == []
    text = REFERENCE.read_text("utf-8")
    assert "fasturi.polars.UriExpr" in text and "fasturi.polars.UriSeries" in text


def test_reference_duckdb():
    import fasturi.duckdb as fdb

    expected = {f"fasturi.duckdb.{n}": getattr(fdb, n) for n in fdb.__all__}
    assert check_entries(expected) == []
    text = REFERENCE.read_text("utf-8")
    for name in fdb.FUNCTIONS:  # (one line names several; the options: the table)
        assert name in text, name


def test_reference_spark():
    import fasturi.spark as fsp

    names = [n for n in fsp.__all__ if documented(f"fasturi.spark.{n}")]
    assert check_entries({f"fasturi.spark.{n}": getattr(fsp, n) for n in names}) == []
    # the others: fasturi.spark.NAME(df, column, *options, ...), one entry for them all
    assert set(fsp.__all__) == set(FUNCTIONS) | {"register", "with_uri_columns"}
    assert "fasturi.spark.NAME(df, column" in REFERENCE.read_text("utf-8")


def test_reference_dask():
    import fasturi.dask as fdk

    assert check_entries({f"fasturi.dask.{n}": getattr(fdk, n) for n in fdk.__all__}) == []
