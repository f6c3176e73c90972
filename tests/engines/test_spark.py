"""fasturi.spark on a local two-core Spark session (conftest's, shared with
the other engine tests), against fasturi.arrow.  Its Python workers inherit
this process's environment, so they import the same fasturi (and the same
implementation, under FASTURI_NO_EXTENSIONS=1).
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from pyspark.sql.types import BooleanType, LongType, StringType, StructField, StructType

import fasturi.spark as fs
from fasturi import arrow

# pyspark warns about pandas releases newer than it was tested with.
# pyspark 3.5 reads versions with distutils' LooseVersion.
pytestmark = [
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore:distutils Version classes:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def frame(spark, urls):
    schema = "id long, url string"
    return spark.createDataFrame(list(enumerate(urls)), schema).repartition(3)


def by_id(df, *names):
    """Rows of ``df`` ordered by id, as tuples of the named columns."""
    return [tuple(row[n] for n in names) for row in df.orderBy("id").collect()]


def test_with_uri_columns(frame, column):
    df = fs.with_uri_columns(frame, "url", fields=arrow.FIELDS, prefix="u_")
    # the schema is declared: known before anything runs
    assert df.schema == StructType(
        [StructField("id", LongType()), StructField("url", StringType())]
        + [StructField("u_" + f, StringType()) for f in arrow.FIELDS]
    )
    got = by_id(df, "url", *("u_" + f for f in arrow.FIELDS))
    assert [r[0] for r in got] == column.to_pylist()
    want = arrow.split(column, arrow.FIELDS)
    for i, name in enumerate(arrow.FIELDS, start=1):
        assert [r[i] for r in got] == want.field(name).to_pylist(), name


def test_normalize_canonicalize_is_valid(frame, column):
    df = fs.normalize(frame, "url", into="norm")
    df = fs.canonicalize(df, "url", into="key", drop_params=["utm_*"], drop_fragment=False)
    df = fs.is_valid(df, "url")
    assert df.columns == ["id", "url", "norm", "key", "url_valid"]
    assert df.schema["url_valid"].dataType == BooleanType()
    got = by_id(df, "norm", "key", "url_valid")
    assert [r[0] for r in got] == arrow.normalize(column).to_pylist()
    key = arrow.canonicalize(column, drop_params=["utm_*"], drop_fragment=False)
    assert [r[1] for r in got] == key.to_pylist()
    assert [r[2] for r in got] == arrow.is_valid(column).to_pylist()
    assert sum(r[0] is None for r in got) > 0  # NULL in, NULL out


def test_replacing_a_column_in_place(frame, column):
    df = fs.normalize(frame, "url")
    assert df.columns == ["id", "url"]
    assert [r[0] for r in by_id(df, "url")] == arrow.normalize(column).to_pylist()


def test_resolve(spark, refs, base):
    pages = [base, None, "relative/base"] * (len(refs) // 3)
    df = spark.createDataFrame(
        list(zip(range(len(refs)), refs, pages)), "id long, ref string, page string"
    ).repartition(2)
    df = fs.resolve(df, "ref", base, into="one", rfc=2396)
    df = fs.resolve(df, "ref", base_column="page", into="each")
    got = by_id(df, "one", "each")
    href = pa.array(refs, pa.string())
    assert [r[0] for r in got] == arrow.resolve(base, href, rfc=2396).to_pylist()
    assert [r[1] for r in got] == arrow.resolve(pa.array(pages, pa.string()), href).to_pylist()


def test_group_by_host(frame, column):
    counts = dict(fs.with_uri_columns(frame, "url", ["host"]).groupBy("host").count().collect())
    hosts = arrow.split(column, ("host",)).field(0).to_pylist()
    assert counts == {h: hosts.count(h) for h in set(hosts)}


def test_bad_arguments_fail_on_the_driver(frame):
    with pytest.raises(ValueError, match="unknown field 'hostname'"):
        fs.with_uri_columns(frame, "url", ["hostname"])
    with pytest.raises(ValueError, match="no column 'link'"):
        fs.normalize(frame, "link")
    with pytest.raises(TypeError, match="exactly one of"):
        fs.resolve(frame, "url")
    with pytest.raises(TypeError, match="drop_params"):
        fs.canonicalize(frame, "url", drop_params="utm_*")


def test_large_string_batches(spark, frame, column):
    # With large variable-width types Spark hands over (and expects back)
    # large_string columns: results follow their input's type.
    key = "spark.sql.execution.arrow.useLargeVarTypes"
    spark.conf.set(key, "true")
    try:
        df = fs.normalize(fs.with_uri_columns(frame, "url", ["host"]), "url", into="norm")
        got = by_id(df, "host", "norm")
    finally:
        spark.conf.unset(key)
    assert [r[0] for r in got] == arrow.split(column, ("host",)).field(0).to_pylist()
    assert [r[1] for r in got] == arrow.normalize(column).to_pylist()
