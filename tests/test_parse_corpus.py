"""Every URL of the shared corpus (urls.txt) and every base/reference pair
(refs.tsv) gives the same urlsplit, urlparse and urljoin outcome -- value,
result type, or exception type and message -- as the running stdlib."""

from __future__ import annotations

import urllib.parse as std

import corpus_files
import pytest
from outcomes import outcome

import fasturi.parse as fp


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    fp.uninstall()


def lines(name: str) -> list[str]:
    return corpus_files.lines(corpus_files.FOLDER / name)


def mismatches(name, cases):
    ours, theirs = getattr(fp, name), getattr(std, name)
    raw = getattr(theirs, "__wrapped__", theirs)  # no need to fill the stdlib's cache
    if name == "urlsplit":
        theirs = raw
    return [args for args in cases if outcome(ours, *args) != outcome(theirs, *args)]


def test_urls_split_and_parse():
    urls = lines("urls.txt")
    assert len(urls) > (10_000 if corpus_files.FULL else 4_000), str(corpus_files.FOLDER)
    cases = [(u,) for u in urls]
    assert mismatches("urlsplit", cases)[:5] == []
    assert mismatches("urlparse", cases)[:5] == []
    # the corpus's few rejected URLs are rejected with the stdlib's message
    # (the packaged sample has none)
    rejected = [u for u in urls if outcome(fp.urlsplit, u)[0] == "raise"]
    assert len(rejected) < 50
    assert rejected or not corpus_files.FULL


def test_refs_join():
    pairs = [tuple(line.split("\t")) for line in lines("refs.tsv")]
    assert len(pairs) > (10_000 if corpus_files.FULL else 2_000), str(corpus_files.FOLDER)
    assert all(len(p) == 2 for p in pairs)
    assert mismatches("urljoin", pairs)[:5] == []
