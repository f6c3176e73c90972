"""fasturi.whatwg.domain_to_ascii and domain_to_unicode, both twins: the URL
Standard's domain parser and domain to Unicode over UTS #46 of Unicode 18.

Unicode's IdnaTestV2 of that version (its cases the idna package asserts,
tests/idna/), WPT's toascii.json and IdnaTestV2.json taken directly, the
cases whose answers moved between Unicode versions (the same answer on
every Python, whatever its unicodedata knows), Punycode against RFC 3492's
samples and Python's codec, and both twins on generated domains.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fasturi import whatwg
from fasturi._types import InvalidURL

HERE = Path(__file__).resolve().parent
SUCCESS = json.loads((HERE / "idna" / "IdnaTestV2-success.json").read_text(encoding="utf-8"))


def _wpt(name):
    cases = json.loads((HERE / "wpt" / name).read_text(encoding="utf-8"))
    return [c for c in cases if isinstance(c, dict)]


# What the host parser does beyond the domain parser: percent-decoding,
# ending the host, IPv4; WPT's cases with none of it are the domain
# parser's alone.
_HOST_ONLY = set("%/\\?#:@[]")
WPT_DOMAINS = [
    c
    for c in _wpt("toascii.json") + _wpt("IdnaTestV2.json")
    if c["input"] and not _HOST_ONLY & set(c["input"]) and "V7" not in (c.get("comment") or "")
]


@pytest.fixture
def idna(twin):
    return twin("idna")


def _ascii(idna, domain, strict=False):
    try:
        return idna.domain_to_ascii(domain, be_strict=strict)
    except InvalidURL as e:
        assert e.reason == "domain-to-ASCII"
        return None


def test_public_names():
    from fasturi import _impl

    assert whatwg.domain_to_ascii is _impl.idna.domain_to_ascii
    assert whatwg.domain_to_unicode is _impl.idna.domain_to_unicode
    assert whatwg.domain_to_ascii("EXAMPLE.com") == "example.com"
    assert whatwg.domain_to_ascii("Faß.de") == "xn--fa-hia.de"
    assert whatwg.domain_to_unicode("xn--fa-hia.de") == "faß.de"


@pytest.mark.parametrize("case", SUCCESS, ids=[f"line{c['line']}" for c in SUCCESS])
def test_idnatestv2_unicode18(idna, case):
    """ToASCII and ToUnicode without error under every flag: the URL
    Standard's flags (fewer checks) give the same; where ToASCII alone
    errs (VerifyDnsLength), be_strict fails."""
    assert idna.domain_to_unicode(case["input"]) == case["toUnicode"]
    if case["toASCII"] is None:
        assert _ascii(idna, case["input"], True) is None
        return
    assert _ascii(idna, case["input"], True) == case["toASCII"]
    assert _ascii(idna, case["input"]) == case["toASCII"]


@pytest.mark.parametrize("case", WPT_DOMAINS, ids=[ascii(c["input"])[1:50] for c in WPT_DOMAINS])
def test_wpt_domains(idna, case):
    assert _ascii(idna, case["input"]) == case["output"]
    if case["output"] is not None:
        # the standard's note: domain to Unicode and the domain parser
        # round-trip
        unicode = idna.domain_to_unicode(case["output"])
        assert _ascii(idna, unicode) == case["output"]


# Answers that a Unicode property of a version after Python 3.9's (13.0)
# decides: each is Unicode 18's on every interpreter.
VERSION_SENSITIVE = [
    # a combining mark (new in 15.0) may not begin a label
    ("\U00011f00a.example", None, "\U00011f00a.example"),
    ("a\U00011f00.example", "xn--a-e03j.example", "a\U00011f00.example"),
    # NFC composes pairs given canonical decompositions in 16.0
    ("\U000105d2\u0307.example", "xn--ev8c.example", "\U000105c9.example"),
    ("\U000105c9.example", "xn--ev8c.example", "\U000105c9.example"),
    ("\U00011382\U000113c9.example", "xn--sq1d.example", "\U00011383.example"),
    # a Balinese vowel sign is L since 16.0: not in a right-to-left label
    ("\u05d0\u1b3a.example", None, "\u05d0\u1b3a.example"),
    # a Garay letter (16.0) is R: the domain is a Bidi domain name, and
    # "0a" breaks RFC 5893's rule 1
    ("0a.\U00010d50", None, "0a.\U00010d50"),
    ("\U00010d50.example", "xn--dh0d.example", "\U00010d70.example"),
    # a Hebrew point new since 14.0 is NSM in a right-to-left label
    ("\u05d0\u05c8.example", "xn--wdbp.example", "\u05d0\u05c8.example"),
    # a small seal character, assigned in 18.0
    ("\U0003e8ac.example", "xn--t92s.example", "\U0003e8ac.example"),
]


@pytest.mark.parametrize(("domain", "want", "unicode"), VERSION_SENSITIVE)
def test_same_answer_on_every_python(idna, domain, want, unicode):
    assert _ascii(idna, domain) == want
    assert idna.domain_to_unicode(domain) == unicode


@pytest.mark.parametrize(("domain", "want", "unicode"), VERSION_SENSITIVE)
def test_same_host_on_every_python(domain, want, unicode):
    # the example: http://\U00011F00a.example/ fails everywhere
    url = "http://" + domain + "/"
    if want is None:
        assert not whatwg.can_parse(url)
    else:
        assert whatwg.parse(url).hostname == want


@pytest.mark.parametrize(
    ("domain", "strict", "want"),
    [
        # beStrict false: an ASCII domain is lowercased, whatever UTS #46
        # says of it
        ("xn--8i7caa", False, "xn--8i7caa"),
        ("xn--8i7caa", True, None),
        ("-x.ß", False, "-x.xn--zca"),
        ("-x.ß", True, None),
        ("a_b.example", False, "a_b.example"),
        ("a_b.example", True, None),
        ("x..ß", False, "x..xn--zca"),
        ("x..ß", True, None),
        # VerifyDnsLength: a label over 63, a root label (trailing dot)
        ("a" * 63 + ".ß", True, "a" * 63 + ".xn--zca"),
        ("a" * 64 + ".ß", True, None),
        ("a" * 64 + ".ß", False, "a" * 64 + ".xn--zca"),
        ("a.ß.", True, None),
        ("a.ß.", False, "a.xn--zca."),
        # failure: empty, a forbidden domain code point (after mapping too)
        ("", False, None),
        ("\u00ad", False, None),
        ("a b", False, None),
        ("a%b", False, None),
        ("a\uff05b.ß", False, None),
        ("a\u3002ß", False, "a.xn--zca"),
        # UTF-8 that is not: U+FFFD is disallowed
        (b"a\xffb.example", False, None),
        (b"m\xc3\xbcnchen.de", False, "xn--mnchen-3ya.de"),
        # a lone surrogate is U+FFFD (USVString)
        ("a\ud800.example", False, None),
        # Punycode: invalid, overflowing, decoding to ASCII or to a label
        # that fails the criteria
        ("xn--a.ß", False, None),
        ("xn--zca.ß", False, "xn--zca.xn--zca"),
        ("xn--ab-.ß", False, None),
        ("xn---.ß", False, None),
        ("xn--99999999999.ß", False, None),
        ("xn--tešla", False, None),
    ],
)
def test_domain_parser(idna, domain, strict, want):
    assert _ascii(idna, domain, strict) == want


@pytest.mark.parametrize(
    ("domain", "want"),
    [
        ("xn--fa-hia.de", "faß.de"),
        ("EXAMPLE.com", "example.com"),
        ("xn--8i7caa", "xn--8i7caa"),  # an error: the domain as given
        ("a\ud800b", "a\ufffdb"),
        (b"a\xffb", "a\ufffdb"),
        ("xn--53h.example", "\u2615.example"),
    ],
)
def test_domain_to_unicode(idna, domain, want):
    assert idna.domain_to_unicode(domain) == want


def test_types(idna):
    with pytest.raises(
        TypeError, match=r"domain_to_ascii\(\) argument 'domain' must be str or bytes, not int"
    ):
        idna.domain_to_ascii(1)
    with pytest.raises(TypeError, match="must be str or bytes"):
        idna.domain_to_unicode(None)
    with pytest.raises(TypeError):
        idna.domain_to_ascii("a", True)  # be_strict is keyword-only
    assert idna.domain_to_ascii(bytearray(b"A.b")) == "a.b"
    assert idna.domain_to_ascii(memoryview(b"A.b")) == "a.b"


# RFC 3492 §7.1 sample strings (Unicode, Punycode)
RFC3492 = [
    (
        "\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064a\u061f",
        "egbpdaj6bu4bxfgehfvwxn",
    ),
    ("\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587", "ihqwcrb4cv8a8dqg056pqjye"),
    (
        "Pro\u010dprost\u011bnemluv\u00ed\u010desky",
        "Proprostnemluvesky-uyb24dma41a",
    ),
    (
        "\u05dc\u05de\u05d4\u05d4\u05dd\u05e4\u05e9\u05d5\u05d8\u05dc\u05d0\u05de\u05d3\u05d1\u05e8\u05d9\u05dd\u05e2\u05d1\u05e8\u05d9\u05ea",
        "4dbcagdahymbxekheh6e0a7fei0b",
    ),
    ("3\u5e74B\u7d44\u91d1\u516b\u5148\u751f", "3B-ww4c5e180e575a65lsy2b"),
    (
        "\u5b89\u5ba4\u5948\u7f8e\u6075-with-SUPER-MONKEYS",
        "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n",
    ),
    ("\u3072\u3068\u3064\u5c4b\u6839\u306e\u4e0b2", "2-u9tlzr9756bt3uc0v"),
]


@pytest.mark.parametrize(("text", "code"), RFC3492)
def test_punycode_rfc3492_samples(text, code):
    from fasturi import _idna_py

    assert _idna_py.punycode_encode(text) == code
    assert _idna_py.punycode_decode(code) == text


@given(st.text(st.characters(max_codepoint=0x10FFFF, exclude_categories=("Cs",)), max_size=40))
@settings(deadline=None, max_examples=300)
def test_punycode_is_pythons_codec(text):
    # (Python's codec has no integer limit; these short texts reach none)
    from fasturi import _idna_py

    code = text.encode("punycode").decode("ascii")
    assert _idna_py.punycode_encode(text) == code
    assert _idna_py.punycode_decode(code) == text


# Generated domains: code points of every kind UTS #46 treats apart
_ALPHABET = st.sampled_from(
    list("abcxn-.09AZ_%")
    + list("\u00df\u00e0\u0300\u0301\u0316\u0345\u05d0\u05b0\u0627\u0661\u06f1\u0644\u200c\u200d")
    + list("\u094d\u0915\u3002\uff0e\u2488\u00ad\ufffd\u1100\u1161\u11a8\uac00\ud55c\u2615")
    + list("\U00011f00\U000105d2\u0307\U00010d50\u1b3a\u05c8\U0003e8ac\u0378\uff21\u2160")
)
_DOMAINS = st.one_of(
    st.lists(_ALPHABET, max_size=24).map("".join),
    st.lists(
        st.sampled_from(["xn--", "zca", "fa-hia", "ls8h", "8i7caa", "-", "."]), max_size=6
    ).map("".join),
    st.text(max_size=16),
)


@pytest.mark.parity
@given(_DOMAINS, st.booleans())
@settings(deadline=None, max_examples=1500)
@example("xn--" + "a" * 300, False)
@example("\u0627" + "\u0300" * 70, False)
@example("a" + "\u0301\u0316" * 40 + "." + "\U00010d50", True)
def test_twins_agree(twin_pair, domain, strict):
    compiled, python = twin_pair("idna")
    assert _ascii(compiled, domain, strict) == _ascii(python, domain, strict)
    assert compiled.domain_to_unicode(domain) == python.domain_to_unicode(domain)


@pytest.mark.parity
def test_twins_agree_on_long_labels(twin_pair):
    compiled, python = twin_pair("idna")
    labels = [
        "".join(map(chr, range(0x4E00 + 300, 0x4E00, -1))),  # Punycode inserts each at the front
        "\u00e9" * 500,
        "a\u0301" * 200,
        "\u0627" + "\u0651\u064b" * 150 + "\u0628",  # a long run of marks to reorder
        "x" * 70 + "\u00df",
    ]
    for label in labels:
        for domain in (label, label + ".example", "ex." + label):
            code = _ascii(python, domain)
            assert _ascii(compiled, domain) == code
            assert compiled.domain_to_unicode(domain) == python.domain_to_unicode(domain)
            if code is not None:
                assert _ascii(compiled, code) == code
                assert compiled.domain_to_unicode(code) == python.domain_to_unicode(code)


def _percent(domain: str) -> str:
    return "".join(f"%{b:02X}" for b in domain.encode("utf-8", "surrogatepass"))


@pytest.mark.parity
@given(_DOMAINS, st.sampled_from(["http", "https", "ws", "ftp", "sc"]), st.booleans())
@settings(deadline=None, max_examples=800)
@example("B\u00fccher.example", "http", False)
@example("b\u00fccher.example", "http", True)
@example("xn--bcher-kva.example.0x7f", "http", False)
@example("\u00fc.1.2.3", "https", False)
def test_hosts_parse_alike(twin_pair, domain, scheme, percent):
    # the compiled parser's hosts through _idna_c, the reference's through
    # _idna_py: the same URL, or the same error
    compiled, python = twin_pair("whatwg")
    url = f"{scheme}://{_percent(domain) if percent else domain}/p"

    def view(mod):
        try:
            return mod.parse(url).href
        except InvalidURL as e:
            return ("InvalidURL", e.reason, str(e))

    assert view(compiled) == view(python)
