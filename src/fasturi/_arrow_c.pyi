from typing import Dict, List, Optional, Sequence, Tuple

from ._types import ArrowColumn

__all__ = [
    "audit_escapes",
    "audit_suspects",
    "canonicalize",
    "canonicalize_w3lib",
    "error_position",
    "fingerprint",
    "is_valid",
    "join_lines",
    "join_tsv",
    "lines",
    "normalize",
    "path_extension",
    "path_hierarchy",
    "percent_decode",
    "public_suffix",
    "query_param",
    "query_params",
    "registrable_domain",
    "remove_params",
    "resolve_each",
    "resolve_one",
    "split",
    "subdomain",
    "surt",
    "valid_rows",
    "whatwg_can_parse",
    "whatwg_href",
    "whatwg_replace",
    "whatwg_search_params",
    "whatwg_split",
]

def split(
    col: ArrowColumn,
    row0: int,
    threads: int,
    fields: Sequence[str],
    views: Optional[bool] = None,
) -> ArrowColumn: ...
def normalize(col: ArrowColumn, row0: int, threads: int, scheme_based: bool) -> ArrowColumn: ...
def canonicalize(
    col: ArrowColumn,
    row0: int,
    threads: int,
    sort_query: bool,
    drop_fragment: bool,
    drop_params: Sequence[str],
) -> ArrowColumn: ...
def is_valid(col: ArrowColumn, row0: int, threads: int, rule: str, rfc: int) -> ArrowColumn: ...
def error_position(
    col: ArrowColumn, row0: int, threads: int, rule: str, rfc: int
) -> ArrowColumn: ...
def resolve_one(
    col: ArrowColumn, row0: int, threads: int, base: str, strict: bool, rfc: int
) -> ArrowColumn: ...
def resolve_each(
    bases: ArrowColumn, col: ArrowColumn, row0: int, threads: int, strict: bool, rfc: int
) -> ArrowColumn: ...
def percent_decode(col: ArrowColumn, row0: int, threads: int, errors: str) -> ArrowColumn: ...
def lines(
    block: bytes,
) -> Tuple[ArrowColumn, int, List[Tuple[int, int, int]], Sequence[int]]: ...
def join_lines(col: ArrowColumn) -> bytes: ...
def join_tsv(col: ArrowColumn, nfields: int) -> bytes: ...
def valid_rows(col: ArrowColumn) -> List[int]: ...
def audit_suspects(
    col: ArrowColumn,
    row0: int,
    threads: int,
    known: Optional[
        List[Tuple[str, Optional[Tuple[int, int, int, int, int, int, int, int]]]]
    ] = None,
) -> List[int]: ...
def audit_escapes(text: str) -> Optional[Tuple[int, int, int, int, int, int, int, int]]: ...
def registrable_domain(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn: ...
def public_suffix(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn: ...
def surt(
    col: ArrowColumn, row0: int, threads: int, refused: Optional[Dict[int, ValueError]] = None
) -> ArrowColumn: ...
def canonicalize_w3lib(
    col: ArrowColumn,
    row0: int,
    threads: int,
    keep_fragment: bool,
    refused: Optional[Dict[int, ValueError]] = None,
) -> ArrowColumn: ...
def fingerprint(
    col: ArrowColumn,
    row0: int,
    threads: int,
    sort_query: bool,
    drop_fragment: bool,
    drop_params: Sequence[str],
    preset: Optional[str],
    refused: Optional[Dict[int, ValueError]] = None,
) -> ArrowColumn: ...
def whatwg_href(col: ArrowColumn, row0: int, threads: int, base: Optional[str]) -> ArrowColumn: ...
def whatwg_replace(
    col: ArrowColumn, row0: int, threads: int, changes: Sequence[Tuple[str, str]]
) -> ArrowColumn: ...
def whatwg_can_parse(
    col: ArrowColumn, row0: int, threads: int, base: Optional[str]
) -> ArrowColumn: ...
def whatwg_split(
    col: ArrowColumn, row0: int, threads: int, fields: Sequence[str], base: Optional[str]
) -> ArrowColumn: ...
def whatwg_search_params(
    col: ArrowColumn, row0: int, threads: int, base: Optional[str]
) -> ArrowColumn: ...
def query_param(
    col: ArrowColumn, row0: int, threads: int, name: str, decode: bool
) -> ArrowColumn: ...
def query_params(col: ArrowColumn, row0: int, threads: int, decode: bool) -> ArrowColumn: ...
def remove_params(
    col: ArrowColumn, row0: int, threads: int, patterns: Sequence[str]
) -> ArrowColumn: ...
def path_extension(col: ArrowColumn, row0: int, threads: int) -> ArrowColumn: ...
def path_hierarchy(col: ArrowColumn, row0: int, threads: int) -> ArrowColumn: ...
def subdomain(col: ArrowColumn, row0: int, threads: int, private: bool) -> ArrowColumn: ...
