"""fasturi.whatwg's SearchParams, compiled: the twin of _search_params_py.

The urlencoded parser runs over the query's UTF-8 in C (csrc/
fasturi_urlencoded.h and fasturi_codec.h's decoder: '&', '=', '+' and
"%HH" in one pass a piece), making one str a name or value; the
serializer measures, then writes, every pair into one ASCII str.  The
list is a list of (name, value) tuples, as the reference's is.  Web IDL's
conversions where they are not a plain str without lone surrogates (a
lone surrogate's U+FFFD, an init of pairs or a mapping) are _webidl's,
which both twins share.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyTypeObject
from cpython.unicode cimport PyUnicode_AsUTF8String
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcpy

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_DATA,
    PyUnicode_DecodeUTF8,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_KIND,
    PyUnicode_New,
)
from fasturi._csrc cimport (
    fu_pct_decode_1,
    fu_pct_encode_2,
    fu_pct_encode_4,
    fu_pct_encode_len_2,
    fu_pct_encode_len_4,
    fu_ue_enc_init,
    fu_ue_enc_t,
    fu_ue_encode_1,
    fu_ue_encode_len_1,
    fu_ue_next,
    fu_ue_table_init,
)

from operator import itemgetter

from fasturi._errors import type_error
from fasturi._types import UNPICKLE
from fasturi._webidl import init_pairs, usv_string

__all__ = ["SearchParams", "urlencoded_parse", "urlencoded_serialize", "urlencoded_string_parse"]

# The serializer's action per byte (fasturi_codec.h's FU_PCT_*), and each
# one-byte code unit's encoding.
cdef uint8_t _TABLE[256]
fu_ue_table_init(_TABLE)
cdef fu_ue_enc_t _ENC
fu_ue_enc_init(&_ENC)

cdef str _EMPTY = ""
cdef object _NAME = itemgetter(0)

# Pieces up to this many bytes are decoded in a buffer on the stack.
DEF STACK = 512


cdef inline str _ascii(const uint8_t *p, Py_ssize_t n):
    cdef str s = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(s), p, n)
    return s


cdef inline str _piece(const uint8_t *p, Py_ssize_t n, uint8_t *buf):
    """A name or value: '+' as a space and the percent-decoding (into buf,
    room for n bytes), UTF-8 decoded with U+FFFD for what is not UTF-8."""
    cdef uint32_t high = 0
    cdef Py_ssize_t m
    if n == 0:
        return _EMPTY
    m = fu_pct_decode_1(p, n, 1, buf, &high)
    if high & 0x80:
        return PyUnicode_DecodeUTF8(<const char *>buf, m, "replace")
    return _ascii(buf, m)


cdef list _parse(const uint8_t *s, Py_ssize_t n):
    """The application/x-www-form-urlencoded parser on the bytes s[0, n)."""
    cdef list output = []
    cdef Py_ssize_t i = 0, a = 0, eq = 0, end = 0
    cdef uint8_t stack[STACK]
    cdef uint8_t *buf = stack
    if n > STACK:
        buf = <uint8_t *>PyMem_Malloc(n)
        if buf == NULL:
            raise MemoryError()
    try:
        while fu_ue_next(s, n, &i, &a, &eq, &end):
            output.append((_piece(s + a, eq - a, buf),
                           _piece(s + eq + 1, end - eq - 1, buf) if eq < end else _EMPTY))
    finally:
        if buf != stack:
            PyMem_Free(buf)
    return output


cdef list _parse_str(str text, Py_ssize_t start):
    """The application/x-www-form-urlencoded string parser on text[start:]
    (a scalar value string)."""
    cdef bytes utf8
    if PyUnicode_IS_ASCII(text):
        return _parse(<const uint8_t *>PyUnicode_DATA(text) + start,
                      PyUnicode_GET_LENGTH(text) - start)
    utf8 = PyUnicode_AsUTF8String(text[start:] if start else text)
    return _parse(<const uint8_t *>PyBytes_AS_STRING(utf8), PyBytes_GET_SIZE(utf8))


cdef inline bint _has_surrogate(str s):
    cdef int kind = PyUnicode_KIND(s)
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(s)
    cdef const uint16_t *s2
    cdef const uint32_t *s4
    if kind == 2:
        s2 = <const uint16_t *>PyUnicode_DATA(s)
        for i in range(n):
            if s2[i] - 0xD800u < 0x800u:
                return True
    elif kind == 4:
        s4 = <const uint32_t *>PyUnicode_DATA(s)
        for i in range(n):
            if s4[i] - 0xD800u < 0x800u:
                return True
    return False


cdef inline str _usv(str func, str argument, object value):
    """value as a USVString (_webidl's usv_string where it is not a plain
    str without lone surrogates: it names the argument of another type)."""
    if type(value) is str and (PyUnicode_IS_ASCII(value) or not _has_surrogate(value)):
        return value
    return usv_string(func, argument, value)


cdef Py_ssize_t _encoded_len(str s) noexcept:
    """The length of s percent-encoded after encoding (UTF-8, the
    urlencoded set, spaceAsPlus); -1 for a lone surrogate."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(s)
    if kind == 1:
        return fu_ue_encode_len_1(&_ENC, <const uint8_t *>data, n)
    if kind == 2:
        return fu_pct_encode_len_2(<const uint16_t *>data, n, _TABLE)
    return fu_pct_encode_len_4(<const uint32_t *>data, n, _TABLE)


