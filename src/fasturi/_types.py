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
