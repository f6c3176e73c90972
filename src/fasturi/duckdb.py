"""SQL scalar functions for DuckDB (docs/reference.md §7): a native extension, or Arrow.

::

    import fasturi.duckdb

    con = fasturi.duckdb.connect()      # a duckdb connection, extension loaded
    con.sql(\"\"\"
        SELECT uri_host(url) AS host, count(*) AS hits
        FROM read_parquet('logs/*.parquet')
        GROUP BY host ORDER BY hits DESC
    \"\"\")

The package ships ``fasturi.duckdb_extension``, a DuckDB extension built on
DuckDB's C extension API from fasturi's C scanners (``csrc/``; no Python in
it): its functions run in DuckDB's own threads, without the GIL.  DuckDB
loads an unsigned extension only into a database opened with
``allow_unsigned_extensions``: ``connect()`` opens one so, and
``register(con)`` loads the extension where ``con`` allows it and otherwise
registers the same functions through Arrow UDFs (each vector handed to the
``fasturi.arrow`` function, under the GIL), warning once how to get the
native ones.  Functions the extension does not carry yet (``NATIVE`` lists
those it does) are registered through Arrow on the same connection either
way.  ``python -m fasturi.duckdb --path`` prints the extension file's path,
for ``LOAD '<path>'`` in any DuckDB 1.2.0 or later opened with
``allow_unsigned_extensions`` (``duckdb -unsigned``).

NULL in, NULL out.  The functions, all on ``VARCHAR``:

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
``uri_split(u)``          STRUCT     ``scheme, authority, userinfo, host,
                                     port, path, query, fragment`` (as
                                     ``fasturi.arrow.split``)
``uri_query_params(u)``   LIST       ``STRUCT(key, value)`` per non-empty
                                     ``&``-separated query field, split at
                                     its first ``=`` (value NULL without
                                     one), as written; ``[]`` without a
                                     query
``uri_registrable_domain  VARCHAR    ``fasturi.registrable_domain`` (ICANN
(u)``                                section of the Public Suffix List)
``uri_public_suffix(u)``  VARCHAR    ``fasturi.public_suffix``
``uri_surt(u)``           VARCHAR    ``fasturi.surt``
``uri_fingerprint(u)``    UBIGINT    ``fasturi.fingerprint``, default options
========================  =========  =====================================

A row whose bytes are not UTF-8 (a ``BLOB`` cast to ``VARCHAR`` can hold
such bytes) fails the query with ``row N is not valid UTF-8``, as the
``fasturi.arrow`` functions refuse it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

if __name__ == "__main__":  # python -m fasturi.duckdb: no duckdb needed to print the path
    from fasturi._duckdb_ext import main

    raise SystemExit(main())

import duckdb
import pyarrow as pa
from duckdb import sqltypes

from . import arrow
from ._duckdb_ext import NATIVE, extension_file, public_suffix_table

__all__ = ["FUNCTIONS", "NATIVE", "connect", "extension_path", "register"]

_TEXT = sqltypes.VARCHAR
_BOOL = sqltypes.BOOLEAN
_U64 = sqltypes.UBIGINT
_SPLIT = duckdb.struct_type({name: _TEXT for name in arrow.FIELDS})
_PARAMS = duckdb.list_type(duckdb.struct_type({"key": _TEXT, "value": _TEXT}))
_PARAMS_ARROW = pa.list_(pa.struct([("key", pa.string()), ("value", pa.string())]))


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


def _split(col: Any) -> Any:
    return _array(arrow.split(col, arrow.FIELDS, threads=1))


def _params(query: Optional[str]) -> List[Dict[str, Optional[str]]]:
    pairs: List[Dict[str, Optional[str]]] = []
    for field in (query or "").split("&"):
        if field:
            key, eq, value = field.partition("=")
            pairs.append({"key": key, "value": value if eq else None})
    return pairs


def _query_params(col: Any) -> Any:
    # the extension's uri_query_params, for a connection without it
    queries = _array(arrow.split(col, ("query",), threads=1)).field(0).to_pylist()
    nulls = _array(col).is_null().to_pylist()
    rows = [None if null else _params(q) for q, null in zip(queries, nulls)]
    return pa.array(rows, _PARAMS_ARROW)


def _resolve(base: Any, refs: Any) -> Any:
    return arrow.resolve(base, refs, threads=1)


def _udf(func: Callable[..., Any], arity: int) -> Callable[..., Any]:
    # DuckDB reads the arity from the signature: no *args here.
    if arity == 1:
        return lambda col: _array(func(col))
    return lambda a, b: _array(func(a, b))


def _one_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    return lambda col: func(col, threads=1)


#: name -> (function over Arrow columns, parameter types, return type): the
#: Arrow form of every function
FUNCTIONS: Dict[str, Tuple[Callable[..., Any], Tuple[Any, ...], Any]] = {
    "uri_normalize": (_one_thread(arrow.normalize), (_TEXT,), _TEXT),
    "uri_canonicalize": (_one_thread(arrow.canonicalize), (_TEXT,), _TEXT),
    "uri_is_valid": (_one_thread(arrow.is_valid), (_TEXT,), _BOOL),
    **{
        f"uri_{name}": (_component(name), (_TEXT,), _TEXT)
        for name in ("scheme", "host", "port", "path", "query", "fragment")
    },
    "uri_resolve": (_resolve, (_TEXT, _TEXT), _TEXT),
    "uri_split": (_split, (_TEXT,), _SPLIT),
    "uri_query_params": (_query_params, (_TEXT,), _PARAMS),
    # docs/reference.md §4
    "uri_registrable_domain": (_one_thread(arrow.registrable_domain), (_TEXT,), _TEXT),
    "uri_public_suffix": (_one_thread(arrow.public_suffix), (_TEXT,), _TEXT),
    "uri_surt": (_one_thread(arrow.surt), (_TEXT,), _TEXT),
    "uri_fingerprint": (_one_thread(arrow.fingerprint), (_TEXT,), _U64),
}

_warned = False
_psl_handed: Optional[str] = None  # the keys handed to the extension last


def extension_path() -> Optional[str]:
    """The path of the extension file shipped in the package (for ``LOAD``
    in a DuckDB opened with ``allow_unsigned_extensions``), or None where
    the package was installed without it (no C compiler)."""
    path = extension_file()
    return None if path is None else str(path)


def connect(
    database: str = ":memory:", config: Optional[Dict[str, Any]] = None, **kwargs: Any
) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect(database, config=config, **kwargs)`` with
    ``allow_unsigned_extensions`` set, the extension loaded into it and the
    functions it does not carry registered through Arrow."""
    config = dict(config or {})
    config["allow_unsigned_extensions"] = True
    return register(duckdb.connect(database, config=config, **kwargs))


