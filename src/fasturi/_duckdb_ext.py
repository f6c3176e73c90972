"""The DuckDB extension file: where it is, its metadata, ``python -m
fasturi.duckdb --path``.  Imports no duckdb (a user of DuckDB's command line
needs only the path).

setup.py builds ``fasturi.duckdb_extension`` from ``csrc/fasturi_duckdb.c``
and appends DuckDB's metadata: the last 512 bytes of the file are eight
32-byte NUL-padded fields, last to first (field 2 is the platform, field 3
the C API version it needs, field 5 the ABI), then 256 bytes of signature.
DuckDB refuses a file whose platform is not its own; a DuckDB that reports
another name for this machine (older Python wheels said ``linux_amd64_gcc4``)
gets a copy with its name, made once in the user's cache folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, List, Optional, Tuple

#: The functions the extension carries (the others go through Arrow).
NATIVE = frozenset(
    [
        "uri_scheme",
        "uri_authority",
        "uri_userinfo",
        "uri_host",
        "uri_port",
        "uri_path",
        "uri_query",
        "uri_fragment",
        "uri_is_valid",
        "uri_normalize",
        "uri_canonicalize",
        "uri_fingerprint",
        "uri_resolve",
        "uri_split",
        "uri_query_params",
        "uri_registrable_domain",
        "uri_public_suffix",
        "uri_query_param",
        "uri_remove_params",
        "uri_path_extension",
        "uri_subdomain",
        "uri_path_hierarchy",
    ]
)

FILE_NAME = "fasturi.duckdb_extension"
_FOOTER = 512
_FIELD = 32


def extension_file() -> Optional[Path]:
    """The extension shipped in the package, or None where it was not built.

    ``FASTURI_DUCKDB_EXTENSION`` names another build of it to use instead
    (one built with the sanitizers, say)."""
    given = os.environ.get("FASTURI_DUCKDB_EXTENSION")
    path = Path(given) if given else Path(__file__).with_name(FILE_NAME)
    return path if path.is_file() else None


def metadata(path: Path) -> List[str]:
    """The file's eight metadata fields, field 1 first."""
    with open(path, "rb") as f:
        f.seek(-_FOOTER, os.SEEK_END)
        tail = f.read(_FOOTER)
    fields = [
        tail[i : i + _FIELD].rstrip(b"\0").decode("ascii") for i in range(0, 8 * _FIELD, _FIELD)
    ]
    if fields[7] != "4":
        raise ValueError(f"{path} carries no DuckDB extension metadata")
    return fields[::-1]


def platform_of(path: Path) -> str:
    return metadata(path)[1]


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or (
        os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None
    )
    return Path(base) if base else Path.home() / ".cache"


def for_platform(platform: str) -> Optional[Path]:
    """The extension file with ``platform`` in its metadata: the shipped one,
    or a copy of it made for a DuckDB that names this machine otherwise."""
    path = extension_file()
    if path is None or platform_of(path) == platform:
        return path
    if len(platform.encode("ascii")) > _FIELD:
        raise ValueError(f"DuckDB platform name too long: {platform!r}")
    data = bytearray(path.read_bytes())
    at = len(data) - _FOOTER + 6 * _FIELD  # field 2
    data[at : at + _FIELD] = platform.encode("ascii").ljust(_FIELD, b"\0")
    stat = path.stat()
    folder = _cache() / "fasturi" / f"duckdb-{stat.st_size}-{int(stat.st_mtime)}" / platform
    copy = folder / FILE_NAME
    if copy.is_file() and copy.read_bytes() == data:
        return copy
    folder.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(partial, copy)
    except BaseException:
        os.unlink(partial)
        raise
    return copy


