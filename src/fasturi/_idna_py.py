"""IDNA as the WHATWG URL Standard runs it: the reference twin of ``_idna_c``.

It reads like the specifications beside it: the URL Standard's "IDNA"
section (the domain parser and domain to Unicode), UTS #46 §4 (Processing,
the Validity Criteria, ToASCII, ToUnicode), RFC 3492 (Punycode, with
32-bit integers whose overflow fails, as the RFC's sample code has it),
UAX #15 (NFC), RFC 5893 §2 (the bidi rule) and RFC 5892 Appendix A (the
CONTEXTJ rules).

Every Unicode property comes from ``_idna_tables``, generated from one
Unicode version (that of the IDNA Mapping Table), never from the running
Python's ``unicodedata``: the answers are the same on every Python.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import List, Sequence

from . import _idna_tables as T
from ._errors import type_error
from ._types import InvalidURL

__all__ = ["UNICODE_VERSION", "domain_to_ascii", "domain_to_unicode"]

UNICODE_VERSION = T.UNICODE_VERSION

# forbidden domain code point: a forbidden host code point, a C0 control,
# U+0025 (%), or U+007F DELETE
FORBIDDEN_DOMAIN = frozenset("\x00\t\n\r #/:<>?@[\\]^|%\x7f") | frozenset(map(chr, range(0x20)))


class IDNAError(Exception):
    """An error UTS #46 records (any one fails the domain)."""


# -- The Unicode properties ---------------------------------------------------


def _lookup(starts: Sequence[int], values: Sequence[object], c: str) -> object:
    return values[bisect_right(starts, ord(c)) - 1]


def uts46_status(c: str) -> str:
    """UTS #46 §5 status: V, D, I, M or X."""
    return T.UTS46_STATUSES[bisect_right(T.UTS46_STARTS, ord(c)) - 1]


def uts46_mapping(c: str) -> str:
    return T.UTS46_MAPPINGS[T.UTS46_STARTS[bisect_right(T.UTS46_STARTS, ord(c)) - 1]]


def combining_class(c: str) -> int:
    return _lookup(T.CCC_STARTS, T.CCC_VALUES, c)  # type: ignore[return-value]


def is_mark(c: str) -> bool:
    return bool(_lookup(T.MARK_STARTS, T.MARK_VALUES, c))


def bidi_class(c: str) -> str:
    return _lookup(T.BIDI_STARTS, T.BIDI_VALUES, c)  # type: ignore[return-value]


def joining_type(c: str) -> str:
    return _lookup(T.JOINING_STARTS, T.JOINING_VALUES, c)  # type: ignore[return-value]


# -- NFC (UAX #15) -----------------------------------------------------------

# Hangul syllables decompose and compose by algorithm (Unicode §3.12)
S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
N_COUNT = V_COUNT * T_COUNT
S_COUNT = L_COUNT * N_COUNT

# the primary composites: pairs that a canonical decomposition maps a code
# point to, less the Full_Composition_Exclusion
COMPOSITION = {
    pair: cp
    for cp, pair in T.DECOMPOSITION.items()
    if len(pair) == 2 and cp not in T.COMPOSITION_EXCLUSIONS
}


# NFC_Quick_Check (UAX #15 §9): No for what NFC never holds, Maybe for what
# may compose with the code point before it
NFC_QC_NO = T.COMPOSITION_EXCLUSIONS
NFC_QC_MAYBE = frozenset(second for _, second in COMPOSITION) | frozenset(
    [*range(V_BASE, V_BASE + V_COUNT), *range(T_BASE + 1, T_BASE + T_COUNT)]
)


def is_nfc_quick(text: str) -> bool:
    """Whether the quick check answers Yes: the text is NFC as it is."""
    last_class = 0
    for c in text:
        if c < "\u0300":  # Yes, and a starter
            last_class = 0
            continue
        cp = ord(c)
        cc = combining_class(c)
        if cp in NFC_QC_NO or cp in NFC_QC_MAYBE or (cc and last_class > cc):
            return False
        last_class = cc
    return True


