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
from fasturi._functions import COLUMN, REQUIRED, WHATWG_SETTERS, sql_parameters

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
    "whatwg_replace": [
        {"hash": "x", "pathname": "/p q", "search": "a=1"},
        {"protocol": "https", "port": "8443", "username": "u", "host": "example.org:81"},
        {"href": "http://other.example/?z", "hostname": "h.example", "password": "p"},
    ],
    "whatwg_search_params": [{"base": BASE}],
    "query_param": [{"decode": False}, {"name": "a"}, {"name": "a b", "decode": False}],
    "query_params": [{"decode": False}],
    "remove_params": [{"patterns": ("utm_*", "i?", "ä")}],
    "path_extension": [],
    "path_hierarchy": [],
    "subdomain": [{"private": True}],
    **{name: [] for name in arrow.FIELDS},
}
# The options a function needs (its required ones), in every case.
NEEDED = {
    "resolve": {"base": BASE},
    "query_param": {"name": "id"},
    "remove_params": {"patterns": ()},
}
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


def test_whatwg_replace_none_is_a_setter_not_applied():
    # (SQL's positional form passes every setter, NULL where unset)
    col = pa.array(ROWS, pa.string())
    want = arrow.whatwg_replace(col, search="a=1", hash="x").to_pylist()
    given = dict.fromkeys(WHATWG_SETTERS)
    given.update(search="a=1", hash="x")
    assert arrow.whatwg_replace(col, **given).to_pylist() == want
    assert want != arrow.whatwg_replace(col).to_pylist()
    with pytest.raises(TypeError, match="hash"):
        arrow.whatwg_replace(col, hash=1)


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
        elif isinstance(v, (list, tuple)) or type(v).__name__ == "ndarray":  # list results
            out.append(_plain(list(v)))
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


def polars_rows(s):
    """A polars Series' rows, a null one None (polars 1.0's to_list gives
    a null struct as a struct of nulls; is_null tells them apart)."""
    return [None if null else v for v, null in zip(s.to_list(), s.is_null().to_list())]


@pytest.mark.parametrize(("name", "k", "options"), CASES, ids=IDS)
def test_polars(name, k, options):
    df = pl.DataFrame({"url": pl.Series(rows_for(name), dtype=pl.String)})
    want = expected(name, options)
    expr = getattr(pl.col("url").uri, name)(**options)
    assert polars_rows(df.select(expr).to_series()) == want
    assert polars_rows(df.lazy().select(expr).collect().to_series()) == want
    assert polars_rows(getattr(df["url"].uri, name)(**options)) == want


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
    if name == "whatwg_replace":  # positional: the setters in the standard's order
        sql_options = {k: sql_options[k] for k in WHATWG_SETTERS if k in sql_options}
    return expected(name, sql_options)


#: DuckDB before 1.2 cannot load the extension (built on C API v1.2.0):
#: there connect() gives the Arrow path too, warning once.
OLDER_DUCKDB = tuple(int(x) for x in duckdb.__version__.split(".")[:2]) < (1, 2)


@pytest.fixture(scope="module", params=["connect", "arrow"])
def duck(request, monkeypatch_module):
    """A connection of fasturi.duckdb.connect() (the extension, where this
    DuckDB loads it), or one where register() falls back to Arrow."""
    monkeypatch_module.setattr(fasturi.duckdb, "_warned", False)
    falls_back = request.param == "arrow" or OLDER_DUCKDB
    if fasturi.duckdb.extension_path() is None:
        falls_back = True  # (a fasturi built without a C compiler)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        if request.param == "connect":
            con = fasturi.duckdb.connect()
        else:
            con = fasturi.duckdb.register(duckdb.connect())
    said = [str(w.message) for w in record if "fasturi.duckdb" in str(w.message)]
    assert len(said) == falls_back, said
    yield con
    con.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


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


# ---- Spark: one job for the DataFrame functions, one SQL query a table -----------------