def public_suffix_table() -> Optional[Tuple[str, str]]:
    """The list the scalar functions use, as the extension's
    ``fasturi_load_public_suffix_list(keys, version)`` takes it: the keys of
    _psl_c's hash set (every rule core, and every proper suffix of one
    flagged FU_PSL_LONGER), one a line after its flags in two hex digits
    (the ICANN section's in the low nibble, the whole list's in the high
    one); and the list's version.  None where a core is no UTF-8 text."""
    import fasturi

    from . import _psl

    global _cached
    fasturi.public_suffix_list_version()  # (reads the list, if not yet)
    rules = _psl.last or _psl.read(None)
    if _cached is not None and _cached[0] is rules:
        return _cached[1]
    try:
        keyed = _psl.keys(rules)
    except UnicodeEncodeError:
        _cached = (rules, None)
        return None
    text = "".join(f"{flags:02x}{key.decode('utf-8')}\n" for key, flags in keyed.items())
    _cached = (rules, (text, rules.version or ""))
    return _cached[1]


_cached: Optional[Tuple[Any, Optional[Tuple[str, str]]]] = None


_USAGE = """usage: python -m fasturi.duckdb --path [--platform NAME]
       python -m fasturi.duckdb --write-public-suffix-table NEW_FILE

--path prints the path of fasturi's DuckDB extension, for
  LOAD '<path>';
in a DuckDB (1.2.0 or later) opened with allow_unsigned_extensions (the
command line's -unsigned).  A DuckDB that names this machine otherwise
(PRAGMA platform; DuckDB 1.2's Python wheels say linux_amd64_gcc4) loads a
copy carrying its name: --platform NAME prints the path of that copy (made
once in the user's cache folder).

--write-public-suffix-table NEW_FILE creates NEW_FILE (an existing file is
never replaced) with the lookup table of the Public Suffix List fasturi uses
(not the list itself: the extension's keys) and prints the statement that
hands it to the extension (fasturi.duckdb's connect() and register() do it
themselves), for uri_registrable_domain and uri_public_suffix in a DuckDB
without Python:
  SELECT fasturi_load_public_suffix_list(content, '<version>') FROM read_text('NEW_FILE');"""


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _write_table(path: str) -> int:
    """--write-public-suffix-table: creates ``path``; an existing file (the
    list in use above all) is refused, never replaced."""
    from . import _psl

    def refuse(why: str) -> int:
        print(f"fasturi: {path}: {why}; nothing written", file=sys.stderr)
        return 1

    table = public_suffix_table()
    if table is None:
        return refuse("the Public Suffix List in use is not UTF-8 text")
    in_use = (_psl.last or _psl.read(None)).path
    if os.path.exists(path) and os.path.exists(in_use) and os.path.samefile(path, in_use):
        return refuse("this is the Public Suffix List fasturi reads (give a new file's name)")
    keys, version = table
    try:
        f = open(path, "x", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed below
    except FileExistsError:
        return refuse("the file exists, and is not replaced (give a new file's name)")
    except OSError as exc:
        return refuse(exc.strerror or str(exc))
    try:
        with f:
            f.write(keys)
    except OSError as exc:  # (a full disk): no half-written table is left
        os.unlink(path)
        return refuse(exc.strerror or str(exc))
    print(
        f"SELECT fasturi_load_public_suffix_list(content, {_quoted(version)})"
        f" FROM read_text({_quoted(os.path.abspath(path))});"
    )
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--path"] and (len(args) == 1 or (len(args) == 3 and args[1] == "--platform")):
        try:
            path = extension_file() if len(args) == 1 else for_platform(args[2])
        except (OSError, ValueError) as exc:
            print(f"fasturi: {exc}", file=sys.stderr)
            return 1
        if path is None:
            print(
                "fasturi: this installation has no DuckDB extension (built without a C compiler)",
                file=sys.stderr,
            )
            return 1
        print(path)
        return 0
    if len(args) == 2 and args[0] == "--write-public-suffix-table":
        return _write_table(args[1])
    if args[:1] == ["--public-suffix-list"]:  # (its old name read as an input)
        print(
            "fasturi: --public-suffix-list is now --write-public-suffix-table NEW_FILE:"
            " it writes a file (and never replaces one), it reads none",
            file=sys.stderr,
        )
        return 2
    print(_USAGE, file=sys.stderr)
    return 2
