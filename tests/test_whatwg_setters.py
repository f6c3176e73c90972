"""URL.replace: the URL Standard's setters, each a run of the basic URL
parser with a state override (or, for username and password, the
standard's own steps), applied in the order given.

``tests/wpt/setters_tests.json`` (web-platform-tests, BSD-3) and
``tests/ada/ada_extra_setters_tests.json`` (ada, MIT) run the way WPT's
``url-setters.any.js`` runs them; the facts of WPT's
``url-setters-stripping.any.js`` (which code points a setter strips) are
generated here the same way.  Every case runs on both twins.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from urllib.parse import quote

import pytest
from corpus_files import FOLDER, lines
from hypothesis import given
from hypothesis import strategies as st

from fasturi import _whatwg_py, whatwg
from fasturi._types import WHATWG_FIELDS
from fasturi.whatwg import InvalidURL

HERE = Path(__file__).resolve().parent
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname")
SETTERS += ("search", "hash")


def _cases(path: Path) -> list:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return [
        pytest.param(
            setter, case, id=f"{setter}: {ascii(case['href'])} = {ascii(case['new_value'])}"
        )
        for setter, cases in data.items()
        if setter != "comment"
        for case in cases
    ]


WPT = _cases(HERE / "wpt" / "setters_tests.json")
ADA = _cases(HERE / "ada" / "ada_extra_setters_tests.json")


@pytest.fixture(scope="module")
def ww(twin):
    return twin("whatwg")


def _check(ww, setter, case):
    url = ww.parse(case["href"])
    changed = url.replace(**{setter: case["new_value"]})
    assert {g: getattr(changed, g) for g in case["expected"]} == case["expected"]
    # the URL replace was called on is as it was
    assert url.href == ww.parse(case["href"]).href
    # and the new one is the URL its href parses to
    assert changed == ww.parse(changed.href)
    assert {g: getattr(changed, g) for g in WHATWG_FIELDS} == {
        g: getattr(ww.parse(changed.href), g) for g in WHATWG_FIELDS
    }


@pytest.mark.parametrize(("setter", "case"), WPT)
def test_wpt_setters(ww, setter, case):
    _check(ww, setter, case)


@pytest.mark.parametrize(("setter", "case"), ADA)
def test_ada_setters(ww, setter, case):
    _check(ww, setter, case)


def test_every_setter_has_cases():
    assert {p.values[0] for p in WPT} == set(SETTERS)


# ---- url-setters-stripping.any.js: which code points a setter strips ------------


def _url_string(**parts):
    """WPT's urlString(): the URL of these parts, each defaulting to its name."""
    p = {"scheme": "https", "username": "username", "password": "password", "host": "host"}
    p.update({"port": "8000", "pathname": "path", "search": "query", "hash": "fragment"}, **parts)
    return "{scheme}://{username}:{password}@{host}:{port}/{pathname}?{search}#{hash}".format(**p)


def _stripping_cases():
    # U+0000, U+001F and the three that are stripped (tab, LF, CR): the
    # browsers agree on the rest of the C0 controls as on these
    for scheme in ("https", "wpt++"):
        for i in (0x00, 0x09, 0x0A, 0x0D, 0x1F):
            yield scheme, i


def _encode_uri_component(s: str) -> str:
    return quote(s, safe="!'()*-._~")


@pytest.mark.parametrize(("scheme", "i"), list(_stripping_cases()))
def test_setters_stripping(ww, scheme, i):
    cp = chr(i)
    stripped = i in (0x09, 0x0A, 0x0D)
    url = ww.parse(_url_string(scheme=scheme))

    other = "http" if scheme == "https" else "wpt--"
    expected = other if stripped else scheme
    for value in (cp + other, other + cp):  # leading; before the inserted ":"
        changed = url.replace(protocol=value)
        assert changed.protocol == expected + ":"
        assert changed.href == _url_string(scheme=expected)

    # username and password: no stripping, every code point encoded
    for prop in ("username", "password"):
        for expected, value in (
            (_encode_uri_component(cp) + "test", cp + "test"),
            ("te" + _encode_uri_component(cp) + "st", "te" + cp + "st"),
            ("test" + _encode_uri_component(cp), "test" + cp),
        ):
            changed = url.replace(**{prop: value})
            assert getattr(changed, prop) == expected
            assert changed.href == _url_string(scheme=scheme, **{prop: expected})

    # host and hostname: U+0000 (and U+001F in a special host) fail, so
    # the host stays; tab and newlines are stripped
    kept = cp if scheme == "https" else _encode_uri_component(cp)
    for part, value in (
        (kept + "test", cp + "test"),
        ("te" + kept + "st", "te" + cp + "st"),
        ("test" + kept, "test" + cp),
    ):
        if i == 0x00 or (scheme == "https" and i == 0x1F):
            expected = "host"
        else:
            expected = "test" if stripped else part
        changed = url.replace(host=value)
        assert changed.host == expected + ":8000"
        assert changed.href == _url_string(scheme=scheme, host=expected)
        changed = url.replace(hostname=value)
        assert changed.hostname == expected
        assert changed.href == _url_string(scheme=scheme, host=expected)

    # port: a leading one is not a digit (the port stays), a middle one
    # ends the port, a trailing one is after it
    for value, expected in (
        (cp + "9000", "9000" if stripped else "8000"),
        ("90" + cp + "00", "9000" if stripped else "90"),
        ("9000" + cp, "9000"),
    ):
        changed = url.replace(port=value)
        assert changed.port == expected
        assert changed.href == _url_string(scheme=scheme, port=expected)

    for prop, separator in (("pathname", "/"), ("search", "?"), ("hash", "#")):
        for part, value in (
            (_encode_uri_component(cp) + "test", cp + "test"),
            ("te" + _encode_uri_component(cp) + "st", "te" + cp + "st"),
            ("test" + _encode_uri_component(cp), "test" + cp),
        ):
            expected = "test" if stripped else part
            changed = url.replace(**{prop: value})
            assert getattr(changed, prop) == separator + expected
            assert changed.href == _url_string(scheme=scheme, **{prop: expected})


