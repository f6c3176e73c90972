# The Cython side of the one percent codec (csrc/fasturi_codec.h), shared
# by the RFC API (_core_c: percent_encode) and the urllib.parse drop-in
# (_quote_c: quote, quote_plus, quote_from_bytes, urlencode).  Inline, so
# each module compiles its own copy of one definition.
#
#     from fasturi._codec cimport pct_table, pct_encode_octets, pct_encode_text
#
# An action table is 256 bytes (FU_PCT_COPY / FU_PCT_PLUS / FU_PCT_ESCAPE per
# octet or ASCII code point); `base` is one filled by fu_pct_table_init (§2.3
# unreserved), kept by the caller so a call copies it rather than builds it.

from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcpy

from fasturi._capi cimport (
    PY_SSIZE_T_MAX,
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_CheckExact,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_New,
    fu_unicode_ready,
)
from fasturi._csrc cimport (
    FU_PCT_PLUS,
    fu_pct_encode_1,
    fu_pct_encode_2,
    fu_pct_encode_4,
    fu_pct_encode_bytes,
    fu_pct_encode_len_1,
    fu_pct_encode_len_2,
    fu_pct_encode_len_4,
    fu_pct_encode_len_bytes,
    fu_pct_span_1,
    fu_pct_span_bytes,
    fu_pct_table_add,
)


cdef inline int pct_table(const uint8_t *base, object safe, uint8_t *t, bint plus) except -1:
    """Fill `t`: `base` plus the ASCII of `safe`, a str or an exact bytes (the
    caller checked the type); with `plus`, ' ' becomes '+' (quote_plus)."""
    cdef Py_ssize_t i, n
    cdef int kind
    cdef const char *data
    cdef const uint8_t *b
    memcpy(t, base, 256)
    if isinstance(safe, str):
        fu_unicode_ready(safe)
        n = PyUnicode_GET_LENGTH(safe)
        kind = PyUnicode_KIND(safe)
        data = <const char *>PyUnicode_DATA(safe)
        for i in range(n):
            if kind == 1:
                fu_pct_table_add(t, (<const uint8_t *>data)[i])
            elif kind == 2:
                fu_pct_table_add(t, (<const uint16_t *>data)[i])
            else:
                fu_pct_table_add(t, (<const uint32_t *>data)[i])
    else:
        n = PyBytes_GET_SIZE(safe)
        b = <const uint8_t *>PyBytes_AS_STRING(safe)
        for i in range(n):
            fu_pct_table_add(t, b[i])
    if plus:
        # quote_plus: ' ' joins `safe` and then becomes '+'.
        t[32] = FU_PCT_PLUS
    return 0


cdef inline str pct_encode_octets(const uint8_t *s, Py_ssize_t n, const uint8_t *t):
    """The octets s[0, n) percent-encoded through `t`: always a new ASCII str."""
    cdef Py_ssize_t span = fu_pct_span_bytes(s, n, t)
    cdef Py_ssize_t total
    cdef uint8_t *o
    if n > PY_SSIZE_T_MAX // 3:
        raise MemoryError()
    total = span + fu_pct_encode_len_bytes(s + span, n - span, t)
    r = PyUnicode_New(total, 127)
    o = <uint8_t *>PyUnicode_DATA(r)
    memcpy(o, s, span)
    fu_pct_encode_bytes(s + span, n - span, t, o + span)
    return r


cdef inline object pct_encode_text(str s, const uint8_t *t):
    """The UTF-8 percent-encoding of `s` through `t` (`s` itself when exact
    and nothing changes), or None when `s` holds a surrogate: the codec then
    raises, or encodes it per `errors`."""
    cdef Py_ssize_t n, span, total
    cdef int kind
    cdef const char *data
    cdef uint8_t *o
    fu_unicode_ready(s)
    n = PyUnicode_GET_LENGTH(s)
    kind = PyUnicode_KIND(s)
    data = <const char *>PyUnicode_DATA(s)
    if n > PY_SSIZE_T_MAX // 12:
        raise MemoryError()
    if kind == 1:
        span = fu_pct_span_1(<const uint8_t *>data, n, t)
        if span == n and PyUnicode_CheckExact(s):
            # Nothing to encode: the text is its own encoded form.
            return s
        total = span + fu_pct_encode_len_1(<const uint8_t *>data + span, n - span, t)
        r = PyUnicode_New(total, 127)
        o = <uint8_t *>PyUnicode_DATA(r)
        memcpy(o, data, span)
        fu_pct_encode_1(<const uint8_t *>data + span, n - span, t, o + span)
        return r
    if kind == 2:
        total = fu_pct_encode_len_2(<const uint16_t *>data, n, t)
        if total < 0:
            return None
        r = PyUnicode_New(total, 127)
        fu_pct_encode_2(<const uint16_t *>data, n, t, <uint8_t *>PyUnicode_DATA(r))
        return r
    total = fu_pct_encode_len_4(<const uint32_t *>data, n, t)
    if total < 0:
        return None
    r = PyUnicode_New(total, 127)
    fu_pct_encode_4(<const uint32_t *>data, n, t, <uint8_t *>PyUnicode_DATA(r))
    return r
