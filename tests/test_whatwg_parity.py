"""fasturi.whatwg's compiled twin against the reference: the same URL (every
getter, the type's name, hash, pickle), href and error for every WPT
input (with its base, the WPT bases and none), the corpus's URLs and
references, every ASCII character in every component, and generated hostile
strings; and the C path takes most of the corpus (it is worth having).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from corpus_files import FOLDER, lines
from hypothesis import example, given
from hypothesis import strategies as st

from fasturi._types import WHATWG_FIELDS as GETTERS
from fasturi._types import InvalidURL

pytestmark = pytest.mark.parity

with open(Path(__file__).parent / "wpt" / "urltestdata.json", encoding="utf-8") as f:
    WPT = [case for case in json.load(f) if isinstance(case, dict)]
WPT_BASES = sorted({case["base"] for case in WPT if case["base"]})


@pytest.fixture(scope="module")
def twins(twin_pair):
    return twin_pair("whatwg")


def _parse(mod, input, base=None):
    try:
        url = mod.parse(input, base)
    except InvalidURL as e:
        return ("InvalidURL", e.reason, str(e))
    # (each twin has its own URL class, as each has its own URI, both named
    # fasturi.whatwg.URL; a pickle of either loads as the running twin's)
    fields = tuple(getattr(url, name) for name in GETTERS)
    back = pickle.loads(pickle.dumps(url))
    return (_name(type(url)), hash(url), _name(type(back)), back.href == url.href) + fields


def _name(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def _others(mod, input, base=None):
    """can_parse, and resolve where there is a base."""
    if base is None:
        return (mod.can_parse(input),)
    try:
        href = mod.resolve(base, input)
    except InvalidURL as e:
        href = ("InvalidURL", e.reason, str(e))
    return (mod.can_parse(input, base), href)


def _differ(twins, inputs, base=None):
    compiled, python = twins
    return [
        (s, base)
        for s in inputs
        if _parse(compiled, s, base) != _parse(python, s, base)
        or _others(compiled, s, base) != _others(python, s, base)
    ]


def test_wpt(twins):
    compiled, python = twins
    assert [c["input"] for c in WPT if _differ(twins, [c["input"]], c["base"])] == []
    inputs = sorted({c["input"] for c in WPT})
    for base in WPT_BASES + [None]:
        assert _differ(twins, inputs, base) == []


def test_corpus_urls(twins):
    assert _differ(twins, lines(FOLDER / "urls.txt")) == []


def test_corpus_refs(twins):
    compiled, python = twins
    pairs = [line.split("\t") for line in lines(FOLDER / "refs.tsv")]
    assert [(b, r) for b, r in pairs if _differ(twins, [r], b)] == []


# Every ASCII character in each component of URLs the C path takes
# (percent-encode sets, forbidden host code points, delimiters).
TEMPLATES = [
    "http://h/a{c}b?a{c}b#a{c}b",
    "http://h{c}x/",
    "http://u{c}v:p{c}q@h/",
    "sc://h{c}x/p{c}q?a{c}b#a{c}b",
    "sc:a{c}b?a{c}b#a{c}b",
    "sc:/a{c}b/c",
    "file://h{c}x/a{c}b",
    "http://h:8{c}/",
    "{c}http://h/{c}",
    "ht{c}tp://h/",
    "http://1.2.3{c}4/",
    "http://[::1{c}]/",
    "sc://[{c}1::2]:8/",
    "http://[1:2:3:4:5:6:1.2.3{c}4]/",
    "file://local{c}host/C{c}/",
    "file:/{c}:/x/../..",
]
# IPv6 forms the C path parses and serializes itself
IPV6 = [
    "[::]",
    "[::1]",
    "[1::]",
    "[0:0:1::]",
    "[1:0:0:2:0:0:0:3]",
    "[1:0:0:2:0:0:3:4]",
    "[1:2:3:4:5:6:7:8]",
    "[1:2:3:4:5:6:7:8:9]",
    "[1:2:3:4:5:6:7]",
    "[::ffff:1.2.3.4]",
    "[::1.2.3.4]",
    "[1:2:3:4:5:6:1.2.3.4]",
    "[1:2:3:4:5:6:7:1.2.3.4]",
    "[::1.2.3]",
    "[::1.2.3.4.5]",
    "[::01.2.3.4]",
    "[::256.2.3.4]",
    "[::1:]",
    "[:1]",
    "[1:::2]",
    "[12345::]",
    "[FFFF::aBcD]",
    "[0000:0000::0001]",
    "[]",
    "[::1",
    "[::1]x",
    "[::1]:",
    "[::1]:080",
]
REFS = ["{c}", "a{c}b", "/a{c}b", "//h{c}x/", "?a{c}b", "#a{c}b", "./{c}/../a", "..{c}"]


# and some beyond ASCII: Latin-1, a no-break space, a line separator, a
# full stop that IDNA maps, a lone surrogate, an astral code point, a BOM
NON_ASCII = ["\u00e9", "\u00a0", "\u0080", "\u2028", "\uff0e", "\ud800", "\U0001f4a9", "\ufeff"]


def test_every_ascii_character(twins):
    chars = [chr(c) for c in range(128)] + NON_ASCII
    for t in TEMPLATES:
        assert _differ(twins, [t.format(c=c) for c in chars]) == [], t
    for t in REFS:
        for base in ("http://h/a/b?q#f", "sc://h/a/b", "file:///x/y"):
            assert _differ(twins, [t.format(c=c) for c in chars], base) == [], (t, base)


def test_ipv6(twins):
    for host in IPV6:
        inputs = [
            f"http://{host}/",
            f"sc://{host}/p",
            f"https://u:p@{host}:443/",
            f"file://{host}/",
        ]
        assert _differ(twins, inputs) == [], host
        assert _differ(twins, [f"//{host}/x"], "http://h/") == [], host


def test_long_runs(twins):
    """Each character at each place in long path segments and queries (the
    C path reads them 16 bytes at a time)."""
    chars = [chr(c) for c in range(128)] + NON_ASCII
    for k in range(0, 40, 3):
        for prefix in ("http://h/", "sc://h/", "sc:"):
            inputs = [
                f"{prefix}{'a' * k}{c}{'b' * 20}/{'c' * k}?{'q' * k}{c}{'r' * 20}#{'f' * k}{c}"
                for c in chars
            ]
            assert _differ(twins, inputs) == [], (k, prefix)
        refs = [f"{'a' * k}{c}{'b' * 17}/../{'c' * 20}{c}" for c in chars]
        assert _differ(twins, refs, "http://h/x/y") == [], k


def test_encode_sets(twins):
    from fasturi import _whatwg_py

    compiled, _ = twins
    ascii_ = frozenset(map(chr, range(128)))
    for name, chars in compiled._encode_sets().items():
        assert chars == getattr(_whatwg_py, name) & ascii_, name


TOKENS = [
    "a",
    "Z",
    "0",
    "1",
    "255",
    "256",
    "0x",
    "09",
    ".",
    "..",
    "/",
    "//",
    "\\",
    "?",
    "#",
    "@",
    ":",
    ":80",
    ":443",
    ":0",
    ":99999",
    "%",
    "%2e",
    "%2E",
    "%41",
    "%zz",
    " ",
    "\t",
    "\n",
    "\x00",
    "\x7f",
    "'",
    '"',
    "<",
    "^",
    "`",
    "{",
    "|",
    "[",
    "]",
    "[::1]",
    "::",
    "ffff",
    "1.2.3.4",
    "xn--",
    "xn--zca",
    "XN--a",
    "localhost",
    "C|",
    "c:",
    "\u00e9",
    "\u05d0",
    "\ud800",
    "\U0001f4a9",
    "\uff0e",
]
PREFIXES = ["", "http://", "HTTPS://", "ws:", "ftp:/", "file://", "file:", "sc://", "sc:", "blob:"]
BASES = [
    None,
    "http://example.org/foo/bar",
    "https://u:p@h:8/x?y#z",
    "http://h",
    "file:///C:/a/b",
    "file://host/a/b",
    "sc://h/p",
    "sc:opaque",
    "ws://1.2.3.4/a/",
]


@given(
    st.sampled_from(PREFIXES),
    st.lists(st.sampled_from(TOKENS), max_size=16).map("".join),
    st.sampled_from(BASES),
)
@example("http://", "a/../..", None)
@example("", "..", "http://h")
def test_hostile_strings(twins, prefix, rest, base):
    assert _differ(twins, [prefix + rest], base) == []


@given(st.text(max_size=40), st.sampled_from(BASES))
def test_any_text(twins, text, base):
    assert _differ(twins, [text, "http://" + text], base) == []


# bytes that are not UTF-8 (each ill-formed subpart is one U+FFFD), in a
# host, a path, a query; and as a base
@given(st.binary(max_size=24), st.sampled_from(BASES))
@example(b"\xed\xa0\x80\xf0\x80\xe2\x82", None)
@example(b"\xf4\x90\x80\x80\xc0\xaf\xff", "http://h/")
def test_any_bytes(twins, data, base):
    inputs = [data, b"http://" + data, b"sc://h/" + data + b"?" + data, b"https://a" + data + b"/"]
    assert _differ(twins, inputs, base) == []
    assert _differ(twins, [b"x"], data) == []


def _host(mod, input, is_opaque):
    try:
        return mod.host_parse(input, is_opaque)
    except InvalidURL as e:
        return ("InvalidURL", e.reason, str(e))


# the host parser on its own (audit's): what a URL's host state would give
# it, and what it never would (delimiters, tabs, an empty input)
HOSTS = sorted(
    {c["input"].split("://", 1)[-1].split("/", 1)[0] for c in WPT}
    | {
        t.format(c=chr(c))
        for t in ("{c}", "a{c}b", "[::{c}]", "1.2.3{c}", "%{c}1")
        for c in range(128)
    }
    | {"", "[", "[]", "%", "\ud800", "a\ud800b.example", "0x7f.1", "\u24d6.com", "a." * 200}
    # (longer in ASCII than three bytes each: the C parser's second pass)
    | {"\u3300", "a.%E3%8C%80", "\u33ff" * 20, "\u3300." * 30 + "0x7f", "\u3300." * 3 + "0x7f"}
)


def test_host_parser(twins):
    compiled, python = twins
    for opaque in (False, True):
        assert [h for h in HOSTS if _host(compiled, h, opaque) != _host(python, h, opaque)] == []


@given(st.lists(st.sampled_from(TOKENS), max_size=12).map("".join), st.booleans())
@example("\ud800.example", False)
@example("b\u00fccher" * 40, False)
def test_host_parser_generated(twins, input, is_opaque):
    compiled, python = twins
    assert _host(compiled, input, is_opaque) == _host(python, input, is_opaque)


with open(Path(__file__).parent / "wpt" / "setters_tests.json", encoding="utf-8") as f:
    SETTERS = [
        (case["href"], {setter: case["new_value"]})
        for setter, cases in json.load(f).items()
        if setter != "comment"
        for case in cases
    ]
SETTER_NAMES = sorted({name for _, changes in SETTERS for name in changes})


def _replaced(mod, href, changes):
    try:
        url = mod.parse(href).replace(**changes)
    except InvalidURL as e:
        return ("InvalidURL", e.reason, str(e))
    except TypeError as e:
        return ("TypeError", str(e))
    return tuple(getattr(url, name) for name in GETTERS)


def test_setters_wpt(twins):
    compiled, python = twins
    assert [
        (h, c) for h, c in SETTERS if _replaced(compiled, h, c) != _replaced(python, h, c)
    ] == []


@given(
    st.sampled_from(sorted({h for h, _ in SETTERS} | set(BASES) - {None})),
    st.lists(
        st.tuples(
            st.sampled_from(SETTER_NAMES),
            st.one_of(
                st.lists(st.sampled_from(TOKENS), max_size=6).map("".join),
                st.text(max_size=12),
                st.binary(max_size=8),
                st.integers(-2, 70000),
            ),
        ),
        min_size=1,
        max_size=4,
    ).map(dict),
)
def test_setters_generated(twins, href, changes):
    compiled, python = twins
    assert _replaced(compiled, href, changes) == _replaced(python, href, changes)


def test_compiled_parses_every_input_itself(twins, monkeypatch):
    """The compiled twin parses every input in C, domain to ASCII included:
    neither the reference's parser nor its host parser (nor its domain
    parser) is ever called."""
    compiled, python = twins

    def refuse(*args, **kwargs):
        raise AssertionError("the reference's parser was called")

    for name in ("basic_url_parse", "parse", "can_parse", "resolve", "_api_parse", "serialize"):
        monkeypatch.setattr(python, name, refuse)
    monkeypatch.setattr(python, "replace", refuse)
    monkeypatch.setattr(python, "host_parse", refuse)
    monkeypatch.setattr(python, "domain_parse", refuse)
    inputs = [(c["input"], c["base"]) for c in WPT]
    inputs += [(u, None) for u in lines(FOLDER / "urls.txt")]
    inputs += [tuple(line.split("\t"))[::-1] for line in lines(FOLDER / "refs.tsv")]
    inputs += [(t.format(c=c), None) for t in TEMPLATES for c in map(chr, range(128))]
    for href, changes in SETTERS:
        compiled.parse(href).replace(**changes)
    for input, base in inputs:
        try:
            compiled.parse(input, base)
        except InvalidURL:
            pass
        compiled.can_parse(input, base)
        if base is not None:
            try:
                compiled.resolve(base, input)
            except InvalidURL:
                pass
    # (hosts beyond ASCII among them: the compiled domain parser's)
    assert compiled.parse("http://b\u00fccher.example/").hostname == "xn--bcher-kva.example"
    # the host parser alone (audit's) too
    assert compiled.host_parse("B\u00fccher.example") == "xn--bcher-kva.example"
    assert compiled.host_parse("0x7f.1") == "127.0.0.1"
    assert compiled.host_parse("a%20b\u00fc", True) == "a%20b%C3%BC"
