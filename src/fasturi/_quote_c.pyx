"""Compiled quote family of urllib.parse: quote, unquote, parse_qsl, urlencode.

Each function is the running interpreter's ``urllib.parse`` function: same
signature, defaults, results, result types, exceptions and messages.  The
common inputs (exact ``str``/``bytes``, UTF-8, the usual ``errors`` names)
run in C over the string's own storage, other exact types on an exact slow
path; any argument of another type (a ``str`` or ``bytes`` subclass, a proxy
whose ``__class__`` says str, a ``bytearray`` query ...) is handed to the
stdlib function itself, which is the reference and decides by its own
``isinstance`` checks.  ``urlencode`` goes on as the stdlib's loop from the
first key or value whose quoting is not an exact ASCII str.  Calls made while
urllib.parse's module state differs from what was captured go to the stdlib
too (fasturi._stdstate).  The behaviours that changed between Python
versions are probed once, at import, on the running stdlib.
"""

import urllib.parse as _std

from fasturi import _stdstate

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

from cpython.object cimport PyObject, PyObject_IsInstance

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
from fasturi._dropin cimport fu_std_forget, fu_std_state, fu_std_watch, std_recheck
from fasturi._csrc cimport *

__all__ = [
    "quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus",
    "unquote_to_bytes", "urlencode", "parse_qs", "parse_qsl",
]

# The stdlib's functions, captured before anything can replace them (and
# again if urllib.parse is executed again: importlib.reload): each call this
# module does not answer goes to the function it replaces.  Those replaced
# then are kept alive for good in _RETIRED (a call under way may still hold
# one without a reference).
cdef dict _STD = _std.__dict__
cdef list _RETIRED = []
cdef object _std_quote = None
cdef object _std_quote_plus = None
cdef object _std_quote_from_bytes = None
cdef object _std_unquote = None
cdef object _std_unquote_plus = None
cdef object _std_unquote_to_bytes = None
cdef object _std_urlencode = None
cdef object _std_parse_qs = None
cdef object _std_parse_qsl = None


def _capture(originals):
    """Take the stdlib's functions this module replaces."""
    global _std_quote, _std_quote_plus, _std_quote_from_bytes, _std_unquote
    global _std_unquote_plus, _std_unquote_to_bytes, _std_urlencode, _std_parse_qs
    global _std_parse_qsl
    _RETIRED.extend([_std_quote, _std_quote_plus, _std_quote_from_bytes, _std_unquote,
                     _std_unquote_plus, _std_unquote_to_bytes, _std_urlencode, _std_parse_qs,
                     _std_parse_qsl])
    _std_quote = originals["quote"]
    _std_quote_plus = originals["quote_plus"]
    _std_quote_from_bytes = originals["quote_from_bytes"]
    _std_unquote = originals["unquote"]
    _std_unquote_plus = originals["unquote_plus"]
    _std_unquote_to_bytes = originals["unquote_to_bytes"]
    _std_urlencode = originals["urlencode"]
    _std_parse_qs = originals["parse_qs"]
    _std_parse_qsl = originals["parse_qsl"]


_capture({name: _STD[name] for name in __all__})

# urllib.parse's module state, as its functions read it per call (see
# fasturi._stdstate): each function answers only while every name the
# functions it replaces read there is bound as captured (or to this
# module's own functions: install()); else the stdlib's function does.
cdef object _STATE = None   # a fasturi._stdstate.State, once made
fu_std_watch(_STD)


cdef bint _recheck() except -1:
    return std_recheck(_STATE)


cdef inline bint _holds() except -1:
    """Whether the compiled code may answer: the module state holds.  (The
    State object is touched only when something changed: a call that took a
    reference to it would have every thread write its count.)"""
    cdef int known = fu_std_state()
    if known >= 0:
        return known
    return _recheck()


cdef inline bint _text_arg(object x) noexcept:
    """An encoding= or errors= the compiled code takes: None or an exact str
    (another object is the stdlib's to take, or to refuse as it does)."""
    return x is None or type(x) is str


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
    tsafe = type(safe)
    if not ((tb is bytes or tb is bytearray) and (tsafe is str or tsafe is bytes)
            and _holds()):
        # what the stdlib's isinstance checks and its iteration of safe make
        # of anything else is its own to say
        return _std_quote_from_bytes(bs, safe)
    if tb is bytes:
        n = PyBytes_GET_SIZE(bs)
        p = <const uint8_t *>PyBytes_AS_STRING(bs)
    else:
        n = PyByteArray_GET_SIZE(bs)
        p = <const uint8_t *>PyByteArray_AS_STRING(bs)
    if n == 0:
        return ''
    pct_table(_BASE_TABLE, safe, t, False)
    return pct_encode_octets(p, n, t)


