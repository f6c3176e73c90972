"""Every URL of the shared corpus (urls.txt) and every base/reference pair
(refs.tsv) gives the same urlsplit, urlparse and urljoin outcome -- value,
result type, or exception type and message -- as the running stdlib."""

from __future__ import annotations

import os
import urllib.parse as std
from pathlib import Path

import pytest
from outcomes import outcome

import fasturi.parse as fp

CORPUS = Path(
    os.environ.get("FASTURI_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus"
)
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the shared URL corpus is not checked out at {CORPUS}"
)


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    fp.uninstall()


def lines(name: str) -> list[str]:
    with open(CORPUS / name, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]  # the file ends with a newline


def mismatches(name, cases):
    ours, theirs = getattr(fp, name), getattr(std, name)
    raw = getattr(theirs, "__wrapped__", theirs)  # no need to fill the stdlib's cache
    if name == "urlsplit":
        theirs = raw
    return [args for args in cases if outcome(ours, *args) != outcome(theirs, *args)]


def test_urls_split_and_parse():
    urls = lines("urls.txt")
    assert len(urls) > 10_000
    cases = [(u,) for u in urls]
    assert mismatches("urlsplit", cases)[:5] == []
    assert mismatches("urlparse", cases)[:5] == []
    # the corpus's few rejected URLs are rejected with the stdlib's message
    rejected = [u for u in urls if outcome(fp.urlsplit, u)[0] == "raise"]
    assert 0 < len(rejected) < 50


def test_refs_join():
    pairs = [tuple(line.split("\t")) for line in lines("refs.tsv")]
    assert len(pairs) > 10_000 and all(len(p) == 2 for p in pairs)
    assert mismatches("urljoin", pairs)[:5] == []
