from typing import Iterable, List, Optional

from ._types import Split

__all__ = [
    "canonicalize",
    "canonicalize_many",
    "fingerprint",
    "normalize_many",
    "resolve_many",
    "split_many",
    "xxh64",
]

def canonicalize(
    s: str,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
) -> str: ...
def xxh64(data: bytes, seed: int = 0) -> int: ...
def fingerprint(
    s: str,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
) -> int: ...
def split_many(uris: Iterable[str], *, errors: str = "raise") -> List[Optional[Split]]: ...
def normalize_many(
    uris: Iterable[str], *, scheme_based: bool = True, errors: str = "raise"
) -> List[Optional[str]]: ...
def canonicalize_many(
    uris: Iterable[str],
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    errors: str = "raise",
    preset: Optional[str] = None,
) -> List[Optional[str]]: ...
def resolve_many(
    base: str,
    refs: Iterable[str],
    *,
    strict: bool = True,
    rfc: int = 3986,
    errors: str = "raise",
) -> List[Optional[str]]: ...
