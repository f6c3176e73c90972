"""Partition-wise helpers for Dask dataframes and bags (docs/reference.md §7).

A dataframe partition's column goes whole through the ``fasturi.arrow``
function of the operation: on an Arrow-backed string column (Dask's default
for text, pandas 3's ``str``) no Python object is made per row::

    import dask.dataframe as dd
    import fasturi.dask as fd

    ddf = dd.read_parquet("crawl/*.parquet")
    ddf["url"] = fd.apply(ddf, "url", "normalize")
    parts = fd.apply(ddf, "url", "split", fields=["host", "path"])

A null gives a null.  The ``*_partition`` functions take and return pandas
objects and need neither Dask nor a cluster.  Bags hold Python strings, so
``map_bag`` calls the batch functions (``normalize_many`` ...) once per
partition instead.  Dask itself is imported only by ``map_bag`` and
``apply``; pandas only when a dataframe helper runs.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List

import fasturi

#: Operations of ``apply`` / ``partition``: the ``fasturi.arrow`` functions.
OPERATIONS = (
    "split",
    "normalize",
    "canonicalize",
    "resolve",
    "is_valid",
    "error_position",
    "percent_decode",
)
#: Operations of ``map_bag`` / ``run_many``: the batch functions.
BAG_OPERATIONS = ("split", "normalize", "canonicalize", "resolve")

# Columns of the dataframe that ``split`` gives by default: the Split fields.
SPLIT_COLUMNS = tuple(fasturi.Split._fields)


def _unknown(op: str, choices: Iterable[str]) -> ValueError:
    return ValueError(f"unknown operation {op!r}; choose from {', '.join(choices)}")


# ---- dataframes: fasturi.arrow per partition ---------------------------------


def partition(series: Any, op: str, **options: Any) -> Any:
    """The ``fasturi.arrow`` function ``op`` on one pandas Series.

    Gives a Series with the same index and name (a DataFrame for
    ``"split"``).  ``"resolve"`` needs ``base=`` (a ``str``); the other
    options are the arrow function's.  ``threads`` defaults to 1: Dask
    already runs one partition per worker thread.
    """
    from . import arrow

    if op not in OPERATIONS:
        raise _unknown(op, OPERATIONS)
    options = dict(options)
    options.setdefault("threads", 1)
    if op == "resolve":
        if "base" not in options:
            raise TypeError("operation 'resolve' needs the keyword argument 'base'")
        return arrow.resolve(options.pop("base"), series, **options)
    if "base" in options:
        raise TypeError(f"operation {op!r} takes no argument 'base'")
    func: Callable[..., Any] = getattr(arrow, op)
    return func(series, **options)


def split_partition(series: Any, fields: Iterable[str] = SPLIT_COLUMNS, **options: Any) -> Any:
    """``fasturi.arrow.split`` of a pandas Series: a DataFrame with one
    column per field (the Split fields by default), the Series' index."""
    return partition(series, "split", fields=tuple(fields), **options)


def normalize_partition(series: Any, **options: Any) -> Any:
    """``fasturi.arrow.normalize`` of a pandas Series (same index and name)."""
    return partition(series, "normalize", **options)


def canonicalize_partition(series: Any, **options: Any) -> Any:
    """``fasturi.arrow.canonicalize`` of a pandas Series (same index and name)."""
    return partition(series, "canonicalize", **options)


def resolve_partition(series: Any, base: str, **options: Any) -> Any:
    """``fasturi.arrow.resolve(base, series)``: a pandas Series of references
    resolved against one base."""
    return partition(series, "resolve", base=base, **options)


def apply(frame: Any, column: str, op: str, **options: Any) -> Any:
    """``op`` over one column of a Dask DataFrame, one ``fasturi.arrow`` call
    per partition.

    Returns a Dask Series (named ``column``, same index and divisions), or
    for ``"split"`` a Dask DataFrame with one column per field (``fields=``,
    by default ``scheme, authority, path, query, fragment``).  Options are
    checked on the client, before any task is scheduled.
    """
    import pandas as pd

    series = frame[column]
    if op == "split":
        options.setdefault("fields", SPLIT_COLUMNS)
    # The partition function on an empty column: checks op and options here
    # and gives Dask the result's columns and dtypes.
    meta = partition(pd.Series([], dtype=series.dtype, name=column), op, **options)
    return series.map_partitions(partition, op, meta=meta, **options)


# ---- bags: the batch functions per partition -----------------------------------


def _batch(op: str) -> Callable[..., List[Any]]:
    if op == "split":
        return fasturi.split_many
    if op == "normalize":
        return fasturi.normalize_many
    if op == "canonicalize":
        return fasturi.canonicalize_many
    if op == "resolve":
        return fasturi.resolve_many
    raise _unknown(op, BAG_OPERATIONS)


def run_many(values: Iterable[Any], op: str, **options: Any) -> List[Any]:
    """Apply the batch function ``op`` to every value with one call; returns
    a list (``Split`` tuples for ``"split"``)."""
    batch = _batch(op)
    if op == "resolve":
        options = dict(options)
        if "base" not in options:
            raise TypeError("operation 'resolve' needs the keyword argument 'base'")
        return batch(options.pop("base"), values, **options)
    if "base" in options:
        raise TypeError(f"operation {op!r} takes no argument 'base'")
    return batch(values, **options)


def _bag_partition(items: Iterable[Any], op: str, options: Dict[str, Any]) -> List[Any]:
    return run_many(items, op, **options)


def map_bag(bag: Any, op: str, **options: Any) -> Any:
    """A Dask bag of ``op``'s results, one batch call per partition.

    ``op`` is ``"split"``, ``"normalize"``, ``"canonicalize"`` or
    ``"resolve"`` (which needs ``base=``); ``options`` go to the batch
    function (``errors="none"`` turns a non-str item into ``None``).
    """
    # An empty batch checks every option (and resolve's base) on the client.
    run_many((), op, **options)
    return bag.map_partitions(_bag_partition, op, options)


__all__ = [
    "BAG_OPERATIONS",
    "OPERATIONS",
    "SPLIT_COLUMNS",
    "apply",
    "canonicalize_partition",
    "map_bag",
    "normalize_partition",
    "partition",
    "resolve_partition",
    "run_many",
    "split_partition",
]
