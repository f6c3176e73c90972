"""Where the tests find real URLs.

Two corpora: the project's full benchmark corpus (``shared/corpus`` beside
the checkout, or the folder ``FASTURI_CORPUS`` names), when it is there,
and the deterministic sample of it that the package ships
(``src/fasturi/data``, see its PROVENANCE.md), always.  Tests that walk
one corpus take ``FOLDER``: the full one where it is, else the sample, so
that a clone anywhere (CI's included) runs them over fewer URLs instead of
skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(
    os.environ.get("FASTURI_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus"
)
PACKAGED = Path(__file__).resolve().parents[1] / "src" / "fasturi" / "data"

#: whether the full corpus is here
FULL = (SHARED / "urls.txt").is_file() and (SHARED / "refs.tsv").is_file()

#: the corpus of tests that walk one
FOLDER = SHARED if FULL else PACKAGED


def lines(path: Path) -> list[str]:
    """The file's lines, split at "\\n" only (URLs may hold \\x0b, \\x1c,
    U+2028, ...); the file ends with a newline."""
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]
