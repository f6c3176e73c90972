"""What a log analyst reads out of a URI, compiled: the twin of _parts_py.

Each function runs csrc/fasturi_parts.h on the text's bytes: an ASCII str
read in place, any other str as its UTF-8 (``surrogatepass`` where it holds
lone surrogates, the row then marked FU_FORM_UNCHECKED so that decoding
replaces their bytes as the reference's does).  A result that is a part of
the text as written is sliced from the str itself where it is ASCII; a
decoded one is UTF-8 by construction.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_DATA,
    PyUnicode_DecodeASCII,
    PyUnicode_DecodeUTF8,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_Substring,
)
from fasturi._csrc cimport (
    FU_FORM_DECODE,
    FU_FORM_UNCHECKED,
    fu_glob_t,
    fu_path_extension_1,
    fu_path_level_next,
    fu_path_range,
    fu_psl_host_range,
    fu_qfield_t,
    fu_query_key,
    fu_query_next,
    fu_query_param_1,
    fu_query_range,
    fu_query_value,
    fu_remove_params_1,
    fu_subdomain_host,
)
from fasturi._psl_c cimport _Table, _current

from fasturi._errors import type_error

__all__ = [
    "path_extension",
    "path_hierarchy",
    "query_param",
    "query_params",
    "remove_params",
    "subdomain",
]

cdef enum:
    STACK = 512  # scratch bytes on the C stack; more from the heap


ctypedef struct Text:
    # a str's bytes for the scanners: in place when ASCII, else its UTF-8
    const uint8_t *p
    Py_ssize_t n
    bint ascii, unchecked


cdef bytes _read(str func, object s, Text *t):
    """s's bytes into t; the bytes object they lie in (None: the str's own),
    to keep while t is read."""
    cdef bytes raw
    if not isinstance(s, str):
        raise type_error(func, "s", s)
    t.unchecked = False
    if PyUnicode_IS_ASCII(s):
        t.ascii = True
        t.p = <const uint8_t *>PyUnicode_DATA(s)
        t.n = PyUnicode_GET_LENGTH(s)
        return None
    t.ascii = False
    try:
        raw = (<str>s).encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates
        raw = (<str>s).encode("utf-8", "surrogatepass")
        t.unchecked = True
    t.p = <const uint8_t *>PyBytes_AS_STRING(raw)
    t.n = PyBytes_GET_SIZE(raw)
    return raw


cdef inline const char *_errors(const Text *t) noexcept:
    # how to decode t's bytes: lone surrogates pass where it may hold them
    if t.unchecked:
        return "surrogatepass"
    return NULL


cdef inline str _part(object s, const Text *t, Py_ssize_t a, Py_ssize_t b):
    # s's text [a, b) (byte offsets at ASCII delimiters), as written
    if t.ascii:
        return PyUnicode_Substring(s, a, b)
    return PyUnicode_DecodeUTF8(<const char *>t.p + a, b - a, _errors(t))


cdef inline str _value(object s, const Text *t, const uint8_t *res, Py_ssize_t m, int mode):
    # a key or value the scanners gave: decoded text is UTF-8; text as
    # written is a part of s
    if mode & FU_FORM_DECODE:
        return PyUnicode_DecodeUTF8(<const char *>res, m, NULL)
    return _part(s, t, res - t.p, res - t.p + m)


cdef inline int _mode(const Text *t, object decode):
    return (FU_FORM_DECODE if decode else 0) | (FU_FORM_UNCHECKED if t.unchecked else 0)


cdef uint8_t *_room(Py_ssize_t size, uint8_t *stack) except NULL:
    # `size` bytes of scratch: the caller's stack when they fit (free with
    # _free)
    cdef uint8_t *p
    if size <= STACK:
        return stack
    p = <uint8_t *>PyMem_Malloc(<size_t>size)
    if p == NULL:
        raise MemoryError()
    return p


cdef inline void _free(uint8_t *p, uint8_t *stack) noexcept:
    if p != stack:
        PyMem_Free(p)


def query_param(s, name, *, decode=True):
    """The value of the first query field whose key is ``name``.

    ``""`` for a field without ``=``; None when no field has that key or
    there is no query.  ``decode=True`` compares and returns keys and values
    form-decoded, ``decode=False`` as written.
    """
    cdef Text t
    cdef bytes _keep = _read("query_param", s, &t)
    if not isinstance(name, str):
        raise type_error("query_param", "name", name)
    cdef bytes key = (<str>name).encode("utf-8", "surrogatepass")
    cdef int mode = _mode(&t, decode)
    cdef uint8_t stack[STACK]
    cdef uint8_t *out = _room(4 * t.n + 4, stack)
    cdef const uint8_t *res
    cdef Py_ssize_t m
    try:
        m = fu_query_param_1(t.p, t.n, <const uint8_t *>PyBytes_AS_STRING(key),
                             PyBytes_GET_SIZE(key), mode, out, &res)
        if m < 0:
            return None
        if m == 0:
            return ""
        return _value(s, &t, res, m, mode)
    finally:
        _free(out, stack)


def query_params(s, *, decode=True):
    """Every query field in order, as (key, value); value None without ``=``.

    ``decode=True`` form-decodes keys and values, ``decode=False`` gives
    them as written.  ``[]`` when there is no query.
    """
    cdef Text t
    cdef bytes _keep = _read("query_params", s, &t)
    cdef int mode = _mode(&t, decode)
    cdef Py_ssize_t pos, qend, m
    cdef fu_qfield_t f
    cdef const uint8_t *res
    cdef list fields = []
    cdef uint8_t stack[STACK]
    cdef uint8_t *out
    if not fu_query_range(t.p, t.n, &pos, &qend):
        return fields
    out = _room(4 * t.n + 4, stack)
    try:
        while fu_query_next(t.p, &pos, qend, &f):
            m = fu_query_key(t.p, &f, mode, out, &res)
            key = _value(s, &t, res, m, mode)
            m = fu_query_value(t.p, &f, mode, out, &res)
            fields.append((key, None if m < 0 else _value(s, &t, res, m, mode)))
    finally:
        _free(out, stack)
    return fields


def remove_params(s, patterns):
    """``s`` without the query fields whose form-decoded key matches one of
    the glob ``patterns`` (``*`` any run of characters, ``?`` one).

    Everything else is kept byte for byte, empty pieces included; a query
    left empty loses its ``?``.  ``s`` itself when nothing matches.
    """
    cdef Text t
    cdef bytes _keep = _read("remove_params", s, &t)
    if isinstance(patterns, (str, bytes)) or not hasattr(patterns, "__iter__"):
        raise type_error("remove_params", "patterns", patterns, "an iterable of str")
    cdef list encoded = []
    for i, p in enumerate(tuple(patterns)):
        if not isinstance(p, str):
            raise type_error("remove_params", "patterns", p, "str", item=i)
        encoded.append((<str>p).encode("utf-8", "surrogatepass"))
    cdef Py_ssize_t ng = len(encoded), k, m, at = 4 * t.n + 4
    if ng == 0:
        return s
    cdef uint8_t stack[STACK]
    cdef uint8_t *room = _room(at + t.n, stack)  # the keys' decoding, then the result
    cdef fu_glob_t *globs = <fu_glob_t *>PyMem_Malloc(<size_t>ng * sizeof(fu_glob_t))
    try:
        if globs == NULL:
            raise MemoryError()
        for k in range(ng):
            globs[k].p = <const uint8_t *>PyBytes_AS_STRING(encoded[k])
            globs[k].n = PyBytes_GET_SIZE(encoded[k])
        m = fu_remove_params_1(t.p, t.n, globs, <int>ng, t.unchecked, room, room + at)
        if m < 0:
            return s
        if t.ascii:
            return PyUnicode_DecodeASCII(<const char *>room + at, m, NULL)
        return PyUnicode_DecodeUTF8(<const char *>room + at, m, _errors(&t))
    finally:
        PyMem_Free(globs)
        _free(room, stack)


def path_extension(s):
    """The text after the last ``.`` of the path's last segment, as written.

    None when that segment has no ``.``, when its last ``.`` is its first
    character (``.bashrc``), and for the dot-segments ``.`` and ``..``
    (RFC 3986 §3.3), which name no file.
    """
    cdef Text t
    cdef bytes _keep = _read("path_extension", s, &t)
    cdef Py_ssize_t at = 0
    cdef Py_ssize_t m = fu_path_extension_1(t.p, t.n, &at)
    if m < 0:
        return None
    return _part(s, &t, at, at + m)


def path_hierarchy(s):
    """The path's prefixes that end at each ``/`` but a leading one, then the
    whole path when it does not end there: ``/a/b/c`` gives ``["/a/",
    "/a/b/", "/a/b/c"]``, ``/`` gives ``["/"]``, an empty path ``[]``."""
    cdef Text t
    cdef bytes _keep = _read("path_hierarchy", s, &t)
    cdef Py_ssize_t a, b, at = -1, end
    cdef list levels = []
    fu_path_range(t.p, t.n, &a, &b)
    while True:
        end = fu_path_level_next(t.p, a, b, &at)
        if end < 0:
            return levels
        levels.append(_part(s, &t, a, end))


def subdomain(s, *, private=False):
    """The host's labels before its registrable domain, lowercased, as
    ``registrable_domain`` finds it (``s`` a URI or a bare host).

    ``""`` when the host is its registrable domain; None when it has none
    (IP addresses, public suffixes, no host).
    """
    cdef Text t
    cdef bytes _keep = _read("subdomain", s, &t)
    cdef Py_ssize_t a, b, m
    cdef const uint8_t *h
    cdef bytes lowered = None
    cdef _Table table = _current()
    cdef uint8_t stack[STACK]
    cdef uint8_t *out
    if not fu_psl_host_range(t.p, t.n, &a, &b):
        return None
    h = t.p + a
    if not t.ascii:
        # a host beyond ASCII: str.lower folds its case, as the reference's
        lowered = _part(s, &t, a, b).lower().encode("utf-8", "surrogatepass")
        h = <const uint8_t *>PyBytes_AS_STRING(lowered)
        b = PyBytes_GET_SIZE(lowered)
        a = 0
    out = _room(b - a, stack)
    try:
        m = fu_subdomain_host(&table.t, table.depth, h, b - a, 4 if private else 0, out)
        if m < 0:
            return None
        if t.ascii:
            return PyUnicode_DecodeASCII(<const char *>out, m, NULL)
        return PyUnicode_DecodeUTF8(<const char *>out, m, b"surrogatepass")
    finally:
        _free(out, stack)