def frame_call(fs, df, name, options):
    """``fasturi.spark.<name>(df, "url", **options)`` into column "out"."""
    if name == "resolve":
        rest = {k: v for k, v in options.items() if k != "base"}
        return fs.resolve(df, "url", options["base"], into="out", **rest)
    return getattr(fs, name)(df, "url", into="out", **options)


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.filterwarnings("ignore:distutils Version classes:DeprecationWarning")
def test_spark(spark):
    import json
    from functools import reduce

    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F

    import fasturi.spark as fs

    fs.register(spark)
    # The DataFrame functions (their defaults, and canonicalize's options):
    # each on the URLs alone, their rows as JSON, every case a branch of one
    # union, so one job runs them all with one Python worker a task (a
    # chain of them would hold a worker a function in every task).
    frames, branches = {}, []
    for label, (rows, idx) in groups().items():
        df = spark.createDataFrame(list(enumerate(rows)), "id long, url string").repartition(2)
        df.createOrReplaceTempView(f"every_{label}")
        frames[label] = rows
        for i in idx:
            name, k, options = CASES[i]
            if k == 0 or name == "canonicalize":
                out = frame_call(fs, df, name, options)
                value = F.struct(F.col("out").alias("v"))
                as_json = F.to_json(value, {"ignoreNullFields": "false"}).alias("v")
                branches.append(out.select(F.lit(i).alias("case"), "id", as_json))
    got = {}
    for row in reduce(DataFrame.unionAll, branches).collect():
        got.setdefault(row["case"], {})[row["id"]] = json.loads(row["v"])["v"]
    assert len(got) == len(branches)
    for i, by_id in got.items():
        assert [by_id[j] for j in range(len(by_id))] == expected(*CASES[i][::2]), IDS[i]
    # Spark SQL: uri_NAME with its options positional, every case in one query a table
    for label, (rows, idx) in groups().items():
        calls = [
            sql_call("uri_", CASES[i][0], sql_options(CASES[i][2]), spark=True) + f" AS c{i}"
            for i in idx
        ]
        got = spark.sql(f"SELECT id, {', '.join(calls)} FROM every_{label} ORDER BY id").collect()
        assert [r["id"] for r in got] == list(range(len(rows)))
        for i in idx:
            want = spark_sql_want(*CASES[i][::2])
            assert _plain([r[f"c{i}"] for r in got]) == want, IDS[i]


def spark_sql_want(name, options):
    """What Spark SQL's uri_NAME gives: fasturi.arrow's rows, but that where
    register() makes pandas UDFs (Spark before 4.1), a struct result's null
    row is a struct of nulls (a pandas UDF has no way to give a null struct)."""
    from pyspark.sql import functions as F

    want = sql_want(name, options)
    if name in ("split", "whatwg_split") and not hasattr(F, "arrow_udf"):
        fields = arrow.FIELDS if name == "split" else arrow.WHATWG_FIELDS
        want = [dict.fromkeys(fields) if w is None else w for w in want]
    return want


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

    frames, bags, order = [], [], []
    for rows, idx in groups().values():
        frame = dd.from_pandas(pd.DataFrame({"url": pd.Series(rows, dtype=object)}), npartitions=4)
        bag = db.from_sequence(rows, npartitions=4)
        for i in idx:
            name, _, options = CASES[i]
            frames.append(fd.apply(frame, "url", name, **options))
            bags.append(fd.map_bag(bag, name, **options))
            order.append(i)
    # (one compute each: Dask warns when one mixes dataframes, which are
    # expressions, with bags, which are graphs)
    done_frames, done_bags = dask.compute(*frames), dask.compute(*bags)
    for j, i in enumerate(order):
        frame, bag = done_frames[j], done_bags[j]
        want = expected(*CASES[i][::2])
        if isinstance(frame, pd.DataFrame):
            records = _plain(frame.to_dict("records"))
            got = [None if w is None else r for r, w in zip(records, want)]
        else:
            got = _plain(frame.tolist())
        assert got == want, IDS[i]
        assert bag == want, IDS[i]
    assert set(fd.OPERATIONS) == set(arrow.FUNCTIONS)
