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
``uri_query_param(u, n)`` VARCHAR    ``fasturi.query_param``
``uri_query_params(u)``   LIST       ``STRUCT(key, value)`` per non-empty
                                     ``&``-separated query field, split at
                                     its first ``=`` (value NULL without
                                     one), form-decoded (``uri_query_params
                                     (u, false)``: as written); ``[]``
                                     without a query
``uri_remove_params(u,    VARCHAR    ``fasturi.remove_params``
p)``
``uri_path_extension(u)`` VARCHAR    ``fasturi.path_extension``
``uri_path_hierarchy(u)`` LIST       ``fasturi.path_hierarchy``
``uri_subdomain(u)``      VARCHAR    ``fasturi.subdomain``
``uri_registrable_domain  VARCHAR    ``fasturi.registrable_domain`` (ICANN
(u)``                                section of the Public Suffix List)
``uri_public_suffix(u)``  VARCHAR    ``fasturi.public_suffix``
``uri_surt(u)``           VARCHAR    ``fasturi.surt``
``uri_fingerprint(u)``    UBIGINT    ``fasturi.fingerprint``, default options
``uri_whatwg_*(u, ...)``  …          ``fasturi.arrow.whatwg_*``; the
                                     setters of ``uri_whatwg_replace`` in
                                     the standard's order (``href``,
                                     ``protocol`` … ``hash``), NULL: unset
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

try:  # DuckDB 1.4 and later
    from duckdb import sqltypes
except ImportError:  # DuckDB 1.1 to 1.3 (the same names)
    from duckdb import typing as sqltypes  # type: ignore[attr-defined,no-redef]

from . import arrow
from ._duckdb_ext import NATIVE, extension_file, public_suffix_table
from ._functions import COLUMN, REQUIRED, Function, Parameter, probe, sql_call, sql_parameters
from ._functions import FUNCTIONS as _TABLE

__all__ = ["FUNCTIONS", "NATIVE", "connect", "extension_path", "register"]

_TEXT = sqltypes.VARCHAR

#: The SQL functions: ``uri_<name>`` for every function of
#: ``fasturi.arrow.FUNCTIONS``.
FUNCTIONS = tuple(f"uri_{name}" for name in _TABLE)

#: An option's SQL type, by its type in the table (split's and
#: whatwg_split's fields are no SQL argument: their struct holds every field).
_SQL_TYPES = {
    COLUMN: _TEXT,
    "base": _TEXT,
    "str": _TEXT,
    "str?": _TEXT,
    "bool": sqltypes.BOOLEAN,
    "int": sqltypes.INTEGER,
    "list[str]": duckdb.list_type(_TEXT),
}


def _sql_type(typ: pa.DataType) -> Any:
    """The DuckDB type of an Arrow result type."""
    if pa.types.is_string(typ) or pa.types.is_large_string(typ) or typ == pa.string_view():
        return _TEXT
    if pa.types.is_struct(typ):
        return duckdb.struct_type({f.name: _sql_type(f.type) for f in typ})
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        return duckdb.list_type(_sql_type(typ.value_type))
    simple = {
        pa.bool_(): sqltypes.BOOLEAN,
        pa.int32(): sqltypes.INTEGER,
        pa.int64(): sqltypes.BIGINT,
        pa.uint64(): sqltypes.UBIGINT,
    }
    return simple[typ]


def _array(out: Any) -> Any:
    # DuckDB hands each argument over as a pyarrow Array or ChunkedArray
    # and wants one array back, as long as its input.
    return out.combine_chunks() if isinstance(out, pa.ChunkedArray) else out


def _udf(func: Function) -> Callable[..., Any]:
    """The Arrow UDF of ``func``: every SQL argument, in order, as a column.
    DuckDB calls a function once per vector (2,048 rows) from each of its
    own threads: the kernels run on the calling thread (threads=1)."""
    target = getattr(arrow, func.name)

    def udf(*columns: Any) -> Any:
        return _array(target(**sql_call(func, columns)))

    return udf


def _literal(p: Parameter) -> str:
    """A default as a SQL literal."""
    value = p.default
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _quoted_sql(value)
    if value is None:
        return "NULL::VARCHAR"
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(_quoted_sql(v) for v in value) + "]::VARCHAR[]"
    raise AssertionError(f"no SQL literal for {value!r}")


