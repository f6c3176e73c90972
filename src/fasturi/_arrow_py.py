"""Column kernels, reference: the twin of _arrow_c.

Each kernel takes one chunk of a string column as an ``ArrowColumn`` (the
Arrow C Data Interface capsules of a ``string``, ``large_string`` or
``string_view`` array, already checked by ``fasturi.arrow``), applies the
reference scalar function to every row read as a Python value, and gives the
result as an ``ArrowColumn``.  ``row0`` is the chunk's first row in the
whole column, for error messages.  ``threads`` is accepted and unused: the
reference is the readable loop, one row at a time.

Result types: a ``large_string`` chunk gives ``large_string`` text, any other
``string``; ``is_valid`` gives ``bool``, ``error_position`` ``int32``; the
list results (``query_params``, ``path_hierarchy``) a ``list`` of that text,
a ``large_list`` for a ``large_string`` chunk.  A null row gives a null row.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pyarrow as pa

from . import _core_py as core
from . import _parts_py as parts
from . import _pipeline_py as pipeline
from . import _psl_py as psl
from . import _rules_py as rules
from . import _surt_py as surt_twin
from . import _tsv, _w3lib_py, _whatwg_py
from ._arrow_rows import _export, _import, _map, _rows, _text_type
from ._audit import _NOTHING, EscapeFacts, Parsers, _escape_facts, _scope
from ._types import ArrowColumn, InvalidURI, row_decode_error, row_refused

# audit's checks read with the reference twins
_PARSERS = Parsers(core, rules, lambda: _whatwg_py)

__all__ = [
    "audit_escapes",
    "audit_suspects",
    "canonicalize",
    "canonicalize_w3lib",
    "error_position",
    "fingerprint",
    "is_valid",
    "join_lines",
    "join_tsv",
    "lines",
    "normalize",
    "path_extension",
    "path_hierarchy",
    "percent_decode",
    "public_suffix",
    "query_param",
    "query_params",
    "registrable_domain",
    "remove_params",
    "resolve_each",
    "resolve_one",
    "split",
    "subdomain",
    "surt",
    "valid_rows",
    "whatwg_can_parse",
    "whatwg_href",
    "whatwg_replace",
    "whatwg_search_params",
    "whatwg_split",
]


# ---- split -------------------------------------------------------------------


def _component(parts: Any, auth: Any, field: str) -> Optional[str]:
    value: Optional[str]
    if field in ("userinfo", "host", "port"):
        value = None if auth is None else auth[("userinfo", "host", "port").index(field)]
    else:
        value = getattr(parts, field)
    return value


def split(
    col: ArrowColumn,
    row0: int,
    threads: int,
    fields: Sequence[str],
    views: Optional[bool] = None,
) -> ArrowColumn:
    """The struct of `fields`: string_view children when `views`, or by
    default when `col` is string_view (the compiled kernel points them into
    `col` rather than copying); else `col`'s own string type."""
    arr = _import(col)
    if views is None:
        views = arr.type == pa.string_view()
    typ = pa.string_view() if views else _text_type(arr)
    children: List[List[Optional[str]]] = [[] for _ in fields]
    valid: List[bool] = []
    for v in _rows(arr, row0):
        valid.append(v is not None)
        parts = core.split(v) if v is not None else None
        auth = None
        if parts is not None and parts.authority is not None:
            auth = core.split_authority(parts.authority)
        for child, field in zip(children, fields):
            child.append(None if parts is None else _component(parts, auth, field))
    struct = pa.StructArray.from_arrays(
        [pa.array(c, type=typ) for c in children],
        fields=[pa.field(f, typ) for f in fields],
        mask=pa.array([not ok for ok in valid], type=pa.bool_()),
    )
    return _export(struct)


# ---- one text in, one text out ----------------------------------------------


def normalize(col: ArrowColumn, row0: int, threads: int, scheme_based: bool) -> ArrowColumn:
    return _map(col, row0, lambda s: core.normalize(s, scheme_based=scheme_based))


def canonicalize(
    col: ArrowColumn,
    row0: int,
    threads: int,
    sort_query: bool,
    drop_fragment: bool,
    drop_params: Sequence[str],
) -> ArrowColumn:
    return _map(
        col,
        row0,
        lambda s: pipeline.canonicalize(
            s, sort_query=sort_query, drop_fragment=drop_fragment, drop_params=drop_params
        ),
    )


# ---- validation ----------------------------------------------------------------


def is_valid(col: ArrowColumn, row0: int, threads: int, rule: str, rfc: int) -> ArrowColumn:
    return _map(col, row0, lambda s: rules.is_valid(s, rule, rfc=rfc), pa.bool_())


def _position(s: str, rule: str, rfc: int) -> Optional[int]:
    try:
        rules.validate(s, rule, rfc=rfc)
    except InvalidURI as e:
        return e.position
    return None