def quote(string, safe='/', encoding=None, errors=None):
    """Percent-encode what is outside RFC 3986 unreserved (§2.3) and `safe`.

    Same as urllib.parse.quote: a str is first encoded with `encoding`
    (UTF-8) and `errors` ('strict'); bytes are taken as they are and must not
    come with `encoding` or `errors` (TypeError).
    """
    cdef uint8_t t[256]
    ts = type(string)
    tsafe = type(safe)
    if ((tsafe is str or tsafe is bytes) and _text_arg(encoding) and _text_arg(errors)
            and _holds()):
        if ts is str:
            if PyUnicode_GET_LENGTH(string) == 0:
                return string
            if _is_utf8(encoding) and _errors_name(errors, b"strict") != NULL:
                if _is_slash(safe):
                    r = pct_encode_text(string, _SLASH_TABLE)
                else:
                    pct_table(_BASE_TABLE, safe, t, False)
                    r = pct_encode_text(string, t)
                if r is not None:
                    return r
            if encoding is None:
                encoding = 'utf-8'
            if errors is None:
                errors = 'strict'
            return quote_from_bytes(string.encode(encoding, errors), safe)
        if ts is bytes or ts is bytearray:
            if encoding is not None:
                raise TypeError("quote() doesn't support 'encoding' for bytes")
            if errors is not None:
                raise TypeError("quote() doesn't support 'errors' for bytes")
            return quote_from_bytes(string, safe)
    # any other type of argument: the stdlib decides, by its isinstance checks
    return _std_quote(string, safe, encoding, errors)


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
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1 and fu_std_state() == 1:
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
    if not ((tsafe is str or tsafe is bytes) and _text_arg(encoding) and _text_arg(errors)
            and (tstr is str or tstr is bytes or tstr is bytearray) and _holds()):
        # any other type of argument: the stdlib decides, by its isinstance checks
        return _std_quote_plus(string, safe, encoding, errors)
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
    # The stdlib's steps, for the other exact types (the types say what its
    # isinstance checks find).
    if (tstr is str and ' ' not in string) or (tstr is bytes and b' ' not in string):
        return quote(string, safe, encoding, errors)
    space = ' ' if tsafe is str else b' '
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
    if not (ts is str or ts is bytes or ts is bytearray) or not _holds():
        return _std_unquote_to_bytes(string)
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
    if not ((ts is str or ts is bytes) and _text_arg(encoding) and _text_arg(errors)
            and _holds()):
        return _std_unquote(string, encoding, errors)
    if ts is str:
        return _unquote_str(string, False, encoding, errors)
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
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1 and fu_std_state() == 1:
        s = args[0]
        if PyUnicode_CheckExact(<object>s):
            if (PyUnicode_IS_COMPACT_ASCII(<object>s)
                    and memchr(fu_ascii_data(<object>s), 0x25,
                               PyUnicode_GET_LENGTH(<object>s)) == NULL):
                return <object>s
            return _unquote_escapes(<str>s)
    return _unquote_parsed(f, args, nargsf, kwnames)


_unquote_parsed = fu_front_entry(unquote, _unquote_entry)


def unquote_plus(string, encoding='utf-8', errors='replace'):
    """Like unquote(), for HTML form values: '+' becomes a space first.

    Same as urllib.parse.unquote_plus.
    """
    if type(string) is str and _text_arg(encoding) and _text_arg(errors) and _holds():
        return _unquote_str(string, True, encoding, errors)
    return _std_unquote_plus(string, encoding, errors)


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


cdef inline bint _qs_compiled(qs, keep_blank_values, strict_parsing, encoding, errors,
                              max_num_fields, separator) except -1:
    """Whether the compiled parse_qsl takes these arguments: exact types
    whose handling runs no Python code of theirs (the others, and calls
    while urllib.parse is not as captured, are the stdlib's)."""
    tq = type(qs)
    tsep = type(separator)
    return ((tq is str or tq is bytes) and (tsep is str or tsep is bytes)
            and _plain_flag(keep_blank_values) and _plain_flag(strict_parsing)
            and _text_arg(encoding) and _text_arg(errors)
            and (max_num_fields is None or type(max_num_fields) is int) and _holds())