# ---- replace() itself ---------------------------------------------------------


def test_replace_applies_setters_in_order(ww):
    url = ww.parse("http://example.com/a")
    assert url.replace(host="a.example:81", hostname="b.example").host == "b.example:81"
    assert url.replace(hostname="b.example", host="a.example:81").host == "a.example:81"
    assert url.replace(href="https://x.example/", pathname="/p").href == "https://x.example/p"
    assert url.replace(pathname="/p", href="https://x.example/").href == "https://x.example/"
    # the port the protocol setter makes default is dropped, later or earlier
    assert url.replace(port="443", protocol="https").href == "https://example.com/a"
    assert url.replace(protocol="https", port="443").href == "https://example.com/a"


def test_replace_keeps_the_url_immutable_and_hashable(ww):
    url = ww.parse("https://user:pw@example.com:8080/p?q=1#f")
    changed = url.replace(search="?q=2", hash="")
    assert changed.href == "https://user:pw@example.com:8080/p?q=2"
    assert url.href == "https://user:pw@example.com:8080/p?q=1#f"
    assert type(changed) is type(url)
    assert hash(changed) == hash(ww.parse(changed.href))
    assert {changed, ww.parse(changed.href)} == {changed}
    assert pickle.loads(pickle.dumps(changed)).href == changed.href
    with pytest.raises(AttributeError):
        changed.href = "http://x/"  # type: ignore[misc]
    # no changes: an equal URL
    assert url.replace() == url


def test_replace_ignores_what_its_setter_ignores(ww):
    url = ww.parse("mailto:someone@example.com")
    # an opaque path has no host and no path to set, nor a port
    for change in ({"host": "x"}, {"hostname": "x"}, {"pathname": "/x"}, {"port": "1"}):
        assert url.replace(**change) == url
    # a special scheme does not become a non-special one, nor the reverse
    assert ww.parse("http://h/").replace(protocol="sc").href == "http://h/"
    assert ww.parse("sc://h/").replace(protocol="http").href == "sc://h/"
    # a file URL has no credentials or port
    file = ww.parse("file:///etc/hosts")
    for change in ({"username": "u"}, {"password": "p"}, {"port": "1"}):
        assert file.replace(**change) == file
    # a failing value for a setter other than href changes nothing
    assert ww.parse("http://h/").replace(host="a b").href == "http://h/"
    assert ww.parse("http://h/").replace(port="x").href == "http://h/"


def test_replace_href_failure_raises(ww):
    url = ww.parse("http://h/")
    with pytest.raises(InvalidURL) as info:
        url.replace(href="http://a b/")
    with pytest.raises(InvalidURL) as parsed:
        ww.parse("http://a b/")
    assert info.value.reason == parsed.value.reason
    with pytest.raises(InvalidURL):
        url.replace(href="relative/path")  # the href setter has no base
    # the failure is raised wherever href comes in the changes
    with pytest.raises(InvalidURL):
        url.replace(pathname="/x", href="//h")


def test_replace_partial_failure_keeps_what_was_set(ww):
    # the host state sets the host before the port fails (WPT's case, and
    # the standard's steps): what was set stays set
    url = ww.parse("http://example.net:8080/path")
    assert url.replace(host="example.com:65536").href == "http://example.com:8080/path"
    assert url.replace(host="example.com:x").href == "http://example.com:8080/path"


