"""surt (docs/reference.md §4): the SURT key web archives index by, as the surt
package's default writes it; examples from the transform's definition,
agreement with the package on the corpus, and twin parity."""

from __future__ import annotations

import importlib

import pytest
import surt as surt_package
from crawler_corpus import corpora, urls
from hypothesis import given
from hypothesis import strategies as st

import fasturi

EXAMPLES = {
    # host labels reversed and joined by ",", ")" before the path
    "http://www.archive.org/": "org,archive)/",
    "http://archive.org/goo/?a=2&b&a=1": "org,archive)/goo?a=1&a=2&b",
    # default ports go, others stay (compared as numbers)
    "http://archive.org:80/": "org,archive)/",
    "https://archive.org:443/": "org,archive)/",
    "https://example.com:0443/": "com,example)/",
    "http://archive.org:8080/": "org,archive:8080)/",
    # http:// assumed; repeated http(s):// prefixes keep the last
    "archive.org/x": "org,archive)/x",
    "http://http://archive.org/": "org,archive)/",
    # www, www2 ... dropped; path lowercased, dot and empty segments gone,
    # trailing "/" gone; userinfo and fragment gone
    "http://www2.example.com/A/B/../C/": "com,example)/a/c",
    "http://example.com/a//b/./c/": "com,example)/a/b/c",
    "http://user:pw@Example.COM/path#frag": "com,example)/path",
    # numeric hosts as inet_aton reads them
    "http://3232235521/": "1,0,168,192)/",
    "http://127.1/": "1,0,0,127)/",
    "http://0177.0.0.1/": "1,0,0,127)/",
    "http://0x7f.1/": "1,0x7f)/",
    # decoded until stable, re-encoded once
    "http://%77ww.example.com/": "com,example)/",
    "http://example.com/a%2520b": "com,example)/a%20b",
    # query: lowercased, fields sorted by (name, value), session IDs gone
    "http://Example.com/?B=1&a=2&a": "com,example)/?a&a=2&b=1",
    "http://example.com/?jsessionid=0123456789abcdef0123456789abcdef&x=1": "com,example)/?x=1",
    "http://example.com/(a(0123456789abcdef01234567))/x.aspx": "com,example)/x.aspx",
    # IDNA hosts; ".." folded, outer dots gone
    "http://пример.рф/": "xn--p1ai,xn--e1afmkfd)/",
    "http://a.b...c.d./": "d,c,,b,a)/",
    "http://[::1]:8080/x": "::1:8080)/x",
    # no host: scheme:path
    "dns:www.example.com": "dns:www.example.com",
    "mailto:A@B.com": "mailto:a@b.com",
    # CDX file headers pass through; nothing is "-"
    "filedesc://x.arc": "filedesc://x.arc",
    "": "-",
}


@pytest.mark.parametrize(("url", "want"), sorted(EXAMPLES.items()))
def test_examples(surtmod, url, want):
    assert surtmod.surt(url) == want


@pytest.mark.parametrize("url", sorted(EXAMPLES))
def test_examples_are_the_packages(url):
    assert surt_package.surt(url) == EXAMPLES[url]


def test_whitespace_only(surtmod):
    # the surt package fails here (AttributeError); there is nothing to key
    assert surtmod.surt(" \t\n") == "-"


@pytest.mark.parametrize("url", ["http://a.com:x/", "http://a.com:65536/"])
def test_bad_port(surtmod, url):
    with pytest.raises(ValueError, match=r"^surt\(\) port"):
        surtmod.surt(url)


def test_lone_surrogates(surtmod):
    # any str, as normalize, canonicalize and fingerprint take it: a lone
    # surrogate is the bytes surrogatepass writes, escaped where the key
    # escapes bytes (the surt package raises UnicodeEncodeError)
    assert surtmod.surt("http://a/\ud800?x=\udc00") == "a)/%ed%a0%80?x=%ed%b0%80"
    assert surtmod.surt("http://\ud800.com/") == "com,%ed%a0%80)/"
    assert surtmod.surt("http://a/\ud800\U0001f600") == "a)/%ed%a0%80%f0%9f%98%80"


def test_type_error(surtmod):
    with pytest.raises(TypeError, match=r"^surt\(\) argument 's' must be str, not bytes$"):
        surtmod.surt(b"http://a/")


def test_facade():
    assert fasturi.surt("https://www.Example.com/B?b&a") == "com,example)/b?a&b"


