"""The Public Suffix List algorithm, compiled: the twin of _psl_py.

The list's rules are one hash set of rule cores (csrc/fasturi_psl.h),
built once, on first use, under a lock, and never changed afterwards.  A
host is read in place when its text is ASCII, lowercased into a buffer and
hashed in one backward pass: at each '.' the hash of the suffix after it
is ready for its lookup (fu_psl_host_range and fu_psl_lookup, in the same
header).  Other text goes through its UTF-8 bytes, with
``str.lower`` for the case folding, as the reference twin does.
"""

import threading

from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint32_t

from fasturi._capi cimport (
    PyUnicode_DATA,
    PyUnicode_DecodeASCII,
    PyUnicode_DecodeUTF8,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_Substring,
)
from fasturi._csrc cimport (
    FU_PSL_MAX_DEPTH,
    fu_psl_host_range,
    fu_psl_insert,
    fu_psl_lookup,
    fu_psl_slot_t,
)

from fasturi import _psl
from fasturi._errors import type_error

__all__ = [
    "load_public_suffix_list",
    "public_suffix",
    "public_suffix_list_version",
    "registrable_domain",
]

cdef enum:
    STACK_HOST = 256


cdef class _Table:
    # (attributes in _psl_c.pxd; keys owns the bytes t.keys points into)

    def __dealloc__(self):
        PyMem_Free(self.t.slots)


cdef _Table _build(rules):
    cdef _Table table = _Table.__new__(_Table)
    cdef list encoded = []
    cdef list flags = []
    cdef size_t capacity = 16
    cdef uint32_t off = 0, size
    cdef Py_ssize_t i
    # (fu_psl_lookup keeps per-label offsets on the C stack)
    if rules.depth > FU_PSL_MAX_DEPTH:
        raise ValueError(f"a Public Suffix List rule has more than {FU_PSL_MAX_DEPTH} labels")
    # (flags: the ICANN section's in the low nibble, the whole list's in the
    # high one; and FU_PSL_LONGER, _psl.LONGER, on the proper suffixes of cores)
    for key, flag in _psl.keys(rules, "surrogatepass").items():
        encoded.append(key)
        flags.append(flag)
    while 3 * capacity < 4 * <size_t>len(encoded) + 4:
        capacity *= 2  # at most three quarters full: probes stay within a line or two
    table.keys = b"".join(encoded)
    table.t.keys = <const uint8_t *><const char *>table.keys
    table.t.mask = capacity - 1
    table.t.slots = <fu_psl_slot_t *>PyMem_Calloc(capacity, sizeof(fu_psl_slot_t))
    if table.t.slots == NULL:
        raise MemoryError()
    for i in range(len(encoded)):
        size = <uint32_t>len(<bytes>encoded[i])
        fu_psl_insert(&table.t, off, size, <uint8_t>flags[i])
        off += size
    table.depth = rules.depth
    table.version = rules.version
    return table


_lock = threading.Lock()
cdef _Table _table = None


cdef _Table _current():
    # Built once, on first use; a table is never changed afterwards, so
    # readers need no lock.
    global _table
    cdef _Table table = _table
    if table is None:
        with _lock:
            if _table is None:
                _table = _build(_psl.read(None))
            table = _table
    return table


def load_public_suffix_list(path):
    """Use the list in the file at ``path`` (publicsuffix.org format) from now on.

    ``None`` goes back to the list the ``publicsuffixlist`` package ships.
    """
    global _table
    cdef _Table table = _build(_psl.read(path))
    with _lock:
        _table = table


def public_suffix_list_version():
    """The ``// VERSION:`` line of the list in use (None if it has none)."""
    return _current().version


cdef object _answer(str s, bint private, bint domain):
    cdef Py_ssize_t n, a, b, size, suffix_at, domain_at, at
    cdef const uint8_t *data
    cdef uint8_t stack[STACK_HOST]
    cdef uint8_t *buf = stack
    cdef int changed
    cdef bytes raw = None, lowered
    cdef _Table table = _current()
    cdef int shift = 4 if private else 0
    if PyUnicode_IS_ASCII(s):
        data = <const uint8_t *>PyUnicode_DATA(s)
        n = PyUnicode_GET_LENGTH(s)
        if not fu_psl_host_range(data, n, &a, &b):
            return None
    else:
        # Other text: the same scan over its UTF-8 bytes (every delimiter
        # is ASCII), with str.lower for the case folding.
        raw = s.encode("utf-8", "surrogatepass")
        if not fu_psl_host_range(<const uint8_t *><const char *>raw, len(raw), &a, &b):
            return None
        lowered = raw[a:b].decode("utf-8", "surrogatepass").lower().encode(
            "utf-8", "surrogatepass")
        data = <const uint8_t *><const char *>lowered
        a = 0
        b = len(lowered)
    size = b - a
    try:
        if size > STACK_HOST:
            buf = <uint8_t *>PyMem_Malloc(<size_t>size)
            if buf == NULL:
                raise MemoryError()
        changed = fu_psl_lookup(&table.t, table.depth, data + a, size, buf, shift, &suffix_at,
                                &domain_at)
        if changed < 0:
            return None
        at = domain_at if domain else suffix_at
        if at < 0:
            return None
        if raw is not None:
            return PyUnicode_DecodeUTF8(<const char *>buf + at, size - at, b"surrogatepass")
        if not changed:
            return PyUnicode_Substring(s, a + at, b)
        return PyUnicode_DecodeASCII(<const char *>buf + at, size - at, NULL)
    finally:
        if buf != stack:
            PyMem_Free(buf)


def public_suffix(s, *, private=False):
    """The public suffix of ``s``'s host by the Public Suffix List.

    ``s`` is a URI or a bare host; ``private=True`` also uses the list's
    PRIVATE section.  None for IP addresses and hosts with empty labels.
    """
    if not isinstance(s, str):
        raise type_error("public_suffix", "s", s)
    return _answer(<str>s, True if private else False, False)


def registrable_domain(s, *, private=False):
    """The registrable domain (public suffix plus one label) of ``s``'s host.

    ``s`` is a URI or a bare host; ``private=True`` also uses the list's
    PRIVATE section.  None for IP addresses, hosts with empty labels and
    hosts that are themselves a public suffix.
    """
    if not isinstance(s, str):
        raise type_error("registrable_domain", "s", s)
    return _answer(<str>s, True if private else False, True)