cdef object _parse_qsl(qs, keep_blank_values, strict_parsing, encoding, errors,
                       max_num_fields, separator, stacklevel):
    tq = type(qs)
    tsep = type(separator)
    if not _qs_compiled(qs, keep_blank_values, strict_parsing, encoding, errors,
                        max_num_fields, separator):
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
    if not _qs_compiled(qs, keep_blank_values, strict_parsing, encoding, errors,
                        max_num_fields, separator):
        return _std_parse_qs(qs, keep_blank_values, strict_parsing, encoding, errors,
                             max_num_fields, separator)
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
    Py_ssize_t *ends        # where each pair written so far ends
    Py_ssize_t pairs
    Py_ssize_t ends_cap


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


cdef int _out_byte(_Out *o, uint8_t c) except -1:
    _out_reserve(o, 1)
    o.p[o.n] = c
    o.n += 1
    return 0


cdef int _out_pair_done(_Out *o) except -1:
    """Record that a pair ends here."""
    cdef Py_ssize_t cap
    cdef Py_ssize_t *p
    if o.pairs == o.ends_cap:
        cap = max(o.ends_cap * 2, 16)
        p = <Py_ssize_t *>PyMem_Realloc(o.ends, cap * sizeof(Py_ssize_t))
        if p == NULL:
            raise MemoryError()
        o.ends = p
        o.ends_cap = cap
    o.ends[o.pairs] = o.n
    o.pairs += 1
    return 0


cdef list _out_pairs(_Out *o):
    """The pairs written so far, each an exact str (the list the stdlib's
    loop would hold by now)."""
    cdef list pairs = []
    cdef Py_ssize_t i, start = 0
    for i in range(o.pairs):
        pairs.append(PyUnicode_FromKindAndData(1, o.p + start, o.ends[i] - start))
        start = o.ends[i] + 1     # past the '&'
    return pairs


cdef bint _out_quoted(_Out *o, object q) except -1:
    """Append a quoting function's result when it is an exact ASCII str (the
    buffer then holds what `+` would have made); False otherwise."""
    cdef Py_ssize_t n
    if type(q) is not str or not PyUnicode_IS_ASCII(q):
        return False
    n = PyUnicode_GET_LENGTH(q)
    _out_reserve(o, n)
    memcpy(o.p + o.n, PyUnicode_DATA(q), n)
    o.n += n
    return True


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
            # a surrogate: the codec raises, or handles it per `errors`
            # (a known handler, whose result is ASCII escapes)
            return _out_quoted(o, quote_via(s, safe, encoding, errors)) or _not_ascii()
        _out_reserve(o, total)
        fu_pct_encode_2(<const uint16_t *>data, n, t, o.p + o.n)
    else:
        total = fu_pct_encode_len_4(<const uint32_t *>data, n, t)
        if total < 0:
            return _out_quoted(o, quote_via(s, safe, encoding, errors)) or _not_ascii()
        _out_reserve(o, total)
        fu_pct_encode_4(<const uint32_t *>data, n, t, o.p + o.n)
    o.n += total
    return 0


cdef int _not_ascii() except -1:
    raise SystemError("quoting produced other than ASCII text")


