"""Generate the Unicode data of IDNA: csrc/fasturi_idna_data.h (the compiled
twin's tables) and src/fasturi/_idna_tables.py (the reference's), from one
Unicode version.

Every property UTS #46 processing reads comes from the same version, that of
the IDNA Mapping Table: the table is the ``idna`` package's
(``idna.uts46data``), and normalization (canonical decompositions, canonical
combining classes, composition exclusions), general category, bidi class and
joining type come from ``unicodedata2`` and ``idna.idnadata`` of that same
version.  The generator refuses to run when the three disagree, so a table
is never stitched from two versions.

It also writes csrc/fasturi_idna2003_data.h, the data of IDNA 2003 as
Python's ``idna`` codec runs it (``encodings.idna``: nameprep's stringprep
tables and NFKC of Unicode 3.2), from the running Python's ``stringprep``
and ``unicodedata.ucd_3_2_0``: frozen data, the same on every Python, for
the code points Unicode 3.2 assigns (the only ones it tabulates: the rest
need the running Python's ``str.lower``).

Run ``python csrc/gen_idna.py`` (with ``idna`` and ``unicodedata2`` of the
version in ``UNICODE_VERSION``) after changing it; ``tests/test_idna_tables.py``
regenerates the files and fails if a committed copy differs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

UNICODE_VERSION = "18.0.0"

HERE = Path(__file__).resolve().parent
HEADER = HERE / "fasturi_idna_data.h"
HEADER_2003 = HERE / "fasturi_idna2003_data.h"
MODULE = HERE.parent / "src" / "fasturi" / "_idna_tables.py"

# UTS #46 §5 status values (Transitional_Processing is never used: a
# deviation is valid, and is kept apart only in the reference's table)
STATUS_C = {"V": 0, "D": 0, "I": 1, "M": 2, "X": 3}
# The bidi classes RFC 5893 §2 names; every other class (B, S, WS, the
# embedding, override and isolate controls) is "other" and allowed nowhere.
BIDI = ("L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "ON")
BIDI_OTHER = len(BIDI)
# Joining_Type (RFC 5892 Appendix A.1 reads L, D, R and T); U is none
JOINING = ("U", "L", "D", "R", "T", "C")
# the Hangul syllable algorithm (Unicode §3.12)
S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
S_COUNT = L_COUNT * V_COUNT * T_COUNT
MAX_CP = 0x110000


def _sources():
    import idna
    import unicodedata2
    from idna import idnadata, uts46data

    versions = {
        "idna.uts46data": uts46data.__version__,
        "idna.idnadata": idnadata.__version__,
        "unicodedata2": unicodedata2.unidata_version,
    }
    if set(versions.values()) != {UNICODE_VERSION}:
        raise SystemExit(f"need Unicode {UNICODE_VERSION} throughout, have {versions}")
    return idna, unicodedata2, uts46data, idnadata


class Data:
    """The properties, read once from the sources."""

    def __init__(self) -> None:
        _idna, ucd, uts46data, idnadata = _sources()
        self.ucd = ucd
        # UTS #46: rows of (first code point, status letter, mapping)
        self.uts46_rows: List[Tuple[int, str, str]] = [
            (start, chr(status), mapping or "")
            for start, status, mapping in zip(
                uts46data.uts46_starts, uts46data.uts46_statuses, uts46data.uts46_replacements
            )
        ]
        self.status = [""] * MAX_CP
        self.mapping: List[str] = [""] * MAX_CP
        rows = self.uts46_rows + [(MAX_CP, "", "")]
        for (start, status, mapping), (end, _s, _m) in zip(rows, rows[1:]):
            for cp in range(start, end):
                self.status[cp] = status
                self.mapping[cp] = mapping
        self.jt = [0] * MAX_CP
        for name, ranges in idnadata.joining_types.items():
            for packed in ranges:
                for cp in range(packed >> 32, packed & 0xFFFFFFFF):
                    self.jt[cp] = JOINING.index(name)
        self.ccc = [0] * MAX_CP
        self.mark = [False] * MAX_CP
        self.bidi = [BIDI_OTHER] * MAX_CP
        self.decomposition: Dict[int, Tuple[int, ...]] = {}
        for cp in range(MAX_CP):
            if 0xD800 <= cp < 0xE000:
                continue
            c = chr(cp)
            self.ccc[cp] = ucd.combining(c)
            self.mark[cp] = ucd.category(c).startswith("M")
            b = ucd.bidirectional(c)
            self.bidi[cp] = BIDI.index(b) if b in BIDI else BIDI_OTHER
            d = ucd.decomposition(c)
            if d and not d.startswith("<") and not S_BASE <= cp < S_BASE + S_COUNT:
                self.decomposition[cp] = tuple(int(x, 16) for x in d.split())
        # Full_Composition_Exclusion: a canonical decomposition NFC does
        # not recompose (the exclusion list, singletons, non-starters)
        self.excluded = sorted(
            cp for cp in self.decomposition if ucd.normalize("NFC", chr(cp)) != chr(cp)
        )
        excluded = set(self.excluded)
        self.compositions = sorted(
            (d[0], d[1], cp)
            for cp, d in self.decomposition.items()
            if cp not in excluded and len(d) == 2
        )
        # (a singleton or a longer mapping is always excluded)
        assert all(len(d) == 2 for cp, d in self.decomposition.items() if cp not in excluded)
        self._check_nfc()

    def full_decomposition(self, cp: int) -> Tuple[int, ...]:
        if S_BASE <= cp < S_BASE + S_COUNT:
            s = cp - S_BASE
            out = (L_BASE + s // (V_COUNT * T_COUNT), V_BASE + s % (V_COUNT * T_COUNT) // T_COUNT)
            return out + ((T_BASE + s % T_COUNT,) if s % T_COUNT else ())
        d = self.decomposition.get(cp)
        if d is None:
            return (cp,)
        return tuple(x for part in d for x in self.full_decomposition(part))

    def nfc_quick_check(self, cp: int) -> int:
        """NFC_Quick_Check: 0 Yes, 1 Maybe (may compose with what precedes
        it), 2 No (never in NFC)."""
        if cp in self._excluded_set:
            return 2
        if cp in self._seconds or V_BASE <= cp < V_BASE + V_COUNT or T_BASE < cp < T_BASE + T_COUNT:
            return 1
        return 0

    def _check_nfc(self) -> None:
        self._excluded_set = set(self.excluded)
        self._seconds = {second for _f, second, _c in self.compositions}
        ucd = self.ucd
        for cp in range(MAX_CP):
            if 0xD800 <= cp < 0xE000:
                continue
            want = ucd.normalize("NFD", chr(cp))
            assert "".join(map(chr, self.full_decomposition(cp))) == want, hex(cp)


# -- the reference's tables ---------------------------------------------------


def _ranges(values: Sequence[object]) -> Tuple[List[int], List[object]]:
    starts: List[int] = []
    kept: List[object] = []
    for cp, v in enumerate(values):
        if not kept or kept[-1] != v:
            starts.append(cp)
            kept.append(v)
    return starts, kept


def _wrap(items: List[str], indent: str = "    ", width: int = 96) -> List[str]:
    lines: List[str] = []
    line = indent
    for item in items:
        if len(line) + len(item) + 2 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + ", "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def render_module(data: Data) -> str:
    out = [
        f'"""The Unicode {UNICODE_VERSION} data of IDNA, for the reference twin.',
        "",
        "GENERATED by csrc/gen_idna.py from the idna package's IDNA Mapping Table",
        "and unicodedata2, both of this version; do not edit.  Each property is a",
        "list of ranges: ``*_STARTS`` holds each range's first code point, and the",
        "value of code point c is ``*_VALUES[bisect_right(*_STARTS, c) - 1]``.",
        '"""',
        "",
        "# ruff: noqa: E501",
        "",
        f'UNICODE_VERSION = "{UNICODE_VERSION}"',
        "",
        "# UTS #46 §5, IDNA Mapping Table: status V (valid), D (deviation), I",
        "# (ignored), M (mapped) or X (disallowed); UTS46_MAPPINGS holds what",
        "# each code point of a mapped range maps to (a range holds one code",
        "# point, or code points mapped alike).",
    ]
    starts = [r[0] for r in data.uts46_rows]
    out.append("UTS46_STARTS = (")
    out += _wrap([str(s) for s in starts])
    out.append(")")
    out.append("UTS46_STATUSES = (")
    statuses = "".join(r[1] for r in data.uts46_rows)
    for i in range(0, len(statuses), 88):
        out.append(f'    "{statuses[i : i + 88]}"')
    out.append(")")
    out.append("UTS46_MAPPINGS = {")
    out += _wrap([f"{r[0]}: {ascii(r[2])}" for r in data.uts46_rows if r[1] == "M"])
    out.append("}")

    def ranges(name: str, doc: str, values: Sequence[object], fmt=str) -> None:
        s, v = _ranges(values)
        out.extend(["", doc, f"{name}_STARTS = ("])
        out.extend(_wrap([str(x) for x in s]))
        out.append(")")
        out.append(f"{name}_VALUES = (")
        out.extend(_wrap([fmt(x) for x in v]))
        out.append(")")

    ranges("CCC", "# Canonical_Combining_Class", data.ccc)
    ranges("MARK", "# General_Category is a Mark (Mn, Mc, Me)", [int(m) for m in data.mark])
    ranges(
        "BIDI",
        '# Bidi_Class, by name ("" for the classes RFC 5893 allows nowhere)',
        [BIDI[b] if b < BIDI_OTHER else "" for b in data.bidi],
        lambda x: f'"{x}"',
    )
    ranges(
        "JOINING",
        "# Joining_Type (U: non-joining)",
        [JOINING[j] for j in data.jt],
        lambda x: f'"{x}"',
    )
    out += [
        "",
        "# Canonical decomposition mappings (one level; Hangul syllables by",
        "# algorithm)",
    ]
    out.append("DECOMPOSITION = {")
    out += _wrap(
        [
            f"{cp}: {d!r}".replace(",)", ")") if len(d) > 1 else f"{cp}: ({d[0]},)"
            for cp, d in sorted(data.decomposition.items())
        ]
    )
    out.append("}")
    out += ["", "# Full_Composition_Exclusion among them: what NFC never composes"]
    out.append("COMPOSITION_EXCLUSIONS = frozenset((")
    out += _wrap([str(cp) for cp in data.excluded])
    out.append("))")
    out.append("")
    return "\n".join(out)


