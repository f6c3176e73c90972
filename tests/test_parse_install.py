"""install() puts the compiled functions into urllib.parse and uninstall()
takes them out again; code written against urllib.parse keeps working."""

from __future__ import annotations

import importlib.util
import urllib.parse
import urllib.request

import pytest

import fasturi.parse as fp
from fasturi._impl import NO_EXTENSIONS

HOT = (
    "urlsplit",
    "urlparse",
    "urlunsplit",
    "urlunparse",
    "urljoin",
    "urldefrag",
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
    "parse_qs",
    "parse_qsl",
)


@pytest.fixture(autouse=True)
def originals():
    fp.uninstall()
    saved = {name: getattr(urllib.parse, name) for name in HOT}
    yield saved
    fp.uninstall()


def test_install_and_uninstall(originals):
    fp.install()
    for name in HOT:
        assert getattr(urllib.parse, name) is getattr(fp, name), name
    fp.install()  # idempotent
    for name in HOT:
        assert getattr(urllib.parse, name) is getattr(fp, name), name
    fp.uninstall()
    for name in HOT:
        assert getattr(urllib.parse, name) is originals[name], name
    fp.uninstall()  # idempotent
    for name in HOT:
        assert getattr(urllib.parse, name) is originals[name], name


def test_hot_functions_are_compiled():
    # Every hot function is compiled unless pure Python was asked for: a
    # missing _parse_c or _quote_c is an error, not a quiet fallback.
    compiled = {name: getattr(fp, name) is not getattr(urllib.parse, name) for name in HOT}
    for name in HOT:
        assert compiled[name] is not NO_EXTENSIONS, name
    if not NO_EXTENSIONS:
        assert importlib.util.find_spec("fasturi._quote_c") is not None
    assert fp.IMPLEMENTATION == ("python" if NO_EXTENSIONS else "compiled")


def test_other_names_stay_the_stdlib_ones():
    fp.install()
    for name in ("SplitResult", "ParseResult", "DefragResult", "unwrap", "uses_netloc"):
        assert getattr(urllib.parse, name) is getattr(fp, name)


REQUEST_URLS = [
    "http://www.example.com/a/b?q=1#frag",
    "HTTPS://User:Pw@Example.COM:8443/p;x?q",
    "http://[::1]:8080/",
    "ftp://ftp.example.org/pub/file.txt",
    "http://h\xe9.example/\u4e2d",
    "  http://a/b",
]


def request_facts(url):
    req = urllib.request.Request(url, headers={"X": "1"})
    return (
        req.full_url,
        req.type,
        req.host,
        req.selector,
        req.fragment,
        req.origin_req_host,
        urllib.request.urlparse(req.full_url),
    )


@pytest.mark.parametrize("url", REQUEST_URLS)
def test_unmodified_stdlib_user_gives_the_same_results(url):
    before = request_facts(url)
    fp.install()
    assert request_facts(url) == before
    # stdlib code that calls through the module sees the compiled functions
    assert urllib.parse.urljoin(url, "../x") == fp.urljoin(url, "../x")
    result = urllib.parse.urlsplit(url)
    assert result.geturl() == urllib.parse.urlunsplit(result)
    fp.uninstall()
    assert request_facts(url) == before


def test_installed_functions_compute_what_the_originals_do(originals):
    fp.install()
    cases = ["http://a/b/c/d;p?q", "mailto:x@y", "//net/p", "http://[::1/", b"http://a/b"]
    for url in cases:
        for name in ("urlsplit", "urlparse", "urldefrag"):
            try:
                want = originals[name](url)
            except ValueError as exc:
                with pytest.raises(ValueError, match=str(exc).replace("[", r"\[")):
                    getattr(urllib.parse, name)(url)
            else:
                got = getattr(urllib.parse, name)(url)
                assert got == want and type(got) is type(want)
    if hasattr(urllib.parse, "clear_cache"):
        urllib.parse.clear_cache()  # the stdlib's clear_cache with ours installed
    assert urllib.parse.urljoin("http://a/b/c", "../d") == "http://a/d"
