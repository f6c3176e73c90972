"""The Public Suffix List algorithm, compiled: the twin of _psl_py.

The list's rules are one hash set of rule cores (csrc/fasturi_psl.h),
built once, on first use, under a lock, and never changed afterwards.  A
host is read in place when its text is ASCII, lowercased into a buffer and
hashed in one backward pass: at each '.' the hash of the suffix after it
is ready for its lookup.  Other text goes through its UTF-8 bytes, with
``str.lower`` for the case folding, as the reference twin does.
"""

import threading

from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memchr

from fasturi._capi cimport (
    PyUnicode_DATA,
    PyUnicode_DecodeASCII,
    PyUnicode_DecodeUTF8,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_Substring,
)
from fasturi._csrc cimport (
    fu_lower_ascii,
    FU_HOST_IPV4,
    FU_PSL_EXACT,
    FU_PSL_EXCEPT,
    FU_PSL_HASH0,
    FU_PSL_LONGER,
    FU_PSL_WILD,
    fu_authority_1,
    fu_authority_t,
    fu_host_type,
    fu_psl_find,
    fu_psl_insert,
    fu_psl_step,
    fu_psl_slot_t,
    fu_psl_t,
    fu_stop_1,
)

from fasturi import _psl
from fasturi._errors import type_error

__all__ = [
    "load_public_suffix_list",
    "public_suffix",
    "public_suffix_list_version",
    "registrable_domain",
]

# Labels of a core: the lookup keeps per-label offsets on the C stack.
cdef enum:
    MAX_DEPTH = 120
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
    if rules.depth > MAX_DEPTH:
        raise ValueError(f"a Public Suffix List rule has more than {MAX_DEPTH} labels")
    # low nibble: the ICANN section's flags; high nibble: the whole list's.
    # Every proper suffix of a core is a key too, flagged FU_PSL_LONGER in
    # the sections of the rules it ends: a lookup that finds no such flag
    # knows no longer suffix of the host can match, and stops there.
    keyed = {}
    for core, (in_icann, in_all) in rules.cores.items():
        key = (<str>core).encode("utf-8", "surrogatepass")
        if len(key) > 0xFFFF:
            continue  # longer than any host a slot's length could match
        keyed[key] = keyed.get(key, 0) | in_icann | (in_all << 4)
        longer = (FU_PSL_LONGER if in_icann else 0) | (FU_PSL_LONGER << 4 if in_all else 0)
        at = key.find(b".")
        while at >= 0:
            keyed[key[at + 1:]] = keyed.get(key[at + 1:], 0) | longer
            at = key.find(b".", at + 1)
    for key, flag in keyed.items():
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


# ---- the host of a URI or of a bare host ----------------------------------

cdef bint _host_range(const uint8_t *s, Py_ssize_t n, Py_ssize_t *start,
                      Py_ssize_t *end) noexcept nogil:
    """The host's [start, end) in s, or False when s names no host.

    As _psl_py._host: a URI's authority host, else s as a bare
    [userinfo@]host[:port] up to the first "/", "?" or "#", whose port (if
    any) must be digits; a host with a ":" left in it is none; then one
    trailing dot is dropped.  IP literals and
    IPv4 addresses (§3.2.2) name no host here.
    """
    cdef fu_authority_t au
    cdef Py_ssize_t a = 0, b, i
    cdef bint bare
    # Appendix B, as far as the authority: a scheme ends at the first ":"
    # before any "/", "?" or "#"; "//" then starts the authority.
    i = fu_stop_1(s, 0, n, 58, 47, 63, 35)
    if 0 < i < n and s[i] == 58:
        a = i + 1
    bare = not (n - a >= 2 and s[a] == 47 and s[a + 1] == 47)
    if bare:
        a = 0  # s itself is the host, up to the first / ? #
    else:
        a += 2
    b = fu_stop_1(s, a, n, 47, 63, 35, 35)
    # most authorities are a bare name: no "@", ":" or "[" to look at
    if fu_stop_1(s, a, b, 64, 58, 91, 91) < b:
        fu_authority_1(s, a, b, &au)
        if bare and au.port_start >= 0:
            for i in range(au.port_start, b):
                if s[i] < 48 or s[i] > 57:
                    return False
        a = au.host_start
        b = au.host_end
        if memchr(s + a, 58, <size_t>(b - a)) != NULL:  # ":" is no reg-name's
            return False
    if b > a and s[b - 1] == 46:  # "."
        b -= 1
    if b == a or s[a] == 91:  # empty, or "["
        return False
    # only a host ending in a digit can be an IPv4address
    if 48 <= s[b - 1] <= 57 and fu_host_type(s + a, b - a) == FU_HOST_IPV4:
        return False
    start[0] = a
    end[0] = b
    return True


