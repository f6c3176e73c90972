"""Dedup keys and batch functions, compiled: the twin of _pipeline_py.

``canonicalize`` normalizes through the core's C entry point, then finds,
filters and sorts the query fields as (start, end) offsets into the
normalized text, reading its code units in place; the result is built in
one copy.  The ``*_many`` functions are one Cython loop over the iterable
calling the core's C entry points, with no Python-level call per item.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memchr, memcmp, memcpy

from fasturi._capi cimport (
    PyUnicode_AsUTF8AndSize,
    PyUnicode_DATA,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_READ,
    PyUnicode_Substring,
    PyUnicode_WRITE,
)
from fasturi._core_c cimport PreparedBase, normalize_str, split_str
from fasturi._csrc cimport fu_hexval, fu_xxh64
from fasturi._w3lib_c cimport key_str

from fasturi._errors import item_error, rfc_number, type_error

__all__ = [
    "canonicalize",
    "canonicalize_many",
    "fingerprint",
    "normalize_many",
    "resolve_many",
    "split_many",
    "xxh64",
]


ctypedef struct _Field:
    Py_ssize_t start, end


# Query fields held on the C stack; more go to the heap.
cdef enum:
    STACK_FIELDS = 64
    STACK_UNITS = 2048


cdef object _iterate(str func, str name, object items):
    # A str is an iterable of one-character strings: batching its characters
    # is never what the caller meant.
    if isinstance(items, (str, bytes)):
        raise type_error(func, name, items, "an iterable of str")
    try:
        return iter(items)
    except TypeError:
        raise type_error(func, name, items, "an iterable of str") from None


cdef bint _skip_bad(str func, object errors) except -1:
    if errors == "raise":
        return False
    if errors == "none":
        return True
    raise ValueError(f"{func}() argument 'errors' must be 'raise' or 'none', not {errors!r}")


# ---- drop_params ---------------------------------------------------------

ctypedef struct _Rule:
    const char *ptr  # UTF-8 bytes of the name, without a final "*"
    Py_ssize_t size
    bint prefix


cdef enum:
    SMALL_RULES = 8
    SMALL_SCRATCH = 64


cdef class _DropRules:
    """drop_params as UTF-8 byte strings: exact names and ``*`` prefixes."""

    cdef list keep  # the str/bytes objects whose buffers the rules point into
    cdef Py_ssize_t count
    cdef Py_ssize_t longest
    cdef _Rule *rule
    cdef uint8_t *scratch  # a decoded name: up to longest + 1 bytes, plus 4
    cdef _Rule small_rule[SMALL_RULES]
    cdef uint8_t small_scratch[SMALL_SCRATCH]

    def __dealloc__(self):
        if self.rule != self.small_rule:
            PyMem_Free(self.rule)
        if self.scratch != self.small_scratch:
            PyMem_Free(self.scratch)


cdef _DropRules _drop_rules(str func, object drop_params):
    """The rules for ``drop_params``, or None when there are none."""
    cdef _DropRules rules
    cdef list keep
    cdef Py_ssize_t i, size
    cdef const char *ptr
    if type(drop_params) is tuple and len(<tuple>drop_params) == 0:
        return None
    keep = []
    for name in _iterate(func, "drop_params", drop_params):
        if not isinstance(name, str):
            raise TypeError(
                f"{func}() argument 'drop_params' items must be str, not {type(name).__name__}"
            )
        keep.append(name)
    if not keep:
        return None
    rules = _DropRules.__new__(_DropRules)
    rules.keep = keep
    rules.count = len(keep)
    if rules.count <= SMALL_RULES:
        rules.rule = rules.small_rule
    else:
        rules.rule = <_Rule *>PyMem_Malloc(<size_t>rules.count * sizeof(_Rule))
        if rules.rule == NULL:
            raise MemoryError()
    rules.longest = 0
    for i in range(rules.count):
        name = keep[i]
        try:
            # The str's own cached UTF-8: no copy, and free for a constant
            # tuple passed again and again.
            ptr = PyUnicode_AsUTF8AndSize(name, &size)
        except UnicodeEncodeError:
            # Lone surrogates: the bytes percent_decode_bytes would give.
            name = str.encode(<str>name, "utf-8", "surrogatepass")
            keep[i] = name
            ptr = <const char *>(<bytes>name)
            size = len(<bytes>name)
        rules.rule[i].prefix = size > 0 and ptr[size - 1] == 42  # "*"
        if rules.rule[i].prefix:
            size -= 1
        rules.rule[i].ptr = ptr
        rules.rule[i].size = size
        if size > rules.longest:
            rules.longest = size
    if rules.longest + 5 <= SMALL_SCRATCH:
        rules.scratch = rules.small_scratch
    else:
        rules.scratch = <uint8_t *>PyMem_Malloc(<size_t>(rules.longest + 5))
        if rules.scratch == NULL:
            raise MemoryError()
    return rules


cdef bint _dropped(_DropRules rules, int kind, const void *data, Py_ssize_t start,
                   Py_ssize_t end) noexcept:
    # The name is the text before the field's first "="; it is compared
    # percent-decoded, other characters as their UTF-8 (surrogatepass) bytes,
    # as percent_decode_bytes gives them.
    cdef Py_ssize_t i = start, n = 0, k
    cdef Py_ssize_t cap = rules.longest + 1
    cdef uint32_t c
    cdef int hi, lo
    cdef uint8_t *out = rules.scratch
    while i < end and n < cap:
        c = PyUnicode_READ(kind, data, i)
        if c == 61:  # "="
            break
        if c == 37 and i + 2 < end:  # "%" with two characters after it
            hi = fu_hexval(PyUnicode_READ(kind, data, i + 1))
            lo = fu_hexval(PyUnicode_READ(kind, data, i + 2))
            if hi >= 0 and lo >= 0:
                out[n] = <uint8_t>(hi * 16 + lo)
                n += 1
                i += 3
                continue
        if c < 0x80:
            out[n] = <uint8_t>c
            n += 1
        elif c < 0x800:
            out[n] = <uint8_t>(0xC0 | (c >> 6))
            out[n + 1] = <uint8_t>(0x80 | (c & 0x3F))
            n += 2
        elif c < 0x10000:
            out[n] = <uint8_t>(0xE0 | (c >> 12))
            out[n + 1] = <uint8_t>(0x80 | ((c >> 6) & 0x3F))
            out[n + 2] = <uint8_t>(0x80 | (c & 0x3F))
            n += 3
        else:
            out[n] = <uint8_t>(0xF0 | (c >> 18))
            out[n + 1] = <uint8_t>(0x80 | ((c >> 12) & 0x3F))
            out[n + 2] = <uint8_t>(0x80 | ((c >> 6) & 0x3F))
            out[n + 3] = <uint8_t>(0x80 | (c & 0x3F))
            n += 4
        i += 1
    # Stopped early (n >= cap) means longer than every rule: only a prefix
    # rule can match, and its bytes are all in out.
    cdef bint whole = n < cap
    cdef const _Rule *r
    for k in range(rules.count):
        r = &rules.rule[k]
        if r.prefix:
            if r.size <= n and memcmp(out, r.ptr, <size_t>r.size) == 0:
                return True
        elif whole and r.size == n and memcmp(out, r.ptr, <size_t>n) == 0:
            return True
    return False


# ---- sorting the fields --------------------------------------------------

cdef inline int _compare(int kind, const void *data, _Field a, _Field b) noexcept nogil:
    # Code point order, which is the byte order of the UTF-8 (surrogatepass)
    # encodings; for kind 1 that is memcmp's unsigned byte order.
    cdef Py_ssize_t la = a.end - a.start, lb = b.end - b.start
    cdef Py_ssize_t m = la if la < lb else lb, i
    cdef int r
    cdef uint32_t ca, cb
    if kind == 1:
        r = memcmp(<const char *>data + a.start, <const char *>data + b.start, <size_t>m)
        if r != 0:
            return r
    else:
        for i in range(m):
            ca = PyUnicode_READ(kind, data, a.start + i)
            cb = PyUnicode_READ(kind, data, b.start + i)
            if ca != cb:
                return -1 if ca < cb else 1
    return (la > lb) - (la < lb)


cdef void _sort(int kind, const void *data, _Field *f, _Field *tmp, Py_ssize_t n) noexcept nogil:
    # Stable merge sort (insertion sort for short runs): O(n log n) whatever
    # the order, since a query can be long and hostile.
    cdef Py_ssize_t i, j, mid, a, b, k
    cdef _Field x
    if n <= 12:
        for i in range(1, n):
            x = f[i]
            j = i
            while j > 0 and _compare(kind, data, f[j - 1], x) > 0:
                f[j] = f[j - 1]
                j -= 1
            f[j] = x
        return
    mid = n // 2
    _sort(kind, data, f, tmp, mid)
    _sort(kind, data, f + mid, tmp, n - mid)
    if _compare(kind, data, f[mid - 1], f[mid]) <= 0:
        return  # already in order: the common case for a sorted query
    memcpy(tmp, f, <size_t>(mid * sizeof(_Field)))
    a = 0
    b = mid
    k = 0
    while a < mid and b < n:
        if _compare(kind, data, f[b], tmp[a]) < 0:
            f[k] = f[b]
            b += 1
        else:
            f[k] = tmp[a]
            a += 1
        k += 1
    while a < mid:
        f[k] = tmp[a]
        a += 1
        k += 1


# ---- canonicalize ----------------------------------------------------------

cdef inline Py_ssize_t _find(int kind, const void *data, Py_ssize_t start, Py_ssize_t end,
                             Py_UCS4 ch) noexcept nogil:
    cdef const char *p
    cdef Py_ssize_t i
    if kind == 1:
        if end <= start:
            return -1
        p = <const char *>memchr(<const char *>data + start, <int>ch, <size_t>(end - start))
        return -1 if p == NULL else p - <const char *>data
    for i in range(start, end):
        if PyUnicode_READ(kind, data, i) == ch:
            return i
    return -1


cdef str _key(str s, bint sort_query, bint drop_fragment, _DropRules rules):
    cdef str text = normalize_str(s, True)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef const void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t hash_at, q_at, count, kept, i, j, total, pos, size
    cdef bint changed
    cdef _Field stack_fields[2 * STACK_FIELDS]
    cdef _Field *fields = stack_fields
    cdef uint8_t stack_units[STACK_UNITS]
    cdef void *units
    cdef void *heap = NULL
    cdef str result = None

    # Appendix B: the fragment starts at the first "#", the query at the
    # first "?" before it.  Normalization decodes only unreserved
    # characters (§6.2.2.2), so it never adds or removes either delimiter.
    hash_at = _find(kind, data, 0, n, 35)
    if hash_at < 0:
        hash_at = n
    q_at = _find(kind, data, 0, hash_at, 63)
    if q_at < 0 or not (sort_query or rules is not None):
        if drop_fragment and hash_at < n:
            return PyUnicode_Substring(text, 0, hash_at)
        return text

    count = 1
    i = q_at + 1
    while True:
        i = _find(kind, data, i, hash_at, 38)
        if i < 0:
            break
        count += 1
        i += 1
    try:
        if count > STACK_FIELDS:
            # the second half is merge sort's scratch
            fields = <_Field *>PyMem_Malloc(<size_t>(2 * count) * sizeof(_Field))
            if fields == NULL:
                raise MemoryError()
        pos = q_at + 1
        for i in range(count):
            j = _find(kind, data, pos, hash_at, 38)
            if j < 0:
                j = hash_at
            fields[i].start = pos
            fields[i].end = j
            pos = j + 1

        kept = count
        if rules is not None:
            kept = 0
            for i in range(count):
                if not _dropped(rules, kind, data, fields[i].start, fields[i].end):
                    fields[kept] = fields[i]
                    kept += 1
        changed = kept != count
        if sort_query and kept > 1:
            for i in range(1, kept):
                if _compare(kind, data, fields[i - 1], fields[i]) > 0:
                    _sort(kind, data, fields, fields + count, kept)
                    changed = True
                    break
        if not changed:
            if drop_fragment and hash_at < n:
                return PyUnicode_Substring(text, 0, hash_at)
            return text

        # prefix, then "?" and the fields joined by "&", then "#" fragment
        total = q_at
        if kept:
            total += kept  # "?" and the kept - 1 "&"
            for i in range(kept):
                total += fields[i].end - fields[i].start
        if not drop_fragment and hash_at < n:
            total += n - hash_at
        if PyUnicode_IS_ASCII(text):
            # ASCII stays ASCII: write straight into the result
            result = PyUnicode_New(total, 127)
            units = PyUnicode_DATA(result)
        elif total * kind <= STACK_UNITS:
            units = stack_units
        else:
            units = heap = PyMem_Malloc(<size_t>(total * kind))
            if heap == NULL:
                raise MemoryError()
        memcpy(units, data, <size_t>(q_at * kind))
        pos = q_at
        for i in range(kept):
            PyUnicode_WRITE(kind, units, pos, 63 if i == 0 else 38)
            pos += 1
            size = fields[i].end - fields[i].start
            memcpy(<char *>units + pos * kind, <const char *>data + fields[i].start * kind,
                   <size_t>(size * kind))
            pos += size
        if not drop_fragment and hash_at < n:
            memcpy(<char *>units + pos * kind, <const char *>data + hash_at * kind,
                   <size_t>((n - hash_at) * kind))
        if result is not None:
            return result
        # From the code units: the result's widest character may be narrower
        # than the text's once fields are dropped.
        return PyUnicode_FromKindAndData(kind, units, total)
    finally:
        if fields != stack_fields:
            PyMem_Free(fields)
        PyMem_Free(heap)


cdef str _W3LIB = "w3lib"


cdef bint _preset(str func, object preset, object sort_query, object drop_params) except -1:
    """Whether ``preset`` asks for w3lib's key (which always sorts, drops nothing)."""
    if preset is None:
        return False
    if preset is not _W3LIB and preset != _W3LIB:  # (a literal is one interned object)
        raise ValueError(f"{func}() argument 'preset' must be None or 'w3lib', not {preset!r}")
    if not sort_query or _drop_rules(func, drop_params) is not None:
        raise ValueError(
            f"{func}() with preset='w3lib' always sorts the query and drops no parameter"
        )
    return True


