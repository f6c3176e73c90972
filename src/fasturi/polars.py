"""The ``uri`` namespace on polars expressions and Series (docs/reference.md §7).

Importing this module registers it::

    import polars as pl
    import fasturi.polars  # noqa: F401  (registers .uri)

    df.with_columns(pl.col("url").uri.normalize().alias("norm"))
    df.select(pl.col("url").uri.split(["scheme", "host"]).struct.unnest())
    (pl.scan_parquet("logs/*.parquet")
       .group_by(pl.col("url").uri.host().alias("host"))
       .agg(pl.len()))

An expression method runs as a polars plugin expression: the package's
``fasturi.polars_plugin``, built from fasturi's C core, is called by polars
on its own threads with polars' own Arrow chunks, without Python or the GIL
(lazy queries, the streaming engine, ``group_by``, ``over``).  Its options
travel as literal arguments, one row each.  Where the plugin cannot serve
(a package built without it, ``FASTURI_NO_EXTENSIONS=1``, the w3lib preset,
``percent_decode(errors=...)`` other than "strict", a base ``str`` or a
``drop_params`` name that is not UTF-8), the method runs the ``fasturi.arrow`` function of the same name
on whole columns through ``map_batches``, with the same results.  Either way
it is marked elementwise, with its result type declared, so lazy queries
know their schema before they run.  A null gives a null.  ``threads``
applies to the Python path: a plugin expression runs on the polars threads
that call it, polars spreading a query's chunks over them (its streaming
engine cuts a column into morsels), and a call of a whole large column (as
polars' in-memory engine makes) is cut over threads of the plugin's own.  ``pl.Series`` gets the same
namespace (``s.uri.host()``), which runs the ``fasturi.arrow`` kernels on
the Series at once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import polars as pl
from polars.plugins import register_plugin_function

from . import arrow
from ._impl import NO_EXTENSIONS

__all__ = ["NATIVE", "UriExpr", "UriSeries", "plugin_path"]

_PLUGIN_FILE = "fasturi.polars_plugin"


def _plugin_file() -> Optional[Path]:
    # FASTURI_POLARS_PLUGIN names another build of it (one built with the
    # sanitizers, say)
    given = os.environ.get("FASTURI_POLARS_PLUGIN")
    path = Path(given) if given else Path(__file__).with_name(_PLUGIN_FILE)
    return path if path.is_file() and not NO_EXTENSIONS else None


_PLUGIN = _plugin_file()

#: The ``Expr.uri`` methods that run as plugin expressions (some only with
#: the options named in the module's docstring); empty where the plugin is
#: not there or ``FASTURI_NO_EXTENSIONS`` is set.
NATIVE = (
    frozenset(
        ["split", "normalize", "canonicalize", "is_valid", "error_position", "percent_decode"]
        + ["resolve", *arrow.FIELDS]
    )
    if _PLUGIN is not None
    else frozenset()
)


def plugin_path() -> Optional[str]:
    """The path of the plugin file the ``uri`` expressions run, or None where
    they run through Python."""
    return None if _PLUGIN is None else str(_PLUGIN)


def _plugin(name: str, *args: Any) -> Any:
    assert _PLUGIN is not None  # (callers look first)
    return register_plugin_function(
        plugin_path=_PLUGIN, function_name=name, args=list(args), is_elementwise=True
    )


def _rfc(rfc: int) -> Any:
    return pl.lit(int(rfc), dtype=pl.Int32)


def _struct(fields: Iterable[str]) -> pl.Struct:
    return pl.Struct({name: pl.String for name in fields})


class _Uri:
    """The methods, written once over ``_run(function, dtype)`` (the Python
    path) and ``_native(name, *args)`` (a plugin expression, or None where
    there is none: then ``_run``)."""

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        raise NotImplementedError

    def _native(self, name: str, *args: Any) -> Any:
        return None

    def split(
        self, fields: Iterable[str] = arrow._DEFAULT_FIELDS, *, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.split``: a struct with one String field per component."""
        names = fields if isinstance(fields, str) else tuple(fields)
        # Checked now, by arrow.split itself: a bad field fails where the
        # query is written, not when it runs.
        arrow.split([], names)
        # the fields as the field names of a one-row Struct of literals: the
        # plugin's schema function sees them too.  (Not a null Struct
        # literal: polars leaves an expression holding one out of its common
        # subexpressions, and split(...).struct.unnest() then ran the plugin
        # once a field; nor a Struct literal of values, which polars 1.0
        # cannot make.)
        spec = pl.struct([pl.lit("", dtype=pl.String).alias(name) for name in names])
        native = self._native("split", spec)
        if native is not None:
            return native
        return self._run(lambda s: arrow.split(s, names, threads=threads), _struct(names))

    def normalize(self, *, scheme_based: bool = True, threads: Optional[int] = None) -> Any:
        """``fasturi.arrow.normalize`` (RFC 3986 §6.2.2, §6.2.3)."""
        native = self._native("normalize", pl.lit(bool(scheme_based)))
        if native is not None:
            return native
        return self._run(
            lambda s: arrow.normalize(s, scheme_based=scheme_based, threads=threads), pl.String
        )

    def canonicalize(self, *, threads: Optional[int] = None, **options: Any) -> Any:
        """``fasturi.arrow.canonicalize`` (``sort_query``, ``drop_fragment``,
        ``drop_params``)."""
        arrow.canonicalize([], **options)
        params = list(options.get("drop_params", ()))
        if options.get("preset") is None and all(_utf8(p) for p in params):
            native = self._native(
                "canonicalize",
                pl.lit(bool(options.get("sort_query", True))),
                pl.lit(bool(options.get("drop_fragment", True))),
                pl.lit(params, dtype=pl.List(pl.String)),
            )
            if native is not None:
                return native
        return self._run(lambda s: arrow.canonicalize(s, threads=threads, **options), pl.String)

    def is_valid(
        self, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.is_valid``: a Boolean column."""
        arrow.is_valid([], rule, rfc=rfc)
        native = self._native("is_valid", pl.lit(rule, dtype=pl.String), _rfc(rfc))
        if native is not None:
            return native
        return self._run(lambda s: arrow.is_valid(s, rule, rfc=rfc, threads=threads), pl.Boolean)

    def error_position(
        self, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """``fasturi.arrow.error_position``: an Int32 column, null where valid."""
        arrow.error_position([], rule, rfc=rfc)
        native = self._native("error_position", pl.lit(rule, dtype=pl.String), _rfc(rfc))
        if native is not None:
            return native
        return self._run(
            lambda s: arrow.error_position(s, rule, rfc=rfc, threads=threads), pl.Int32
        )

    def percent_decode(self, *, errors: str = "strict", threads: Optional[int] = None) -> Any:
        """``fasturi.arrow.percent_decode``."""
        arrow.percent_decode([], errors=errors)
        # (errors="replace" and "ignore" are Python's own decoding rules)
        native = self._native("percent_decode") if errors == "strict" else None
        if native is not None:
            return native
        return self._run(
            lambda s: arrow.percent_decode(s, errors=errors, threads=threads), pl.String
        )

    def _field(self, name: str, threads: Optional[int]) -> Any:
        native = self._native(name)
        if native is not None:
            return native

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


def _reraisable(func: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """func, its UnicodeDecodeError (percent_decode's, naming the row) a
    ValueError of the same message: polars re-raises a function's exception
    by calling its type with the message alone, which UnicodeDecodeError
    refuses (a TypeError in its place)."""

    def call(s: Any) -> Any:
        try:
            return func(s)
        except UnicodeDecodeError as exc:
            raise ValueError(str(exc)) from exc

    return call


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


@pl.api.register_expr_namespace("uri")
class UriExpr(_Uri):
    """``pl.col(...).uri``: expressions that run ``fasturi.arrow`` on whole columns."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        return self._expr.map_batches(_reraisable(func), return_dtype=dtype, is_elementwise=True)

    def _native(self, name: str, *args: Any) -> Any:
        return None if _PLUGIN is None else _plugin(name, self._expr, *args)

    def resolve(
        self, base: Any, *, strict: bool = True, rfc: int = 3986, threads: Optional[int] = None
    ) -> Any:
        """Every reference resolved against ``base`` (RFC 3986 §5.2): a
        ``str`` for every row, or an expression giving one base per row."""
        arrow.resolve("http://a/", [], strict=strict, rfc=rfc)
        if _PLUGIN is not None and (not isinstance(base, str) or _utf8(base)):
            given = pl.lit(base, dtype=pl.String) if isinstance(base, str) else base
            return _plugin("resolve", self._expr, given, pl.lit(bool(strict)), _rfc(rfc))
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
