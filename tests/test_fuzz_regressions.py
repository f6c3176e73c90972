"""Replay the fuzz targets on the seed examples and on every input a fuzzer
ever failed on (tests/fuzz_regressions/<target>-<name>), so a crash found once
stays fixed.  The targets compare the twins, so this runs with both built."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))

pytestmark = pytest.mark.parity

REGRESSIONS = Path(__file__).with_name("fuzz_regressions")


def _cases():
    # Imported here, not at collection: the targets import the compiled
    # twins, which the pure run (FASTURI_NO_EXTENSIONS=1) may not have.
    from seed import EXAMPLES, encode

    for a, b in zip(EXAMPLES, EXAMPLES[1:] + EXAMPLES[:1]):
        yield f"seed:{a!r}", encode(a) + encode(b)
    for path in sorted(REGRESSIONS.glob("*-*")):
        yield path.name, path.read_bytes()


@pytest.fixture(scope="module")
def targets():
    import targets as mod

    return mod.TARGETS


@pytest.fixture(scope="module")
def cases():
    return list(_cases())


@pytest.mark.parametrize(
    "name",
    [
        "split",
        "uri",
        "resolve",
        "normalize",
        "validate",
        "percent",
        "extract",
        "parse",
        "crawler",
        "idna",
    ],
)
def test_target_holds_on_seeds_and_regressions(targets, cases, name):
    for label, data in cases:
        if label.startswith("seed:") or label.startswith(name + "-"):
            targets[name](data)
