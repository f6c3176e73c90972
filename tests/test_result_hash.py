"""Tuples built in C hash like the same tuples built in Python.

The compiled modules allocate their result tuples (Split, and the stdlib's
SplitResult/ParseResult/DefragResult) directly from C.  From Python 3.14 a
tuple caches its hash in the object, with -1 meaning "not computed yet"; a
result allocated without setting that would hash as 0 and miss every dict
or set holding the equal tuple.
"""

from __future__ import annotations

import urllib.parse

import pytest

from fasturi import Split

URIS = [
    "http://example.com/a/b?q=1#frag",
    "mailto:user@example.com",
    "//host:8080/path",
    "relative/path?only",
    "",
    "http://[::1]/caf\u00e9/\U0001f600",
]


@pytest.mark.parametrize("uri", URIS)
def test_split_hashes_as_the_equal_split(core, uri):
    got = core.split(uri)
    want = Split(*tuple(got))
    assert got == want
    assert hash(got) == hash(want) == hash(tuple(want))
    # the cached hash, read twice, stays the computed one
    assert hash(got) == hash(tuple(got))
    assert got in {want} and want in {got}


@pytest.mark.parametrize("uri", URIS)
def test_split_many_results_hash_as_split(uri):
    import fasturi

    (got,) = fasturi.split_many([uri])
    assert hash(got) == hash(fasturi.split(uri)) == hash(tuple(got))


@pytest.mark.compiled
@pytest.mark.parametrize("uri", URIS)
def test_compiled_urllib_results_hash_as_the_stdlib_ones(uri):
    from fasturi import _parse_c

    pairs = [
        (_parse_c.urlsplit(uri), urllib.parse.urlsplit(uri)),
        (_parse_c.urlparse(uri), urllib.parse.urlparse(uri)),
        (_parse_c.urldefrag(uri), urllib.parse.urldefrag(uri)),
    ]
    if uri.isascii():  # the stdlib takes ASCII bytes only
        pairs.append((_parse_c.urlsplit(uri.encode()), urllib.parse.urlsplit(uri.encode())))
    for got, want in pairs:
        assert type(got) is type(want)
        assert got == want
        assert hash(got) == hash(want) == hash(tuple(want))
        assert got in {want}
