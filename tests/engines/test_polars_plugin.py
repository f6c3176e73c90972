"""The ``uri`` namespace as polars plugin expressions: used wherever the
plugin is built, the same answers as the Python path (``map_batches`` over
fasturi.arrow) on the corpus with nulls, bad, empty and huge rows, sliced,
chunked and streamed, and run without the GIL."""

from __future__ import annotations

import contextlib
import ctypes
import inspect
import os
import sys

import polars as pl
import pyarrow as pa
import pytest
from corpus_files import FOLDER, lines

import fasturi
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


def served_by(build):
    """Who computes the rows of the expression ``build()`` makes: "python"
    where polars calls back into ``fasturi.arrow`` while it collects (the
    Python path), "plugin" where no Python runs then.  (Told by what runs,
    not by the expression's text, which polars prints differently from
    release to release.)"""
    calls = []
    saved = {name: getattr(arrow, name) for name in arrow.FUNCTIONS}

    def counted(name, func):
        def call(*args, **kwargs):
            calls.append(name)
            return func(*args, **kwargs)

        return call

    try:
        for name, func in saved.items():
            setattr(arrow, name, counted(name, func))
        expr = build()
        calls.clear()  # (building it checks its options on no rows)
        try:
            frame(["http://u@a.example:1/b/../c?d=%41#e", None, "g"]).select(expr.alias("out"))
        except (ValueError, pl.exceptions.ComputeError):  # (a base no string holds, say)
            pass
    finally:
        for name, func in saved.items():
            setattr(arrow, name, func)
    return "python" if calls else "plugin"


def both(build):
    """``build()`` as a plugin expression and as the Python path's."""
    native = build()
    with python_path():
        python = build()
    return native, python


def test_served_by_tells_the_paths_apart():
    with python_path():
        assert served_by(lambda: URL.uri.host()) == "python"
        assert served_by(lambda: URL.uri.resolve(pl.col("base"))) == "python"
    assert served_by(lambda: URL.uri.host()) == ("python" if NO_EXTENSIONS else "plugin")


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
    ("registrable_domain", lambda: URL.uri.registrable_domain()),
    ("registrable_domain-private", lambda: URL.uri.registrable_domain(private=True)),
    ("public_suffix", lambda: URL.uri.public_suffix()),
    ("public_suffix-private", lambda: URL.uri.public_suffix(private=True)),
    ("fingerprint", lambda: URL.uri.fingerprint()),
    ("fingerprint-drop", lambda: URL.uri.fingerprint(sort_query=False, drop_params=["utm_*"])),
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
    ("query_param", lambda: URL.uri.query_param("utm_source")),
    ("query_param-written", lambda: URL.uri.query_param("q", decode=False)),
    ("query_param-empty-name", lambda: URL.uri.query_param("")),
    ("query_param-non-ascii", lambda: URL.uri.query_param("\u00e9 x")),
    ("remove_params", lambda: URL.uri.remove_params(["utm_*", "i?", "\u00e9*"])),
    ("remove_params-none", lambda: URL.uri.remove_params([])),
    ("path_extension", lambda: URL.uri.path_extension()),
    ("subdomain", lambda: URL.uri.subdomain()),
    ("subdomain-private", lambda: URL.uri.subdomain(private=True)),
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
        "fingerprint",
        "registrable_domain",
        "public_suffix",
        "is_valid",
        "error_position",
        "percent_decode",
        "resolve",
        "query_param",
        "remove_params",
        "path_extension",
        "subdomain",
        *arrow.FIELDS,
    }
    for _, build in CASES:
        assert served_by(build) == "plugin"
    assert served_by(lambda: URL.uri.percent_decode()) == "plugin"


def test_pure_mode_runs_through_python():
    # (FASTURI_NO_EXTENSIONS=1: the pure run; the compiled run has the plugin)
    assert (fasturi.polars.NATIVE == frozenset()) is NO_EXTENSIONS
    assert (fasturi.polars.plugin_path() is None) is NO_EXTENSIONS
    assert (served_by(lambda: URL.uri.host()) == "python") is NO_EXTENSIONS


