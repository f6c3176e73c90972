"""Spark DataFrame functions built on ``mapInArrow``, and Spark SQL functions
(docs/reference.md §7).

::

    import fasturi.spark as fs

    df = fs.with_uri_columns(df, "url", fields=["host", "path", "query"])
    df = fs.normalize(df, "url", into="url_norm")
    df = fs.canonicalize(df, "url", into="key", drop_params=["utm_*"])
    df = fs.registrable_domain(df, "url")          # adds url_registrable_domain
    df = fs.resolve(df, "href", base_column="page", into="target")

    fs.register(spark)
    spark.sql("SELECT uri_surt(url), uri_host(url) FROM crawl")

Every function of ``fasturi.arrow.FUNCTIONS`` is a function here,
``NAME(df, column, *options, into=None, threads=1, **options)``: Spark hands
each partition to a Python worker as Arrow record batches; the function runs
the ``fasturi.arrow`` function on the whole column of a batch and hands the
batch back with its result column, so the executor makes no Python object
per row.  The output schema is declared up front (the input's columns, then
the new one; a column named by ``into`` that already exists is replaced in
place), so Spark plans the query without running it.  Without ``into``, a
function that rewrites the URL (``normalize``, ``canonicalize``,
``resolve``, ``remove_params``, ``whatwg_href``, ``whatwg_replace``)
replaces the column, the others add ``<column>_<name>`` (``<column>_valid``
for ``is_valid``).  A null gives a null.  List results (``query_params``,
``path_hierarchy``, ``whatwg_search_params``) are ``array`` columns;
``uint64`` results (``fingerprint``) are ``decimal(20,0)``, Spark having no
unsigned integers.

``register(spark)`` adds ``uri_NAME`` to Spark SQL for every function, with
its options as positional arguments in order (as DuckDB's): Arrow UDFs on
Spark 4.1 and later, pandas UDFs (over Arrow-backed columns) before.  A
pandas UDF cannot give a NULL struct: before Spark 4.1, ``uri_split`` and
``uri_whatwg_split`` give a struct of NULLs where the others give NULL.

The workers import fasturi (and pyarrow) themselves: install both wherever
the executors' Python runs.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType, DecimalType, StringType, StructField, StructType

from . import arrow
from ._functions import FUNCTIONS, Function, default_into, probe, sql_call

__all__ = ["register", "with_uri_columns", *FUNCTIONS]


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
    outputs = [(default_into(column, FUNCTIONS["resolve"], into), StringType())]
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


# ---- every function of the table -------------------------------------------------


def _spark_type(typ: Any) -> DataType:
    """The Spark type of a ``fasturi.arrow`` result type."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_type

    if typ == pa.uint64():
        return DecimalType(20, 0)
    if typ == pa.large_string() or typ == pa.string_view():
        return StringType()
    return from_arrow_type(typ)


def _for_spark(result: Any) -> Any:
    """A result column as Spark takes it back (uint64 as decimal(20,0))."""
    import pyarrow as pa

    if isinstance(result, (pa.Array, pa.ChunkedArray)) and result.type == pa.uint64():
        return result.cast(pa.decimal128(20, 0))
    return result


def _probe(func: Function, bound: Dict[str, Any]) -> Any:
    """``fasturi.arrow.<name>`` on no rows: checks the options on the driver
    and gives the result's Arrow type."""
    given = dict(bound)
    given[func.column.name] = []
    if func.name == "resolve" and not isinstance(given.get("base"), str):
        given["base"] = []
    return getattr(arrow, func.name)(**given).type


def _frame_function(func: Function) -> Callable[..., DataFrame]:
    target = getattr(arrow, func.name)

    def function(
        df: DataFrame,
        column: str,
        *args: Any,
        into: Optional[str] = None,
        threads: Optional[int] = 1,
        **kwargs: Any,
    ) -> DataFrame:
        bound = func.bind([], args, kwargs)
        for p in func.options:  # iterables of names read once, here
            if p.type in ("fields", "list[str]") and isinstance(bound.get(p.name), Iterable):
                if not isinstance(bound[p.name], str):
                    bound[p.name] = tuple(bound[p.name])
        typ = _spark_type(_probe(func, bound))
        name = func.column.name

        def compute(col: Any) -> List[Any]:
            return [_for_spark(target(**{**bound, name: col, "threads": threads}))]

        return _map(df, [column], [(default_into(column, func, into), typ)], compute)

    function.__name__ = function.__qualname__ = func.name
    function.__doc__ = (
        f"``fasturi.arrow.{func.signature()}`` of ``column`` into ``into``. {func.summary}"
    )
    return function


for _name, _func in FUNCTIONS.items():
    if _name != "resolve":  # (resolve takes a base column too: above)
        globals()[_name] = _frame_function(_func)
del _name, _func


# ---- Spark SQL ---------------------------------------------------------------------


def _sql_udf(func: Function, arrow_udf: bool) -> Any:
    """``uri_<name>`` as a Spark UDF of every SQL argument given (the
    trailing options may be left out): an Arrow UDF, or a pandas UDF
    (whose Series are handed to the kernels as they are, Arrow-backed
    where Spark makes them so)."""
    from pyspark.sql import functions as F

    target = getattr(arrow, func.name)
    typ = _spark_type(target(**probe(func)).type)

    # (no annotations: Spark would read them as its type hints)
    def body(*columns):  # type: ignore[no-untyped-def]
        result = target(**sql_call(func, columns))
        return _for_spark(result) if arrow_udf else _pandas_out(result)

    if arrow_udf:
        return F.arrow_udf(body, typ)  # type: ignore[attr-defined]
    import warnings

    with warnings.catch_warnings():  # (type hints cannot say "any number of Series")
        warnings.simplefilter("ignore", UserWarning)
        return F.pandas_udf(body, typ, F.PandasUDFType.SCALAR)  # type: ignore[attr-defined]


def _pandas_out(result: Any) -> Any:
    """A pandas UDF's result: uint64 as Spark's decimal(20,0) takes it, a
    list column as Python lists (Spark's converter reads a null list's
    ``NA`` as a list, and fails)."""
    import pandas as pd

    if isinstance(result, pd.Series) and str(result.dtype).startswith("uint64"):
        from decimal import Decimal

        return result.astype(object).map(lambda v: None if pd.isna(v) else Decimal(int(v)))
    if isinstance(result, pd.Series) and str(result.dtype).startswith(("list<", "large_list<")):
        import pyarrow as pa

        rows = pa.array(result.array).to_pylist()
        return pd.Series(rows, index=result.index, name=result.name, dtype=object)
    return result


def register(spark: Any) -> Any:
    """Add ``uri_NAME`` to ``spark``'s SQL for every function of
    ``fasturi.arrow.FUNCTIONS`` (options positional, in order; split's
    struct holds every field); returns ``spark``."""
    from pyspark.sql import functions as F

    arrow_udf = hasattr(F, "arrow_udf")
    for name, func in FUNCTIONS.items():
        spark.udf.register(f"uri_{name}", _sql_udf(func, arrow_udf))
    return spark
