"""Properties of extract for any text (Hypothesis)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

# The characters extraction decides on, mixed with any code point (lone
# surrogates, NUL, controls, noncharacters) so that all str kinds occur.
TEXT_CHARS = st.sampled_from(
    list(":/?#[]@%!$&'()*+,;=.-_~<>\"`\\{}| \t\n\r\x00\x7faAzZ09wWfF")
    + ["\u00a0", "\u00e9", "\u2014", "\u3002", "\u6771", "\ud800", "\ufffe", "\U0001f600"]
)
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())
PIECES = st.sampled_from(
    [
        "http",
        "HTTPS",
        "://",
        ":",
        "//",
        "<",
        ">",
        "URL:",
        "<URL: ",
        "mailto:",
        "urn:",
        "file:",
        "www.",
        "WWW.",
        "ftp.",
        "example",
        ".com",
        "/p",
        "?q=1",
        "#f",
        "(",
        ")",
        "[",
        "]",
        "'",
        '"',
        ". ",
        ", ",
        "\n ",
        "a@b",
        "%41",
        "\u65e5\u672c",
        "12:30",
        "note: ",
    ]
)
TEXT = st.lists(st.one_of(PIECES, PIECES, TEXT_CHARS, ANY_CHAR), max_size=60).map("".join)

SPACE = " \t\n\r\f\v"
DROP_SPACE = {ord(c): None for c in SPACE}
SCHEME_START = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def _exact(found):
    # str equality compares code points only; a str built with the wrong
    # width flag (an "ASCII" str holding U+00E9) would still compare equal.
    return [(s, s.isascii()) for s in found]


@pytest.mark.parity
@given(TEXT, st.booleans())
def test_compiled_equals_python(twin_pair, text, abbreviated):
    compiled, python = twin_pair("extract")
    assert _exact(compiled.extract(text, abbreviated=abbreviated)) == _exact(
        python.extract(text, abbreviated=abbreviated)
    )


@pytest.mark.parity
@given(st.text(ANY_CHAR, max_size=200), st.booleans())
def test_compiled_equals_python_any_code_points(twin_pair, text, abbreviated):
    compiled, python = twin_pair("extract")
    assert _exact(compiled.extract(text, abbreviated=abbreviated)) == _exact(
        python.extract(text, abbreviated=abbreviated)
    )


# The compiled scanners read 16 code units at a time and decide the units
# around each block's hits one by one; every trigger is put at every offset
# of a block, in text of each width, including non-ASCII units that the
# vector loads must never take for ASCII (U+013A, U+FF1A and U+1003A end in
# the bytes of ':').
WIDTH_MARKS = ["", "\u00e9", "\u013a\uff1a", "\U0001003a"]
SNIPPETS = [
    "http://a.b/c",
    "<URL:x:y>",
    "< http://a/ b/c >",
    "<\tURL: mailto:x\n y>",
    "mailto:x",
    "http://a/" + "\u00e9" * 17,
    "http://a/\u00e9\u00e9\u00e9/c/d/e",
    "www.a.b/c",
    "FTP.a.b",
    "</a>",
]


@pytest.mark.parity
@pytest.mark.parametrize("mark", WIDTH_MARKS, ids=["ascii", "latin1", "ucs2", "ucs4"])
def test_compiled_equals_python_at_every_block_offset(twin_pair, mark):
    compiled, python = twin_pair("extract")
    for snippet in SNIPPETS:
        for offset in range(34):
            for filler in ("x" * offset, "-" * offset, mark * offset):
                text = filler + snippet + " " + mark + filler + snippet + mark
                for abbreviated in (False, True):
                    want = _exact(python.extract(text, abbreviated=abbreviated))
                    assert _exact(compiled.extract(text, abbreviated=abbreviated)) == want, text


@given(TEXT)
def test_found_in_text_in_order(every_twin, text):
    # Each URI is a slice of the text or, from <...>, of the text with ASCII
    # whitespace dropped; one URI ends before the next starts.
    squeezed = text.translate(DROP_SPACE)
    for mod in every_twin("extract"):
        pos = 0
        for uri in mod.extract(text):
            assert SCHEME_START.match(uri), uri
            assert not any(c in SPACE for c in uri)
            assert uri in text or "<" in text
            at = squeezed.find(uri, pos)
            assert at >= 0, (uri, text)
            pos = at + len(uri)


@given(TEXT)
def test_abbreviated_only_adds(every_twin, text):
    for mod in every_twin("extract"):
        plain = mod.extract(text)
        more = mod.extract(text, abbreviated=True)
        extra = [u for u in more if u not in plain]
        for uri in extra:
            assert uri.startswith(("http://", "ftp://"))
            host = uri.split("://", 1)[1]
            assert host[:4].lower() in ("www.", "ftp.")
            assert host in text


# A URI that the text rules keep whole: a scheme, "//" or an opaque
# scheme's ":", and body characters that do not end in punctuation.
BODY_CHAR = st.sampled_from(
    list("abcxyzABC0189-._~:/?#@!$&*+=%") + ["\u00e9", "\u6771", "\U0001f600", "\ue000"]
)
LAST_CHAR = st.sampled_from(list("abcXYZ09/-_~=&#") + ["\u00e9", "\u4eac"])
SCHEME = st.sampled_from(["http", "https", "ftp", "s3", "git+ssh", "coap.tcp", "X-y"])
OPAQUE = st.sampled_from(["mailto", "urn", "news", "tel", "data", "MailTo"])
URI = st.one_of(
    st.tuples(SCHEME, st.text(BODY_CHAR, max_size=30), LAST_CHAR).map(
        lambda p: p[0] + "://" + p[1] + p[2]
    ),
    st.tuples(OPAQUE, st.text(BODY_CHAR, max_size=30), LAST_CHAR)
    .map(lambda p: p[0] + ":" + p[1] + p[2])
    # "mailto://" leaves nothing after "scheme://": no URI, as for "http://"
    .filter(lambda u: u.split(":", 1)[1] != "//"),
)
WORD = st.text(
    st.sampled_from(list("abcdefghijklmnopqrstuvwxyz.,;:!?'\"()12\u00e9\u6771")),
    min_size=1,
    max_size=10,
)
PROSE = st.lists(WORD, max_size=12).map(" ".join)


@given(
    PROSE,
    URI,
    PROSE,
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(SPACE)), max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_wrapped_uri_in_prose_is_found(
    every_twin, before, uri, after, spaces, url_prefix, abbreviated
):
    colon = uri.index(":")
    body = uri[colon + 1 :]
    for at, space in sorted(spaces, reverse=True):
        at = min(at, len(body))
        body = body[:at] + space + body[at:]
    wrapped = "<" + ("URL:" if url_prefix else "") + uri[: colon + 1] + body + ">"
    text = before + " " + wrapped + " " + after
    for mod in every_twin("extract"):
        assert uri in mod.extract(text, abbreviated=abbreviated)


@given(PROSE, URI, PROSE)
def test_bare_uri_in_prose_is_found(every_twin, before, uri, after):
    for mod in every_twin("extract"):
        for text in (
            f"{before} {uri} {after}",
            f"{before} ({uri}). {after}",
            f'{before} "{uri}", {after}',
            f"{before}\n{uri}\n{after}",
        ):
            assert uri in mod.extract(text)
