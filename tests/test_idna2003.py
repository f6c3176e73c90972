"""csrc/fasturi_idna2003.h: Python's idna codec (IDNA 2003) in C, as surt
and the w3lib preset call it: host.decode("utf-8", "ignore").encode("idna"),
and w3lib's str.lower and NFKC before it.  Its answer is the codec's on
every input it answers for, on the running Python; the rest it hands back
(a code point Unicode 3.2 does not assign, which the codec lowercases by the
running Python)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.compiled

_U32 = unicodedata.ucd_3_2_0


def _beyond_32(c: str) -> bool:
    """What the codec maps by the running Python's Unicode: a code point
    Unicode 3.2 does not assign, or one lowercased to such."""
    return _U32.category(c) == "Cn" or any(_U32.category(x) == "Cn" for x in c.lower())


def _codec(host: bytes):
    try:
        return host.decode("utf-8", "ignore").encode("idna")
    except UnicodeError:
        return None


def _w3lib(host: str):
    # fasturi._w3lib's host steps: str.lower, then (non-ASCII) NFKC and IDNA
    host = host.lower()
    if host.isascii():
        return host.encode()
    try:
        return unicodedata.normalize("NFKC", host.translate(str.maketrans("", "", "@:#?"))).encode(
            "idna"
        )
    except UnicodeError:
        return None


# code points every part of nameprep treats apart: B.1, B.2 (case folds,
# one to many), NFKC (compatibility, Hangul, marks), C.* prohibited, the
# bidi tables, the four dots, ASCII, and some Unicode 3.2 does not assign
_SPECIAL = (
    "abcXN-.0Z%@:#?"
    "\u00df\u0130\u03a3\u03c2\u05d0\u0627\u0661\u06f1\u00ad\u200b\u200c\ufeff\u2488\u3002\uff0e"
    "\uff61\u1100\u1161\u11a8\uac00\u0300\u0301\u0316\ufb01\u2126\u212a\u10a0\u04c0\U0002f868"
    "\ue000\ufdd0\u2ff0\u0340\u200e\U000e0001\u0378\u2d00\uff21\u3000\u0345\u1e9b\u0390"
)
_CHARS = st.one_of(
    st.sampled_from(_SPECIAL),
    st.characters(max_codepoint=0x2FFFF, exclude_categories=("Cs",)),
)
_HOSTS = st.one_of(
    st.lists(_CHARS, max_size=16).map("".join),
    st.lists(_CHARS, min_size=40, max_size=80).map("".join),
)


@given(_HOSTS, st.binary(max_size=3), st.integers(0, 20))
@settings(deadline=None, max_examples=1500)
@example("\u00fc" + "a" * 54, b"", 0)
@example("a" * 63 + ".\u00fc", b"", 0)
@example("\u00ad" * 300 + "\u00fc", b"", 0)
@example("\u3002", b"", 0)
@example("xn--\u00fc", b"", 0)
@example("\u00fc.", b"\xe2\x82", 1)
def test_the_codecs_answer(host, junk, at):
    from fasturi import _idna_c

    raw = host.encode()
    raw = raw[:at] + junk + raw[at:]  # bytes that are not UTF-8 are dropped
    got = _idna_c._idna2003(raw)
    if got is NotImplemented:
        assert any(_beyond_32(c) for c in raw.decode("utf-8", "ignore"))
    else:
        assert got == _codec(raw)


@given(_HOSTS)
@settings(deadline=None, max_examples=1500)
@example("\u0130stanbul.example")
@example("\u212a.example")
@example("B\u00dcCHER.example")
def test_w3libs_answer(host):
    from fasturi import _idna_c

    got = _idna_c._idna2003(host.encode(), True)
    if got is NotImplemented:
        assert any(_beyond_32(c) or c == "\u03a3" for c in host) or any(
            _U32.normalize("NFKC", c) != unicodedata.normalize("NFKC", c) for c in host
        )
    else:
        assert got == _w3lib(host)


def test_what_it_hands_back():
    from fasturi import _idna_c

    # a Georgian capital: Python 3.14's stringprep maps it as Unicode 3.2
    # did (to itself), earlier ones by str.lower (to U+2D00)
    assert _idna_c._idna2003("\u10a0.example".encode()) is NotImplemented
    # Vithkuqi (Unicode 14): the codec lowercases it by str.lower
    assert _idna_c._idna2003("\U00010570.example".encode()) is NotImplemented
    # a final sigma is str.lower's by context
    assert _idna_c._idna2003("\u039f\u03a3.example".encode(), True) is NotImplemented
    assert _idna_c._idna2003("\u03bf\u03c3.example".encode(), True) == _w3lib(
        "\u03bf\u03c3.example"
    )
    # a CJK compatibility ideograph whose NFKC Unicode 4.0 corrected
    assert _idna_c._idna2003("\U0002f868".encode(), True) is NotImplemented
    assert _idna_c._idna2003("\U0002f868".encode()) == _codec("\U0002f868".encode())
