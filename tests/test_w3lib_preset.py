"""canonicalize(preset="w3lib") (docs/reference.md §4): the key of
w3lib.url.canonicalize_url, for crawlers that keep scrapy's dedup keys, both
twins (agreement with w3lib itself: test_w3lib_agreement.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from crawler_corpus import W3LIB_EXAMPLES as EXAMPLES
from crawler_corpus import W3LIB_PIECES, outcome
from hypothesis import given
from hypothesis import strategies as st

import fasturi


@pytest.mark.parametrize(("url", "want"), sorted(EXAMPLES.items()))
def test_examples(pipeline, url, want):
    assert pipeline.canonicalize(url, preset="w3lib") == want


def test_many(pipeline):
    items = ["http://a.com/?b&a", "http://a.com/#x", 7]
    assert pipeline.canonicalize_many(items, preset="w3lib", errors="none") == [
        "http://a.com/?a=&b=",
        "http://a.com/",
        None,
    ]
    assert pipeline.canonicalize_many(items[:2], preset="w3lib", drop_fragment=False) == [
        "http://a.com/?a=&b=",
        "http://a.com/#x",
    ]
    with pytest.raises(TypeError, match=r"^canonicalize_many\(\) item 2 must be str, not int$"):
        pipeline.canonicalize_many(items, preset="w3lib")


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "scrapy"},
        {"preset": "w3lib", "sort_query": False},
        {"preset": "w3lib", "drop_params": ["utm_*"]},
    ],
)
def test_bad_options(pipeline, options):
    with pytest.raises(ValueError, match=r"^canonicalize\(\) "):
        pipeline.canonicalize("http://a/", **options)


def test_preset_none_is_unchanged(pipeline):
    url = "HTTP://Example.com:80/a/./b?z=1&a=2#f"
    assert pipeline.canonicalize(url, preset=None) == pipeline.canonicalize(url)
    assert fasturi.canonicalize(url) == "http://example.com/a/b?a=2&z=1"


@pytest.mark.parity
@given(st.lists(W3LIB_PIECES, max_size=25).map("".join), st.booleans())
def test_compiled_agrees_with_reference(url, keep):
    compiled = importlib.import_module("fasturi._w3lib_c")
    reference = importlib.import_module("fasturi._w3lib_py")
    assert outcome(compiled.key, url, keep) == outcome(reference.key, url, keep)


@pytest.mark.compiled
def test_compiled_imports_no_reference():
    # the compiled twin takes every input itself or through the shared
    # _w3lib steps: the reference twin is never imported
    code = (
        "import sys, fasturi\n"
        "for u in ['http://B\\u00fccher.example/', 'http://[v1.x]/', 'x\\\\y', 'http://a:9/',\n"
        "          'http://\\U00010570.com/', '//h/p']:\n"
        "    fasturi.canonicalize(u, preset='w3lib')\n"
        "print('fasturi._w3lib_py' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
