"""Compiled quote family of urllib.parse, exact to the running interpreter's
(see fasturi.parse)."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, AnyStr, overload

from typing_extensions import TypeAlias

__all__ = [
    "parse_qs",
    "parse_qsl",
    "quote",
    "quote_from_bytes",
    "quote_plus",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
]

_Safe: TypeAlias = str | Iterable[int]
_QueryType: TypeAlias = (
    Mapping[str, object]
    | Mapping[bytes, object]
    | Mapping[str | bytes, object]
    | Sequence[tuple[str, object]]
    | Sequence[tuple[bytes, object]]
    | Sequence[tuple[str | bytes, object]]
)

@overload
def quote(
    string: str, safe: _Safe = "/", encoding: str | None = None, errors: str | None = None
) -> str: ...
@overload
def quote(string: bytes | bytearray, safe: _Safe = "/") -> str: ...
@overload
def quote_plus(
    string: str, safe: _Safe = "", encoding: str | None = None, errors: str | None = None
) -> str: ...
@overload
def quote_plus(string: bytes | bytearray, safe: _Safe = "") -> str: ...
def quote_from_bytes(bs: bytes | bytearray, safe: _Safe = "/") -> str: ...
def unquote(string: str | bytes, encoding: str = "utf-8", errors: str = "replace") -> str: ...
def unquote_plus(string: str, encoding: str = "utf-8", errors: str = "replace") -> str: ...
def unquote_to_bytes(string: str | bytes | bytearray) -> bytes: ...
def urlencode(
    query: _QueryType,
    doseq: bool = False,
    safe: str | bytes = "",
    encoding: str | None = None,
    errors: str | None = None,
    quote_via: Callable[..., str] = ...,
) -> str: ...

QS_STACKLEVEL: bool

def parse_qs(
    qs: AnyStr | None,
    keep_blank_values: bool = False,
    strict_parsing: bool = False,
    encoding: str = "utf-8",
    errors: str = "replace",
    max_num_fields: int | None = None,
    separator: str | bytes = "&",
) -> dict[AnyStr, list[AnyStr]]: ...
def parse_qsl(
    qs: AnyStr | None,
    keep_blank_values: bool = False,
    strict_parsing: bool = False,
    encoding: str = "utf-8",
    errors: str = "replace",
    max_num_fields: int | None = None,
    separator: str | bytes = "&",
) -> list[tuple[AnyStr, AnyStr]]: ...
def parse_qsl_kw(
    qs: AnyStr | None,
    keep_blank_values: bool = False,
    strict_parsing: bool = False,
    encoding: str = "utf-8",
    errors: str = "replace",
    max_num_fields: int | None = None,
    separator: str | bytes = "&",
    *,
    _stacklevel: int = 1,
) -> list[tuple[AnyStr, AnyStr]]: ...

# test hook
def _keeps(text: str, headed: bool) -> bool: ...

# the functions this module stands in for, by name, in every form
OURS: dict[str, tuple[Any, ...]]

def _sync() -> bool: ...
def _original(name: str) -> Any: ...
def _capture(originals: dict[str, Any]) -> None: ...
