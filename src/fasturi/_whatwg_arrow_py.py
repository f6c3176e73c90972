"""The column kernels of fasturi.whatwg, reference (its compiled twin comes
with the parser's).

As ``_arrow_py``'s kernels: one chunk of a string column in, as an
``ArrowColumn``, the scalar function applied to every row read as a Python
value, the result out as an ``ArrowColumn``; ``row0`` is the chunk's first
row in the column (for error messages), ``threads`` is accepted and unused.

Every row is parsed by the URL Standard's API URL parser against one base
(None: none), parsed once; a base that fails fails every row, as it does in
the scalar functions.  A row that fails gives null (False in can_parse); a
null row gives null.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pyarrow as pa

from . import _whatwg_py as whatwg
from ._arrow_rows import _export, _import, _map, _rows, _text_type
from ._search_params_py import urlencoded_string_parse
from ._types import ArrowColumn, InvalidURL

__all__ = [
    "whatwg_can_parse",
    "whatwg_href",
    "whatwg_replace",
    "whatwg_search_params",
    "whatwg_split",
]


def _whatwg_parser(base: Optional[str]) -> Callable[[str], Optional[Any]]:
    """The row's URL record, or None where parsing fails."""
    parsed_base = None
    if base is not None:
        try:
            parsed_base = whatwg.basic_url_parse(whatwg.scalar_value_string("parse", "base", base))
        except InvalidURL:
            return lambda row: None

    def parse(row: str) -> Optional[Any]:
        try:
            return whatwg.basic_url_parse(row, parsed_base)
        except InvalidURL:
            return None

    return parse


def whatwg_href(col: ArrowColumn, row0: int, threads: int, base: Optional[str]) -> ArrowColumn:
    """Each row's ``href``; null where it fails to parse."""
    parse = _whatwg_parser(base)

    def href(row: str) -> Optional[str]:
        record = parse(row)
        return None if record is None else whatwg.serialize(record)

    return _map(col, row0, href)


def whatwg_replace(
    col: ArrowColumn, row0: int, threads: int, changes: Sequence[Tuple[str, str]]
) -> ArrowColumn:
    """Each row's URL with the setters ``changes`` applied in order
    (``URL.replace``), its ``href``; null where the row fails to parse or
    the ``href`` setter fails."""
    keywords = dict(changes)

    def replaced(row: str) -> Optional[str]:
        try:
            return whatwg.parse(row).replace(**keywords).href
        except InvalidURL:
            return None

    return _map(col, row0, replaced)


def whatwg_can_parse(col: ArrowColumn, row0: int, threads: int, base: Optional[str]) -> ArrowColumn:
    """Whether each row parses (``fasturi.whatwg.can_parse``)."""
    parse = _whatwg_parser(base)
    return _map(col, row0, lambda row: parse(row) is not None, pa.bool_())


def whatwg_split(
    col: ArrowColumn, row0: int, threads: int, fields: Sequence[str], base: Optional[str]
) -> ArrowColumn:
    """The struct of the getters ``fields``; a null row where the row is
    null or fails to parse."""
    arr = _import(col)
    typ = _text_type(arr)
    parse = _whatwg_parser(base)
    children: List[List[Optional[str]]] = [[] for _ in fields]
    valid: List[bool] = []
    for v in _rows(arr, row0):
        record = None if v is None else parse(v)
        valid.append(record is not None)
        url = None if record is None else whatwg.to_url(record)
        for child, field in zip(children, fields):
            child.append(None if url is None else getattr(url, field))
    mask = pa.array([not ok for ok in valid], type=pa.bool_())
    out = pa.StructArray.from_arrays(
        [pa.array(child, type=typ) for child in children],
        fields=[pa.field(f, typ) for f in fields],
        mask=mask,
    )
    return _export(out)


def search_params_type(text: pa.DataType) -> pa.DataType:
    """whatwg_search_params' type: list<struct<name, value>>, of ``text``."""
    return pa.list_(pa.struct([pa.field("name", text), pa.field("value", text)]))


def whatwg_search_params(
    col: ArrowColumn, row0: int, threads: int, base: Optional[str]
) -> ArrowColumn:
    """The (name, value) pairs of each row's ``search_params``, in order;
    null where the row fails to parse."""
    arr = _import(col)
    parse = _whatwg_parser(base)
    rows: List[Optional[List[Dict[str, str]]]] = []
    for v in _rows(arr, row0):
        record = None if v is None else parse(v)
        if record is None:
            rows.append(None)
        else:
            # the URL's query object: its query (null: the empty string)
            # parsed as it is, without dropping a leading "?"
            pairs = urlencoded_string_parse(record.query or "")
            rows.append([{"name": name, "value": value} for name, value in pairs])
    return _export(pa.array(rows, type=search_params_type(_text_type(arr))))
