"""ABNF validation, compiled: the twin of _rules_py.

The matchers are the plain-C scanners of csrc/fasturi_rules.h.  ASCII text
is matched in place; other text is first mapped to one byte per code point
(fu_classify_N), keeping only what RFC 3987 tells apart beyond U+007F.
"""

from cpython.dict cimport PyDict_GetItem
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from libc.stdint cimport uint8_t, uint16_t, uint32_t

from fasturi._capi cimport (
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_KIND,
    fu_unicode_ready,
)
from fasturi._csrc cimport (
    FU_HOST_IPV4,
    FU_HOST_IPV6,
    FU_HOST_IPVFUTURE,
    FU_HOST_REG_NAME,
    FU_R_3986_END,
    FU_R_COUNT,
    FU_R_URI_REFERENCE,
    fu_classify_1,
    fu_classify_2,
    fu_classify_4,
    fu_host_type,
    fu_rule_check,
    fu_rule_names,
)

from fasturi._types import InvalidURI
from fasturi._errors import rfc_number, type_error

__all__ = ["RULES_2396", "RULES_3986", "host_type", "is_valid", "validate"]


cdef dict _IDS_3986 = {}
cdef dict _IDS_2396 = {}


cdef int _load_names() except -1:
    cdef int k
    for k in range(FU_R_COUNT):
        name = fu_rule_names[k].decode("ascii")
        (_IDS_3986 if k < FU_R_3986_END else _IDS_2396)[name] = k
    return 0


_load_names()
RULES_3986 = frozenset(_IDS_3986)
RULES_2396 = frozenset(_IDS_2396)


cdef Py_ssize_t _check(object s, int rule) except -2:
    """-1 when s (a str, or a subclass) matches rule, else the error position."""
    cdef Py_ssize_t n, r
    cdef uint8_t small[256]
    cdef uint8_t *buf
    cdef int kind
    cdef void *data
    fu_unicode_ready(s)
    n = PyUnicode_GET_LENGTH(s)
    if PyUnicode_IS_ASCII(s):
        return fu_rule_check(rule, <const uint8_t *>PyUnicode_DATA(s), n)
    if n <= 256:
        buf = small
    else:
        buf = <uint8_t *>PyMem_Malloc(<size_t>n)
        if buf == NULL:
            raise MemoryError()
    kind = PyUnicode_KIND(s)
    data = PyUnicode_DATA(s)
    if kind == 1:
        fu_classify_1(<const uint8_t *>data, n, buf)
    elif kind == 2:
        fu_classify_2(<const uint16_t *>data, n, buf)
    else:
        fu_classify_4(<const uint32_t *>data, n, buf)
    r = fu_rule_check(rule, buf, n)
    if buf != small:
        PyMem_Free(buf)
    return r


cdef int _rule_id(str func, object s, object rule, object rfc) except -1:
    """Checks the arguments; the rule's number."""
    cdef dict ids
    cdef PyObject *k
    if not isinstance(s, str):
        raise type_error(func, "s", s)
    # A call that leaves the defaults gets these very objects (Cython keeps
    # one constant per literal), so identity spares the dictionary.
    if rule is "URI-reference" and rfc is 3986:
        return FU_R_URI_REFERENCE
    if not isinstance(rule, str):
        raise type_error(func, "rule", rule)
    number = rfc if type(rfc) is int and (rfc == 3986 or rfc == 2396) else rfc_number(func, rfc)
    ids = _IDS_3986 if number == 3986 else _IDS_2396
    k = PyDict_GetItem(ids, rule)  # borrowed; str keys cannot raise
    if k == NULL:
        raise ValueError(f"unknown rule {rule!r} for RFC {number}")
    return <object>k


def is_valid(s, rule="URI-reference", *, rfc=3986):
    """Whether ``s`` matches the ABNF ``rule`` (RFC 3986 Appendix A, RFC 3987
    §2.2; RFC 2396 Appendix A with ``rfc=2396``)."""
    cdef int k = _rule_id("is_valid", s, rule, rfc)
    return _check(s, k) < 0


def validate(s, rule="URI-reference", *, rfc=3986):
    """Return ``s`` if it matches ``rule`` (as ``is_valid``), else raise
    ``InvalidURI``.  The error's ``position`` is the length of the longest
    prefix of ``s`` that some string matching the rule starts with."""
    cdef int k = _rule_id("validate", s, rule, rfc)
    cdef Py_ssize_t p = _check(s, k)
    if p < 0:
        return s
    if p == len(s):
        raise InvalidURI(f"invalid {rule}: unexpected end at position {p}", p, rule)
    raise InvalidURI(f"invalid {rule} at position {p}: {s[p]!r}", p, rule)


def host_type(host):
    """What a host is (RFC 3986 §3.2.2): "IPv6" or "IPvFuture" for an
    IP-literal (RFC 6874 zone IDs allowed), "IPv4", "reg-name", or None."""
    cdef int t
    if not isinstance(host, str):
        raise type_error("host_type", "host", host)
    fu_unicode_ready(host)
    if not PyUnicode_IS_ASCII(host):
        return None  # RFC 3986 hosts are ASCII
    t = fu_host_type(<const uint8_t *>PyUnicode_DATA(host), PyUnicode_GET_LENGTH(host))
    if t == FU_HOST_IPV6:
        return "IPv6"
    if t == FU_HOST_IPVFUTURE:
        return "IPvFuture"
    if t == FU_HOST_IPV4:
        return "IPv4"
    if t == FU_HOST_REG_NAME:
        return "reg-name"
    return None
