"""URL corpora for the crawler-tool agreement tests.

Both of corpus_files' corpora: the packaged sample always, the full corpus
when it is there.
"""

from __future__ import annotations

from pathlib import Path

import corpus_files
from hypothesis import strategies as st

urls = corpus_files.lines


def corpora() -> list[Path]:
    """The corpus files present: the packaged sample, and the full one if there."""
    shared = corpus_files.SHARED / "urls.txt"
    return [corpus_files.PACKAGED / "urls.txt"] + ([shared] if shared.is_file() else [])


def outcome(fn, *args, **options):
    try:
        return fn(*args, **options)
    except ValueError as exc:  # UnicodeEncodeError included
        return type(exc)


# Pieces of URLs where w3lib's key has its corner cases.
W3LIB_PIECES = st.sampled_from(
    [
        "http://",
        "HTTPS://",
        "ftp://",
        "file:///",
        "mailto:",
        "gs://",
        "x:",
        "u:p@",
        "a.B",
        "[::1]",
        "[v1.x]",
        "[1.2.3.4]",
        ":80",
        ":99999",
        ":x",
        "//",
        "/./",
        "/../",
        "%2e",
        "%25",
        "%2F",
        "%3b",
        "%3F",
        "%7e",
        "%ff",
        "%C3%A9",
        "é",
        "π",
        "ｆ",
        "ß",
        "\u3002",
        # hosts through IDNA 2003: capitals, B.1, compatibility forms, a
        # dotted digit, right-to-left letters; NFKC that gains a delimiter
        # (w3lib refuses the netloc); what only the running Python answers
        # (unassigned in Unicode 3.2, a corrected NFKC, a final sigma)
        "Ü",
        "İ",
        "Σ",
        "\u00ad",
        "\u2488",
        "\uff0e",
        "\u05d0",
        "\u0627",
        "\uff1a",
        "\u2100",
        "\U00010570",
        "\U0002f868",
        "\ud800",
        "\x00",
        "\x7f",
    ]
    + list("abc.:/?#%@[]&=+;0123456789 \t\n-\\'\"|<>{}^`~")
)


# Keys w3lib.url.canonicalize_url gives (checked against it where it installs).
W3LIB_EXAMPLES = {
    # query sorted by (name, value), re-encoded, every field with "="
    "http://www.example.com/do?c=3&b=5&b=2&a=50": "http://www.example.com/do?a=50&b=2&b=5&c=3",
    "http://www.example.com/do?q=a+b&r=%7e&s": "http://www.example.com/do?q=a+b&r=~&s=",
    # non-ASCII path as UTF-8 escapes; escape case normalized
    "http://www.example.com/résumé": "http://www.example.com/r%C3%A9sum%C3%A9",
    "http://www.example.com/a%2fb%7Ec": "http://www.example.com/a%2Fb~c",
    # dot segments, IPv6 in RFC 5952 form, host lowercased, IDNA
    "http://[::0:1]/a/../b": "http://[::1]/b",
    "HTTP://WWW.Example.COM:8080/": "http://www.example.com:8080/",
    "http://Bücher.example/": "http://xn--bcher-kva.example/",
    # the fragment goes; userinfo stays (case kept)
    "http://User:Pw@example.com/#top": "http://User:Pw@example.com/",
    # params of the last segment, and the empty path
    "http://example.com/a;x=1?b": "http://example.com/a;x=1?b=",
    "http://example.com": "http://example.com/",
}