def error_position(col: ArrowColumn, row0: int, threads: int, rule: str, rfc: int) -> ArrowColumn:
    return _map(col, row0, lambda s: _position(s, rule, rfc), pa.int32())


# ---- resolution ----------------------------------------------------------------


def _resolve_or_none(base: Optional[str], ref: Optional[str], strict: bool, rfc: int) -> Any:
    if base is None or ref is None:
        return None
    try:
        return core.resolve(base, ref, strict=strict, rfc=rfc)
    except InvalidURI:  # a base without a scheme (§5.2.1)
        return None


def resolve_one(
    col: ArrowColumn, row0: int, threads: int, base: str, strict: bool, rfc: int
) -> ArrowColumn:
    """Every row of ``col`` resolved against the one ``base``."""
    return _map(col, row0, lambda ref: _resolve_or_none(base, ref, strict, rfc))


def resolve_each(
    bases: ArrowColumn, col: ArrowColumn, row0: int, threads: int, strict: bool, rfc: int
) -> ArrowColumn:
    """Row i of ``col`` resolved against row i of ``bases`` (as long)."""
    arr = _import(col)
    pairs = zip(_rows(_import(bases), row0), _rows(arr, row0))
    out = [_resolve_or_none(b, r, strict, rfc) for b, r in pairs]
    return _export(pa.array(out, type=_text_type(arr)))


# ---- percent-decoding ----------------------------------------------------------


def percent_decode(col: ArrowColumn, row0: int, threads: int, errors: str) -> ArrowColumn:
    arr = _import(col)
    out: List[Optional[str]] = []
    for i, v in enumerate(_rows(arr, row0)):
        if v is None:
            out.append(None)
            continue
        data = core.percent_decode_bytes(v)
        if errors == "strict":
            try:
                out.append(data.decode("utf-8"))
            except UnicodeDecodeError:
                raise row_decode_error(row0 + i, data) from None
        else:
            out.append(data.decode("utf-8", errors))
    return _export(pa.array(out, type=_text_type(arr)))


# ---- text streams (the command line) ------------------------------------------


def lines(block: bytes) -> Tuple[ArrowColumn, int, List[Tuple[int, int, int]], Sequence[int]]:
    """The lines of ``block`` (each ending at "\\n", or at the end; a "\\r"
    before the "\\n" dropped) as a string column, and the lines that are not
    UTF-8, left out of it: ``(column, count, [(index, start, end), ...],
    starts)``, ``starts`` where each line begins in ``block``, then its
    length."""
    kept: List[str] = []
    bad: List[Tuple[int, int, int]] = []
    starts: List[int] = []
    start = count = 0
    while start < len(block):
        starts.append(start)
        newline = block.find(b"\n", start)
        end = after = len(block) if newline < 0 else newline
        if newline >= 0:
            after = newline + 1
            if end > start and block[end - 1] == 13:  # "\r\n"
                end -= 1
        try:
            kept.append(block[start:end].decode("utf-8"))
        except UnicodeDecodeError:
            bad.append((count, start, end))
        count += 1
        start = after
    typ = pa.large_string() if len(block) > 0x7FFFFFFF else pa.string()
    return _export(pa.array(kept, type=typ)), count, bad, [*starts, len(block)]


def join_lines(col: ArrowColumn) -> bytes:
    """The rows of a column as TSV bytes, each followed by "\\n": a string
    column's text escaped (``_tsv``), a null row "\\N"; a uint64 column's
    values in decimal."""
    arr = _import(col)
    if arr.type == pa.uint64():
        return "".join(
            _tsv.NULL + "\n" if v is None else f"{v}\n" for v in arr.to_pylist()
        ).encode()
    return "".join(_tsv.escape(v) + "\n" for v in arr.to_pylist()).encode()


def join_tsv(col: ArrowColumn, nfields: int) -> bytes:
    """The rows of a struct column of strings as TSV bytes: each field
    escaped as join_lines escapes a row, a null field "\\N", each row
    ending in "\\n"."""
    arr = _import(col)
    children = [arr.field(k).to_pylist() for k in range(nfields)]
    rows = ("\t".join(_tsv.escape(c[i]) for c in children) + "\n" for i in range(len(arr)))
    return "".join(rows).encode()


def valid_rows(col: ArrowColumn) -> List[int]:
    """The numbers of the rows of a column that are not null."""
    return [i for i, ok in enumerate(_import(col).is_valid().to_pylist()) if ok]


def audit_suspects(
    col: ArrowColumn,
    row0: int,
    threads: int,
    known: Optional[List[Tuple[str, Optional[EscapeFacts]]]] = None,
) -> List[int]:
    """The rows of a string column in which audit() could find something:
    those that are not valid URI-references, and those ``_audit._scope``
    does not rule out.  Given a list ``known``, a pair for each of those
    rows is appended to it: its text, and its ``audit_escapes()``."""
    rows = enumerate(_rows(_import(col), row0))
    suspects = [
        (i, v)
        for i, v in rows
        if v is not None
        and (not rules.is_valid(v) or _scope(_PARSERS, v, core.split(v)) != _NOTHING)
    ]
    if known is not None:
        known.extend((v, _escape_facts(_PARSERS, v)) for _, v in suspects)
    return [i for i, _ in suspects]


