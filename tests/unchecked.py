"""Arrow string columns built from raw bytes, which pyarrow does not
validate: what a careless producer hands over (rows that are not UTF-8)."""

from __future__ import annotations

import itertools

import pyarrow as pa


def unchecked_strings(rows: list[bytes]) -> pa.Array:
    """A ``pa.string()`` array of the rows, their bytes as they are, in one
    data buffer that ends with the last row."""
    offsets = pa.array([0, *itertools.accumulate(map(len, rows))], type=pa.int32())
    return pa.Array.from_buffers(
        pa.string(), len(rows), [None, offsets.buffers()[1], pa.py_buffer(b"".join(rows))]
    )
