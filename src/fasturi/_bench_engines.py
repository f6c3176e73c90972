"""``fasturi bench`` rows for the column functions and the engine paths.

Each entry's factory imports what it needs (an absent library is reported
"not timed" by the caller) and returns ``setup(urls, pairs)``, which builds
the input outside the timing (an Arrow column, a DataFrame, a DuckDB table)
and returns the zero-argument job that is timed.  Rows sit in the group of
their operation, so "x fasturi" compares each with the scalar function in a
loop; each engine path is followed by the engine's own way to do the same.

Every engine path here runs in this process, so its CPU time is the work.
Spark is left out: its executors are other processes, and on a corpus of a
few thousand URLs a job's fixed cost hides the per-row cost;
benchmarks/engines.py times it on millions of rows.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple, cast

Pairs = List[Tuple[str, str]]
Setup = Callable[[List[str], Pairs], Callable[[], Any]]
# (operation, label, kind, factory, note), as _cli.BENCH; kind is "setup".
Entry = Tuple[str, str, str, Callable[[], Setup], str]

# RFC 3986 Appendix B, and the host out of its authority (IP literal kept).
APPENDIX_B = r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?"
HOST_REGEX = r"^(?:[^:/?#]+:)?//(?:[^/?#@]*@)?(\[[^\]/?#]*\]|[^:/?#]*)"


def _pyarrow() -> Any:
    import pyarrow as pa

    return pa


def _column(name: str) -> Callable[[], Setup]:
    def factory() -> Setup:
        from . import arrow

        pa = _pyarrow()
        func = getattr(arrow, name)

        def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
            col = pa.array(urls, pa.string())
            return lambda: func(col)

        return setup

    return factory


def _column_resolve() -> Setup:
    from . import arrow

    pa = _pyarrow()

    def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
        bases = pa.array([b for b, _ in pairs], pa.string())
        refs = pa.array([r for _, r in pairs], pa.string())
        return lambda: arrow.resolve(bases, refs)

    return setup


def _pandas(accessor: bool) -> Callable[[], Setup]:
    def factory() -> Setup:
        import pandas as pd

        import fasturi

        from . import pandas as _registers_uri  # noqa: F401

        def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
            s = pd.Series(pd.arrays.ArrowExtensionArray(_pyarrow().array(urls)))
            if accessor:
                return lambda: s.uri.normalize()
            return lambda: s.map(fasturi.normalize)

        return setup

    return factory


def _polars(ours: bool) -> Callable[[], Setup]:
    def factory() -> Setup:
        import polars as pl

        from . import polars as _registers_uri  # noqa: F401

        def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
            df = pl.DataFrame({"url": urls}, schema={"url": pl.String})
            expr = (
                # (.uri is the namespace fasturi.polars registers at import)
                cast(Any, pl.col("url")).uri.split()
                if ours
                else pl.col("url").str.extract_groups(APPENDIX_B)
            )
            return lambda: df.select(expr)

        return setup

    return factory


def _duckdb(ours: bool) -> Callable[[], Setup]:
    def factory() -> Setup:
        from . import duckdb as fduckdb

        def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
            con = fduckdb.connect()  # the extension, where it is built
            con.register("urls", _pyarrow().table({"url": urls}))
            host = "uri_host(url)" if ours else f"regexp_extract(url, '{HOST_REGEX}', 1)"
            sql = f"SELECT {host} AS host, count(*) FROM urls GROUP BY host"
            return lambda: con.sql(sql).fetchall()

        return setup

    return factory


def _dask() -> Setup:
    import dask.dataframe as dd
    import pandas as pd

    from . import dask as fd

    def setup(urls: List[str], pairs: Pairs) -> Callable[[], Any]:
        ddf = dd.from_pandas(  # type: ignore[no-untyped-call]
            pd.DataFrame({"url": urls}), npartitions=4
        )
        job = fd.apply(ddf, "url", "normalize")
        # threads in this process: the kernels' CPU time is counted
        return lambda: job.compute(scheduler="threads")

    return setup


_ARROW = "fasturi.arrow: whole column, every core"

ENTRIES: List[Entry] = [
    ("split", "fasturi.arrow.split", "setup", _column("split"), _ARROW),
    ("split", "polars .uri.split()", "setup", _polars(True), ""),
    ("split", "polars str.extract_groups", "setup", _polars(False), "RFC 3986 Appendix B regex"),
    ("split", "duckdb uri_host GROUP BY", "setup", _duckdb(True), "extension; host, then GROUP BY"),
    (
        "split",
        "duckdb regexp_extract GROUP BY",
        "setup",
        _duckdb(False),
        "host regex, then GROUP BY",
    ),
    ("resolve", "fasturi.arrow.resolve", "setup", _column_resolve, _ARROW + "; base column"),
    ("normalize", "fasturi.arrow.normalize", "setup", _column("normalize"), _ARROW),
    ("normalize", "pandas .uri.normalize()", "setup", _pandas(True), "Arrow-backed Series"),
    ("normalize", "pandas Series.map", "setup", _pandas(False), "Series.map(fasturi.normalize)"),
    (
        "normalize",
        "fasturi.dask.apply normalize",
        "setup",
        _dask,
        "4 partitions, threaded scheduler",
    ),
    ("canonicalize", "fasturi.arrow.canonicalize", "setup", _column("canonicalize"), _ARROW),
    ("is_valid", "fasturi.arrow.is_valid", "setup", _column("is_valid"), _ARROW),
]

#: The rows that run fasturi (drawn in fasturi's colour by ``--plot``).
OURS = {
    "polars .uri.split()",
    "duckdb uri_host GROUP BY",
    "pandas .uri.normalize()",
}
