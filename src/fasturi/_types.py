"""Value types shared by both implementations, so type(), equality and
pickling agree whichever core is active."""

from __future__ import annotations

from typing import NamedTuple, Optional


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


#: How a WHATWG ``URL`` and a ``SearchParams`` of either twin unpickle:
#: ``"url"`` (href -> URL) and ``"search_params"`` (pairs -> SearchParams),
#: each giving the running twin's object.  Only ``_impl`` knows which twin
#: runs; it puts its functions here when it loads a twin, and the twins'
#: ``__reduce__`` read them here, a layer below them all.
UNPICKLE: dict = {}


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
# and this as fasturi.whatwg.InvalidURL
InvalidURL.__module__ = "fasturi.whatwg"