# -- the compiled twin's tables -----------------------------------------------


def _trie(values: List[int], shift: int) -> Tuple[List[int], List[int]]:
    """A two-stage table: index[cp >> shift] is a block, and the value of cp
    is blocks[block << shift | (cp & mask)]."""
    size = 1 << shift
    index: List[int] = []
    blocks: List[int] = []
    seen: Dict[Tuple[int, ...], int] = {}
    for base in range(0, MAX_CP, size):
        block = tuple(values[base : base + size])
        if block not in seen:
            seen[block] = len(seen)
            blocks.extend(block)
        index.append(seen[block])
    return index, blocks


def _c_array(
    ctype: str, name: str, values: Sequence[int], per_line: int = 12, fmt: str = "{}"
) -> List[str]:
    lines = [f"static const {ctype} {name}[{len(values)}] = {{"]
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(fmt.format(v) for v in values[i : i + per_line]) + ",")
    lines.append("};")
    return lines


def compiled_records(data: Data):
    """Each code point's record (its properties packed in 32 bits, and its
    mapping), the distinct records, and the mapping pool."""
    pool: List[int] = []
    pool_at: Dict[str, int] = {}
    records: Dict[Tuple[int, int], int] = {}
    per_cp = [0] * MAX_CP
    for cp in range(MAX_CP):
        st = STATUS_C[data.status[cp]]
        m = data.mapping[cp] if data.status[cp] == "M" else ""
        if len(m) == 1:
            value = ord(m) - cp  # a delta: case pairs share it
        elif m:
            if m not in pool_at:
                pool_at[m] = len(pool)
                pool.extend(map(ord, m))
            value = pool_at[m]
        else:
            value = 0
        assert len(m) < 32
        qc = data.nfc_quick_check(cp)
        decomposes = cp in data.decomposition or S_BASE <= cp < S_BASE + S_COUNT
        bits = (
            st
            | data.mark[cp] << 2
            | data.bidi[cp] << 3
            | data.jt[cp] << 7
            | qc << 10
            | decomposes << 12
            | data.ccc[cp] << 13
            | len(m) << 21
        )
        key = (bits, value)
        if key not in records:
            records[key] = len(records)
        per_cp[cp] = records[key]
    return per_cp, list(records), pool


