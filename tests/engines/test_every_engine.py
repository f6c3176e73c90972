"""Every function of ``fasturi.arrow.FUNCTIONS`` in every engine, with the
same rows as ``fasturi.arrow``: the pandas accessor, the polars namespace
(plugin and Python path), DuckDB's SQL (the extension and the Arrow path),
Spark (DataFrame functions and Spark SQL) and Dask (dataframes and bags).

The rows: the shipped corpus with NULLs, the engine tests' edge rows, and
hostile ones (NUL, controls, a huge row, malformed escapes, zone IDs,
non-ASCII hosts).  Each function runs with its defaults and with options
that change its answer.  Every engine's calls are batched into one query or
job per engine: the table is walked, not the engines started once a function.
"""

from __future__ import annotations

import os
import sys
import warnings

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import fasturi
import fasturi.dask as fd
import fasturi.duckdb
import fasturi.pandas  # noqa: F401  (registers .uri)
import fasturi.polars  # noqa: F401  (registers .uri)
from fasturi import arrow
from fasturi._functions import COLUMN, REQUIRED, sql_parameters

from .conftest import BASE, URLS

HOSTILE = [
    "http://a\x00b.example/\x00?\x00#\x00",
    "\t http://tabs.example/ \n",
    "http://[fe80::1%25eth0]:8080/zone",
    "http://h/" + "a/" * 3000 + "?" + "k=v&" * 500,
    "%",
    "%zz%4",
    "http://xn--caf-dma.example/",
    "HTTP://M\u00dcNCHEN.example/\u00e4?\u00f6=\u00fc&%C3%A4=1#\u00df",
    "http://u:p@[v7.x]:/p;q?a=1&a=2&&b=&=c#f#g",
    "http://a.github.io/x.tar.gz",
    "http://192.168.0.1/index.html",
    "https://www.bbc.co.uk/news/a/b/c.html?utm_source=x&id=7",
    "javascript:alert(1)",
    "//",
    "?",
    "#",
    "http://a/b/c/./../../g",
    "http://a/%E2%82%AC%20%2F?q=%ff%fe+x",
]

ROWS = URLS + HOSTILE
# The functions that refuse rows run on a table of their own rows.
LABEL = {"surt": "s", "percent_decode": "p"}


def _refused(name, row):
    """Whether the function raises for the row rather than giving a value:
    surt for a port that is not a number, percent_decode (strict) for
    escapes that are not UTF-8.  (test_refused_rows: every engine fails then.)"""
    if row is None or name not in ("surt", "percent_decode"):
        return False
    try:
        fasturi.surt(row) if name == "surt" else fasturi.percent_decode(row)
    except ValueError:
        return True
    return False


# The options each function runs with, besides its defaults: ones that
# change its answer.  A function of the table missing here fails the test.
OPTIONS = {
    "split": [{"fields": arrow.FIELDS}],
    "normalize": [{"scheme_based": False}],
    "canonicalize": [{"sort_query": False, "drop_fragment": False, "drop_params": ("utm_*", "id")}],
    "is_valid": [{"rule": "absolute-URI"}, {"rule": "absoluteURI", "rfc": 2396}],
    "error_position": [{"rule": "URI"}],
    "resolve": [{"base": BASE, "strict": False, "rfc": 2396}],
    "percent_decode": [{"errors": "replace"}],
    "registrable_domain": [{"private": True}],
    "public_suffix": [{"private": True}],
    "surt": [],
    "fingerprint": [{"sort_query": False, "drop_params": ("utm_*",)}],
    "whatwg_href": [{"base": BASE}],
    "whatwg_split": [{"fields": ("hostname", "pathname"), "base": BASE}],
    "whatwg_can_parse": [{"base": BASE}],
    **{name: [] for name in arrow.FIELDS},
}
# The options a function needs (its required ones), in every case.
NEEDED = {"resolve": {"base": BASE}}
# Options the SQL forms do not take (their struct holds every field).
NOT_SQL = {"fields"}


def cases():
    out = []
    for name in arrow.FUNCTIONS:
        for k, options in enumerate([{}] + OPTIONS.get(name, [])):
            out.append((name, k, {**NEEDED.get(name, {}), **options}))
    return out


CASES = cases()
IDS = [f"{name}-{k}" for name, k, _ in CASES]


def rows_for(name):
    """The rows a function runs on: all of them, but those it refuses."""
    return [r for r in ROWS if not _refused(name, r)]


def groups():
    """label -> (its rows, the indices of the CASES that run on them)."""
    out = {}
    for i, (name, _, _) in enumerate(CASES):
        label = LABEL.get(name, "t")
        out.setdefault(label, (rows_for(name), []))[1].append(i)
    return out


