"""IDNA as the WHATWG URL Standard runs it, compiled: the twin of _idna_py.

UTS #46 processing, Punycode, NFC and the bidi and joiner rules run in C
(csrc/fasturi_idna.h) over the Unicode tables of fasturi_idna_data.h, the
same version the reference's _idna_tables holds.  Other Cython modules call
the C through idna_to_ascii and idna_to_unicode (_idna_c.pxd), so the
tables are linked into this module only.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint8_t

from fasturi._capi cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_IS_ASCII
from fasturi._csrc cimport (
    FU_IDNA_FAIL,
    FU_IDNA_NOMEM,
    FU_IDNA_PERCENT,
    FU_IDNA_STRICT,
    FU_IDNA_UNICODE_VERSION,
    FU_IDNA2003_W3LIB,
    FU_IDNA_PYTHON,
    fu_idna2003_nfkc_delims,
    fu_idna2003_to_ascii,
    fu_idna_domain_to_ascii,
    fu_idna_domain_to_unicode,
)

from fasturi._errors import type_error
from fasturi._types import InvalidURL

__all__ = ["UNICODE_VERSION", "domain_to_ascii", "domain_to_unicode"]

UNICODE_VERSION = FU_IDNA_UNICODE_VERSION.decode("ascii")

cdef enum:
    STACK = 512


cdef Py_ssize_t idna_to_ascii(const uint8_t *s, Py_ssize_t n, unsigned flags, uint8_t *out,
                              Py_ssize_t cap) noexcept nogil:
    return fu_idna_domain_to_ascii(s, <size_t>n, flags, out, <size_t>cap)


cdef Py_ssize_t idna_to_unicode(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                                Py_ssize_t cap) noexcept nogil:
    return fu_idna_domain_to_unicode(s, <size_t>n, out, <size_t>cap)


cdef Py_ssize_t idna2003_to_ascii(const uint8_t *s, Py_ssize_t n, unsigned flags, uint8_t *out,
                                  Py_ssize_t cap) noexcept nogil:
    return fu_idna2003_to_ascii(s, <size_t>n, flags, out, <size_t>cap)


cdef Py_ssize_t idna2003_nfkc_delims(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    return fu_idna2003_nfkc_delims(s, <size_t>n)


def _idna2003(bytes host, bint w3lib=False):
    """fu_idna2003_to_ascii of host, for tests: the A-label bytes, None
    where the codec raises, or NotImplemented where the running Python's
    answer is needed."""
    cdef Py_ssize_t r, cap = 64
    cdef bytearray out
    while True:
        out = bytearray(cap)
        r = fu_idna2003_to_ascii(<const uint8_t *><const char *>host, <size_t>len(host),
                                 FU_IDNA2003_W3LIB if w3lib else 0,
                                 <uint8_t *><char *>out, <size_t>cap)
        if r <= cap:
            break
        cap = r
    if r == FU_IDNA_FAIL:
        return None
    if r == FU_IDNA_PYTHON:
        return NotImplemented
    if r == FU_IDNA_NOMEM:
        raise MemoryError()
    return bytes(out[:r])


cdef inline bint _ends_in_a_number(const uint8_t *h, Py_ssize_t n) noexcept nogil:
    """The URL Standard's ends in a number checker on an ASCII domain."""
    cdef Py_ssize_t a, i
    if n > 1 and h[n - 1] == 46:  # a last empty part goes
        n -= 1
    a = n
    while a > 0 and h[a - 1] != 46:
        a -= 1
    if a == n:
        return False
    for i in range(a, n):
        if not 48 <= h[i] <= 57:
            break
    else:
        return True
    # an IPv4 number: "0x" or "0X" and hex digits
    if n - a < 2 or h[a] != 48 or (h[a + 1] | 32) != 120:
        return False
    for i in range(a + 2, n):
        if not (48 <= h[i] <= 57 or 97 <= (h[i] | 32) <= 102):
            return False
    return True


