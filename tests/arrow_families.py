"""The input families of fasturi.arrow (docs/reference.md §6), each holding
the same rows, and the rows of a result in any of them: shared by the tests
of its functions."""

from __future__ import annotations

import pandas as pd
import polars as pl
import pyarrow as pa


def families(rows):
    """(name, column) for each input family, each holding `rows`."""
    yield "list", rows
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        yield str(typ), pa.array(rows, type=typ)
    half = len(rows) // 2
    yield "chunked", pa.chunked_array([rows[:half], rows[half:]], type=pa.string())
    padded = pa.array(["pad", None] + rows + ["tail"], type=pa.string())
    yield "sliced", padded.slice(2, len(rows))
    yield "polars", pl.Series("url", rows, dtype=pl.String)
    yield (
        "pandas",
        pd.Series(rows, dtype=pd.ArrowDtype(pa.string()), index=range(10, 10 + len(rows))),
    )


def as_rows(result):
    """A result's rows as Python values (None for a null)."""
    if isinstance(result, (pa.Array, pa.ChunkedArray)):
        return result.to_pylist()
    if isinstance(result, pl.Series):
        return result.to_list()
    if isinstance(result, pd.DataFrame):
        # a null struct row is a row of nulls
        rows = [
            {k: (None if pd.isna(v) else v) for k, v in r.items()}
            for r in result.to_dict("records")
        ]
        return [None if all(v is None for v in r.values()) else r for r in rows]
    return [None if v is pd.NA else v for v in result.tolist()]