def expected(name, options):
    column = pa.array(rows_for(name), pa.string())
    kwargs = dict(options)
    kwargs[arrow.FUNCTIONS[name].column.name] = column
    return getattr(arrow, name)(**kwargs).to_pylist()


def test_every_function_has_cases():
    assert set(OPTIONS) == set(arrow.FUNCTIONS)
    for name, func in arrow.FUNCTIONS.items():
        for p in func.options:
            if p.default is REQUIRED:
                assert p.name in NEEDED.get(name, {}), (name, p.name)


def test_the_table_describes_the_arrow_functions():
    import inspect

    for name, func in arrow.FUNCTIONS.items():
        sig = inspect.signature(getattr(arrow, name))
        params = [p for p in sig.parameters.values() if p.name != "threads"]
        assert [p.name for p in params] == [p.name for p in func.parameters], name
        for p, q in zip(params, func.parameters):
            want = REQUIRED if p.default is inspect.Parameter.empty else p.default
            if q.type == COLUMN:
                assert want is REQUIRED
            else:
                assert q.default == want, (name, q.name)
            assert q.keyword == (p.kind is inspect.Parameter.KEYWORD_ONLY), (name, q.name)
        assert str(func).startswith(func.signature())
    with pytest.raises(TypeError):
        arrow.FUNCTIONS["x"] = None  # read-only


def _plain(values):
    """Engine values as fasturi.arrow's to_pylist gives them."""
    from decimal import Decimal

    out = []
    for v in values:
        if v is None or v is pd.NA or (isinstance(v, float) and v != v):
            out.append(None)
        elif isinstance(v, Decimal):
            out.append(int(v))
        elif isinstance(v, dict):
            out.append({k: _plain([x])[0] for k, x in v.items()})
        elif hasattr(v, "asDict"):  # a Spark Row
            out.append({k: _plain([x])[0] for k, x in v.asDict().items()})
        elif hasattr(v, "item") and not isinstance(v, (str, bytes)):  # numpy scalars
            out.append(v.item())
        else:
            out.append(v)
    return out


# ---- pandas and polars: in process ---------------------------------------------


@pytest.mark.parametrize(("name", "k", "options"), CASES, ids=IDS)
def test_pandas(name, k, options):
    func = arrow.FUNCTIONS[name]
    s = pd.Series(rows_for(name), name="url", dtype="str" if pd.__version__ >= "3" else object)
    got = getattr(s.uri, name)
    if name in arrow.FIELDS and not options:
        assert _plain(got.tolist()) == expected(name, options)  # the property too
    got = got(**options)
    want = expected(name, options)
    if isinstance(got, pd.DataFrame):
        got = got.to_dict("records")
        want = [None if w is None else w for w in want]
        got = [
            None if all(v is None for v in r.values()) and w is None else r
            for r, w in zip(_plain(got), want)
        ]
    else:
        assert got.name == "url"
        got = _plain(got.tolist())
    assert got == want
    assert func.name == name


@pytest.mark.parametrize(("name", "k", "options"), CASES, ids=IDS)
def test_polars(name, k, options):
    df = pl.DataFrame({"url": pl.Series(rows_for(name), dtype=pl.String)})
    want = expected(name, options)
    expr = getattr(pl.col("url").uri, name)(**options)
    assert df.select(expr).to_series().to_list() == want
    assert df.lazy().select(expr).collect().to_series().to_list() == want
    assert getattr(df["url"].uri, name)(**options).to_list() == want


# ---- DuckDB: every call in one SELECT a connection ------------------------------------


def sql_literal(value, spark=False):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, tuple) and spark:
        return "array(" + ", ".join(sql_literal(v) for v in value) + ")"
    if isinstance(value, tuple):
        return "[" + ", ".join(sql_literal(v) for v in value) + "]::VARCHAR[]"
    raise AssertionError(value)


def sql_call(prefix, name, options, column="url", spark=False):
    """``uri_<name>(url, ...)`` with the options positional, in order, up to
    the last one given."""
    func = arrow.FUNCTIONS[name]
    params = list(sql_parameters(func))
    given = [i for i, p in enumerate(params) if p.name in options or p.type == COLUMN]
    args = []
    for p in params[: max(given) + 1]:
        if p.type == COLUMN:
            args.append(column)
        elif p.name in options:
            args.append(sql_literal(options[p.name], spark))
        else:
            args.append(sql_literal(p.default, spark) if p.default is not None else "NULL")
    return f"{prefix}{name}({', '.join(args)})"


