"""URL corpora for the crawler-tool agreement tests.

The packaged benchmark sample (src/fasturi/data/urls.txt) is always there;
the project's full corpus (../shared/corpus/urls.txt, or $FASTURI_CORPUS)
is read when it is checked out beside the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ROOT / "src" / "fasturi" / "data" / "urls.txt"
SHARED = Path(os.environ.get("FASTURI_CORPUS") or ROOT.parent / "shared" / "corpus") / "urls.txt"


def urls(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]  # the file ends with a newline


def corpora() -> list[Path]:
    """The corpus files present: the packaged sample, and the full one if there."""
    return [PACKAGED] + ([SHARED] if SHARED.is_file() else [])
