"""Compiled quote family of urllib.parse: quote, unquote, parse_qsl, urlencode.

Each function is the running interpreter's ``urllib.parse`` function: same
signature, defaults, results, result types, exceptions and messages.  The
common inputs (exact ``str``/``bytes``, UTF-8, the usual ``errors`` names)
run in C over the string's own storage; anything else takes an exact slow
path, and argument types whose handling is a quirk of the stdlib's code (a
``bytearray`` query, a ``str`` subclass with its own methods, ...) are
handed to the stdlib function itself, which is the reference.
The behaviours that changed between Python versions are probed once, at
import, on the running stdlib.
"""

import urllib.parse as _std

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_GET_SIZE, PyByteArray_AS_STRING
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport (
    PyUnicode_AsASCIIString,
    PyUnicode_AsUTF8String,
    PyUnicode_DATA,
    PyUnicode_DecodeUTF8,
    PyUnicode_FindChar,
    PyUnicode_FromKindAndData,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_READ,
    PyUnicode_READ_CHAR,
    PyUnicode_Substring,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memchr, memcpy

from cpython.object cimport PyObject

from fasturi._capi cimport (
    PY_SSIZE_T_MAX,
    PyUnicode_CheckExact,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyVectorcall_NARGS,
    FU_STR_HEADED,
    PyUnicode_IS_COMPACT,
    PyUnicode_IS_COMPACT_ASCII,
    fu_ascii_data,
    fu_front_entry,
    fu_vectorcall_t,
)
from fasturi._codec cimport pct_encode_octets, pct_encode_text, pct_table
from fasturi._csrc cimport *

__all__ = [
    "quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus",
    "unquote_to_bytes", "urlencode", "parse_qs", "parse_qsl",
]

# The stdlib functions, captured before anything can replace them: the
# reference for argument types whose handling is a quirk of its code.
_std_quote = _std.quote
_std_quote_plus = _std.quote_plus
_std_quote_from_bytes = _std.quote_from_bytes
_std_unquote = _std.unquote
_std_unquote_to_bytes = _std.unquote_to_bytes
_std_parse_qsl = _std.parse_qsl


def _probe_unquote_keeps_bytearray():
    # 3.9-3.11 return a bytearray without '%' as it is; 3.12+ copy to bytes.
    return type(_std_unquote_to_bytes(bytearray(b"a"))) is bytearray


def _probe_qs_empty_returns_early():
    # 3.11+ return [] for an empty query before counting or splitting it;
    # 3.9-3.10 parse one empty field (strict_parsing rejects it).
    try:
        _std_parse_qsl("", strict_parsing=True)
    except ValueError:
        return False
    return True


def _probe_qs_bytes_native():
    # 3.13 parses bytes as bytes (no ASCII round trip) and requires a str or
    # bytes separator; earlier versions decode bytes as ASCII first.
    try:
        return _std_parse_qsl(b"a=\xff") == [(b"a", b"\xff")]
    except UnicodeDecodeError:
        return False


def _probe_qs_bytes_separator_first():
    # 3.14+ convert a str separator for a bytes query before returning [] for
    # an empty one, so a non-ASCII separator raises even then.
    try:
        _std_parse_qsl(b"", separator="\xe9")
    except UnicodeEncodeError:
        return True
    return False


def _probe_qs_stacklevel():
    # 3.14+ parse_qsl takes a keyword-only _stacklevel for its warning.
    code = getattr(_std_parse_qsl, "__code__", None)
    return code is not None and "_stacklevel" in code.co_varnames[
        code.co_argcount:code.co_argcount + code.co_kwonlyargcount]


def _probe_urlencode_chains_cause():
    # 3.11+ raise the "not a valid ... sequence" TypeError `from` the cause.
    try:
        _std.urlencode(0)
    except TypeError as exc:
        return exc.__cause__ is not None
    return False


cdef bint _UNQUOTE_KEEPS_BYTEARRAY = _probe_unquote_keeps_bytearray()
cdef bint _QS_EMPTY_EARLY = _probe_qs_empty_returns_early()
cdef bint _QS_BYTES_NATIVE = _probe_qs_bytes_native()
cdef bint _QS_BYTES_SEPARATOR_FIRST = _probe_qs_bytes_separator_first()
cdef bint _URLENCODE_CAUSE = _probe_urlencode_chains_cause()
#: Whether this Python's parse_qsl has the keyword-only _stacklevel; fasturi.parse
#: then binds parse_qsl_kw, which has it too.
QS_STACKLEVEL = _probe_qs_stacklevel()
del (_probe_unquote_keeps_bytearray, _probe_qs_empty_returns_early, _probe_qs_bytes_native,
     _probe_qs_bytes_separator_first, _probe_qs_stacklevel, _probe_urlencode_chains_cause)

# Tuple unpacking compiled by the interpreter itself, so a malformed
# urlencode() item fails with exactly its own message ("not enough values
# to unpack (expected 2, got 1)", "cannot unpack non-iterable ...").
_pair_ns = {}
exec("def unpack_pair(item):\n    k, v = item\n    return k, v\n", _pair_ns)
_unpack_pair = _pair_ns["unpack_pair"]
del _pair_ns

# Codec spellings that str.encode/bytes.decode map to the built-in UTF-8
# codec (CPython's own fast path), and the error handlers whose behaviour
# the C path reproduces by calling that codec with the same name.
_UTF8_NAMES = frozenset(["utf-8", "utf8", "UTF-8", "UTF8"])
cdef const char *_ERRORS_C[6]
_ERRORS_C[:] = [b"strict", b"replace", b"ignore", b"surrogateescape",
                b"backslashreplace", b"surrogatepass"]
cdef dict _ERRORS_INDEX = {"strict": 0, "replace": 1, "ignore": 2, "surrogateescape": 3,
                           "backslashreplace": 4, "surrogatepass": 5}

cdef enum:
    STACK = 512  # bytes of scratch kept on the C stack

# §2.3 unreserved, the stdlib's _ALWAYS_SAFE.
cdef uint8_t _BASE_TABLE[256]
fu_pct_table_init(_BASE_TABLE)
# The tables of the defaults (quote's safe='/', quote_plus's safe=''), made
# once: filling a table per call costs about what encoding a short path does.
cdef uint8_t _SLASH_TABLE[256]
cdef uint8_t _PLUS_TABLE[256]
pct_table(_BASE_TABLE, "/", _SLASH_TABLE, False)
pct_table(_BASE_TABLE, "", _PLUS_TABLE, True)


cdef inline bint _is_slash(object safe) noexcept:
    return (type(safe) is str and PyUnicode_GET_LENGTH(safe) == 1
            and PyUnicode_READ_CHAR(safe, 0) == 0x2F)


cdef inline bint _is_nothing(object safe) noexcept:
    return type(safe) is str and PyUnicode_GET_LENGTH(safe) == 0


cdef inline bint _is_utf8(object encoding):
    return encoding is None or (type(encoding) is str and encoding in _UTF8_NAMES)


cdef inline const char *_errors_name(object errors, const char *default):
    """The C name of a known error handler, `default` for None, else NULL."""
    if errors is None:
        return default
    if type(errors) is not str:
        return NULL
    idx = _ERRORS_INDEX.get(errors)
    if idx is None:
        return NULL
    return _ERRORS_C[<int>idx]


# ---------------------------------------------------------------- quoting


def quote_from_bytes(bs, safe='/'):
    """Percent-encode bytes outside RFC 3986 unreserved (§2.3) and `safe`.

    Same as urllib.parse.quote_from_bytes: `bs` must be bytes or bytearray
    (TypeError otherwise); `safe` is str or an iterable of byte values, and
    only its ASCII characters count.
    """
    cdef uint8_t t[256]
    cdef Py_ssize_t n
    cdef const uint8_t *p
    tb = type(bs)
    if tb is bytes:
        n = PyBytes_GET_SIZE(bs)
        p = <const uint8_t *>PyBytes_AS_STRING(bs)
    elif tb is bytearray:
        n = PyByteArray_GET_SIZE(bs)
        p = <const uint8_t *>PyByteArray_AS_STRING(bs)
    elif isinstance(bs, (bytes, bytearray)):
        # A subclass may override rstrip/decode/iteration, which the stdlib uses.
        return _std_quote_from_bytes(bs, safe)
    else:
        raise TypeError("quote_from_bytes() expected bytes")
    if n == 0:
        return ''
    tsafe = type(safe)
    if tsafe is not str and tsafe is not bytes:
        if isinstance(safe, str):
            safe = safe.encode('ascii', 'ignore')
            if type(safe) is not bytes:
                return _std_quote_from_bytes(bs, safe)
        else:
            # Evaluated once, as the stdlib does (safe may be an iterator).
            safe = bytes([c for c in safe if c < 128])
    pct_table(_BASE_TABLE, safe, t, False)
    if tb is bytearray:
        # Re-read: the safe iteration above may have run Python code.
        n = PyByteArray_GET_SIZE(bs)
        p = <const uint8_t *>PyByteArray_AS_STRING(bs)
        if n == 0:
            return ''
    return pct_encode_octets(p, n, t)


def quote(string, safe='/', encoding=None, errors=None):
    """Percent-encode what is outside RFC 3986 unreserved (§2.3) and `safe`.

    Same as urllib.parse.quote: a str is first encoded with `encoding`
    (UTF-8) and `errors` ('strict'); bytes are taken as they are and must not
    come with `encoding` or `errors` (TypeError).
    """
    cdef uint8_t t[256]
    if type(string) is str:
        if PyUnicode_GET_LENGTH(string) == 0:
            return string
        tsafe = type(safe)
        if ((tsafe is str or tsafe is bytes) and _is_utf8(encoding)
                and _errors_name(errors, b"strict") != NULL):
            if _is_slash(safe):
                r = pct_encode_text(string, _SLASH_TABLE)
            else:
                pct_table(_BASE_TABLE, safe, t, False)
                r = pct_encode_text(string, t)
            if r is not None:
                return r
    elif isinstance(string, str):
        if not string:
            return string
    else:
        if encoding is not None:
            raise TypeError("quote() doesn't support 'encoding' for bytes")
        if errors is not None:
            raise TypeError("quote() doesn't support 'errors' for bytes")
        return quote_from_bytes(string, safe)
    if encoding is None:
        encoding = 'utf-8'
    if errors is None:
        errors = 'strict'
    return quote_from_bytes(string.encode(encoding, errors), safe)


# quote(text), the commonest call of all (a path or a name passed on as it
# is, most often needing no escaping), answered before any argument parsing:
# on 3.14 and 3.15 that parsing, with its references taken and dropped, cost
# about as much as the rest of such a call (callgrind).  Every other call
# goes on to quote() itself.
cdef fu_vectorcall_t _quote_parsed = NULL


cdef object _quote_escaping_text(str s):
    """What quote(s) does with its defaults, without its argument parsing
    (None: go to quote() itself)."""
    return pct_encode_text(s, _SLASH_TABLE)


# (called through a pointer so that it is not inlined into _quote_entry,
# whose registers and stack it would cost every call that keeps its text)
ctypedef object (*_text_fn)(str)
cdef _text_fn _quote_escaping = _quote_escaping_text


cdef object _quote_entry(object f, PyObject *const *args, size_t nargsf, PyObject *kwnames):
    cdef PyObject *s
    cdef Py_ssize_t n
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1:
        s = args[0]
        if PyUnicode_CheckExact(<object>s):
            # (text with anything beyond ASCII is never kept)
            if PyUnicode_IS_COMPACT_ASCII(<object>s):
                n = PyUnicode_GET_LENGTH(<object>s)
                if fu_pct_quote_keeps(fu_ascii_data(<object>s), n, _SLASH_TABLE, FU_STR_HEADED):
                    return <object>s
            r = _quote_escaping(<str>s)
            if r is not None:
                return r
    return _quote_parsed(f, args, nargsf, kwnames)


_quote_parsed = fu_front_entry(quote, _quote_entry)


def _keeps(text, headed):
    """Whether the test in front of quote() finds that quote(text) is text
    itself, reading past the start of text's storage where headed (as
    quote() does for every compact str) or not (for the tests of both)."""
    if not (PyUnicode_CheckExact(text) and PyUnicode_KIND(text) == 1):
        raise TypeError("a str of code points below 256")
    return fu_pct_quote_keeps(<const uint8_t *>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text),
                              _SLASH_TABLE, headed and FU_STR_HEADED and PyUnicode_IS_COMPACT(text))