# ---- the lookup -------------------------------------------------------------

cdef int _lookup(const fu_psl_t *t, int depth, const uint8_t *h, Py_ssize_t n,
                 uint8_t *out, int shift, Py_ssize_t *suffix_at,
                 Py_ssize_t *domain_at) noexcept nogil:
    """Finds the public suffix of the host h[0, n), ASCII-lowercased into out.

    -1 when a label is empty (leading, trailing or doubled "."), else 1
    when lowercasing changed a byte, 0 when not.  suffix_at gets the
    suffix's offset (-1 when it is empty, as under an exception rule of
    one label), domain_at the registrable domain's (-1 when no label
    precedes the suffix).  The host is lowercased first, 16 bytes at a
    time; then one backward pass finds the labels and hashes: at each "."
    the hash of the suffix after it is ready for its lookup.  The suffixes
    are tried from the longest, as _psl_py._suffix_labels does.
    """
    cdef Py_ssize_t starts[MAX_DEPTH + 3]  # starts[k]: the suffix of k labels
    cdef int found[MAX_DEPTH + 3]  # found[k]: its flags (0 when not looked up)
    cdef unsigned long long hash = FU_PSL_HASH0
    cdef Py_ssize_t i = n - 1, label_end
    cdef int k = 0, total, p, f
    cdef int changed = fu_lower_ascii(h, <size_t>n, out)
    cdef bint more, probe = True
    while True:
        label_end = i
        if probe:
            while i >= 0 and out[i] != 46:  # "."
                hash = fu_psl_step(hash, out[i])
                i -= 1
        else:  # (past the longest rule's labels, nothing is hashed)
            while i >= 0 and out[i] != 46:
                i -= 1
        if i == label_end:
            return -1  # an empty label
        k += 1
        starts[k] = i + 1
        found[k] = 0
        if probe:
            found[k] = (fu_psl_find(t, hash, out + i + 1, <size_t>(n - i - 1)) >> shift) & 15
            # no rule is longer than this suffix: the rest is not hashed
            probe = (found[k] & FU_PSL_LONGER) != 0 and k < depth
        if i < 0 or k == depth + 2:
            break
        hash = fu_psl_step(hash, 46)
        i -= 1
    total = k
    more = i >= 0  # labels left of the last one read (i is at their ".")
    if more:
        # not looked up, only checked: none of them empty
        if i == 0 or out[0] == 46 or out[i - 1] == 46:
            return -1
        while i > 1:
            i -= 1
            if out[i] == 46 and out[i - 1] == 46:
                return -1
    p = 1  # the implicit "*" rule, and a one-label host
    if total > 1 or more:
        for k in range(total if total < depth else depth, 0, -1):
            f = found[k]
            if f & FU_PSL_EXCEPT:
                p = k - 1
                break
            if f & FU_PSL_WILD:
                p = k + 1 if (k < total or more) else k
                break
            if f & FU_PSL_EXACT:
                p = k
                break
    suffix_at[0] = starts[p] if p > 0 else -1
    domain_at[0] = starts[p + 1] if p > 0 and p + 1 <= total else -1
    return changed


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
        if not _host_range(data, n, &a, &b):
            return None
    else:
        # Other text: the same scan over its UTF-8 bytes (every delimiter
        # is ASCII), with str.lower for the case folding.
        raw = s.encode("utf-8", "surrogatepass")
        if not _host_range(<const uint8_t *><const char *>raw, len(raw), &a, &b):
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
        changed = _lookup(&table.t, table.depth, data + a, size, buf, shift, &suffix_at,
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
