"""The pandas accessor ``.uri`` against the single-process fasturi.arrow result."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pyarrow as pa
import pytest

import fasturi.pandas  # noqa: F401  (registers .uri)
from fasturi import arrow

DTYPES = [object, "string[pyarrow]", pd.ArrowDtype(pa.string()), pd.ArrowDtype(pa.large_string())]


def values(result):
    """A pandas or pyarrow result as Python values, missing as None."""
    if isinstance(result, (pa.Array, pa.ChunkedArray)):
        return result.to_pylist()
    return [None if v is pd.NA or v is None else v for v in result.astype(object)]


@pytest.fixture(params=DTYPES, ids=str)
def series(request, urls):
    # a shuffled, non-default index: results must keep it
    index = pd.Index([f"r{i}" for i in range(len(urls))][::-1])
    return pd.Series(urls, index=index, name="url", dtype=request.param)


def test_methods_equal_arrow(series, column):
    cases = [
        (series.uri.normalize(), arrow.normalize(column)),
        (series.uri.normalize(scheme_based=False), arrow.normalize(column, scheme_based=False)),
        (
            series.uri.canonicalize(drop_params=["utm_*"], sort_query=False),
            arrow.canonicalize(column, drop_params=["utm_*"], sort_query=False),
        ),
        (series.uri.is_valid(), arrow.is_valid(column)),
        (series.uri.is_valid("absolute-URI"), arrow.is_valid(column, "absolute-URI")),
        (series.uri.error_position(), arrow.error_position(column)),
        (
            series.uri.percent_decode(errors="replace"),
            arrow.percent_decode(column, errors="replace"),
        ),
    ]
    for got, want in cases:
        assert isinstance(got, pd.Series)
        assert got.index.equals(series.index) and got.name == "url"
        assert values(got) == want.to_pylist()


def test_missing_in_missing_out(series):
    got = series.uri.normalize()
    assert got.isna().tolist() == series.isna().tolist()
    assert series.isna().sum() > 0


def test_split_is_a_dataframe_with_the_index(series, column):
    got = series.uri.split(fields=arrow.FIELDS)
    want = arrow.split(column, arrow.FIELDS)
    assert isinstance(got, pd.DataFrame)
    assert list(got.columns) == list(arrow.FIELDS)
    assert got.index.equals(series.index)
    for name in arrow.FIELDS:
        assert values(got[name]) == want.field(name).to_pylist()
    assert list(series.uri.split().columns) == ["scheme", "authority", "path", "query", "fragment"]


@pytest.mark.parametrize("name", arrow.FIELDS)
def test_component_properties(series, column, name):
    got = getattr(series.uri, name)
    assert got.index.equals(series.index) and got.name == "url"
    assert values(got) == arrow.split(column, (name,)).field(0).to_pylist()


def test_resolve_against_one_base_or_a_column(refs, base):
    s = pd.Series(refs, index=range(100, 100 + len(refs)), name="href")
    got = s.uri.resolve(base)
    assert got.index.equals(s.index) and got.name == "href"
    assert values(got) == arrow.resolve(base, pa.array(refs, pa.string())).to_pylist()
    rows = [base, None, "relative/base"] * (len(refs) // 3)
    bases = pd.Series(rows, index=s.index, dtype=object)
    for rfc in (3986, 2396):
        want = arrow.resolve(pa.array(rows, pa.string()), pa.array(refs, pa.string()), rfc=rfc)
        assert values(s.uri.resolve(bases, rfc=rfc)) == want.to_pylist()
    got = values(s.uri.resolve(bases))
    assert got[1] is None and got[2] is None  # a null or relative base gives null


def test_in_a_dataframe(urls, column):
    df = pd.DataFrame({"url": urls, "n": range(len(urls))})
    df = df.assign(host=df.url.uri.host, norm=df.url.uri.normalize())
    assert values(df.host) == arrow.split(column, ("host",)).field(0).to_pylist()
    hosts = arrow.split(column, ("host",)).field(0).to_pylist()
    assert df.groupby("host").size().to_dict() == Counter(h for h in hosts if h is not None)


def test_not_a_string_column():
    with pytest.raises(TypeError, match="must be a string column"):
        pd.Series([1, 2, 3]).uri.normalize()
    with pytest.raises(TypeError, match="must be a string column"):
        _ = pd.Series(["http://a/", 3], dtype=object).uri.host


def test_a_component_is_a_series_that_may_be_called():
    import copy
    import pickle

    s = pd.Series(
        ["http://a.example:80/x", None, "mailto:x", "//b/"], name="url", index=[5, 6, 7, 9]
    )
    host = s.uri.host
    plain = s.uri.host()
    assert type(plain) is pd.Series and isinstance(host, pd.Series)
    assert host.equals(plain) and host().equals(plain) and host(threads=1).equals(plain)
    assert repr(host) == repr(plain) and str(host) == str(plain)
    # what pandas makes of it, and what pickling and copying give, are plain Series
    for made in (
        host + "/",
        host.str.upper(),
        host[host.notna()],
        host.copy(),
        copy.deepcopy(host),
        copy.copy(host),
        pickle.loads(pickle.dumps(host)),
        pd.concat([host, host]),
    ):
        assert type(made) is pd.Series
    assert (host + "/").tolist() == ["a.example/", pd.NA, pd.NA, "b/"]
    assert pickle.loads(pickle.dumps(host)).equals(plain)
    assert (host == "b").tolist() == [False, pd.NA, pd.NA, True]
    # where pandas calls a callable with the frame or Series, it is the column
    df = pd.DataFrame({"url": s})
    assert df.assign(host=s.uri.host)["host"].equals(plain.rename("host"))
    assert df.loc[s.uri.host.notna()].index.tolist() == [5, 9]
    assert df.groupby(s.uri.host).size().to_dict() == {"a.example": 1, "b": 1}
    # where pandas would call it once a value (pandas 3's Series.map tries
    # a callable first; pandas 2 reads it as the Series it is), it says so
    try:
        mapped = pd.Series([5, 9]).map(host)
    except TypeError as exc:
        assert "takes no arguments" in str(exc) and "pd.Series(s.uri" in str(exc)
    else:
        assert mapped.tolist() == ["a.example", "b"]
    assert pd.Series([5, 9]).map(pd.Series(host)).tolist() == ["a.example", "b"]
    with pytest.raises(TypeError, match="takes no arguments"):
        host(1, 2)
    with pytest.raises(ValueError, match="threads"):
        host(threads=0)
