"""csrc/fasturi_idna_data.h and src/fasturi/_idna_tables.py: the committed
tables are what csrc/gen_idna.py writes from the idna package's IDNA
Mapping Table and unicodedata2, both of the one Unicode version fasturi's
IDNA uses; and the reference's properties read back as those sources give
them."""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parent.parent / "csrc"

# unicodedata2 does not declare that it runs without the GIL: on a
# free-threaded interpreter importing it would turn the GIL on for the rest
# of the run.  There these tests run in a child interpreter whose GIL is
# held off (-X gil=0: they are one thread), and only there.
_IN_CHILD = "FASTURI_IDNA_TABLES_CHILD"
_FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
in_child = pytest.mark.skipif(
    _FREE_THREADED and _IN_CHILD not in os.environ,
    reason="run by test_in_a_child_with_the_gil_held_off",
)


if _FREE_THREADED and _IN_CHILD not in os.environ:

    def test_in_a_child_with_the_gil_held_off():
        child = subprocess.run(
            [
                sys.executable,
                "-X",
                "gil=0",
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                __file__,
            ],
            env={**os.environ, _IN_CHILD: "1"},
            capture_output=True,
            text=True,
        )
        assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-3000:]
        assert " passed" in child.stdout.splitlines()[-1]


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("gen_idna", CSRC / "gen_idna.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def data(gen):
    return gen.Data()


@in_child
def test_tables_are_generated(gen, data):
    assert gen.render_header(data) == gen.HEADER.read_text(encoding="ascii")
    assert gen.render_module(data) == gen.MODULE.read_text(encoding="utf-8")


@in_child
def test_idna2003_tables_are_generated(gen):
    # from this Python's stringprep and unicodedata.ucd_3_2_0: the same data
    # on every interpreter the suite runs on
    assert gen.render_header_2003(gen.Data2003()) == gen.HEADER_2003.read_text(encoding="ascii")


@in_child
def test_one_unicode_version(gen):
    import idna.uts46data
    import unicodedata2

    from fasturi import _idna_c, _idna_py

    assert idna.uts46data.__version__ == unicodedata2.unidata_version == gen.UNICODE_VERSION
    assert _idna_py.UNICODE_VERSION == _idna_c.UNICODE_VERSION == gen.UNICODE_VERSION


def _sample():
    """Every code point below U+3400 and after U+10000 a random one in 50."""
    rng = random.Random(46)
    return [cp for cp in range(0x110000) if cp < 0x3400 or rng.randrange(50) == 0]


@in_child
def test_reference_properties_are_unicodedata2s():
    import unicodedata2 as ucd

    from fasturi import _idna_py as ref

    for cp in _sample():
        if 0xD800 <= cp < 0xE000:
            continue
        c = chr(cp)
        assert ref.combining_class(c) == ucd.combining(c), hex(cp)
        assert ref.is_mark(c) == ucd.category(c).startswith("M"), hex(cp)
        bidi = ucd.bidirectional(c)
        assert ref.bidi_class(c) == (bidi if bidi in ref.T.BIDI_VALUES else ""), hex(cp)


@in_child
def test_reference_uts46_is_the_idna_packages():
    import idna

    from fasturi import _idna_py as ref

    for cp in _sample():
        c = chr(cp)
        status = ref.uts46_status(c)
        if status == "M":
            assert idna.uts46_remap(c, std3_rules=False, transitional=False) == ref.uts46_mapping(c)
        elif status in "VD":
            assert idna.uts46_remap(c, std3_rules=False, transitional=False) == c


@in_child
def test_reference_nfc_is_unicodedata2s():
    import unicodedata2 as ucd

    from fasturi import _idna_py as ref

    rng = random.Random(15)
    # code points that decompose, compose, reorder: Latin, Greek, Hangul,
    # Indic, combining marks of many classes
    alphabet = [
        chr(cp)
        for cp in list(range(0x41, 0x250))
        + list(range(0x300, 0x370))
        + list(range(0x1F00, 0x2000))
        + list(range(0x1100, 0x1200))
        + list(range(0xAC00, 0xAC80))
        + list(range(0x900, 0x980))
        + list(range(0x0B40, 0x0B60))
        + [0x0344, 0x0F73, 0x1D15E, 0x2ADC, 0xFB2C, 0x0958]
    ]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12)))
        assert ref.nfc(text) == ucd.normalize("NFC", text), ascii(text)
    for cp in _sample():
        if not 0xD800 <= cp < 0xE000:
            assert ref.nfc(chr(cp)) == ucd.normalize("NFC", chr(cp)), hex(cp)