def render_header(data: Data) -> str:
    per_cp, records, pool = compiled_records(data)
    assert len(records) < 1 << 16
    best = min(
        range(5, 10), key=lambda s: (lambda t: len(t[0]) * 2 + len(t[1]) * 2)(_trie(per_cp, s))
    )
    index, blocks = _trie(per_cp, best)
    assert max(index) < 1 << 16
    decomposed = sorted(data.decomposition)
    dec_pool: List[int] = []
    dec_at: List[int] = []
    for cp in decomposed:
        full = data.full_decomposition(cp)
        assert len(full) <= 4
        dec_at.append(len(dec_pool) << 2 | (len(full) - 1))
        dec_pool.extend(full)
    bidi_names = ", ".join(f"FU_BIDI_{b}" for b in BIDI)
    lines = [
        "/* fasturi_idna_data.h: the Unicode " + UNICODE_VERSION + " data of IDNA (UTS #46 status",
        " * and mapping, NFC, general category Mark, bidi class, joining type).",
        " * GENERATED by csrc/gen_idna.py from the idna package's IDNA Mapping",
        " * Table and unicodedata2, both of this version; do not edit.",
        " *",
        " * A code point's record (fu_idna_record in fasturi_idna.h, through a",
        " * two-stage trie) is a 32-bit word of properties (the FU_IDNA_* fields",
        " * below) and a mapping value (for a code point mapped to one code point,",
        " * the difference between the two; to more, an offset into",
        " * fu_idna_map_pool). */",
        "#ifndef FASTURI_IDNA_DATA_H",
        "#define FASTURI_IDNA_DATA_H",
        "",
        "#include <stdint.h>",
        "",
        "/* clang-format off */",
        f'#define FU_IDNA_UNICODE_VERSION "{UNICODE_VERSION}"',
        "",
        "/* the fields of a record's word */",
        "#define FU_IDNA_STATUS(w) ((w) & 3u)         /* FU_IDNA_VALID ... */",
        "#define FU_IDNA_MARK(w) (((w) >> 2) & 1u)     /* General_Category M */",
        "#define FU_IDNA_BIDI(w) (((w) >> 3) & 15u)    /* FU_BIDI_* */",
        "#define FU_IDNA_JOINING(w) (((w) >> 7) & 7u)  /* FU_JT_* */",
        "#define FU_IDNA_NFC_QC(w) (((w) >> 10) & 3u)  /* 0 yes, 1 maybe, 2 no */",
        "#define FU_IDNA_DECOMPOSES(w) (((w) >> 12) & 1u)",
        "#define FU_IDNA_CCC(w) (((w) >> 13) & 255u)   /* Canonical_Combining_Class */",
        "#define FU_IDNA_MAP_LEN(w) ((w) >> 21)        /* code points mapped to */",
        "",
        "/* UTS #46 status (a deviation is valid: processing is nontransitional) */",
        "enum { FU_IDNA_VALID, FU_IDNA_IGNORED, FU_IDNA_MAPPED, FU_IDNA_DISALLOWED };",
        f"enum {{ {bidi_names}, FU_BIDI_OTHER }};",
        "enum { " + ", ".join(f"FU_JT_{j}" for j in JOINING) + " };",
        "",
        "typedef struct {",
        "    uint32_t word;",
        "    int32_t map;",
        "} fu_idna_rec;",
        "",
    ]
    lines += _c_array("uint16_t", "fu_idna_index", index, 16)
    lines += _c_array("uint16_t", "fu_idna_blocks", blocks, 16)
    lines.append(f"static const fu_idna_rec fu_idna_records[{len(records)}] = {{")
    for i in range(0, len(records), 4):
        lines.append("    " + " ".join(f"{{0x{w:08x}u, {v}}}," for w, v in records[i : i + 4]))
    lines.append("};")
    lines += _c_array("uint32_t", "fu_idna_map_pool", pool, 10, "0x{:x}")
    lines += [
        "",
        "/* Canonical decompositions, full (Hangul syllables by algorithm): the",
        " * code points, sorted, and for each its offset into fu_idna_dec_pool",
        " * times 4 plus its length less one. */",
    ]
    lines += _c_array("uint32_t", "fu_idna_dec_cp", decomposed, 10, "0x{:x}")
    lines += _c_array("uint16_t", "fu_idna_dec_at", dec_at, 12)
    lines += _c_array("uint32_t", "fu_idna_dec_pool", dec_pool, 10, "0x{:x}")
    lines += [
        "",
        "/* Primary composites: (first << 21 | second), sorted, and what the pair",
        " * composes to. */",
    ]
    lines += _c_array(
        "uint64_t",
        "fu_idna_comp_key",
        [f << 21 | s for f, s, _c in data.compositions],
        4,
        "0x{:x}ull",
    )
    lines += _c_array(
        "uint32_t", "fu_idna_comp_cp", [c for _f, _s, c in data.compositions], 10, "0x{:x}"
    )
    lines += [
        "",
        "/* the trie's shift: fu_idna_index[cp >> FU_IDNA_SHIFT] is the block */",
        f"#define FU_IDNA_SHIFT {best}",
        "/* clang-format on */",
        "",
        "#endif /* FASTURI_IDNA_DATA_H */",
        "",
    ]
    return "\n".join(lines)


