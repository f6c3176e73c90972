"""web-platform-tests' URL data (tests/wpt/, BSD-3), run the way WPT runs it.

``urltestdata.json``: url-constructor.any.js (every getter, or failure),
url-origin.any.js (``origin`` where given), failure.html (an input that
fails with no base fails as a base too) and the ``relativeTo`` key (the
input parses against a base of that kind).  ``toascii.json`` and
``IdnaTestV2.json``: the host of ``https://<input>/x`` (toascii.window.js,
IdnaTestV2.window.js).  ``percent-encoding.json``: the query and fragment
of ``https://doesnotmatter.invalid/?<input>#<input>``, its UTF-8 column
(percent-encoding.window.js).  Every case runs, failures included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fasturi import whatwg
from fasturi._types import WHATWG_FIELDS

WPT = Path(__file__).resolve().parent / "wpt"
# (a case gives "origin" only where url-origin.any.js checks it)
GETTERS = tuple(g for g in WHATWG_FIELDS if g != "origin")
# A base of each kind relativeTo names (WPT's README for urltestdata.json).
OPAQUE_PATH_BASE = "sc:opaque"


def _non_opaque_path_base(input: str) -> str:
    """A base without an opaque path; of the input's own scheme when that is
    special (``http:@/www.example.com`` is relative only to an http: base)."""
    scheme = input.partition(":")[0]
    if scheme not in ("http", "https", "ws", "wss", "ftp"):
        scheme = "https"
    return f"{scheme}://example.test/dir/file"


def _cases(name: str) -> list:
    with open(WPT / name, encoding="utf-8") as f:
        return [case for case in json.load(f) if isinstance(case, dict)]


URLTESTDATA = _cases("urltestdata.json")
TOASCII = _cases("toascii.json")
IDNA = [case for case in _cases("IdnaTestV2.json") if case["input"] != ""]
PERCENT_ENCODING = _cases("percent-encoding.json")


def _id(case: dict) -> str:
    return ascii(case["input"])[1:-1][:60] + (f" @ {case['base']}" if case.get("base") else "")


@pytest.mark.parametrize("case", URLTESTDATA, ids=[_id(c) for c in URLTESTDATA])
def test_urltestdata(case):
    if case.get("failure"):
        with pytest.raises(whatwg.InvalidURL):
            whatwg.parse(case["input"], case["base"])
        assert not whatwg.can_parse(case["input"], case["base"])
        if case["base"] is None:
            # failure.html: what fails with no base fails as a base too
            with pytest.raises(whatwg.InvalidURL):
                whatwg.parse("about:blank", case["input"])
        relative_to = case.get("relativeTo")
        if relative_to is not None:
            assert whatwg.can_parse(case["input"], _non_opaque_path_base(case["input"]))
            assert whatwg.can_parse(case["input"], OPAQUE_PATH_BASE) == (relative_to == "any-base")
        return
    url = whatwg.parse(case["input"], case["base"])
    assert {g: getattr(url, g) for g in GETTERS} == {g: case[g] for g in GETTERS}
    if "origin" in case:
        assert url.origin == case["origin"]
    assert str(url) == url.href
    assert whatwg.can_parse(case["input"], case["base"])
    if case["base"] is not None:
        assert whatwg.resolve(case["base"], case["input"]) == case["href"]


def _host_case(case: dict) -> None:
    text = f"https://{case['input']}/x"
    if case["output"] is None:
        with pytest.raises(whatwg.InvalidURL):
            whatwg.parse(text)
        return
    url = whatwg.parse(text)
    assert (url.host, url.hostname, url.pathname, url.href) == (
        case["output"],
        case["output"],
        "/x",
        f"https://{case['output']}/x",
    )


@pytest.mark.parametrize("case", TOASCII, ids=[_id(c) for c in TOASCII])
def test_toascii(case):
    _host_case(case)


def _assigned_since(case: dict) -> bool:
    """A case failing for V7 alone (a code point unassigned when the test
    file was made) whose code points UTS #46's table of fasturi's Unicode
    version no longer disallows: its expectation is that of an older
    Unicode version."""
    from fasturi import _idna_py

    if case["output"] is not None or (case.get("comment") or "") != "V7":
        return False
    return all(_idna_py.uts46_status(c) != "X" for c in case["input"])


@pytest.mark.parametrize("case", IDNA, ids=[_id(c) for c in IDNA])
def test_idna(case):
    if _assigned_since(case):
        # assigned (and valid) since: the host parses, as a domain
        url = whatwg.parse(f"https://{case['input']}/x")
        assert url.hostname.startswith("xn--")
        return
    _host_case(case)


@pytest.mark.parametrize("case", PERCENT_ENCODING, ids=[_id(c) for c in PERCENT_ENCODING])
def test_percent_encoding(case):
    # percent-encoding.window.js, UTF-8: the query, and the fragment (always UTF-8)
    url = whatwg.parse(f"https://doesnotmatter.invalid/?{case['input']}#{case['input']}")
    assert url.search == "?" + case["output"]["utf-8"]
    assert url.hash == "#" + case["output"]["utf-8"]
