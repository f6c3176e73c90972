"""The ``uri`` namespace on polars expressions and Series (docs/reference.md §7).

Importing this module registers it::

    import polars as pl
    import fasturi.polars  # noqa: F401  (registers .uri)

    df.with_columns(pl.col("url").uri.normalize().alias("norm"))
    df.select(pl.col("url").uri.split(["scheme", "host"]).struct.unnest())
    (pl.scan_parquet("logs/*.parquet")
       .group_by(pl.col("url").uri.host().alias("host"))
       .agg(pl.len()))

Every method runs the ``fasturi.arrow`` function of the same name on whole
columns (``map_batches``, marked elementwise, so polars may stream it, split
it across chunks and push it into ``group_by``), with its result type
declared, so lazy queries know their schema before they run.  A null gives
a null.  ``pl.Series`` gets the same namespace (``s.uri.host()``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

import polars as pl

from . import arrow

__all__ = ["UriExpr", "UriSeries"]


def _struct(fields: Iterable[str]) -> pl.Struct:
    return pl.Struct({name: pl.String for name in fields})


class _Uri:
    """The methods, written once over ``_run(function, dtype)``."""

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        raise NotImplementedError

    def split(
        self, fields: Iterable[str] = arrow._DEFAULT_FIELDS, *, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.split``: a struct with one String field per component."""
        names = fields if isinstance(fields, str) else tuple(fields)
        # Checked now, by arrow.split itself: a bad field fails where the
        # query is written, not when it runs.
        arrow.split([], names)
        return self._run(lambda s: arrow.split(s, names, threads=threads), _struct(names))

    def normalize(self, *, scheme_based: bool = True, threads: Optional[int] = None) -> Any:
        """``fasturi.arrow.normalize`` (RFC 3986 §6.2.2, §6.2.3)."""
        return self._run(
            lambda s: arrow.normalize(s, scheme_based=scheme_based, threads=threads), pl.String
        )

    def canonicalize(self, *, threads: Optional[int] = None, **options: Any) -> Any:
        """``fasturi.arrow.canonicalize`` (``sort_query``, ``drop_fragment``,
        ``drop_params``)."""
        arrow.canonicalize([], **options)
        return self._run(lambda s: arrow.canonicalize(s, threads=threads, **options), pl.String)

    def is_valid(
        self, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.is_valid``: a Boolean column."""
        arrow.is_valid([], rule, rfc=rfc)
        return self._run(lambda s: arrow.is_valid(s, rule, rfc=rfc, threads=threads), pl.Boolean)

    def error_position(
        self, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.error_position``: an Int32 column, null where valid."""
        arrow.error_position([], rule, rfc=rfc)
        return self._run(
            lambda s: arrow.error_position(s, rule, rfc=rfc, threads=threads), pl.Int32
        )

    def percent_decode(self, *, errors: str = "strict", threads: Optional[int] = None) -> Any:
        """``fasturi.arrow.percent_decode``."""
        arrow.percent_decode([], errors=errors)
        return self._run(
            lambda s: arrow.percent_decode(s, errors=errors, threads=threads), pl.String
        )

    def _field(self, name: str, threads: Optional[int]) -> Any:
        def one(s: Any) -> Any:
            return arrow.split(s, (name,), threads=threads).struct.field(name)

        return self._run(one, pl.String)

    def scheme(self, *, threads: Optional[int] = None) -> Any:
        """The scheme of every URI (null where undefined)."""
        return self._field("scheme", threads)

    def authority(self, *, threads: Optional[int] = None) -> Any:
        """The authority of every URI (null where undefined)."""
        return self._field("authority", threads)

    def userinfo(self, *, threads: Optional[int] = None) -> Any:
        """The userinfo of every URI (null where undefined)."""
        return self._field("userinfo", threads)

    def host(self, *, threads: Optional[int] = None) -> Any:
        """The host of every URI (null where there is no authority)."""
        return self._field("host", threads)

    def port(self, *, threads: Optional[int] = None) -> Any:
        """The port text of every URI (null where there is no ``:``)."""
        return self._field("port", threads)

    def path(self, *, threads: Optional[int] = None) -> Any:
        """The path of every URI (always defined, maybe empty)."""
        return self._field("path", threads)

    def query(self, *, threads: Optional[int] = None) -> Any:
        """The query of every URI (null where undefined)."""
        return self._field("query", threads)

    def fragment(self, *, threads: Optional[int] = None) -> Any:
        """The fragment of every URI (null where undefined)."""
        return self._field("fragment", threads)


@pl.api.register_expr_namespace("uri")
class UriExpr(_Uri):
    """``pl.col(...).uri``: expressions that run ``fasturi.arrow`` on whole columns."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        return self._expr.map_batches(func, return_dtype=dtype, is_elementwise=True)

    def resolve(
        self, base: Any, *, strict: bool = True, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """Every reference resolved against ``base`` (RFC 3986 §5.2): a
        ``str`` for every row, or an expression giving one base per row."""
        arrow.resolve("http://a/", [], strict=strict, rfc=rfc)
        if isinstance(base, str):
            return self._run(
                lambda s: arrow.resolve(base, s, strict=strict, rfc=rfc, threads=threads),
                pl.String,
            )

        def each(cols: Any) -> Any:
            refs, bases = cols
            if len(bases) == 1 and len(refs) != 1:  # a literal base: broadcast it
                bases = bases.new_from_index(0, len(refs))
            return arrow.resolve(bases, refs, strict=strict, rfc=rfc, threads=threads)

        # refs first: the result takes the name of the first expression
        return pl.map_batches([self._expr, base], each, return_dtype=pl.String, is_elementwise=True)


@pl.api.register_series_namespace("uri")
class UriSeries(_Uri):
    """``series.uri``: the same methods, run at once on a Series."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        return func(self._series)

    def resolve(
        self, base: Any, *, strict: bool = True, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """Every reference resolved against ``base`` (a ``str`` or a Series)."""
        return arrow.resolve(base, self._series, strict=strict, rfc=rfc, threads=threads)
