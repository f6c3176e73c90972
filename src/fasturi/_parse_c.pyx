"""urlsplit, urlparse, urlunsplit, urlunparse, urljoin, urldefrag: compiled,
and exactly the running interpreter's urllib.parse.

Each function does the common case itself: an exact ``str`` (or, for the
split family, ASCII ``bytes``) that the stdlib would not rewrite before
splitting, with arguments of exact types.  Anything else -- other types
(subclasses, proxies whose ``__class__`` says str), a leading C0 control or
space, tab/CR/LF to remove, argument mixes that raise -- goes to the
stdlib's own function, so the result, exception or warning there is the
stdlib's by construction.  Checks the stdlib makes with Python code (the
NFKC netloc check, the bracketed-host check) are made by calling that same
stdlib code.

What differs between Python versions is found once, at import, by asking
the stdlib (``_detect``): never per call.  What the stdlib's functions read
from their module per call is honoured as they honour it (fasturi._stdstate:
a changed binding sends calls to the stdlib's functions; the ``uses_*``
lists are read as bound at the time, so code that rebinds or extends them
keeps working).  Results are the stdlib's own result classes, allocated
directly from C.  Where the stdlib's urlsplit has an lru_cache,
urlsplit_cached puts a cache of the same size in front (see _SplitCache).
Nothing a call holds a pointer into is released while Python code the call
runs (an item's ==, the stdlib's helpers) could release it.
"""

