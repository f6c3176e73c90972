"""The Public Suffix List algorithm, compiled: the twin of _psl_py.

The list's rules are one hash set of rule cores (csrc/fasturi_psl.h),
built on first use, or by load_public_suffix_list, and never changed
afterwards: a new list is a new table, swapped in for the old one while
other threads look hosts up (see _current).  A host is read in place when
its text is ASCII, lowercased into a buffer and hashed in one backward
pass: at each '.' the hash of the suffix after it is ready for its lookup
(fu_psl_host_range and fu_psl_lookup, in the same header).  Other text
goes through its UTF-8 bytes, with ``str.lower`` for the case folding, as
the reference twin does.
"""

import os
import threading

from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from libc.stdint cimport int64_t, intptr_t, uint8_t, uint32_t

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
    fu_guard_enter,
    fu_guard_leave,
    fu_guard_t,
    fu_guard_wait,
    fu_psl_host_range,
    fu_psl_insert,
    fu_psl_lookup,
    fu_psl_slot_t,
    fu_shared_get,
    fu_shared_swap,
)

from fasturi import _psl
from fasturi._errors import type_error

__all__ = [
    "load_public_suffix_list",
    "public_suffix",
    "public_suffix_list_version",
    "registrable_domain",
]

cdef extern from "Python.h":
    void Py_IncRef(PyObject *o)
    void Py_DecRef(PyObject *o)

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


# The table in use, a _Table's PyObject * (0 before the first use): the
# module's own reference to it, read and swapped atomically.  A table is
# never changed, so readers take no lock; but the swap drops the module's
# reference to the old table, and a reader that has loaded the pointer and
# not yet taken a reference (or, in _lookup, takes none at all) would then
# read freed memory (without the GIL nothing stops a swap between the two).
# So readers load and use the pointer while in _readers (fasturi_shared.h's
# fu_guard_t), and the swap drops the old reference only once every reader
# in at the time of the swap has left.  (A fork cannot leave a reader in:
# readers run no Python code while in, and a fork waits for every thread
# of the interpreter to be at a point where it does.)
cdef int64_t _table = 0
cdef fu_guard_t _readers
_lock = threading.Lock()  # one swap at a time


def _forget_lock():
    # A child forked while another thread swapped lists (or built the
    # first) would find the lock held for good.
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_lock)


cdef int _install(_Table table, rules) except -1:
    # Under _lock: `table` in use from now on, and the old one let go.
    cdef PyObject *old
    Py_IncRef(<PyObject *>table)  # (the module's reference, held by _table)
    old = <PyObject *><intptr_t>fu_shared_swap(&_table, <int64_t><intptr_t><PyObject *>table)
    _psl.last = rules
    if old != NULL:
        with nogil:
            fu_guard_wait(&_readers)
        Py_DecRef(old)
    return 0


cdef _Table _first():
    # The packaged list, built on first use (once: under the lock).
    with _lock:
        if fu_shared_get(&_table) == 0:
            rules = _psl.read(None)
            _install(_build(rules), rules)
    return _current()


cdef _Table _current():
    # The table in use (built on first use), with a reference of the
    # caller's own, taken while in _readers.
    cdef _Table table = None
    cdef int slot = fu_guard_enter(&_readers)
    cdef PyObject *p = <PyObject *><intptr_t>fu_shared_get(&_table)
    if p != NULL:
        table = <_Table>p
    fu_guard_leave(&_readers, slot)
    if table is None:
        return _first()
    return table


cdef int _lookup(const uint8_t *h, Py_ssize_t n, uint8_t *out, int shift,
                 Py_ssize_t *suffix_at, Py_ssize_t *domain_at) except -2:
    # fu_psl_lookup by the table in use, read while in _readers: no
    # reference is taken (every thread taking one of the same table would
    # share its count, a line of memory passed between cores on each call).
    cdef int slot, changed = 0
    cdef PyObject *p
    while True:
        slot = fu_guard_enter(&_readers)
        p = <PyObject *><intptr_t>fu_shared_get(&_table)
        if p != NULL:
            changed = fu_psl_lookup(&(<_Table>p).t, (<_Table>p).depth, h, n, out, shift,
                                    suffix_at, domain_at)
        fu_guard_leave(&_readers, slot)
        if p != NULL:
            return changed
        _first()


def load_public_suffix_list(path):
    """Use the list in the file at ``path`` (publicsuffix.org format) from now on.

    ``None`` goes back to the list the ``publicsuffixlist`` package ships.
    """
    rules = _psl.read(path)
    cdef _Table table = _build(rules)
    with _lock:
        _install(table, rules)


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
        changed = _lookup(data + a, size, buf, shift, &suffix_at, &domain_at)
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
