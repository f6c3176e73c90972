"""Partition-wise helpers for Dask bags and dataframes (and pandas UDFs).

Each partition goes through one call of fasturi's batch functions
(``split_many``, ``normalize_many``, ``canonicalize_many``, ``resolve_many``),
so the per-item cost is the compiled loop's, not a Python call per row::

    import dask.bag as db
    import fasturi.dask as fd

    keys = fd.map_bag(db.read_text("urls-*.txt").map(str.rstrip), "canonicalize",
                      drop_params=("utm_*",))
    ddf["url"] = fd.apply(ddf, "url", "normalize")

The ``*_partition`` functions take and return pandas objects and need neither
Dask nor a cluster: they also serve as Spark ``pandas_udf`` / ``mapInPandas``
bodies (see docs/scale-out.md).  Dask itself is imported only by
``map_bag`` and ``apply``.

Missing values: a partition holding ``None`` or ``NaN`` raises ``TypeError``
naming the item's position inside its partition, as the batch functions do;
pass ``errors="none"`` to turn such items into ``None`` instead.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List

import fasturi

OPERATIONS = ("split", "normalize", "canonicalize", "resolve")

# Columns of the dataframe that ``split`` gives: the Split fields.
SPLIT_COLUMNS = tuple(fasturi.Split._fields)


def _pandas() -> Any:
    # Imported when used, so this module loads without pandas.
    import importlib

    return importlib.import_module("pandas")


def _batch(op: str) -> Callable[..., List[Any]]:
    if op == "split":
        return fasturi.split_many
    if op == "normalize":
        return fasturi.normalize_many
    if op == "canonicalize":
        return fasturi.canonicalize_many
    if op == "resolve":
        return fasturi.resolve_many
    raise ValueError(f"unknown operation {op!r}; choose from {', '.join(OPERATIONS)}")


def _check(op: str, options: Dict[str, Any]) -> None:
    """Fail on the client, before a graph is built: bad op, options or base."""
    if op != "resolve" and "base" in options:
        _batch(op)
        raise TypeError(f"operation {op!r} takes no argument 'base'")
    # An empty batch checks every option (and resolve's base) as a real one would.
    run_many((), op, **options)


def run_many(values: Iterable[Any], op: str, **options: Any) -> List[Any]:
    """Apply ``op`` to every value with one batch call; returns a list."""
    batch = _batch(op)
    if op == "resolve":
        options = dict(options)
        if "base" not in options:
            raise TypeError("operation 'resolve' needs the keyword argument 'base'")
        return batch(options.pop("base"), values, **options)
    return batch(values, **options)


def _series(series: Any, op: str, options: Dict[str, Any]) -> Any:
    pd = _pandas()

    result = run_many(series.tolist(), op, **options)
    return pd.Series(result, index=series.index, name=series.name, dtype=object)


def split_partition(series: Any, **options: Any) -> Any:
    """``split_many`` over a pandas Series: a DataFrame of the Split fields.

    Undefined components are ``None``; the index is the Series' index.
    """
    pd = _pandas()

    rows = run_many(series.tolist(), "split", **options)
    empty = (None,) * len(SPLIT_COLUMNS)
    return pd.DataFrame(
        [empty if r is None else tuple(r) for r in rows],
        index=series.index,
        columns=list(SPLIT_COLUMNS),
        dtype=object,
    )


def normalize_partition(series: Any, **options: Any) -> Any:
    """``normalize_many`` over a pandas Series (same index and name)."""
    return _series(series, "normalize", options)


def canonicalize_partition(series: Any, **options: Any) -> Any:
    """``canonicalize_many`` over a pandas Series (same index and name)."""
    return _series(series, "canonicalize", options)


def resolve_partition(series: Any, base: str, **options: Any) -> Any:
    """``resolve_many(base, ...)`` over a pandas Series of references."""
    return _series(series, "resolve", dict(options, base=base))


def partition(series: Any, op: str, **options: Any) -> Any:
    """The ``*_partition`` function named by ``op``, applied to ``series``."""
    _batch(op)
    if op == "split":
        return split_partition(series, **options)
    return _series(series, op, options)


def _bag_partition(items: Iterable[Any], op: str, options: Dict[str, Any]) -> List[Any]:
    return run_many(items, op, **options)


def _frame_partition(series: Any, op: str, options: Dict[str, Any]) -> Any:
    return partition(series, op, **options)


def map_bag(bag: Any, op: str, **options: Any) -> Any:
    """A Dask bag of ``op``'s results, one batch call per partition.

    ``op`` is ``"split"``, ``"normalize"``, ``"canonicalize"`` or
    ``"resolve"`` (which needs ``base=``); ``options`` go to the batch
    function.  Items of the result are Split tuples for ``split``, else str.
    """
    _check(op, options)
    return bag.map_partitions(_bag_partition, op, options)


def apply(frame: Any, column: str, op: str, **options: Any) -> Any:
    """``op`` over one column of a Dask DataFrame, one batch call per partition.

    Returns a Dask Series (object dtype, named ``column``, same index and
    divisions), or for ``"split"`` a Dask DataFrame with the columns
    ``scheme, authority, path, query, fragment``.  ``"resolve"`` needs
    ``base=``.
    """
    pd = _pandas()

    _check(op, options)
    series = frame[column]
    if op == "split":
        meta: Any = pd.DataFrame({c: pd.Series([], dtype=object) for c in SPLIT_COLUMNS})
    else:
        meta = pd.Series([], dtype=object, name=column)
    return series.map_partitions(_frame_partition, op, options, meta=meta)


__all__ = [
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
