"""Partition-wise helpers for Dask dataframes and bags (docs/reference.md §7).

Every function of ``fasturi.arrow.FUNCTIONS`` is an operation (listed in
``OPERATIONS``).  A dataframe partition's column goes whole through the
``fasturi.arrow`` function of the operation: on an Arrow-backed string
column (Dask's default for text, pandas 3's ``str``) no Python object is
made per row::

    import dask.dataframe as dd
    import fasturi.dask as fd

    ddf = dd.read_parquet("crawl/*.parquet")
    ddf["url"] = fd.apply(ddf, "url", "normalize")
    ddf["site"] = fd.apply(ddf, "url", "registrable_domain")
    parts = fd.apply(ddf, "url", "split", fields=["host", "path"])

A bag partition's items (``str`` or ``None``) go through the same function
as one column, and come back as its rows' Python values
(``fd.map_bag(bag, "host")``, or ``fd.apply(bag, None, "host")``).  A null
gives a null.  The ``*_partition`` functions take and return pandas objects
and need neither Dask nor a cluster.  Dask itself is imported only by
``map_bag`` and ``apply``; pandas only when a dataframe helper runs.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List

import fasturi

from ._functions import FUNCTIONS, REQUIRED, Function

#: The operations of ``apply``, ``partition`` and ``map_bag``: the names of
#: ``fasturi.arrow.FUNCTIONS``.
OPERATIONS = tuple(FUNCTIONS)
#: The operations of bags (every one, as for dataframes).
BAG_OPERATIONS = OPERATIONS

# Columns of the dataframe that ``split`` gives by default: the Split fields.
SPLIT_COLUMNS = tuple(fasturi.Split._fields)


def _function(op: str) -> Function:
    if not isinstance(op, str) or op not in FUNCTIONS:
        raise ValueError(f"unknown operation {op!r}; choose from {', '.join(OPERATIONS)}")
    return FUNCTIONS[op]


def _call(op: str, column: Any, options: Dict[str, Any]) -> Any:
    """``fasturi.arrow.<op>`` of ``column`` with ``options`` (by name; a
    missing required one, as ``resolve``'s ``base``, raises TypeError)."""
    from . import arrow

    func = _function(op)
    options = dict(options)
    options.setdefault("threads", 1)  # Dask already runs one partition per worker thread
    names = {p.name for p in func.options}
    for key in options:
        if key not in names and key != "threads":
            raise TypeError(f"operation {op!r} takes no argument {key!r}")
    for p in func.options:
        if p.default is REQUIRED and p.name not in options:
            raise TypeError(f"operation {op!r} needs the keyword argument {p.name!r}")
    bound = func.bind(column, (), options)
    target: Callable[..., Any] = getattr(arrow, op)
    return target(**bound)


# ---- dataframes: fasturi.arrow per partition ---------------------------------


def partition(series: Any, op: str, **options: Any) -> Any:
    """The ``fasturi.arrow`` function ``op`` on one pandas Series.

    Gives a Series with the same index and name (a DataFrame for a struct
    result: ``"split"``, ``"whatwg_split"``).  Options are the arrow
    function's, by name (``"resolve"`` needs ``base=``).  ``threads``
    defaults to 1: Dask already runs one partition per worker thread.
    """
    return _call(op, series, options)


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


def _is_bag(obj: Any) -> bool:
    return type(obj).__name__ == "Bag" and type(obj).__module__.startswith("dask.bag")


def apply(frame: Any, column: Any, op: str, **options: Any) -> Any:
    """``op`` over one column of a Dask DataFrame, one ``fasturi.arrow`` call
    per partition.

    Returns a Dask Series (named ``column``, same index and divisions), or
    for a struct result a Dask DataFrame with one column per field (``split``'s
    ``fields=``, by default ``scheme, authority, path, query, fragment``).
    ``frame`` may be a Dask bag of URLs, ``column`` then None: as
    ``map_bag``.  Options are checked on the client, before any task is
    scheduled.
    """
    if _is_bag(frame):
        if column is not None:
            raise TypeError("a bag has no columns: pass column=None")
        return map_bag(frame, op, **options)
    import pandas as pd

    series = frame[column]
    if op == "split":
        options.setdefault("fields", SPLIT_COLUMNS)
    # The partition function on an empty column: checks op and options here
    # and gives Dask the result's columns and dtypes.
    meta = partition(pd.Series([], dtype=series.dtype, name=column), op, **options)
    return series.map_partitions(partition, op, meta=meta, **options)


# ---- bags: the same functions, a partition's items as one column ----------------


def run_many(values: Iterable[Any], op: str, **options: Any) -> List[Any]:
    """``fasturi.arrow.<op>`` of the values (``str`` or None) as one column:
    its rows as Python values (a dict per row for a struct result).
    ``errors="none"`` turns an item that is neither into None (else it
    raises TypeError naming its position)."""
    items = list(values)
    options = dict(options)
    if options.get("errors") == "none" and op != "percent_decode":
        options.pop("errors")
        items = [v if isinstance(v, str) else None for v in items]
    result = _call(op, items, options)
    return list(result.to_pylist())


def _bag_partition(items: Iterable[Any], op: str, options: Dict[str, Any]) -> List[Any]:
    return run_many(items, op, **options)


def map_bag(bag: Any, op: str, **options: Any) -> Any:
    """A Dask bag of ``op``'s results, one ``fasturi.arrow`` call per
    partition (its items as one column; see ``run_many``)."""
    # An empty partition checks every option on the client.
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