def sql_want(name, options):
    """fasturi.arrow's rows as SQL gives them (split: every field)."""
    sql_options = {k: v for k, v in options.items() if k not in NOT_SQL}
    if name == "split":
        sql_options["fields"] = arrow.FIELDS
    if name == "whatwg_split":
        sql_options["fields"] = arrow.WHATWG_FIELDS
    return expected(name, sql_options)


def duckdb_connections():
    native = fasturi.duckdb.connect()
    plain = duckdb.connect()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (the fallback's warning)
        fasturi.duckdb.register(plain)
    return {"native": native, "arrow": plain}


@pytest.fixture(scope="module", params=["native", "arrow"])
def duck(request):
    if request.param == "native" and fasturi.duckdb.extension_path() is None:
        pytest.skip("fasturi was built without its DuckDB extension")
    con = duckdb_connections()[request.param]
    yield con
    con.close()


def test_duckdb(duck):
    for label, (rows, idx) in groups().items():
        table = pa.table({"id": range(len(rows)), "url": pa.array(rows, pa.string())})
        duck.register(f"every_{label}", table)
        calls = [sql_call("uri_", CASES[i][0], sql_options(CASES[i][2])) for i in idx]
        got = duck.sql(f"SELECT {', '.join(calls)} FROM every_{label} ORDER BY id").fetchall()
        for j, i in enumerate(idx):
            assert _plain([r[j] for r in got]) == sql_want(*CASES[i][::2]), calls[j]


def sql_options(options):
    return {k: v for k, v in options.items() if k not in NOT_SQL}


# ---- Spark: one job for the DataFrame functions, one for SQL --------------------------


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    import fasturi.spark as fs

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("fasturi-every-engine")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "1000")
        .getOrCreate()
    )
    fs.register(session)
    yield session
    session.stop()


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.filterwarnings("ignore:distutils Version classes:DeprecationWarning")
def test_spark(spark):
    import fasturi.spark as fs

    for label, (rows, idx) in groups().items():
        df = spark.createDataFrame(list(enumerate(rows)), "id long, url string").repartition(2)
        df.createOrReplaceTempView(f"every_{label}")
        # (each DataFrame function is a job step of its own: its defaults and
        # the options it is documented with here; SQL below runs every case)
        frame_cases = [i for i in idx if CASES[i][1] == 0 or CASES[i][0] == "canonicalize"]
        for i in frame_cases:
            name, _, options = CASES[i]
            if name == "resolve":
                rest = {k: v for k, v in options.items() if k != "base"}
                df = fs.resolve(df, "url", options["base"], into=f"c{i}", **rest)
            else:
                df = getattr(fs, name)(df, "url", into=f"c{i}", **options)
        got = df.orderBy("id").collect()
        for i in frame_cases:
            assert _plain([r[f"c{i}"] for r in got]) == expected(*CASES[i][::2]), IDS[i]
        # Spark SQL: uri_NAME with its options positional
        calls = [
            sql_call("uri_", CASES[i][0], sql_options(CASES[i][2]), spark=True) + f" AS c{i}"
            for i in idx
        ]
        got = spark.sql(f"SELECT id, {', '.join(calls)} FROM every_{label} ORDER BY id").collect()
        for i in idx:
            assert _plain([r[f"c{i}"] for r in got]) == sql_want(*CASES[i][::2]), IDS[i]


# ---- Dask: dataframes and bags on a two-worker cluster ------------------------------


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    )
    with cluster, Client(cluster) as c:
        yield c


def test_dask(client):
    import dask
    import dask.bag as db
    import dask.dataframe as dd

    work, order = [], []
    for rows, idx in groups().values():
        frame = dd.from_pandas(pd.DataFrame({"url": pd.Series(rows, dtype=object)}), npartitions=4)
        bag = db.from_sequence(rows, npartitions=4)
        for i in idx:
            name, _, options = CASES[i]
            work += [fd.apply(frame, "url", name, **options), fd.map_bag(bag, name, **options)]
            order.append(i)
    done = dask.compute(*work)
    for j, i in enumerate(order):
        frame, bag = done[2 * j], done[2 * j + 1]
        want = expected(*CASES[i][::2])
        if isinstance(frame, pd.DataFrame):
            records = _plain(frame.to_dict("records"))
            got = [None if w is None else r for r, w in zip(records, want)]
        else:
            got = _plain(frame.tolist())
        assert got == want, IDS[i]
        assert bag == want, IDS[i]
    assert set(fd.OPERATIONS) == set(arrow.FUNCTIONS)
