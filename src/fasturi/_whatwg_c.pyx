"""fasturi.whatwg's parser, compiled: the twin of _whatwg_py.

csrc/fasturi_whatwg.h parses the common case exactly (its opening comment
says which inputs: no tab, newline or backslash, no host beyond ASCII, no
"%" or xn-- label in a domain, no percent-encoded dot segment, ...); every
other input, every call with bytes, another type or a lone surrogate, and
every input that would fail, goes to _whatwg_py, the reference, so both
twins give the same URL, href or error for every input.  The URL objects
are _types.URL, their slots filled here directly.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_AsUTF8String
from libc.stdint cimport uint8_t
from libc.string cimport memcpy

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_New,
    fu_alloc_object,
    fu_set_slot,
    fu_slot_offset,
)
from fasturi._csrc cimport (
    FU_WW_FRAG,
    FU_WW_PATH,
    FU_WW_QUERY,
    FU_WW_SQUERY,
    FU_WW_USERINFO,
    fu_ww_enc,
    fu_ww_init,
    fu_ww_parse,
    fu_ww_room,
    fu_ww_url,
)

from fasturi import _whatwg_py
from fasturi._types import URL

__all__ = ["can_parse", "host_parse", "parse", "resolve"]

# The host parser alone (audit's host-differs hazard) is the reference's.
host_parse = _whatwg_py.host_parse

cdef Py_ssize_t _OFF[10]
for _i, _name in enumerate(URL.__slots__):
    _OFF[_i] = fu_slot_offset(URL.__dict__[_name])
    if _OFF[_i] < 0:
        raise ImportError(f"fasturi._types.URL.{_name} is not a slot")
if tuple(URL.__slots__) != (
    "_href", "_scheme", "_username", "_password", "_host", "_port", "_path", "_query",
    "_fragment", "_blob_origin",
):
    raise ImportError("fasturi._types.URL's slots are not the ones _whatwg_c fills")

# The special schemes' names, one object each (no string made per URL).
# (FU_WW_OTHER is 0, the others in the order of their enum)
cdef tuple _SCHEMES = (None, "http", "https", "ws", "wss", "ftp", "file")
cdef str _EMPTY = ""
cdef str _SLASH = "/"

fu_ww_init()

# Inputs up to this many bytes are parsed into a buffer on the stack.
DEF STACK = 2048


cdef inline str _ascii(const uint8_t *p, Py_ssize_t n):
    cdef str s = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(s), p, n)
    return s


cdef inline object _part(const uint8_t *out, Py_ssize_t a, Py_ssize_t b):
    """out[a:b] as a str; "" and "/" (most paths) are one object each."""
    if b - a == 1 and out[a] == 47:  # "/"
        return _SLASH
    if b == a:
        return _EMPTY
    return _ascii(out + a, b - a)


cdef object _url(const uint8_t *out, fu_ww_url *u):
    """The URL of a parse the C path took (out: its serialization)."""
    cdef Py_ssize_t end = u.len
    cdef object scheme = _SCHEMES[u.scheme] if u.scheme else _ascii(out, u.scheme_end)
    cdef object query = None, fragment = None
    if u.frag_start >= 0:
        fragment = _part(out, u.frag_start + 1, end)
        end = u.frag_start
    if u.query_start >= 0:
        query = _part(out, u.query_start + 1, end)
    cdef object port = None if u.port < 0 else <object>u.port
    o = fu_alloc_object(URL)
    fu_set_slot(o, _OFF[0], _ascii(out, u.len))
    fu_set_slot(o, _OFF[1], scheme)
    fu_set_slot(o, _OFF[2], _part(out, u.user_start, u.user_end))
    fu_set_slot(o, _OFF[3], _part(out, u.pass_start, u.pass_end))
    fu_set_slot(o, _OFF[4], _part(out, u.host_start, u.host_end) if u.host_start >= 0 else None)
    fu_set_slot(o, _OFF[5], port)
    fu_set_slot(o, _OFF[6], _part(out, u.path_start, u.path_end))
    fu_set_slot(o, _OFF[7], query)
    fu_set_slot(o, _OFF[8], fragment)
    fu_set_slot(o, _OFF[9], None)
    return o


cdef inline object _utf8(object s):
    """What holds s's UTF-8: s itself when it is an ASCII str, else its
    UTF-8 as bytes; None where s is not a str or has a lone surrogate (the
    reference replaces them)."""
    if type(s) is not str:
        return None
    if PyUnicode_IS_ASCII(s):
        return s
    try:
        return PyUnicode_AsUTF8String(s)
    except UnicodeEncodeError:
        return None


cdef inline const uint8_t *_data(object owner, Py_ssize_t *n):
    if type(owner) is str:
        n[0] = PyUnicode_GET_LENGTH(owner)
        return <const uint8_t *>PyUnicode_DATA(owner)
    n[0] = PyBytes_GET_SIZE(owner)
    return <const uint8_t *>PyBytes_AS_STRING(owner)


cdef object _fast(object input, object base, bint want_url):
    """The URL (want_url) or its href by the C path, or None where the
    input or base is not one it takes."""
    cdef Py_ssize_t n = 0, bn = 0
    cdef object input_owner = _utf8(input), base_owner = None
    if input_owner is None:
        return None
    cdef const uint8_t *s = _data(input_owner, &n)
    cdef const uint8_t *bs = NULL
    if base is not None:
        base_owner = _utf8(base)
        if base_owner is None:
            return None
        bs = _data(base_owner, &bn)
    cdef fu_ww_url b, u
    cdef uint8_t stack[STACK]
    cdef uint8_t *bout = NULL
    cdef uint8_t *out = stack
    cdef object result = None
    cdef Py_ssize_t broom = fu_ww_room(bn, 0) if base is not None else 0
    cdef Py_ssize_t room = fu_ww_room(n, broom)
    if broom + room > STACK:
        out = <uint8_t *>PyMem_Malloc(broom + room)
        if out == NULL:
            raise MemoryError()
    bout = out + room
    try:
        if base is not None:
            if not fu_ww_parse(bs, bn, NULL, NULL, bout, &b):
                return None
            if not fu_ww_parse(s, n, bout, &b, out, &u):
                return None
        elif not fu_ww_parse(s, n, NULL, NULL, out, &u):
            return None
        if want_url:
            result = _url(out, &u)
        else:
            result = _ascii(out, u.len)
    finally:
        if out != stack:
            PyMem_Free(out)
    return result


def parse(input, base=None):
    """Parse ``input`` against ``base`` (URL Standard, the API URL parser).

    Raises ``InvalidURL`` (a ``ValueError``) where the parser returns failure.
    """
    url = _fast(input, base, True)
    if url is None:
        return _whatwg_py.parse(input, base)
    return url


def can_parse(input, base=None):
    """Whether ``parse(input, base)`` succeeds (URL Standard, canParse)."""
    if _fast(input, base, False) is not None:
        return True
    return _whatwg_py.can_parse(input, base)


def resolve(base, ref):
    """The ``href`` of ``ref`` parsed against ``base`` (both must parse).

    Raises ``InvalidURL`` where either fails.
    """
    if base is not None:
        href = _fast(ref, base, False)
        if href is not None:
            return href
    return _whatwg_py.resolve(base, ref)


def _fast_parse(input, base=None):
    """The URL by the C path, or None where it hands the input to the
    reference (for the tests that count what the C path takes)."""
    return _fast(input, base, True)


def _encode_sets():
    """The percent-encode sets of the C path, over U+0000..U+007F, by name
    (for the test that compares them with the reference's)."""
    sets = {}
    for name, bit in (
        ("FRAGMENT_SET", FU_WW_FRAG),
        ("QUERY_SET", FU_WW_QUERY),
        ("SPECIAL_QUERY_SET", FU_WW_SQUERY),
        ("PATH_SET", FU_WW_PATH),
        ("USERINFO_SET", FU_WW_USERINFO),
    ):
        sets[name] = frozenset(chr(c) for c in range(128) if fu_ww_enc[c] & bit)
    return sets
