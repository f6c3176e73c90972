"""Value types shared by both implementations, so type(), equality and
pickling agree whichever core is active."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional

if TYPE_CHECKING:
    from ._search_params_py import SearchParams


class Split(NamedTuple):
    """The five components of RFC 3986 Appendix B; ``None`` = undefined."""

    scheme: Optional[str]
    authority: Optional[str]
    path: str
    query: Optional[str]
    fragment: Optional[str]


class Finding(NamedTuple):
    """One RFC 3986 §7 hazard found by ``audit``."""

    code: str
    section: str
    message: str


class InvalidURI(ValueError):
    """Text that does not match an ABNF rule.

    ``position`` is the 0-based index of the first offending character (the
    length of the longest prefix that can still be completed to a match; equal
    to ``len(text)`` when the text ends too early); ``rule`` is the rule name.
    """

    def __init__(self, message: str, position: int = 0, rule: str = "") -> None:
        super().__init__(message)
        self.position = position
        self.rule = rule

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.args[0], self.position, self.rule))


class ArrowColumn:
    """An Arrow array as the PyCapsule pair ``(schema, array)`` of the Arrow
    C Data Interface: how column kernels take and give chunks, so that any
    Arrow library can import a result (``pyarrow.array(ArrowColumn(...))``)."""

    __slots__ = ("schema", "array")

    def __init__(self, schema: object, array: object) -> None:
        self.schema = schema
        self.array = array

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        return self.schema, self.array


class InvalidURL(ValueError):
    """Input the WHATWG URL parser returns failure for.

    ``reason`` is the URL Standard's name for the validation error that
    ended the parse (``"host-missing"``, ``"port-out-of-range"``,
    ``"domain-to-ASCII"``, ...); ``detail`` says it in words.
    """

    def __init__(self, reason: str, detail: Optional[str] = None) -> None:
        self.reason = reason
        self.detail = detail if detail is not None else _WHATWG_REASONS.get(reason, reason)
        super().__init__(f"invalid URL: {self.detail} ({reason})")

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.reason, self.detail))


# The URL Standard's validation errors that are failures, in its words.
_WHATWG_REASONS = {
    "missing-scheme-non-relative-URL": "no scheme, and no base URL it could be relative to",
    "host-missing": "the URL has no host where its scheme needs one",
    "host-invalid-code-point": "the host holds a forbidden host code point",
    "port-out-of-range": "the port is greater than 65535",
    "port-invalid": "the port is not a number",
    "IPv4-too-many-parts": "the IPv4 address has more than four parts",
    "IPv4-non-numeric-part": "an IPv4 address part is not a number",
    "IPv4-out-of-range-part": "an IPv4 address part is out of range",
    "IPv6-unclosed": "the IPv6 address has no closing ']'",
    "IPv6-invalid-compression": "the IPv6 address begins with a single ':'",
    "IPv6-too-many-pieces": "the IPv6 address has more than eight pieces",
    "IPv6-multiple-compression": "the IPv6 address has more than one '::'",
    "IPv6-invalid-code-point": "the IPv6 address holds an invalid code point",
    "IPv6-too-few-pieces": "the IPv6 address has fewer than eight pieces",
    "IPv4-in-IPv6-too-many-pieces": "the IPv6 address with IPv4 has more than eight pieces",
    "IPv4-in-IPv6-invalid-code-point": "the IPv4 part of the IPv6 address is invalid",
    "IPv4-in-IPv6-out-of-range-part": "an IPv4 part of the IPv6 address is over 255",
    "IPv4-in-IPv6-too-few-parts": "the IPv4 part of the IPv6 address has fewer than four parts",
    "domain-to-ASCII": "the host fails domain to ASCII",
}

_SPECIAL_ORIGIN_SCHEMES = frozenset(("ftp", "http", "https", "ws", "wss"))

#: URL's getters, in the URL Standard's IDL order (fasturi.arrow gives the
#: same tuple as WHATWG_FIELDS, the getters whatwg_split can give).
WHATWG_FIELDS = (
    "href",
    "origin",
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


class URL:
    """A URL by the WHATWG URL Standard, with its ``URL`` class's getters.

    Immutable and hashable; equal when ``href`` is (URL equivalence).
    Built by ``fasturi.whatwg.parse``, not by calling the class.
    """

    __slots__ = (
        "_href",
        "_scheme",
        "_username",
        "_password",
        "_host",
        "_port",
        "_path",
        "_query",
        "_fragment",
        "_blob_origin",
    )

    _href: str
    _scheme: str
    _username: str
    _password: str
    _host: Optional[str]
    _port: Optional[int]
    _path: str
    _query: Optional[str]
    _fragment: Optional[str]
    _blob_origin: Optional[str]

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("URL objects are made by fasturi.whatwg.parse()")

    @classmethod
    def _from_record(
        cls,
        href: str,
        scheme: str,
        username: str,
        password: str,
        host: Optional[str],
        port: Optional[int],
        path: str,
        query: Optional[str],
        fragment: Optional[str],
        blob_origin: Optional[str] = None,
    ) -> "URL":
        """A URL from its serialization and its record's fields (``host``
        serialized, ``path`` serialized; ``blob_origin`` the origin of a
        "blob" URL, which needs the parser)."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "_href", href)
        setattr_(self, "_scheme", scheme)
        setattr_(self, "_username", username)
        setattr_(self, "_password", password)
        setattr_(self, "_host", host)
        setattr_(self, "_port", port)
        setattr_(self, "_path", path)
        setattr_(self, "_query", query)
        setattr_(self, "_fragment", fragment)
        setattr_(self, "_blob_origin", blob_origin)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"URL objects are immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"URL objects are immutable (cannot delete {name!r})")

    @property
    def href(self) -> str:
        """The URL serializer's output."""
        return self._href

    @property
    def protocol(self) -> str:
        """The scheme followed by ":"."""
        return self._scheme + ":"

    @property
    def username(self) -> str:
        return self._username

    @property
    def password(self) -> str:
        return self._password

    @property
    def host(self) -> str:
        """The host serialized, with ":" and the port when there is one."""
        if self._host is None:
            return ""
        if self._port is None:
            return self._host
        return f"{self._host}:{self._port}"

    @property
    def hostname(self) -> str:
        """The host serialized ("" when null)."""
        return "" if self._host is None else self._host

    @property
    def port(self) -> str:
        """The port as decimal text ("" when null, as for a default port)."""
        return "" if self._port is None else str(self._port)

    @property
    def pathname(self) -> str:
        """The URL path serializer's output."""
        return self._path

    @property
    def search(self) -> str:
        """ "?" and the query, or "" when the query is null or empty."""
        return "?" + self._query if self._query else ""

    @property
    def hash(self) -> str:
        """ "#" and the fragment, or "" when the fragment is null or empty."""
        return "#" + self._fragment if self._fragment else ""

    @property
    def origin(self) -> str:
        """The serialization of the URL's origin ("null" when opaque)."""
        if self._scheme in _SPECIAL_ORIGIN_SCHEMES:
            return f"{self._scheme}://{self.host}"
        if self._scheme == "blob" and self._blob_origin is not None:
            return self._blob_origin
        return "null"

    @property
    def search_params(self) -> SearchParams:
        """A ``SearchParams`` of the URL's query: a copy (apply it with
        ``url.replace(search=str(params))``)."""
        from ._search_params_py import SearchParams

        # (search is "?" and the query, or "": what the constructor drops
        # is that "?", never one the query begins with)
        return SearchParams(self.search)

    def replace(self, **changes: object) -> URL:
        """A new URL with the URL Standard's setter of each keyword applied,
        in the order given (``href``, ``protocol``, ``username``,
        ``password``, ``host``, ``hostname``, ``port``, ``pathname``,
        ``search``, ``hash``); a value the setter ignores leaves the URL as
        it is.  ``href=`` that fails to parse raises ``InvalidURL``."""
        from . import _whatwg_py

        return _whatwg_py.replace(self, changes)

    def __str__(self) -> str:
        return self._href

    def __repr__(self) -> str:
        return f"URL({self._href!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self._href == other._href
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self._href != other._href
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._href)

    def __reduce__(self) -> tuple[Callable[[str], URL], tuple[str]]:
        # by its href, which parses back to the same URL (URL Standard, URL
        # serializing), in whichever twin unpickles it
        return (_url_from_href, (self._href,))

    def __copy__(self) -> URL:
        return self

    def __deepcopy__(self, memo: object) -> URL:
        return self