cdef object special_host(const uint8_t *s, Py_ssize_t n):
    """The host parser's steps 4-9 for the host s[0, n) of a special URL
    that is no IPv6 address: its domain (percent-decoded, then the domain
    parser) as ASCII bytes; None where that ends in a number (the IPv4
    parser's, the caller's); raises InvalidURL("domain-to-ASCII")."""
    cdef Py_ssize_t r, cap = STACK
    cdef uint8_t stack[STACK]
    cdef uint8_t *out = stack
    while True:
        with nogil:
            r = fu_idna_domain_to_ascii(s, <size_t>n, FU_IDNA_PERCENT, out, <size_t>cap)
        if r <= cap or r < 0:
            break
        if out != stack:
            PyMem_Free(out)
        out = <uint8_t *>PyMem_Malloc(<size_t>r)
        if out == NULL:
            raise MemoryError()
        cap = r
    try:
        if r == FU_IDNA_NOMEM:
            raise MemoryError()
        if r == FU_IDNA_FAIL:
            raise InvalidURL("domain-to-ASCII")
        if _ends_in_a_number(out, r):
            return None
        return PyBytes_FromStringAndSize(<const char *>out, r)
    finally:
        if out != stack:
            PyMem_Free(out)


cdef object _usv(str s):
    """s with each lone surrogate as U+FFFD (Web IDL's USVString)."""
    return "".join(["\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s])


cdef object _text(object domain, str func):
    """What holds domain's UTF-8: an ASCII str itself, else bytes (a str
    with lone surrogates has them as U+FFFD first)."""
    if type(domain) is str:
        if PyUnicode_IS_ASCII(domain):
            return domain
        try:
            return (<str>domain).encode("utf-8")
        except UnicodeEncodeError:
            return _usv(domain).encode("utf-8")
    if isinstance(domain, str):
        return _text(str(domain), func)
    if isinstance(domain, (bytes, bytearray, memoryview)):
        return bytes(domain)
    raise type_error(func, "domain", domain, "str or bytes")


cdef object _run(object text, bint unicode, unsigned flags):
    """The C over text's UTF-8; the result as str, or None for failure."""
    cdef const uint8_t *s
    cdef Py_ssize_t n, r, cap = STACK
    cdef uint8_t stack[STACK]
    cdef uint8_t *out = stack
    if type(text) is str:
        s = <const uint8_t *>PyUnicode_DATA(text)
        n = PyUnicode_GET_LENGTH(text)
    else:
        s = <const uint8_t *>PyBytes_AS_STRING(text)
        n = PyBytes_GET_SIZE(text)
    while True:
        with nogil:
            if unicode:
                r = fu_idna_domain_to_unicode(s, <size_t>n, out, <size_t>cap)
            else:
                r = fu_idna_domain_to_ascii(s, <size_t>n, flags, out, <size_t>cap)
        if r <= cap or r < 0:
            break
        # the result is longer than the room: again, with room for it
        if out != stack:
            PyMem_Free(out)
        out = <uint8_t *>PyMem_Malloc(<size_t>r)
        if out == NULL:
            raise MemoryError()
        cap = r
    try:
        if r == FU_IDNA_NOMEM:
            raise MemoryError()
        if r == FU_IDNA_FAIL:
            return None
        return PyUnicode_DecodeUTF8(<const char *>out, r, NULL)
    finally:
        if out != stack:
            PyMem_Free(out)


def domain_to_ascii(domain, *, be_strict=False):
    """The URL Standard's domain to ASCII (its domain parser): ``domain`` in
    A-labels, lowercased; raises InvalidURL where the standard returns
    failure.  ``be_strict`` adds UTS #46's CheckHyphens, UseSTD3ASCIIRules
    and VerifyDnsLength."""
    result = _run(_text(domain, "domain_to_ascii"), False, FU_IDNA_STRICT if be_strict else 0)
    if result is None:
        raise InvalidURL("domain-to-ASCII")
    return result


def domain_to_unicode(domain):
    """The URL Standard's domain to Unicode: ``domain`` with its A-labels in
    Unicode, or as given where UTS #46 ToUnicode records an error."""
    text = _text(domain, "domain_to_unicode")
    result = _run(text, True, 0)
    if result is not None:
        return result
    if type(text) is str:
        return text
    return (<bytes>text).decode("utf-8", "replace")
