"""The ``uri`` namespace on polars expressions and Series (docs/reference.md §7).

Importing this module registers it::

    import polars as pl
    import fasturi.polars  # noqa: F401  (registers .uri)

    df.with_columns(pl.col("url").uri.normalize().alias("norm"))
    df.select(pl.col("url").uri.split(["scheme", "host"]).alias("u")).unnest("u")
    (pl.scan_parquet("logs/*.parquet")
       .group_by(pl.col("url").uri.host().alias("host"))
       .agg(pl.len()))

An expression method runs as a polars plugin expression: the package's
``fasturi.polars_plugin``, built from fasturi's C core, is called by polars
on its own threads with polars' own Arrow chunks, without Python or the GIL
(lazy queries, the streaming engine, ``group_by``, ``over``).  Its options
travel as literal arguments, one row each.  Where the plugin cannot serve
(a package built without it, ``FASTURI_NO_EXTENSIONS=1``, the w3lib preset,
``percent_decode(errors=...)`` other than "strict", a base ``str``, a
``drop_params`` name, a ``query_param`` name or a ``remove_params`` pattern
that is not UTF-8, and the functions the plugin does not carry yet:
``query_params``, ``path_hierarchy`` and the WHATWG ones), the method runs
the ``fasturi.arrow`` function of the same name on whole columns through
``map_batches``, with the same results.  Either way
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

import inspect
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import polars as pl
from polars.plugins import register_plugin_function

from . import arrow
from ._functions import FUNCTIONS, Function
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
_MAP_BATCHES_ELEMENTWISE = "is_elementwise" in inspect.signature(pl.map_batches).parameters

#: The ``Expr.uri`` methods that run as plugin expressions (some only with
#: the options named in the module's docstring); empty where the plugin is
#: not there or ``FASTURI_NO_EXTENSIONS`` is set.
NATIVE = (
    frozenset(
        ["split", "normalize", "canonicalize", "fingerprint", "is_valid", "error_position"]
        + ["percent_decode", "resolve", "registrable_domain", "public_suffix", *arrow.FIELDS]
        + ["query_param", "remove_params", "path_extension", "subdomain"]
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


def _dtype(probe: Any) -> Any:
    """The polars type of a ``fasturi.arrow`` result (one on no rows)."""
    return pl.Series(probe).dtype


def _native_split(o: Dict[str, Any]) -> Optional[List[Any]]:
    # the fields as the field names of a one-row Struct of literals: the
    # plugin's schema function sees them too.  (Not a null Struct literal:
    # polars leaves an expression holding one out of its common
    # subexpressions, and split(...).struct.unnest() then ran the plugin
    # once a field; nor a Struct literal of values, which polars 1.0 cannot
    # make.)
    names = o["fields"]
    return [pl.struct([pl.lit("", dtype=pl.String).alias(name) for name in names])]


def _native_canonicalize(o: Dict[str, Any]) -> Optional[List[Any]]:
    params = list(o.get("drop_params", ()))
    if o.get("preset") is not None or not all(_utf8(p) for p in params):
        return None
    return [
        pl.lit(bool(o.get("sort_query", True))),
        pl.lit(bool(o.get("drop_fragment", True))),
        pl.lit(params, dtype=pl.List(pl.String)),
    ]


def _native_rule(o: Dict[str, Any]) -> Optional[List[Any]]:
    return [pl.lit(o.get("rule", "URI-reference"), dtype=pl.String), _rfc(o.get("rfc", 3986))]


_psl_handed: Optional[Tuple[str, str]] = None  # (keys, token) handed to the plugin last


def _psl_token() -> Optional[str]:
    """The token of the Public Suffix List fasturi's scalar functions use,
    handed to the plugin first where it has not had it (None: a list whose
    text is not UTF-8, left to the Python path).  The plugin keeps one
    list for the process; an expression carries the token of its list."""
    global _psl_handed
    from ._duckdb_ext import public_suffix_table

    table = public_suffix_table()
    if table is None:
        return None
    keys, version = table
    if _psl_handed is None or _psl_handed[0] is not keys:
        import zlib

        # (the version names a list; the keys' checksum tells apart two
        # files of one version)
        token = f"{version[:80]} {zlib.crc32(keys.encode('utf-8')):08x}"
        loaded = pl.select(
            _plugin("load_public_suffix_list", pl.lit(keys, dtype=pl.String), pl.lit(token))
        )
        assert loaded.item() == token
        _psl_handed = (keys, token)
    return _psl_handed[1]


def _native_psl(o: Dict[str, Any]) -> Optional[List[Any]]:
    token = None if _PLUGIN is None else _psl_token()
    if token is None:
        return None
    return [pl.lit(bool(o.get("private", False))), pl.lit(token, dtype=pl.String)]


#: The plugin's arguments after the column for each function it carries
#: (None: these options are the Python path's), from the bound options.
_NATIVE_ARGS: Dict[str, Callable[[Dict[str, Any]], Optional[List[Any]]]] = {
    **{name: (lambda o: []) for name in arrow.FIELDS},
    "split": _native_split,
    "normalize": lambda o: [pl.lit(bool(o.get("scheme_based", True)))],
    "canonicalize": _native_canonicalize,
    "fingerprint": _native_canonicalize,  # (its key's options)
    "registrable_domain": _native_psl,
    "public_suffix": _native_psl,
    "is_valid": _native_rule,
    "error_position": _native_rule,
    # (errors="replace" and "ignore" are Python's own decoding rules)
    "percent_decode": lambda o: [] if o.get("errors", "strict") == "strict" else None,
    "query_param": lambda o: (
        [pl.lit(o["name"], dtype=pl.String), pl.lit(bool(o.get("decode", True)))]
        if _utf8(o["name"])
        else None
    ),
    "remove_params": lambda o: (
        [pl.lit(list(o["patterns"]), dtype=pl.List(pl.String))]
        if all(_utf8(p) for p in o["patterns"])
        else None
    ),
    "path_extension": lambda o: [],
    "subdomain": _native_psl,
}


class _Uri:
    """The methods, made once from ``fasturi.arrow.FUNCTIONS`` over
    ``_run(function, dtype)`` (the Python path) and ``_native(name, *args)``
    (a plugin expression, or None where there is none: then ``_run``)."""

    def _run(self, func: Callable[[Any], Any], dtype: Any) -> Any:
        raise NotImplementedError

    def _native(self, name: str, *args: Any) -> Any:
        return None

    def _call(self, func: Function, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        target = getattr(arrow, func.name)
        column = func.column.name
        bound = _settled(func, func.bind([], args, kwargs, python=True))
        # fasturi.arrow's own checks, on no rows, now (a bad option fails
        # where the query is written, not when it runs), and its result type
        probe = target(**bound)
        encode = _NATIVE_ARGS.get(func.name)
        if encode is not None:
            options = {p.name: bound.get(p.name, p.default) for p in func.options}
            literals = encode(options)
            native = None if literals is None else self._native(func.name, *literals)
            if native is not None:
                return native

        def run(s: Any) -> Any:
            return target(**{**bound, column: s})

        return self._run(run, _dtype(probe))


def _settled(func: Function, bound: Dict[str, Any]) -> Dict[str, Any]:
    """``bound`` with its iterables of names made tuples: read once here, by
    the checks, and again by every batch."""
    for p in func.options:
        value = bound.get(p.name)
        if p.type in ("fields", "list[str]") and value is not None and not isinstance(value, str):
            try:
                bound[p.name] = tuple(value)
            except TypeError:  # not iterable: fasturi.arrow says so
                pass
    return bound


def _method(func: Function) -> Callable[..., Any]:
    def method(self: _Uri, *args: Any, **kwargs: Any) -> Any:
        return self._call(func, args, kwargs)

    method.__name__ = method.__qualname__ = func.name
    method.__signature__ = func.method_signature()  # type: ignore[attr-defined]
    method.__doc__ = f"``fasturi.arrow.{func.signature()}``. {func.summary}"
    return method


for _name, _func in FUNCTIONS.items():
    if _name != "resolve":  # (resolve takes an expression of bases too: below)
        setattr(_Uri, _name, _method(_func))
del _name, _func


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
        # (polars 1.0 has no is_elementwise here: a resolve against a
        # column of bases is then not marked elementwise)
        if _MAP_BATCHES_ELEMENTWISE:
            return pl.map_batches(
                [self._expr, base], each, return_dtype=pl.String, is_elementwise=True
            )
        return pl.map_batches([self._expr, base], each, return_dtype=pl.String)


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