@compiled
def test_what_the_plugin_leaves_to_python():
    # Python's own decoding rules, w3lib's key, a base no polars string holds
    assert served_by(lambda: URL.uri.percent_decode(errors="replace")) == "python"
    assert served_by(lambda: URL.uri.canonicalize(preset="w3lib")) == "python"
    assert served_by(lambda: URL.uri.resolve("http://a/\ud800")) == "python"
    assert served_by(lambda: URL.uri.query_param("\ud800")) == "python"
    assert served_by(lambda: URL.uri.remove_params(["a", "\ud800"])) == "python"
    # (not carried yet: list results)
    assert served_by(lambda: URL.uri.query_params()) == "python"


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
    # (the plan polars will run names each plugin call once; polars 1.0
    # has no Expr.struct.unnest, and its explain() no engine=)
    df = pl.DataFrame({"url": ["http://a/b"]}).lazy()
    split = URL.uri.split(arrow.FIELDS)
    queries = [df.select([split.struct.field(name) for name in arrow.FIELDS])]
    if hasattr(split.struct, "unnest"):
        queries.append(df.select(split.struct.unnest()))
    engines = ["in-memory", "streaming"]
    if "engine" not in inspect.signature(pl.LazyFrame.explain).parameters:
        engines = [None]
    for query in queries:
        for engine in engines:
            plan = query.explain() if engine is None else query.explain(engine=engine)
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
    # (polars 1.0 reports an error of a function of several columns, as
    # resolve against a column of bases is on the Python path, as a panic
    # with the function's message; later releases as a ComputeError)
    refused = (ValueError, pl.exceptions.ComputeError, pl.exceptions.PanicException)
    for expr in (native, python):
        with pytest.raises(refused, match="row 17 is not valid UTF-8"):
            df.select(expr)
    # a base that is not UTF-8, too
    if what == "resolve-column":
        df = pl.DataFrame({"url": ["g"] * 40, "base": col})
        for expr in (native, python):
            with pytest.raises(refused, match="row 17"):
                df.select(expr)


@compiled
def test_bad_arguments():
    df = pl.DataFrame({"n": [1, 2]})
    with pytest.raises(pl.exceptions.ComputeError, match="uri.host needs a String column"):
        df.select(pl.col("n").uri.host())
    with pytest.raises(pl.exceptions.ComputeError, match="uri.resolve needs a String column"):
        pl.DataFrame({"url": ["a"], "n": [1]}).select(URL.uri.resolve(pl.col("n")))


#: polars 1.x's later releases make a sink a lazy query (``lazy=True``)
#: that can run in polars' own background thread.
LAZY_SINKS = "lazy" in inspect.signature(pl.LazyFrame.sink_csv).parameters


def _sink_in_background(query, fd):
    """Starts ``query`` writing CSV to the file descriptor ``fd`` in polars'
    own threads, and returns a callable that waits for the end.  Once this
    returns, the query needs no Python to go on (where it is the plugin's)."""
    import linecache
    import threading
    import time

    if LAZY_SINKS:
        # (a lazy sink run in the background: collect returns at once)
        running = query.sink_csv(f"/dev/fd/{fd}", lazy=True).collect(background=True)
        return running.fetch_blocking

    # polars before lazy sinks: the sink runs in a thread of ours, which
    # lets go of the GIL once it is inside polars' own sink_csv call
    def sink():
        query.sink_csv(f"/dev/fd/{fd}")

    def inside(thread):
        frame = sys._current_frames().get(thread.ident)
        while frame is not None:
            line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
            if "polars" in frame.f_code.co_filename and ".sink_csv(" in line:
                return True
            frame = frame.f_back
        return False

    thread = threading.Thread(target=sink)
    thread.start()
    for _ in range(100_000):  # (sleeping lets the thread run)
        if inside(thread) or not thread.is_alive():
            break
        time.sleep(0.001)
    else:
        raise AssertionError("polars' sink_csv was never called")
    time.sleep(0.01)  # past the call's first instructions, into polars
    return thread.join