def canonicalize(s, *, sort_query=True, drop_fragment=True, drop_params=(), preset=None):
    """A dedup key: ``normalize(s)`` (§6.2.2, §6.2.3) with its query sorted and filtered.

    The query's ``&``-separated fields are stably sorted by the byte order of
    their normalized text; a field whose name (the text before its first
    ``=``, percent-decoded) equals one of ``drop_params``, or starts with one
    that ends in ``*`` (``"utm_*"``), is removed, and a query left with no
    field loses its ``?``.  An empty query that had nothing dropped keeps its
    ``?`` (§6.2.3).  Equivalent URIs always get the same key.

    ``preset="w3lib"`` gives ``w3lib.url.canonicalize_url(s)``'s key instead
    (``drop_fragment=False``: its ``keep_fragments=True``); see
    docs/crawler.md.
    """
    cdef _DropRules rules
    if not isinstance(s, str):
        raise type_error("canonicalize", "s", s)
    if preset is not None and _preset("canonicalize", preset, sort_query, drop_params):
        return key_str(<str>s, not drop_fragment)
    rules = _drop_rules("canonicalize", drop_params)
    return _key(<str>s, True if sort_query else False, True if drop_fragment else False, rules)


def xxh64(data, seed=0):
    """XXH64 of ``data`` (bytes-like): lanes are little-endian 64-bit words."""
    cdef const uint8_t[::1] view = data
    cdef unsigned long long s = <unsigned long long>(seed & 0xFFFFFFFFFFFFFFFF)
    if view.shape[0] == 0:
        return fu_xxh64(NULL, 0, s)
    return fu_xxh64(&view[0], <size_t>view.shape[0], s)