cdef int _out_bytes(_Out *o, bytes x, const uint8_t *t) except -1:
    """Append quote_via(x, safe) for an exact bytes x."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(x)
    if n > PY_SSIZE_T_MAX // 3:
        raise MemoryError()
    _out_reserve(o, 3 * n)
    o.n = fu_pct_encode_bytes(<const uint8_t *>PyBytes_AS_STRING(x), n, t, o.p + o.n) - o.p
    return 0


cdef inline bint _scalar(object x) noexcept:
    """Whether str(x) runs no Python code but the interpreter's own (and
    gives an exact ASCII str): the values query strings hold besides text."""
    tx = type(x)
    return tx is int or tx is bool or tx is float or x is None


cdef inline bint _isinst(object x, object cls) except -1:
    """isinstance(x, cls) as Python answers it (Cython's own test reads the
    type only: an object whose __class__ says bytes is bytes to the stdlib)."""
    return type(x) is cls or PyObject_IsInstance(x, cls)


# The stdlib's loop, for a key, a value or an element of one: what its
# quote_via gives (`text`: a doseq value that is a str, not passed
# through str()).

cdef object _quote_item(quote_via, x, safe, encoding, errors):
    if _isinst(x, bytes):
        return quote_via(x, safe)
    return quote_via(str(x), safe, encoding, errors)


cdef int _pair_py(list pairs, kq, v, bint doseq, quote_via, safe, encoding,
                  errors) except -1:
    """Append the pairs of a quoted key kq and its value v as the stdlib's
    loop does (kq + '=' + vq: a quoting function may return any object)."""
    if not doseq:
        vq = _quote_item(quote_via, v, safe, encoding, errors)
        pairs.append(kq + '=' + vq)
    elif _isinst(v, bytes):
        vq = quote_via(v, safe)
        pairs.append(kq + '=' + vq)
    elif _isinst(v, str):
        vq = quote_via(v, safe, encoding, errors)
        pairs.append(kq + '=' + vq)
    else:
        try:
            len(v)
        except TypeError:
            vq = quote_via(str(v), safe, encoding, errors)
            pairs.append(kq + '=' + vq)
        else:
            for elt in v:
                eq = _quote_item(quote_via, elt, safe, encoding, errors)
                pairs.append(kq + '=' + eq)
    return 0


cdef object _urlencode_fast(query, bint doseq, safe, encoding, errors, bint plus, quote_via):
    """urlencode() with one of the quote functions: the pairs are quoted
    straight into one buffer while every quoted part is an exact ASCII str
    (as the quote functions give for exact str, bytes and the scalars); from
    the first part that is not, on as the stdlib's loop, with its pairs."""
    cdef uint8_t t[256]
    cdef _Out o
    cdef Py_ssize_t mark, key_start, key_len
    cdef int vkind
    cdef list pairs = None      # set: on as the stdlib's loop
    pct_table(_BASE_TABLE, safe, t, plus)
    o.n = o.pairs = o.ends_cap = 0
    o.cap = 256
    o.ends = NULL
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
            if pairs is not None:
                kq = _quote_item(quote_via, k, safe, encoding, errors)
                _pair_py(pairs, kq, v, doseq, quote_via, safe, encoding, errors)
                continue
            # the key
            mark = o.n
            if o.pairs:
                _out_byte(&o, 38)  # '&'
            key_start = o.n
            if type(k) is str:
                _out_str(&o, k, t, quote_via, safe, encoding, errors)
            elif type(k) is bytes:
                _out_bytes(&o, k, t)
            elif _scalar(k):
                _out_str(&o, str(k), t, quote_via, safe, encoding, errors)
            else:
                kq = _quote_item(quote_via, k, safe, encoding, errors)
                if not _out_quoted(&o, kq):
                    o.n = mark
                    pairs = _out_pairs(&o)
                    _pair_py(pairs, kq, v, doseq, quote_via, safe, encoding, errors)
                    continue
            key_len = o.n - key_start
            # the value: 0 str() of it, 1 bytes, 2 a doseq str (as it is),
            # 3 str() of a doseq value that is not a sequence
            vkind = 0
            if doseq:
                if _isinst(v, bytes):
                    vkind = 1
                elif _isinst(v, str):
                    vkind = 2
                else:
                    try:
                        len(v)
                    except TypeError:
                        vkind = 3
                    else:
                        # one pair per element
                        pairs = _out_elements(&o, v, mark, key_start, key_len, t, quote_via,
                                              safe, encoding, errors)
                        continue
            _out_byte(&o, 61)  # '='
            if type(v) is str:
                _out_str(&o, v, t, quote_via, safe, encoding, errors)
            elif type(v) is bytes:
                _out_bytes(&o, v, t)
            elif _scalar(v):
                _out_str(&o, str(v), t, quote_via, safe, encoding, errors)
            else:
                if vkind == 1:
                    vq = quote_via(v, safe)
                elif vkind == 2:
                    vq = quote_via(v, safe, encoding, errors)
                elif vkind == 3:
                    vq = quote_via(str(v), safe, encoding, errors)
                else:
                    vq = _quote_item(quote_via, v, safe, encoding, errors)
                if not _out_quoted(&o, vq):
                    kq = PyUnicode_FromKindAndData(1, o.p + key_start, key_len)
                    o.n = mark
                    pairs = _out_pairs(&o)
                    pairs.append(kq + '=' + vq)
                    continue
            _out_pair_done(&o)
        if pairs is not None:
            return '&'.join(pairs)
        return PyUnicode_FromKindAndData(1, o.p, o.n)
    finally:
        PyMem_Free(o.p)
        PyMem_Free(o.ends)