def _url_from_href(href: str) -> URL:
    """Unpickles a URL of either twin as the running one's (pickle needs a
    module-level callable)."""
    from ._impl import whatwg

    return whatwg.parse(href)


def _search_params_from_pairs(pairs: list[tuple[str, str]]) -> Any:
    """Unpickles a SearchParams of either twin as the running one's."""
    from ._impl import search_params

    return search_params.SearchParams(pairs)


def invalid_utf8(row: int) -> ValueError:
    """The error for an Arrow string row whose bytes are not UTF-8 (Arrow
    producers do not always validate)."""
    return ValueError(f"row {row} is not valid UTF-8")


def row_refused(row: int, exc: Exception) -> ValueError:
    """The error for a row a scalar function refuses, in a column kernel:
    its ValueError named by the row."""
    return ValueError(f"row {row}: {exc}")


def row_decode_error(row: int, data: bytes) -> UnicodeDecodeError:
    """``data.decode()``'s own error, its reason naming the row."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return UnicodeDecodeError(e.encoding, e.object, e.start, e.end, f"{e.reason} in row {row}")
    raise AssertionError("row_decode_error() called on valid UTF-8")


# Users meet these as fasturi.Split etc. (tracebacks, pickles); the package
# exports all three, so pickle finds them there.
for _cls in (Split, Finding, InvalidURI):
    _cls.__module__ = "fasturi"
del _cls
# and these as fasturi.whatwg.URL, fasturi.whatwg.InvalidURL
URL.__module__ = InvalidURL.__module__ = "fasturi.whatwg"
