"""The RFC 3986 engine, compiled: the twin of _core_py.

Strings are read in place (kind + data pointer); the scans, percent codecs,
dot-segment removal, resolution and normalization run in the plain-C
helpers of csrc/ (fasturi_scan.h, fasturi_codec.h, fasturi_pct.h,
fasturi_dots.h) over code-unit buffers, with no Python calls inside their
loops.  The percent codec is the one _quote_c uses too (_codec.pxd).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcmp, memcpy

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_FromStringAndSize,
    PyBytes_GET_SIZE,
    PyObject_GC_UnTrack,
    PyUnicode_AsUCS4Copy,
    PyUnicode_CheckExact,
    PyUnicode_DATA,
    PyUnicode_DecodeUTF8,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_KIND,
    PyUnicode_MAX_CHAR_VALUE,
    PyUnicode_New,
    PyUnicode_Substring,
    fu_alloc_tuple,
    fu_unicode_ready,
)
from fasturi._codec cimport pct_encode_octets, pct_encode_text, pct_table
from fasturi._csrc cimport (
    FU_NORMALIZE_EXTRA,
    FU_RESOLVE_2396,
    FU_RESOLVE_3986,
    FU_RESOLVE_EXTRA,
    fu_authority_1,
    fu_authority_2,
    fu_authority_4,
    fu_authority_t,
    fu_dots_1,
    fu_dots_2,
    fu_dots_4,
    fu_normalize_1,
    fu_normalize_2,
    fu_normalize_4,
    fu_pct_count,
    fu_pct_decode_1,
    fu_pct_table_init,
    fu_resolve_1,
    fu_resolve_2,
    fu_resolve_4,
    fu_split_1,
    fu_split_2,
    fu_split_4,
    fu_split_t,
)

from fasturi._types import InvalidURI, Split
from fasturi._errors import rfc_number, type_error

__all__ = [
    "equivalent",
    "normalize",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "remove_dot_segments",
    "resolve",
    "split",
    "split_authority",
    "unsplit",
]

# Scratch space on the C stack for typical URIs; longer text goes to the heap.
cdef enum:
    STACK_WORDS = 1024
    STACK_BYTES = STACK_WORDS * 4

cdef object _Split = Split
cdef object _InvalidURI = InvalidURI
cdef str _EMPTY = ""
cdef str _HTTP = "http"
cdef str _HTTPS = "https"
# Called unbound so a str subclass cannot change what they do.
cdef object _str_encode = str.encode
cdef object _bytes_decode = bytes.decode

# §2.3 unreserved, the base of every action table of percent_encode.
cdef uint8_t _BASE_TABLE[256]
fu_pct_table_init(_BASE_TABLE)


cdef inline void *_scratch(Py_ssize_t nbytes, void *stack) except NULL:
    cdef void *p
    if nbytes <= STACK_BYTES:
        return stack
    p = PyMem_Malloc(<size_t>nbytes)
    if p == NULL:
        raise MemoryError()
    return p


cdef inline void _release(void *p, void *stack) noexcept:
    if p != stack:
        PyMem_Free(p)


cdef inline str _ascii_str(const void *data, Py_ssize_t n):
    cdef str r
    if n == 0:
        return _EMPTY
    r = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(r), data, <size_t>n)
    return r


cdef inline object _part(str s, const void *data, bint ascii, Py_ssize_t a, Py_ssize_t b):
    # s[a:b] as an exact str; the shared "" when empty.
    if b <= a:
        return _EMPTY
    if ascii:
        return _ascii_str(<const char *>data + a, b - a)
    return PyUnicode_Substring(s, a, b)


cdef inline object _part_or_none(str s, const void *data, bint ascii, Py_ssize_t a,
                                 Py_ssize_t b):
    if a < 0:
        return None
    return _part(s, data, ascii, a, b)


cdef inline str _from_units(int kind, const void *buf, Py_ssize_t n, bint ascii):
    # A canonical str from a code-unit buffer; ascii: known to be ASCII.
    if ascii:
        return _ascii_str(buf, n)
    return PyUnicode_FromKindAndData(kind, buf, n)


# ---- Appendix B and §5.3 --------------------------------------------------

cdef inline void _split_units(int kind, const void *data, Py_ssize_t n, fu_split_t *o) noexcept:
    if kind == 1:
        fu_split_1(<const uint8_t *>data, n, o)
    elif kind == 2:
        fu_split_2(<const uint16_t *>data, n, o)
    else:
        fu_split_4(<const uint32_t *>data, n, o)


cdef object split_str(str s):
    cdef fu_split_t o
    cdef Py_ssize_t n
    cdef int kind
    cdef const void *data
    cdef bint ascii
    fu_unicode_ready(s)
    n = PyUnicode_GET_LENGTH(s)
    kind = PyUnicode_KIND(s)
    data = PyUnicode_DATA(s)
    _split_units(kind, data, n, &o)
    ascii = PyUnicode_IS_ASCII(s)
    if o.scheme_end < 0:
        scheme = None
    elif kind == 1 and o.scheme_end == 4 and memcmp(data, b"http", 4) == 0:
        scheme = _HTTP  # the schemes of most URIs are shared, not copied
    elif kind == 1 and o.scheme_end == 5 and memcmp(data, b"https", 5) == 0:
        scheme = _HTTPS
    else:
        scheme = _part(s, data, ascii, 0, o.scheme_end)
    authority = _part_or_none(s, data, ascii, o.auth_start, o.auth_end)
    if o.path_start == 0 and o.path_end == n and PyUnicode_CheckExact(s):
        path = s
    else:
        path = _part(s, data, ascii, o.path_start, o.path_end)
    query = _part_or_none(s, data, ascii, o.query_start, o.query_end)
    fragment = _part_or_none(s, data, ascii, o.frag_start, n)
    # Items are made first, so the tuple is never seen half-filled.
    t = fu_alloc_tuple(_Split, 5)
    Py_INCREF(scheme)
    PyTuple_SET_ITEM(t, 0, scheme)
    Py_INCREF(authority)
    PyTuple_SET_ITEM(t, 1, authority)
    Py_INCREF(path)
    PyTuple_SET_ITEM(t, 2, path)
    Py_INCREF(query)
    PyTuple_SET_ITEM(t, 3, query)
    Py_INCREF(fragment)
    PyTuple_SET_ITEM(t, 4, fragment)
    # Its items are str or None, so it can never be part of a reference
    # cycle; the collector would otherwise walk every Split a program keeps
    # (it untracks such tuples by itself, but only exact tuples).
    PyObject_GC_UnTrack(t)
    return t


def split(s):
    """Split a URI reference into its five components (RFC 3986 Appendix B).

    ``None`` marks an undefined component, ``""`` an empty one.
    """
    if not isinstance(s, str):
        raise type_error("split", "s", s)
    return split_str(<str>s)


cdef str _unsplit_items(tuple items):
    cdef Py_ssize_t total = 0, pos = 0, k
    cdef Py_UCS4 maxchar = 0
    cdef char *out
    cdef int i
    cdef object item
    for i in range(5):
        item = <object>PyTuple_GET_ITEM(items, i)
        if item is None:
            continue
        if not isinstance(item, str):
            raise type_error("unsplit", "parts", item, "str or None", item=i)
        fu_unicode_ready(item)
        total += PyUnicode_GET_LENGTH(item) + (1 if i == 0 or i >= 3 else 2 if i == 1 else 0)
        if PyUnicode_MAX_CHAR_VALUE(item) > maxchar:
            maxchar = PyUnicode_MAX_CHAR_VALUE(item)
    if maxchar > 127:
        pieces = []
        for i in range(5):
            item = <object>PyTuple_GET_ITEM(items, i)
            if item is not None:
                if i == 1:
                    pieces.append("//")
                elif i == 3:
                    pieces.append("?")
                elif i == 4:
                    pieces.append("#")
                pieces.append(item)
                if i == 0:
                    pieces.append(":")
        return _EMPTY.join(pieces)
    r = PyUnicode_New(total, 127)
    out = <char *>PyUnicode_DATA(r)
    for i in range(5):
        item = <object>PyTuple_GET_ITEM(items, i)
        if item is None:
            continue
        if i == 1:
            out[pos] = b'/'
            out[pos + 1] = b'/'
            pos += 2
        elif i == 3:
            out[pos] = b'?'
            pos += 1
        elif i == 4:
            out[pos] = b'#'
            pos += 1
        k = PyUnicode_GET_LENGTH(item)
        memcpy(out + pos, PyUnicode_DATA(item), <size_t>k)
        pos += k
        if i == 0:
            out[pos] = b':'
            pos += 1
    return r


def unsplit(parts):
    """Recompose ``(scheme, authority, path, query, fragment)`` (RFC 3986 §5.3).

    Components are emitted as given; ``None`` leaves one (and its delimiter)
    out.  ``unsplit(split(s)) == s`` for every string.
    """
    cdef tuple items
    if isinstance(parts, tuple):
        items = <tuple>parts  # Split included: its items are read in place
    elif isinstance(parts, (str, bytes, bytearray)):
        raise type_error("unsplit", "parts", parts, "a sequence of 5 items")
    else:
        try:
            items = tuple(parts)
        except TypeError:
            raise type_error("unsplit", "parts", parts, "a sequence of 5 items") from None
    if PyTuple_GET_SIZE(items) != 5:
        raise ValueError(
            f"unsplit() argument 'parts' must have 5 items, not {PyTuple_GET_SIZE(items)}"
        )
    return _unsplit_items(items)


cdef tuple split_authority_str(str authority):
    cdef fu_authority_t o
    cdef Py_ssize_t n
    cdef int kind
    cdef const void *data
    cdef bint ascii
    fu_unicode_ready(authority)
    n = PyUnicode_GET_LENGTH(authority)
    kind = PyUnicode_KIND(authority)
    data = PyUnicode_DATA(authority)
    if kind == 1:
        fu_authority_1(<const uint8_t *>data, 0, n, &o)
    elif kind == 2:
        fu_authority_2(<const uint16_t *>data, 0, n, &o)
    else:
        fu_authority_4(<const uint32_t *>data, 0, n, &o)
    ascii = PyUnicode_IS_ASCII(authority)
    if o.host_start == 0 and o.host_end == n and PyUnicode_CheckExact(authority):
        host = authority
    else:
        host = _part(authority, data, ascii, o.host_start, o.host_end)
    return (
        _part_or_none(authority, data, ascii, 0 if o.userinfo_end >= 0 else -1,
                      o.userinfo_end),
        host,
        _part_or_none(authority, data, ascii, o.port_start, n),
    )


def split_authority(authority):
    """Split an authority into ``(userinfo, host, port)`` (RFC 3986 §3.2).

    ``userinfo`` and ``port`` are ``None`` when their delimiter is absent.
    """
    if not isinstance(authority, str):
        raise type_error("split_authority", "authority", authority)
    return split_authority_str(<str>authority)


# ---- §5.2.4 -----------------------------------------------------------------

cdef str remove_dot_segments_str(str path):
    cdef Py_ssize_t n, m
    cdef int kind
    cdef const void *data
    cdef uint32_t stack[STACK_WORDS]
    cdef void *buf
    fu_unicode_ready(path)
    n = PyUnicode_GET_LENGTH(path)
    kind = PyUnicode_KIND(path)
    data = PyUnicode_DATA(path)
    buf = _scratch(n * kind, stack)
    try:
        memcpy(buf, data, <size_t>(n * kind))
        if kind == 1:
            m = fu_dots_1(<uint8_t *>buf, n)
        elif kind == 2:
            m = fu_dots_2(<uint16_t *>buf, n)
        else:
            m = fu_dots_4(<uint32_t *>buf, n)
        # The pass only drops units, so an unchanged length is unchanged text.
        if m == n and PyUnicode_CheckExact(path):
            return path
        return _from_units(kind, buf, m, PyUnicode_IS_ASCII(path))
    finally:
        _release(buf, stack)


def remove_dot_segments(path):
    """Remove "." and ".." segments from a path (RFC 3986 §5.2.4)."""
    if not isinstance(path, str):
        raise type_error("remove_dot_segments", "path", path)
    return remove_dot_segments_str(<str>path)


# ---- §5.2 -------------------------------------------------------------------

cdef inline str _resolve_units(int kind, const void *pb, Py_ssize_t nb, const fu_split_t *parts,
                               const void *pr, Py_ssize_t nr, bint strict, int mode,
                               bint ascii):
    # §5.2 on code units of one width, the base (which has a scheme) split
    # into parts; ascii: both texts are ASCII.
    cdef uint32_t stack[STACK_WORDS]
    cdef void *buf = _scratch((nb + nr + FU_RESOLVE_EXTRA) * kind, stack)
    cdef Py_ssize_t m
    try:
        if kind == 1:
            m = fu_resolve_1(<const uint8_t *>pb, nb, parts, <const uint8_t *>pr, nr, strict,
                             mode, <uint8_t *>buf)
        elif kind == 2:
            m = fu_resolve_2(<const uint16_t *>pb, nb, parts, <const uint16_t *>pr, nr, strict,
                             mode, <uint16_t *>buf)
        else:
            m = fu_resolve_4(<const uint32_t *>pb, nb, parts, <const uint32_t *>pr, nr, strict,
                             mode, <uint32_t *>buf)
        return _from_units(kind, buf, m, ascii)
    finally:
        _release(buf, stack)


cdef inline object _relative_base():
    # §5.2.1: only the scheme is required of a base URI
    return _InvalidURI("base URI must be absolute", 0, "absolute-URI")


cdef str resolve_str(str base, str ref, bint strict, int rfc):
    cdef Py_ssize_t nb, nr
    cdef int kind
    cdef const void *pb
    cdef const void *pr
    cdef Py_UCS4 *wide_b = NULL
    cdef Py_UCS4 *wide_r = NULL
    cdef fu_split_t parts
    fu_unicode_ready(base)
    fu_unicode_ready(ref)
    nb = PyUnicode_GET_LENGTH(base)
    nr = PyUnicode_GET_LENGTH(ref)
    kind = PyUnicode_KIND(base)
    try:
        if kind == PyUnicode_KIND(ref):
            pb = PyUnicode_DATA(base)
            pr = PyUnicode_DATA(ref)
        else:
            # Mixed widths are rare (non-ASCII text): work in UCS-4.
            kind = 4
            wide_b = PyUnicode_AsUCS4Copy(base)
            wide_r = PyUnicode_AsUCS4Copy(ref)
            pb = wide_b
            pr = wide_r
        _split_units(kind, pb, nb, &parts)
        if parts.scheme_end < 0:
            raise _relative_base()
        return _resolve_units(kind, pb, nb, &parts, pr, nr, strict,
                              FU_RESOLVE_2396 if rfc == 2396 else FU_RESOLVE_3986,
                              PyUnicode_IS_ASCII(base) and PyUnicode_IS_ASCII(ref))
    finally:
        PyMem_Free(wide_b)
        PyMem_Free(wide_r)


cdef class PreparedBase:
    # The base of a batch, split once.  A reference of another width than
    # the base goes through resolve_str, which widens.

    def __cinit__(self, object text, bint strict, int rfc):
        # object, not str: Cython's str check refuses str subclasses.
        if not isinstance(text, str):
            raise type_error("PreparedBase", "base", text)
        cdef str base = <str>text
        fu_unicode_ready(base)
        self.base = base
        self.kind = PyUnicode_KIND(base)
        self.ascii = PyUnicode_IS_ASCII(base)
        self.strict = strict
        self.rfc = rfc
        self.mode = FU_RESOLVE_2396 if rfc == 2396 else FU_RESOLVE_3986
        _split_units(self.kind, PyUnicode_DATA(base), PyUnicode_GET_LENGTH(base), &self.parts)
        if self.parts.scheme_end < 0:
            raise _relative_base()

    cdef str resolve(self, str ref):
        fu_unicode_ready(ref)
        if PyUnicode_KIND(ref) != self.kind:
            return resolve_str(self.base, ref, self.strict, self.rfc)
        return _resolve_units(self.kind, PyUnicode_DATA(self.base),
                              PyUnicode_GET_LENGTH(self.base), &self.parts, PyUnicode_DATA(ref),
                              PyUnicode_GET_LENGTH(ref), self.strict, self.mode,
                              self.ascii and PyUnicode_IS_ASCII(ref))


def resolve(base, ref, *, strict=True, rfc=3986):
    """Resolve ``ref`` against ``base`` (RFC 3986 §5.2).

    ``strict=False`` ignores a reference scheme equal to the base's (§5.2.2);
    ``rfc=2396`` gives RFC 2396 §5.2 results (unresolvable ".." kept, absolute
    paths taken as written).  ``InvalidURI`` when ``base`` has no scheme.
    """
    cdef int which
    if not isinstance(base, str):
        raise type_error("resolve", "base", base)
    if not isinstance(ref, str):
        raise type_error("resolve", "ref", ref)
    if type(rfc) is int and (rfc == 3986 or rfc == 2396):
        which = rfc
    else:
        which = rfc_number("resolve", rfc)
    return resolve_str(<str>base, <str>ref, True if strict else False, which)


# ---- §6.2.2 and §6.2.3 --------------------------------------------------------

cdef str normalize_str(str s, bint scheme_based):
    cdef Py_ssize_t n, m
    cdef int kind
    cdef const void *data
    cdef uint32_t stack[STACK_WORDS]
    cdef void *buf
    fu_unicode_ready(s)
    n = PyUnicode_GET_LENGTH(s)
    kind = PyUnicode_KIND(s)
    data = PyUnicode_DATA(s)
    buf = _scratch((n + FU_NORMALIZE_EXTRA) * kind, stack)
    try:
        if kind == 1:
            m = fu_normalize_1(<const uint8_t *>data, n, scheme_based, <uint8_t *>buf)
        elif kind == 2:
            m = fu_normalize_2(<const uint16_t *>data, n, scheme_based, <uint16_t *>buf)
        else:
            m = fu_normalize_4(<const uint32_t *>data, n, scheme_based, <uint32_t *>buf)
        # Already normal text (the common case) is returned, not copied.
        if m == n and PyUnicode_CheckExact(s) and memcmp(buf, data, <size_t>(n * kind)) == 0:
            return s
        return _from_units(kind, buf, m, PyUnicode_IS_ASCII(s))
    finally:
        _release(buf, stack)


def normalize(s, *, scheme_based=True):
    """Normalize a URI reference (RFC 3986 §6.2.2, then §6.2.3).

    Case, percent-encoding and dot segments always; with ``scheme_based``,
    also empty or default ports and the empty http(s)/ws(s)/ftp path.
    Idempotent on every string.
    """
    if not isinstance(s, str):
        raise type_error("normalize", "s", s)
    return normalize_str(<str>s, True if scheme_based else False)


def equivalent(a, b):
    """Are ``a`` and ``b`` equivalent after normalization (RFC 3986 §6.2)?"""
    if not isinstance(a, str):
        raise type_error("equivalent", "a", a)
    if not isinstance(b, str):
        raise type_error("equivalent", "b", b)
    return a == b or normalize_str(<str>a, True) == normalize_str(<str>b, True)


# ---- §2.1 -------------------------------------------------------------------

cdef str percent_encode_str(str s, str safe):
    cdef uint8_t t[256]
    pct_table(_BASE_TABLE, safe, t, False)
    r = pct_encode_text(s, t)
    if r is None:
        # A surrogate, which UTF-8 cannot encode: str.encode raises its error.
        data = _str_encode(s, "utf-8", "strict")
        return pct_encode_octets(<const uint8_t *>PyBytes_AS_STRING(data),
                                 PyBytes_GET_SIZE(data), t)
    return <str>r


def percent_encode(s, safe="", *, encoding="utf-8", errors="strict"):
    """Percent-encode every octet outside unreserved and ``safe`` (RFC 3986 §2.1).

    The text is first encoded with ``encoding``/``errors``; only the ASCII
    characters of ``safe`` are honoured.  Hex digits are uppercase.
    """
    cdef uint8_t t[256]
    if not isinstance(s, str):
        raise type_error("percent_encode", "s", s)
    if not isinstance(safe, str):
        raise type_error("percent_encode", "safe", safe)
    if not isinstance(encoding, str):
        raise type_error("percent_encode", "encoding", encoding)
    if not isinstance(errors, str):
        raise type_error("percent_encode", "errors", errors)
    if encoding == "utf-8" and errors == "strict":
        return percent_encode_str(<str>s, <str>safe)
    pct_table(_BASE_TABLE, safe, t, False)
    data = _str_encode(s, encoding, errors)
    return pct_encode_octets(<const uint8_t *>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), t)


cdef bytes _decode_octets(const uint8_t *src, Py_ssize_t n, object same):
    # src[0, n) with every valid %hh replaced by its octet; `same` (or None)
    # is returned when there is none.
    cdef Py_ssize_t k = fu_pct_count(src, n)
    cdef uint32_t high = 0
    cdef bytes r
    if k == 0 and same is not None:
        return same
    r = PyBytes_FromStringAndSize(NULL, n - 2 * k)
    fu_pct_decode_1(src, n, False, <uint8_t *>PyBytes_AS_STRING(r), &high)
    return r


cdef bytes percent_decode_bytes_str(str s):
    fu_unicode_ready(s)
    if PyUnicode_IS_ASCII(s):
        return _decode_octets(<const uint8_t *>PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s), None)
    data = _str_encode(s, "utf-8", "surrogatepass")
    return _decode_octets(<const uint8_t *>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), data)


def percent_decode_bytes(s):
    """Decode every ``%hh`` triplet to its octet (RFC 3986 §2.1).

    A ``str`` is UTF-8 encoded (``surrogatepass``) first; malformed ``%``
    sequences are kept.
    """
    if isinstance(s, str):
        return percent_decode_bytes_str(<str>s)
    if isinstance(s, bytes):
        return _decode_octets(<const uint8_t *>PyBytes_AS_STRING(s), PyBytes_GET_SIZE(s),
                              s if type(s) is bytes else None)
    raise type_error("percent_decode_bytes", "s", s, "str or bytes")


def percent_decode(s, *, encoding="utf-8", errors="strict"):
    """Decode ``%hh`` triplets and read the octets as ``encoding`` (RFC 3986 §2.1).

    Equal to ``percent_decode_bytes(s).decode(encoding, errors)``: malformed
    ``%`` sequences are kept, and undecodable octets follow ``errors``
    (``UnicodeDecodeError`` by default).
    """
    cdef const uint8_t *src
    cdef Py_ssize_t n, k
    cdef uint32_t stack[STACK_WORDS]
    cdef uint32_t high = 0
    cdef void *buf
    if not isinstance(s, str):
        raise type_error("percent_decode", "s", s)
    if not isinstance(encoding, str):
        raise type_error("percent_decode", "encoding", encoding)
    if not isinstance(errors, str):
        raise type_error("percent_decode", "errors", errors)
    if encoding != "utf-8" or errors != "strict":
        return _bytes_decode(percent_decode_bytes_str(<str>s), encoding, errors)
    fu_unicode_ready(s)
    data = None
    if PyUnicode_IS_ASCII(s):
        src = <const uint8_t *>PyUnicode_DATA(s)
        n = PyUnicode_GET_LENGTH(s)
    else:
        data = _str_encode(s, "utf-8", "surrogatepass")
        src = <const uint8_t *>PyBytes_AS_STRING(data)
        n = PyBytes_GET_SIZE(data)
    k = fu_pct_count(src, n)
    if k == 0 and data is None and PyUnicode_CheckExact(s):
        return s  # ASCII without escapes reads back as itself
    buf = _scratch(n - 2 * k, stack)
    try:
        fu_pct_decode_1(src, n, False, <uint8_t *>buf, &high)
        return PyUnicode_DecodeUTF8(<const char *>buf, n - 2 * k, NULL)
    finally:
        _release(buf, stack)