def quote_plus(string, safe='', encoding=None, errors=None):
    """Like quote(), for HTML form values: a space becomes '+'.

    Same as urllib.parse.quote_plus; '+' itself is encoded unless `safe`
    holds it, and `safe` defaults to ''.
    """
    cdef uint8_t t[256]
    cdef Py_ssize_t n
    tstr = type(string)
    tsafe = type(safe)
    if tsafe is str or tsafe is bytes:
        if tstr is str:
            if PyUnicode_GET_LENGTH(string) == 0:
                return string
            if _is_utf8(encoding) and _errors_name(errors, b"strict") != NULL:
                if _is_nothing(safe):
                    r = pct_encode_text(string, _PLUS_TABLE)
                else:
                    pct_table(_BASE_TABLE, safe, t, True)
                    r = pct_encode_text(string, t)
                if r is not None:
                    return r
        elif tstr is bytes and encoding is None and errors is None:
            n = PyBytes_GET_SIZE(string)
            if n == 0:
                return ''
            pct_table(_BASE_TABLE, safe, t, True)
            return pct_encode_octets(<const uint8_t *>PyBytes_AS_STRING(string), n, t)
    # The stdlib's steps, for every other combination of types.
    if ((isinstance(string, str) and ' ' not in string) or
            (isinstance(string, bytes) and b' ' not in string)):
        return quote(string, safe, encoding, errors)
    space = ' ' if isinstance(safe, str) else b' '
    string = quote(string, safe + space, encoding, errors)
    return string.replace(' ', '+')


