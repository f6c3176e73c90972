"""URIs in running text: the compiled twin of _extract_py.

The scanning is csrc/fasturi_extract.h, run over the str's own code units
(kind 1, 2 or 4) with no Python call per character;
Python objects are made only for the URIs found.  What counts as a URI is
defined in _extract_py's docstring; both twins return the same lists.
"""

from cpython.unicode cimport (
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_Substring,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcpy

from fasturi._capi cimport PyUnicode_IS_ASCII, PyUnicode_New, fu_unicode_ready
from fasturi._csrc cimport (
    FU_EXT_FTP,
    FU_EXT_WRAPPED,
    FU_EXT_WWW,
    fu_ext_match_t,
    fu_ext_state_t,
    fu_extract_next_1,
    fu_extract_next_2,
    fu_extract_next_4,
    fu_narrow_ascii_2,
    fu_narrow_ascii_4,
)

from fasturi._errors import type_error

__all__ = ["OPAQUE_SCHEMES", "extract"]


cdef inline object _piece(str t, int kind, const void *data, Py_ssize_t a, Py_ssize_t b,
                          bint ascii):
    # t[a:b] (never empty), made directly when it is ASCII: of wide text,
    # narrowed in one pass (the generic way looks for the largest character
    # first, then converts unit by unit).
    r = PyUnicode_New(b - a, 127)
    if ascii:
        memcpy(PyUnicode_DATA(r), <const uint8_t *>data + a, <size_t>(b - a))
        return r
    if kind == PyUnicode_2BYTE_KIND:
        if fu_narrow_ascii_2(<const uint16_t *>data + a, b - a, <uint8_t *>PyUnicode_DATA(r)):
            return r
    elif kind != PyUnicode_1BYTE_KIND:
        if fu_narrow_ascii_4(<const uint32_t *>data + a, b - a, <uint8_t *>PyUnicode_DATA(r)):
            return r
    return PyUnicode_Substring(t, a, b)


# The same set as csrc/fasturi_extract.h's fu_ext_opaque_scheme().
OPAQUE_SCHEMES = frozenset(
    {
        "about", "bitcoin", "cid", "data", "fax", "file", "geo", "info", "magnet",
        "mailto", "mid", "news", "sip", "sips", "sms", "tag", "tel", "urn", "xmpp",
    }
)

# Appendix C: whitespace inside <...> is dropped.
_DROP_SPACE = {ord(c): None for c in " \t\n\r\f\v"}


def extract(text, *, abbreviated=False):
    """URIs in running text (RFC 3986 Appendix C, RFC 2396 Appendix E).

    ``abbreviated=True`` also finds RFC 2396 Appendix F forms
    (``www.w3.org/x`` gives ``http://www.w3.org/x``).  The module docstring
    of ``_extract_py`` defines exactly what counts as a URI.
    """
    if not isinstance(text, str):
        raise type_error("extract", "text", text)
    cdef str t = <str>text
    cdef fu_ext_state_t st
    cdef fu_ext_match_t m
    cdef int found
    cdef list out = []
    fu_unicode_ready(t)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(t)
    cdef int kind = PyUnicode_KIND(t)
    cdef const void *data = PyUnicode_DATA(t)
    cdef bint ascii = PyUnicode_IS_ASCII(t)
    st.pos = 0
    st.floor = 0
    st.abbreviated = 1 if abbreviated else 0
    while True:
        # Holding the GIL: releasing it per URI would cost more than the
        # scan between two URIs of typical text.
        if kind == PyUnicode_1BYTE_KIND:
            found = fu_extract_next_1(<const uint8_t *>data, n, &st, &m)
        elif kind == PyUnicode_2BYTE_KIND:
            found = fu_extract_next_2(<const uint16_t *>data, n, &st, &m)
        else:
            found = fu_extract_next_4(<const uint32_t *>data, n, &st, &m)
        if not found:
            return out
        piece = _piece(t, kind, data, m.start, m.end, ascii)
        if m.kind == FU_EXT_WRAPPED:
            piece = piece.translate(_DROP_SPACE)
        elif m.kind == FU_EXT_WWW:
            piece = "http://" + piece
        elif m.kind == FU_EXT_FTP:
            piece = "ftp://" + piece
        out.append(piece)
