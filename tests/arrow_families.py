"""The input families of fasturi.arrow (docs/reference.md §6), each holding
the same rows, and the rows of a result in any of them: shared by the tests
of its functions."""

from __future__ import annotations

import sysconfig

import pandas as pd
import pyarrow as pa
import pytest

# A free-threaded interpreter loads no abi3 wheel, and polars ships only
# those: there, and only there, polars is absent (its family left out, its
# own tests skipped); anywhere else a missing polars is an error.
# nanoarrow installs there, but its extension does not declare that it runs
# without the GIL: importing it turns the GIL back on for the rest of the
# run, which would then no longer test what it is for.
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
try:
    import polars as pl
except ImportError:
    if not FREE_THREADED:
        raise
    pl = None
needs_polars = pytest.mark.skipif(
    pl is None, reason="polars has no free-threaded build (abi3 wheels only)"
)
needs_nanoarrow = pytest.mark.skipif(
    FREE_THREADED, reason="importing nanoarrow turns the GIL back on"
)


def families(rows):
    """(name, column) for each input family, each holding `rows`."""
    yield "list", rows
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        yield str(typ), pa.array(rows, type=typ)
    half = len(rows) // 2
    yield "chunked", pa.chunked_array([rows[:half], rows[half:]], type=pa.string())
    padded = pa.array(["pad", None] + rows + ["tail"], type=pa.string())
    yield "sliced", padded.slice(2, len(rows))
    if pl is not None:
        yield "polars", pl.Series("url", rows, dtype=pl.String)
    yield (
        "pandas",
        pd.Series(rows, dtype=pd.ArrowDtype(pa.string()), index=range(10, 10 + len(rows))),
    )


def as_rows(result):
    """A result's rows as Python values (None for a null)."""
    if isinstance(result, (pa.Array, pa.ChunkedArray)):
        return result.to_pylist()
    if pl is not None and isinstance(result, pl.Series):
        return result.to_list()
    if isinstance(result, pd.DataFrame):
        # a null struct row is a row of nulls
        rows = [
            {k: (None if pd.isna(v) else v) for k, v in r.items()}
            for r in result.to_dict("records")
        ]
        return [None if all(v is None for v in r.values()) else r for r in rows]
    return [None if v is pd.NA else v for v in result.tolist()]
