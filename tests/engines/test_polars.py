"""The polars namespace ``uri`` (eager, lazy, group_by) against fasturi.arrow."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pyarrow as pa
import pytest

import fasturi.polars  # noqa: F401  (registers .uri)
from fasturi import arrow


@pytest.fixture(scope="module")
def frame(urls):
    return pl.DataFrame(
        {"url": urls, "n": range(len(urls))}, schema={"url": pl.String, "n": pl.Int64}
    )


def test_expressions_equal_arrow(frame, column):
    got = frame.select(
        pl.col("url").uri.normalize().alias("normalize"),
        pl.col("url").uri.canonicalize(drop_params=["utm_*"]).alias("canonicalize"),
        pl.col("url").uri.is_valid().alias("is_valid"),
        pl.col("url").uri.error_position("URI").alias("error_position"),
        pl.col("url").uri.percent_decode(errors="replace").alias("percent_decode"),
        pl.col("url").uri.host().alias("host"),
    )
    assert got.schema == pl.Schema(
        {
            "normalize": pl.String,
            "canonicalize": pl.String,
            "is_valid": pl.Boolean,
            "error_position": pl.Int32,
            "percent_decode": pl.String,
            "host": pl.String,
        }
    )
    assert got["normalize"].to_list() == arrow.normalize(column).to_pylist()
    want = arrow.canonicalize(column, drop_params=["utm_*"])
    assert got["canonicalize"].to_list() == want.to_pylist()
    assert got["is_valid"].to_list() == arrow.is_valid(column).to_pylist()
    assert got["error_position"].to_list() == arrow.error_position(column, "URI").to_pylist()
    want = arrow.percent_decode(column, errors="replace")
    assert got["percent_decode"].to_list() == want.to_pylist()
    assert got["host"].to_list() == arrow.split(column, ("host",)).field(0).to_pylist()
    assert got["normalize"].null_count() == frame["url"].null_count() > 0


def test_split_struct_in_a_lazy_query(frame, column):
    # (LazyFrame.unnest: polars 1.0 has no Expr.struct.unnest)
    query = frame.lazy().select(pl.col("url").uri.split(arrow.FIELDS).alias("u")).unnest("u")
    # the schema is known before anything runs
    assert query.collect_schema() == pl.Schema({f: pl.String for f in arrow.FIELDS})
    got = query.collect()
    want = arrow.split(column, arrow.FIELDS)
    for name in arrow.FIELDS:
        assert got[name].to_list() == want.field(name).to_pylist()


@pytest.mark.parametrize("name", arrow.FIELDS)
def test_component_expressions(frame, column, name):
    got = frame.select(getattr(pl.col("url").uri, name)()).to_series()
    assert got.name == "url"
    assert got.to_list() == arrow.split(column, (name,)).field(0).to_pylist()


def test_group_by_host_lazy(frame, column):
    hosts = arrow.split(column, ("host",)).field(0).to_pylist()
    got = (
        frame.lazy()
        .filter(pl.col("url").uri.is_valid())
        .group_by(pl.col("url").uri.host().alias("host"))
        .agg(pl.len().alias("hits"))
        .collect()
    )
    valid = arrow.is_valid(column).to_pylist()
    want = Counter(h for h, ok in zip(hosts, valid) if ok)
    assert dict(zip(got["host"].to_list(), got["hits"].to_list())) == want


def test_inside_group_by_agg(frame, column):
    # a uri expression evaluated per group, in the aggregation context
    got = (
        frame.lazy()
        .group_by((pl.col("n") % 5).alias("g"))
        .agg(pl.col("n"), pl.col("url").uri.normalize().alias("norm"))
        .collect()
    )
    normalized = arrow.normalize(column).to_pylist()
    for ns, norms in zip(got["n"].to_list(), got["norm"].to_list()):
        assert norms == [normalized[i] for i in ns]
    assert sum(len(ns) for ns in got["n"].to_list()) == len(normalized)


def test_resolve(refs, base):
    df = pl.DataFrame({"href": refs, "page": [base, None, "relative/base"] * (len(refs) // 3)})
    got = df.select(
        pl.col("href").uri.resolve(base).alias("one"),
        pl.col("href").uri.resolve(pl.col("page")).alias("each"),
        pl.col("href").uri.resolve(pl.lit(base), rfc=2396).alias("literal"),
    )
    href = pa.array(refs, pa.string())
    assert got["one"].to_list() == arrow.resolve(base, href).to_pylist()
    assert got["each"].to_list() == arrow.resolve(df["page"].to_arrow(), href).to_pylist()
    assert got["literal"].to_list() == arrow.resolve(base, href, rfc=2396).to_pylist()


def test_series_namespace(frame, column):
    s = frame["url"]
    assert s.uri.normalize().to_list() == arrow.normalize(column).to_pylist()
    assert s.uri.host().to_list() == arrow.split(column, ("host",)).field(0).to_pylist()
    assert s.uri.split(["scheme", "port"]).struct.field("port").to_list() == (
        arrow.split(column, ("port",)).field(0).to_pylist()
    )


def test_bad_arguments_fail_when_the_expression_is_built():
    with pytest.raises(ValueError, match="unknown field 'hostname'"):
        pl.col("url").uri.split(["hostname"])
    with pytest.raises(TypeError, match="not str"):
        pl.col("url").uri.split("host")
    with pytest.raises(ValueError):
        pl.col("url").uri.is_valid("no-such-rule")
    with pytest.raises(TypeError, match="drop_params"):
        pl.col("url").uri.canonicalize(drop_params="utm_*")
