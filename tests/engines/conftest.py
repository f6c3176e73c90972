"""Shared inputs of the engine tests: corpus-shaped URLs with NULLs among them.

Every engine test compares the engine's answer with the single-process
``fasturi.arrow`` answer on these rows.  Every module here carries the
``engine`` marker (registered in tests/conftest.py).
"""

from __future__ import annotations

from importlib.resources import files

import pyarrow as pa
import pytest

CORPUS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()

# Rows that break column code: empty, nulls, non-ASCII (multi-byte offsets),
# invalid text, an IPv6 literal with a port, a bare authority, dot segments.
EDGES = [
    "",
    None,
    "HTTP://Example.COM:80/a/./b/../c?y=2&x=1#Frag",
    "https://caf\u00e9.example/\u00fc?q=\U0001f600",
    "a b%zz",
    "http://[::1]:8080/p",
    "//host.example",
    "mailto:someone@example.com",
    "http://h:/",
    None,
]

# The corpus with a NULL every 97th row, then the edge cases.
URLS = [None if i % 97 == 13 else u for i, u in enumerate(CORPUS)] + EDGES

BASE = "https://docs.example.org/guide/intro/index.html?x=1#top"
REFS = ["../g", "./a/b?x#y", "//other/p", "?q", "", "#frag", "HTTP://X/./y", None, "g;p"] * 40


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.parent.name == "engines":
            item.add_marker(pytest.mark.engine)


@pytest.fixture(scope="session")
def urls():
    return URLS


@pytest.fixture(scope="session")
def base():
    return BASE


@pytest.fixture(scope="session")
def refs():
    return REFS


@pytest.fixture(scope="session")
def column():
    """The URLs as a pyarrow string array: what fasturi.arrow is given."""
    return pa.array(URLS, type=pa.string())
