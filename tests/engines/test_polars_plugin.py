"""The ``uri`` namespace as polars plugin expressions: used wherever the
plugin is built, the same answers as the Python path (``map_batches`` over
fasturi.arrow) on the corpus with nulls, bad, empty and huge rows, sliced,
chunked and streamed, and run without the GIL."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys

import polars as pl
import pyarrow as pa
import pytest
from corpus_files import FOLDER, lines

import fasturi.polars
from fasturi import arrow
from fasturi._impl import NO_EXTENSIONS

from .conftest import EDGES

compiled = pytest.mark.compiled


@contextlib.contextmanager
def python_path():
    """Expressions built inside run through Python, as where there is no plugin."""
    saved = fasturi.polars._PLUGIN
    fasturi.polars._PLUGIN = None
    try:
        yield
    finally:
        fasturi.polars._PLUGIN = saved


def both(build):
    """``build()`` as a plugin expression and as the Python path's."""
    native = build()
    with python_path():
        python = build()
    assert "fasturi.polars_plugin" in str(native), native
    assert "python_udf" in str(python), python
    return native, python


URL = pl.col("url")

# (what, expression): every method of the namespace, with its options
CASES = [
    ("split", lambda: URL.uri.split()),
    ("split-all", lambda: URL.uri.split(arrow.FIELDS)),
    ("split-reordered", lambda: URL.uri.split(["port", "host", "scheme"])),
    ("normalize", lambda: URL.uri.normalize()),
    ("normalize-generic", lambda: URL.uri.normalize(scheme_based=False)),
    ("canonicalize", lambda: URL.uri.canonicalize()),
    ("canonicalize-kept", lambda: URL.uri.canonicalize(sort_query=False, drop_fragment=False)),
    (
        "canonicalize-drop",
        lambda: URL.uri.canonicalize(drop_params=["utm_*", "id", "", "caf\u00e9"]),
    ),
    ("is_valid", lambda: URL.uri.is_valid()),
    ("is_valid-URI", lambda: URL.uri.is_valid("URI")),
    ("is_valid-IRI", lambda: URL.uri.is_valid("IRI-reference")),
    ("is_valid-2396", lambda: URL.uri.is_valid("absoluteURI", rfc=2396)),
    ("error_position", lambda: URL.uri.error_position()),
    ("error_position-2396", lambda: URL.uri.error_position("URI-reference", rfc=2396)),
    ("resolve", lambda: URL.uri.resolve("https://a.example/b/c/d;p?q")),
    ("resolve-2396", lambda: URL.uri.resolve("http://a/b/c/d", strict=False, rfc=2396)),
    ("resolve-relative-base", lambda: URL.uri.resolve("b/c")),
    ("resolve-column", lambda: URL.uri.resolve(pl.col("base"))),
    ("resolve-literal", lambda: URL.uri.resolve(pl.lit("http://x.example/a/"))),
    *[(name, lambda name=name: getattr(URL.uri, name)()) for name in arrow.FIELDS],
]

BASES = ["http://a.example/b/c", None, "relative/base", "HTTPS://B.example/x?y#z", ""]


def frame(urls):
    return pl.DataFrame(
        {
            "url": urls,
            "base": [BASES[i % len(BASES)] for i in range(len(urls))],
            "k": [i % 7 for i in range(len(urls))],
        },
        schema={"url": pl.String, "base": pl.String, "k": pl.Int64},
    )


@pytest.fixture(scope="module")
def corpus():
    """The full corpus (or the shipped sample) with nulls and the edge rows."""
    urls = lines(FOLDER / "urls.txt")
    return frame([None if i % 97 == 13 else u for i, u in enumerate(urls)] + EDGES)


def shaped(df, shape):
    """The frame as polars may hand it over: one chunk, a slice of one
    (an offset), or several chunks."""
    if shape == "sliced":
        return df.slice(7, df.height - 20)
    if shape == "chunked":
        third = df.height // 3
        parts = [df.slice(0, third), df.slice(third, third), df.slice(2 * third)]
        out = pl.concat(parts, rechunk=False)
        assert out["url"].n_chunks() == 3
        return out
    return df


def run(df, expr, engine):
    return df.lazy().select(expr.alias("out")).collect(engine=engine)["out"]


def same(native, python):
    assert native.dtype == python.dtype
    assert native.len() == python.len()
    assert native.to_list() == python.to_list()


@compiled
def test_the_plugin_serves_every_method():
    path = fasturi.polars.plugin_path()
    assert path is not None and os.path.isfile(path)
    assert fasturi.polars.NATIVE == {
        "split",
        "normalize",
        "canonicalize",
        "is_valid",
        "error_position",
        "percent_decode",
        "resolve",
        *arrow.FIELDS,
    }
    for _, build in CASES:
        assert "fasturi.polars_plugin" in str(build())
    assert "fasturi.polars_plugin" in str(URL.uri.percent_decode())


