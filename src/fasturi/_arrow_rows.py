"""The reference column kernels' reading and writing of one chunk: an
``ArrowColumn`` in as a pyarrow array, its rows as Python values, a result
out as an ``ArrowColumn``.  Shared by ``_arrow_py`` and
``_whatwg_arrow_py``, which both build on it (and on nothing of each
other's but ``_arrow_py``'s re-export of the WHATWG kernels)."""

from __future__ import annotations

from typing import Any, Callable, Iterator, List, Optional

import pyarrow as pa

from ._types import ArrowColumn, invalid_utf8


def _import(col: ArrowColumn) -> pa.Array:
    return pa.array(col)


def _export(arr: pa.Array) -> ArrowColumn:
    return ArrowColumn(*arr.__arrow_c_array__())


def _rows(arr: pa.Array, row0: int) -> Iterator[Optional[str]]:
    """The rows as str, in row order.  Arrow producers need not validate
    UTF-8: reaching a row that is not raises ValueError naming it, so that,
    as in the compiled kernels, whichever row fails first is the one named."""
    try:
        rows: List[Optional[str]] = arr.to_pylist()
    except UnicodeDecodeError:
        pass
    else:
        yield from rows
        return
    raw = arr.cast(pa.binary_view() if arr.type == pa.string_view() else pa.large_binary())
    for i, value in enumerate(raw.to_pylist()):
        if value is None:
            yield None
            continue
        try:
            yield value.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid_utf8(row0 + i) from None


def _text_type(arr: pa.Array) -> pa.DataType:
    return pa.large_string() if arr.type == pa.large_string() else pa.string()


def _map(col: ArrowColumn, row0: int, fn: Callable[[str], Any], typ: Any = None) -> ArrowColumn:
    arr = _import(col)
    out = [None if v is None else fn(v) for v in _rows(arr, row0)]
    return _export(pa.array(out, type=_text_type(arr) if typ is None else typ))