cimport cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.exc cimport PyErr_Clear
from cpython.object cimport Py_EQ, Py_TYPE, PyObject, PyObject_RichCompareBool
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF
from cpython.sequence cimport PySequence_Contains
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from cpython.unicode cimport (
    PyUnicode_DATA,
    PyUnicode_FindChar,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_Substring,
    PyUnicode_WRITE,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memchr, memcmp

from fasturi._capi cimport (
    PyUnicode_IS_ASCII,
    PyUnicode_READ,
    PyVectorcall_NARGS,
    fu_alloc_tuple,
    fu_descr_set,
    fu_front_entry,
    fu_set_slot,
    fu_slot_not_false,
    fu_unicode_ready,
    fu_vectorcall_t,
)
from fasturi._dropin cimport (
    FU_FREE_THREADED,
    fu_add_ssize,
    fu_load_ssize,
    fu_lock,
    fu_mutex,
    fu_std_forget,
    fu_std_record,
    fu_std_state,
    fu_std_watch,
    fu_store_ssize,
    fu_unlock,
    std_recheck,
)
from fasturi._csrc cimport (
    FU_US_CLOSE_BR,
    FU_US_NETLOC_WIDE,
    FU_US_OPEN_BR,
    FU_US_SCHEME_UPPER,
    FU_US_SEMICOLON,
    FU_US_SLOW,
    FU_US_WIDE,
    fu_copy,
    fu_count_1,
    fu_count_2,
    fu_count_4,
    fu_params_1,
    fu_params_2,
    fu_params_4,
    fu_usplit_1,
    fu_usplit_2,
    fu_usplit_4,
    fu_usplit_t,
)

import urllib.parse as _std

from fasturi import _stdstate

cdef extern from *:
    """
    #include <string.h>

    /* 1 when item is s or holds its text, 0 when it is another exact str,
       -1 when it is of another type (its == may run code), or a str not
       yet ready (before 3.12). */
    static inline int fu_str_is(PyObject *o, PyObject *s, Py_ssize_t len, int kind,
                                const void *data)
    {
        if (o == s)
            return 1;
        if (!PyUnicode_CheckExact(o))
            return -1;
    #if PY_VERSION_HEX < 0x030C0000
        if (!PyUnicode_IS_READY(o))
            return -1;
    #endif
        /* canonical str: equal text means equal length, kind and units */
        return PyUnicode_GET_LENGTH(o) == len && PyUnicode_KIND(o) == kind
            && memcmp(PyUnicode_DATA(o), data, (size_t)(len * kind)) == 0;
    }

    /* `s in list`, as list.__contains__ answers it, while every item up to
       the answer is an exact str: 1 or 0; -1 when an item of another type
       comes first (the caller then asks the list itself).  Without the GIL
       each item is taken as list.__contains__ takes it there, a reference
       at a time, with no lock (and so no write to the shared list: the
       stdlib's lists hold immortal literals). */
    static int fu_str_in_list(PyObject *list, PyObject *s)
    {
        int r = 0;
        Py_ssize_t i, len;
        int kind;
        const void *data;
    #if PY_VERSION_HEX < 0x030C0000
        if (!PyUnicode_IS_READY(s))
            return -1;
    #endif
        len = PyUnicode_GET_LENGTH(s);
        kind = PyUnicode_KIND(s);
        data = PyUnicode_DATA(s);
    #ifdef Py_GIL_DISABLED
        for (i = 0; r == 0; i++) {
            PyObject *o = PyList_GetItemRef(list, i);
            if (o == NULL) {        /* past the end (another thread may shorten it) */
                PyErr_Clear();
                break;
            }
            r = fu_str_is(o, s, len, kind, data);
            Py_DECREF(o);
        }
    #else
        for (i = 0; r == 0 && i < PyList_GET_SIZE(list); i++)
            r = fu_str_is(PyList_GET_ITEM(list, i), s, len, kind, data);
    #endif
        return r;
    }

    /* A new reference to o (Py_NewRef is 3.10+). */
    static inline PyObject *fu_new_ref(PyObject *o)
    {
        Py_INCREF(o);
        return o;
    }

    /* Whether two exact str hold the same text (no code runs). */
    static inline int fu_same_text(PyObject *a, PyObject *b)
    {
        Py_ssize_t n;
        if (a == b)
            return 1;
        n = PyUnicode_GET_LENGTH(a);
        return n == PyUnicode_GET_LENGTH(b) && PyUnicode_KIND(a) == PyUnicode_KIND(b)
            && memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)(n * PyUnicode_KIND(a))) == 0;
    }

    /* What the split cache and urljoin's memo keep, they keep in one slot
       with the GIL; without it, in a slot per thread (by its thread state,
       16 in all): threads then neither wait for one another's lock nor
       evict one another's entries, and two that share a slot take turns. */
    #ifdef Py_GIL_DISABLED
    #define FU_THREAD_SLOTS 16
    static inline Py_ssize_t fu_thread_slot(void)
    {
        uintptr_t t = (uintptr_t)PyThreadState_GetUnchecked();
        return (Py_ssize_t)(((t >> 4) * (uintptr_t)0x9E3779B97F4A7C15ULL) >> 60);
    }
    #else
    #define FU_THREAD_SLOTS 1
    #define fu_thread_slot() 0
    #endif
    """
    int fu_str_in_list(object lst, object s)
    bint fu_same_text(PyObject *a, PyObject *b) noexcept nogil
    object fu_new_ref(PyObject *o)
    enum: FU_THREAD_SLOTS
    Py_ssize_t fu_thread_slot() noexcept nogil

# ---------------------------------------------------------------------------
# What the stdlib is made of: taken at import, and again if urllib.parse is
# executed again (importlib.reload makes new functions and result classes in
# the same namespace).  Objects replaced then are kept alive for good in
# _RETIRED: a call under way (on another thread, or one whose Python code
# did the reload) may still hold them without a reference.

cdef dict _STD = _std.__dict__
cdef list _RETIRED = []
cdef object SplitResult = None
cdef object ParseResult = None
cdef object DefragResult = None
cdef object SplitResultBytes = None
cdef object ParseResultBytes = None
cdef object DefragResultBytes = None
# The stdlib's urlsplit (with its lru_cache, 3.11+) and the function itself,
# for calls handed on: this module's own cache sits in front of the latter.
cdef object _STD_URLSPLIT = None
cdef object _raw_urlsplit = None
cdef object _std_urlparse = None
cdef object _std_urlunsplit = None
cdef object _std_urlunparse = None
cdef object _std_urljoin = None
cdef object _std_urldefrag = None
cdef object _checknetloc = None
cdef object _check_bracketed_host = None
cdef object _SPLIT_KEEP = None
cdef object _PARSE_KEEP = None
cdef object _DEFRAG_KEEP = None
# Results get _keep_empty = False stored directly where the offset is known
# (a descriptor call costs as much as building a component).
cdef Py_ssize_t _SPLIT_KEEP_AT = -1
cdef Py_ssize_t _PARSE_KEEP_AT = -1
cdef Py_ssize_t _DEFRAG_KEEP_AT = -1


def _keep_slot(cls, made):
    """The member descriptor of cls's _keep_empty slot where the stdlib's
    own result (made) carries one (3.15+: missing_as_none is recorded on
    every result, and urlunsplit, geturl and pickling read it), else None."""
    import types

    descr = getattr(cls, "_keep_empty", None)
    if type(descr) is types.MemberDescriptorType and hasattr(made, "_keep_empty"):
        return descr
    return None


cdef int _capture(dict originals) except -1:
    """Take the stdlib's classes, helpers and (from `originals`, the
    functions this module replaces) functions."""
    global SplitResult, ParseResult, DefragResult, SplitResultBytes, ParseResultBytes
    global DefragResultBytes, _STD_URLSPLIT, _raw_urlsplit, _std_urlparse, _std_urlunsplit
    global _std_urlunparse, _std_urljoin, _std_urldefrag, _checknetloc, _check_bracketed_host
    global _SPLIT_KEEP, _PARSE_KEEP, _DEFRAG_KEEP, _SPLIT_KEEP_AT, _PARSE_KEEP_AT
    global _DEFRAG_KEEP_AT
    _RETIRED.extend([SplitResult, ParseResult, DefragResult, SplitResultBytes, ParseResultBytes,
                     DefragResultBytes, _STD_URLSPLIT, _raw_urlsplit, _std_urlparse,
                     _std_urlunsplit, _std_urlunparse, _std_urljoin, _std_urldefrag,
                     _checknetloc, _check_bracketed_host, _SPLIT_KEEP, _PARSE_KEEP,
                     _DEFRAG_KEEP])
    # the offsets first: a result is never made with new classes and old ones
    _SPLIT_KEEP_AT = _PARSE_KEEP_AT = _DEFRAG_KEEP_AT = -1
    SplitResult = _STD["SplitResult"]
    ParseResult = _STD["ParseResult"]
    DefragResult = _STD["DefragResult"]
    SplitResultBytes = _STD["SplitResultBytes"]
    ParseResultBytes = _STD["ParseResultBytes"]
    DefragResultBytes = _STD["DefragResultBytes"]
    _STD_URLSPLIT = originals["urlsplit"]
    _raw_urlsplit = getattr(_STD_URLSPLIT, "__wrapped__", _STD_URLSPLIT)
    _std_urlparse = originals["urlparse"]
    _std_urlunsplit = originals["urlunsplit"]
    _std_urlunparse = originals["urlunparse"]
    _std_urljoin = originals["urljoin"]
    _std_urldefrag = originals["urldefrag"]
    _checknetloc = _STD.get("_checknetloc")
    _check_bracketed_host = _STD.get("_check_bracketed_host")
    _SPLIT_KEEP = _keep_slot(SplitResult, _raw_urlsplit("a"))
    _PARSE_KEEP = _keep_slot(ParseResult, _std_urlparse("a"))
    _DEFRAG_KEEP = _keep_slot(DefragResult, _std_urldefrag("a"))
    _SPLIT_KEEP_AT = _slot_offset(SplitResult, SplitResultBytes, _SPLIT_KEEP, 5)
    _PARSE_KEEP_AT = _slot_offset(ParseResult, ParseResultBytes, _PARSE_KEEP, 6)
    _DEFRAG_KEEP_AT = _slot_offset(DefragResult, DefragResultBytes, _DEFRAG_KEEP, 2)
    return 0


cdef object _blank_result(object cls, Py_ssize_t n):
    r = fu_alloc_tuple(cls, n)
    for i in range(n):
        _set(r, i, None)
    return r


cdef Py_ssize_t _slot_offset_in(object cls, object descr, Py_ssize_t n) except -2:
    """Where descr's slot lies in a cls of n items, as a byte offset, or -1.
    A slot of a tuple subclass lies after the items, at a place the
    interpreter chooses: found by storing a marker through the descriptor,
    then checked by reading a direct store back through it."""
    cdef Py_ssize_t size, off, found = -1
    cdef char *base
    if descr is None:
        return -1
    size = cls.__basicsize__ + n * cls.__itemsize__
    marker = object()
    r = _blank_result(cls, n)
    fu_descr_set(descr, r, marker)
    base = <char *><PyObject *>r
    for off in range(sizeof(PyObject), size - <Py_ssize_t>sizeof(PyObject *) + 1,
                     sizeof(PyObject *)):
        if (<PyObject **>(base + off))[0] == <PyObject *>marker:
            if found >= 0:
                return -1
            found = off
    if found < 0:
        return -1
    t = _blank_result(cls, n)
    fu_set_slot(t, found, marker)
    return found if descr.__get__(t, cls) is marker else -1


cdef Py_ssize_t _slot_offset(object str_cls, object bytes_cls, object descr,
                             Py_ssize_t n) except -2:
    """The offset for both classes of a kind (they share the slot's base), or -1."""
    cdef Py_ssize_t at = _slot_offset_in(str_cls, descr, n)
    return at if at == _slot_offset_in(bytes_cls, descr, n) else -1


_capture({name: _STD[name] for name in
          ("urlsplit", "urlparse", "urlunsplit", "urlunparse", "urljoin", "urldefrag")})


cdef str EMPTY = ""
cdef bytes BEMPTY = b""
cdef str HTTP = "http"
cdef str HTTPS = "https"

# Behaviour switches, set by _detect() at import, each by probing the
# function it governs (see _detect).
cdef bint ALPHA_FIRST = True    # 3.11+: a scheme starts with an ASCII letter
cdef int BRACKETS = 0           # 0: balance only, 1: also _check_bracketed_host, 2: hand on
# urlunsplit/urlunparse: 0 <= 3.12.3 rules, 1 3.12.4+/3.13 rules, 3 3.14+
# rules (urlunparse decides on '//' from the path before its params), 2 hand on
cdef int UNSPLIT = 0
# urljoin and urldefrag: 0 built on urlparse/urlunparse (<= 3.13), 1 built
# on the split that keeps a missing component apart from an empty one
# (3.14+: "?" and "#" survive), 2 hand on
cdef int JOIN = 0
cdef int DEFRAG = 0
cdef bint SPLIT_OK = True       # False: the split family hands every call on
cdef bint SCHEME_NONE = False   # scheme=None splits as scheme='' (3.15's default)

# ---------------------------------------------------------------------------
# Text pieces: a run of code units of one kind, from a str, bytes or literal.

cdef struct Piece:
    const char *data
    Py_ssize_t length
    int kind
    bint ascii      # known to hold only code units < 0x80

cdef inline void _piece_str(Piece *p, object s, Py_ssize_t a, Py_ssize_t b) noexcept:
    p.kind = PyUnicode_KIND(s)
    p.data = <const char *>PyUnicode_DATA(s) + a * p.kind
    p.length = b - a
    p.ascii = PyUnicode_IS_ASCII(s)

cdef inline void _piece_lit(Piece *p, const char *lit, Py_ssize_t n) noexcept:
    p.data = lit
    p.length = n
    p.kind = 1
    p.ascii = True

cdef inline void _piece_empty(Piece *p) noexcept:
    _piece_lit(p, "", 0)

cdef inline Py_UCS4 _pchar(const Piece *p, Py_ssize_t i) noexcept nogil:
    return PyUnicode_READ(p.kind, p.data, i)

cdef Py_UCS4 _piece_max(const Piece *p) noexcept nogil:
    cdef Py_UCS4 m = 0, c
    cdef Py_ssize_t i
    if p.ascii:
        return 0x7F
    for i in range(p.length):
        c = PyUnicode_READ(p.kind, p.data, i)
        if c > m:
            m = c
    return m

cdef str _build(const Piece *ps, Py_ssize_t n):
    """The concatenation of the pieces as one new str, in its canonical kind."""
    cdef Py_ssize_t total = 0, i, j, at = 0
    cdef Py_UCS4 maxchar = 0, m
    cdef int okind
    cdef char *odata
    for i in range(n):
        total += ps[i].length
        if ps[i].length:
            m = 0x7F if ps[i].ascii else _piece_max(&ps[i])
            if m > maxchar:
                maxchar = m
    if total == 0:
        return EMPTY
    out = PyUnicode_New(total, maxchar)
    okind = PyUnicode_KIND(out)
    odata = <char *>PyUnicode_DATA(out)
    for i in range(n):
        if ps[i].kind == okind:
            fu_copy(<uint8_t *>odata + at * okind, <const uint8_t *>ps[i].data,
                    ps[i].length * okind)
        else:
            for j in range(ps[i].length):
                PyUnicode_WRITE(okind, odata, at + j, _pchar(&ps[i], j))
        at += ps[i].length
    return out

# ---------------------------------------------------------------------------
# Result objects.

cdef inline void _set(object r, Py_ssize_t i, object v) noexcept:
    Py_INCREF(v)  # PyTuple_SET_ITEM steals it
    PyTuple_SET_ITEM(r, i, v)


# The compiled functions answer missing_as_none=False only: that is the
# value a result's _keep_empty slot records, where the classes have one.

cdef inline object _result(object cls, object a, object b, object c, object d, object e):
    r = fu_alloc_tuple(cls, 5)
    _set(r, 0, a)
    _set(r, 1, b)
    _set(r, 2, c)
    _set(r, 3, d)
    _set(r, 4, e)
    if _SPLIT_KEEP_AT >= 0:
        fu_set_slot(r, _SPLIT_KEEP_AT, False)
    elif _SPLIT_KEEP is not None:
        fu_descr_set(_SPLIT_KEEP, r, False)
    return r

cdef inline object _result6(object cls, object a, object b, object c, object d, object e,
                            object f):
    r = fu_alloc_tuple(cls, 6)
    _set(r, 0, a)
    _set(r, 1, b)
    _set(r, 2, c)
    _set(r, 3, d)
    _set(r, 4, e)
    _set(r, 5, f)
    if _PARSE_KEEP_AT >= 0:
        fu_set_slot(r, _PARSE_KEEP_AT, False)
    elif _PARSE_KEEP is not None:
        fu_descr_set(_PARSE_KEEP, r, False)
    return r

cdef inline object _result2(object cls, object a, object b):
    r = fu_alloc_tuple(cls, 2)
    _set(r, 0, a)
    _set(r, 1, b)
    if _DEFRAG_KEEP_AT >= 0:
        fu_set_slot(r, _DEFRAG_KEEP_AT, False)
    elif _DEFRAG_KEEP is not None:
        fu_descr_set(_DEFRAG_KEEP, r, False)
    return r

# ---------------------------------------------------------------------------
# Splitting: urlsplit()'s cuts, and urlparse()'s params.

cdef struct Parts:
    const char *data        # the text (str data or bytes buffer)
    int kind                # 1, 2, 4 (bytes: 1)
    Py_ssize_t n
    Py_ssize_t scheme_end   # scheme = [0, scheme_end) or -1
    Py_ssize_t net_a, net_b  # netloc or -1
    Py_ssize_t path_a, path_b
    Py_ssize_t q_a, q_b     # query or -1
    Py_ssize_t f_a          # fragment = [f_a, n) or -1
    int flags

cdef inline void _scan(Parts *p, bint allow_frag) noexcept nogil:
    cdef fu_usplit_t o
    if p.kind == 1:
        fu_usplit_1(<const uint8_t *>p.data, p.n, ALPHA_FIRST, allow_frag, &o)
    elif p.kind == 2:
        fu_usplit_2(<const uint16_t *>p.data, p.n, ALPHA_FIRST, allow_frag, &o)
    else:
        fu_usplit_4(<const uint32_t *>p.data, p.n, ALPHA_FIRST, allow_frag, &o)
    p.scheme_end = o.scheme_end
    p.net_a = o.netloc_start
    p.net_b = o.netloc_end
    p.path_a = o.path_start
    p.path_b = o.path_end
    p.q_a = o.query_start
    p.q_b = o.query_end
    p.f_a = o.frag_start
    p.flags = o.flags

cdef inline Py_ssize_t _params_at(const Parts *p) noexcept nogil:
    if p.kind == 1:
        return fu_params_1(<const uint8_t *>p.data, p.path_a, p.path_b)
    if p.kind == 2:
        return fu_params_2(<const uint16_t *>p.data, p.path_a, p.path_b)
    return fu_params_4(<const uint32_t *>p.data, p.path_a, p.path_b)

cdef inline Py_UCS4 _at(const Parts *p, Py_ssize_t i) noexcept nogil:
    return PyUnicode_READ(p.kind, p.data, i)

cdef inline object _sub(object s, const Parts *p, Py_ssize_t a, Py_ssize_t b, bint is_bytes):
    if a >= b:
        return BEMPTY if is_bytes else EMPTY
    if is_bytes:
        return PyBytes_FromStringAndSize(p.data + a, b - a)
    if p.kind == 1 and PyUnicode_IS_ASCII(s) and b - a > 1 and b - a < p.n:
        # what PyUnicode_Substring makes of ASCII text, without its checks
        # (one character stays its cached singleton, the whole stays s)
        r = PyUnicode_New(b - a, 0x7F)
        fu_copy(<uint8_t *>PyUnicode_DATA(r), <const uint8_t *>p.data + a, b - a)
        return r
    return PyUnicode_Substring(s, a, b)

cdef object _scheme_of(object s, const Parts *p, bint is_bytes):
    """The url's scheme, lowered as urlsplit() lowers it."""
    cdef Py_ssize_t n = p.scheme_end
    if not is_bytes and p.kind == 1 and not (p.flags & FU_US_SCHEME_UPPER):
        # the two schemes most URLs have, without a new object
        if n == 5 and memcmp(p.data, b"https", 5) == 0:
            return HTTPS
        if n == 4 and memcmp(p.data, b"http", 4) == 0:
            return HTTP
    r = _sub(s, p, 0, n, is_bytes)
    if p.flags & FU_US_SCHEME_UPPER:
        r = r.lower()
    return r

cdef int _check_netloc(object s, const Parts *p) except -1:
    """urlsplit()'s netloc checks, in its order: brackets, then NFKC."""
    cdef Py_ssize_t a, b
    cdef int fl = p.flags
    if not fl & (FU_US_OPEN_BR | FU_US_CLOSE_BR | FU_US_NETLOC_WIDE):
        return 0
    if fl & (FU_US_OPEN_BR | FU_US_CLOSE_BR):
        if (fl & FU_US_OPEN_BR) == 0 or (fl & FU_US_CLOSE_BR) == 0:
            raise ValueError("Invalid IPv6 URL")
        if BRACKETS == 1:
            # netloc.partition('[')[2].partition(']')[0]
            a = p.net_a
            while _at(p, a) != 0x5B:
                a += 1
            b = a + 1
            while b < p.net_b and _at(p, b) != 0x5D:
                b += 1
            _check_bracketed_host(PyUnicode_Substring(s, a + 1, b))
    if fl & FU_US_NETLOC_WIDE:
        _checknetloc(PyUnicode_Substring(s, p.net_a, p.net_b))
    return 0

cdef int _prepare_str(Parts *p, object url, bint allow_frag) except -1:
    """Scan a str; 1 when the stdlib's own code must take it, else 0."""
    fu_unicode_ready(url)
    p.kind = PyUnicode_KIND(url)
    p.data = <const char *>PyUnicode_DATA(url)
    p.n = PyUnicode_GET_LENGTH(url)
    _scan(p, allow_frag)
    if p.flags & FU_US_SLOW:
        return 1
    if BRACKETS == 2 and p.flags & (FU_US_OPEN_BR | FU_US_CLOSE_BR):
        return 1
    if p.flags & FU_US_NETLOC_WIDE and _checknetloc is None:
        return 1
    return 0

cdef inline bint _clean_scheme_arg(object scheme):
    """A default scheme the stdlib would not strip or rewrite."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(scheme), i
    cdef Py_UCS4 c
    if n == 0:
        return True
    fu_unicode_ready(scheme)
    cdef int kind = PyUnicode_KIND(scheme)
    cdef void *data = PyUnicode_DATA(scheme)
    if PyUnicode_READ(kind, data, 0) <= 0x20 or PyUnicode_READ(kind, data, n - 1) <= 0x20:
        return False
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        if c == 0x09 or c == 0x0A or c == 0x0D:
            return False
    return True

cdef inline bint _is_flag(object v):
    # bool(v) of these runs no Python code and cannot fail
    return type(v) is bool or type(v) is int

cdef object _split(object url, object scheme, object allow_fragments, bint parse,
                   bint checked=False):
    """SplitResult/ParseResult (or the Bytes forms), or None to hand on;
    `checked`: the caller found the module state holding."""
    cdef Parts p
    cdef bint is_bytes, af
    cdef Py_ssize_t k, i
    cdef const char *bs
    if not SPLIT_OK or not _is_flag(allow_fragments) or not (checked or _holds()):
        return None
    if scheme is None and SCHEME_NONE:
        scheme = EMPTY
    af = allow_fragments
    if type(url) is str:
        if type(scheme) is not str or not _clean_scheme_arg(scheme):
            return None
        is_bytes = False
        if _prepare_str(&p, url, af):
            return None
    elif type(url) is bytes:
        # _coerce_args: a falsy scheme mixes with anything; bytes must be ASCII
        if type(scheme) is str and PyUnicode_GET_LENGTH(scheme) == 0:
            scheme = BEMPTY
        elif type(scheme) is not bytes:
            return None
        bs = PyBytes_AS_STRING(scheme)
        k = PyBytes_GET_SIZE(scheme)
        if k and (<uint8_t>bs[0] <= 0x20 or <uint8_t>bs[k - 1] <= 0x20):
            return None
        for i in range(k):
            if <uint8_t>bs[i] >= 0x80 or bs[i] == b'\t' or bs[i] == b'\r' or bs[i] == b'\n':
                return None
        is_bytes = True
        p.kind = 1
        p.data = PyBytes_AS_STRING(url)
        p.n = PyBytes_GET_SIZE(url)
        _scan(&p, af)
        if p.flags & (FU_US_SLOW | FU_US_WIDE | FU_US_OPEN_BR | FU_US_CLOSE_BR):
            return None
    else:
        return None

    if p.scheme_end >= 0:
        sch = _scheme_of(url, &p, is_bytes)
    else:
        sch = scheme
    if p.net_a >= 0:
        if p.flags & (FU_US_OPEN_BR | FU_US_CLOSE_BR | FU_US_NETLOC_WIDE) and not is_bytes:
            _check_netloc(url, &p)
        netloc = _sub(url, &p, p.net_a, p.net_b, is_bytes)
    else:
        netloc = BEMPTY if is_bytes else EMPTY
    query = _sub(url, &p, p.q_a, p.q_b, is_bytes) if p.q_a >= 0 else (BEMPTY if is_bytes else EMPTY)
    frag = _sub(url, &p, p.f_a, p.n, is_bytes) if p.f_a >= 0 else (BEMPTY if is_bytes else EMPTY)
    # (each class passed as it is: a conditional would take a reference to
    # it, which every thread would write without the GIL)
    if not parse:
        path = _sub(url, &p, p.path_a, p.path_b, is_bytes)
        if is_bytes:
            return _result(SplitResultBytes, sch, netloc, path, query, frag)
        return _result(SplitResult, sch, netloc, path, query, frag)
    # urlparse(): params only for the schemes that have them
    if p.flags & FU_US_SEMICOLON and _in_list(
            USES_PARAMS, sch.decode("ascii") if is_bytes else sch):
        i = _params_at(&p)
        if i >= 0:
            path = _sub(url, &p, p.path_a, i, is_bytes)
            params = _sub(url, &p, i + 1, p.path_b, is_bytes)
        else:
            path = _sub(url, &p, p.path_a, p.path_b, is_bytes)
            params = BEMPTY if is_bytes else EMPTY
    else:
        path = _sub(url, &p, p.path_a, p.path_b, is_bytes)
        params = BEMPTY if is_bytes else EMPTY
    if is_bytes:
        return _result6(ParseResultBytes, sch, netloc, path, params, query, frag)
    return _result6(ParseResult, sch, netloc, path, params, query, frag)

# ---------------------------------------------------------------------------
# urllib.parse's module state, as the stdlib reads it per call (see
# fasturi._stdstate): the compiled code answers a call only while every name
# the functions it replaces read is bound as captured (or to this module's
# own functions: install()); else the stdlib's function answers.  The uses_*
# lists, which the compiled code reads itself, are taken as bound at each
# check: code that rebinds or extends them keeps working.

cdef enum:
    USES_RELATIVE = 0
    USES_NETLOC = 1
    USES_PARAMS = 2

cdef object _USES_RELATIVE = None
cdef object _USES_NETLOC = None
cdef object _USES_PARAMS = None
_USES_NAMES = frozenset(["uses_relative", "uses_netloc", "uses_params"])
cdef object _STATE = None           # a fasturi._stdstate.State, once made
fu_std_watch(_STD)


def _take_uses():
    """Take the uses_* lists as bound now; False when one is not bound (the
    stdlib's own code then raises where it reads it)."""
    global _USES_RELATIVE, _USES_NETLOC, _USES_PARAMS
    relative = _STD.get("uses_relative", _stdstate.ABSENT)
    netloc = _STD.get("uses_netloc", _stdstate.ABSENT)
    params = _STD.get("uses_params", _stdstate.ABSENT)
    if FU_FREE_THREADED:
        # another thread may be reading the ones replaced, unreferenced
        for old, new in ((_USES_RELATIVE, relative), (_USES_NETLOC, netloc),
                         (_USES_PARAMS, params)):
            if old is not new and old is not None:
                _RETIRED.append(old)
    _USES_RELATIVE = relative
    _USES_NETLOC = netloc
    _USES_PARAMS = params
    return not (relative is _stdstate.ABSENT or netloc is _stdstate.ABSENT
                or params is _stdstate.ABSENT)


def _reloaded(originals):
    """urllib.parse was executed again: take its new functions and classes,
    and drop what was computed with the old ones."""
    _capture(originals)
    _forget()


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


cdef bint _in_list(int which, object scheme) except -1:
    """``scheme in uses_xxx``, with the list bound now, as the stdlib reads it
    (an item's == may have rebound it, earlier in the same call)."""
    cdef PyObject *lst
    if fu_std_state() < 0:
        _recheck()
    if which == USES_RELATIVE:
        lst = <PyObject *>_USES_RELATIVE
    elif which == USES_NETLOC:
        lst = <PyObject *>_USES_NETLOC
    else:
        lst = <PyObject *>_USES_PARAMS
    if FU_FREE_THREADED:
        # a list replaced is retired, never freed: no reference is needed
        # (and none is taken: every thread would write its count)
        return _contains(<object>lst, scheme)
    held = <object>lst     # a reference of our own: an item's == may rebind the name
    return _contains(held, scheme)


cdef inline bint _contains(object lst, object scheme) except -1:
    cdef int found
    if type(lst) is list and type(scheme) is str:
        found = fu_str_in_list(lst, scheme)
        if found >= 0:
            return found
    return PySequence_Contains(lst, scheme)


# ---------------------------------------------------------------------------
# urlsplit's lru_cache (3.11+): the stdlib's maxsize and statistics, kept
# in a table of its own.  A dict would do, but its resizes under constant
# insert/delete churn cost more than the split being cached.

# The cache keeps a result on its key's second use among roughly the last
# SEEN distinct calls (a direct-mapped table of key hashes says which keys
# were seen): URLs parsed once, the common case in bulk work, never evict
# the ones that repeat, and cost no retained objects.
cdef enum:
    SEEN = 1024

cdef struct Entry:
    PyObject *key           # owned
    PyObject *result        # owned
    Py_hash_t hash
    Py_ssize_t prev, next   # LRU list through entry indexes; -1 ends it

cdef struct Table:
    # one least-recently-used table: linear probing over a power-of-two
    # index (backward-shift deletion, so no tombstones), entries in a fixed
    # pool linked newest to oldest; its counters; and the lock all of it is
    # read and changed under without the GIL
    fu_mutex lock
    Entry *pool
    Py_ssize_t *index           # slot -> entry, -1 empty
    Py_ssize_t count, newest, oldest
    Py_ssize_t free             # unused entries, chained through .next
    Py_ssize_t hits, misses
    Py_hash_t seen[SEEN]        # hashes of keys used once; -1 empty


@cython.final
cdef class _SplitCache:
    """Least-recently-used cache in front of the compiled urlsplit.

    With the GIL, one table (Table).  Without it, a table per thread slot
    (fu_thread_slot), each of the stdlib's maxsize, under its own lock,
    held for no Python code (lookups compare plain keys only, and what an
    eviction releases is released after): one thread's calls are kept and
    evicted exactly as with the GIL, and threads do not wait on each other.
    The statistics are the sum of the tables'; every call counts once."""
    cdef Table *tables
    cdef Py_ssize_t mask, maxsize
    cdef dict unbounded        # maxsize=None: a plain dict, nothing to evict
    cdef Py_ssize_t hits, misses   # (the dict's)
    cdef object maxsize_obj, info_type

    def __cinit__(self, maxsize, info_type):
        cdef Py_ssize_t cap = 8, i, k
        cdef Table *t
        self.maxsize_obj = maxsize
        self.info_type = info_type
        if maxsize is None:
            self.maxsize = -1
            self.unbounded = {}
            return
        self.maxsize = max(<Py_ssize_t>maxsize, 0)
        while cap < 2 * self.maxsize:
            cap *= 2
        self.mask = cap - 1
        self.tables = <Table *>calloc(FU_THREAD_SLOTS, sizeof(Table))
        if self.tables is NULL:
            raise MemoryError()
        for k in range(FU_THREAD_SLOTS):
            t = &self.tables[k]
            t.newest = t.oldest = -1
            for i in range(SEEN):
                t.seen[i] = -1
            t.index = <Py_ssize_t *>malloc(cap * sizeof(Py_ssize_t))
            t.pool = <Entry *>malloc((self.maxsize + 1) * sizeof(Entry))
            if t.index is NULL or t.pool is NULL:
                raise MemoryError()
            for i in range(cap):
                t.index[i] = -1
            self._free_all(t)

    cdef void _free_all(self, Table *t) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.maxsize):
            t.pool[i].next = i + 1
        if self.maxsize:
            t.pool[self.maxsize - 1].next = -1
        t.free = 0 if self.maxsize else -1

    def __dealloc__(self):
        cdef Py_ssize_t k, e
        cdef Table *t
        if self.tables is NULL:
            return
        for k in range(FU_THREAD_SLOTS):
            t = &self.tables[k]
            if t.pool is not NULL:
                e = t.newest
                while e >= 0:
                    Py_DECREF(<object>t.pool[e].key)
                    Py_DECREF(<object>t.pool[e].result)
                    e = t.pool[e].next
            free(t.pool)
            free(t.index)
        free(self.tables)

    cdef inline Py_ssize_t _slot_of(self, Table *t, object key, Py_hash_t h) noexcept:
        """The index slot holding key, or -1 (no Python code runs)."""
        cdef Py_ssize_t i = h & self.mask, e
        while True:
            e = t.index[i]
            if e < 0:
                return -1
            if t.pool[e].hash == h and (t.pool[e].key == <PyObject *>key or
                                        _same_key(t.pool[e].key, key)):
                return i
            i = (i + 1) & self.mask

    cdef inline void _unlink(self, Table *t, Py_ssize_t e) noexcept nogil:
        cdef Py_ssize_t p = t.pool[e].prev, n = t.pool[e].next
        if p >= 0:
            t.pool[p].next = n
        else:
            t.newest = n
        if n >= 0:
            t.pool[n].prev = p
        else:
            t.oldest = p

    cdef inline void _push(self, Table *t, Py_ssize_t e) noexcept nogil:
        t.pool[e].prev = -1
        t.pool[e].next = t.newest
        if t.newest >= 0:
            t.pool[t.newest].prev = e
        else:
            t.oldest = e
        t.newest = e

    cdef void _remove_slot(self, Table *t, Py_ssize_t i) noexcept nogil:
        """Empty slot i, shifting later entries of its probe run back."""
        cdef Py_ssize_t j = i, k
        while True:
            t.index[i] = -1
            while True:
                j = (j + 1) & self.mask
                if t.index[j] < 0:
                    return
                k = t.pool[t.index[j]].hash & self.mask
                # the entry at j may move to i unless its home k lies in (i, j]
                if i <= j:
                    if i < k <= j:
                        continue
                elif i < k or k <= j:
                    continue
                break
            t.index[i] = t.index[j]
            i = j

    cdef object call(self, object url, object scheme, object allow_fragments):
        cdef Py_hash_t h
        cdef Py_ssize_t slot, i
        cdef bint first, plain, handed = False
        cdef uint64_t record
        cdef Table *t
        if not _holds():
            # urllib.parse is not as captured: its own urlsplit answers, from
            # its own cache
            return _STD_URLSPLIT(url, scheme, allow_fragments)
        record = fu_std_record()
        if type(url) is str and allow_fragments is True and (
                (type(scheme) is str and PyUnicode_GET_LENGTH(scheme) == 0)
                or (scheme is None and SCHEME_NONE)):
            # the common call (3.15's default scheme is None, which splits as
            # ''): the URL is its own key.  Its hash is the str's own, as
            # lru_cache's is: computed once per str object and kept in it, so
            # a URL already hashed (a set's or a dict's key, a repeat) costs
            # nothing more.
            key = url
            h = hash(url)
        else:
            # typed=True: types first, so str and bytes keys never compare
            key = (type(url), type(scheme), type(allow_fragments), url, scheme, allow_fragments)
            h = hash(key)      # unhashable arguments raise as lru_cache's key does
        plain = _plain(url) and _plain(scheme) and _plain(allow_fragments)
        if self.unbounded is not None:
            result = self.unbounded.get(key) if plain else None
            if result is not None:
                fu_add_ssize(&self.hits, 1)
                return result
            fu_add_ssize(&self.misses, 1)
            result = _urlsplit_impl(url, scheme, allow_fragments, &handed)
            if plain:
                self.unbounded[key] = result
            return result
        t = &self.tables[fu_thread_slot()]
        fu_lock(&t.lock)
        if self.maxsize == 0 or not plain:
            # values whose == could run Python code are not kept
            t.misses += 1
            fu_unlock(&t.lock)
            return _urlsplit_impl(url, scheme, allow_fragments, &handed)
        slot = self._slot_of(t, key, h)
        if slot >= 0:
            i = t.index[slot]
            self._unlink(t, i)
            self._push(t, i)
            t.hits += 1
            result = fu_new_ref(t.pool[i].result)  # ours before the lock is let go
            fu_unlock(&t.lock)
            return result
        t.misses += 1
        i = (h ^ (h >> 17)) & (SEEN - 1)
        first = t.seen[i] != h
        if first:
            t.seen[i] = h
        fu_unlock(&t.lock)
        # (room is made in _keep, once there is a result: a call that
        # raises evicts nothing, as with lru_cache)
        result = _urlsplit_impl(url, scheme, allow_fragments, &handed, True)
        if first and not handed:
            # first use (in a while): answered, not kept (see SEEN) -- unless
            # the stdlib answered it.  Its lru_cache keeps every first call,
            # so a repeated call it warns about warns once; kept here too,
            # such a call warns as often as there.
            return result
        if fu_std_record() != record or fu_std_state() != 1:
            return result     # urllib.parse changed meanwhile: not kept
        return self._keep(t, key, h, result)

    cdef object _keep(self, Table *t, object key, Py_hash_t h, object result):
        """Store result under key, evicting the oldest entry if full; unless
        the key was kept meanwhile (by code the stdlib's slow path ran, or
        by another thread of the slot)."""
        cdef Py_ssize_t e, i
        cdef PyObject *old_key = NULL
        cdef PyObject *old_result = NULL
        fu_lock(&t.lock)
        if self._slot_of(t, key, h) >= 0:
            fu_unlock(&t.lock)
            return result
        if t.count >= self.maxsize or t.free < 0:
            e = t.oldest
            old_key = t.pool[e].key
            old_result = t.pool[e].result
            self._evict(t, e)
        e = t.free
        t.free = t.pool[e].next
        t.count += 1
        Py_INCREF(key)
        Py_INCREF(result)
        t.pool[e].key = <PyObject *>key
        t.pool[e].result = <PyObject *>result
        t.pool[e].hash = h
        i = h & self.mask
        while t.index[i] >= 0:
            i = (i + 1) & self.mask
        t.index[i] = e
        self._push(t, e)
        fu_unlock(&t.lock)
        # released last, the lock free: the table is whole before anything
        # is freed (a result's class may have a __del__)
        if old_key is not NULL:
            Py_DECREF(<object>old_key)
            Py_DECREF(<object>old_result)
        return result

    cdef void _evict(self, Table *t, Py_ssize_t e) noexcept nogil:
        """Take entry e out of the table (its references are the caller's)."""
        cdef Py_ssize_t i
        self._unlink(t, e)
        i = t.pool[e].hash & self.mask
        while t.index[i] != e:
            i = (i + 1) & self.mask
        self._remove_slot(t, i)
        t.pool[e].next = t.free
        t.free = e
        t.count -= 1

    def cache_info(self):
        """Report cache statistics (hits, misses, maxsize, currsize)."""
        cdef Py_ssize_t hits, misses, size = 0, k
        cdef Table *t
        if self.unbounded is not None:
            return self.info_type(fu_load_ssize(&self.hits), fu_load_ssize(&self.misses),
                                  self.maxsize_obj, len(self.unbounded))
        hits = misses = 0
        for k in range(FU_THREAD_SLOTS):
            t = &self.tables[k]
            fu_lock(&t.lock)
            size += t.count
            hits += t.hits
            misses += t.misses
            fu_unlock(&t.lock)
        return self.info_type(hits, misses, self.maxsize_obj, size)

    def cache_clear(self):
        """Clear the cache and cache statistics."""
        cdef Py_ssize_t i, e, k, n
        cdef PyObject **dropped
        cdef Table *t
        if self.unbounded is not None:
            self.unbounded.clear()
            fu_store_ssize(&self.hits, 0)
            fu_store_ssize(&self.misses, 0)
            return
        for k in range(FU_THREAD_SLOTS):
            t = &self.tables[k]
            n = 0
            dropped = NULL
            fu_lock(&t.lock)
            t.hits = t.misses = 0
            for i in range(SEEN):
                t.seen[i] = -1
            if t.count:
                # the references leave the table under the lock, and are
                # released after it (see _keep)
                dropped = <PyObject **>malloc(2 * t.count * sizeof(PyObject *))
                e = t.newest
                while e >= 0:
                    if dropped is NULL:
                        Py_DECREF(<object>t.pool[e].key)   # (no memory: at once)
                        Py_DECREF(<object>t.pool[e].result)
                    else:
                        dropped[n] = t.pool[e].key
                        dropped[n + 1] = t.pool[e].result
                        n += 2
                    e = t.pool[e].next
                for i in range(self.mask + 1):
                    t.index[i] = -1
                t.newest = t.oldest = -1
                t.count = 0
                self._free_all(t)
            fu_unlock(&t.lock)
            for i in range(n):
                Py_DECREF(<object>dropped[i])
            free(dropped)

    def cache_parameters(self):
        """The cache's maxsize and typed flag, as lru_cache reports them."""
        return {"maxsize": self.maxsize_obj, "typed": True}


cdef inline bint _same_key(PyObject *a, object b) noexcept:
    """Whether two keys of plain values (str, bytes, bool, int, None and
    their types, in tuples) are equal: no Python code runs, nothing fails."""
    cdef int r
    if Py_TYPE(<object>a) != Py_TYPE(b):
        return False
    if type(b) is str:
        return fu_same_text(a, <PyObject *>b)
    r = PyObject_RichCompareBool(<object>a, b, Py_EQ)
    if r < 0:
        PyErr_Clear()
        return False
    return r


cdef inline bint _plain(object v):
    # values whose hash and == run no Python code
    return (type(v) is str or type(v) is bytes or type(v) is bool or type(v) is int
            or v is None)

# ---------------------------------------------------------------------------
# The split family.

cdef inline object _urlsplit_impl(object url, object scheme, object allow_fragments,
                                  bint *handed, bint checked=False):
    """urlsplit(); *handed is set when the stdlib's function answered."""
    r = _split(url, scheme, allow_fragments, False, checked)
    if r is None:
        handed[0] = True
        return _raw_urlsplit(url, scheme, allow_fragments)
    return r


def urlsplit(url, scheme='', allow_fragments=True):
    """Split a URL into 5 components: scheme://netloc/path?query#fragment."""
    cdef bint handed
    return _urlsplit_impl(url, scheme, allow_fragments, &handed)


cdef _SplitCache _CACHE = None


def urlsplit_cached(url, scheme='', allow_fragments=True):
    """Split a URL into 5 components: scheme://netloc/path?query#fragment."""
    return _CACHE.call(url, scheme, allow_fragments)


cdef inline object _urlparse_impl(object url, object scheme, object allow_fragments):
    r = _split(url, scheme, allow_fragments, True)
    if r is None:
        return _std_urlparse(url, scheme, allow_fragments)
    return r


def urlparse(url, scheme='', allow_fragments=True):
    """Split a URL into 6 components: scheme://netloc/path;params?query#fragment."""
    return _urlparse_impl(url, scheme, allow_fragments)

# ---------------------------------------------------------------------------
# Joining components back: urlunsplit() and urlunparse().


cdef inline void _put(Piece *out, Py_ssize_t *n, const Piece *p) noexcept:
    out[n[0]] = p[0]
    n[0] += 1


cdef inline void _lit(Piece *out, Py_ssize_t *n, const char *text, Py_ssize_t k) noexcept:
    _piece_lit(&out[n[0]], text, k)
    n[0] += 1


cdef object _unsplit(object scheme, const Piece *sch, const Piece *net, const Piece *url,
                     Py_ssize_t nurl, const Piece *query, const Piece *frag):
    """urlunsplit()'s text; ``url`` is up to 3 pieces (path, ';', params)."""
    cdef Piece out[12]
    cdef Py_ssize_t n = 0, i, ulen = 0
    cdef Py_UCS4 u0 = 0, u1 = 0
    cdef bint have_u0 = False, have_u1 = False, netform
    for i in range(nurl):
        ulen += url[i].length
        if url[i].length and not have_u0:
            u0 = _pchar(&url[i], 0)
            have_u0 = True
            if url[i].length > 1:
                u1 = _pchar(&url[i], 1)
                have_u1 = True
        elif url[i].length and not have_u1:
            u1 = _pchar(&url[i], 0)
            have_u1 = True
    cdef bint slash2 = have_u1 and u0 == 0x2F and u1 == 0x2F
    if sch.length:
        _put(out, &n, &sch[0])
        _lit(out, &n, ":", 1)
    if UNSPLIT == 0:
        # if netloc or (scheme and scheme in uses_netloc and url[:2] != '//'):
        netform = net.length > 0 or (
            sch.length > 0 and _in_list(USES_NETLOC, scheme) and not slash2)
        if netform:
            _lit(out, &n, "//", 2)
            _put(out, &n, &net[0])
            if ulen and u0 != 0x2F:
                _lit(out, &n, "/", 1)
    else:
        if net.length:
            _lit(out, &n, "//", 2)
            _put(out, &n, &net[0])
            if ulen and u0 != 0x2F:
                _lit(out, &n, "/", 1)
        elif slash2:
            _lit(out, &n, "//", 2)
        elif UNSPLIT == 3:
            # 3.14+: an empty netloc is kept for such a scheme when the
            # path (before any ';params') is empty or absolute
            if (sch.length and _in_list(USES_NETLOC, scheme)
                    and (url[0].length == 0 or _pchar(&url[0], 0) == 0x2F)):
                _lit(out, &n, "//", 2)
                if ulen and u0 != 0x2F:     # an empty path before ';params'
                    _lit(out, &n, "/", 1)
        elif (sch.length and _in_list(USES_NETLOC, scheme)
              and (ulen == 0 or u0 == 0x2F)):
            _lit(out, &n, "//", 2)
    for i in range(nurl):
        _put(out, &n, &url[i])
    if query.length:
        _lit(out, &n, "?", 1)
        _put(out, &n, &query[0])
    if frag.length:
        _lit(out, &n, "#", 1)
        _put(out, &n, &frag[0])
    return _build(out, n)


cdef inline object _str_parts(object components, Py_ssize_t n):
    """The components as a tuple of n exact str, or None to hand on.  Items
    are read from the tuple's storage: Cython's generic indexing would go
    through the result classes' slot wrappers, a Python-level call each."""
    cdef Py_ssize_t i
    if (type(components) is tuple or type(components) is SplitResult
            or type(components) is ParseResult):
        t = components
    elif type(components) is list:
        t = tuple(components)   # a snapshot the caller cannot mutate under us
    else:
        return None
    if PyTuple_GET_SIZE(t) != n:
        return None
    for i in range(n):
        if type(_item(t, i)) is not str:
            return None
        fu_unicode_ready(_item(t, i))
    return t


cdef inline object _item(object t, Py_ssize_t i):
    return <object>PyTuple_GET_ITEM(t, i)


cdef inline void _whole(Piece *p, object t, Py_ssize_t i) noexcept:
    s = _item(t, i)
    _piece_str(p, s, 0, PyUnicode_GET_LENGTH(s))


cdef object _unsplit5(object components):
    """urlunsplit(components) without a keep_empty, or None to hand on."""
    cdef Piece sch, net, url, query, frag
    t = _str_parts(components, 5) if UNSPLIT != 2 and _holds() else None
    if t is None:
        return None
    _whole(&sch, t, 0)
    _whole(&net, t, 1)
    _whole(&url, t, 2)
    _whole(&query, t, 3)
    _whole(&frag, t, 4)
    return _unsplit(_item(t, 0), &sch, &net, &url, 1, &query, &frag)


cdef object _unparse6(object components):
    """urlunparse(components) without a keep_empty, or None to hand on."""
    cdef Piece sch, net, query, frag
    cdef Piece url[3]
    cdef Py_ssize_t nurl = 1
    t = _str_parts(components, 6) if UNSPLIT != 2 and _holds() else None
    if t is None:
        return None
    _whole(&sch, t, 0)
    _whole(&net, t, 1)
    _whole(&url[0], t, 2)
    _whole(&url[2], t, 3)
    if url[2].length:
        # url = "%s;%s" % (url, params)
        _piece_lit(&url[1], ";", 1)
        nurl = 3
    _whole(&query, t, 4)
    _whole(&frag, t, 5)
    return _unsplit(_item(t, 0), &sch, &net, url, nurl, &query, &frag)


def urlunsplit(components):
    """Combine the 5 components of urlsplit() into a URL."""
    r = _unsplit5(components)
    return r if r is not None else _std_urlunsplit(components)


def urlunparse(components):
    """Combine the 6 components of urlparse() into a URL."""
    r = _unparse6(components)
    return r if r is not None else _std_urlunparse(components)

# ---------------------------------------------------------------------------
# urljoin() and urldefrag().


cdef struct Parsed:
    Parts p
    bint ascii
    Piece net, path, params, query, frag

cdef object _parse_str(Parsed *r, object url, object default_scheme, bint af):
    """urlparse(url, default_scheme, af) as pieces of url; returns the
    scheme, or None to hand on."""
    cdef Py_ssize_t i
    if _prepare_str(&r.p, url, af):
        return None
    if r.p.scheme_end >= 0:
        scheme = _scheme_of(url, &r.p, False)
    else:
        scheme = default_scheme
    if r.p.net_a >= 0:
        if r.p.flags & (FU_US_OPEN_BR | FU_US_CLOSE_BR | FU_US_NETLOC_WIDE):
            _check_netloc(url, &r.p)
        _piece_str(&r.net, url, r.p.net_a, r.p.net_b)
    else:
        _piece_empty(&r.net)
    _piece_str(&r.path, url, r.p.path_a, r.p.path_b)
    _piece_empty(&r.params)
    if r.p.flags & FU_US_SEMICOLON and _in_list(USES_PARAMS, scheme):
        i = _params_at(&r.p)
        if i >= 0:
            _piece_str(&r.path, url, r.p.path_a, i)
            _piece_str(&r.params, url, i + 1, r.p.path_b)
    if r.p.q_a >= 0:
        _piece_str(&r.query, url, r.p.q_a, r.p.q_b)
    else:
        _piece_empty(&r.query)
    if r.p.f_a >= 0:
        _piece_str(&r.frag, url, r.p.f_a, r.p.n)
    else:
        _piece_empty(&r.frag)
    return scheme


cdef inline object _unparse_pieces(object scheme, Piece *net, Piece *path, Piece *params,
                                   Piece *query, Piece *frag):
    cdef Piece sch
    cdef Piece url[3]
    cdef Py_ssize_t nurl = 1
    _piece_str(&sch, scheme, 0, PyUnicode_GET_LENGTH(scheme))
    url[0] = path[0]
    if params.length:
        _piece_lit(&url[1], ";", 1)
        url[2] = params[0]
        nurl = 3
    return _unsplit(scheme, &sch, net, url, nurl, query, frag)


cdef inline bint _is_dot(const Piece *s) noexcept nogil:
    return s.length == 1 and _pchar(s, 0) == 0x2E

cdef inline bint _is_dotdot(const Piece *s) noexcept nogil:
    return s.length == 2 and _pchar(s, 0) == 0x2E and _pchar(s, 1) == 0x2E

cdef inline Py_ssize_t _find_slash(const Piece *src, Py_ssize_t start) noexcept nogil:
    """The index of the first '/' of src at or after start, or -1."""
    cdef const char *at
    cdef Py_ssize_t i
    if src.kind == 1:
        # most paths: memchr from slash to slash
        at = <const char *>memchr(src.data + start, 0x2F, src.length - start)
        return -1 if at is NULL else at - src.data
    for i in range(start, src.length):
        if _pchar(src, i) == 0x2F:
            return i
    return -1

cdef Py_ssize_t _split_slash(const Piece *src, Piece *out) noexcept nogil:
    """src.split('/') into out; returns the number of pieces."""
    cdef Py_ssize_t i, start = 0, k = 0
    while True:
        i = _find_slash(src, start)
        out[k] = src[0]
        out[k].data = src.data + start * src.kind
        if i < 0:
            out[k].length = src.length - start
            return k + 1
        out[k].length = i - start
        k += 1
        start = i + 1

cdef inline bint _adjoins(const Piece *a, const Piece *b) noexcept nogil:
    """Whether b starts one code unit past a's end, that unit being '/'
    (a + '/' + b is then one run of the same text)."""
    return (b.kind == a.kind and b.data == a.data + (a.length + 1) * a.kind
            and _pchar(a, a.length) == 0x2F)

cdef inline Py_ssize_t _count_slash(const Piece *s) noexcept nogil:
    if s.kind == 1:
        return fu_count_1(<const uint8_t *>s.data, 0, s.length, 0x2F)
    if s.kind == 2:
        return fu_count_2(<const uint16_t *>s.data, 0, s.length, 0x2F)
    return fu_count_4(<const uint32_t *>s.data, 0, s.length, 0x2F)

cdef str _merge_path(const Piece *bpath, const Piece *path):
    """urljoin()'s path: the base's directory plus the reference, with the
    stdlib's handling of '.', '..' and empty segments, joined by '/'."""
    cdef Py_ssize_t nmax = _count_slash(bpath) + _count_slash(path) + 2
    cdef Piece small_segs[64]
    cdef Piece small_out[130]
    cdef Piece *segs = small_segs
    cdef Piece *out = small_out
    cdef Py_ssize_t nseg = 0, nb, i, k, top = 0
    cdef bint trailing_dot
    if nmax > 64:
        segs = <Piece *>malloc(nmax * sizeof(Piece))
        out = <Piece *>malloc((2 * nmax + 2) * sizeof(Piece))
        if segs is NULL or out is NULL:
            free(segs)
            free(out)
            raise MemoryError()
    try:
        if path.length and _pchar(path, 0) == 0x2F:
            # an absolute path ignores the base path entirely
            nseg = _split_slash(path, segs)
        else:
            nb = _split_slash(bpath, segs)
            if segs[nb - 1].length:
                nb -= 1          # the base's last segment is not a directory
            nseg = nb + _split_slash(path, segs + nb)
            # segments[1:-1] = filter(None, segments[1:-1])
            if nseg > 2:
                k = 1
                for i in range(1, nseg - 1):
                    if segs[i].length:
                        segs[k] = segs[i]
                        k += 1
                segs[k] = segs[nseg - 1]
                nseg = k + 1
        # the resolved segments, as a stack in segs[0:top] (top <= i: in place)
        trailing_dot = _is_dot(&segs[nseg - 1]) or _is_dotdot(&segs[nseg - 1])
        for i in range(nseg):
            if _is_dotdot(&segs[i]):
                if top:
                    top -= 1
            elif _is_dot(&segs[i]):
                continue
            else:
                segs[top] = segs[i]
                top += 1
        if trailing_dot:
            _piece_empty(&segs[top])
            top += 1
        # '/'.join(resolved_path) or '/': a segment that follows the one
        # before it in the same text, past a '/', extends it (most of a
        # merged path is a run of the base's and a run of the reference's)
        if top == 0:
            return "/"
        out[0] = segs[0]
        k = 0
        for i in range(1, top):
            if _adjoins(&out[k], &segs[i]):
                out[k].length += segs[i].length + 1
                out[k].ascii = out[k].ascii and segs[i].ascii
            else:
                _piece_lit(&out[k + 1], "/", 1)
                out[k + 2] = segs[i]
                k += 2
        joined = _build(out, k + 1)
        return joined if PyUnicode_GET_LENGTH(joined) else "/"
    finally:
        if segs is not small_segs:
            free(segs)
            free(out)


cdef struct Defined:
    # a 3.14+ split (below): each piece meaningful only when defined
    Parts p
    Piece net, path, query, frag


# urljoin's last base, split: a crawler joins every link of a page to the
# same page URL.  Kept only for a base whose split reads nothing but its text
# and the module state (no netloc checks, no uses_params).  A memo slot
# holds the base it split, so its pieces stay valid; a join that uses it
# takes a reference of its own to that base first, so its pieces outlive
# whatever Python code the join runs (an item of a uses_* list whose ==
# joins again, and so replaces the slot).  One slot with the GIL; without
# it, a slot per thread (fu_thread_slot), each under its own lock.
cdef struct Memo:
    fu_mutex lock
    PyObject *base          # owned: an exact str, or NULL (empty)
    PyObject *scheme        # owned (None: a 3.14+ split without a scheme)
    int form                # 1/2 Parsed, 3/4 Defined (+1: fragments allowed)
    Parsed parsed
    Defined defined

cdef Memo _MEMO[FU_THREAD_SLOTS]
cdef int _MEMO_VOLATILE = FU_US_OPEN_BR | FU_US_CLOSE_BR | FU_US_NETLOC_WIDE


cdef object _memo_find(str base, int form, Parsed *parsed, Defined *defined,
                       PyObject **scheme):
    """The str whose split of this form the memo holds for base's text, or
    None.  Found, the split is copied out (its pieces point into that str:
    the returned reference keeps them valid) with its scheme (a new
    reference in *scheme)."""
    cdef Memo *m = &_MEMO[fu_thread_slot()]
    cdef PyObject *held
    fu_lock(&m.lock)
    held = m.base
    if m.form != form or held is NULL or not fu_same_text(held, <PyObject *>base):
        fu_unlock(&m.lock)
        return None
    if form <= 2:
        parsed[0] = m.parsed
    else:
        defined[0] = m.defined
    owner = fu_new_ref(held)
    Py_INCREF(<object>m.scheme)
    scheme[0] = m.scheme
    fu_unlock(&m.lock)
    return owner


cdef void _memo_keep(object base, object scheme, int form, const Parsed *parsed,
                     const Defined *defined) noexcept:
    """Hold base's split (its pieces point into base) in this thread's slot."""
    cdef Memo *m = &_MEMO[fu_thread_slot()]
    cdef PyObject *old_base
    cdef PyObject *old_scheme
    Py_INCREF(base)
    Py_INCREF(scheme)
    fu_lock(&m.lock)
    old_base = m.base
    old_scheme = m.scheme
    m.base = <PyObject *>base
    m.scheme = <PyObject *>scheme
    m.form = form
    if parsed is not NULL:
        m.parsed = parsed[0]
    else:
        m.defined = defined[0]
    fu_unlock(&m.lock)
    # (a str: releasing it runs no Python code)
    Py_XDECREF(old_base)
    Py_XDECREF(old_scheme)


cdef void _memo_clear() noexcept:
    cdef Py_ssize_t i
    cdef Memo *m
    cdef PyObject *old_base
    cdef PyObject *old_scheme
    for i in range(FU_THREAD_SLOTS):
        m = &_MEMO[i]
        fu_lock(&m.lock)
        old_base = m.base
        old_scheme = m.scheme
        m.base = m.scheme = NULL
        m.form = 0
        fu_unlock(&m.lock)
        Py_XDECREF(old_base)
        Py_XDECREF(old_scheme)


cdef object _join(object base, object url, bint af):
    """urljoin(base, url) for two non-empty str, or None to hand on."""
    cdef Parsed b, u
    cdef Piece *net
    cdef PyObject *held_scheme
    # (held: the memo's str that b's pieces point into, kept for the call)
    held = _memo_find(base, 1 + af, &b, NULL, &held_scheme)
    if held is not None:
        bscheme = <object>held_scheme
        Py_DECREF(bscheme)
    else:
        bscheme = _parse_str(&b, base, EMPTY, af)
        if bscheme is None:
            return None
        if not b.p.flags & (_MEMO_VOLATILE | FU_US_SEMICOLON):
            _memo_keep(base, bscheme, 1 + af, &b, NULL)
    scheme = _parse_str(&u, url, bscheme, af)
    if scheme is None:
        return None
    if scheme != bscheme or not _in_list(USES_RELATIVE, scheme):
        return url
    net = &u.net
    if _in_list(USES_NETLOC, scheme):
        if u.net.length:
            return _unparse_pieces(scheme, &u.net, &u.path, &u.params, &u.query, &u.frag)
        net = &b.net
    if u.path.length == 0 and u.params.length == 0:
        return _unparse_pieces(scheme, net, &b.path, &b.params,
                               &u.query if u.query.length else &b.query, &u.frag)
    cdef Piece joined
    merged = _merge_path(&b.path, &u.path)
    _piece_str(&joined, merged, 0, PyUnicode_GET_LENGTH(merged))
    return _unparse_pieces(scheme, net, &joined, &u.params, &u.query, &u.frag)


# The 3.14+ forms: the split keeps a missing component (None) apart from an
# empty one, and the result is put together from exactly what is defined.

# (what _split_defined returns when the stdlib's own code must answer)
cdef object _HAND_ON = object()


cdef object _split_defined(Defined *r, object url, bint af):
    """The 3.14+ internal split of url as pieces; returns the scheme (None
    when missing), or _HAND_ON."""
    if _prepare_str(&r.p, url, af):
        return _HAND_ON
    if r.p.net_a >= 0:
        if r.p.flags & (FU_US_OPEN_BR | FU_US_CLOSE_BR | FU_US_NETLOC_WIDE):
            _check_netloc(url, &r.p)
        _piece_str(&r.net, url, r.p.net_a, r.p.net_b)
    _piece_str(&r.path, url, r.p.path_a, r.p.path_b)
    if r.p.q_a >= 0:
        _piece_str(&r.query, url, r.p.q_a, r.p.q_b)
    if r.p.f_a >= 0:
        _piece_str(&r.frag, url, r.p.f_a, r.p.n)
    return _scheme_of(url, &r.p, False) if r.p.scheme_end >= 0 else None


cdef str _compose(object scheme, const Piece *net, const Piece *path,
                  const Piece *query, const Piece *frag):
    """The 3.14+ assembly: '//' + netloc when the netloc is defined (a
    relative path then gets its '/'), '//' kept for a path starting '//',
    and '?'/'#' for a query/fragment that is defined, even empty.  A NULL
    piece is an undefined component."""
    cdef Piece out[10]
    cdef Py_ssize_t n = 0
    cdef bint slash = path.length > 0 and _pchar(path, 0) == 0x2F
    if scheme is not None and PyUnicode_GET_LENGTH(scheme):
        _piece_str(&out[n], scheme, 0, PyUnicode_GET_LENGTH(scheme))
        n += 1
        _lit(out, &n, ":", 1)
    if net is not NULL:
        _lit(out, &n, "//", 2)
        _put(out, &n, net)
        if path.length and not slash:
            _lit(out, &n, "/", 1)
    elif slash and path.length > 1 and _pchar(path, 1) == 0x2F:
        _lit(out, &n, "//", 2)
    _put(out, &n, path)
    if query is not NULL:
        _lit(out, &n, "?", 1)
        _put(out, &n, query)
    if frag is not NULL:
        _lit(out, &n, "#", 1)
        _put(out, &n, frag)
    return _build(out, n)


cdef object _join_defined(object base, object url, bint af):
    """urljoin(base, url) on 3.14+ for two non-empty str, or None to hand on."""
    cdef Defined b, u
    cdef const Piece *net
    cdef const Piece *query
    cdef const Piece *frag
    cdef Piece joined
    cdef PyObject *held_scheme
    # (held: the memo's str that b's pieces point into, kept for the call)
    held = _memo_find(base, 3 + af, NULL, &b, &held_scheme)
    if held is not None:
        bscheme = <object>held_scheme
        Py_DECREF(bscheme)
    else:
        bscheme = _split_defined(&b, base, af)
        if bscheme is _HAND_ON:
            return None
        if not b.p.flags & _MEMO_VOLATILE:
            _memo_keep(base, bscheme, 3 + af, NULL, &b)
    scheme = _split_defined(&u, url, af)
    if scheme is _HAND_ON:
        return None
    if scheme is None:
        scheme = bscheme
    # a scheme missing from both sides joins as a relative one, with a netloc
    if scheme != bscheme or (scheme is not None and not _in_list(USES_RELATIVE, scheme)):
        return url
    net = &u.net if u.p.net_a >= 0 else NULL
    if scheme is None or _in_list(USES_NETLOC, scheme):
        if net is not NULL and u.net.length:
            return _compose(scheme, net, &u.path,
                            &u.query if u.p.q_a >= 0 else NULL,
                            &u.frag if u.p.f_a >= 0 else NULL)
        net = &b.net if b.p.net_a >= 0 else NULL
    if u.path.length == 0:
        # the base's path; its query unless the reference has one, and its
        # fragment only when the reference has neither
        query = &u.query if u.p.q_a >= 0 else NULL
        frag = &u.frag if u.p.f_a >= 0 else NULL
        if query is NULL:
            query = &b.query if b.p.q_a >= 0 else NULL
            if frag is NULL:
                frag = &b.frag if b.p.f_a >= 0 else NULL
        return _compose(scheme, net, &b.path, query, frag)
    merged = _merge_path(&b.path, &u.path)
    _piece_str(&joined, merged, 0, PyUnicode_GET_LENGTH(merged))
    return _compose(scheme, net, &joined, &u.query if u.p.q_a >= 0 else NULL,
                    &u.frag if u.p.f_a >= 0 else NULL)


cdef object _urljoin_impl(object base, object url, object allow_fragments):
    if type(base) is str and type(url) is str and SPLIT_OK and JOIN != 2 \
            and _is_flag(allow_fragments) and _holds():
        if not PyUnicode_GET_LENGTH(base):
            return url
        if not PyUnicode_GET_LENGTH(url):
            return base
        if JOIN == 1:
            r = _join_defined(base, url, allow_fragments)
        else:
            r = _join(base, url, allow_fragments)
        if r is not None:
            return r
    return _std_urljoin(base, url, allow_fragments)


def urljoin(base, url, allow_fragments=True):
    """Join a base URL and a possibly relative URL (the stdlib's rules)."""
    return _urljoin_impl(base, url, allow_fragments)


# urljoin(base, url), answered before its argument parsing (as urlsplit(url)
# below): a crawler joins every link of every page so.
cdef fu_vectorcall_t _urljoin_parsed = NULL


cdef object _urljoin_entry(object f, PyObject *const *args, size_t nargsf, PyObject *kwnames):
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 2:
        return _urljoin_impl(<object>args[0], <object>args[1], True)
    return _urljoin_parsed(f, args, nargsf, kwnames)


_urljoin_parsed = fu_front_entry(urljoin, _urljoin_entry)


cdef object _defrag(object url):
    """urldefrag(url) for a str, or None to hand on."""
    cdef Parsed r
    cdef Defined d
    cdef Piece nofrag
    if PyUnicode_FindChar(url, 0x23, 0, PyUnicode_GET_LENGTH(url), 1) < 0:
        return _result2(DefragResult, url, EMPTY)
    if DEFRAG == 1:
        scheme = _split_defined(&d, url, True)
        if scheme is _HAND_ON:
            return None
        defrag = _compose(scheme, &d.net if d.p.net_a >= 0 else NULL, &d.path,
                          &d.query if d.p.q_a >= 0 else NULL, NULL)
        frag = PyUnicode_Substring(url, d.p.f_a, d.p.n) if d.p.f_a >= 0 else EMPTY
        return _result2(DefragResult, defrag, frag)
    scheme = _parse_str(&r, url, EMPTY, True)
    if scheme is None:
        return None
    _piece_empty(&nofrag)
    defrag = _unparse_pieces(scheme, &r.net, &r.path, &r.params, &r.query, &nofrag)
    frag = PyUnicode_Substring(url, r.p.f_a, r.p.n) if r.p.f_a >= 0 else EMPTY
    return _result2(DefragResult, defrag, frag)


cdef inline object _urldefrag_impl(object url):
    if type(url) is str and SPLIT_OK and DEFRAG != 2 and _holds():
        r = _defrag(url)
        if r is not None:
            return r
    return _std_urldefrag(url)


def urldefrag(url):
    """Remove the fragment: (url without it, fragment)."""
    return _urldefrag_impl(url)

# ---------------------------------------------------------------------------
# Import time: what this Python's urllib.parse does, asked once.


def _outcome(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return ("raise", type(exc), str(exc))
    return ("ok", type(r), r, tuple(type(x) for x in r) if isinstance(r, tuple) else None,
            getattr(r, "_keep_empty", "<not set>"))


# Inputs whose handling differs between Python versions, or that reach every
# branch of the fast paths; each must give the stdlib's outcome exactly.
_PROBE_SPLIT = (
    ("http://a/b;p?q#f",), ("HTTP://User:Pw@Host:80/p;x/y;z?q#f",), ("1a:b",), ("a1+-.:b",),
    ("+a:b",), ("path:80",), ("//net/p?q#f",), ("mailto:x@y",), ("a:b:c",), ("/p;a/b;c",),
    ("http://[::1]:8080/p",), ("http://[::1/p",), ("http://::1]/p",), ("http://u@[v1.x]/",),
    ("http://[1.2.3.4]/",), ("http://[zz]/",), ("http://x[::1]y/",), ("http://[::1]x/",),
    ("http://\u2100.com/",), ("http://a\uff03b/",), ("http://\xe9.fr/\u4e2d?\U0001f600#\xe9",),
    ("", "http"), ("p", "https"), ("a#b?c", "", False), ("a?b#c", "", False),
    (b"http://a/b;p?q#f",), (b"//x/y", b"ftp"), (b"x", ""), ("#f",), ("?q",), (";p",),
)
_PROBE_UNSPLIT = tuple((parts,) for parts in (
    ("http", "", "//x", "", ""), ("http", "", "x", "", ""), ("http", "", "", "", ""),
    ("", "", "//x", "", ""), ("", "", "x", "q", "f"), ("foo", "", "/x", "", ""),
    ("http", "h", "x", "", ""), ("mailto", "", "a@b", "", ""), ("", "h", "", "", ""),
    ("", "", "///x", "", ""), ("https", "", "//", "", ""),
))
_PROBE_UNPARSE = tuple((parts,) for parts in (
    ("http", "", "", "p", "", ""), ("http", "h", "", "p", "q", "f"), ("", "", "//x", "p", "", ""),
    ("http", "", "/", "", "q", ""), ("http", "", "x", "p", "", ""), ("foo", "", "", "p", "", ""),
))
# urljoin's own change (3.14): a missing component is told from an empty
# one, so "?" and "#" survive, and a reference with neither query nor
# fragment takes the base's fragment; a scheme missing from both sides still
# joins (as before).
_PROBE_JOIN_DEFINED = (
    ("http://a/b?q", "?"), ("a/b", "c"), ("http://a/b?q#f", "#"), ("http://a/b", "#"),
    ("http://a/b?q#f", "http:"), ("http:/b/c", "d"), ("http:///b/c", "d"), ("//a/b", "c"),
    ("http://a/b/c;p?q", ";x"), ("http://a/b?q", "?#"), ("foo:/b", "c"),
)
_PROBE_JOIN = (
    ("http://a/b/c/d;p?q", "g;x?y#s"), ("http://a/b/c/d;p?q", "../../../g"),
    ("http://a/b/c/d;p?q", ""), ("http://a/b/c/d;p?q", "?y"), ("http://a/b/c/d;p?q", ";x"),
    ("http://a/b/c/d;p?q", "//g"), ("http://a/b/c/d;p?q", "/./g/."), ("http://a/b/c/d;p?q", "g/.."),
    ("http://a/b/c/d;p?q", "http:g"), ("http://a/b/c/d;p?q", "https:g"), ("mailto:a", "b"),
    ("http://a/b//c", "..//d"), ("http:///b/c", "d"), ("a", "b"), ("http://a", "b"),
    ("svn+ssh://a/b", "c"), ("http://a/\xe9/c", "\u4e2d/../d#\xe9"), ("http://a/b", "//[::1]/c"),
)
_PROBE_DEFRAG = (
    ("http://a/b#c",), ("http://a/b?#c",), ("HTTP://a#",), ("x",), ("a;b#c",),
    ("http:///b#c",), ("http:b;p#c",), ("//x#c",), ("http:#c",), ("////p#c",),
)


def _agrees(ours, theirs, probes, **kwargs):
    return all(_outcome(ours, *a, **kwargs) == _outcome(theirs, *a, **kwargs) for a in probes)


def _heard(f, *args):
    """The outcome of a call and the warnings it issued."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _outcome(f, *args)
    return got, [(w.category, str(w.message)) for w in caught]


def _first_mode(modes, probe):
    """The first of modes under which probe() holds, or 2 (hand on)."""
    for mode in modes:
        if probe(mode):
            return mode
    return 2


def _try_unsplit(mode):
    global UNSPLIT
    UNSPLIT = mode
    return (_agrees(urlunsplit, _std_urlunsplit, _PROBE_UNSPLIT)
            and _agrees(urlunparse, _std_urlunparse, _PROBE_UNPARSE)
            and _keywords_agree())


# The keep_empty= forms (3.15) on tuples and on the stdlib's own results of
# both missing_as_none values, with keep_empty not given, False and True.
_PROBE_KEEP_URLS = ("http://a/b?#", "a?#", "//x/p", "http:", "mailto:a#", "////p", "")


def _keywords_agree():
    cases = []
    if KEYWORD["urlunsplit"] and KEYWORD["urlsplit"]:
        cases.append((urlunsplit_kw, _std_urlunsplit, _raw_urlsplit, _PROBE_UNSPLIT))
    if KEYWORD["urlunparse"] and KEYWORD["urlparse"]:
        cases.append((urlunparse_kw, _std_urlunparse, _std_urlparse, _PROBE_UNPARSE))
    for ours, theirs, split, tuples in cases:
        probes = list(tuples)
        for url in _PROBE_KEEP_URLS:
            probes.append((split(url, missing_as_none=False),))
            probes.append((split(url, missing_as_none=True),))
        for kwargs in ({}, {"keep_empty": False}, {"keep_empty": True}):
            if not _agrees(ours, theirs, probes, **kwargs):
                return False
    return True


def _try_join(mode):
    global JOIN
    JOIN = mode
    return (_agrees(urljoin, _std_urljoin, _PROBE_JOIN)
            and _agrees(urljoin, _std_urljoin, _PROBE_JOIN_DEFINED))


def _try_defrag(mode):
    global DEFRAG
    DEFRAG = mode
    return _agrees(urldefrag, _std_urldefrag, _PROBE_DEFRAG)


def _detect():
    global ALPHA_FIRST, BRACKETS, UNSPLIT, JOIN, DEFRAG, SPLIT_OK, SCHEME_NONE, _CACHE
    # 3.11+ (and some patch releases before) need an ASCII letter first
    ALPHA_FIRST = _raw_urlsplit("1a:b").scheme == ""
    if "_check_bracketed_netloc" in _STD:
        BRACKETS = 2      # newer patch releases: the stdlib's own code decides
    elif _check_bracketed_host is not None:
        BRACKETS = 1
    else:
        BRACKETS = 0
    # scheme=None: the default from 3.15 on, where it splits as '' does
    # (silently: before, a false non-str argument may warn)
    SCHEME_NONE = all(
        _heard(_raw_urlsplit, *a, None) == _heard(_raw_urlsplit, *a, "")
        for a in (("http://a/b",), ("p",), (b"//x/y",))
    )
    SPLIT_OK = (_agrees(urlsplit, _raw_urlsplit, _PROBE_SPLIT)
                and _agrees(urlparse, _std_urlparse, _PROBE_SPLIT))
    # Each assembling function is probed on its own, with the inputs that
    # tell its versions apart: urlunsplit() changed its '//' rules in
    # 3.12.4 and urlunparse() in 3.14; urljoin() and urldefrag() keep empty
    # components apart from missing ones from 3.14.
    UNSPLIT = _first_mode((0, 1, 3), _try_unsplit)
    JOIN = _first_mode((0, 1), _try_join) if SPLIT_OK else 2
    DEFRAG = _first_mode((0, 1), _try_defrag) if SPLIT_OK else 2
    info = getattr(_STD_URLSPLIT, "cache_info", None)
    if info is not None:
        stats = info()
        _CACHE = _SplitCache(stats.maxsize, type(stats))


# ---------------------------------------------------------------------------
# The keywords of newer Pythons: 3.15 gives urlsplit, urlparse and urldefrag
# missing_as_none=, and urlunsplit and urlunparse keep_empty=.  parse.py
# binds these forms exactly where the running stdlib's signature has the
# keyword (KEYWORD), so each takes the parameters, defaults included, of
# the function it replaces.  The compiled code answers the default; any
# other value is the stdlib's to answer.


def _has_keyword(f, name):
    """Whether f (or the function an lru_cache wraps) has keyword-only name."""
    code = getattr(getattr(f, "__wrapped__", f), "__code__", None)
    if code is None:
        return False
    return name in code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]


def _default(f, index, keyword, fallback):
    """f's default for a positional parameter (index) or a keyword-only one."""
    f = getattr(f, "__wrapped__", f)
    if keyword is None:
        return (getattr(f, "__defaults__", None) or (fallback,))[index]
    return (getattr(f, "__kwdefaults__", None) or {}).get(keyword, fallback)


KEYWORD = {
    "urlsplit": _has_keyword(_STD_URLSPLIT, "missing_as_none"),
    "urlparse": _has_keyword(_std_urlparse, "missing_as_none"),
    "urldefrag": _has_keyword(_std_urldefrag, "missing_as_none"),
    "urlunsplit": _has_keyword(_std_urlunsplit, "keep_empty"),
    "urlunparse": _has_keyword(_std_urlunparse, "keep_empty"),
}

_SPLIT_SCHEME = _default(_raw_urlsplit, 0, None, "")
_PARSE_SCHEME = _default(_std_urlparse, 0, None, "")
_SPLIT_MISSING = _default(_raw_urlsplit, 0, "missing_as_none", False)
_PARSE_MISSING = _default(_std_urlparse, 0, "missing_as_none", False)
_DEFRAG_MISSING = _default(_std_urldefrag, 0, "missing_as_none", False)
_UNSPLIT_KEEP = _default(_std_urlunsplit, 0, "keep_empty", False)
_UNPARSE_KEEP = _default(_std_urlunparse, 0, "keep_empty", False)


def urlsplit_kw(url, scheme=_SPLIT_SCHEME, allow_fragments=True, *,
                missing_as_none=_SPLIT_MISSING):
    """Split a URL into 5 components: scheme://netloc/path?query#fragment."""
    cdef bint handed
    if missing_as_none is False:
        return _urlsplit_impl(url, scheme, allow_fragments, &handed)
    return _raw_urlsplit(url, scheme, allow_fragments, missing_as_none=missing_as_none)


def urlsplit_cached_kw(url, scheme=_SPLIT_SCHEME, allow_fragments=True, *,
                       missing_as_none=_SPLIT_MISSING):
    """Split a URL into 5 components: scheme://netloc/path?query#fragment."""
    cdef bint handed
    if missing_as_none is False:
        if _CACHE is None:  # a stdlib without the cache (before 3.11)
            return _urlsplit_impl(url, scheme, allow_fragments, &handed)
        return _CACHE.call(url, scheme, allow_fragments)
    return _STD_URLSPLIT(url, scheme, allow_fragments, missing_as_none=missing_as_none)


def urlparse_kw(url, scheme=_PARSE_SCHEME, allow_fragments=True, *,
                missing_as_none=_PARSE_MISSING):
    """Split a URL into 6 components: scheme://netloc/path;params?query#fragment."""
    if missing_as_none is False:
        return _urlparse_impl(url, scheme, allow_fragments)
    return _std_urlparse(url, scheme, allow_fragments, missing_as_none=missing_as_none)


def urldefrag_kw(url, *, missing_as_none=_DEFRAG_MISSING):
    """Remove the fragment: (url without it, fragment)."""
    if missing_as_none is False:
        return _urldefrag_impl(url)
    return _std_urldefrag(url, missing_as_none=missing_as_none)


cdef bint _drops_empty(object components, object keep_empty, object not_given) except -1:
    """Whether the stdlib would put components together as urlunsplit()
    without keep_empty does: keep_empty=False given, or not given and the
    components carry no true _keep_empty (a tuple, a list, a result split
    with missing_as_none=False).  Other types and values are the stdlib's."""
    if keep_empty is False:
        return True
    if keep_empty is not not_given:
        return False
    t = type(components)
    if t is tuple or t is list:
        return True
    if t is SplitResult:
        return _SPLIT_KEEP is None or not fu_slot_not_false(_SPLIT_KEEP, components)
    if t is ParseResult:
        return _PARSE_KEEP is None or not fu_slot_not_false(_PARSE_KEEP, components)
    return False


def urlunsplit_kw(components, *, keep_empty=_UNSPLIT_KEEP):
    """Combine the 5 components of urlsplit() into a URL."""
    if _drops_empty(components, keep_empty, _UNSPLIT_KEEP):
        r = _unsplit5(components)
        if r is not None:
            return r
    if keep_empty is _UNSPLIT_KEEP:
        return _std_urlunsplit(components)
    return _std_urlunsplit(components, keep_empty=keep_empty)


def urlunparse_kw(components, *, keep_empty=_UNPARSE_KEEP):
    """Combine the 6 components of urlparse() into a URL."""
    if _drops_empty(components, keep_empty, _UNPARSE_KEEP):
        r = _unparse6(components)
        if r is not None:
            return r
    if keep_empty is _UNPARSE_KEEP:
        return _std_urlunparse(components)
    return _std_urlunparse(components, keep_empty=keep_empty)


# What this module's functions stand in for, in every form parse.py binds.
OURS = {
    "urlsplit": (urlsplit, urlsplit_kw, urlsplit_cached, urlsplit_cached_kw),
    "urlparse": (urlparse, urlparse_kw),
    "urlunsplit": (urlunsplit, urlunsplit_kw),
    "urlunparse": (urlunparse, urlunparse_kw),
    "urljoin": (urljoin,),
    "urldefrag": (urldefrag, urldefrag_kw),
}
_STATE = _stdstate.State(_std, OURS, live=_USES_NAMES, on_reload=_reloaded, on_check=_take_uses)


cdef void _forget() noexcept:
    """Drop what was computed from the stdlib as it was (after a reload)."""
    if _CACHE is not None:
        try:
            _CACHE.cache_clear()
        except BaseException:  # (only a MemoryError could get here)
            pass
    _memo_clear()


def _sync():
    """Check urllib.parse now (install() and uninstall() do, to take the
    stdlib's new functions after a reload); whether its state holds."""
    fu_std_forget()
    return bool(std_recheck(_STATE))


def _original(name):
    """The stdlib's function this module replaces under name."""
    return _STATE.originals[name]


_detect()

#: True when this Python's urlsplit has an lru_cache (3.11+): urlsplit_cached,
#: with cache_info(), cache_clear() and __wrapped__, is then the urlsplit.
HAS_CACHE = _CACHE is not None
#: Whether the compiled code takes each function's common case on this
#: Python (False: every call goes to the stdlib, as a probe disagreed).
COMPILED = {
    "urlsplit": SPLIT_OK, "urlparse": SPLIT_OK, "urljoin": JOIN != 2,
    "urldefrag": DEFRAG != 2, "urlunsplit": UNSPLIT != 2, "urlunparse": UNSPLIT != 2,
}
if HAS_CACHE:
    for _with_cache, _without in ((urlsplit_cached, urlsplit), (urlsplit_cached_kw, urlsplit_kw)):
        _with_cache.cache_info = _CACHE.cache_info
        _with_cache.cache_clear = _CACHE.cache_clear
        _with_cache.cache_parameters = _CACHE.cache_parameters
        _with_cache.__wrapped__ = _without
    del _with_cache, _without


# urlsplit(url), the commonest call of all, answered before any argument
# parsing, as _quote_c answers quote(text): on 3.14 and 3.15 the parsing of
# three arguments (a keyword-only fourth on 3.15), with the references it
# takes and drops, cost over 100 instructions of a cached split's 800 or so
# (callgrind).  Each form's defaults are read here, once.
cdef object _SPLIT_SCHEME_KW = _SPLIT_SCHEME
cdef bint _SPLIT_KW_CACHED = _SPLIT_MISSING is False
cdef fu_vectorcall_t _cached_parsed = NULL
cdef fu_vectorcall_t _cached_kw_parsed = NULL


cdef object _cached_entry(object f, PyObject *const *args, size_t nargsf, PyObject *kwnames):
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1:
        return _CACHE.call(<object>args[0], '', True)
    return _cached_parsed(f, args, nargsf, kwnames)


cdef object _cached_kw_entry(object f, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames):
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1 and _SPLIT_KW_CACHED:
        return _CACHE.call(<object>args[0], _SPLIT_SCHEME_KW, True)
    return _cached_kw_parsed(f, args, nargsf, kwnames)


if HAS_CACHE:
    _cached_parsed = fu_front_entry(urlsplit_cached, _cached_entry)
    _cached_kw_parsed = fu_front_entry(urlsplit_cached_kw, _cached_kw_entry)


# urlparse(url) likewise, in each form.
cdef object _PARSE_SCHEME_KW = _PARSE_SCHEME
cdef bint _PARSE_KW_PLAIN = _PARSE_MISSING is False
cdef fu_vectorcall_t _urlparse_parsed = NULL
cdef fu_vectorcall_t _urlparse_kw_parsed = NULL


cdef object _urlparse_entry(object f, PyObject *const *args, size_t nargsf, PyObject *kwnames):
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1:
        return _urlparse_impl(<object>args[0], '', True)
    return _urlparse_parsed(f, args, nargsf, kwnames)


cdef object _urlparse_kw_entry(object f, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames):
    if kwnames == NULL and PyVectorcall_NARGS(nargsf) == 1 and _PARSE_KW_PLAIN:
        return _urlparse_impl(<object>args[0], _PARSE_SCHEME_KW, True)
    return _urlparse_kw_parsed(f, args, nargsf, kwnames)


_urlparse_parsed = fu_front_entry(urlparse, _urlparse_entry)
_urlparse_kw_parsed = fu_front_entry(urlparse_kw, _urlparse_kw_entry)


def clear_cache():
    """Empty the split cache (the stdlib's clear_cache() empties its own)."""
    if _CACHE is not None:
        _CACHE.cache_clear()


def _modes(**modes):
    """Read and set the behaviour switches (tests force each path with it);
    returns the previous values."""
    global UNSPLIT, JOIN, DEFRAG, SCHEME_NONE
    old = {"unsplit": UNSPLIT, "join": JOIN, "defrag": DEFRAG, "scheme_none": SCHEME_NONE}
    _memo_clear()
    UNSPLIT = modes.get("unsplit", UNSPLIT)
    JOIN = modes.get("join", JOIN)
    DEFRAG = modes.get("defrag", DEFRAG)
    SCHEME_NONE = modes.get("scheme_none", SCHEME_NONE)
    return old