def test_pure_mode_runs_through_python():
    # (FASTURI_NO_EXTENSIONS=1: the pure run; the compiled run has the plugin)
    assert (fasturi.polars.NATIVE == frozenset()) is NO_EXTENSIONS
    assert (fasturi.polars.plugin_path() is None) is NO_EXTENSIONS
    assert ("python_udf" in str(URL.uri.host())) is NO_EXTENSIONS


@compiled
def test_what_the_plugin_leaves_to_python():
    # Python's own decoding rules, w3lib's key, a base no polars string holds
    assert "python_udf" in str(URL.uri.percent_decode(errors="replace"))
    assert "python_udf" in str(URL.uri.canonicalize(preset="w3lib"))
    assert "python_udf" in str(URL.uri.resolve("http://a/\ud800"))


@compiled
@pytest.mark.parametrize("shape", ["plain", "sliced", "chunked"])
@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
@pytest.mark.parametrize(("what", "build"), CASES, ids=[c[0] for c in CASES])
def test_plugin_equals_python_path(corpus, shape, engine, what, build):
    native, python = both(build)
    df = shaped(corpus, shape)
    same(run(df, native, engine), run(df, python, engine))


@compiled
@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
def test_percent_decode(corpus, engine):
    # strict decoding refuses a whole column with one row whose escapes are
    # not UTF-8: the rows that decode, then one that does not
    decodable = []
    for url in corpus["url"].to_list():
        if url is not None:
            try:
                fasturi.percent_decode(url)
            except UnicodeDecodeError:
                continue
        decodable.append(url)
    native, python = both(lambda: URL.uri.percent_decode())
    df = frame(decodable)
    assert df.height > 70_000 or FOLDER.name == "data"
    same(run(df, native, engine), run(df, python, engine))
    bad = frame(["%41", None, "%C3%A9", "%ff%41"])
    # (the row is counted in the batch polars hands over: a streaming
    # engine's morsel may start anywhere)
    where = "row 3" if engine == "in-memory" else "row"
    for expr in (native, python):
        with pytest.raises(
            (ValueError, pl.exceptions.ComputeError), match=f"can.t decode.* {where}"
        ):
            run(bad, expr, engine)


HUGE = "http://" + "h" * 3_000_000 + ".example:8080/" + "p/" * 4_000_000 + "?q=" + "v" * 5_000_000
ODD = [
    "",
    None,
    HUGE,
    "#" + "f" * 20,
    "?" * 13,
    "http://u:p@[::1]:80/%7e%41?a=1&b#c",
    "\u00e9" * 7,  # 14 bytes: a view of its own, not inline
    "x" * 12,  # the longest inline view
    "x" * 13,
    HUGE[:2_000_000],
    None,
]


@compiled
@pytest.mark.parametrize(("what", "build"), CASES, ids=[c[0] for c in CASES])
def test_empty_null_and_huge_rows(what, build):
    native, python = both(build)
    # (and columns of polars' Null type, what a column of None alone is)
    nulls = pl.DataFrame({"url": [None] * 9, "base": [None] * 9})
    assert nulls.schema["url"] == pl.Null
    for df in (frame(ODD), frame([]), frame([None] * 70), frame([""] * 70), nulls):
        for engine in ("in-memory", "streaming"):
            same(run(df, native, engine), run(df, python, engine))


@compiled
@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
@pytest.mark.parametrize(("what", "build"), CASES, ids=[c[0] for c in CASES])
def test_large_columns(corpus, engine, what, build):
    # several times the corpus in one chunk: polars' streaming engine cuts
    # it into morsels for its threads; in memory, one call gets it whole
    # and cuts it into parts for threads of its own
    df = pl.concat([corpus] * 5).rechunk()
    native, python = both(build)
    same(run(df, native, engine), run(df, python, engine))


@compiled
def test_group_by_and_over(corpus):
    native, python = both(lambda: URL.uri.host())
    counts = [
        corpus.lazy()
        .group_by(expr.alias("host"))
        .agg(pl.len().alias("n"))
        .sort("host", nulls_last=True)
        .collect(engine="streaming")
        for expr in (native, python)
    ]
    assert counts[0].equals(counts[1])
    assert counts[0]["n"].sum() == corpus.height
    native, python = both(lambda: URL.uri.normalize())
    per_group = [
        corpus.group_by("k").agg(expr.alias("norm")).sort("k")["norm"].to_list()
        for expr in (native, python)
    ]
    assert per_group[0] == per_group[1]
    native, python = both(lambda: URL.uri.scheme())
    over = [corpus.select(expr.over("k").alias("s"))["s"] for expr in (native, python)]
    same(*over)


@compiled
@pytest.mark.parametrize("rfc", [3986, 2396])
def test_every_rule(corpus, rfc):
    from fasturi._impl import rules

    df = corpus.head(600)
    names = sorted(rules.RULES_3986 if rfc == 3986 else rules.RULES_2396)
    assert len(names) > 10
    for rule in names:
        for method in ("is_valid", "error_position"):
            native, python = both(lambda m=method, r=rule: getattr(URL.uri, m)(r, rfc=rfc))
            same(run(df, native, "in-memory"), run(df, python, "in-memory"))