cdef inline uint8_t *_encode(str s, uint8_t *o, const uint8_t *end):
    """s encoded at o (room up to end)."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(s)
    if kind == 1:
        return fu_ue_encode_1(&_ENC, <const uint8_t *>data, n, o, end)
    if kind == 2:
        return fu_pct_encode_2(<const uint16_t *>data, n, _TABLE, o)
    return fu_pct_encode_4(<const uint32_t *>data, n, _TABLE, o)


cdef str _serialize(list pairs):
    """The application/x-www-form-urlencoded serializer."""
    cdef Py_ssize_t total = 0, m, m2
    cdef tuple pair
    cdef str out
    cdef uint8_t *o
    cdef const uint8_t *end
    cdef bint first = True
    if not pairs:
        return _EMPTY
    for pair in pairs:
        m = _encoded_len(<str>pair[0])
        total += m + 2  # "=" and "&" (one "&" too many: taken off below)
        m2 = _encoded_len(<str>pair[1])
        total += m2
        if m < 0 or m2 < 0:
            # a lone surrogate: UTF-8 refuses it, as the reference's
            # encoding does (the same UnicodeEncodeError)
            (<str>pair[0 if m < 0 else 1]).encode("utf-8")
            raise UnicodeError("a lone surrogate")  # (encode raises first)
    out = PyUnicode_New(total - 1, 127)
    o = <uint8_t *>PyUnicode_DATA(out)
    end = o + total - 1
    for pair in pairs:
        if not first:
            o[0] = b"&"
            o += 1
        first = False
        o = _encode(<str>pair[0], o, end)
        o[0] = b"="
        o = _encode(<str>pair[1], o + 1, end)
    return out


def urlencoded_parse(input):
    """The application/x-www-form-urlencoded parser (the bytes ``input``)."""
    if type(input) is not bytes:
        input = bytes(input)
    return _parse(<const uint8_t *>PyBytes_AS_STRING(input), PyBytes_GET_SIZE(input))


def urlencoded_string_parse(str input):
    """The application/x-www-form-urlencoded string parser: ``input`` (a
    scalar value string) UTF-8 encoded, then parsed."""
    return _parse_str(input, 0)


def urlencoded_serialize(tuples):
    """The application/x-www-form-urlencoded serializer (UTF-8)."""
    # (_serialize reads pairs of str unchecked: a SearchParams' list is)
    cdef list pairs = []
    for i, (name, value) in enumerate(tuples):
        if not isinstance(name, str) or not isinstance(value, str):
            raise type_error("urlencoded_serialize", "tuples", (name, value), "a pair of str", i)
        pairs.append((name, value))
    return _serialize(pairs)


@cython.final
cdef class SearchParams:
    """The URL Standard's URLSearchParams: a list of (name, value) pairs.

    ``init`` is a query string (a leading "?" dropped; ``bytes`` are the
    urlencoded parser's input as they are), a mapping, or an iterable of
    (name, value) pairs.  ``str()`` is the standard's serialization.
    """

    cdef list _list

    def __init__(self, init=""):
        cdef bytes raw
        cdef Py_ssize_t start
        if type(init) is str:
            start = 1 if PyUnicode_GET_LENGTH(init) and (<str>init)[0] == "?" else 0
            if PyUnicode_IS_ASCII(init) or not _has_surrogate(init):
                self._list = _parse_str(init, start)
                return
        elif type(init) is SearchParams:
            self._list = list((<SearchParams>init)._list)
            return
        elif isinstance(init, (bytes, bytearray, memoryview)):
            raw = init if type(init) is bytes else bytes(init)
            start = 1 if PyBytes_GET_SIZE(raw) and raw[0] == 0x3F else 0
            self._list = _parse(<const uint8_t *>PyBytes_AS_STRING(raw) + start,
                                PyBytes_GET_SIZE(raw) - start)
            return
        # a str subclass or with a lone surrogate, a mapping, pairs:
        # Web IDL's conversions first
        if isinstance(init, str):
            if init.startswith("?"):
                init = init[1:]
            self._list = _parse_str(usv_string("SearchParams", "init", init), 0)
        else:
            self._list = init_pairs(init)

    def append(self, name, value):
        """Append (name, value)."""
        self._list.append((_usv("append", "name", name), _usv("append", "value", value)))

    def delete(self, name, value=None):
        """Remove every pair whose name is ``name`` (and whose value is
        ``value``, when given)."""
        cdef str n = _usv("delete", "name", name)
        cdef tuple pair
        if value is None:
            self._list[:] = [pair for pair in self._list if pair[0] != n]
        else:
            pair = (n, _usv("delete", "value", value))
            self._list[:] = [p for p in self._list if p != pair]

    def get(self, name):
        """The value of the first pair whose name is ``name``, or None."""
        cdef str n = _usv("get", "name", name)
        cdef tuple pair
        for pair in self._list:
            if <str>pair[0] == n:
                return pair[1]
        return None

    def get_all(self, name):
        """The values of every pair whose name is ``name``, in order."""
        cdef str n = _usv("get_all", "name", name)
        cdef tuple pair
        return [pair[1] for pair in self._list if <str>pair[0] == n]

    def has(self, name, value=None):
        """Whether a pair has the name ``name`` (and the value ``value``,
        when given)."""
        cdef str n = _usv("has", "name", name)
        cdef tuple pair
        if value is None:
            for pair in self._list:
                if <str>pair[0] == n:
                    return True
            return False
        return (n, _usv("has", "value", value)) in self._list

    def set(self, name, value):
        """Set the value of the first pair named ``name`` and remove the
        others of that name, or append (name, value) where there is none."""
        cdef str n = _usv("set", "name", name)
        cdef str v = _usv("set", "value", value)
        cdef Py_ssize_t i
        cdef list pairs = self._list
        cdef tuple pair
        for i in range(len(pairs)):
            if <str>(<tuple>pairs[i])[0] == n:
                pairs[i + 1:] = [pair for pair in pairs[i + 1:] if pair[0] != n]
                pairs[i] = (n, v)
                return
        pairs.append((n, v))

    def sort(self):
        """Sort the pairs by name, stably, comparing names by UTF-16 code
        units as the standard does (U+FFFD sorts after U+1F308)."""
        cdef tuple pair
        for pair in self._list:
            # (a str of kind 4 holds a code point past U+FFFF: only there
            # do code units and code points order differently)
            if PyUnicode_KIND(<str>pair[0]) == 4:
                self._list.sort(key=_utf16)
                return
        self._list.sort(key=_NAME)

    def keys(self):
        """Every pair's name, in order."""
        cdef tuple pair
        return [pair[0] for pair in self._list]

    def values(self):
        """Every pair's value, in order."""
        cdef tuple pair
        return [pair[1] for pair in self._list]

    def items(self):
        """The (name, value) pairs, in order."""
        return list(self._list)

    def __len__(self):
        return len(self._list)

    def __iter__(self):
        # over the list itself, as the standard's iterator is
        return iter(self._list)

    def __contains__(self, name):
        return isinstance(name, str) and self.has(name)

    def __str__(self):
        return _serialize(self._list)

    def __repr__(self):
        return f"SearchParams({_serialize(self._list)!r})"

    def __eq__(self, other):
        if type(other) is SearchParams:
            return self._list == (<SearchParams>other)._list
        return NotImplemented

    def __ne__(self, other):
        if type(other) is SearchParams:
            return self._list != (<SearchParams>other)._list
        return NotImplemented

    __hash__ = None

    def __reduce__(self):
        # by its pairs, which load as the running twin's SearchParams
        # (_types.UNPICKLE)
        return UNPICKLE.get("search_params", SearchParams), (list(self._list),)

    def __copy__(self):
        return SearchParams(self)


def _utf16(tuple pair):
    """sort()'s key where a name holds a code point past U+FFFF."""
    return (<str>pair[0]).encode("utf-16-be")


# Users meet the class as fasturi.whatwg.SearchParams, as the reference's.
(<PyTypeObject *>SearchParams).tp_name = "fasturi.whatwg.SearchParams"