def test_replace_values(ww):
    url = ww.parse("http://h/")
    # bytes are UTF-8, as parse takes them; lone surrogates become U+FFFD
    assert url.replace(pathname="/é".encode()).pathname == "/%C3%A9"
    assert url.replace(pathname=b"/\xff").pathname == "/%EF%BF%BD"
    assert url.replace(search="\ud800").search == "?%EF%BF%BD"
    # a port may be an int, as JavaScript's url.port = 8080
    assert url.replace(port=8080).port == "8080"
    assert url.replace(port=80).port == ""
    assert url.replace(port=-1).port == ""  # (not a digit: ignored)
    for name, value in (
        ("port", None),
        ("port", True),
        ("port", 1.5),
        ("search", 1),
        ("href", None),
    ):
        with pytest.raises(TypeError, match=rf"replace\(\) argument '{name}' must be"):
            url.replace(**{name: value})


@pytest.mark.parametrize("name", ["origin", "search_params", "scheme", "query", "fragment", "path"])
def test_replace_unknown_keyword(ww, name):
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{name}'"):
        ww.parse("http://h/").replace(**{name: "x"})


def test_facade():
    url = whatwg.parse("https://example.com/")
    assert url.replace(pathname="a b", search="x=1").href == "https://example.com/a%20b?x=1"


# ---- the reference's URL record ---------------------------------------------------


with open(HERE / "wpt" / "urltestdata.json", encoding="utf-8") as f:
    URLTESTDATA = [c for c in json.load(f) if isinstance(c, dict) and not c.get("failure")]


def _fields(record):
    return tuple(getattr(record, name) for name in _whatwg_py.URLRecord.__slots__)


def test_record_of_every_wpt_url():
    # a URL's record, rebuilt from its parts, is the parser's record
    for case in URLTESTDATA:
        base = case["base"] and _whatwg_py.basic_url_parse(case["base"])
        record = _whatwg_py.basic_url_parse(case["input"], base)
        again = _whatwg_py.record_of(_whatwg_py.to_url(record))
        assert _fields(again) == _fields(record), case["input"]


def test_record_of_after_setters():
    # and after the setters, whose records are not all a parse's
    for setter, case in (p.values for p in WPT + ADA):
        url = _whatwg_py.parse(case["href"])
        try:
            record = _whatwg_py.SETTERS[setter](
                _whatwg_py.record_of(url),
                _whatwg_py.scalar_value_string("t", "v", case["new_value"]),
            )
        except InvalidURL:
            continue
        again = _whatwg_py.record_of(_whatwg_py.to_url(record))
        assert _fields(again) == _fields(record), (setter, case)


# ---- every setter on the corpus, both twins -----------------------------------------

VALUES = {
    "href": ["http://x.example/", "sc:opaque", "a b"],
    "protocol": ["https", "ws:", "file", "sc", "1x"],
    "username": ["", "us er", "é@:"],
    "password": ["", "p:w@", "%zz"],
    "host": ["", "new.example:81", "xn--fa-hia.example", "[::1]", "a b", "ÉXAMPLE.com", "0x7f.1"],
    "hostname": ["", "new.example", "new.example:81", "%41.example", "a\\b"],
    "port": ["", "0", "8080x", "65536", "80"],
    "pathname": ["", "/a/../b", "c d?#", "\\x\\y", "//p", "C|/x"],
    "search": ["", "?", "??a=b#c", "a b'\"<>"],
    "hash": ["", "#", "##x", "a b`"],
}


@pytest.mark.parity
def test_setters_twins_agree_on_the_corpus(twin_pair):
    compiled, python = twin_pair("whatwg")
    urls = lines(FOLDER / "urls.txt")[::40]
    for text in urls:
        try:
            c, p = compiled.parse(text), python.parse(text)
        except InvalidURL:
            continue
        for setter, values in VALUES.items():
            for value in values:
                try:
                    want = p.replace(**{setter: value})
                except InvalidURL:
                    with pytest.raises(InvalidURL):
                        c.replace(**{setter: value})
                    continue
                got = c.replace(**{setter: value})
                assert [getattr(got, g) for g in WHATWG_FIELDS] == [
                    getattr(want, g) for g in WHATWG_FIELDS
                ], (text, setter, value)


@given(
    url=st.sampled_from([c["href"] for c in URLTESTDATA]),
    setter=st.sampled_from(SETTERS[1:]),
    value=st.text(st.characters(codec="utf-8") | st.sampled_from("/\\?#:@[]%.")),
)
def test_a_replaced_url_is_its_href_parsed(ww, url, setter, value):
    changed = ww.parse(url).replace(**{setter: value})
    again = ww.parse(changed.href)
    assert [getattr(again, g) for g in WHATWG_FIELDS] == [
        getattr(changed, g) for g in WHATWG_FIELDS
    ]