def _platform(con: duckdb.DuckDBPyConnection) -> str:
    # (fetchall: a result left unfinished blocks the connection's next statement)
    return str(con.execute("PRAGMA platform").fetchall()[0][0])


def _load(con: duckdb.DuckDBPyConnection) -> Optional[str]:
    """LOADs the extension into con; None, or why it could not."""
    from ._duckdb_ext import for_platform

    try:
        path = for_platform(_platform(con))
    except (OSError, ValueError) as exc:
        return str(exc)
    if path is None:
        return "this installation of fasturi has no DuckDB extension (it was built without a C compiler)"
    try:
        con.execute(f"LOAD '{_quoted(str(path))}'")
    except duckdb.Error as exc:
        return str(exc).splitlines()[0]
    try:
        _load_public_suffix_list(con)
    except ValueError as exc:  # the extension's list functions fail with their own error
        import warnings

        warnings.warn(f"fasturi.duckdb: {exc}", RuntimeWarning, stacklevel=3)
    return None


def _load_public_suffix_list(con: duckdb.DuckDBPyConnection) -> None:
    # The extension reads the list fasturi's scalar functions use, handed
    # over once per process, and again where that list has changed.
    global _psl_handed
    table = public_suffix_table()
    if table is None:
        raise ValueError("the Public Suffix List in use holds text that is not UTF-8")
    keys, version = table
    held = con.execute("SELECT fasturi_public_suffix_list_version()").fetchall()[0][0]
    if held is not None and keys is _psl_handed:
        return
    con.execute("SELECT fasturi_load_public_suffix_list(?, ?)", [keys, version]).fetchall()
    _psl_handed = keys


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def register(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Add the ``uri_*`` functions to the connection ``con``; returns ``con``.

    Loads the extension where the database allows unsigned extensions, and
    registers through Arrow what it does not carry; elsewhere registers
    every function through Arrow, with one warning (per process) that says
    how to get the native ones.  Registering again is harmless.
    """
    global _warned
    why = _load(con)
    if why is None:
        names = [name for name in FUNCTIONS if name not in NATIVE]
    else:
        names = list(FUNCTIONS)
        if not _warned:
            _warned = True
            import warnings

            warnings.warn(
                "fasturi.duckdb: the uri_* functions run through Python (Arrow UDFs), not"
                f" natively: {why}. Open the connection with fasturi.duckdb.connect(), or"
                " duckdb.connect(config={'allow_unsigned_extensions': True}), to load the"
                " native extension",
                RuntimeWarning,
                stacklevel=2,
            )
    for name in names:
        func, params, returns = FUNCTIONS[name]
        try:
            con.remove_function(name)
        except duckdb.InvalidInputException:  # not registered yet
            pass
        # (the stubs want the enums for type= and null_handling=; every DuckDB
        # supported takes their names too, which older ones spell the same)
        con.create_function(  # type: ignore[call-overload]
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