def decompose(cp: int) -> List[int]:
    """The full canonical decomposition of a code point."""
    s = cp - S_BASE
    if 0 <= s < S_COUNT:
        parts = [L_BASE + s // N_COUNT, V_BASE + s % N_COUNT // T_COUNT]
        if s % T_COUNT:
            parts.append(T_BASE + s % T_COUNT)
        return parts
    mapping = T.DECOMPOSITION.get(cp)
    if mapping is None:
        return [cp]
    return [x for part in mapping for x in decompose(part)]


def compose(first: int, second: int) -> int:
    """The primary composite of two code points, or -1."""
    l_index, v_index = first - L_BASE, second - V_BASE
    if 0 <= l_index < L_COUNT and 0 <= v_index < V_COUNT:
        return S_BASE + (l_index * V_COUNT + v_index) * T_COUNT
    s_index, t_index = first - S_BASE, second - T_BASE
    if 0 <= s_index < S_COUNT and s_index % T_COUNT == 0 and 0 < t_index < T_COUNT:
        return first + t_index
    return COMPOSITION.get((first, second), -1)


def nfc(text: str) -> str:
    """Normalization Form C: canonical decomposition, canonical ordering,
    canonical composition."""
    if is_nfc_quick(text):
        return text
    decomposed = [x for c in text for x in decompose(ord(c))]
    # canonical ordering: each run of non-starters sorted (stably) by class
    ccc = [combining_class(chr(x)) for x in decomposed]
    i = 0
    while i < len(decomposed):
        if ccc[i] == 0:
            i += 1
            continue
        end = i
        while end < len(decomposed) and ccc[end] != 0:
            end += 1
        run = sorted(zip(ccc[i:end], decomposed[i:end]), key=lambda pair: pair[0])
        ccc[i:end] = [cc for cc, _ in run]
        decomposed[i:end] = [x for _, x in run]
        i = end
    # canonical composition: a code point joins the last starter when no
    # code point between them blocks it (a starter, or one of the same or
    # a higher class)
    output: List[int] = []
    starter = -1
    last_class = 256
    for x, cc in zip(decomposed, ccc):
        if starter >= 0 and (last_class < cc or (last_class == 0 and len(output) == starter + 1)):
            composite = compose(output[starter], x)
            if composite >= 0:
                output[starter] = composite
                continue
        if cc == 0:
            starter = len(output)
        last_class = cc
        output.append(x)
    return "".join(map(chr, output))


# -- Punycode (RFC 3492) -----------------------------------------------------

BASE, TMIN, TMAX, SKEW, DAMP, INITIAL_BIAS, INITIAL_N = 36, 1, 26, 38, 700, 72, 128
MAXINT = 0xFFFFFFFF  # §6.4: the integers are 32-bit unsigned; overflow fails


def adapt(delta: int, numpoints: int, firsttime: bool) -> int:
    """§6.1 Bias adaptation function."""
    delta = delta // DAMP if firsttime else delta // 2
    delta += delta // numpoints
    k = 0
    while delta > ((BASE - TMIN) * TMAX) // 2:
        delta //= BASE - TMIN
        k += BASE
    return k + (BASE - TMIN + 1) * delta // (delta + SKEW)


def threshold(k: int, bias: int) -> int:
    return TMIN if k <= bias else TMAX if k >= bias + TMAX else k - bias


def digit_value(c: str) -> int:
    if "a" <= c <= "z":
        return ord(c) - ord("a")
    if "A" <= c <= "Z":
        return ord(c) - ord("A")
    if "0" <= c <= "9":
        return ord(c) - ord("0") + 26
    return -1


def punycode_decode(text: str) -> str:
    """§6.2 Decoding procedure; raises IDNAError where it fails."""
    n, i, bias = INITIAL_N, 0, INITIAL_BIAS
    # the basic code points: those before the last delimiter, which is
    # consumed only when code points precede it
    b = text.rfind("-")
    output = list(text[:b]) if b > 0 else []
    pos = b + 1 if b > 0 else 0
    while pos < len(text):
        oldi, w = i, 1
        k = BASE
        while True:
            if pos >= len(text):
                raise IDNAError("Punycode ends inside a number")
            digit = digit_value(text[pos])
            pos += 1
            if digit < 0:
                raise IDNAError("not a Punycode digit")
            i += digit * w
            if i > MAXINT:
                raise IDNAError("Punycode overflows")
            t = threshold(k, bias)
            if digit < t:
                break
            w *= BASE - t
            if w > MAXINT:
                raise IDNAError("Punycode overflows")
            k += BASE
        bias = adapt(i - oldi, len(output) + 1, oldi == 0)
        n += i // (len(output) + 1)
        if n > 0x10FFFF:
            raise IDNAError("Punycode decodes beyond U+10FFFF")
        i %= len(output) + 1
        output.insert(i, chr(n))
        i += 1
    return "".join(output)


def punycode_encode(text: str) -> str:
    """§6.3 Encoding procedure; raises IDNAError on overflow."""
    n, delta, bias = INITIAL_N, 0, INITIAL_BIAS
    output = [c for c in text if c < "\x80"]
    b = h = len(output)
    if b > 0:
        output.append("-")
    code_points = [ord(c) for c in text]
    while h < len(code_points):
        m = min(c for c in code_points if c >= n)
        delta += (m - n) * (h + 1)
        if delta > MAXINT:
            raise IDNAError("Punycode overflows")
        n = m
        for c in code_points:
            if c < n:
                delta += 1
                if delta > MAXINT:
                    raise IDNAError("Punycode overflows")
            elif c == n:
                q = delta
                k = BASE
                while True:
                    t = threshold(k, bias)
                    if q < t:
                        break
                    output.append(_digit(t + (q - t) % (BASE - t)))
                    q = (q - t) // (BASE - t)
                    k += BASE
                output.append(_digit(q))
                bias = adapt(delta, h + 1, h == b)
                delta = 0
                h += 1
        delta += 1
        if delta > MAXINT:
            raise IDNAError("Punycode overflows")
        n += 1
    return "".join(output)


def _digit(d: int) -> str:
    return chr(ord("a") + d) if d < 26 else chr(ord("0") + d - 26)


# -- UTS #46 -----------------------------------------------------------------


def uts46_map(domain: str) -> str:
    """§4 step 1, Map (nontransitional): a disallowed code point is an
    error (kept in the text, it would fail the Validity Criteria anyway)."""
    output = []
    for c in domain:
        status = uts46_status(c)
        if status == "V" or status == "D":
            output.append(c)
        elif status == "M":
            output.append(uts46_mapping(c))
        elif status == "X":
            raise IDNAError(f"disallowed code point U+{ord(c):04X}")
        # I: ignored
    return "".join(output)


def processing(domain: str, strict: bool) -> List[str]:
    """§4 Processing with CheckBidi and CheckJoiners true, CheckHyphens and
    UseSTD3ASCIIRules ``strict``, nontransitional, IgnoreInvalidPunycode
    false: the labels converted, or IDNAError for the first error."""
    # 1. Map; 2. Normalize; 3. Break
    labels = nfc(uts46_map(domain)).split(".")
    # 4. Convert/Validate
    for index, label in enumerate(labels):
        if label.startswith("xn--"):
            if not label.isascii():
                raise IDNAError("a Punycode label holds non-ASCII")
            label = punycode_decode(label[4:])
            if label == "" or label.isascii():
                raise IDNAError("a Punycode label decodes to ASCII")
            labels[index] = label
        validity_criteria(label, strict)
    # §4.1 step 9, CheckBidi: "if the domain name is a Bidi domain name (one
    # with a code point of Bidi_Class R, AL or AN), then the label must
    # satisfy all six of the numbered conditions in RFC 5893, Section 2":
    # every label of it, left-to-right ones included.
    if any(bidi_class(c) in ("R", "AL", "AN") for label in labels for c in label):
        for label in labels:
            if label and not bidi_rule(label):
                raise IDNAError("a label of a Bidi domain name breaks RFC 5893's rules")
    return labels


def validity_criteria(label: str, strict: bool) -> None:
    """§4.1 Validity Criteria (nontransitional)."""
    if not label:
        return
    # 1. NFC
    if nfc(label) != label:
        raise IDNAError("a label is not in NFC")
    if strict:
        # 2. CheckHyphens: no "--" in the third and fourth positions;
        # 3. no "-" first or last
        if label[2:4] == "--":
            raise IDNAError("a label has '--' in its third and fourth places")
        if label[0] == "-" or label[-1] == "-":
            raise IDNAError("a label begins or ends with '-'")
    elif label.startswith("xn--"):
        # 4. without CheckHyphens, no label begins with "xn--"
        raise IDNAError("a decoded label begins with 'xn--'")
    # 5. no U+002E FULL STOP
    if "." in label:
        raise IDNAError("a label holds a full stop")
    # 6. no leading combining mark
    if is_mark(label[0]):
        raise IDNAError("a label begins with a combining mark")
    for c in label:
        # 7. valid or deviation, and with UseSTD3ASCIIRules ASCII is
        # a-z, 0-9 and "-"
        if uts46_status(c) not in ("V", "D"):
            raise IDNAError(f"code point U+{ord(c):04X} is not valid")
        if strict and c < "\x80" and not ("a" <= c <= "z" or "0" <= c <= "9" or c == "-"):
            raise IDNAError(f"code point U+{ord(c):04X} is not a letter, digit or '-'")
    # 8. CheckJoiners: RFC 5892 Appendix A's CONTEXTJ rules
    for pos, c in enumerate(label):
        if c in "\u200c\u200d" and not contextj(label, pos):
            raise IDNAError(f"U+{ord(c):04X} outside its CONTEXTJ rule")


def contextj(label: str, pos: int) -> bool:
    """RFC 5892 Appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH
    JOINER)."""
    # If Canonical_Combining_Class(Before(cp)) .eq. Virama Then True
    if pos > 0 and combining_class(label[pos - 1]) == 9:
        return True
    if label[pos] == "\u200d":
        return False
    # If RegExpMatch((Joining_Type:{L,D})(Joining_Type:T)*\u200C
    #                (Joining_Type:T)*(Joining_Type:{R,D})) Then True
    before = pos - 1
    while before >= 0 and joining_type(label[before]) == "T":
        before -= 1
    after = pos + 1
    while after < len(label) and joining_type(label[after]) == "T":
        after += 1
    return (
        before >= 0
        and joining_type(label[before]) in ("L", "D")
        and after < len(label)
        and joining_type(label[after]) in ("R", "D")
    )


def bidi_rule(label: str) -> bool:
    """RFC 5893 §2: whether a (non-empty) label satisfies the six rules."""
    classes = [bidi_class(c) for c in label]
    # 1. the first character is L, R or AL
    if classes[0] in ("R", "AL"):
        rtl = True
    elif classes[0] == "L":
        rtl = False
    else:
        return False
    # the last character that is not NSM (rules 3 and 6)
    last = next((b for b in reversed(classes) if b != "NSM"), "")
    if rtl:
        # 2. R, AL, AN, EN, ES, CS, ET, ON, BN, NSM only
        allowed = {"R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"}
        if not all(b in allowed for b in classes):
            return False
        # 3. ends in R, AL, EN or AN, then NSMs; 4. not both EN and AN
        return last in ("R", "AL", "EN", "AN") and not ("EN" in classes and "AN" in classes)
    # 5. L, EN, ES, CS, ET, ON, BN, NSM only
    allowed = {"L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"}
    if not all(b in allowed for b in classes):
        return False
    # 6. ends in L or EN, then NSMs
    return last in ("L", "EN")


def to_ascii(domain: str, strict: bool) -> str:
    """§4.2 ToASCII with the URL Standard's flags (CheckHyphens,
    UseSTD3ASCIIRules and VerifyDnsLength ``strict``)."""
    # 1. Processing; 2. Break; 3. labels with non-ASCII to Punycode
    labels = [
        label if label.isascii() else "xn--" + punycode_encode(label)
        for label in processing(domain, strict)
    ]
    # 4. VerifyDnsLength: each label 1 to 63 long (an empty root label
    # too, as Unicode's IdnaTestV2 has it), the domain at most 253
    result = ".".join(labels)
    if strict and (any(not 1 <= len(label) <= 63 for label in labels) or len(result) > 253):
        raise IDNAError("the domain breaks DNS length limits")
    return result


# -- The URL Standard ---------------------------------------------------------


def scalar_value_string(func: str, value: object) -> str:
    """A str with each lone surrogate replaced by U+FFFD (Web IDL's
    USVString); bytes are UTF-8, with U+FFFD where they are not."""
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                value = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    raise type_error(func, "domain", value, "str or bytes")


def domain_parse(domain: str, be_strict: bool = False) -> str:
    """The domain parser ("domain to ASCII") of a scalar value string."""
    # 1-3. beStrict: the result of ToASCII with the strict flags
    if be_strict:
        try:
            return to_ascii(domain, True)
        except IDNAError:
            raise InvalidURL("domain-to-ASCII") from None
    # 5. an ASCII domain is lowercased, whatever ToASCII says of it
    if domain.isascii():
        result = domain.lower()
    else:
        try:
            result = to_ascii(domain, False)
        except IDNAError:
            raise InvalidURL("domain-to-ASCII") from None
    # 6. empty; 7. a forbidden domain code point
    if result == "" or any(c in FORBIDDEN_DOMAIN for c in result):
        raise InvalidURL("domain-to-ASCII")
    return result


def domain_to_ascii(domain: object, *, be_strict: bool = False) -> str:
    """The URL Standard's domain to ASCII (its domain parser): ``domain`` in
    A-labels, lowercased; raises InvalidURL where the standard returns
    failure.  ``be_strict`` adds UTS #46's CheckHyphens, UseSTD3ASCIIRules
    and VerifyDnsLength."""
    return domain_parse(scalar_value_string("domain_to_ascii", domain), bool(be_strict))


def domain_to_unicode(domain: object) -> str:
    """The URL Standard's domain to Unicode: ``domain`` with its A-labels in
    Unicode, or as given where UTS #46 ToUnicode records an error."""
    domain = scalar_value_string("domain_to_unicode", domain)
    try:
        return ".".join(processing(domain, False))
    except IDNAError:
        return domain
