"""fasturi.dask on a real two-worker cluster, against the single-process result."""

from __future__ import annotations

import dask
import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pytest
from dask.distributed import Client, LocalCluster

import fasturi
import fasturi.dask as fd
from fasturi import arrow

DROP = ("utm_*", "ref", "fbclid")


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    )
    with cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module", params=["str", object], ids=["arrow-strings", "object"])
def frame(request, urls):
    index = pd.RangeIndex(len(urls)) * 3
    df = pd.DataFrame({"url": pd.Series(urls, index=index, dtype=request.param), "n": index})
    return df, dd.from_pandas(df, npartitions=5)


def values(series):
    return [None if pd.isna(v) else v for v in series.astype(object)]


# ---- on the cluster --------------------------------------------------------


def test_apply_normalize_canonicalize_is_valid(client, frame, column):
    df, ddf = frame
    normalized, keys, valid = dask.compute(
        fd.apply(ddf, "url", "normalize"),
        fd.apply(ddf, "url", "canonicalize", drop_params=DROP, drop_fragment=False),
        fd.apply(ddf, "url", "is_valid", rule="absolute-URI"),
    )
    assert values(normalized) == arrow.normalize(column).to_pylist()
    assert normalized.index.equals(df.index) and normalized.name == "url"
    want = arrow.canonicalize(column, drop_params=DROP, drop_fragment=False)
    assert values(keys) == want.to_pylist()
    assert values(valid) == arrow.is_valid(column, "absolute-URI").to_pylist()
    assert normalized.isna().sum() == df["url"].isna().sum() > 0  # NULL in, NULL out


def test_apply_split_gives_component_columns(client, frame, column):
    df, ddf = frame
    got = fd.apply(ddf, "url", "split").compute()
    assert list(got.columns) == ["scheme", "authority", "path", "query", "fragment"]
    assert got.index.equals(df.index)
    want = arrow.split(column, tuple(got.columns))
    for name in got.columns:
        assert values(got[name]) == want.field(name).to_pylist()
    hosts = fd.apply(ddf, "url", "split", fields=["host", "port"]).compute()
    assert list(hosts.columns) == ["host", "port"]
    assert values(hosts["port"]) == arrow.split(column, ("port",)).field(0).to_pylist()


def test_apply_resolve_and_assign(client, refs, base):
    df = pd.DataFrame({"ref": refs})
    ddf = dd.from_pandas(df, npartitions=4)
    ddf = ddf.assign(absolute=fd.apply(ddf, "ref", "resolve", base=base))
    got = ddf.compute()
    assert values(got["absolute"]) == arrow.resolve(base, pa.array(refs, pa.string())).to_pylist()
    assert values(got["ref"]) == refs


def test_map_bag(client, urls, refs, base, column):
    bag = db.from_sequence(urls, npartitions=6)
    normalized, keys, parts, resolved = dask.compute(
        fd.map_bag(bag, "normalize"),
        fd.map_bag(bag, "canonicalize", drop_params=DROP),
        fd.map_bag(bag, "split"),
        fd.map_bag(db.from_sequence(refs, npartitions=3), "resolve", base=base, rfc=2396),
    )
    assert normalized == arrow.normalize(column).to_pylist()
    assert keys == arrow.canonicalize(column, drop_params=DROP).to_pylist()
    assert parts == arrow.split(column).to_pylist()  # a dict per row
    assert parts[0] == fasturi.split(urls[0])._asdict()
    assert resolved == arrow.resolve(base, pa.array(refs, pa.string()), rfc=2396).to_pylist()
    # apply takes a bag too
    hosts = fd.apply(bag, None, "host").compute()
    assert hosts == arrow.host(column).to_pylist()


def test_map_bag_missing_values(client):
    bag = db.from_sequence(["HTTP://A/", None, "HTTP://B/./c", 7], npartitions=2)
    assert fd.map_bag(bag, "normalize", errors="none").compute() == [
        "http://a/",
        None,
        "http://b/c",
        None,
    ]
    with pytest.raises(TypeError, match=r"normalize\(\) item \d must be str or None, not int"):
        fd.map_bag(bag, "normalize").compute()


# ---- on the client, before any graph runs ----------------------------------------


def test_bad_arguments_fail_early(base):
    bag = db.from_sequence(["a"], npartitions=1)
    with pytest.raises(ValueError, match="unknown operation 'lower'"):
        fd.map_bag(bag, "lower")
    with pytest.raises(TypeError, match="needs the keyword argument 'base'"):
        fd.map_bag(bag, "resolve")
    with pytest.raises(TypeError, match="takes no argument 'base'"):
        fd.map_bag(bag, "normalize", base=base)
    with pytest.raises(TypeError, match="a bag has no columns"):
        fd.apply(bag, "u", "host")
    ddf = dd.from_pandas(pd.DataFrame({"u": ["a"], "n": [1]}), npartitions=1)
    with pytest.raises(ValueError, match="unknown operation 'lower'"):
        fd.apply(ddf, "u", "lower")
    with pytest.raises(TypeError, match="needs the keyword argument 'base'"):
        fd.apply(ddf, "u", "resolve")
    with pytest.raises(TypeError, match="drop_params"):
        fd.apply(ddf, "u", "canonicalize", drop_params="utm_*")
    with pytest.raises(ValueError, match="unknown field"):
        fd.apply(ddf, "u", "split", fields=["hostname"])
    with pytest.raises(TypeError, match="must be a string column"):
        fd.apply(ddf, "n", "normalize")


# ---- pandas partition helpers (no Dask needed) -----------------------------------


def test_partition_helpers_keep_index_and_name(base):
    s = pd.Series(["HTTP://A/./b?y&x#f", "g", None], index=["i", "j", "k"], name="link")
    out = fd.normalize_partition(s)
    assert values(out) == ["http://a/b?y&x#f", "g", None]
    assert list(out.index) == ["i", "j", "k"] and out.name == "link"
    assert values(fd.canonicalize_partition(s)) == ["http://a/b?x&y", "g", None]
    assert values(fd.resolve_partition(s, base)) == [
        "HTTP://A/b?y&x#f",
        "https://docs.example.org/guide/intro/g",
        None,
    ]
    parts = fd.split_partition(s)
    assert list(parts.index) == ["i", "j", "k"]
    assert values(parts.loc["j"]) == [None, None, "g", None, None]
    assert values(fd.partition(s, "canonicalize", sort_query=False)) == [
        "http://a/b?y&x",
        "g",
        None,
    ]
    assert fd.run_many(["HTTP://A"], "normalize") == ["http://a/"]
    with pytest.raises(TypeError, match="needs the keyword argument 'base'"):
        fd.run_many(["g"], "resolve")