# -------------------------------------------------------------- unquoting


cdef inline Py_ssize_t _unq(int kind, const char *p, Py_ssize_t n, bint plus,
                            uint8_t *o, uint32_t *high) noexcept:
    if kind == 1:
        return fu_pct_decode_1(<const uint8_t *>p, n, plus, o, high)
    if kind == 2:
        return fu_pct_decode_2(<const uint16_t *>p, n, plus, o, high)
    return fu_pct_decode_4(<const uint32_t *>p, n, plus, o, high)


cdef object _decode(const uint8_t *buf, Py_ssize_t m, uint32_t high, const char *err_c,
                    object encoding, object errors):
    """bytes(buf[:m]).decode(encoding, errors); err_c != NULL means UTF-8."""
    cdef object r
    if err_c != NULL:
        if high < 0x80:
            # ASCII is its own UTF-8 decoding under every error handler.
            r = PyUnicode_New(m, 127)
            memcpy(PyUnicode_DATA(r), buf, m)
            return r
        return PyUnicode_DecodeUTF8(<char *>buf, m, <char *>err_c)
    return PyBytes_FromStringAndSize(<const char *>buf, m).decode(encoding, errors)


cdef object _unquote_ascii(int kind, const char *data, Py_ssize_t a, Py_ssize_t b,
                           bint plus, const char *err_c, object encoding, object errors):
    """Unquote the ASCII-only text data[a:b] as one run."""
    cdef uint8_t stack[STACK]
    cdef uint8_t *buf = stack
    cdef uint32_t high = 0
    cdef Py_ssize_t m
    if b - a > STACK:
        buf = <uint8_t *>PyMem_Malloc(b - a)
        if buf == NULL:
            raise MemoryError()
    try:
        m = _unq(kind, data + a * kind, b - a, plus, buf, &high)
        return _decode(buf, m, high, err_c, encoding, errors)
    finally:
        if buf != stack:
            PyMem_Free(buf)


cdef struct _UBuf:
    Py_UCS4 *p
    Py_ssize_t n
    Py_ssize_t cap