def fingerprint(s, *, sort_query=True, drop_fragment=True, drop_params=(), preset=None):
    """A stable unsigned 64-bit hash of ``canonicalize(s, ...)``: XXH64, seed 0,
    of the key's UTF-8 bytes (lone surrogates as ``surrogatepass`` writes them).
    """
    cdef str text
    cdef bytes raw
    if not isinstance(s, str):
        raise type_error("fingerprint", "s", s)
    if preset is not None and _preset("fingerprint", preset, sort_query, drop_params):
        text = key_str(<str>s, not drop_fragment)
    else:
        text = _key(<str>s, True if sort_query else False, True if drop_fragment else False,
                    _drop_rules("fingerprint", drop_params))
    if PyUnicode_IS_ASCII(text):
        return fu_xxh64(<const uint8_t *>PyUnicode_DATA(text),
                        <size_t>PyUnicode_GET_LENGTH(text), 0)
    raw = text.encode("utf-8", "surrogatepass")
    return fu_xxh64(<const uint8_t *><const char *>raw, <size_t>len(raw), 0)


# ---- batches ---------------------------------------------------------------

def split_many(uris, *, errors="raise"):
    """``split`` (Appendix B) applied to every item of ``uris``.

    An item that is not a ``str`` raises ``TypeError`` naming its 0-based
    index (``"split_many() item 3 must be str, not int"``); the results so far
    are discarded and an iterator is left where it stopped.  With
    ``errors="none"`` such an item gives ``None`` and the batch goes on.
    """
    cdef bint skip = _skip_bad("split_many", errors)
    cdef list out = []
    cdef Py_ssize_t index = 0
    for item in _iterate("split_many", "uris", uris):
        if isinstance(item, str):
            out.append(split_str(<str>item))
        elif skip:
            out.append(None)
        else:
            raise item_error("split_many", index, item)
        index += 1
    return out


