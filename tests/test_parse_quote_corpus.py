"""The compiled quote family equals the stdlib on every URL of the corpus:
quote/quote_plus on every path, unquote/unquote_plus/unquote_to_bytes/
parse_qsl/parse_qs on every query (and the round trip through urlencode)."""

from __future__ import annotations

import importlib
import re
import urllib.parse as std

import corpus_files
import pytest
from outcomes import outcome

URLS = [line for line in corpus_files.lines(corpus_files.FOLDER / "urls.txt") if line]
pytestmark = pytest.mark.parity


# RFC 3986 Appendix B: every string has a path, and a query when '?' occurs.
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


@pytest.fixture(scope="module")
def parts():
    split = [APPENDIX_B.match(u) for u in URLS]
    return [m.group(5) for m in split], [m.group(7) for m in split if m.group(7)]


@pytest.fixture(scope="module")
def q():
    return importlib.import_module("fasturi._quote_c")


def mismatches(ours, theirs, items):
    """The first few items on which the two functions disagree."""
    bad = []
    for item in items:
        got, want = outcome(ours, item), outcome(theirs, item)
        if got != want:
            bad.append((item, got, want))
            if len(bad) == 5:
                break
    return bad


def test_paths(q, parts):
    paths, _ = parts
    assert len(paths) == len(URLS)
    assert mismatches(q.quote, std.quote, paths) == []


@pytest.mark.parametrize(
    "name", ["unquote", "unquote_plus", "unquote_to_bytes", "parse_qsl", "parse_qs", "quote_plus"]
)
def test_queries(q, parts, name):
    _, queries = parts
    assert queries
    assert mismatches(getattr(q, name), getattr(std, name), queries) == []


def test_queries_keep_blank_and_bytes(q, parts):
    _, queries = parts
    for qs in queries:
        assert q.parse_qsl(qs, keep_blank_values=True) == std.parse_qsl(qs, keep_blank_values=True)
        raw = qs.encode("utf-8", "surrogatepass")
        assert outcome(q.parse_qsl, raw) == outcome(std.parse_qsl, raw)
        assert q.unquote(raw) == std.unquote(raw)


def test_urlencode_round_trip(q, parts):
    _, queries = parts
    for qs in queries:
        pairs = std.parse_qsl(qs, keep_blank_values=True)
        assert outcome(q.urlencode, pairs) == outcome(std.urlencode, pairs)
