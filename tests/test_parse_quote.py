"""The quote family of the urllib.parse drop-in: quote, quote_plus,
quote_from_bytes, unquote, unquote_plus, unquote_to_bytes, urlencode,
parse_qs and parse_qsl.

Written cases run on both twins (the compiled ``fasturi._quote_c`` and the
running interpreter's ``urllib.parse``, the reference); where a case's answer
differs between Python versions the expectation says which.  The parity tests
feed both the same arguments and require the same result, result type,
exception type, message and warnings.
"""

from __future__ import annotations

import importlib
import sys
import urllib.parse as std

import pytest
from hypothesis import given
from hypothesis import strategies as st
from outcomes import outcome

PY = sys.version_info[:2]
NAMES = [
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
    "parse_qs",
    "parse_qsl",
]


@pytest.fixture(scope="module")
def up(impl):
    """The quote family: compiled twin, or the stdlib it must equal."""
    if impl == "compiled":
        return importlib.import_module("fasturi._quote_c")
    return std


def compiled():
    return importlib.import_module("fasturi._quote_c")


def same(name, *args, **kwargs):
    want = outcome(getattr(std, name), *args, **kwargs)
    got = outcome(getattr(compiled(), name), *args, **kwargs)
    assert got == want, (name, args, kwargs)
    return want


def same_fresh(name, build):
    """Like same(), for arguments a call consumes (iterators): built per side."""
    want = outcome(getattr(std, name), *build())
    got = outcome(getattr(compiled(), name), *build())
    assert got == want, name


# ------------------------------------------------------------------ module


