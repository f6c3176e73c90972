"""csrc/fasturi_chars.h: the committed table is what gen_chars.py writes, and
each of its classes is the character set of the ABNF it claims."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parent.parent / "csrc"
HEADER = CSRC / "fasturi_chars.h"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_chars", CSRC / "gen_chars.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parse(text):
    """(bit of each class, the 256 masks) as the C compiler will see them."""
    bits = {m[1]: int(m[2]) for m in re.finditer(r"#define FU_(\w+) \(1u << (\d+)\)", text)}
    body = re.search(r"fu_char_class\[256\] = \{(.*?)\};", text, re.DOTALL)
    assert body is not None
    table = [int(v, 16) for v in re.findall(r"0x[0-9a-f]+", body[1])]
    assert len(table) == 256
    return bits, table


def test_header_is_generated(tmp_path):
    out = tmp_path / "fasturi_chars.h"
    out.write_text(_generator().render(), encoding="ascii")
    assert out.read_text(encoding="ascii") == HEADER.read_text(encoding="ascii")


# Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
def _ends_authority(c):
    return re.fullmatch(r"//([^/?#]*)", "//" + c) is None


def _ends_path(c):
    return re.fullmatch(r"([^?#]*)", c) is None


# What each class claims, asked of the ABNF rules themselves.  A class
# "less pct-encoded" is the rule's single characters: "%" alone matches none.
CLAIMS = {
    "ALPHA": lambda r, c: r.is_valid(c, "ALPHA"),
    "DIGIT": lambda r, c: r.is_valid(c, "DIGIT"),
    "HEXDIG": lambda r, c: r.is_valid(c, "HEXDIG"),
    "UNRESERVED": lambda r, c: r.is_valid(c, "unreserved"),
    "GEN_DELIM": lambda r, c: r.is_valid(c, "gen-delims"),
    "SUB_DELIM": lambda r, c: r.is_valid(c, "sub-delims"),
    "SCHEME": lambda r, c: r.is_valid("a" + c, "scheme"),
    "PCHAR": lambda r, c: r.is_valid(c, "pchar"),
    "SEGNC": lambda r, c: r.is_valid(c, "segment-nz-nc"),
    "QUERY": lambda r, c: r.is_valid(c, "query") and r.is_valid(c, "fragment"),
    "USERINFO": lambda r, c: r.is_valid(c, "userinfo"),
    "REGNAME": lambda r, c: r.is_valid(c, "reg-name"),
    "IPVFUTURE": lambda r, c: r.is_valid("v1." + c, "IPvFuture"),
    "U2396": lambda r, c: r.is_valid(c, "unreserved", rfc=2396),
    "R2396": lambda r, c: r.is_valid(c, "reserved", rfc=2396),
    "URIC2396": lambda r, c: r.is_valid(c, "uric", rfc=2396),
    "PCHAR2396": lambda r, c: r.is_valid(c, "pchar", rfc=2396),
    "REGNAME2396": lambda r, c: r.is_valid(c, "reg_name", rfc=2396),
    "USERINFO2396": lambda r, c: r.is_valid(c, "userinfo", rfc=2396),
    "URICNS2396": lambda r, c: r.is_valid(c, "uric_no_slash", rfc=2396),
    "C0SPACE": lambda r, c: ord(c) <= 0x20,
    # RFC 5234 Appendix B.1: CTL = %x00-1F / %x7F
    "CTL": lambda r, c: ord(c) <= 0x1F or ord(c) == 0x7F,
    "END_AUTH": lambda r, c: _ends_authority(c),
    "END_PATH": lambda r, c: _ends_path(c),
}


def test_every_class_is_checked():
    bits, _ = _parse(HEADER.read_text(encoding="ascii"))
    assert set(bits) == set(CLAIMS)
    assert [name for name, _, _ in _generator().CLASSES] == list(bits)


@pytest.mark.parametrize("name", list(CLAIMS))
def test_class_matches_its_abnf(rules, name):
    bits, table = _parse(HEADER.read_text(encoding="ascii"))
    bit = 1 << bits[name]
    have = {b for b in range(256) if table[b] & bit}
    want = {b for b in range(256) if CLAIMS[name](rules, chr(b))}
    assert have == want, sorted(map(chr, have ^ want))
    assert all(b < 0x80 for b in have)


def test_nibble_tables_give_the_classes():
    # fu_class_low, as the 16-byte lookups read it, against fu_char_class
    text = HEADER.read_text(encoding="ascii")
    bits, table = _parse(text)
    body = re.search(r"fu_class_low\[\d+\]\[16\] = \{(.*?)\};", text, re.DOTALL)
    assert body is not None
    rows = [[int(v) for v in row.split(",")] for row in re.findall(r"\{([^{}]*)\}", body[1])]
    assert len(rows) == len(bits)
    for name, bit in bits.items():
        for c in range(256):
            looked_up = c < 0x80 and bool(rows[bit][c & 15] >> (c >> 4) & 1)
            assert looked_up == bool(table[c] >> bit & 1), (name, hex(c))
