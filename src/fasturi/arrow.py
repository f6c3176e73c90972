"""Whole Arrow columns through the URI functions: no Python object per row.

Every function takes a string column — anything with the Arrow PyCapsule
interface (``__arrow_c_array__`` / ``__arrow_c_stream__``) of type
``string``, ``large_string`` or ``string_view`` (a pyarrow ``Array`` or
``ChunkedArray``, a polars ``Series``, a pandas ``Series`` of an Arrow-backed
or object string dtype, a nanoarrow or arro3 array), or a ``list`` of
``str``/``None`` — and gives back the same family: pyarrow in, pyarrow out
(``ChunkedArray`` for chunked or stream input), polars in, polars out,
pandas in, pandas out with the same index and name (a struct result as a
``DataFrame``), a list in, a pyarrow ``Array`` out.  Row ``i`` of a result is
the scalar function of row ``i``; a null row gives a null row.

``threads=None`` runs row ranges on every core with the GIL released;
``threads=1`` runs on the calling thread.  The result is the same either way.

Text results are ``large_string`` for a ``large_string`` column, else
``string``; list results (``query_params``, ``path_hierarchy``) a ``list``
of that text (``large_list`` for ``large_string``).  A row whose bytes are not UTF-8 (Arrow producers do not always
validate) raises ``ValueError`` naming the row; ``percent_decode`` with
``errors="strict"`` raises ``UnicodeDecodeError`` naming the row.

pyarrow (``pip install 'fasturi[arrow]'``) reads the inputs and holds the
results; the compiled kernels read and write Arrow memory themselves.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

import pyarrow as pa

from ._errors import rfc_number, type_error
from ._functions import FUNCTIONS
from ._functions import WHATWG_SETTERS as _WHATWG_SETTERS
from ._impl import arrow_kernels, pipeline, rules, whatwg_kernels
from ._types import WHATWG_FIELDS as _WHATWG_FIELDS
from ._types import ArrowColumn

__all__ = [
    "FIELDS",
    "FUNCTIONS",
    "authority",
    "canonicalize",
    "error_position",
    "fingerprint",
    "fragment",
    "host",
    "is_valid",
    "normalize",
    "path",
    "path_extension",
    "path_hierarchy",
    "percent_decode",
    "port",
    "public_suffix",
    "query",
    "query_param",
    "query_params",
    "registrable_domain",
    "remove_params",
    "resolve",
    "scheme",
    "split",
    "subdomain",
    "surt",
    "userinfo",
    "WHATWG_FIELDS",
    "whatwg_can_parse",
    "whatwg_href",
    "whatwg_replace",
    "whatwg_search_params",
    "whatwg_split",
]

_kernels = arrow_kernels()

#: The fields ``split`` can give, in their URI order.
FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
_DEFAULT_FIELDS = ("scheme", "authority", "path", "query", "fragment")
#: The getters ``whatwg_split`` can give, in the URL Standard's IDL order.
WHATWG_FIELDS = _WHATWG_FIELDS
_TEXT_TYPES = (pa.string(), pa.large_string(), pa.string_view())
_ERRORS = ("strict", "replace", "ignore")


# ---- reading a column ----------------------------------------------------------


class _Column:
    """A column read as pyarrow chunks, and how to give a result back in the
    family it came in."""

    def __init__(self, chunks: List[pa.Array], family: str, original: Any) -> None:
        self.chunks = chunks
        self.family = family  # "array", "chunked", "pandas", "polars"
        self.original = original

    def __len__(self) -> int:
        return sum(len(c) for c in self.chunks)

    def out(self, chunks: List[pa.Array], typ: pa.DataType) -> Any:
        if self.family == "array":
            return chunks[0]
        result = pa.chunked_array(chunks, type=typ)
        if self.family == "chunked":
            return result
        if self.family == "polars":
            import polars as pl

            if pa.types.is_large_list(typ):
                # polars 1.0 reads a large_list of structs or strings from
                # pyarrow wrongly (garbage, or a crash): a list, its
                # offsets narrowed (polars widens them again), where they fit
                try:
                    result = result.cast(pa.list_(typ.value_field))
                except pa.ArrowInvalid:
                    pass
            return pl.Series(self.original.name, result)
        import pandas as pd

        index, name = self.original.index, self.original.name
        if pa.types.is_struct(typ):
            children = {
                f.name: pa.chunked_array([c.field(i) for c in chunks], type=f.type)
                for i, f in enumerate(typ)
            }
            return pd.DataFrame(
                {
                    k: pd.Series(pd.arrays.ArrowExtensionArray(v), index=index, copy=False)
                    for k, v in children.items()
                },
                index=index,
            )
        return pd.Series(pd.arrays.ArrowExtensionArray(result), index=index, name=name, copy=False)


def _from_module(obj: Any, name: str) -> bool:
    module = sys.modules.get(name)
    return module is not None and type(obj).__module__.split(".")[0] == name


# pyarrow before 22 crashes exporting a string_view array that has no data
# buffer (every string inline, as a cast makes it): such a chunk is read as
# string there, one copy, rather than handed to the C interface.
_VIEW_EXPORT_CRASHES = int(pa.__version__.split(".")[0]) < 22


def _text_chunk(func: str, arr: pa.Array) -> pa.Array:
    typ = arr.type
    if typ == pa.string_view() and _VIEW_EXPORT_CRASHES:
        return arr.cast(pa.string())
    if typ in _TEXT_TYPES:
        return arr
    if pa.types.is_null(typ):  # all rows null, no type given
        return arr.cast(pa.string())
    if pa.types.is_dictionary(typ) and typ.value_type in _TEXT_TYPES:  # categorical text
        return arr.dictionary_decode()
    raise TypeError(f"{func}() argument 'col' must be a string column, not {typ}")


def _from_list(func: str, items: Sequence[Any]) -> pa.Array:
    # pyarrow would also take bytes as text: the scalar functions do not.
    for i, item in enumerate(items):
        if item is not None and not isinstance(item, str):
            raise TypeError(f"{func}() item {i} must be str or None, not {type(item).__name__}")
    try:
        return pa.array(items, type=pa.string())
    except (pa.ArrowException, UnicodeEncodeError):
        pass
    for i, item in enumerate(items):  # name the row pyarrow refused
        try:
            item is None or item.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ValueError(f"{func}() item {i} cannot be encoded as UTF-8: {e.reason}") from None
    raise AssertionError("unreachable: pyarrow refused a list of str")


def _polars_arrow(series: Any) -> Any:
    # polars keeps text as string views: asked for its newest Arrow types it
    # hands them over as they are; its default copies them to large_string.
    import polars as pl

    level = getattr(pl, "CompatLevel", None)
    if level is not None:
        return series.to_arrow(compat_level=level.newest())
    return series.to_arrow()


def _read(func: str, col: Any, name: str = "col") -> _Column:
    if isinstance(col, (list, tuple)):
        return _Column([_from_list(func, col)], "array", col)
    if isinstance(col, pa.ChunkedArray):
        return _Column([_text_chunk(func, c) for c in col.chunks], "chunked", col)
    if isinstance(col, pa.Array):
        return _Column([_text_chunk(func, col)], "array", col)
    if _from_module(col, "polars") and hasattr(col, "to_arrow"):
        arr = _polars_arrow(col)
        chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
        return _Column([_text_chunk(func, c) for c in chunks], "polars", col)
    if _from_module(col, "pandas") and hasattr(col, "index") and hasattr(col, "array"):
        try:
            arr = pa.array(col.array, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError):
            raise TypeError(
                f"{func}() argument '{name}' must be a string column, not {col.dtype}"
            ) from None
        chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
        return _Column([_text_chunk(func, c) for c in chunks], "pandas", col)
    if hasattr(col, "__arrow_c_stream__"):
        arr = pa.chunked_array(col)
        return _Column([_text_chunk(func, c) for c in arr.chunks], "chunked", col)
    if hasattr(col, "__arrow_c_array__"):
        return _Column([_text_chunk(func, pa.array(col))], "array", col)
    raise TypeError(
        f"{func}() argument '{name}' must be an Arrow string column or a list of str, "
        f"not {type(col).__name__}"
    )


def _threads(func: str, threads: Any) -> int:
    if threads is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(
            f"{func}() argument 'threads' must be int or None, not {type(threads).__name__}"
        )
    if threads < 1:
        raise ValueError(f"{func}() argument 'threads' must be at least 1, not {threads}")
    return threads


def _text_out(chunk: pa.Array) -> pa.DataType:
    return pa.large_string() if chunk.type == pa.large_string() else pa.string()


def _apply(
    column: _Column,
    kernel: Callable[..., ArrowColumn],
    out_type: Callable[[pa.Array], pa.DataType],
    *args: Any,
) -> Any:
    results: List[pa.Array] = []
    row0 = 0
    for chunk in column.chunks:
        results.append(pa.array(kernel(ArrowColumn(*chunk.__arrow_c_array__()), row0, *args)))
        row0 += len(chunk)
    if column.chunks:
        typ = results[0].type
    else:  # an empty ChunkedArray: the type a chunk would have given
        typ = out_type(pa.array([], type=pa.string()))
    return column.out(results, typ)


# ---- the functions ---------------------------------------------------------------


def split(
    col: Any, fields: Iterable[str] = _DEFAULT_FIELDS, *, threads: Optional[int] = None
) -> Any:
    """RFC 3986 Appendix B components of every row, as a struct column with
    one child per field, in the order given (see ``FIELDS``).

    A text field is null where the component is undefined and ``""`` where
    it is empty, as ``fasturi.split`` and ``fasturi.URI`` give it; ``port``
    is the port text as written.

    The fields are strings of the column's own kind: for a ``string_view``
    column (polars' strings) they are views into its buffers, which the
    result then keeps alive, rather than copies; ``large_string`` for
    ``large_string``; else ``string``.
    """
    if isinstance(fields, str):
        raise TypeError("split() argument 'fields' must be an iterable of field names, not str")
    names: Tuple[str, ...] = tuple(fields)
    for f in names:
        if f not in FIELDS:
            raise ValueError(f"split() unknown field {f!r}; fields are {', '.join(FIELDS)}")
    if not names:
        raise ValueError("split() argument 'fields' must name at least one field")
    if len(set(names)) != len(names):
        raise ValueError("split() argument 'fields' names a field twice")
    n = _threads("split", threads)

    def struct_type(chunk: pa.Array) -> pa.DataType:
        typ = pa.string_view() if chunk.type == pa.string_view() else _text_out(chunk)
        return pa.struct([pa.field(f, typ) for f in names])

    return _apply(_read("split", col), _kernels.split, struct_type, n, names)


def _component(name: str, col: Any, threads: Optional[int]) -> Any:
    # a one-field split, its one child: the kernel extracts only this component
    n = _threads(name, threads)

    def kernel(chunk: ArrowColumn, row0: int) -> pa.Array:
        return pa.array(_kernels.split(chunk, row0, n, (name,))).field(0)

    return _apply(_read(name, col), kernel, _text_out)


def scheme(col: Any, *, threads: Optional[int] = None) -> Any:
    """The scheme of every row (null where there is none): ``split``'s field."""
    return _component("scheme", col, threads)


def authority(col: Any, *, threads: Optional[int] = None) -> Any:
    """The authority of every row (null where there is no ``//``)."""
    return _component("authority", col, threads)


def userinfo(col: Any, *, threads: Optional[int] = None) -> Any:
    """The userinfo of every row (null where the authority has no ``@``)."""
    return _component("userinfo", col, threads)


def host(col: Any, *, threads: Optional[int] = None) -> Any:
    """The host of every row (null where there is no authority)."""
    return _component("host", col, threads)


def port(col: Any, *, threads: Optional[int] = None) -> Any:
    """The port text of every row, as written (null where there is no ``:``)."""
    return _component("port", col, threads)


def path(col: Any, *, threads: Optional[int] = None) -> Any:
    """The path of every row (never null for a row that is not)."""
    return _component("path", col, threads)


def query(col: Any, *, threads: Optional[int] = None) -> Any:
    """The query of every row (null where there is no ``?``)."""
    return _component("query", col, threads)


def fragment(col: Any, *, threads: Optional[int] = None) -> Any:
    """The fragment of every row (null where there is no ``#``)."""
    return _component("fragment", col, threads)


def normalize(col: Any, *, scheme_based: bool = True, threads: Optional[int] = None) -> Any:
    """``fasturi.normalize`` of every row (RFC 3986 §6.2.2, §6.2.3)."""
    n = _threads("normalize", threads)
    return _apply(_read("normalize", col), _kernels.normalize, _text_out, n, bool(scheme_based))


def _drop_params(func: str, drop_params: Any) -> Tuple[str, ...]:
    if isinstance(drop_params, (str, bytes)):
        raise TypeError(
            f"{func}() argument 'drop_params' must be an iterable of str, "
            f"not {type(drop_params).__name__}"
        )
    params = tuple(drop_params)
    for p in params:
        if not isinstance(p, str):
            raise TypeError(
                f"{func}() argument 'drop_params' items must be str, not {type(p).__name__}"
            )
    return params


def _check_preset(func: str, preset: Any, sort_query: bool, params: Tuple[str, ...]) -> None:
    # the scalar function's own checks and messages, on an empty row
    if preset is not None:
        try:
            pipeline.canonicalize("", sort_query=sort_query, drop_params=params, preset=preset)
        except ValueError as exc:
            raise ValueError(str(exc).replace("canonicalize()", f"{func}()", 1)) from None


def canonicalize(
    col: Any,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
    threads: Optional[int] = None,
) -> Any:
    """``fasturi.canonicalize`` of every row: the crawler's dedup key.

    ``preset="w3lib"``: the key of ``w3lib.url.canonicalize_url``; a row it
    rejects raises ``ValueError`` naming the row.
    """
    params = _drop_params("canonicalize", drop_params)
    _check_preset("canonicalize", preset, bool(sort_query), params)
    n = _threads("canonicalize", threads)
    column = _read("canonicalize", col)
    if preset is not None:
        return _apply(column, _kernels.canonicalize_w3lib, _text_out, n, not drop_fragment)
    return _apply(
        column,
        _kernels.canonicalize,
        _text_out,
        n,
        bool(sort_query),
        bool(drop_fragment),
        params,
    )


# ---- the crawler tools (docs/reference.md §4) -------------------------------------------
# Compiled, each runs in C on `threads` without the GIL; the rows its C
# leaves to Python (IDNA, session IDs, w3lib's odd URLs) take the GIL
# (docs/crawler.md).


def registrable_domain(col: Any, *, private: bool = False, threads: Optional[int] = None) -> Any:
    """``fasturi.registrable_domain`` of every row (null where it is None)."""
    n = _threads("registrable_domain", threads)
    return _apply(
        _read("registrable_domain", col), _kernels.registrable_domain, _text_out, n, bool(private)
    )


def public_suffix(col: Any, *, private: bool = False, threads: Optional[int] = None) -> Any:
    """``fasturi.public_suffix`` of every row (null where it is None)."""
    n = _threads("public_suffix", threads)
    return _apply(_read("public_suffix", col), _kernels.public_suffix, _text_out, n, bool(private))


def surt(col: Any, *, threads: Optional[int] = None) -> Any:
    """``fasturi.surt`` of every row; a row it rejects (a port that is not a
    number) raises ``ValueError`` naming the row."""
    n = _threads("surt", threads)
    return _apply(_read("surt", col), _kernels.surt, _text_out, n)


def fingerprint(
    col: Any,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
    threads: Optional[int] = None,
) -> Any:
    """``fasturi.fingerprint`` of every row, as a ``uint64`` column."""
    params = _drop_params("fingerprint", drop_params)
    _check_preset("fingerprint", preset, bool(sort_query), params)
    n = _threads("fingerprint", threads)
    return _apply(
        _read("fingerprint", col),
        _kernels.fingerprint,
        lambda chunk: pa.uint64(),
        n,
        bool(sort_query),
        bool(drop_fragment),
        params,
        preset,
    )


def _rule(func: str, rule: Any, rfc: Any) -> None:
    # The scalar function's own checks and messages for rule and rfc.
    rules.is_valid("", rule, rfc=rfc)


def is_valid(
    col: Any, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
) -> Any:
    """``fasturi.is_valid`` of every row, as a ``bool`` column."""
    _rule("is_valid", rule, rfc)
    n = _threads("is_valid", threads)
    return _apply(_read("is_valid", col), _kernels.is_valid, lambda c: pa.bool_(), n, rule, rfc)


def error_position(
    col: Any, rule: str = "URI-reference", *, rfc: int = 3986, threads: Optional[int] = None
) -> Any:
    """``int32`` column: null where the row matches ``rule``, else the
    ``InvalidURI.position`` ``fasturi.validate`` gives for it."""
    _rule("error_position", rule, rfc)
    n = _threads("error_position", threads)
    return _apply(
        _read("error_position", col), _kernels.error_position, lambda c: pa.int32(), n, rule, rfc
    )


def resolve(
    base: Any,
    refs: Any,
    *,
    strict: bool = True,
    rfc: int = 3986,
    threads: Optional[int] = None,
) -> Any:
    """``fasturi.resolve`` of every reference (RFC 3986 §5.2).

    ``base`` is one ``str`` for every row, or a column as long as ``refs``
    (row i resolved against base row i).  A row whose base is null or not
    absolute gives null.
    """
    rfc_number("resolve", rfc)
    n = _threads("resolve", threads)
    column = _read("resolve", refs, "refs")
    if isinstance(base, str):
        try:
            base.encode("utf-8")
        except UnicodeEncodeError as e:  # lone surrogates: no Arrow text holds them
            raise ValueError(
                f"resolve() argument 'base' cannot be encoded as UTF-8: {e.reason}"
            ) from None
        return _apply(column, _kernels.resolve_one, _text_out, n, base, bool(strict), rfc)
    bases = _read("resolve", base, "base")
    if len(bases) != len(column):
        raise ValueError(
            f"resolve() argument 'base' has {len(bases)} rows, argument 'refs' {len(column)}"
        )
    paired = _cut_like(bases.chunks, [len(c) for c in column.chunks])
    results: List[pa.Array] = []
    row0 = 0
    for b, chunk in zip(paired, column.chunks):
        results.append(
            pa.array(
                _kernels.resolve_each(
                    ArrowColumn(*b.__arrow_c_array__()),
                    ArrowColumn(*chunk.__arrow_c_array__()),
                    row0,
                    n,
                    bool(strict),
                    rfc,
                )
            )
        )
        row0 += len(chunk)
    typ = results[0].type if results else pa.string()
    return column.out(results, typ)


def _cut_like(chunks: List[pa.Array], lengths: List[int]) -> List[pa.Array]:
    """``chunks`` cut into chunks of ``lengths`` (as many rows in all): as
    they are when they already are (the usual case: no copy), else slices
    of their concatenation (as large_string: no 2 GiB limit)."""
    if [len(c) for c in chunks] == lengths:
        return chunks
    whole = (
        pa.concat_arrays([c.cast(pa.large_string()) for c in chunks])
        if chunks
        else pa.array([], type=pa.large_string())
    )
    out, row0 = [], 0
    for n in lengths:
        out.append(whole.slice(row0, n))
        row0 += n
    return out


def percent_decode(col: Any, *, errors: str = "strict", threads: Optional[int] = None) -> Any:
    """Every row's valid ``%hh`` escapes decoded, the bytes read as UTF-8
    (``fasturi.percent_decode``).  ``errors`` is ``"strict"`` (a row whose
    bytes are not UTF-8 raises ``UnicodeDecodeError`` naming the row),
    ``"replace"`` or ``"ignore"``, as in ``bytes.decode``."""
    if errors not in _ERRORS:
        raise ValueError(
            f"percent_decode() argument 'errors' must be one of {', '.join(_ERRORS)}, not {errors!r}"
        )
    n = _threads("percent_decode", threads)
    return _apply(_read("percent_decode", col), _kernels.percent_decode, _text_out, n, errors)


# ---- what a log analyst reads out of a URI (docs/reference.md §1) ---------------


def _list_out(pairs: bool) -> Callable[[pa.Array], pa.DataType]:
    def typ(chunk: pa.Array) -> pa.DataType:
        text = _text_out(chunk)
        item = pa.struct([("key", text), ("value", text)]) if pairs else text
        return pa.large_list(item) if text == pa.large_string() else pa.list_(item)

    return typ


def query_param(col: Any, name: str, *, decode: bool = True, threads: Optional[int] = None) -> Any:
    """``fasturi.query_param`` of every row: the value of the first query
    field whose key is ``name`` (null where there is none)."""
    if not isinstance(name, str):
        raise type_error("query_param", "name", name)
    n = _threads("query_param", threads)
    return _apply(_read("query_param", col), _kernels.query_param, _text_out, n, name, bool(decode))


def query_params(col: Any, *, decode: bool = True, threads: Optional[int] = None) -> Any:
    """``fasturi.query_params`` of every row, as a column of
    ``list<struct<key: string, value: string>>`` (``value`` null for a field
    without ``=``; ``large_list`` of ``large_string`` for ``large_string``)."""
    n = _threads("query_params", threads)
    return _apply(
        _read("query_params", col), _kernels.query_params, _list_out(True), n, bool(decode)
    )


def remove_params(col: Any, patterns: Iterable[str], *, threads: Optional[int] = None) -> Any:
    """``fasturi.remove_params`` of every row: the query fields whose key
    matches one of the glob ``patterns`` removed, all else as it was."""
    if isinstance(patterns, (str, bytes)) or not hasattr(patterns, "__iter__"):
        raise type_error("remove_params", "patterns", patterns, "an iterable of str")
    given = tuple(patterns)
    for i, p in enumerate(given):
        if not isinstance(p, str):
            raise type_error("remove_params", "patterns", p, "str", item=i)
    n = _threads("remove_params", threads)
    return _apply(_read("remove_params", col), _kernels.remove_params, _text_out, n, given)


def path_extension(col: Any, *, threads: Optional[int] = None) -> Any:
    """``fasturi.path_extension`` of every row (null where it is None)."""
    n = _threads("path_extension", threads)
    return _apply(_read("path_extension", col), _kernels.path_extension, _text_out, n)


def path_hierarchy(col: Any, *, threads: Optional[int] = None) -> Any:
    """``fasturi.path_hierarchy`` of every row, as a ``list<string>`` column
    (``large_list`` of ``large_string`` for ``large_string``)."""
    n = _threads("path_hierarchy", threads)
    return _apply(_read("path_hierarchy", col), _kernels.path_hierarchy, _list_out(False), n)


def subdomain(col: Any, *, private: bool = False, threads: Optional[int] = None) -> Any:
    """``fasturi.subdomain`` of every row (null where it is None)."""
    n = _threads("subdomain", threads)
    return _apply(_read("subdomain", col), _kernels.subdomain, _text_out, n, bool(private))


# ---- WHATWG URLs (API.md §9) ---------------------------------------------------
# Their kernels are _arrow_c's with the compiled core, _whatwg_arrow_py's (the
# reference, one row at a time on the calling thread) without.


def _whatwg_base(func: str, base: Any) -> Optional[str]:
    if base is None or isinstance(base, str):
        return base
    raise type_error(func, "base", base, "str or None")


def whatwg_href(col: Any, base: Optional[str] = None, *, threads: Optional[int] = None) -> Any:
    """``fasturi.whatwg.parse(row, base).href`` of every row; null where the
    row fails to parse (or ``base`` does)."""
    b = _whatwg_base("whatwg_href", base)
    n = _threads("whatwg_href", threads)
    return _apply(_read("whatwg_href", col), whatwg_kernels().whatwg_href, _text_out, n, b)


def whatwg_split(
    col: Any,
    fields: Iterable[str] = WHATWG_FIELDS,
    base: Optional[str] = None,
    *,
    threads: Optional[int] = None,
) -> Any:
    """The getters of ``fasturi.whatwg.parse(row, base)`` of every row, as a
    struct column with one string child per field, in the order given (see
    ``WHATWG_FIELDS``); a null row where the row fails to parse."""
    if isinstance(fields, str):
        raise TypeError(
            "whatwg_split() argument 'fields' must be an iterable of field names, not str"
        )
    names: Tuple[str, ...] = tuple(fields)
    for f in names:
        if f not in WHATWG_FIELDS:
            raise ValueError(
                f"whatwg_split() unknown field {f!r}; fields are {', '.join(WHATWG_FIELDS)}"
            )
    if not names:
        raise ValueError("whatwg_split() argument 'fields' must name at least one field")
    if len(set(names)) != len(names):
        raise ValueError("whatwg_split() argument 'fields' names a field twice")
    b = _whatwg_base("whatwg_split", base)
    n = _threads("whatwg_split", threads)

    def struct_type(chunk: pa.Array) -> pa.DataType:
        return pa.struct([pa.field(f, _text_out(chunk)) for f in names])

    return _apply(
        _read("whatwg_split", col), whatwg_kernels().whatwg_split, struct_type, n, names, b
    )


def whatwg_replace(col: Any, *, threads: Optional[int] = None, **changes: Any) -> Any:
    """The ``href`` of ``fasturi.whatwg.parse(row).replace(**changes)`` of
    every row: the URL Standard's setter of each keyword applied in the
    order given (a keyword given as None is not applied: SQL's positional
    form passes every setter, in the standard's order, NULL where unset);
    null where the row fails to parse, or where ``href=`` fails (where
    ``URL.replace`` raises ``InvalidURL``)."""
    pairs: List[Tuple[str, str]] = []
    for name, value in changes.items():
        if name not in _WHATWG_SETTERS:
            raise TypeError(
                f"whatwg_replace() got an unexpected keyword argument {name!r}; "
                f"the setters are {', '.join(_WHATWG_SETTERS)}"
            )
        if value is None:
            continue
        if name == "port" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            value = bytes(value).decode("utf-8", "replace")
        elif not isinstance(value, str):
            expected = "str, bytes or int" if name == "port" else "str or bytes"
            raise type_error("whatwg_replace", name, value, expected)
        pairs.append((name, value))
    n = _threads("whatwg_replace", threads)
    return _apply(
        _read("whatwg_replace", col), whatwg_kernels().whatwg_replace, _text_out, n, tuple(pairs)
    )


def _replace_signature() -> Any:
    # what help() and inspect show: the setters as keywords, in the
    # standard's order (the function takes them in any order, and applies
    # them in the order given)
    import inspect

    P = inspect.Parameter
    params = [P("col", P.POSITIONAL_OR_KEYWORD)]
    params += [P(name, P.KEYWORD_ONLY, default=None) for name in _WHATWG_SETTERS]
    params.append(P("threads", P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


whatwg_replace.__signature__ = _replace_signature()  # type: ignore[attr-defined]


def whatwg_can_parse(col: Any, base: Optional[str] = None, *, threads: Optional[int] = None) -> Any:
    """``fasturi.whatwg.can_parse(row, base)`` of every row, as a ``bool``
    column (null where the row is null)."""
    b = _whatwg_base("whatwg_can_parse", base)
    n = _threads("whatwg_can_parse", threads)
    return _apply(
        _read("whatwg_can_parse", col),
        whatwg_kernels().whatwg_can_parse,
        lambda chunk: pa.bool_(),
        n,
        b,
    )


def whatwg_search_params(
    col: Any, base: Optional[str] = None, *, threads: Optional[int] = None
) -> Any:
    """``fasturi.whatwg.parse(row, base).search_params`` of every row: its
    (name, value) pairs in order, as a ``list<struct<name, value>>`` column
    (an empty list where the URL has no query); null where the row fails
    to parse."""
    b = _whatwg_base("whatwg_search_params", base)
    n = _threads("whatwg_search_params", threads)

    def list_type(chunk: pa.Array) -> pa.DataType:
        text = _text_out(chunk)
        return pa.list_(pa.struct([pa.field("name", text), pa.field("value", text)]))

    return _apply(
        _read("whatwg_search_params", col),
        whatwg_kernels().whatwg_search_params,
        list_type,
        n,
        b,
    )
