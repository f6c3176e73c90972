"""SQL scalar functions for DuckDB (docs/reference.md §7), vectorized through Arrow.

::

    import duckdb
    import fasturi.duckdb

    con = duckdb.connect()
    fasturi.duckdb.register(con)
    con.sql(\"\"\"
        SELECT uri_host(url) AS host, count(*) AS hits
        FROM read_parquet('logs/*.parquet')
        GROUP BY host ORDER BY hits DESC
    \"\"\")

Each function receives whole vectors of ``VARCHAR`` as Arrow arrays and runs
the ``fasturi.arrow`` function on them: no Python object per row on the
compiled core.  NULL in, NULL out.  The functions, all on ``VARCHAR``:

========================  =========  =====================================
``uri_normalize(u)``      VARCHAR    ``fasturi.normalize`` (§6.2.2, §6.2.3)
``uri_canonicalize(u)``   VARCHAR    ``fasturi.canonicalize``, default options
``uri_is_valid(u)``       BOOLEAN    a URI-reference by RFC 3986
``uri_scheme(u)`` …       VARCHAR    one component: ``scheme``, ``host``,
                                     ``port`` (the text), ``path``,
                                     ``query``, ``fragment``; NULL where
                                     undefined, ``''`` where empty
``uri_resolve(base, r)``  VARCHAR    ``fasturi.resolve`` (§5.2); NULL where
                                     ``base`` is not absolute
``uri_registrable_domain  VARCHAR    ``fasturi.registrable_domain`` (ICANN
(u)``                                section of the Public Suffix List)
``uri_public_suffix(u)``  VARCHAR    ``fasturi.public_suffix``
``uri_surt(u)``           VARCHAR    ``fasturi.surt``
``uri_fingerprint(u)``    UBIGINT    ``fasturi.fingerprint``, default options
========================  =========  =====================================
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Dict, Tuple

import duckdb
import pyarrow as pa
from duckdb import sqltypes

from . import arrow

__all__ = ["FUNCTIONS", "register"]

_TEXT = sqltypes.VARCHAR
_BOOL = sqltypes.BOOLEAN
_U64 = sqltypes.UBIGINT


def _array(out: Any) -> Any:
    # DuckDB hands each argument over as a pyarrow Array or ChunkedArray
    # and wants one array back, as long as its input.
    return out.combine_chunks() if isinstance(out, pa.ChunkedArray) else out


# DuckDB calls a function once per vector (2,048 rows) from each of its own
# threads: the kernels run on the calling thread (threads=1).


def _component(name: str) -> Callable[[Any], Any]:
    def component(col: Any) -> Any:
        return _array(arrow.split(col, (name,), threads=1)).field(0)

    return component


def _resolve(base: Any, refs: Any) -> Any:
    return arrow.resolve(base, refs, threads=1)


def _udf(func: Callable[..., Any], arity: int) -> Callable[..., Any]:
    # DuckDB reads the arity from the signature: no *args here.
    if arity == 1:
        return lambda col: _array(func(col))
    return lambda a, b: _array(func(a, b))


#: name -> (function over Arrow columns, parameter types, return type)
FUNCTIONS: Dict[str, Tuple[Callable[..., Any], Tuple[Any, ...], Any]] = {
    "uri_normalize": (partial(arrow.normalize, threads=1), (_TEXT,), _TEXT),
    "uri_canonicalize": (partial(arrow.canonicalize, threads=1), (_TEXT,), _TEXT),
    "uri_is_valid": (partial(arrow.is_valid, threads=1), (_TEXT,), _BOOL),
    **{
        f"uri_{name}": (_component(name), (_TEXT,), _TEXT)
        for name in ("scheme", "host", "port", "path", "query", "fragment")
    },
    "uri_resolve": (_resolve, (_TEXT, _TEXT), _TEXT),
    # docs/reference.md §4
    "uri_registrable_domain": (partial(arrow.registrable_domain, threads=1), (_TEXT,), _TEXT),
    "uri_public_suffix": (partial(arrow.public_suffix, threads=1), (_TEXT,), _TEXT),
    "uri_surt": (partial(arrow.surt, threads=1), (_TEXT,), _TEXT),
    "uri_fingerprint": (partial(arrow.fingerprint, threads=1), (_TEXT,), _U64),
}


def register(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Add the ``uri_*`` functions to the connection ``con``; returns ``con``.

    Registering again on the same connection replaces them.
    """
    for name, (func, params, returns) in FUNCTIONS.items():
        try:
            con.remove_function(name)
        except duckdb.InvalidInputException:  # not registered yet
            pass
        con.create_function(
            name,
            _udf(func, len(params)),
            list(params),
            returns,
            type="arrow",
            # NULL rows reach the kernels, which give NULL for them.
            null_handling="special",
            side_effects=False,
        )
    return con