def normalize_many(uris, *, scheme_based=True, errors="raise"):
    """``normalize`` (§6.2.2, §6.2.3) applied to every item of ``uris``.

    A non-``str`` item raises ``TypeError`` naming its index, or gives
    ``None`` with ``errors="none"`` (as ``split_many``).
    """
    cdef bint skip = _skip_bad("normalize_many", errors)
    cdef bint based = True if scheme_based else False
    cdef list out = []
    cdef Py_ssize_t index = 0
    for item in _iterate("normalize_many", "uris", uris):
        if isinstance(item, str):
            out.append(normalize_str(<str>item, based))
        elif skip:
            out.append(None)
        else:
            raise item_error("normalize_many", index, item)
        index += 1
    return out


def canonicalize_many(uris, *, sort_query=True, drop_fragment=True, drop_params=(),
                      errors="raise", preset=None):
    """``canonicalize`` applied to every item of ``uris``, options read once.

    A non-``str`` item raises ``TypeError`` naming its index, or gives
    ``None`` with ``errors="none"`` (as ``split_many``).
    """
    cdef bint skip = _skip_bad("canonicalize_many", errors)
    cdef bint keep
    cdef list out = []
    cdef Py_ssize_t index = 0
    if preset is not None and _preset("canonicalize_many", preset, sort_query, drop_params):
        keep = not drop_fragment
        for item in _iterate("canonicalize_many", "uris", uris):
            if isinstance(item, str):
                out.append(key_str(<str>item, keep))
            elif skip:
                out.append(None)
            else:
                raise item_error("canonicalize_many", index, item)
            index += 1
        return out
    cdef _DropRules rules = _drop_rules("canonicalize_many", drop_params)
    cdef bint sort = True if sort_query else False
    cdef bint drop = True if drop_fragment else False
    for item in _iterate("canonicalize_many", "uris", uris):
        if isinstance(item, str):
            out.append(_key(<str>item, sort, drop, rules))
        elif skip:
            out.append(None)
        else:
            raise item_error("canonicalize_many", index, item)
        index += 1
    return out


def resolve_many(base, refs, *, strict=True, rfc=3986, errors="raise"):
    """``resolve(base, ref)`` (§5.2) for every item of ``refs``.

    ``base`` is checked before any item is read: ``InvalidURI`` when it has
    no scheme (§5.2.1).  A non-``str`` item raises ``TypeError`` naming its
    index, or gives ``None`` with ``errors="none"`` (as ``split_many``).
    """
    cdef bint skip = _skip_bad("resolve_many", errors)
    cdef bint strict_ = True if strict else False
    cdef int which
    cdef list out = []
    cdef Py_ssize_t index = 0
    if not isinstance(base, str):
        raise type_error("resolve_many", "base", base)
    if type(rfc) is int and (rfc == 3986 or rfc == 2396):
        which = rfc
    else:
        which = rfc_number("resolve_many", rfc)
    cdef PreparedBase prepared = PreparedBase(<str>base, strict_, which)
    for item in _iterate("resolve_many", "refs", refs):
        if isinstance(item, str):
            out.append(prepared.resolve(<str>item))
        elif skip:
            out.append(None)
        else:
            raise item_error("resolve_many", index, item)
        index += 1
    return out