@compiled
def test_split_unnested_runs_once():
    # polars computes an expression used several times once (its common
    # subexpressions): split's options must not keep it from that, or
    # split(...).struct.unnest() runs the plugin once a field
    df = pl.DataFrame({"url": ["http://a/b"]}).lazy()
    for engine in ("in-memory", "streaming"):
        plan = df.select(URL.uri.split(arrow.FIELDS).struct.unnest()).explain(engine=engine)
        assert plan.count("fasturi.polars_plugin:split") == 1, plan


@compiled
def test_literal_inputs():
    # a one-row column against a longer one, either way round
    df = frame(["../x", "y?z", None])
    got = df.select(pl.lit("g/h").uri.resolve(pl.col("base")).alias("r"))["r"]
    want = arrow.resolve(pa.array(df["base"].to_list(), pa.string()), ["g/h"] * 3)
    assert got.to_list() == want.to_pylist()
    assert pl.select(pl.lit("HTTP://A.b:1/").uri.host())["literal"].to_list() == ["A.b"]


def invalid_utf8(rows, bad):
    """A String column holding bytes that are not UTF-8 at row ``bad``
    (polars does not check what pyarrow hands it)."""
    data, offsets = b"", [0]
    for i in range(rows):
        data += b"http://\xff\xfe.example/" if i == bad else b"http://ok.example/%d" % i
        offsets.append(len(data))
    arr = pa.Array.from_buffers(
        pa.string(),
        rows,
        [None, pa.py_buffer(pa.array(offsets, pa.int32()).buffers()[1]), pa.py_buffer(data)],
    )
    return pl.from_arrow(arr)


@compiled
@pytest.mark.parametrize(("what", "build"), CASES, ids=[c[0] for c in CASES])
def test_invalid_utf8_is_refused_naming_the_row(what, build):
    native, python = both(build)
    col = invalid_utf8(40, 17)
    df = pl.DataFrame({"url": col, "base": ["http://a/"] * 40})
    for expr in (native, python):
        with pytest.raises(
            (ValueError, pl.exceptions.ComputeError), match="row 17 is not valid UTF-8"
        ):
            df.select(expr)
    # a base that is not UTF-8, too
    if what == "resolve-column":
        df = pl.DataFrame({"url": ["g"] * 40, "base": col})
        for expr in (native, python):
            with pytest.raises((ValueError, pl.exceptions.ComputeError), match="row 17"):
                df.select(expr)


@compiled
def test_bad_arguments():
    df = pl.DataFrame({"n": [1, 2]})
    with pytest.raises(pl.exceptions.ComputeError, match="uri.host needs a String column"):
        df.select(pl.col("n").uri.host())
    with pytest.raises(pl.exceptions.ComputeError, match="uri.resolve needs a String column"):
        pl.DataFrame({"url": ["a"], "n": [1]}).select(URL.uri.resolve(pl.col("n")))


@compiled
@pytest.mark.skipif(sys.platform == "win32", reason="no poll(2) or /dev/fd on Windows")
def test_runs_while_python_holds_the_gil():
    """A query's plugin expressions run to the end while this thread holds
    the GIL throughout: it waits in poll(2) called through ctypes.PyDLL,
    which keeps the GIL, for the result to reach a pipe that polars writes
    from its own background thread.  The Python path cannot: it needs the
    GIL for every batch."""
    df = pl.DataFrame({"url": [f"http://h{i % 977}.example/p/{i}?q={i}" for i in range(400_000)]})

    class PollFd(ctypes.Structure):
        _fields_ = [("fd", ctypes.c_int), ("events", ctypes.c_short), ("revents", ctypes.c_short)]

    libc = ctypes.PyDLL(None)
    libc.poll.argtypes = [ctypes.POINTER(PollFd), ctypes.c_ulong, ctypes.c_int]

    def arrives(expr, wait_ms):
        query = df.lazy().select(
            expr.str.len_bytes().sum().alias("host"),
            URL.uri.split(arrow.FIELDS).struct.field("path").str.len_bytes().sum().alias("path"),
        )
        query.head(10).collect()  # polars loads the plugin (it reads sys.prefix for that)
        r, w = os.pipe()
        try:
            # (running in polars' own thread once collect returns)
            running = query.sink_csv(f"/dev/fd/{w}", lazy=True).collect(background=True)
            ready = libc.poll(ctypes.byref(PollFd(r, 1, 0)), 1, wait_ms)
            running.fetch_blocking()
            return ready, os.read(r, 1000).decode().splitlines()
        finally:
            os.close(r)
            os.close(w)

    hosts = sum(len(f"h{i % 977}.example") for i in range(400_000))
    paths = sum(len(f"/p/{i}") for i in range(400_000))
    native, python = both(lambda: URL.uri.host())
    ready, text = arrives(native, 120_000)
    assert ready == 1
    assert text == ["host,path", f"{hosts},{paths}"]
    # the Python path waits for this thread: nothing arrives while it holds the GIL
    with python_path():
        ready, text = arrives(python, 500)
    assert ready == 0
    assert text == ["host,path", f"{hosts},{paths}"]