cdef list _out_elements(_Out *o, v, Py_ssize_t mark, Py_ssize_t key_start, Py_ssize_t key_len,
                        const uint8_t *t, quote_via, safe, encoding, errors):
    """Write key=element for each element of a doseq sequence v, the key
    being at key_start (an empty sequence writes no pair: the key goes).
    None; or, from an element whose quoting is not an exact ASCII str on,
    as the stdlib's loop: the pairs it holds after the sequence."""
    cdef bint first = True
    cdef Py_ssize_t pair_start
    cdef list pairs = None
    kq = None
    for elt in v:
        if pairs is not None:
            eq = _quote_item(quote_via, elt, safe, encoding, errors)
            pairs.append(kq + '=' + eq)
            continue
        pair_start = o.n
        if not first:
            _out_reserve(o, key_len + 1)
            o.p[o.n] = 38  # '&'
            memcpy(o.p + o.n + 1, o.p + key_start, key_len)
            o.n += key_len + 1
        _out_byte(o, 61)  # '='
        if type(elt) is str:
            _out_str(o, elt, t, quote_via, safe, encoding, errors)
        elif type(elt) is bytes:
            _out_bytes(o, elt, t)
        elif _scalar(elt):
            _out_str(o, str(elt), t, quote_via, safe, encoding, errors)
        else:
            eq = _quote_item(quote_via, elt, safe, encoding, errors)
            if not _out_quoted(o, eq):
                kq = PyUnicode_FromKindAndData(1, o.p + key_start, key_len)
                o.n = mark if first else pair_start
                pairs = _out_pairs(o)
                pairs.append(kq + '=' + eq)
                first = False
                continue
        _out_pair_done(o)
        first = False
    if first:
        o.n = mark     # an empty sequence contributes no pair at all
    return pairs


def urlencode(query, doseq=False, safe='', encoding=None, errors=None,
              quote_via=quote_plus):
    """Encode a mapping or a sequence of pairs as a query string.

    Same as urllib.parse.urlencode: each name and value is quoted with
    `quote_via` (quote_plus), bytes as they are and anything else as str();
    with `doseq`, a value that is a sequence gives one pair per element.
    """
    cdef int plus = -1
    if quote_via is quote_plus or quote_via is _std_quote_plus:
        plus = 1
    elif quote_via is quote or quote_via is _std_quote:
        plus = 0
    tsafe = type(safe)
    if not (plus >= 0 and (tsafe is str or tsafe is bytes) and _is_utf8(encoding)
            and _errors_name(errors, b"strict") != NULL and _holds()):
        # another quoting function, safe, codec or handler: the stdlib's loop
        return _std_urlencode(query, doseq, safe, encoding, errors, quote_via)
    if hasattr(query, "items"):
        query = query.items()
    else:
        try:
            if len(query) and not _isinst(query[0], tuple):
                raise TypeError
        except TypeError as err:
            if _URLENCODE_CAUSE:
                raise TypeError("not a valid non-string sequence "
                                "or mapping object") from err
            raise TypeError("not a valid non-string sequence "
                            "or mapping object")
    return _urlencode_fast(query, bool(doseq), safe, encoding, errors, plus, quote_via)


# What this module's functions stand in for, in every form parse.py binds.
OURS = {name: (globals()[name],) for name in __all__}
OURS["parse_qsl"] = (parse_qsl, parse_qsl_kw)
_STATE = _stdstate.State(_std, OURS, on_reload=_capture)


def _sync():
    """Check urllib.parse now (install() and uninstall() do, to take the
    stdlib's new functions after a reload); whether its state holds."""
    fu_std_forget()
    return bool(std_recheck(_STATE))


def _original(name):
    """The stdlib's function this module replaces under name."""
    return _STATE.originals[name]