@compiled
@pytest.mark.skipif(sys.platform == "win32", reason="no poll(2) or /dev/fd on Windows")
def test_runs_while_python_holds_the_gil():
    """A query's plugin expressions run to the end while this thread holds
    the GIL throughout: it waits in poll(2) called through ctypes.PyDLL,
    which keeps the GIL, for the result to reach a pipe that polars writes
    from its own threads.  The Python path cannot: it needs the GIL for
    every batch."""
    df = pl.DataFrame({"url": [f"http://h{i % 977}.example/p/{i}?q={i}" for i in range(400_000)]})

    class PollFd(ctypes.Structure):
        _fields_ = [("fd", ctypes.c_int), ("events", ctypes.c_short), ("revents", ctypes.c_short)]

    libc = ctypes.PyDLL(None)
    libc.poll.argtypes = [ctypes.POINTER(PollFd), ctypes.c_ulong, ctypes.c_int]

    def arrives(expr, wait_ms):
        query = df.lazy().select(
            expr.str.len_bytes().alias("host"),
            URL.uri.split(arrow.FIELDS).struct.field("path").str.len_bytes().alias("path"),
        )
        if LAZY_SINKS:
            # (the sums: nothing reaches the pipe before the last batch is
            # done; the older streaming engine cannot sink them, but runs a
            # Python path's batches only when it gets the GIL)
            query = query.select(pl.all().sum())
        query.head(10).collect()  # polars loads the plugin (it reads sys.prefix for that)
        r, w = os.pipe()
        try:
            finish = _sink_in_background(query, w)
            ready = libc.poll(ctypes.byref(PollFd(r, 1, 0)), 1, wait_ms)
            # (the rows fill the pipe: read them while the query finishes)
            chunks = []
            with os.fdopen(r, "rb", closefd=False) as pipe:
                import threading

                reader = threading.Thread(target=lambda: chunks.append(pipe.read()))
                reader.start()
                finish()
                os.close(w)
                w = -1
                reader.join()
            return ready, chunks[0].decode().splitlines()
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)

    rows = [(len(f"h{i % 977}.example"), len(f"/p/{i}")) for i in range(400_000)]
    if LAZY_SINKS:
        rows = [tuple(map(sum, zip(*rows)))]
    rows = [f"{host},{path}" for host, path in rows]
    native, python = both(lambda: URL.uri.host())
    ready, text = arrives(native, 120_000)
    assert ready == 1
    assert text == ["host,path", *rows]
    # the Python path waits for this thread: nothing arrives while it holds the GIL
    with python_path():
        ready, text = arrives(python, 500)
    assert ready == 0
    assert text == ["host,path", *rows]


@compiled
def test_public_suffix_list_of_unicode_hosts():
    # str.lower beyond ASCII, as fasturi's scalar functions lower a host
    from .test_duckdb_native import unicode_hosts

    hosts = unicode_hosts()
    urls = hosts + [f"https://u@{h}:8080/p" for h in hosts[::3]]
    df = pl.DataFrame({"url": urls})
    for private in (False, True):
        got = df.select(
            URL.uri.registrable_domain(private=private).alias("d"),
            URL.uri.public_suffix(private=private).alias("s"),
        )
        want_d = [fasturi.registrable_domain(u, private=private) for u in urls]
        want_s = [fasturi.public_suffix(u, private=private) for u in urls]
        assert got["d"].to_list() == want_d
        assert got["s"].to_list() == want_s


@compiled
def test_another_public_suffix_list(tmp_path):
    # the plugin reads the list the scalar functions use; an expression made
    # with one list refuses to run on another, saying so
    before = URL.uri.registrable_domain()
    df = pl.DataFrame({"url": ["https://a.b.example.test/", "https://www.bbc.co.uk/"]})
    path = tmp_path / "psl.dat"
    path.write_text("// ===BEGIN ICANN DOMAINS===\ntest\nexample.test\n"
                    "// ===END ICANN DOMAINS===\n", "utf-8")  # fmt: skip
    fasturi.load_public_suffix_list(str(path))
    try:
        after = URL.uri.registrable_domain()
        assert served_by(lambda: URL.uri.registrable_domain()) == "plugin"
        want = [fasturi.registrable_domain(u) for u in df["url"]]
        assert want == ["b.example.test", "co.uk"]  # (the list's implicit "*" rule)
        assert df.select(after)["url"].to_list() == want
        with pytest.raises(pl.exceptions.ComputeError, match="not the one loaded"):
            df.select(before)
    finally:
        fasturi.load_public_suffix_list(None)
    want = [fasturi.registrable_domain(u) for u in df["url"]]
    assert want[1] == "bbc.co.uk"
    assert df.select(URL.uri.registrable_domain())["url"].to_list() == want
