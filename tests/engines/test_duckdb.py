"""DuckDB's uri_* SQL functions over Parquet and CSV files, against fasturi.arrow.

Each test runs on both paths: ``native`` (fasturi.duckdb.connect(): the
extension, plus Arrow for what it does not carry) and ``arrow`` (a
connection that cannot load it: every function through Arrow UDFs).
"""

from __future__ import annotations

import warnings
from collections import Counter

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import fasturi.duckdb
from fasturi import arrow

COMPONENTS = ["scheme", "host", "port", "path", "query", "fragment"]


def arrow_only():
    """A connection that cannot load the extension, every function through Arrow."""
    connection = duckdb.connect()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (tested in test_duckdb_native)
        return fasturi.duckdb.register(connection)


@pytest.fixture(scope="module", params=["native", "arrow"])
def con(request):
    if request.param == "native":
        with warnings.catch_warnings():
            # (where this DuckDB cannot load the extension, DuckDB 1.1, or
            # fasturi was built without it, connect() says so and gives the
            # Arrow path: tested in test_duckdb_native)
            warnings.filterwarnings("ignore", "fasturi.duckdb: the uri_", RuntimeWarning)
            connection = fasturi.duckdb.connect()
    else:
        connection = arrow_only()
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory, column):
    where = tmp_path_factory.mktemp("logs")
    table = pa.table({"id": pa.array(range(len(column)), pa.int64()), "url": column})
    # small row groups: DuckDB then hands the functions several vectors
    pq.write_table(table, where / "log.parquet", row_group_size=1000)
    pacsv.write_csv(table, where / "log.csv")
    return where


def rows(con, sql):
    return [r[0] for r in con.sql(sql).fetchall()]


@pytest.mark.parametrize("reader", ["read_parquet('{}/log.parquet')", "read_csv('{}/log.csv')"])
def test_every_function_equals_arrow(con, files, column, reader):
    source = reader.format(files)
    calls = ", ".join(
        ["uri_normalize(url)", "uri_canonicalize(url)", "uri_is_valid(url)"]
        + [f"uri_{c}(url)" for c in COMPONENTS]
    )
    got = con.sql(f"SELECT url, {calls} FROM {source} ORDER BY id").fetchall()
    urls = [r[0] for r in got]
    if reader.startswith("read_csv"):
        # CSV has no NULL string distinct from the empty field: compare with
        # what DuckDB read
        column = pa.array(urls, pa.string())
    else:
        assert urls == column.to_pylist()
    want = [arrow.normalize(column), arrow.canonicalize(column), arrow.is_valid(column)] + [
        arrow.split(column, (c,)).field(0) for c in COMPONENTS
    ]
    for i, expected in enumerate(want, start=1):
        assert [r[i] for r in got] == expected.to_pylist(), i


def test_null_in_null_out(con):
    got = con.sql(
        "SELECT uri_normalize(u), uri_host(u), uri_is_valid(u), uri_resolve(u, 'g'),"
        " uri_resolve('http://a/b', u) FROM (VALUES (NULL::VARCHAR)) t(u)"
    ).fetchall()
    assert got == [(None, None, None, None, None)]


def test_group_by_host(con, files, column):
    got = con.sql(
        f"SELECT uri_host(url) AS host, count(*) FROM read_parquet('{files}/log.parquet')"
        " GROUP BY host"
    ).fetchall()
    hosts = arrow.split(column, ("host",)).field(0).to_pylist()
    assert dict(got) == Counter(hosts)


def test_resolve_row_by_row(con, refs, base):
    table = pa.table(
        {
            "i": range(len(refs)),
            "ref": pa.array(refs, pa.string()),
            "page": pa.array([base, None, "relative/base"] * (len(refs) // 3), pa.string()),
        }
    )
    con.register("links", table)
    try:
        one = rows(con, f"SELECT uri_resolve('{base}', ref) FROM links ORDER BY i")
        each = rows(con, "SELECT uri_resolve(page, ref) FROM links ORDER BY i")
    finally:
        con.unregister("links")
    assert one == arrow.resolve(base, table["ref"]).to_pylist()
    assert each == arrow.resolve(table["page"], table["ref"]).to_pylist()


def test_register_twice_and_on_a_new_connection():
    con = arrow_only()
    assert fasturi.duckdb.register(con) is con
    fasturi.duckdb.register(con)
    assert rows(con, "SELECT uri_port('http://h:8080/')") == ["8080"]
    names = rows(
        con,
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name LIKE 'uri_%'",
    )
    assert sorted(names) == sorted(fasturi.duckdb.FUNCTIONS)


def test_crawler_functions_equal_arrow(con, files, column):
    # docs/reference.md §7's uri_registrable_domain, with §4's other column forms
    got = con.sql(
        "SELECT uri_registrable_domain(url), uri_public_suffix(url), uri_fingerprint(url)"
        f" FROM read_parquet('{files}/log.parquet') ORDER BY id"
    ).fetchall()
    want = [
        arrow.registrable_domain(column),
        arrow.public_suffix(column),
        arrow.fingerprint(column),
    ]
    for i, expected in enumerate(want):
        assert [r[i] for r in got] == expected.to_pylist(), i
    assert rows(con, "SELECT uri_registrable_domain('https://www.bbc.co.uk/news')") == ["bbc.co.uk"]
    assert rows(con, "SELECT uri_registrable_domain(NULL::VARCHAR)") == [None]
    # surt raises where the scalar does (a port that is not a number), so
    # over rows it can key
    assert rows(con, "SELECT uri_surt('http://www.Archive.org/goo/?b&a#top')") == [
        "org,archive)/goo?a&b"
    ]
    with pytest.raises(duckdb.InvalidInputException, match="row 0: surt"):
        con.sql("SELECT uri_surt('http://a:-80/')").fetchall()
