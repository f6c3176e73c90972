"""fasturi.dask on a real multi-process cluster, against the single-process result."""

from __future__ import annotations

from importlib.resources import files

import dask
import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pytest
from dask.distributed import Client, LocalCluster

import fasturi
import fasturi.dask as fd

URLS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()
BASE = "https://docs.example.org/guide/intro/index.html"
REFS = ["../g", "./a/b?x#y", "//other/p", "?q", "", "#frag", "HTTP://X/./y"] * 50
DROP = ("utm_*", "ref", "fbclid")


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    )
    with cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def frame():
    df = pd.DataFrame({"url": URLS, "n": range(len(URLS))}, index=pd.RangeIndex(len(URLS)) * 3)
    return df, dd.from_pandas(df, npartitions=5)


# ---- on the cluster --------------------------------------------------------


def test_apply_normalize_and_canonicalize(client, frame):
    df, ddf = frame
    normalized, keys = dask.compute(
        fd.apply(ddf, "url", "normalize"),
        fd.apply(ddf, "url", "canonicalize", drop_params=DROP, drop_fragment=False),
    )
    assert normalized.tolist() == fasturi.normalize_many(URLS)
    assert normalized.index.equals(df.index) and normalized.name == "url"
    assert keys.tolist() == fasturi.canonicalize_many(URLS, drop_params=DROP, drop_fragment=False)


def test_apply_split_gives_component_columns(client, frame):
    df, ddf = frame
    got = fd.apply(ddf, "url", "split").compute()
    assert list(got.columns) == ["scheme", "authority", "path", "query", "fragment"]
    assert [tuple(row) for row in got.itertuples(index=False)] == fasturi.split_many(URLS)
    assert got.index.equals(df.index)


def test_apply_resolve_and_assign(client):
    df = pd.DataFrame({"ref": REFS})
    ddf = dd.from_pandas(df, npartitions=4)
    ddf = ddf.assign(absolute=fd.apply(ddf, "ref", "resolve", base=BASE))
    got = ddf.compute()
    assert got["absolute"].tolist() == fasturi.resolve_many(BASE, REFS)
    assert got["ref"].tolist() == REFS


def test_map_bag(client):
    bag = db.from_sequence(URLS, npartitions=6)
    refs = db.from_sequence(REFS, npartitions=3)
    normalized, keys, parts, resolved = dask.compute(
        fd.map_bag(bag, "normalize"),
        fd.map_bag(bag, "canonicalize", drop_params=DROP),
        fd.map_bag(bag, "split"),
        fd.map_bag(refs, "resolve", base=BASE, rfc=2396),
    )
    assert normalized == fasturi.normalize_many(URLS)
    assert keys == fasturi.canonicalize_many(URLS, drop_params=DROP)
    assert parts == fasturi.split_many(URLS)
    assert resolved == fasturi.resolve_many(BASE, REFS, rfc=2396)


def test_missing_values(client):
    df = pd.DataFrame({"url": ["HTTP://A/", None, "HTTP://B/./c", float("nan")]}, dtype=object)
    ddf = dd.from_pandas(df, npartitions=2)
    got = fd.apply(ddf, "url", "normalize", errors="none").compute()
    assert got.tolist() == ["http://a/", None, "http://b/c", None]
    with pytest.raises(TypeError, match=r"normalize_many\(\) item \d must be str, not"):
        fd.apply(ddf, "url", "normalize").compute()


# ---- on the client, before any graph runs ----------------------------------------


def test_bad_arguments_fail_early():
    bag = db.from_sequence(["a"], npartitions=1)
    with pytest.raises(ValueError, match="unknown operation 'lower'"):
        fd.map_bag(bag, "lower")
    with pytest.raises(TypeError, match="needs the keyword argument 'base'"):
        fd.map_bag(bag, "resolve")
    with pytest.raises(TypeError, match="takes no argument 'base'"):
        fd.map_bag(bag, "normalize", base=BASE)
    with pytest.raises(fasturi.InvalidURI):
        fd.map_bag(bag, "resolve", base="relative/base")
    with pytest.raises(TypeError, match="must be an iterable of str, not str"):
        fd.map_bag(bag, "canonicalize", drop_params="utm_*")
    ddf = dd.from_pandas(pd.DataFrame({"u": ["a"]}), npartitions=1)
    with pytest.raises(ValueError, match="unknown operation"):
        fd.apply(ddf, "u", "lower")


# ---- pandas partition helpers (no Dask needed) -----------------------------------


def test_partition_helpers_keep_index_and_name():
    s = pd.Series(["HTTP://A/./b?y&x#f", "g"], index=["i", "j"], name="link")
    out = fd.normalize_partition(s)
    assert out.tolist() == ["http://a/b?y&x#f", "g"]
    assert list(out.index) == ["i", "j"] and out.name == "link" and out.dtype == object
    assert fd.canonicalize_partition(s).tolist() == ["http://a/b?x&y", "g"]
    assert fd.resolve_partition(s, BASE).tolist() == [
        "HTTP://A/b?y&x#f",
        "https://docs.example.org/guide/intro/g",
    ]
    parts = fd.split_partition(s)
    assert list(parts.index) == ["i", "j"]
    assert parts.loc["j"].tolist() == [None, None, "g", None, None]
    assert fd.partition(s, "canonicalize", sort_query=False).tolist() == ["http://a/b?y&x", "g"]
    assert fd.run_many(["HTTP://A"], "normalize") == ["http://a/"]
    with pytest.raises(TypeError, match="needs the keyword argument 'base'"):
        fd.run_many(["g"], "resolve")


def test_partition_helpers_on_string_dtype():
    s = pd.Series(["HTTP://A/", None], dtype="string")
    assert fd.normalize_partition(s, errors="none").tolist() == ["http://a/", None]


def test_batch_functions_take_pandas_columns():
    uris = ["HTTP://A/./b?y&x#f", "", "mailto:X@Y", "caf\u00e9?\U0001f600"]
    for dtype in (object, "string"):
        column = pd.Series(uris, dtype=dtype)
        assert fasturi.normalize_many(column.tolist()) == fasturi.normalize_many(uris)
        assert fasturi.canonicalize_many(column) == fasturi.canonicalize_many(uris)  # iterated
        assert fasturi.split_many(column.array) == fasturi.split_many(uris)
        assert fasturi.resolve_many(BASE, column) == fasturi.resolve_many(BASE, uris)