def audit_escapes(text: str) -> Optional[EscapeFacts]:
    """The facts of ``audit(text)`` where ``text`` is a valid URI reference
    whose findings ``_audit._scope`` puts in ``_ESCAPES``, else None."""
    return _escape_facts(_PARSERS, text)


# ---- the crawler tools (docs/reference.md §4) ---------------------------------------------


def _map_rows(
    col: ArrowColumn,
    row0: int,
    fn: Callable[[str], Any],
    typ: Any = None,
    refused: Optional[Dict[int, ValueError]] = None,
) -> ArrowColumn:
    # as _map, a ValueError of fn raised again naming its row; or, given a
    # dict `refused`, the row is null and the error goes there by row number
    arr = _import(col)
    out: List[Any] = []
    for i, v in enumerate(_rows(arr, row0)):
        if v is None:
            out.append(None)
            continue
        try:
            out.append(fn(v))
        except ValueError as exc:
            if refused is None:
                raise row_refused(row0 + i, exc) from exc
            refused[row0 + i] = exc
            out.append(None)
    return _export(pa.array(out, type=_text_type(arr) if typ is None else typ))


def registrable_domain(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn:
    return _map_rows(col, row0, lambda s: psl.registrable_domain(s, private=private))


def public_suffix(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn:
    return _map_rows(col, row0, lambda s: psl.public_suffix(s, private=private))


def surt(
    col: ArrowColumn, row0: int, threads: int, refused: Optional[Dict[int, ValueError]] = None
) -> ArrowColumn:
    return _map_rows(col, row0, surt_twin.surt, refused=refused)


def canonicalize_w3lib(
    col: ArrowColumn,
    row0: int,
    threads: int,
    keep_fragment: bool,
    refused: Optional[Dict[int, ValueError]] = None,
) -> ArrowColumn:
    return _map_rows(col, row0, lambda s: _w3lib_py.key(s, keep_fragment), refused=refused)


def fingerprint(
    col: ArrowColumn,
    row0: int,
    threads: int,
    sort_query: bool,
    drop_fragment: bool,
    drop_params: Sequence[str],
    preset: Optional[str],
    refused: Optional[Dict[int, ValueError]] = None,
) -> ArrowColumn:
    def one(s: str) -> int:
        return pipeline.fingerprint(
            s,
            sort_query=sort_query,
            drop_fragment=drop_fragment,
            drop_params=drop_params,
            preset=preset,
        )

    return _map_rows(col, row0, one, pa.uint64(), refused)


# ---- what a log analyst reads out of a URI ------------------------------------


def _list_type(arr: pa.Array, pairs: bool) -> pa.DataType:
    """The type of a list result over chunk ``arr``: list<string> (``pairs``:
    list<struct<key, value>>), large_list of large_string for large_string."""
    text = _text_type(arr)
    item = pa.struct([("key", text), ("value", text)]) if pairs else text
    return pa.large_list(item) if text == pa.large_string() else pa.list_(item)


def query_param(col: ArrowColumn, row0: int, threads: int, name: str, decode: bool) -> ArrowColumn:
    return _map(col, row0, lambda s: parts.query_param(s, name, decode=decode))


def query_params(col: ArrowColumn, row0: int, threads: int, decode: bool) -> ArrowColumn:
    arr = _import(col)
    out = [
        None
        if s is None
        else [{"key": k, "value": v} for k, v in parts.query_params(s, decode=decode)]
        for s in _rows(arr, row0)
    ]
    return _export(pa.array(out, type=_list_type(arr, True)))


def remove_params(
    col: ArrowColumn, row0: int, threads: int, patterns: Sequence[str]
) -> ArrowColumn:
    return _map(col, row0, lambda s: parts.remove_params(s, patterns))


def path_extension(col: ArrowColumn, row0: int, threads: int) -> ArrowColumn:
    return _map(col, row0, parts.path_extension)


def path_hierarchy(col: ArrowColumn, row0: int, threads: int) -> ArrowColumn:
    arr = _import(col)
    out = [None if s is None else parts.path_hierarchy(s) for s in _rows(arr, row0)]
    return _export(pa.array(out, type=_list_type(arr, False)))


def subdomain(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn:
    return _map(col, row0, lambda s: parts.subdomain(s, private=private))


# fasturi.whatwg's kernels keep their own file, which builds on the helpers
# above (hence imported last); the compiled twin has them in _arrow_c.
from ._whatwg_arrow_py import (  # noqa: E402
    whatwg_can_parse,
    whatwg_href,
    whatwg_replace,
    whatwg_search_params,
    whatwg_split,
)
