"""The argument parser of the ``fasturi`` command line: its commands,
their options, and the help text with examples."""

from __future__ import annotations

import argparse
import os
import sys

import fasturi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping, Optional, Sequence

SPLIT_DEFAULT = "scheme,authority,path,query,fragment"

EXIT_OK, EXIT_FOUND, EXIT_ERROR, EXIT_WRITE = 0, 1, 2, 3

# What `fasturi bench` can time.
OPERATIONS = (
    "split",
    "resolve",
    "normalize",
    "canonicalize",
    "is_valid",
    "urlsplit",
    "urljoin",
    "quote",
)

_EPILOG_COMMON = """\
Input: the named files, or standard input for "-" (the default), one URI per
line, UTF-8; gzip, bzip2, xz and zstd input is decompressed as it is read
(known by its first bytes, not its name).  A trailing CR (CRLF line ends) and
a byte-order mark at the start of a file are ignored.  Options and operands
may come in any order.  After the last line, if any line could not be
processed, stderr says how many: "N of M lines could not be processed".
"""

_EPILOG_RECORDS = """\
One record per input line, in order.  A line that cannot be processed (not
UTF-8, or refused by the command) is reported on stderr as FILE:LINE and the
exit status is 1; with --on-error keep (the default) its record is \\E in
every TSV field, or {"<input key>": ..., "error": "..."} in JSON.  TSV
escapes backslash, tab, LF and CR as \\\\ \\t \\n \\r, other control
characters as \\xHH (C0, DEL) or \\uHHHH (C1, U+2028, U+2029); \\N is an
undefined value.  JSON records always carry the input.  See docs/cli.md.
"""


class _Parser(argparse.ArgumentParser):
    """The top-level parser; ``commands`` maps each command to its parser."""

    commands: Mapping[str, argparse.ArgumentParser]


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs as written.  The width is the terminal's, as
    argparse's own, but found without importing shutil for it (with bz2,
    lzma and zlib: a fifth of ``fasturi --version``'s imports)."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2
        super().__init__(prog, **kwargs)


def _columns() -> int:
    """shutil.get_terminal_size().columns: $COLUMNS, else standard output's
    terminal, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def _add_io(p: argparse.ArgumentParser, what: str = "URI", per_line: bool = True) -> None:
    p.add_argument(
        "files",
        nargs="*",
        default=["-"],
        metavar="FILE",
        help=f"files of one {what} per line; '-' or none for standard input",
    )
    p.add_argument("--json", action="store_true", help="write JSON lines instead of TSV")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only when stderr is a terminal)",
    )
    p.add_argument(
        "--line-buffered",
        action="store_true",
        help="write each result as soon as its line is read (for live streams)",
    )
    if per_line:
        p.add_argument(
            "--on-error",
            choices=("keep", "skip", "stop"),
            default="keep",
            help="a line that cannot be processed: keep its place with an error record "
            "(default), skip it, or stop there; each is reported and exits 1",
        )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no message for each line that cannot be processed (the closing count stays)",
    )
    p.add_argument(
        "--max-errors",
        type=_count,
        metavar="N",
        help="stop at the first line that cannot be processed after N such lines",
    )


def _count(text: str) -> int:
    """A number of lines: 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _positive(text: str) -> int:
    """A count of passes: 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


class _Version(argparse.Action):
    """--version: the implementation is looked up only when asked for (it
    loads the compiled core)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        parser._print_message(
            f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION})\n", sys.stdout
        )
        parser.exit()


class _Unused:
    """Where the options of a command that is not being run go: nowhere
    (their parser is not needed, and each option costs a help formatter;
    ``fasturi --version`` adds none)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass


def _command(
    sub: Any, name: str, summary: str, epilog: str, records: bool = True, only: Any = None
) -> Any:
    """The parser of command ``name``; ``_Unused`` unless ``only`` is None
    (every command's options) or ``name``."""
    parser = sub.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog + "\n" + (_EPILOG_RECORDS + "\n" if records else "") + _EPILOG_COMMON,
        formatter_class=_Formatter,
    )
    return parser if only is None or only == name else _Unused()


def _rfc_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rfc",
        type=int,
        choices=(3986, 2396),
        default=3986,
        help="the RFC whose rules apply (default 3986)",
    )


