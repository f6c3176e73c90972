"""Spark DataFrame functions built on ``mapInArrow`` (docs/reference.md §7).

::

    import fasturi.spark as fs

    df = fs.with_uri_columns(df, "url", fields=["host", "path", "query"])
    df = fs.normalize(df, "url", into="url_norm")
    df = fs.canonicalize(df, "url", into="key", drop_params=["utm_*"])
    df = fs.resolve(df, "href", base_column="page", into="target")

Spark hands each partition to a Python worker as Arrow record batches; each
function runs the ``fasturi.arrow`` function on the whole column of a batch
and hands the batch back with its result column, so the executor makes no
Python object per row.  The output schema is declared up front (the input's
columns, then the new ones; a column named by ``into`` that already exists
is replaced in place), so Spark plans the query without running it.  Text
results are ``string``, ``is_valid`` gives ``boolean``; a null gives a null.

The workers import fasturi (and pyarrow) themselves: install both wherever
the executors' Python runs.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

from pyspark.sql import DataFrame
from pyspark.sql.types import BooleanType, DataType, StringType, StructField, StructType

from . import arrow

__all__ = ["canonicalize", "is_valid", "normalize", "resolve", "with_uri_columns"]


def _plan(
    df: DataFrame, outputs: Sequence[Tuple[str, DataType]]
) -> Tuple[StructType, List[Optional[int]]]:
    """The result schema, and for each output the input position it replaces
    (``None``: appended)."""
    fields = list(df.schema.fields)
    names = [f.name for f in fields]
    places: List[Optional[int]] = []
    for name, typ in outputs:
        if name in names:
            i = names.index(name)
            fields[i] = StructField(name, typ, True)
            places.append(i)
        else:
            fields.append(StructField(name, typ, True))
            names.append(name)
            places.append(None)
    return StructType(fields), places


def _map(
    df: DataFrame,
    inputs: Sequence[str],
    outputs: Sequence[Tuple[str, DataType]],
    compute: Callable[..., List[Any]],
) -> DataFrame:
    """``df.mapInArrow``: ``compute(*input_columns)`` gives the output
    columns of each batch, placed as ``_plan`` says."""
    for column in inputs:
        if column not in df.columns:
            raise ValueError(f"no column {column!r}; the DataFrame has {', '.join(df.columns)}")
    schema, places = _plan(df, outputs)
    names = [f.name for f in schema.fields]

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            columns = list(batch.columns)
            results = compute(*(batch.column(c) for c in inputs))
            for place, result in zip(places, results):
                if place is None:
                    columns.append(result)
                else:
                    columns[place] = result
            yield pa.RecordBatch.from_arrays(columns, names=names)

    return df.mapInArrow(run, schema)


def with_uri_columns(
    df: DataFrame,
    column: str,
    fields: Iterable[str] = arrow._DEFAULT_FIELDS,
    *,
    prefix: str = "",
    threads: Optional[int] = 1,
) -> DataFrame:
    """``df`` with one string column per component of ``column``
    (``fasturi.arrow.split``), named ``prefix + field``.

    ``threads=1`` by default: Spark already runs one task per core.
    """
    names = fields if isinstance(fields, str) else tuple(fields)
    arrow.split([], names)  # a bad field fails here, on the driver

    def compute(col: Any) -> List[Any]:
        parts = arrow.split(col, names, threads=threads)
        return [parts.field(i) for i in range(len(names))]

    return _map(df, [column], [(prefix + f, StringType()) for f in names], compute)


def _into(column: str, into: Optional[str]) -> str:
    return column if into is None else into


def normalize(
    df: DataFrame,
    column: str,
    *,
    into: Optional[str] = None,
    scheme_based: bool = True,
    threads: Optional[int] = 1,
) -> DataFrame:
    """``fasturi.arrow.normalize`` of ``column`` into ``into`` (default:
    ``column`` itself, replaced)."""
    return _map(
        df,
        [column],
        [(_into(column, into), StringType())],
        lambda col: [arrow.normalize(col, scheme_based=scheme_based, threads=threads)],
    )


def canonicalize(
    df: DataFrame,
    column: str,
    *,
    into: Optional[str] = None,
    threads: Optional[int] = 1,
    **options: Any,
) -> DataFrame:
    """``fasturi.arrow.canonicalize`` of ``column`` (options ``sort_query``,
    ``drop_fragment``, ``drop_params``) into ``into``."""
    arrow.canonicalize([], **options)
    return _map(
        df,
        [column],
        [(_into(column, into), StringType())],
        lambda col: [arrow.canonicalize(col, threads=threads, **options)],
    )


def is_valid(
    df: DataFrame,
    column: str,
    rule: str = "URI-reference",
    *,
    into: Optional[str] = None,
    rfc: int = 3986,
    threads: Optional[int] = 1,
) -> DataFrame:
    """``fasturi.arrow.is_valid`` of ``column``: a boolean column ``into``
    (default ``column + "_valid"``)."""
    arrow.is_valid([], rule, rfc=rfc)
    return _map(
        df,
        [column],
        [(into if into is not None else column + "_valid", BooleanType())],
        lambda col: [arrow.is_valid(col, rule, rfc=rfc, threads=threads)],
    )


def resolve(
    df: DataFrame,
    column: str,
    base: Optional[str] = None,
    *,
    base_column: Optional[str] = None,
    into: Optional[str] = None,
    strict: bool = True,
    rfc: int = 3986,
    threads: Optional[int] = 1,
) -> DataFrame:
    """Every reference of ``column`` resolved (RFC 3986 §5.2) against
    ``base`` (one URI for every row) or ``base_column`` (one per row), into
    ``into`` (default: ``column``, replaced).  A null or relative base gives
    null."""
    if (base is None) == (base_column is None):
        raise TypeError("resolve() needs exactly one of 'base' and 'base_column'")
    arrow.resolve("http://a/", [], strict=strict, rfc=rfc)
    outputs = [(_into(column, into), StringType())]
    if base is not None:
        arrow.resolve(base, [], strict=strict, rfc=rfc)
        return _map(
            df,
            [column],
            outputs,
            lambda refs: [arrow.resolve(base, refs, strict=strict, rfc=rfc, threads=threads)],
        )
    return _map(
        df,
        [column, base_column],  # type: ignore[list-item]
        outputs,
        lambda refs, bases: [arrow.resolve(bases, refs, strict=strict, rfc=rfc, threads=threads)],
    )