# -- IDNA 2003 (Python's idna codec) -------------------------------------------


class Data2003:
    """Nameprep (RFC 3491: stringprep's tables B.1, B.2, C.*, D.1, D.2) and
    NFKC of Unicode 3.2, as Python's ``stringprep`` and
    ``unicodedata.ucd_3_2_0`` give them; what w3lib does to a host before
    the codec (``str.lower``, then NFKC); for each code point Unicode 3.2
    assigns."""

    def __init__(self) -> None:
        import stringprep
        import unicodedata

        u = unicodedata.ucd_3_2_0
        self.assigned = [False] * MAX_CP
        self.b1 = [False] * MAX_CP
        self.prohibited = [False] * MAX_CP
        self.randal = [False] * MAX_CP
        self.lcat = [False] * MAX_CP
        self.corrigendum = [False] * MAX_CP
        self.ccc = [0] * MAX_CP
        self.b2: Dict[int, str] = {}
        self.lower: Dict[int, str] = {}
        self.decomposition: Dict[int, Tuple[int, ...]] = {}
        for cp in range(MAX_CP):
            if 0xD800 <= cp < 0xE000:
                continue
            c = chr(cp)
            if u.category(c) == "Cn":
                continue
            # a capital whose str.lower is a letter of a later Unicode (the
            # Georgian and Cherokee capitals): B.3 maps it so up to Python
            # 3.13, and to itself from 3.14 (stringprep pins 3.2's tables),
            # so the running Python's codec answers for it, as for what 3.2
            # does not assign
            if any(u.category(x) == "Cn" for x in c.lower()):
                continue
            self.assigned[cp] = True
            self.b1[cp] = stringprep.in_table_b1(c)
            self.prohibited[cp] = any(
                f(c)
                for f in (
                    stringprep.in_table_c12,
                    stringprep.in_table_c22,
                    stringprep.in_table_c3,
                    stringprep.in_table_c4,
                    stringprep.in_table_c5,
                    stringprep.in_table_c6,
                    stringprep.in_table_c7,
                    stringprep.in_table_c8,
                    stringprep.in_table_c9,
                )
            )
            self.randal[cp] = stringprep.in_table_d1(c)
            self.lcat[cp] = stringprep.in_table_d2(c)
            self.corrigendum[cp] = u.normalize("NFKC", c) != unicodedata.normalize("NFKC", c)
            self.ccc[cp] = u.combining(c)
            if not self.b1[cp] and stringprep.map_table_b2(c) != c:
                self.b2[cp] = stringprep.map_table_b2(c)
            if c.lower() != c:
                self.lower[cp] = c.lower()
            d = u.decomposition(c)
            if d and not S_BASE <= cp < S_BASE + S_COUNT:
                self.decomposition[cp] = tuple(
                    int(x, 16) for x in d.split() if not x.startswith("<")
                )
        # nothing the maps give is left out of the table
        for m in list(self.b2.values()) + list(self.lower.values()):
            assert all(self.assigned[ord(x)] for x in m), ascii(m)
        canonical = {
            cp for cp in self.decomposition if not u.decomposition(chr(cp)).startswith("<")
        }
        self.compositions = sorted(
            (self.decomposition[cp][0], self.decomposition[cp][1], cp)
            for cp in canonical
            if u.normalize("NFC", chr(cp)) == chr(cp)
        )
        # NFKD as ucd_3_2_0 normalizes (five CJK compatibility ideographs
        # decompose there as before Unicode 4.0's corrigendum, whatever its
        # decomposition() says)
        self.nfkd = {cp: tuple(map(ord, u.normalize("NFKD", chr(cp)))) for cp in self.decomposition}
        assert all(
            u.normalize("NFKD", chr(cp)) == chr(cp)
            for cp in range(MAX_CP)
            if self.assigned[cp]
            and cp not in self.decomposition
            and not S_BASE <= cp < S_BASE + S_COUNT
        )

    def full_decomposition(self, cp: int) -> Tuple[int, ...]:
        return self.nfkd[cp]


