"""Percent-encoding and decoding (RFC 3986 §2.1, §2.3, §2.4)."""

from __future__ import annotations

import pytest

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


def test_unreserved_is_never_encoded(core):
    assert core.percent_encode(UNRESERVED) == UNRESERVED


def test_every_other_octet_is_encoded(core):
    text = "".join(chr(c) for c in range(128) if chr(c) not in UNRESERVED)
    assert core.percent_encode(text) == "".join(f"%{ord(c):02X}" for c in text)


@pytest.mark.parametrize(
    ("text", "safe", "want"),
    [
        ("a b", "", "a%20b"),
        ("a/b?c", "", "a%2Fb%3Fc"),
        ("a/b?c", "/", "a/b%3Fc"),
        ("a/b?c", "/?", "a/b?c"),
        ("100%", "", "100%25"),
        ("100%", "%", "100%"),
        ("é", "", "%C3%A9"),  # UTF-8 octets, uppercase hex (§2.1)
        ("\u20ac\U0001f600", "", "%E2%82%AC%F0%9F%98%80"),
        ("é", "é", "%C3%A9"),  # only ASCII characters of safe count
        ("\x00\x7f\n", "", "%00%7F%0A"),
        ("", "", ""),
        ("a:b@c", ":@", "a:b@c"),
    ],
)
def test_percent_encode(core, text, safe, want):
    assert core.percent_encode(text, safe) == want
    assert core.percent_encode(text, safe=safe) == want


def test_percent_encode_encoding_and_errors(core):
    assert core.percent_encode("é", encoding="latin-1") == "%E9"
    assert core.percent_encode("é€", encoding="ascii", errors="ignore") == ""
    assert core.percent_encode("é", encoding="ascii", errors="xmlcharrefreplace") == "%26%23233%3B"
    with pytest.raises(UnicodeEncodeError):
        core.percent_encode("\ud800")
    assert core.percent_encode("\ud800", errors="surrogatepass") == "%ED%A0%80"
    with pytest.raises(UnicodeEncodeError):
        core.percent_encode("€", encoding="latin-1")
    with pytest.raises(LookupError):
        core.percent_encode("a", encoding="no-such-codec")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a%20b", "a b"),
        ("%41%42%43", "ABC"),
        ("%7e%7E", "~~"),  # hex digits are case-insensitive (§2.1)
        ("%C3%A9", "é"),
        ("%e2%82%ac", "€"),
        ("%2F%3F%23", "/?#"),
        ("%00", "\x00"),
        ("é%20ü", "é ü"),  # text outside escapes is kept
        ("%zz%4", "%zz%4"),  # malformed escapes are kept as written
        ("%", "%"),
        ("%%41", "%A"),
        ("%4%41", "%4A"),
        ("%G0%0G", "%G0%0G"),
        ("100%", "100%"),
        ("", ""),
        ("plain", "plain"),
    ],
)
def test_percent_decode(core, text, want):
    assert core.percent_decode(text) == want


def test_percent_decode_invalid_utf8(core):
    with pytest.raises(UnicodeDecodeError):
        core.percent_decode("%C0%AF")
    with pytest.raises(UnicodeDecodeError):
        core.percent_decode("%ff")
    with pytest.raises(UnicodeDecodeError):
        core.percent_decode("%C3")  # truncated sequence
    assert core.percent_decode("%C0%AF", errors="replace") == "\ufffd\ufffd"
    assert core.percent_decode("a%ffb", errors="ignore") == "ab"
    assert core.percent_decode("%ff", errors="surrogateescape") == "\udcff"


def test_percent_decode_encoding(core):
    assert core.percent_decode("%E9", encoding="latin-1") == "é"
    assert core.percent_decode("%A4", encoding="iso-8859-15") == "€"
    # the octets of the text itself (UTF-8) are read with the encoding too
    assert core.percent_decode("é%E9", encoding="latin-1") == "Ã©é"
    with pytest.raises(LookupError):
        core.percent_decode("%41", encoding="no-such-codec")


def test_percent_decode_lone_surrogates(core):
    # text is UTF-8 encoded with surrogatepass, so reading it back needs it too
    with pytest.raises(UnicodeDecodeError):
        core.percent_decode("\ud800")
    assert core.percent_decode("\ud800%41", errors="surrogatepass") == "\ud800A"
    assert core.percent_decode("%ED%A0%80", errors="surrogatepass") == "\ud800"


@pytest.mark.parametrize(
    ("data", "want"),
    [
        ("%C0%AF%ff", b"\xc0\xaf\xff"),
        ("a%20b", b"a b"),
        ("é%41", b"\xc3\xa9A"),
        ("\ud800", b"\xed\xa0\x80"),
        ("%zz%4", b"%zz%4"),
        ("", b""),
        (b"%C0%AF%ff", b"\xc0\xaf\xff"),
        (b"\xff%41\x00", b"\xffA\x00"),
        (b"%%41%4", b"%A%4"),
        (b"", b""),
    ],
)
def test_percent_decode_bytes(core, data, want):
    result = core.percent_decode_bytes(data)
    assert type(result) is bytes
    assert result == want


def test_percent_decode_bytes_of_a_bytes_subclass(core):
    class Data(bytes):
        pass

    result = core.percent_decode_bytes(Data(b"abc"))
    assert type(result) is bytes and result == b"abc"


@pytest.mark.parametrize(
    "text", ["", "a b", "100% sure", "é/ü?€#\U0001f600", "%41 is A", "\x00\x7f", UNRESERVED]
)
def test_round_trip(core, text):
    encoded = core.percent_encode(text)
    assert core.percent_decode(encoded) == text
    assert core.percent_decode_bytes(encoded) == text.encode()
    assert all(c in UNRESERVED or c == "%" for c in encoded)


def test_type_errors(core):
    cases = [
        (lambda: core.percent_encode(b"a"), "percent_encode() argument 's' must be str, not bytes"),
        (
            lambda: core.percent_encode("a", b"/"),
            "percent_encode() argument 'safe' must be str, not bytes",
        ),
        (
            lambda: core.percent_encode("a", encoding=None),
            "percent_encode() argument 'encoding' must be str, not NoneType",
        ),
        (
            lambda: core.percent_encode("a", errors=1),
            "percent_encode() argument 'errors' must be str, not int",
        ),
        (lambda: core.percent_decode(b"a"), "percent_decode() argument 's' must be str, not bytes"),
        (
            lambda: core.percent_decode("a", encoding=b"utf-8"),
            "percent_decode() argument 'encoding' must be str, not bytes",
        ),
        (
            lambda: core.percent_decode("a", errors=None),
            "percent_decode() argument 'errors' must be str, not NoneType",
        ),
        (
            lambda: core.percent_decode_bytes(bytearray(b"a")),
            "percent_decode_bytes() argument 's' must be str or bytes, not bytearray",
        ),
        (
            lambda: core.percent_decode_bytes(None),
            "percent_decode_bytes() argument 's' must be str or bytes, not NoneType",
        ),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == message