# Each session-ID pattern, matched and just missed: the compiled twin
# looks for what a pattern needs before it runs the patterns.
SESSIONS = [
    "http://example.com/?sid=0123456789abcdef0123456789abcdef",
    "http://example.com/?a=1&sid=0123456789ABCDEF0123456789abcdef&b=2",
    "http://example.com/?sid=0123456789abcdef0123456789abcde",  # 31 characters
    "http://example.com/?ssid=0123456789abcdef0123456789abcdef",
    "http://example.com/?sid%3D0123456789abcdef0123456789abcdef",
    "http://example.com/?phpsessid=0123456789abcdef0123456789abcdef&z",
    "http://example.com/?JSESSIONID=0123456789abcdef0123456789abcdef",
    "http://example.com/?x=1&jsessionid=0123456789abcdef0123456789abcdef0",
    "http://example.com/?aspsessionidABCDEFGH=abcdefghijklmnopqrstuvwx&k=v",
    "http://example.com/?aspsessionidABCDEFG=abcdefghijklmnopqrstuvwx",  # 7 letters
    "http://example.com/?aspsessionidABCDEFGH=abcdefghijklmnopqrstuvw",  # 23 letters
    "http://example.com/?aspsessionidABCDEFG1=abcdefghijklmnopqrstuvwx",
    "http://example.com/?x=1&aspsessionidQWERTSID=abcdefghijklmnopqrstuvwx",  # ends "sid"
    "http://example.com/?cfid=12&cftoken=34&x=1",
    "http://example.com/?cfid=12",
    "http://example.com/(S(abcdefghijklmnopqrstuvwx))/page.aspx?x",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/page.aspx",
    "http://example.com/(abcdefghijklmnopqrstuvw)/page.aspx",  # 23 characters
    "http://example.com/(abcdefghijklmnopqrstuvwx)/page.html",
    "http://example.com/x/(a(0123456789abcdef01234567)b(0123456789abcdef01234567))/y.aspx",
    "http://example.com/%28abcdefghijklmnopqrstuvwx%29/page.aspx",
]

# Hosts around what the compiled twin's host step takes 16 and 32 bytes at
# a time, and the forms that leave it for the full steps.
HOSTS = [
    "a" * 15 + ".com",
    "B" * 12 + ".com",
    "c" * 13 + ".com",
    "www." + "d" * 24 + ".org",
    "www." + "e" * 25 + ".org",
    "www." + "f" * 26 + ".org",
    "WWW7.Example.COM",
    "www.com",
    "www",
    "1234",
    "1.2.3.4",
    "12.example",
    "0x1.2",
    ".example.com",
    "example.com.",
    "a..b.com",
    "%41.example.com",
    "ex-am_ple~!$&'*+,;=.com",
    "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p",
    "xn--bcher-kva.example",
    "b\u00fccher.example",
]


# Bytes to escape at each place in a 16-byte block, alone, in runs and
# everywhere (the compiled twin escapes a block's bytes between its runs).
ESCAPES = [
    f"http://example.com/{'A' * k}%20b?q={'C' * k}%7F" for k in (0, 1, 13, 14, 15, 16, 30)
] + [
    "http://example.com/" + "\u00fc" * 20,
    'http://example.com/a b\x7fc\x01d"e<f>g',
    "http://example.com/" + "%25" * 12,
    "http://example.com/\u043f\u0443\u0442\u044c/A%C3%A9B/?\u043a=\u0437&Z=1",
]


@pytest.mark.parametrize("url", SESSIONS + ESCAPES + [f"http://{h}/x" for h in HOSTS])
def test_sessions_and_hosts_agree_with_surt_package(surtmod, url):
    assert _outcome(surtmod.surt, url) == _outcome(surt_package.surt, url)


def _outcome(fn, url):
    try:
        return fn(url)
    except ValueError as exc:
        return type(exc)


@pytest.mark.parametrize("path", corpora(), ids=lambda p: p.parent.name)
def test_agrees_with_surt_package_on_corpus(surtmod, path):
    web = [u for u in urls(path) if u.startswith(("http://", "https://"))]
    wrong = [
        (u, mine, theirs)
        for u in web
        if (mine := _outcome(surtmod.surt, u)) != (theirs := _outcome(surt_package.surt, u))
    ]
    assert len(web) > 3000
    assert wrong == []


_PIECES = st.sampled_from(
    list("aW.:/?#%@[]&=0123456789 \t\n-;()")
    + [
        "%2e",
        "%25",
        "%41",
        "%C3%A9",
        "\ud800",  # a lone surrogate: any str is a text surt takes
        "\udcff\u00e9",
        "www.",
        "www7.",
        "http://",
        "https://",
        "HTTP://",
        "é",
        "π",
        "..",
        "sid=",
        "jsessionid=",
        ".aspx",
        ":80",
        ":443",
        "//",
        "0177.",
        "0x",
        # the session-ID patterns' parts, so that matches and near misses
        # of each are drawn (the compiled twin looks for them first)
        "0123456789abcdef",
        "ABCDEFGH",
        "aspsessionid",
        "phpsessid=",
        "cfid=",
        "&cftoken=",
        "(S(",
        "))/",
    ]
)


@pytest.mark.parity
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_twins_agree(url):
    compiled = importlib.import_module("fasturi._surt_c")
    python = importlib.import_module("fasturi._surt_py")
    assert _outcome(compiled.surt, url) == _outcome(python.surt, url)