def build_parser(only: Optional[str] = None) -> _Parser:
    """The command line's parser: with ``only``, the options of that command
    alone ("": of none), for a run that needs no other."""
    parser = _Parser(
        prog="fasturi",
        description="RFC 3986 URI tools: one result per input line.",
        epilog=(
            "Run 'fasturi COMMAND --help' for a command's options and examples.\n"
            "Exit status: 0 ok; 1 a line could not be processed, or validate/audit\n"
            "found something; 2 a usage error or an unreadable file; 3 the output\n"
            "could not be written."
        ),
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    parser.commands = sub.choices

    p = _command(
        sub,
        "split",
        "Split each URI into its RFC 3986 components (Appendix B).",
        """\
examples:
  fasturi split urls.txt
  fasturi split --fields scheme,host,path --header < urls.txt
  echo 'http://user@[::1]:8080/p?q#f' | fasturi split --json --fields host,port

Fields: scheme authority userinfo host port path query fragment (default
scheme,authority,path,query,fragment).  TSV prints an undefined component as
\\N; JSON gives {"uri", FIELD...} with null.  The port is the text as written.
""",
        only=only,
    )
    _add_io(p)
    p.add_argument(
        "--fields",
        default=SPLIT_DEFAULT,
        metavar="LIST",
        help=f"comma-separated components to print (default {SPLIT_DEFAULT})",
    )
    p.add_argument("--header", action="store_true", help="print the field names first (TSV)")

    p = _command(
        sub,
        "normalize",
        "Normalize each URI (RFC 3986 §6.2.2 and §6.2.3).",
        """\
examples:
  fasturi normalize urls.txt
  echo 'HTTP://Example.COM:80/a/./b/../%7euser' | fasturi normalize
                                              -> http://example.com/a/~user
  fasturi normalize --no-scheme-based --json urls.txt

TSV output is the normalized text; JSON gives {"uri", "normalized"}.
""",
        only=only,
    )
    _add_io(p)
    p.add_argument(
        "--no-scheme-based",
        action="store_true",
        help="only §6.2.2 (no default-port or empty-path rules of §6.2.3)",
    )

    p = _command(
        sub,
        "canonicalize",
        "Print a dedup key per URI: normalized, query sorted, fragment dropped.",
        """\
examples:
  fasturi canonicalize urls.txt | sort -u
  fasturi canonicalize --drop-param 'utm_*' --drop-param fbclid < urls.txt
  echo 'http://A.com/?b=2&a=1#top' | fasturi canonicalize     -> http://a.com/?a=1&b=2

TSV output is the key; JSON gives {"uri", "canonical"}.
""",
        only=only,
    )
    _add_io(p)
    p.add_argument("--keep-query-order", action="store_true", help="do not sort the query fields")
    p.add_argument("--keep-fragment", action="store_true", help="keep the fragment")
    p.add_argument(
        "--drop-param",
        action="append",
        metavar="NAME",
        help="remove query fields named NAME; 'prefix*' matches by prefix (repeatable)",
    )

    p = _command(
        sub,
        "resolve",
        "Resolve each reference against BASE (RFC 3986 §5.2).",
        """\
examples:
  fasturi resolve 'http://a/b/c/d;p?q' refs.txt
  printf '../g\\n//g\\n?y\\n' | fasturi resolve 'http://a/b/c/d;p?q'
  fasturi resolve --rfc 2396 'http://a/b/c/d;p?q' refs.txt

TSV output is the resolved text; JSON gives {"ref", "resolved"}.
""",
        only=only,
    )
    p.add_argument("base", metavar="BASE", help="the absolute base URI (it must have a scheme)")
    _add_io(p, "reference")
    _rfc_option(p)
    p.add_argument(
        "--non-strict",
        action="store_true",
        help="ignore a reference's scheme equal to BASE's (§5.2.2, 'http:g')",
    )

    p = _command(
        sub,
        "validate",
        "Print each line that does not match an ABNF rule.",
        """\
examples:
  fasturi validate urls.txt
  fasturi validate --rule absolute-URI < urls.txt
  fasturi validate --rfc 2396 --rule absoluteURI --json urls.txt

Each invalid line prints LINE, POSITION (0-based index of the first offending
character), RULE and the text, tab-separated (LINE is FILE:LINE when several
files are given); JSON adds the message.  Exit status 1 if any line is invalid.
A line that cannot be checked (not UTF-8) prints LINE, \\E, \\E, the error and
the text (its bad bytes as \\xHH); JSON gives {"file", "line", "uri", "error"}.
""",
        records=False,
        only=only,
    )
    _add_io(p)
    p.add_argument(
        "--rule", default="URI-reference", help="the ABNF rule to match (default URI-reference)"
    )
    _rfc_option(p)

    p = _command(
        sub,
        "audit",
        "Report RFC 3986 §7 security hazards in each URI.",
        """\
examples:
  fasturi audit urls.txt
  echo 'http://user:secret@0x7f.1/' | fasturi audit --json

Each finding prints LINE, CODE, SECTION, MESSAGE and the text, tab-separated
(LINE is FILE:LINE when several files are given); JSON gives one object per
line with its findings.  Exit status 1 if anything was found.  A line that
cannot be checked (not UTF-8) prints LINE, \\E, \\E, the error and the text;
JSON gives {"file", "line", "uri", "error"}.
""",
        records=False,
        only=only,
    )
    _add_io(p)

    p = _command(
        sub,
        "extract",
        "Print the URIs found in free text (RFC 3986 Appendix C).",
        """\
examples:
  fasturi extract README.txt | sort -u
  fasturi extract --abbreviated notes.txt        (also www.example.com/x)
  curl -s URL | fasturi extract --json

Prints one URI per line; JSON gives {"file", "line", "uri"}.  A URI inside
<...> may run over several lines, as Appendix C allows.  A line that is not
UTF-8 is reported on stderr and skipped (exit status 1).
""",
        records=False,
        only=only,
    )
    _add_io(p, "line of text", per_line=False)
    p.add_argument(
        "--abbreviated",
        action="store_true",
        help="also find RFC 2396 Appendix F forms (www.x.com/p, ftp.x.com)",
    )

    p = _command(
        sub,
        "domain",
        "Print each URI's registrable domain by the Public Suffix List.",
        """\
examples:
  fasturi domain urls.txt | sort | uniq -c | sort -rn
  echo 'https://a.b.blogspot.com/x' | fasturi domain --private   -> b.blogspot.com
  echo 'https://www.bbc.co.uk/' | fasturi domain --suffix         -> co.uk

The list is the one the publicsuffixlist package ships (see
fasturi.public_suffix_list_version()).  TSV prints \\N where there is none
(an IP address, a host that is itself a public suffix); JSON gives
{"uri", "domain"} (or "suffix").
""",
        only=only,
    )
    _add_io(p)
    p.add_argument("--private", action="store_true", help="use the list's PRIVATE section too")
    p.add_argument("--suffix", action="store_true", help="print the public suffix, not the domain")

    p = _command(
        sub,
        "surt",
        "Print each URI's SURT key (web archive CDX form, as the surt package).",
        """\
examples:
  fasturi surt urls.txt
  echo 'http://www.Archive.org/goo/?b&a' | fasturi surt   -> org,archive)/goo?a&b

TSV output is the key; JSON gives {"uri", "surt"}.  A line surt
refuses (a port that is not a number, or out of range) is an error record.
""",
        only=only,
    )
    _add_io(p)

    p = _command(
        sub,
        "fingerprint",
        "Print a stable 64-bit fingerprint (XXH64) of each URI's dedup key.",
        """\
examples:
  fasturi fingerprint urls.txt
  fasturi fingerprint --preset w3lib --keep-fragment < urls.txt
  echo 'http://A.com/?b&a#top' | fasturi fingerprint --json

The key is what 'fasturi canonicalize' prints (with --preset w3lib, the key
of w3lib.url.canonicalize_url); the fingerprint is XXH64, seed 0, of its
UTF-8 bytes, an unsigned decimal integer.  JSON gives {"uri", "fingerprint"}.
""",
        only=only,
    )
    _add_io(p)
    p.add_argument(
        "--preset", choices=("w3lib",), help="the key of another tool instead of fasturi's"
    )
    p.add_argument("--keep-query-order", action="store_true", help="do not sort the query fields")
    p.add_argument("--keep-fragment", action="store_true", help="keep the fragment")
    p.add_argument(
        "--drop-param",
        action="append",
        metavar="NAME",
        help="remove query fields named NAME; 'prefix*' matches by prefix (repeatable)",
    )

    p = sub.add_parser(
        "bench",
        help="Time fasturi against urllib.parse and installed peers.",
        description="""\
Time fasturi against urllib.parse and every installed peer (rfc3986, uritools,
yarl, ada_url, can_ada, w3lib), and fasturi's column functions and engine paths
(pandas, polars, DuckDB, Dask) against each engine's own way, on the corpus
shipped in the package; print nanoseconds per URL.  pip install
'fasturi[bench]' installs every peer and engine.""",
        epilog="""\
examples:
  fasturi bench
  fasturi bench --rounds 10 --ops split,resolve
  fasturi bench --corpus big-urls.txt --refs refs.tsv --json
  fasturi bench --plot bench.png

Each row is the best of --rounds passes over the whole corpus (fewer for a
peer whose passes already took a second), in ns per URL; "x urllib" is how
many times faster than urllib.parse, "x fasturi" how many times slower than
fasturi's single-call function.  Peers do different amounts of work (WHATWG
parsers normalize while they parse); footnotes say which.  Column and engine
rows build their input (an Arrow column, a DataFrame) before the timing;
Spark is timed by benchmarks/engines.py instead, on millions of rows.  A
progress bar on stderr (when it is a terminal) says which row is timed.
--plot draws the table as bars (needs matplotlib).
""",
        formatter_class=_Formatter,
    )
    if only is not None and only != "bench":
        return parser
    p.add_argument("--rounds", type=_positive, default=3, help="passes per measurement (default 3)")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only when stderr is a terminal)",
    )
    p.add_argument(
        "--ops",
        default=",".join(OPERATIONS),
        metavar="LIST",
        help=f"operations to time, comma-separated (default: all of {', '.join(OPERATIONS)})",
    )
    p.add_argument("--corpus", metavar="FILE", help="a file of URLs, one per line")
    p.add_argument("--refs", metavar="FILE", help="a file of BASE<TAB>REFERENCE lines")
    p.add_argument("--json", action="store_true", help="print JSON records instead of a table")
    p.add_argument(
        "--plot", metavar="FILE.png", help="also draw the table as a bar chart (needs matplotlib)"
    )
    return parser
