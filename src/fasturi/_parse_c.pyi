"""Compiled urlsplit/urlparse/urlunsplit/urlunparse/urljoin/urldefrag, exact
to the running interpreter's urllib.parse (see fasturi.parse)."""

from typing import Any, AnyStr, Iterable
from urllib.parse import (
    DefragResult,
    DefragResultBytes,
    ParseResult,
    ParseResultBytes,
    SplitResult,
    SplitResultBytes,
)

HAS_CACHE: bool
COMPILED: dict[str, bool]
KEYWORD: dict[str, bool]

def urlsplit(
    url: str | bytes, scheme: str | bytes = "", allow_fragments: bool = True
) -> SplitResult | SplitResultBytes: ...
def urlsplit_cached(
    url: str | bytes, scheme: str | bytes = "", allow_fragments: bool = True
) -> SplitResult | SplitResultBytes: ...
def urlparse(
    url: str | bytes, scheme: str | bytes = "", allow_fragments: bool = True
) -> ParseResult | ParseResultBytes: ...
def urlunsplit(components: Iterable[AnyStr]) -> AnyStr: ...
def urlunparse(components: Iterable[AnyStr]) -> AnyStr: ...
def urljoin(base: AnyStr, url: AnyStr, allow_fragments: bool = True) -> AnyStr: ...
def urldefrag(url: str | bytes) -> DefragResult | DefragResultBytes: ...
def urlsplit_kw(
    url: str | bytes,
    scheme: str | bytes | None = ...,
    allow_fragments: bool = True,
    *,
    missing_as_none: bool = ...,
) -> SplitResult | SplitResultBytes: ...
def urlsplit_cached_kw(
    url: str | bytes,
    scheme: str | bytes | None = ...,
    allow_fragments: bool = True,
    *,
    missing_as_none: bool = ...,
) -> SplitResult | SplitResultBytes: ...
def urlparse_kw(
    url: str | bytes,
    scheme: str | bytes | None = ...,
    allow_fragments: bool = True,
    *,
    missing_as_none: bool = ...,
) -> ParseResult | ParseResultBytes: ...
def urldefrag_kw(
    url: str | bytes, *, missing_as_none: bool = ...
) -> DefragResult | DefragResultBytes: ...
def urlunsplit_kw(components: Iterable[AnyStr], *, keep_empty: bool = ...) -> AnyStr: ...
def urlunparse_kw(components: Iterable[AnyStr], *, keep_empty: bool = ...) -> AnyStr: ...
def clear_cache() -> None: ...
def _modes(**modes: Any) -> dict[str, Any]: ...
def _detect() -> None: ...
def _outcome(f: Any, *args: Any) -> tuple[Any, ...]: ...
