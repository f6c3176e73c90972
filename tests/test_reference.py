"""docs/reference.md documents every public name, with the parameters the
code has (tests/engines/test_docs_engines.py checks the engine modules'
entries); no document points outside the repository."""

from __future__ import annotations

import re

from doc_blocks import DOCUMENTS, ROOT, check_entries, documented_names, public

import fasturi
import fasturi.arrow
import fasturi.parse


def test_the_rfc_api():
    expected = {f"fasturi.{n}": getattr(fasturi, n) for n in fasturi.__all__}
    expected["fasturi.__version__"] = fasturi.__version__
    assert check_entries(expected) == []


def test_the_uri_object():
    assert check_entries({f"URI.{n}": getattr(fasturi.URI, n) for n in public(fasturi.URI)}) == []


def test_parse():
    # the stdlib's functions: names only (their parameters are the stdlib's,
    # and grow with new Pythons)
    names = [*fasturi.parse.__all__, "install", "uninstall", "IMPLEMENTATION"]
    documented = documented_names()
    assert [n for n in names if f"fasturi.parse.{n}" not in documented] == []


def test_arrow():
    expected = {f"fasturi.arrow.{n}": getattr(fasturi.arrow, n) for n in fasturi.arrow.__all__}
    assert check_entries(expected) == []


def test_the_checks_see_a_wrong_entry():
    # the comparison itself: a function whose parameters the entry misstates
    def split(s, extra, *, option=None):
        pass

    assert check_entries({"fasturi.split": split}) == [
        "fasturi.split (docs/reference.md:"
        + str(documented_names()["fasturi.split"].line)
        + "): documented (s), the code has (s, extra, *, option)"
    ]
    assert check_entries({"fasturi.nothing": split}) == [
        "fasturi.nothing: no entry in docs/reference.md"
    ]


def test_no_document_points_outside_the_repository():
    # the documents once sent readers to an API.md that is not in the repository
    outside = re.compile(r"API\.md|API §|\]\((?:\.\./)+(?!src/|tests/|benchmarks/)")
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in DOCUMENTS
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert found == []
