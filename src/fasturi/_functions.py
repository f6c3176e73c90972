"""The one table of column functions: what every engine offers, and how.

``fasturi.arrow.FUNCTIONS`` maps each column function's name to its
``Function``: its parameters in order (the URL column among them, marked
``COLUMN``), the type of its result, and what a null and an invalid row
give.  The engine modules are made from this table: the polars ``uri``
namespace, the pandas ``.uri`` accessor, DuckDB's ``uri_NAME`` SQL
functions (the extension's and the Arrow path's), the ``fasturi.spark``
functions and Spark SQL's ``uri_NAME``, and the Dask operations.  Each of
them calls the ``fasturi.arrow`` function of the same name (or runs the
same C natively), so a function added here with its kernel is in every
engine; ``tests/engines/test_every_engine.py`` walks the table.

Imports no column library: the table is plain data.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, Mapping, NamedTuple, Optional, Tuple

from ._types import WHATWG_FIELDS as _WHATWG_FIELDS


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of a parameter that has none.
REQUIRED: Any = _Required()

#: The type of the URL column among a function's parameters.
COLUMN = "column"


class Parameter(NamedTuple):
    """One parameter of a column function, as ``fasturi.arrow`` takes it.

    ``type`` is one of ``COLUMN`` (the URL column), ``"str"``, ``"bool"``,
    ``"int"``, ``"str?"`` (a ``str`` or None), ``"list[str]"``,
    ``"fields"`` (field names, see ``Function.fields``) and ``"base"`` (a
    ``str`` for every row, or a column of one per row).  ``keyword``: the
    parameter is keyword-only in Python (every engine still takes it in
    this order where arguments are positional, as SQL's are)."""

    name: str
    type: str
    default: Any = REQUIRED
    keyword: bool = True


class Function(NamedTuple):
    """A column function: ``fasturi.arrow.<name>(...)`` and its engine forms."""

    name: str
    summary: str
    parameters: Tuple[Parameter, ...]
    #: the Arrow type of the result, as text (``string`` is ``large_string``
    #: for a ``large_string`` column)
    result: str
    #: what a null row gives
    null: str
    #: what a row that is not what the function reads (not a valid URI,
    #: no such component, text that is not UTF-8 ...) gives
    invalid: str
    #: the result is the URL itself, rewritten: engines that add a column
    #: replace the input column by default (else they add ``<column>_<name>``)
    rewrites: bool = False
    #: for a ``"fields"`` parameter: the names it may hold
    fields: Tuple[str, ...] = ()

    @property
    def column(self) -> Parameter:
        """The parameter that takes the URL column."""
        return next(p for p in self.parameters if p.type == COLUMN)

    @property
    def options(self) -> Tuple[Parameter, ...]:
        """The parameters other than the URL column, in order."""
        return tuple(p for p in self.parameters if p.type != COLUMN)

    def bind(
        self,
        column: Any,
        args: Tuple[Any, ...],
        kwargs: Mapping[str, Any],
        *,
        python: bool = False,
    ) -> Dict[str, Any]:
        """The keyword arguments of ``fasturi.arrow.<name>`` for ``column``
        and the options given positionally (``args``, in the order of
        ``options``) and by name; raises ``TypeError`` as a Python call
        would for too many, repeated or unknown ones.  ``python``: the
        keyword-only options cannot be given positionally (as in the
        Python signature; engines whose calls are positional, as SQL's,
        take every option in order)."""
        names = [p.name for p in self.options if not (python and p.keyword)]
        if len(args) > len(names):
            raise TypeError(
                f"{self.name}() takes {len(names)} positional option(s) after the column"
                f" ({', '.join(names) or 'none'}), {len(args)} given"
            )
        names = [p.name for p in self.options]
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key in bound:
                raise TypeError(f"{self.name}() got multiple values for argument {key!r}")
            if key not in names and key != "threads":
                raise TypeError(f"{self.name}() got an unexpected keyword argument {key!r}")
            bound[key] = value
        for p in self.options:
            if p.default is REQUIRED and p.name not in bound:
                raise TypeError(f"{self.name}() missing required argument {p.name!r}")
        bound[self.column.name] = column
        return bound

    def method_signature(self, first: str = "self") -> Any:
        """The ``inspect.Signature`` of an engine's method: ``first`` (the
        accessor or namespace) in the column's place, the options, then
        ``threads=None``."""
        import inspect

        P = inspect.Parameter
        params = [P(first, P.POSITIONAL_OR_KEYWORD)]
        for p in self.options:
            kind = P.KEYWORD_ONLY if p.keyword else P.POSITIONAL_OR_KEYWORD
            default = P.empty if p.default is REQUIRED else p.default
            params.append(P(p.name, kind, default=default))
        params.append(P("threads", P.KEYWORD_ONLY, default=None))
        return inspect.Signature(params)

    def signature(self) -> str:
        """The Python signature, as text."""
        out, star = [], False
        for p in self.parameters:
            if p.keyword and not star:
                out.append("*")
                star = True
            out.append(p.name if p.default is REQUIRED else f"{p.name}={p.default!r}")
        out.append("threads=None" if star else "*, threads=None")
        return f"{self.name}({', '.join(out)})"

    def __str__(self) -> str:
        return (
            f"{self.signature()} -> {self.result}: {self.summary}"
            f" A null row gives {self.null}; {self.invalid}."
        )


def _col(name: str = "col") -> Parameter:
    return Parameter(name, COLUMN, keyword=False)


#: The URL Standard's setters, in the standard's order: ``whatwg_replace``'s
#: options (positional in SQL, in this order; each applied where not None).
WHATWG_SETTERS = (
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
)

_SPLIT_FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
_DEFAULT_FIELDS = ("scheme", "authority", "path", "query", "fragment")
_CANON = (
    Parameter("sort_query", "bool", True),
    Parameter("drop_fragment", "bool", True),
    Parameter("drop_params", "list[str]", ()),
    Parameter("preset", "str?", None),
)
_RULE = (Parameter("rule", "str", "URI-reference", keyword=False), Parameter("rfc", "int", 3986))
_PRIVATE = (Parameter("private", "bool", False),)
_ANY_ROW = "no row is refused (every string is a URI-reference by Appendix B's regular expression)"

_COMPONENT_DOC = {
    "scheme": ("The scheme as written.", "null where there is none"),
    "authority": ("The authority after '//'.", "null where there is no '//'"),
    "userinfo": ("The userinfo before '@'.", "null where the authority has no '@'"),
    "host": ("The host (reg-name, IPv4 or bracketed IP literal).", "null without an authority"),
    "port": ("The port text after the host's ':'.", "null where there is no ':'"),
    "path": ("The path (always defined, maybe empty).", "never null for a non-null row"),
    "query": ("The query after '?'.", "null where there is no '?'"),
    "fragment": ("The fragment after '#'.", "null where there is no '#'"),
}

_TABLE = [
    Function(
        "split",
        "RFC 3986 Appendix B components, one string child per field in the order given.",
        (_col(), Parameter("fields", "fields", _DEFAULT_FIELDS, keyword=False)),
        "struct<one string per field>",
        "a null struct",
        "undefined components are null, empty ones ''; " + _ANY_ROW,
        fields=_SPLIT_FIELDS,
    ),
    *(
        Function(
            name,
            doc,
            (_col(),),
            "string",
            "null",
            f"{undefined}; {_ANY_ROW}",
        )
        for name, (doc, undefined) in _COMPONENT_DOC.items()
    ),
    Function(
        "normalize",
        "fasturi.normalize: RFC 3986 §6.2.2 and §6.2.3 normalization.",
        (_col(), Parameter("scheme_based", "bool", True)),
        "string",
        "null",
        _ANY_ROW,
        rewrites=True,
    ),
    Function(
        "canonicalize",
        "fasturi.canonicalize: the crawler's dedup key.",
        (_col(), *_CANON),
        "string",
        "null",
        _ANY_ROW + "; with preset='w3lib' a row w3lib refuses raises ValueError naming the row",
        rewrites=True,
    ),
    Function(
        "is_valid",
        "fasturi.is_valid: whether the row matches the ABNF rule.",
        (_col(), *_RULE),
        "bool",
        "null",
        "an invalid row gives false",
    ),
    Function(
        "error_position",
        "The InvalidURI.position fasturi.validate gives for the row.",
        (_col(), *_RULE),
        "int32",
        "null",
        "null where the row is valid",
    ),
    Function(
        "resolve",
        "fasturi.resolve(base, ref): RFC 3986 §5.2 reference resolution.",
        (
            Parameter("base", "base", keyword=False),
            _col("refs"),
            Parameter("strict", "bool", True),
            Parameter("rfc", "int", 3986),
        ),
        "string",
        "null (a null base too)",
        "null where the base is not absolute",
        rewrites=True,
    ),
    Function(
        "percent_decode",
        "fasturi.percent_decode: valid %hh escapes decoded, the bytes read as UTF-8.",
        (_col(), Parameter("errors", "str", "strict")),
        "string",
        "null",
        "with errors='strict' a row whose bytes are not UTF-8 raises UnicodeDecodeError"
        " naming the row ('replace' and 'ignore' as bytes.decode)",
    ),
    Function(
        "registrable_domain",
        "fasturi.registrable_domain: the host's eTLD+1 by the Public Suffix List.",
        (_col(), *_PRIVATE),
        "string",
        "null",
        "null without a host, for an IP literal and for a host that is a public suffix",
    ),
    Function(
        "public_suffix",
        "fasturi.public_suffix: the host's public suffix.",
        (_col(), *_PRIVATE),
        "string",
        "null",
        "null without a host and for an IP literal",
    ),
    Function(
        "surt",
        "fasturi.surt: the Sort-friendly URI Reordering Transform of web archives.",
        (_col(),),
        "string",
        "null",
        "a row it cannot key (a port that is not a number) raises ValueError naming the row",
    ),
    Function(
        "fingerprint",
        "fasturi.fingerprint: XXH64 of the canonical key's UTF-8 bytes.",
        (_col(), *_CANON),
        "uint64",
        "null",
        _ANY_ROW,
    ),
    Function(
        "query_param",
        "fasturi.query_param: the value of the first query field whose key is name.",
        (_col(), Parameter("name", "str", keyword=False), Parameter("decode", "bool", True)),
        "string",
        "null",
        "null where no query field has that key, '' for a field without '='; " + _ANY_ROW,
    ),
    Function(
        "query_params",
        "fasturi.query_params: every non-empty query field, in order, split at its first '='.",
        (_col(), Parameter("decode", "bool", True)),
        "list<struct<key: string, value: string>>",
        "null",
        "an empty list without a query; value null for a field without '='; " + _ANY_ROW,
    ),
    Function(
        "remove_params",
        "fasturi.remove_params: the query fields whose key matches a glob removed.",
        (_col(), Parameter("patterns", "list[str]", keyword=False)),
        "string",
        "null",
        "the row as it is where no field matches; " + _ANY_ROW,
        rewrites=True,
    ),
    Function(
        "path_extension",
        "fasturi.path_extension: the text after the last '.' of the path's last segment.",
        (_col(),),
        "string",
        "null",
        "null where the last segment has no '.' or starts with its only one; " + _ANY_ROW,
    ),
    Function(
        "path_hierarchy",
        "fasturi.path_hierarchy: the path's prefixes ending at each '/', then the whole path.",
        (_col(),),
        "list<string>",
        "null",
        "an empty list for an empty path; " + _ANY_ROW,
    ),
    Function(
        "subdomain",
        "fasturi.subdomain: the host's labels before its registrable domain.",
        (_col(), *_PRIVATE),
        "string",
        "null",
        "'' where the host is its registrable domain; null where it has none",
    ),
    Function(
        "whatwg_href",
        "fasturi.whatwg.parse(row, base).href.",
        (_col(), Parameter("base", "str?", None, keyword=False)),
        "string",
        "null",
        "null where the URL Standard's parser fails",
        rewrites=True,
    ),
    Function(
        "whatwg_split",
        "The URL Standard's getters, one string child per field in the order given.",
        (
            _col(),
            Parameter("fields", "fields", _WHATWG_FIELDS, keyword=False),
            Parameter("base", "str?", None, keyword=False),
        ),
        "struct<one string per field>",
        "a null struct",
        "a null struct where the URL Standard's parser fails",
        fields=_WHATWG_FIELDS,
    ),
    Function(
        "whatwg_replace",
        "The href of fasturi.whatwg.parse(row).replace(...): the URL Standard's setters.",
        (_col(), *(Parameter(name, "str?", None) for name in WHATWG_SETTERS)),
        "string",
        "null",
        "null where the row fails to parse, or where href fails",
        rewrites=True,
    ),
    Function(
        "whatwg_search_params",
        "fasturi.whatwg.parse(row, base).search_params: its (name, value) pairs in order.",
        (_col(), Parameter("base", "str?", None, keyword=False)),
        "list<struct<name: string, value: string>>",
        "null",
        "null where the URL Standard's parser fails; an empty list without a query",
    ),
    Function(
        "whatwg_can_parse",
        "fasturi.whatwg.can_parse(row, base).",
        (_col(), Parameter("base", "str?", None, keyword=False)),
        "bool",
        "null",
        "false where the URL Standard's parser fails",
    ),
]

#: name -> Function, read-only, in the table's order.
FUNCTIONS: Mapping[str, Function] = MappingProxyType({f.name: f for f in _TABLE})

#: The split fields, which are functions of their own.
COMPONENTS: Tuple[str, ...] = _SPLIT_FIELDS


def constant(func: Function, p: Parameter, values: Any) -> Any:
    """The one value of option ``p`` handed over as a column (as SQL hands
    every argument over: a literal repeated as often as there are rows).
    Every row's must be the same, and not null unless the option may be
    None; raises ``ValueError`` saying so.  ``values``: a pyarrow Array or
    ChunkedArray, or a pandas Series."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not isinstance(values, (pa.Array, pa.ChunkedArray)):
        values = pa.array(values, from_pandas=True)
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if len(values) == 0:
        return None if p.default is REQUIRED else p.default
    first = values[0].as_py()
    if len(values) > 1:
        if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
            same = all(v == first for v in values.to_pylist())
        elif values.null_count:
            same = values.null_count == len(values)
        else:
            same = pc.all(pc.equal(values, values[0])).as_py()
        if not same:
            raise ValueError(
                f"uri_{func.name}(): argument {p.name!r} must be the same in every row"
            )
    if first is None and p.type != "str?":
        raise ValueError(f"uri_{func.name}(): argument {p.name!r} must not be NULL")
    return tuple(first) if p.type == "list[str]" else first


def sql_parameters(func: Function) -> Tuple[Parameter, ...]:
    """The function's arguments in SQL (DuckDB's and Spark's ``uri_<name>``),
    in order: every parameter but ``fields`` (whose struct then holds every
    field)."""
    return tuple(p for p in func.parameters if p.type != "fields")


def sql_call(func: Function, columns: Tuple[Any, ...]) -> Dict[str, Any]:
    """The keyword arguments of ``fasturi.arrow.<name>`` for a SQL call
    whose arguments (in ``sql_parameters`` order, the trailing options
    maybe left out) arrive as ``columns``; ``threads=1`` (an engine calls
    from each of its own threads)."""
    kwargs: Dict[str, Any] = {"threads": 1}
    for p in func.parameters:
        if p.type == "fields":
            kwargs[p.name] = _SPLIT_FIELDS if func.name == "split" else p.default
    for p, values in zip(sql_parameters(func), columns):
        kwargs[p.name] = values if p.type in (COLUMN, "base") else constant(func, p, values)
    return kwargs


#: A value of each type of option, for a call on no rows that gives the
#: result's type (``probe``) where the option is required.
_PROBE = {"str": "", "list[str]": (), "base": "http://a/", "int": 0, "bool": False}


def probe(func: Function) -> Dict[str, Any]:
    """The keyword arguments of ``fasturi.arrow.<name>`` on no rows, the
    options the SQL forms give (split: every field): its result then has
    the type of the SQL function's result."""
    kwargs: Dict[str, Any] = {func.column.name: []}
    for p in func.options:
        if p.type == "fields" and func.name == "split":
            kwargs[p.name] = _SPLIT_FIELDS
        elif p.default is REQUIRED:
            kwargs[p.name] = _PROBE[p.type]
    return kwargs


def default_into(column: str, func: Function, into: Optional[str]) -> str:
    """The name of the column an engine writes ``func``'s result to: ``into``,
    else the column itself for a function that rewrites the URL, else
    ``<column>_<name>`` (``<column>_valid`` for ``is_valid``)."""
    if into is not None:
        return into
    if func.rewrites:
        return column
    return f"{column}_{'valid' if func.name == 'is_valid' else func.name}"