def _quoted_sql(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _macro(func: Function, inner: str) -> str:
    """``uri_<name>`` as a macro with one overload per number of arguments
    (the trailing options that have defaults left out or given), each
    calling ``inner`` with every argument."""
    params = sql_parameters(func)
    names = [f"a{i}" for i in range(len(params))]
    least = max(i + 1 for i, p in enumerate(params) if p.default is REQUIRED)
    overloads = []
    for given in range(least, len(params) + 1):
        args = names[:given] + [_literal(p) for p in params[given:]]
        overloads.append(f"({', '.join(names[:given])}) AS {inner}({', '.join(args)})")
    return f"CREATE OR REPLACE TEMP MACRO uri_{func.name} " + ", ".join(overloads)


def _arrow_form(func: Function) -> Tuple[Callable[..., Any], List[Any], Any]:
    """(UDF, SQL argument types, SQL result type) of ``func``."""
    result = getattr(arrow, func.name)(**probe(func)).type
    return _udf(func), [_SQL_TYPES[p.type] for p in sql_parameters(func)], _sql_type(result)


_OLDER_THAN_1_2 = tuple(int(x) for x in duckdb.__version__.split(".")[:2]) < (1, 2)
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
    return _register(duckdb.connect(database, config=config, **kwargs), stacklevel=3)


def _platform(con: duckdb.DuckDBPyConnection) -> str:
    # (fetchall: a result left unfinished blocks the connection's next statement)
    return str(con.execute("PRAGMA platform").fetchall()[0][0])


def _load(con: duckdb.DuckDBPyConnection, stacklevel: int) -> Optional[str]:
    """LOADs the extension into con; None, or why it could not (and what
    to do about it, where the user can)."""
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
        if _OLDER_THAN_1_2:
            return (
                f"DuckDB {duckdb.__version__} cannot load extensions built on C API v1.2.0"
                " (DuckDB 1.2.0 and later can: pip install -U duckdb)"
            )
        return (
            f"{str(exc).splitlines()[0]}. Open the connection with fasturi.duckdb.connect(),"
            " or duckdb.connect(config={'allow_unsigned_extensions': True}), to load the"
            " native extension"
        )
    try:
        _load_public_suffix_list(con)
    except ValueError as exc:  # the extension's list functions fail with their own error
        import warnings

        warnings.warn(f"fasturi.duckdb: {exc}", RuntimeWarning, stacklevel=stacklevel + 1)
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


def _drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
    try:
        con.remove_function(name)
    except duckdb.InvalidInputException:  # not registered yet
        pass


def _register_arrow(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """``name`` (``uri_<function>``) through Arrow on ``con``: a UDF of every
    argument, ``__fasturi_<function>``, and ``name`` a macro of it that fills
    in the options left out."""
    func = _TABLE[name[len("uri_") :]]
    udf, params, returns = _arrow_form(func)
    inner = f"__fasturi_{func.name}"
    _drop(con, inner)
    _create(con, inner, udf, params, returns)
    con.execute(_macro(func, inner))


def _of_arity(udf: Callable[..., Any], n: int) -> Callable[..., Any]:
    """``udf`` as a function of ``n`` named parameters: DuckDB reads the
    arity from the signature (no ``*args``)."""
    import inspect

    P = inspect.Parameter

    def call(*columns: Any) -> Any:
        return udf(*columns)

    call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [P(f"a{i}", P.POSITIONAL_ONLY) for i in range(n)]
    )
    return call


def _create(
    con: duckdb.DuckDBPyConnection,
    name: str,
    udf: Callable[..., Any],
    params: List[Any],
    returns: Any,
) -> None:
    call = _of_arity(udf, len(params))
    # (the stubs want the enums for type= and null_handling=; every DuckDB
    # supported takes their names too, which older ones spell the same)
    con.create_function(  # type: ignore[call-overload]
        name,
        call,
        params,
        returns,
        type="arrow",
        # NULL rows reach the kernels, which give NULL for them.
        null_handling="special",
        side_effects=False,
    )


def register(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Add the ``uri_*`` functions to the connection ``con``; returns ``con``.

    Loads the extension where the database allows unsigned extensions, and
    registers through Arrow what it does not carry; elsewhere registers
    every function through Arrow, with one warning (per process) that says
    how to get the native ones.  Registering again is harmless.
    """
    return _register(con, stacklevel=3)


def _register(con: duckdb.DuckDBPyConnection, stacklevel: int) -> duckdb.DuckDBPyConnection:
    # stacklevel: the user's call, for the warnings
    global _warned
    why = _load(con, stacklevel + 1)
    names = list(FUNCTIONS)
    if why is None:
        names = [name for name in names if name not in NATIVE]
    else:
        if not _warned:
            _warned = True
            import warnings

            warnings.warn(
                "fasturi.duckdb: the uri_* functions run through Python (Arrow UDFs), not"
                f" natively: {why}",
                RuntimeWarning,
                stacklevel=stacklevel,
            )
    for name in names:
        _register_arrow(con, name)
    return con