def render_header_2003(data: Data2003) -> str:
    pool: List[int] = []
    pool_at: Dict[str, int] = {}

    def value(cp: int, m: str) -> int:
        if len(m) == 1:
            return ord(m) - cp
        if m not in pool_at:
            pool_at[m] = len(pool)
            pool.extend(map(ord, m))
        return pool_at[m]

    records: Dict[Tuple[int, int, int], int] = {}
    per_cp = [0] * MAX_CP
    for cp in range(MAX_CP):
        b2 = data.b2.get(cp, "")
        low = data.lower.get(cp, "")
        assert len(b2) < 32 and len(low) < 32
        decomposes = cp in data.decomposition or S_BASE <= cp < S_BASE + S_COUNT
        bits = (
            data.assigned[cp]
            | data.b1[cp] << 1
            | data.prohibited[cp] << 2
            | data.randal[cp] << 3
            | data.lcat[cp] << 4
            | data.corrigendum[cp] << 5
            | decomposes << 6
            | data.ccc[cp] << 7
            | len(b2) << 15
            | len(low) << 20
        )
        key = (bits, value(cp, b2) if b2 else 0, value(cp, low) if low else 0)
        if key not in records:
            records[key] = len(records)
        per_cp[cp] = records[key]
    assert len(records) < 1 << 16
    best = min(
        range(5, 10), key=lambda s: (lambda t: len(t[0]) * 2 + len(t[1]) * 2)(_trie(per_cp, s))
    )
    index, blocks = _trie(per_cp, best)
    decomposed = sorted(data.decomposition)
    dec_pool: List[int] = []
    dec_at: List[int] = []
    for cp in decomposed:
        full = data.full_decomposition(cp)
        assert len(full) <= 32
        dec_at.append(len(dec_pool) << 5 | (len(full) - 1))
        dec_pool.extend(full)
    lines = [
        "/* fasturi_idna2003_data.h: the data of IDNA 2003 as Python's idna codec",
        " * (encodings.idna) runs it: nameprep's stringprep tables (RFC 3454 B.1,",
        " * B.2, C.1.2-C.9, D.1, D.2) and NFKC, of Unicode 3.2, and what w3lib does",
        " * to a host first (str.lower, NFKC), for each code point Unicode 3.2",
        " * assigns.  GENERATED by csrc/gen_idna.py from the running Python's",
        " * stringprep and unicodedata.ucd_3_2_0 (the same on every Python); do",
        " * not edit.",
        " *",
        " * A code point's record (fu_i3_record in fasturi_idna2003.h) is a word of",
        " * FU_I3_* fields and two mapping values (B.2's, str.lower's): for one",
        " * code point the difference, for more an offset into fu_i3_pool. */",
        "#ifndef FASTURI_IDNA2003_DATA_H",
        "#define FASTURI_IDNA2003_DATA_H",
        "",
        "#include <stdint.h>",
        "",
        "/* clang-format off */",
        "#define FU_I3_ASSIGNED(w) ((w) & 1u)        /* tabulated: assigned in 3.2 */",
        "#define FU_I3_B1(w) (((w) >> 1) & 1u)       /* B.1: mapped to nothing */",
        "#define FU_I3_PROHIBITED(w) (((w) >> 2) & 1u) /* C.1.2, C.2.2, C.3-C.9 */",
        "#define FU_I3_RANDAL(w) (((w) >> 3) & 1u)   /* D.1 */",
        "#define FU_I3_LCAT(w) (((w) >> 4) & 1u)     /* D.2 */",
        "#define FU_I3_CORRIGENDUM(w) (((w) >> 5) & 1u) /* NFKC differs from 3.2's */",
        "#define FU_I3_DECOMPOSES(w) (((w) >> 6) & 1u)",
        "#define FU_I3_CCC(w) (((w) >> 7) & 255u)",
        "#define FU_I3_B2_LEN(w) (((w) >> 15) & 31u) /* B.2 mapping (0: itself) */",
        "#define FU_I3_LOWER_LEN(w) ((w) >> 20)       /* str.lower (0: itself) */",
        "",
        "typedef struct {",
        "    uint32_t word;",
        "    int32_t b2, lower;",
        "} fu_i3_rec;",
        "",
    ]
    lines += _c_array("uint16_t", "fu_i3_index", index, 16)
    lines += _c_array("uint16_t", "fu_i3_blocks", blocks, 16)
    recs = list(records)
    lines.append(f"static const fu_i3_rec fu_i3_records[{len(recs)}] = {{")
    for i in range(0, len(recs), 3):
        lines.append(
            "    " + " ".join(f"{{0x{w:08x}u, {b}, {lo}}}," for w, b, lo in recs[i : i + 3])
        )
    lines.append("};")
    lines += _c_array("uint32_t", "fu_i3_pool", pool, 10, "0x{:x}")
    lines += [
        "",
        "/* NFKC's full compatibility decompositions (Hangul syllables by",
        " * algorithm): the code points, sorted, and for each its offset into",
        " * fu_i3_dec_pool times 32 plus its length less one. */",
    ]
    lines += _c_array("uint32_t", "fu_i3_dec_cp", decomposed, 10, "0x{:x}")
    lines += _c_array("uint32_t", "fu_i3_dec_at", dec_at, 10)
    lines += _c_array("uint32_t", "fu_i3_dec_pool", dec_pool, 10, "0x{:x}")
    lines += ["", "/* Primary composites: (first << 21 | second), sorted, and the composite. */"]
    lines += _c_array(
        "uint64_t",
        "fu_i3_comp_key",
        [f << 21 | s for f, s, _c in data.compositions],
        4,
        "0x{:x}ull",
    )
    lines += _c_array(
        "uint32_t", "fu_i3_comp_cp", [c for _f, _s, c in data.compositions], 10, "0x{:x}"
    )
    lines += [
        "",
        f"#define FU_I3_SHIFT {best}",
        "/* clang-format on */",
        "",
        "#endif /* FASTURI_IDNA2003_DATA_H */",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    data = Data()
    HEADER.write_text(render_header(data), encoding="ascii")
    MODULE.write_text(render_module(data), encoding="utf-8")
    HEADER_2003.write_text(render_header_2003(Data2003()), encoding="ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main())