cdef int _ub_reserve(_UBuf *u, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap
    cdef Py_UCS4 *p
    if u.n + extra <= u.cap:
        return 0
    cap = max(u.cap * 2, u.n + extra)
    p = <Py_UCS4 *>PyMem_Realloc(u.p, cap * sizeof(Py_UCS4))
    if p == NULL:
        raise MemoryError()
    u.p = p
    u.cap = cap
    return 0


cdef int _ub_units(_UBuf *u, int kind, const char *data, Py_ssize_t a, Py_ssize_t b) except -1:
    cdef Py_ssize_t i
    _ub_reserve(u, b - a)
    if kind == 1:
        for i in range(a, b):
            u.p[u.n] = (<const uint8_t *>data)[i]
            u.n += 1
    elif kind == 2:
        for i in range(a, b):
            u.p[u.n] = (<const uint16_t *>data)[i]
            u.n += 1
    else:
        for i in range(a, b):
            u.p[u.n] = (<const uint32_t *>data)[i]
            u.n += 1
    return 0


cdef object _unquote_mixed(str s, Py_ssize_t a, Py_ssize_t b, bint plus,
                           const char *err_c, object encoding, object errors):
    """Unquote s[a:b] holding non-ASCII text: like the stdlib, each maximal
    ASCII run is unquoted and decoded on its own; other text is kept."""
    cdef int kind = PyUnicode_KIND(s)
    cdef const char *data = <const char *>PyUnicode_DATA(s)
    cdef _UBuf u
    cdef uint8_t *tmp
    cdef Py_ssize_t i = a, j, m, k
    cdef uint32_t high
    u.n = 0
    u.cap = b - a
    u.p = <Py_UCS4 *>PyMem_Malloc((b - a) * sizeof(Py_UCS4))
    tmp = <uint8_t *>PyMem_Malloc(b - a)
    try:
        if u.p == NULL or tmp == NULL:
            raise MemoryError()
        while i < b:
            if kind == 1:
                j = fu_q_nonascii_end_1(<const uint8_t *>data, i, b)
            elif kind == 2:
                j = fu_q_nonascii_end_2(<const uint16_t *>data, i, b)
            else:
                j = fu_q_nonascii_end_4(<const uint32_t *>data, i, b)
            if j > i:
                _ub_units(&u, kind, data, i, j)
                i = j
                continue
            if kind == 1:
                j = fu_q_ascii_end_1(<const uint8_t *>data, i, b)
            elif kind == 2:
                j = fu_q_ascii_end_2(<const uint16_t *>data, i, b)
            else:
                j = fu_q_ascii_end_4(<const uint32_t *>data, i, b)
            high = 0
            m = _unq(kind, data + i * kind, j - i, plus, tmp, &high)
            if err_c != NULL and high < 0x80:
                _ub_reserve(&u, m)
                for k in range(m):
                    u.p[u.n + k] = tmp[k]
                u.n += m
            else:
                piece = _decode(tmp, m, high, err_c, encoding, errors)
                _ub_units(&u, PyUnicode_KIND(piece), <const char *>PyUnicode_DATA(piece),
                          0, PyUnicode_GET_LENGTH(piece))
            i = j
        return PyUnicode_FromKindAndData(4, u.p, u.n)
    finally:
        PyMem_Free(u.p)
        PyMem_Free(tmp)


cdef object _unquote_text(str s, Py_ssize_t a, Py_ssize_t b, bint plus, bint ascii,
                          const char *err_c, object encoding, object errors):
    if ascii:
        return _unquote_ascii(PyUnicode_KIND(s), <const char *>PyUnicode_DATA(s), a, b, plus,
                              err_c, encoding, errors)
    return _unquote_mixed(s, a, b, plus, err_c, encoding, errors)


cdef object _unquote_bytes(const uint8_t *p, Py_ssize_t n, bint plus):
    """unquote_to_bytes() of n bytes (with '+' -> ' ' when plus): new bytes."""
    cdef uint8_t stack[STACK]
    cdef uint8_t *buf = stack
    cdef uint32_t high = 0
    cdef Py_ssize_t m
    # gcc cannot follow fu_pct_decode_1 filling buf before it is read below
    # (-Wmaybe-uninitialized): one store tells it the array is written.
    stack[0] = 0
    if n > STACK:
        buf = <uint8_t *>PyMem_Malloc(n)
        if buf == NULL:
            raise MemoryError()
    try:
        m = fu_pct_decode_1(p, n, plus, buf, &high)
        return PyBytes_FromStringAndSize(<const char *>buf, m)
    finally:
        if buf != stack:
            PyMem_Free(buf)


def unquote_to_bytes(string):
    """Decode every "%hh" escape (RFC 3986 §2.1) into its byte.

    Same as urllib.parse.unquote_to_bytes: a str is UTF-8 encoded first;
    malformed escapes are kept as they are.
    """
    cdef Py_ssize_t n
    cdef const char *p
    ts = type(string)
    if ts is str:
        n = PyUnicode_GET_LENGTH(string)
        if n == 0:
            return b''
        if PyUnicode_IS_ASCII(string):
            p = <const char *>PyUnicode_DATA(string)
            if memchr(p, b'%', n) == NULL:
                return PyBytes_FromStringAndSize(p, n)
            return _unquote_bytes(<const uint8_t *>p, n, False)
        # Non-ASCII text is UTF-8 encoded first (strict: a surrogate raises).
        string = PyUnicode_AsUTF8String(string)
    elif ts is bytearray:
        n = PyByteArray_GET_SIZE(string)
        if n == 0:
            return b''
        if memchr(PyByteArray_AS_STRING(string), b'%', n) == NULL:
            return string if _UNQUOTE_KEEPS_BYTEARRAY else bytes(string)
        return _std_unquote_to_bytes(string)
    elif ts is not bytes:
        return _std_unquote_to_bytes(string)
    n = PyBytes_GET_SIZE(string)
    if n == 0:
        return b''
    p = PyBytes_AS_STRING(string)
    if memchr(p, b'%', n) == NULL:
        return string
    return _unquote_bytes(<const uint8_t *>p, n, False)


cdef object _unquote_str(str string, bint plus, object encoding, object errors):
    """unquote()/unquote_plus() of an exact str."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(string)
    cdef const char *err_c
    if PyUnicode_FindChar(string, 0x25, 0, n, 1) < 0:
        if plus and PyUnicode_FindChar(string, 0x2B, 0, n, 1) >= 0:
            return string.replace('+', ' ')
        return string
    if encoding is None:
        encoding = 'utf-8'
    if errors is None:
        errors = 'replace'
    err_c = _errors_name(errors, NULL) if _is_utf8(encoding) else NULL
    return _unquote_text(string, 0, n, plus, PyUnicode_IS_ASCII(string), err_c, encoding,
                         errors)


def unquote(string, encoding='utf-8', errors='replace'):
    """Decode "%hh" escapes (RFC 3986 §2.1) into text.

    Same as urllib.parse.unquote: the bytes of the escapes are decoded with
    `encoding` (UTF-8) and `errors` ('replace'), one run of ASCII text at a
    time; text without '%' is returned as it is.
    """
    cdef const char *err_c
    cdef const uint8_t *p
    cdef uint8_t stack[STACK]
    cdef uint8_t *buf = stack
    cdef uint32_t high = 0
    cdef Py_ssize_t n, m
    ts = type(string)
    if ts is str:
        return _unquote_str(string, False, encoding, errors)
    if ts is not bytes:
        return _std_unquote(string, encoding, errors)
    err_c = _errors_name(errors, NULL) if (encoding is not None and _is_utf8(encoding)) else NULL
    if err_c == NULL:
        return unquote_to_bytes(string).decode(encoding, errors)
    n = PyBytes_GET_SIZE(string)
    p = <const uint8_t *>PyBytes_AS_STRING(string)
    if memchr(p, b'%', n) == NULL:
        return PyUnicode_DecodeUTF8(<char *>p, n, <char *>err_c)
    if n > STACK:
        buf = <uint8_t *>PyMem_Malloc(n)
        if buf == NULL:
            raise MemoryError()
    try:
        m = fu_pct_decode_1(p, n, False, buf, &high)
        return _decode(buf, m, high, err_c, encoding, errors)
    finally:
        if buf != stack:
            PyMem_Free(buf)


# unquote(text), as quote(text): the commonest call, answered before the
# argument parsing, which on 3.14 cost more than the rest of a call for
# text without a '%' (returned as it is).
cdef fu_vectorcall_t _unquote_parsed = NULL


cdef object _unquote_escapes_text(str s):
    """What unquote(s) does with its defaults, without its argument parsing."""
    return _unquote_str(s, False, 'utf-8', 'replace')


# (through a pointer, as _quote_escaping)
cdef _text_fn _unquote_escapes = _unquote_escapes_text


cdef object _unquote_entry(object f, PyObject *const *args, size_t nargsf, PyObject *kwnames):
    cdef PyObject *s
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1:
        s = args[0]
        if PyUnicode_CheckExact(<object>s):
            if (PyUnicode_IS_COMPACT_ASCII(<object>s)
                    and memchr(fu_ascii_data(<object>s), 0x25, PyUnicode_GET_LENGTH(<object>s)) == NULL):
                return <object>s
            return _unquote_escapes(<str>s)
    return _unquote_parsed(f, args, nargsf, kwnames)


_unquote_parsed = fu_front_entry(unquote, _unquote_entry)


def unquote_plus(string, encoding='utf-8', errors='replace'):
    """Like unquote(), for HTML form values: '+' becomes a space first.

    Same as urllib.parse.unquote_plus.
    """
    if type(string) is str:
        return _unquote_str(string, True, encoding, errors)
    string = string.replace('+', ' ')
    return unquote(string, encoding, errors)


# ------------------------------------------------------------ query strings


cdef inline Py_ssize_t _qs_field(int kind, const char *data, Py_ssize_t i, Py_ssize_t n,
                                 uint32_t sep, Py_ssize_t *eq, uint32_t *flags) noexcept:
    if kind == 1:
        return fu_qs_field_1(<const uint8_t *>data, i, n, sep, eq, flags)
    if kind == 2:
        return fu_qs_field_2(<const uint16_t *>data, i, n, sep, eq, flags)
    return fu_qs_field_4(<const uint32_t *>data, i, n, sep, eq, flags)


cdef object _qs_text(str s, Py_ssize_t a, Py_ssize_t b, uint32_t flags,
                     const char *err_c, object encoding, object errors):
    """unquote_plus(s[a:b]) given the field scanner's flags for that part."""
    cdef int kind
    cdef const char *data
    if not (flags & FU_QS_PCT):
        if not (flags & FU_QS_PLUS):
            return PyUnicode_Substring(s, a, b)
        if flags & FU_QS_WIDE:
            return PyUnicode_Substring(s, a, b).replace('+', ' ')
        kind = PyUnicode_KIND(s)
        data = <const char *>PyUnicode_DATA(s) + a * kind
        r = PyUnicode_New(b - a, 127)
        if kind == 1:
            fu_q_narrow_1(<const uint8_t *>data, b - a, True, <uint8_t *>PyUnicode_DATA(r))
        elif kind == 2:
            fu_q_narrow_2(<const uint16_t *>data, b - a, True, <uint8_t *>PyUnicode_DATA(r))
        else:
            fu_q_narrow_4(<const uint32_t *>data, b - a, True, <uint8_t *>PyUnicode_DATA(r))
        return r
    return _unquote_text(s, a, b, True, not (flags & FU_QS_WIDE), err_c, encoding, errors)


cdef object _qs_bytes(bytes s, Py_ssize_t a, Py_ssize_t b, uint32_t flags):
    """unquote_to_bytes(s[a:b].replace(b'+', b' '))."""
    cdef const uint8_t *p = <const uint8_t *>PyBytes_AS_STRING(s)
    if not (flags & (FU_QS_PCT | FU_QS_PLUS)):
        return PyBytes_FromStringAndSize(<const char *>p + a, b - a)
    return _unquote_bytes(p + a, b - a, True)


cdef int _parse_fields(list r, object piece, uint32_t sep, bint keep_blank,
                       bint strict, bint ascii_result, const char *err_c, object encoding,
                       object errors) except -1:
    """Append the (name, value) pairs of `piece` (a str, or bytes under 3.13
    rules) to r, splitting it at `sep` (0x110000: not at all)."""
    cdef bint is_str = type(piece) is str
    cdef int kind
    cdef const char *data
    cdef Py_ssize_t n, i = 0, e, eq
    cdef uint32_t flags
    if is_str:
        kind = PyUnicode_KIND(piece)
        data = <const char *>PyUnicode_DATA(piece)
        n = PyUnicode_GET_LENGTH(piece)
    else:
        kind = 1
        data = PyBytes_AS_STRING(piece)
        n = PyBytes_GET_SIZE(piece)
    while True:
        e = _qs_field(kind, data, i, n, sep, &eq, &flags)
        if e > i or strict:
            if eq < 0 and strict:
                field = PyUnicode_Substring(piece, i, e) if is_str else piece[i:e]
                raise ValueError("bad query field: %r" % (field,))
            if eq < 0:
                if keep_blank:
                    eq = e
                else:
                    eq = -2
            elif eq + 1 == e and not keep_blank:
                eq = -2
            if eq != -2:
                if is_str:
                    name = _qs_text(piece, i, eq, flags & 7, err_c, encoding, errors)
                    if ascii_result:
                        name = PyUnicode_AsASCIIString(name)
                    value = (_qs_text(piece, eq + 1, e, flags >> 4, err_c, encoding, errors)
                             if eq < e else '')
                    if ascii_result:
                        value = PyUnicode_AsASCIIString(value)
                else:
                    name = _qs_bytes(piece, i, eq, flags & 7)
                    value = _qs_bytes(piece, eq + 1, e, flags >> 4) if eq < e else b''
                r.append((name, value))
        if e >= n:
            return 0
        i = e + 1


cdef inline bint _plain_flag(object x):
    # Truth values that cannot run Python code, so testing them once up front
    # is the same as the stdlib testing them per field.
    return x is None or type(x) is bool or type(x) is int


def parse_qsl(qs, keep_blank_values=False, strict_parsing=False,
              encoding='utf-8', errors='replace', max_num_fields=None, separator='&'):
    """Split a query into a list of (name, value) pairs.

    Same as urllib.parse.parse_qsl: fields are split at `separator`, names
    from values at the first '=', and both are decoded with unquote_plus()
    (bytes in, bytes out).  Blank values are dropped unless
    `keep_blank_values`; `strict_parsing` makes a field without '=' a
    ValueError, and so is a query with more than `max_num_fields` fields.
    """
    return _parse_qsl(qs, keep_blank_values, strict_parsing, encoding, errors,
                      max_num_fields, separator, 1)


def parse_qsl_kw(qs, keep_blank_values=False, strict_parsing=False,
                 encoding='utf-8', errors='replace', max_num_fields=None, separator='&', *,
                 _stacklevel=1):
    """Split a query into a list of (name, value) pairs.

    parse_qsl() with the keyword-only _stacklevel of newer Pythons (the
    frame its deprecation warning names, counted from the caller's).
    """
    return _parse_qsl(qs, keep_blank_values, strict_parsing, encoding, errors,
                      max_num_fields, separator, _stacklevel)


cdef object _parse_qsl(qs, keep_blank_values, strict_parsing, encoding, errors,
                       max_num_fields, separator, stacklevel):
    tq = type(qs)
    tsep = type(separator)
    if not ((tq is str or tq is bytes) and (tsep is str or tsep is bytes)
            and _plain_flag(keep_blank_values) and _plain_flag(strict_parsing)):
        # Compiled code has no Python frame: the stdlib's warning names the
        # caller's frame at the same stacklevel as when it is called directly.
        if QS_STACKLEVEL:
            return _std_parse_qsl(qs, keep_blank_values, strict_parsing, encoding=encoding,
                                  errors=errors, max_num_fields=max_num_fields,
                                  separator=separator, _stacklevel=stacklevel)
        return _std_parse_qsl(qs, keep_blank_values, strict_parsing, encoding=encoding,
                              errors=errors, max_num_fields=max_num_fields,
                              separator=separator)
    cdef bint keep = bool(keep_blank_values)
    cdef bint strict = bool(strict_parsing)
    cdef bint ascii_result = False
    cdef bint empty_early = _QS_EMPTY_EARLY
    cdef const char *err_c = NULL
    if _QS_BYTES_NATIVE:
        if not separator:
            raise ValueError("Separator must be of type string or bytes.")
        if tq is str:
            if tsep is not str:
                separator = str(separator, 'ascii')
        else:
            if not qs and not _QS_BYTES_SEPARATOR_FIRST:
                return []
            if tsep is str:
                separator = bytes(separator, 'ascii')
        if not qs:
            return []
    else:
        # Bytes are decoded as ASCII, parsed as str, and the results encoded
        # back; a false argument counts as ''.
        if tq is bytes:
            qs = qs.decode('ascii', 'strict') if qs else ''
            ascii_result = True
        if tsep is bytes:
            separator = separator.decode('ascii', 'strict') if separator else ''
        if not separator:
            raise ValueError("Separator must be of type string or bytes.")
        if empty_early and not qs:
            if max_num_fields is not None and max_num_fields < 0:
                raise ValueError('Max number of fields exceeded')
            return []

    if max_num_fields is not None:
        num_fields = 1 + qs.count(separator)
        if max_num_fields < num_fields:
            raise ValueError('Max number of fields exceeded')

    cdef list r = []
    cdef uint32_t sep
    if type(qs) is str:
        if encoding is None:
            encoding = 'utf-8'
        if errors is None:
            errors = 'replace'
        if _is_utf8(encoding):
            err_c = _errors_name(errors, NULL)
        if PyUnicode_GET_LENGTH(separator) == 1:
            sep = PyUnicode_READ(PyUnicode_KIND(separator), PyUnicode_DATA(separator), 0)
            _parse_fields(r, qs, sep, keep, strict, ascii_result, err_c, encoding, errors)
            return r
    elif PyBytes_GET_SIZE(separator) == 1:
        sep = (<const uint8_t *>PyBytes_AS_STRING(separator))[0]
        _parse_fields(r, qs, sep, keep, strict, False, NULL, None, None)
        return r
    for piece in qs.split(separator):
        _parse_fields(r, piece, 0x110000, keep, strict, ascii_result, err_c, encoding,
                      errors)
    return r


def parse_qs(qs, keep_blank_values=False, strict_parsing=False,
             encoding='utf-8', errors='replace', max_num_fields=None, separator='&'):
    """Split a query into a dict mapping each name to its list of values.

    Same as urllib.parse.parse_qs; the arguments are parse_qsl()'s.
    """
    cdef dict parsed_result = {}
    pairs = _parse_qsl(qs, keep_blank_values, strict_parsing, encoding, errors,
                       max_num_fields, separator, 1)
    for item in pairs:
        if type(item) is tuple and len(<tuple>item) == 2:
            name = (<tuple>item)[0]
            value = (<tuple>item)[1]
        else:
            name, value = _unpack_pair(item)
        values = parsed_result.get(name)
        if values is None:
            parsed_result[name] = [value]
        else:
            values.append(value)
    return parsed_result


# ---------------------------------------------------------------- urlencode


cdef struct _Out:
    uint8_t *p
    Py_ssize_t n
    Py_ssize_t cap


cdef int _out_reserve(_Out *o, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap
    cdef uint8_t *p
    if extra > PY_SSIZE_T_MAX - o.n:
        raise MemoryError()
    if o.n + extra <= o.cap:
        return 0
    cap = max(o.cap * 2, o.n + extra)
    p = <uint8_t *>PyMem_Realloc(o.p, cap)
    if p == NULL:
        raise MemoryError()
    o.p = p
    o.cap = cap
    return 0


cdef int _out_ascii(_Out *o, object s) except -1:
    """Append a quoting function's result: ASCII text (a str subclass when
    quote() hands back its empty argument)."""
    cdef Py_ssize_t n
    if not isinstance(s, str):
        raise SystemError("quoting produced a non-str result")
    n = PyUnicode_GET_LENGTH(s)
    if not PyUnicode_IS_ASCII(s):
        raise SystemError("quoting produced non-ASCII text")
    _out_reserve(o, n)
    memcpy(o.p + o.n, PyUnicode_DATA(s), n)
    o.n += n
    return 0


cdef int _out_byte(_Out *o, uint8_t c) except -1:
    _out_reserve(o, 1)
    o.p[o.n] = c
    o.n += 1
    return 0


cdef int _out_str(_Out *o, str s, const uint8_t *t, quote_via, safe, encoding,
                  errors) except -1:
    """Append quote_via(s, safe, encoding, errors) for an exact str s."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(s), total
    cdef int kind = PyUnicode_KIND(s)
    cdef const char *data = <const char *>PyUnicode_DATA(s)
    if n == 0:
        return 0
    if n > PY_SSIZE_T_MAX // 12:
        raise MemoryError()
    if kind == 1:
        total = fu_pct_encode_len_1(<const uint8_t *>data, n, t)
        _out_reserve(o, total)
        fu_pct_encode_1(<const uint8_t *>data, n, t, o.p + o.n)
    elif kind == 2:
        total = fu_pct_encode_len_2(<const uint16_t *>data, n, t)
        if total < 0:
            return _out_ascii(o, quote_via(s, safe, encoding, errors))
        _out_reserve(o, total)
        fu_pct_encode_2(<const uint16_t *>data, n, t, o.p + o.n)
    else:
        total = fu_pct_encode_len_4(<const uint32_t *>data, n, t)
        if total < 0:
            return _out_ascii(o, quote_via(s, safe, encoding, errors))
        _out_reserve(o, total)
        fu_pct_encode_4(<const uint32_t *>data, n, t, o.p + o.n)
    o.n += total
    return 0


cdef int _out_item(_Out *o, x, const uint8_t *t, quote_via, safe, encoding,
                   errors) except -1:
    """Append the stdlib's quoting of one key or value that is not a
    sequence to expand: bytes as they are, anything else as str(x)."""
    cdef Py_ssize_t n
    tx = type(x)
    if tx is str:
        return _out_str(o, x, t, quote_via, safe, encoding, errors)
    if tx is bytes:
        n = PyBytes_GET_SIZE(x)
        if n > PY_SSIZE_T_MAX // 3:
            raise MemoryError()
        _out_reserve(o, 3 * n)
        o.n = fu_pct_encode_bytes(<const uint8_t *>PyBytes_AS_STRING(x), n, t, o.p + o.n) - o.p
        return 0
    if isinstance(x, bytes):
        return _out_ascii(o, quote_via(x, safe))
    x = str(x)
    if type(x) is str:
        return _out_str(o, x, t, quote_via, safe, encoding, errors)
    return _out_ascii(o, quote_via(x, safe, encoding, errors))


cdef int _out_value(_Out *o, v, const uint8_t *t, quote_via, safe, encoding,
                    errors) except -1:
    """A doseq value that is str (any str: it is not passed through str())."""
    if type(v) is str:
        return _out_str(o, v, t, quote_via, safe, encoding, errors)
    return _out_ascii(o, quote_via(v, safe, encoding, errors))


cdef object _urlencode_fast(query, bint doseq, safe, encoding, errors, bint plus, quote_via):
    """urlencode() with one of the quote functions: the pairs are quoted
    straight into one buffer."""
    cdef uint8_t t[256]
    cdef _Out o
    cdef Py_ssize_t mark, key_start, key_len
    cdef bint first_pair = True, first_value
    pct_table(_BASE_TABLE, safe, t, plus)
    o.n = 0
    o.cap = 256
    o.p = <uint8_t *>PyMem_Malloc(o.cap)
    if o.p == NULL:
        raise MemoryError()
    try:
        for item in query:
            if type(item) is tuple and len(<tuple>item) == 2:
                k = (<tuple>item)[0]
                v = (<tuple>item)[1]
            else:
                k, v = _unpack_pair(item)
            mark = o.n
            if not first_pair:
                _out_byte(&o, 38)  # '&'
            key_start = o.n
            _out_item(&o, k, t, quote_via, safe, encoding, errors)
            key_len = o.n - key_start
            if not doseq or isinstance(v, (bytes, str)):
                _out_byte(&o, 61)  # '='
                if doseq and isinstance(v, str):
                    _out_value(&o, v, t, quote_via, safe, encoding, errors)
                else:
                    _out_item(&o, v, t, quote_via, safe, encoding, errors)
                first_pair = False
                continue
            try:
                len(v)
            except TypeError:
                _out_byte(&o, 61)
                _out_item(&o, v, t, quote_via, safe, encoding, errors)
                first_pair = False
                continue
            first_value = True
            for elt in v:
                if not first_value:
                    _out_reserve(&o, key_len + 1)
                    o.p[o.n] = 38
                    memcpy(o.p + o.n + 1, o.p + key_start, key_len)
                    o.n += key_len + 1
                _out_byte(&o, 61)
                _out_item(&o, elt, t, quote_via, safe, encoding, errors)
                first_value = False
            if first_value:
                # An empty sequence contributes no pair at all.
                o.n = mark
            else:
                first_pair = False
        return PyUnicode_FromKindAndData(1, o.p, o.n)
    finally:
        PyMem_Free(o.p)


cdef object _quote_item(quote_via, x, safe, encoding, errors):
    # urlencode's way with a key, a value or an item of one: bytes as they
    # are, anything else as its str
    if isinstance(x, bytes):
        return quote_via(x, safe)
    return quote_via(str(x), safe, encoding, errors)


def urlencode(query, doseq=False, safe='', encoding=None, errors=None,
              quote_via=quote_plus):
    """Encode a mapping or a sequence of pairs as a query string.

    Same as urllib.parse.urlencode: each name and value is quoted with
    `quote_via` (quote_plus), bytes as they are and anything else as str();
    with `doseq`, a value that is a sequence gives one pair per element.
    """
    if hasattr(query, "items"):
        query = query.items()
    else:
        try:
            if len(query) and not isinstance(query[0], tuple):
                raise TypeError
        except TypeError as err:
            if _URLENCODE_CAUSE:
                raise TypeError("not a valid non-string sequence "
                                "or mapping object") from err
            raise TypeError("not a valid non-string sequence "
                            "or mapping object")

    cdef int plus = -1
    if quote_via is quote_plus or quote_via is _std_quote_plus:
        plus = 1
    elif quote_via is quote or quote_via is _std_quote:
        plus = 0
    tsafe = type(safe)
    if (plus >= 0 and (tsafe is str or tsafe is bytes) and _is_utf8(encoding)
            and _errors_name(errors, b"strict") != NULL):
        return _urlencode_fast(query, bool(doseq), safe, encoding, errors, plus, quote_via)

    cdef list out = []
    if not doseq:
        for item in query:
            k, v = _unpack_pair(item)
            k = _quote_item(quote_via, k, safe, encoding, errors)
            v = _quote_item(quote_via, v, safe, encoding, errors)
            out.append(k + '=' + v)
    else:
        for item in query:
            k, v = _unpack_pair(item)
            k = _quote_item(quote_via, k, safe, encoding, errors)
            if isinstance(v, bytes):
                v = quote_via(v, safe)
                out.append(k + '=' + v)
            elif isinstance(v, str):
                v = quote_via(v, safe, encoding, errors)
                out.append(k + '=' + v)
            else:
                try:
                    len(v)
                except TypeError:
                    v = quote_via(str(v), safe, encoding, errors)
                    out.append(k + '=' + v)
                else:
                    for elt in v:
                        elt = _quote_item(quote_via, elt, safe, encoding, errors)
                        out.append(k + '=' + elt)
    return '&'.join(out)