@pytest.mark.parity
def test_exports_the_nine_functions_with_stdlib_signatures():
    import inspect

    import fasturi.parse

    mod = compiled()
    assert sorted(mod.__all__) == sorted(NAMES)
    for name in NAMES:
        # what fasturi.parse binds: parse_qsl_kw where the stdlib's parse_qsl
        # has 3.14's keyword-only _stacklevel
        ours = inspect.signature(getattr(fasturi.parse, name))
        theirs = inspect.signature(getattr(std, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        for p, q in zip(ours.parameters.values(), theirs.parameters.values()):
            assert p.kind == q.kind, (name, p.name)
            if p.name == "quote_via":
                assert p.default is mod.quote_plus
            else:
                assert p.default == q.default, (name, p.name)


# ------------------------------------------------------------------- quote

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~"


def test_quote_keeps_unreserved_and_escapes_every_other_ascii(up):
    # RFC 3986 §2.3: unreserved characters are never encoded.
    assert up.quote(UNRESERVED) == UNRESERVED
    assert up.quote_plus(UNRESERVED) == UNRESERVED
    for c in map(chr, range(128)):
        if c in UNRESERVED or c == "/":
            continue
        assert up.quote(c) == f"%{ord(c):02X}"
    assert up.quote("/") == "/"
    assert up.quote("/", safe="") == "%2F"


def test_quote_of_text_it_keeps_is_that_text_for_every_char_length_and_place(up):
    # quote(text) with one argument is answered ahead of the argument
    # parsing, by a test of 16 characters at a time whose loads depend on
    # the length: each Latin-1 character at every place of texts of 1 to 40
    # characters, and at the edges of the longer forms, is kept or escaped
    # as the stdlib does.
    for n in (*range(1, 41), 63, 64, 65, 80, 81):
        base = "a" * n
        assert up.quote(base) is base or up is std
        for i in range(n):
            for c in map(chr, range(256)):
                text = base[:i] + c + base[i + 1 :]
                want = std.quote(text)
                got = up.quote(text)
                assert got == want, (n, i, c)
                if want == text and up is not std:
                    assert got is text  # (the compiled twin hands back the text itself)


# Where the kept set's ranges begin and end, and what lies next to them.
KEEPS_EDGES = "\x00 !%*,-./09:@AZ[^_`az{}~\x7f\x80\xff"


@pytest.mark.compiled
@pytest.mark.parametrize("headed", [True, False], ids=["headed", "in-bounds"])
def test_quote_fast_test_is_exact_at_every_length_and_place(headed):
    # The test in front of quote() answers "quote(text) is text" with loads
    # that end at the text's end (reading the str's header before short
    # texts where headed), and with forms for up to 32, up to 64 and longer
    # texts: it says so exactly when the stdlib keeps the text, for texts of
    # 0 to 100 characters with each edge character at every place.
    from fasturi import _quote_c

    for n in range(101):
        base = "a" * n
        assert _quote_c._keeps(base, headed) is True
        for i in range(n):
            for c in KEEPS_EDGES:
                text = base[:i] + c + base[i + 1 :]
                assert _quote_c._keeps(text, headed) is (std.quote(text) == text), (n, i, c)


def test_quote_from_bytes_every_byte(up):
    # Bytes >= 0x80 are escaped even when `safe` names them.
    for b in range(256):
        want = chr(b) if chr(b) in UNRESERVED else f"%{b:02X}"
        assert up.quote_from_bytes(bytes([b]), safe="") == want
        assert up.quote_from_bytes(bytes([b]), safe=bytes([b])) == (
            chr(b) if b < 128 else f"%{b:02X}"
        )


@pytest.mark.parametrize(
    ("args", "kwargs", "want"),
    [
        (("abc def",), {}, "abc%20def"),
        (("a/b c?d",), {}, "a/b%20c%3Fd"),
        (("a/b",), {"safe": ""}, "a%2Fb"),
        (("<>",), {"safe": "<>"}, "<>"),
        (("<>",), {"safe": b"<>"}, "<>"),
        (("a:b",), {"safe": "é:"}, "a:b"),  # non-ASCII in safe is ignored
        (("é",), {"safe": "é"}, "%C3%A9"),
        (("\u6f22\u5b57",), {}, "%E6%BC%A2%E5%AD%97"),
        (("\U0001f600",), {}, "%F0%9F%98%80"),
        (("\xff",), {"encoding": "latin-1"}, "%FF"),
        (("\u6f22",), {"encoding": "latin-1", "errors": "replace"}, "%3F"),
        (("\u6f22",), {"encoding": "latin-1", "errors": "xmlcharrefreplace"}, "%26%2328450%3B"),
        (("\ud800",), {"errors": "surrogatepass"}, "%ED%A0%80"),
        (("a\x00b",), {}, "a%00b"),
        ((b"a b\xff/",), {}, "a%20b%FF/"),
        ((bytearray(b"a b"),), {}, "a%20b"),
        ((b"a/b",), {"safe": "é/"}, "a/b"),
    ],
)
def test_quote(up, args, kwargs, want):
    assert up.quote(*args, **kwargs) == want


def test_quote_empty_str_is_returned_as_is(up):
    s = ""
    assert up.quote(s) is s
    assert up.quote(b"") == ""


def test_quote_rejects_encoding_for_bytes(up):
    with pytest.raises(TypeError, match=r"quote\(\) doesn't support 'encoding' for bytes"):
        up.quote(b"foo", encoding="utf-8")
    with pytest.raises(TypeError, match=r"quote\(\) doesn't support 'errors' for bytes"):
        up.quote(b"foo", errors="strict")


def test_quote_surrogate_raises_the_codec_error(up):
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        up.quote("a\udc80b")
    with pytest.raises(UnicodeEncodeError, match="ordinal not in range"):
        up.quote("\u6f22", encoding="ascii")


@pytest.mark.parametrize(
    ("args", "want"),
    [
        (("a b+c",), "a+b%2Bc"),
        (("a b+c", "+"), "a+b+c"),
        (("a b", " "), "a+b"),
        (("a&b=c d/",), "a%26b%3Dc+d%2F"),
        (("\u6f22 x",), "%E6%BC%A2+x"),
        ((b"a b+",), "a+b%2B"),
        ((b"a b", b"+"), "a+b"),
        ((bytearray(b"a b"),), "a+b"),
        (("",), ""),
        ((b"",), ""),
    ],
)
def test_quote_plus(up, args, want):
    assert up.quote_plus(*args) == want


def test_quote_plus_unusable_safe(up):
    # With a space to keep, safe + ' ' is computed first.
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+"):
        up.quote_plus("a b", safe=None)
    with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
        up.quote_plus("ab", safe=None)


def test_quote_from_bytes(up):
    with pytest.raises(TypeError, match=r"quote_from_bytes\(\) expected bytes"):
        up.quote_from_bytes("foo")
    assert up.quote_from_bytes(b"archaeological arcana") == "archaeological%20arcana"
    assert up.quote_from_bytes(b"") == ""
    assert up.quote_from_bytes(b"A" * 10_000) == "A" * 10_000
    # Past 200,000 bytes the stdlib (3.12+) quotes in chunks: same text.
    assert up.quote_from_bytes(b"z\x01/ " * 60_000) == "z%01/%20" * 60_000
    assert up.quote_from_bytes(b"a/b", safe=[47]) == "a/b"
    assert up.quote_from_bytes(b"a/b", safe=[300, 47]) == "a/b"
    assert up.quote_from_bytes(b"a/b", safe=iter(b"/")) == "a/b"
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        up.quote_from_bytes(b"a/b", safe=[47.0])


# ----------------------------------------------------------------- unquote


def test_unquote_every_ascii_escape(up):
    for n in range(128):
        for esc in (f"%{n:02X}", f"%{n:02x}"):
            assert up.unquote(esc) == chr(n)
            assert up.unquote_plus(esc) == chr(n)
            assert up.unquote_to_bytes(esc) == bytes([n])
    escaped = "".join(f"%{n:02X}" for n in range(128))
    assert up.unquote(escaped) == "".join(map(chr, range(128)))


@pytest.mark.parametrize(
    ("given", "kwargs", "want"),
    [
        ("%xab", {}, "%xab"),
        ("%x", {}, "%x"),
        ("%", {}, "%"),
        ("%%41", {}, "%A"),
        ("%4", {}, "%4"),
        ("%4G%41", {}, "%4GA"),
        ("%Ab%aB%ab%AB", {}, "\ufffd" * 4),
        ("br%C3%BCckner", {}, "br\xfcckner"),
        ("br%C3%BCckner", {"encoding": None, "errors": None}, "br\xfcckner"),
        ("br%FCckner", {"encoding": "latin-1"}, "br\xfcckner"),
        ("%E6%BC%A2%E5%AD%97", {}, "\u6f22\u5b57"),
        ("%F3%B1", {}, "\ufffd"),
        ("%F3%B1", {"errors": "ignore"}, ""),
        ("%F3%B1", {"errors": "backslashreplace"}, "\\xf3\\xb1"),
        ("%ED%A0%80", {"errors": "surrogatepass"}, "\ud800"),
        ("%FF", {"errors": "surrogateescape"}, "\udcff"),
        ("\u6f22%C3%BC", {}, "\u6f22\xfc"),
        ("\u6f22%FC", {"encoding": "latin-1"}, "\u6f22\xfc"),
        # A non-ASCII character splits the escapes into separately decoded runs.
        ("%C3\xe9%A9", {}, "\ufffd\xe9\ufffd"),
        ("%C3a%A9", {}, "\ufffda\ufffd"),
        ("a+b", {}, "a+b"),
        ("%2B", {}, "+"),
        (b"blueberryjam", {}, "blueberryjam"),
        (b"bl\xc3\xa5b", {}, "bl\xe5b"),
        (b"bl%c3%a5b", {}, "bl\xe5b"),
        (b"%E9", {"encoding": "latin-1"}, "\xe9"),
    ],
)
def test_unquote(up, given, kwargs, want):
    assert up.unquote(given, **kwargs) == want


def test_unquote_strict_error(up):
    with pytest.raises(UnicodeDecodeError, match="can't decode byte 0xff in position 1"):
        up.unquote("a%FFb", errors="strict")


def test_unquote_without_percent_returns_its_argument(up):
    s = "no escapes+here"
    assert up.unquote(s) is s
    t = "no_plus"
    assert up.unquote_plus(t) is t


def test_unquote_of_one_text_every_char_and_place(up):
    # unquote(text) with one argument is answered ahead of the argument
    # parsing: each Latin-1 character, and escapes whole, cut short, not
    # UTF-8 or of a surrogate, at every place of short texts, and text
    # beyond Latin-1, decode as the stdlib's; text without '%' is itself.
    pieces = [chr(c) for c in range(256)]
    pieces += ["%41", "%4", "%", "%E9", "%C3%A9", "%ED%A0%80", "\u6f22", "\ud800", "%%41"]
    for n in range(1, 6):
        for i in range(n):
            for c in pieces:
                text = "a" * i + c + "b" * (n - i - 1)
                got, want = up.unquote(text), std.unquote(text)
                assert got == want, text
                if "%" not in text:
                    assert got is text


def test_unquote_decodes_only_with_an_escape(up):
    # The encoding is looked up only once there is something to decode.
    assert up.unquote("abc", encoding="no-such-codec") == "abc"
    with pytest.raises(LookupError, match="unknown encoding: no-such-codec"):
        up.unquote("a%41", encoding="no-such-codec")


@pytest.mark.parametrize("bad", [None, (), 5])
def test_unquote_rejects_non_strings(up, bad):
    with pytest.raises((TypeError, AttributeError)):
        up.unquote(bad)
    with pytest.raises((TypeError, AttributeError)):
        up.unquote_to_bytes(bad)


@pytest.mark.parametrize(
    ("given", "want"),
    [
        ("%7e/abc+def", "~/abc def"),
        ("a+b%2B+", "a b+ "),
        ("+", " "),
        ("%20+%20", "   "),
        ("\xe9+%C3%A9", "\xe9 \xe9"),
    ],
)
def test_unquote_plus(up, given, want):
    assert up.unquote_plus(given) == want


def test_unquote_plus_rejects_bytes(up):
    with pytest.raises(TypeError, match="a bytes-like object is required, not 'str'"):
        up.unquote_plus(b"a+b")


@pytest.mark.parametrize(
    ("given", "want"),
    [
        ("abc%20def", b"abc def"),
        ("", b""),
        (b"", b""),
        ("br%C3%BCckner", b"br\xc3\xbcckner"),
        ("\u6f22%C3%BC", b"\xe6\xbc\xa2\xc3\xbc"),
        (b"%A2%D8ab%FF", b"\xa2\xd8ab\xff"),
        (b"%A2\xd8ab%FF", b"\xa2\xd8ab\xff"),
        ("%xab", b"%xab"),
        ("%", b"%"),
        (b"a+b", b"a+b"),
    ],
)
def test_unquote_to_bytes(up, given, want):
    got = up.unquote_to_bytes(given)
    assert type(got) is bytes
    assert got == want


def test_unquote_to_bytes_surrogate(up):
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        up.unquote_to_bytes("a\ud800%41")


def test_unquote_to_bytes_bytearray_by_version(up):
    given = bytearray(b"abc")
    got = up.unquote_to_bytes(given)
    if PY >= (3, 12):
        assert type(got) is bytes and got == b"abc"
    else:
        assert got is given
    with pytest.raises(TypeError, match="unhashable type: 'bytearray'"):
        up.unquote_to_bytes(bytearray(b"a%20"))


# ------------------------------------------------------------ query strings

QSL_CASES = [
    ("", []),
    ("&", []),
    ("&&", []),
    ("=", [("", "")]),
    ("=a", [("", "a")]),
    ("a", [("a", "")]),
    ("a=", [("a", "")]),
    ("a=b=c", [("a", "b=c")]),
    ("a%3Db=c", [("a=b", "c")]),
    ("a=b&c=d", [("a", "b"), ("c", "d")]),
    ("a=b%26c=d", [("a", "b&c=d")]),
    ("&a=b", [("a", "b")]),
    ("a=a+b&b=b+c", [("a", "a b"), ("b", "b c")]),
    ("a=1&a=2", [("a", "1"), ("a", "2")]),
    (";a=b", [(";a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b;b=b c")]),
    ("a%2Bb=c%2B+d", [("a+b", "c+ d")]),
    ("\u0141=\xe9", [("\u0141", "\xe9")]),
    ("%C5%81=%C3%A9", [("\u0141", "\xe9")]),
    ("%81=%A9", [("\ufffd", "\ufffd")]),
    ("\u0141+x=%C3%A9+\U0001f600", [("\u0141 x", "\xe9 \U0001f600")]),
    (b"", []),
    (b"&", []),
    (b"=", [(b"", b"")]),
    (b"a", [(b"a", b"")]),
    (b"a=b=c", [(b"a", b"b=c")]),
    (b"a%3Db=c", [(b"a=b", b"c")]),
    (b"a=b&c=d", [(b"a", b"b"), (b"c", b"d")]),
    (b"a=a+b&b=b+c", [(b"a", b"a b"), (b"b", b"b c")]),
    (b";a=b", [(b";a", b"b")]),
]


@pytest.mark.parametrize(("qs", "want"), QSL_CASES)
def test_parse_qsl_keep_blank(up, qs, want):
    assert up.parse_qsl(qs, keep_blank_values=True) == want
    dropped = [(k, v) for k, v in want if v]
    assert up.parse_qsl(qs) == dropped


@pytest.mark.parametrize(("qs", "want"), QSL_CASES)
def test_parse_qs_keep_blank(up, qs, want):
    expect: dict = {}
    for k, v in want:
        expect.setdefault(k, []).append(v)
    assert up.parse_qs(qs, keep_blank_values=True) == expect


@pytest.mark.parametrize(
    ("qs", "want"),
    [
        (";", []),
        (";;", []),
        (";a=b", [("a", "b")]),
        ("a=a+b;b=b+c", [("a", "a b"), ("b", "b c")]),
        ("a=1;a=2&b", [("a", "1"), ("a", "2&b")]),
        (b";a=b", [(b"a", b"b")]),
        (b"a=1;a=2", [(b"a", b"1"), (b"a", b"2")]),
    ],
)
@pytest.mark.parametrize("sep", [";", b";"])
def test_parse_qsl_separator(up, qs, want, sep):
    assert up.parse_qsl(qs, separator=sep) == want


def test_parse_qsl_long_separator(up):
    assert up.parse_qsl("a=1&&b=2&c=3", separator="&&") == [("a", "1"), ("b", "2&c=3")]
    assert up.parse_qsl("a=1", separator="=") == []
    assert up.parse_qsl("a=1", separator="=", keep_blank_values=True) == [("a", ""), ("1", "")]


@pytest.mark.parametrize("sep", ["&", ";", "=", "%", "+", "\xe9"])
def test_parse_qsl_fields_every_length_and_place(up, sep):
    # A query's fields are scanned 16 code units at a time and the rest one
    # at a time: the separator, '=', '%', '+' and a code unit beyond ASCII,
    # at every place of a field of 1 to 40 characters (so on both sides of
    # the block edges), in its name and in its value, with a field before
    # and after it, split as the stdlib splits them.
    marks = ("=", "&", ";", "%", "%41", "+", "\x80", "\xe9")
    for n in range(1, 41):
        for i in range(n):
            for c in marks:
                rest = "v" * (n - i - 1)
                fields = ("k" * i + c + rest, "k" * i + c + "=" + rest, "k" * i + "=" + c + rest)
                for field in fields:
                    for qs in (field, f"{field}{sep}x=y%41", f"a=b{sep}{field}"):
                        for blank in (False, True):
                            want = std.parse_qsl(qs, keep_blank_values=blank, separator=sep)
                            got = up.parse_qsl(qs, keep_blank_values=blank, separator=sep)
                            assert got == want, (qs, blank)


@pytest.mark.parametrize("sep", ["", b"", None, 0])
def test_parse_qsl_rejects_empty_separator(up, sep):
    with pytest.raises(ValueError, match="Separator must be of type string or bytes."):
        up.parse_qsl("a=b", separator=sep)


def test_parse_qsl_encoding(up):
    assert up.parse_qsl("key=\u0141%E9", encoding="latin-1") == [("key", "\u0141\xe9")]
    assert up.parse_qsl("key=\u0141%C3%A9", encoding="utf-8") == [("key", "\u0141\xe9")]
    assert up.parse_qsl("key=\u0141%C3%A9", encoding="ascii") == [("key", "\u0141\ufffd\ufffd")]
    assert up.parse_qsl("key=\u0141%E9-", encoding="ascii") == [("key", "\u0141\ufffd-")]
    assert up.parse_qsl("key=\u0141%E9-", encoding="ascii", errors="ignore") == [("key", "\u0141-")]
    assert up.parse_qs("k=%E9&k=x", encoding="latin-1") == {"k": ["\xe9", "x"]}
    # Fields without an escape are never decoded, so the codec is not needed.
    assert up.parse_qsl("a=b", encoding="no-such-codec") == [("a", "b")]


def test_parse_qsl_strict(up):
    with pytest.raises(ValueError, match="bad query field: 'b'"):
        up.parse_qsl("a=1&b", strict_parsing=True)
    with pytest.raises(ValueError, match="bad query field: ''"):
        up.parse_qsl("a=1&&b=2", strict_parsing=True)
    assert up.parse_qsl("a=1&b=", strict_parsing=True, keep_blank_values=True) == [
        ("a", "1"),
        ("b", ""),
    ]


def test_parse_qsl_max_num_fields(up):
    with pytest.raises(ValueError, match="Max number of fields exceeded"):
        up.parse_qsl("&".join(["a=a"] * 11), max_num_fields=10)
    assert len(up.parse_qsl("&".join(["a=a"] * 10), max_num_fields=10)) == 10
    # Fields are counted before blanks are dropped.
    with pytest.raises(ValueError, match="Max number of fields exceeded"):
        up.parse_qsl("a=1&&&", max_num_fields=3)


def test_parse_qsl_empty_query_by_version(up):
    # 3.11 returns early for an empty query; 3.9 and 3.10 parse one empty field.
    if PY >= (3, 11):
        assert up.parse_qsl("", strict_parsing=True) == []
        assert up.parse_qsl("", max_num_fields=0) == []
    else:
        with pytest.raises(ValueError, match="bad query field: ''"):
            up.parse_qsl("", strict_parsing=True)
        with pytest.raises(ValueError, match="Max number of fields exceeded"):
            up.parse_qsl("", max_num_fields=0)


def test_parse_qsl_bytes_by_version(up):
    # 3.13 keeps bytes as bytes; earlier versions go through ASCII str.
    if PY >= (3, 13):
        assert up.parse_qsl(b"a=%C3%A9") == [(b"a", b"\xc3\xa9")]
        assert up.parse_qsl(b"\xc5\x81=\xc3\xa9") == [(b"\xc5\x81", b"\xc3\xa9")]
        assert up.parse_qsl(b"a=a%E2%80%99b") == [(b"a", b"a\xe2\x80\x99b")]
        assert up.parse_qsl(bytearray(b"a=b")) == [(b"a", b"b")]
        assert up.parse_qsl(memoryview(b"a=b")) == [(b"a", b"b")]
        with pytest.raises(ValueError, match="bad query field: b'x'"):
            up.parse_qsl(b"x", strict_parsing=True)
        with pytest.raises(UnicodeEncodeError):
            up.parse_qsl(b"a=b", separator="\xa6")
        for sep in (1, 1.5, bytearray(b"&")):
            with pytest.raises(ValueError, match="Separator must be of type string or bytes."):
                up.parse_qsl("a=b", separator=sep)
    else:
        with pytest.raises(UnicodeEncodeError, match="'ascii' codec can't encode"):
            up.parse_qsl(b"a=%C3%A9")
        with pytest.raises(UnicodeDecodeError, match="'ascii' codec can't decode"):
            up.parse_qsl(b"a=\xc3")
        with pytest.raises(ValueError, match="bad query field: 'x'"):
            up.parse_qsl(b"x", strict_parsing=True)
        assert up.parse_qsl("a=b", separator=bytearray(b"&")) == [("a", "b")]
        with pytest.raises(AttributeError, match="'int' object has no attribute 'decode'"):
            up.parse_qsl("a=b", separator=1)
    with pytest.raises(UnicodeDecodeError):
        up.parse_qsl("a=b", separator=b"\xa6")


@pytest.mark.parametrize("false", ["", b"", None, 0, [], {}])
def test_parse_qsl_false_query(up, false):
    # [] for every false query; 3.14+ warn that false objects other than
    # str, bytes and None are deprecated, and so must the drop-in
    got = outcome(up.parse_qsl, false, keep_blank_values=True)
    assert got == outcome(std.parse_qsl, false, keep_blank_values=True)
    assert got[:2] == ("return", (list, ()))


# --------------------------------------------------------------- urlencode


class Trivial:
    def __str__(self):
        return "trivial"


@pytest.mark.parametrize(
    ("args", "kwargs", "want"),
    [
        (({"1st": "1", "2nd": "2", "3rd": "3"},), {}, "1st=1&2nd=2&3rd=3"),
        (([("1st", "1"), ("2nd", "2")],), {}, "1st=1&2nd=2"),
        (((("1st", "1"),),), {}, "1st=1"),
        (({"&": "=", "a b": "c+d"},), {}, "%26=%3D&a+b=c%2Bd"),
        (({"a": [1, 2], "b": (3, 4, 5)}, True), {}, "a=1&a=2&b=3&b=4&b=5"),
        (({"a": [1, 2]},), {}, "a=%5B1%2C+2%5D"),
        (({"a": [], "b": "x"}, True), {}, "b=x"),
        (({"a": Trivial()}, True), {}, "a=trivial"),
        (({"a": None, "b": 1.5, 3: True},), {}, "a=None&b=1.5&3=True"),
        (({b"k": b"v v", "s": bytearray(b"x")},), {}, "k=v+v&s=bytearray%28b%27x%27%29"),
        (({"a": [b"x y", "z"]}, True), {}, "a=x+y&a=z"),
        (({"a": "some value"},), {}, "a=some+value"),
        (({"a": "some value/another"},), {"quote_via": std.quote}, "a=some%20value%2Fanother"),
        (({"a": "v/x"},), {"safe": "/", "quote_via": std.quote}, "a=v/x"),
        (({"\u0141": "\xe9"},), {}, "%C5%81=%C3%A9"),
        (({"\u0141": "\xe9"},), {"encoding": "latin-1", "errors": "replace"}, "%3F=%E9"),
        (([],), {}, ""),
        (({},), {}, ""),
    ],
)
def test_urlencode(up, args, kwargs, want):
    assert up.urlencode(*args, **kwargs) == want


def test_urlencode_custom_quote_via(up):
    def angle(s, safe="", encoding=None, errors=None):
        return f"<{s}>"

    assert up.urlencode({"a": "b", b"c": 1}, quote_via=angle) == "<a>=<b>&<b'c'>=<1>"


def test_urlencode_rejects_non_mappings(up):
    for bad in ("abc", [1, 2], 5, {1, 2}):
        with pytest.raises(
            TypeError, match="not a valid non-string sequence or mapping object"
        ) as info:
            up.urlencode(bad)
        if PY >= (3, 11):
            assert type(info.value.__cause__) is TypeError
        else:
            assert info.value.__cause__ is None
            assert type(info.value.__context__) is TypeError


def test_urlencode_item_shapes(up):
    # the interpreter's own unpacking message (3.14 adds ", got 3")
    with pytest.raises(ValueError, match=r"too many values to unpack \(expected 2"):
        up.urlencode([(1, 2, 3)])
    for items in ([(1, 2, 3)], [(1,)], [("a", "b"), 5]):
        assert outcome(up.urlencode, items) == outcome(std.urlencode, items), items
    with pytest.raises(ValueError, match=r"not enough values to unpack \(expected 2, got 1\)"):
        up.urlencode([(1,)])
    with pytest.raises(TypeError, match="cannot unpack non-iterable int object"):
        up.urlencode([("a", "b"), 5])
    assert up.urlencode([("a", "b"), ["c", "d"]]) == "a=b&c=d"


def test_urlencode_surrogate(up):
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        up.urlencode({"a": "\ud800"})
    assert up.urlencode({"a": "\ud800"}, errors="surrogatepass") == "a=%ED%A0%80"


# ------------------------------------------------------------------ parity

HEX = "0123456789abcdefABCDEF"
ATOMS = [
    "%",
    "+",
    "&",
    ";",
    "=",
    " ",
    "/",
    "?",
    "#",
    "~",
    ":",
    "@",
    "a",
    "Z",
    "0",
    "\xe9",
    "\u20ac",
    "\U0001f600",
    "\ud800",
    "\udfff",
    "\x00",
    "\x7f",
    "\x80",
    "\xff",
    "%2",
    "%G1",
    "%%",
    "%zz",
    "%2B",
    "%20",
    "%26",
    "%3D",
    "%C3",
    "%A9",
]
any_char = st.characters(exclude_categories=())
escape = st.tuples(st.sampled_from(HEX), st.sampled_from(HEX)).map(lambda t: "%" + t[0] + t[1])
utf8_escape = any_char.filter(lambda c: not 0xD800 <= ord(c) <= 0xDFFF).map(
    lambda c: "".join(f"%{b:02X}" for b in c.encode("utf-8"))
)
token = st.one_of(st.sampled_from(ATOMS), escape, utf8_escape, any_char)
texts = st.one_of(st.lists(token, max_size=24).map("".join), st.text(any_char, max_size=12))
blobs = st.one_of(
    st.lists(token, max_size=24).map(lambda s: "".join(s).encode("utf-8", "surrogatepass")),
    st.binary(max_size=16),
)
safes = st.one_of(
    st.sampled_from(["", "/", ":/?#[]@", "+", " ", "%", "\xe9/", "~", "&=", b"/", b"+ ", b"\xff/"]),
    st.text(st.sampled_from("/+ &=%:;\xe9\ud800az"), max_size=4),
    st.binary(max_size=4),
)
encodings = st.sampled_from(
    [None, "utf-8", "utf8", "UTF-8", "latin-1", "ascii", "utf-16", "cp1252", "no-such-codec"]
)
errors_ = st.sampled_from(
    [
        None,
        "strict",
        "replace",
        "ignore",
        "surrogateescape",
        "backslashreplace",
        "surrogatepass",
        "xmlcharrefreplace",
        "no-such-handler",
    ]
)


class S(str):
    """A str subclass: the stdlib keeps it where it returns its argument."""


class B(bytes):
    pass


ODD = [
    None,
    0,
    1,
    1.5,
    [],
    [47],
    (),
    b"",
    bytearray(b"a%20+b"),
    bytearray(),
    memoryview(b"a%20"),
    S(""),
    S("a b%20+"),
    B(b"a b%20+"),
    B(b""),
    object(),
]


@pytest.mark.parity
@given(texts, safes, encodings, errors_)
def test_quote_str_parity(s, safe, encoding, errors):
    same("quote", s, safe, encoding, errors)
    same("quote_plus", s, safe, encoding, errors)
    same("quote", s)
    same("quote_plus", s)


@pytest.mark.parity
@given(blobs, safes)
def test_quote_bytes_parity(b, safe):
    same("quote", b, safe)
    same("quote_plus", b, safe)
    same("quote_from_bytes", b, safe)
    same("quote_from_bytes", bytearray(b), safe)
    same("quote_plus", bytearray(b), safe)
    same("quote", b, safe, "utf-8")


@pytest.mark.parity
@given(texts, encodings, errors_)
def test_unquote_str_parity(s, encoding, errors):
    same("unquote", s, encoding, errors)
    same("unquote_plus", s, encoding, errors)
    same("unquote", s)
    same("unquote_plus", s)
    same("unquote_to_bytes", s)


@pytest.mark.parity
@given(blobs, encodings, errors_)
def test_unquote_bytes_parity(b, encoding, errors):
    same("unquote", b, encoding, errors)
    same("unquote", b)
    same("unquote_to_bytes", b)
    same("unquote_to_bytes", bytearray(b))


qs_texts = st.lists(
    st.one_of(texts, st.sampled_from(["a=b", "=", "&", ";", "&&", "a", "+=+", "%3D=%26"])),
    max_size=6,
).map("&".join)
separators = st.sampled_from(
    ["&", ";", "&&", "=", "+", "%", "\xe9", "\u20ac", b"&", b";", b"&&", b"\xa6"]
)
flags = st.sampled_from([False, True, 0, 1])
max_fields = st.one_of(st.none(), st.integers(-1, 8))


@pytest.mark.parity
@given(
    st.one_of(qs_texts, qs_texts.map(lambda s: s.encode("utf-8", "surrogatepass")), blobs),
    flags,
    flags,
    encodings,
    errors_,
    max_fields,
    separators,
)
def test_parse_qsl_parity(qs, keep, strict, encoding, errors, max_num_fields, separator):
    for name in ("parse_qsl", "parse_qs"):
        same(name, qs, keep, strict, encoding, errors, max_num_fields, separator)
        same(name, qs, keep_blank_values=keep, separator=separator)
    same("parse_qsl", qs)


keys = st.one_of(texts, blobs, st.integers(), st.none(), st.booleans(), st.floats(allow_nan=False))
scalars = st.one_of(keys, blobs.map(bytearray))
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.tuples(scalars, scalars))
pairs = st.lists(st.tuples(keys, values), max_size=5)


def brackets(s, safe="", encoding=None, errors=None):
    return f"[{s}|{safe}|{encoding}|{errors}]"


quote_vias = st.sampled_from(["default", std.quote, std.quote_plus, "ours-quote", brackets])


@pytest.mark.parity
@given(
    st.one_of(pairs, pairs.map(lambda p: dict(p))),
    st.booleans(),
    safes,
    encodings,
    errors_,
    quote_vias,
)
def test_urlencode_parity(query, doseq, safe, encoding, errors, via):
    if via == "default":
        same("urlencode", query, doseq, safe, encoding, errors)
        return
    if via == "ours-quote":
        # Each side with its own quote function.
        want = outcome(std.urlencode, query, doseq, safe, encoding, errors, std.quote)
        got = outcome(compiled().urlencode, query, doseq, safe, encoding, errors, compiled().quote)
        assert got == want
        return
    same("urlencode", query, doseq, safe, encoding, errors, via)


@pytest.mark.parity
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_odd_arguments_parity(odd):
    for name in NAMES:
        same(name, odd)
    for name in ("quote", "quote_plus", "quote_from_bytes"):
        same(name, "a b/c", odd)
        same(name, b"a b/c", odd)
        same(name, "", odd)
    for name in ("quote", "quote_plus"):
        same(name, "a b", "/", odd)
        same(name, b"a b", "/", None, odd)
    for name in ("unquote", "unquote_plus"):
        same(name, "a%41", odd)
        same(name, "a%41", "utf-8", odd)
        same(name, b"a%41", odd)
    for name in ("parse_qsl", "parse_qs"):
        same(name, "a=1&b=%41", odd)
        same(name, "a=1&b", False, odd)
        same(name, "a=%41", encoding=odd)
        same(name, "a=%41", max_num_fields=odd)
        same(name, "a=1", separator=odd)
        same(name, b"a=1", separator=odd)
    same("urlencode", {"a": odd})
    same("urlencode", {"a": odd}, True)
    same("urlencode", [("k", "v")], False, odd)
    same("urlencode", [(odd, odd)])


@pytest.mark.parity
def test_exotic_objects_parity():
    class Items:
        def items(self):
            return [("a", "b")]

    class Boom:
        def __bool__(self):
            raise RuntimeError("no truth")

    class Getattr:
        def __getattr__(self, name):
            raise ValueError("no " + name)

    class Once:
        """An iterator without len(); its str() is fixed, because urlencode
        writes str() of such a value and a default repr holds an address."""

        def __init__(self, items):
            self._items = iter(items)

        def __iter__(self):
            return self

        def __next__(self):
            return next(self._items)

        def __repr__(self):
            return "Once"

    same("urlencode", Items())
    same("urlencode", Getattr())
    same("urlencode", [("a", "b")], Boom())
    same_fresh("urlencode", lambda: (iter([("a", "b")]),))
    same_fresh("urlencode", lambda: ({"a": Once(["x", "y"])}, True))
    same_fresh("quote_from_bytes", lambda: (b"a/b", iter(b"/")))
    same("urlencode", {"a": {"x": 1}}, True)
    same("urlencode", {"a": S("b c")}, True)
    same("urlencode", {S("a b"): B(b"c d")})
    same("parse_qsl", "a=1&b", Boom())
    same("parse_qsl", "a=1&b=", False, Boom())
    same("parse_qsl", S("a=1&b=2"))
    same("parse_qsl", "a=1", max_num_fields=1.5)
    same("parse_qsl", "a=1&b=2", max_num_fields=1.5)
    same("unquote", S("a%20b"))
    same("unquote", S("ab"))
    same("unquote_plus", S("a+b"))
    same("unquote_to_bytes", B(b"a%20b"))
    same("unquote_to_bytes", B(b"ab"))
    same("quote", S("a b"))
    same("quote_plus", S("a b"), S("/"))
    same("quote_from_bytes", B(b"a b"), S("/"))


@pytest.mark.parity
def test_huge_and_mixed_inputs_parity():
    for s in (
        "a%20" * 50_000,
        "\u20ac%E2%82%AC" * 20_000,
        "%" * 1000 + "\U0001f600" + "+" * 1000,
        "x" * 100_000 + "%",
        "\xe9" * 1000 + "%C3%A9=%41&" * 1000,
    ):
        for name in (
            "quote",
            "quote_plus",
            "unquote",
            "unquote_plus",
            "unquote_to_bytes",
            "parse_qsl",
        ):
            same(name, s)
        same("quote", s.encode("utf-8"))
        same("unquote", s.encode("utf-8"))
    same("urlencode", {str(i): f"v {i}\u20ac" for i in range(5000)})
