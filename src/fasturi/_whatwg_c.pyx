"""fasturi.whatwg's parser, compiled: the twin of _whatwg_py.

csrc/fasturi_whatwg.h parses the common case exactly (its opening comment
says which inputs: no tab, newline or backslash, no host beyond ASCII, no
"%" or xn-- label in a domain, no percent-encoded dot segment, ...); every
other input, every call with bytes, another type or a lone surrogate, and
every input that would fail, goes to _whatwg_py, the reference, so both
twins give the same URL, href or error for every input.  The URL objects
are this module's URL: the href and its parts' offsets, the parts sliced
out when read (the reference's URL holds every part as a string).
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyTypeObject
from cpython.unicode cimport PyUnicode_AsUTF8String, PyUnicode_Substring
from libc.stdint cimport uint8_t
from libc.string cimport memcmp, memcpy

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_New,
)
from fasturi._csrc cimport (
    FU_WW_FRAG,
    FU_WW_FTP,
    FU_WW_HTTP,
    FU_WW_HTTPS,
    FU_WW_OTHER,
    FU_WW_PATH,
    FU_WW_QUERY,
    FU_WW_SQUERY,
    FU_WW_USERINFO,
    fu_ww_enc,
    fu_ww_init,
    fu_ww_parse,
    fu_ww_parse_host,
    fu_ww_room,
    fu_ww_url,
)

from fasturi._idna_c cimport special_host

from fasturi import _whatwg_py
from fasturi._search_params_c import SearchParams
from fasturi._types import InvalidURL


cdef extern from "fasturi_whatwg.h" nogil:
    int fu_ww_same(const uint8_t *s, Py_ssize_t n, uint8_t *out, fu_ww_url *u)
    int fu_ww_ssse3

__all__ = ["URL", "can_parse", "host_parse", "parse", "resolve"]

# The host parser alone (audit's host-differs hazard) is the reference's.
host_parse = _whatwg_py.host_parse

# The special schemes' names, at their FU_WW_* numbers.
cdef tuple _SCHEMES = (None, "http", "https", "ws", "wss", "ftp", "file")
cdef str _EMPTY = ""

# A URL's scheme beyond the C path's FU_WW_* (the reference's URLs only):
# a "blob" URL's origin is that of the URL its path holds.
DEF SCHEME_BLOB = 7

fu_ww_init()

# Inputs up to this many bytes are parsed into a buffer on the stack.
DEF STACK = 2048


@cython.final
@cython.no_gc
@cython.freelist(32)
@cython.auto_pickle(False)  # pickled by href: _impl registers how
cdef class URL:
    """A URL by the WHATWG URL Standard, with its ``URL`` class's getters.

    Immutable and hashable; equal when ``href`` is (URL equivalence).
    Built by ``fasturi.whatwg.parse``, not by calling the class.
    """

    # The href and where its parts lie in it (code points; the href is
    # ASCII); a getter slices its part out when read.  Building a URL is
    # then one object and, where the input is already its own href (most
    # URLs), not even a string.  Empty username or password: start == end.
    cdef str _href
    cdef Py_ssize_t _scheme_end  # the ":"
    cdef Py_ssize_t _user_start, _user_end, _pass_start, _pass_end
    cdef Py_ssize_t _host_start, _host_end  # -1: null host
    cdef Py_ssize_t _path_start, _path_end
    cdef Py_ssize_t _query_start, _frag_start  # the "?" / "#", -1: null
    cdef int _port  # -1: null
    cdef int _scheme  # FU_WW_*, SCHEME_BLOB

    def __init__(self, *args, **kwargs):
        raise TypeError("URL objects are made by fasturi.whatwg.parse()")

    cdef inline str _slice(self, Py_ssize_t a, Py_ssize_t b):
        # (an object made by URL.__new__ alone has no href: it reads as "")
        if b <= a or self._href is None:
            return _EMPTY
        return PyUnicode_Substring(self._href, a, b)

    @property
    def href(self):
        """The URL serializer's output."""
        return self._href

    @property
    def protocol(self):
        """The scheme followed by ":"."""
        return self._slice(0, self._scheme_end + 1)

    @property
    def username(self):
        return self._slice(self._user_start, self._user_end)

    @property
    def password(self):
        return self._slice(self._pass_start, self._pass_end)

    @property
    def host(self):
        """The host serialized, with ":" and the port when there is one."""
        if self._host_start < 0:
            return _EMPTY
        return self._slice(self._host_start, self._path_start)

    @property
    def hostname(self):
        """The host serialized ("" when null)."""
        if self._host_start < 0:
            return _EMPTY
        return self._slice(self._host_start, self._host_end)

    @property
    def port(self):
        """The port as decimal text ("" when null, as for a default port)."""
        if self._port < 0:
            return _EMPTY
        return self._slice(self._host_end + 1, self._path_start)

    @property
    def pathname(self):
        """The URL path serializer's output."""
        return self._slice(self._path_start, self._path_end)

    @property
    def search(self):
        """ "?" and the query, or "" when the query is null or empty."""
        cdef Py_ssize_t end = self._frag_start if self._frag_start >= 0 else len(self._href)
        if self._query_start < 0 or end - self._query_start < 2:
            return _EMPTY
        return self._slice(self._query_start, end)

    @property
    def hash(self):
        """ "#" and the fragment, or "" when the fragment is null or empty."""
        if self._frag_start < 0 or len(self._href) - self._frag_start < 2:
            return _EMPTY
        return self._slice(self._frag_start, len(self._href))

    @property
    def origin(self):
        """The serialization of the URL's origin ("null" when opaque)."""
        cdef URL inner
        if FU_WW_HTTP <= self._scheme <= FU_WW_FTP:
            if self._host_start == self._scheme_end + 3:  # no userinfo to leave out
                return self._slice(0, self._path_start)
            return self._slice(0, self._scheme_end + 3) + self.host
        if self._scheme == SCHEME_BLOB:
            # the origin of the URL the path holds, if an HTTP(S) one
            try:
                inner = parse(self.pathname)
            except InvalidURL:
                return "null"
            if inner._scheme == FU_WW_HTTP or inner._scheme == FU_WW_HTTPS:
                return inner.origin
        return "null"

    @property
    def search_params(self):
        """A ``SearchParams`` of the URL's query: a copy (apply it with
        ``url.replace(search=str(params))``)."""
        # (the constructor drops the "?" search begins with)
        return SearchParams(self.search)

    def replace(self, **changes):
        """A new URL with the URL Standard's setter of each keyword applied,
        in the order given; ``href=`` that fails raises ``InvalidURL``."""
        # (the reference's setters, on the reference's URL of this href)
        return _adopt(_whatwg_py.replace(_whatwg_py.parse(self._href), changes))

    def __str__(self):
        return self._href

    def __repr__(self):
        return f"URL({self._href!r})"

    def __eq__(self, other):
        if type(other) is URL:
            return self._href == (<URL>other)._href
        return NotImplemented

    def __ne__(self, other):
        if type(other) is URL:
            return self._href != (<URL>other)._href
        return NotImplemented

    def __hash__(self):
        return hash(self._href)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


# Users meet the class as fasturi.whatwg.URL (tracebacks, repr of the type),
# as the reference's: a static type's module and name are read from its
# tp_name, which Cython sets to this module's.
(<PyTypeObject *>URL).tp_name = "fasturi.whatwg.URL"


cdef inline str _ascii(const uint8_t *p, Py_ssize_t n):
    cdef str s = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(s), p, n)
    return s


cdef inline URL _url(const uint8_t *out, fu_ww_url *u, object input, const uint8_t *s,
                     Py_ssize_t n):
    """The URL of a parse the C path took (out: its serialization); its
    href is `input` itself where that is an ASCII str written as out is."""
    cdef URL url = URL.__new__(URL)
    if type(input) is str and u.len == n and memcmp(out, s, n) == 0:
        url._href = input
    else:
        url._href = _ascii(out, u.len)
    url._scheme_end = u.scheme_end
    url._user_start = u.user_start
    url._user_end = u.user_end
    url._pass_start = u.pass_start
    url._pass_end = u.pass_end
    url._host_start = u.host_start
    url._host_end = u.host_end
    url._path_start = u.path_start
    url._path_end = u.path_end
    url._query_start = u.query_start
    url._frag_start = u.frag_start
    url._port = u.port
    url._scheme = u.scheme
    return url


cdef URL _adopt(object ref):
    """The reference's URL (fasturi._whatwg_py.URL) as one of these: its parts
    found in its href from their lengths, as the URL serializer wrote them
    (a path after a null host and "/." ends where the query starts)."""
    cdef URL url = URL.__new__(URL)
    cdef str href = ref._href
    cdef str scheme = ref._scheme
    cdef Py_ssize_t at, end = len(href)
    url._href = href
    url._scheme_end = len(scheme)
    url._scheme = _SCHEMES.index(scheme) if scheme in _SCHEMES else (
        SCHEME_BLOB if scheme == "blob" else FU_WW_OTHER)
    url._user_start = url._user_end = url._pass_start = url._pass_end = 0
    url._host_start = url._host_end = -1
    url._port = -1
    url._query_start = url._frag_start = -1
    if ref._fragment is not None:
        end -= len(ref._fragment) + 1
        url._frag_start = end
    if ref._query is not None:
        end -= len(ref._query) + 1
        url._query_start = end
    url._path_end = end
    url._path_start = end - len(ref._path)
    if ref._host is not None:
        at = url._scheme_end + 3
        url._user_start = at
        at += len(ref._username)
        url._user_end = at
        if ref._password:
            url._pass_start = at + 1
            at += 1 + len(ref._password)
            url._pass_end = at
        if ref._username or ref._password:
            at += 1  # "@"
        url._host_start = at
        url._host_end = at + len(ref._host)
        if ref._port is not None:
            url._port = ref._port
    return url


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


# What _fast gives back.
cdef enum:
    WANT_OK = 0  # True
    WANT_HREF = 1  # the href
    WANT_URL = 2  # the URL


cdef object _fast(object input, object base, int want):
    """True, the href or the URL (want) by the C path; False where it knows
    the input fails (the reference names the error), None where the input
    or base is not one it takes."""
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
    cdef int rc = 1
    try:
        if base is not None:
            rc = fu_ww_parse(bs, bn, NULL, NULL, bout, &b)
            if rc == 2:  # (a base whose host is the reference's: the reference's)
                rc = 0
        if rc == 1:
            rc = fu_ww_parse(s, n, bout if base is not None else NULL,
                             &b if base is not None else NULL, out, &u)
        if rc == 2:
            return _with_host(input, base, want, s, n, bout if base is not None else NULL,
                              &b if base is not None else NULL, room, &u)
        if rc != 1:
            # a failure the C path knows is can_parse's answer; the others
            # want the reference's error
            return False if rc < 0 else None
        if want == WANT_URL:
            result = _url(out, &u, input, s, n)
        elif want == WANT_HREF:
            result = _ascii(out, u.len)
        else:
            result = True
    finally:
        if out != stack:
            PyMem_Free(out)
    return result


cdef object _with_host(object input, object base, int want, const uint8_t *s, Py_ssize_t n,
                       const uint8_t *bout, fu_ww_url *b, Py_ssize_t room, fu_ww_url *u):
    """_fast's answer for an input the C path takes but for its host: the
    host by the host parser (a special URL's domain by _idna_c's IDNA in C;
    IPv4 numbers and opaque hosts by the reference's), then the input
    again by the C path with that host."""
    cdef bytes host = None
    cdef uint8_t *out
    cdef int rc
    try:
        if u.scheme != FU_WW_OTHER and u.need_end > u.need_start and s[u.need_start] != 91:
            host = special_host(s + u.need_start, u.need_end - u.need_start)
        if host is None:
            text = (<bytes>s[u.need_start:u.need_end]).decode("utf-8")
            host = _whatwg_py.host_parse(text, u.scheme == FU_WW_OTHER).encode("ascii")
    except InvalidURL:
        return False
    out = <uint8_t *>PyMem_Malloc(room + len(host))
    if out == NULL:
        raise MemoryError()
    try:
        rc = fu_ww_parse_host(s, n, bout, b, <const uint8_t *><const char *>host, len(host),
                              out, u)
        if rc != 1:
            return False if rc < 0 else None
        if want == WANT_URL:
            return _url(out, u, input, s, n)
        if want == WANT_HREF:
            return _ascii(out, u.len)
        return True
    finally:
        PyMem_Free(out)


def parse(input, base=None):
    """Parse ``input`` against ``base`` (URL Standard, the API URL parser).

    Raises ``InvalidURL`` (a ``ValueError``) where the parser returns failure.
    """
    url = _fast(input, base, WANT_URL)
    if url is None or url is False:
        return _adopt(_whatwg_py.parse(input, base))
    return url


def can_parse(input, base=None):
    """Whether ``parse(input, base)`` succeeds (URL Standard, canParse)."""
    ok = _fast(input, base, WANT_OK)
    if ok is not None:
        return ok
    return _whatwg_py.can_parse(input, base)


def resolve(base, ref):
    """The ``href`` of ``ref`` parsed against ``base`` (both must parse).

    Raises ``InvalidURL`` where either fails.
    """
    if base is not None:
        href = _fast(ref, base, WANT_HREF)
        if href is not None and href is not False:
            return href
    return _whatwg_py.resolve(base, ref)


def _fast_parse(input, base=None):
    """The URL by the C path, or None where it hands the input to the
    reference (for the tests that count what the C path takes)."""
    url = _fast(input, base, WANT_URL)
    return None if url is False else url


def _parse_or_none(input, base=None):
    """``parse(input, base)``, or None where it fails (the column kernels'
    row: no error to name, so no reference parse for a failure the C path
    knows)."""
    url = _fast(input, base, WANT_URL)
    if url is False:
        return None
    if url is None:
        try:
            return _adopt(_whatwg_py.parse(input, base))
        except InvalidURL:
            return None
    return url


def _same(input):
    """The href and the C path's record (as _parts gives it) of an input
    that fu_ww_same proves to serialize to itself (or to itself and "/"),
    else None (for the tests of that proof's conditions)."""
    cdef fu_ww_url u
    cdef bytes b = input.encode("utf-8", "surrogatepass")
    cdef Py_ssize_t n = len(b)
    cdef bytes out = bytes(fu_ww_room(n, 0))
    if not fu_ww_same(<const uint8_t *><const char *>b, n, <uint8_t *><char *>out, &u):
        return None
    return out[:u.len].decode("ascii"), (
        u.len, u.scheme_end, u.user_start, u.user_end, u.pass_start, u.pass_end, u.host_start,
        u.host_end, u.path_start, u.path_end, u.query_start, u.frag_start, u.port, u.scheme,
    )


def _ssse3(on=None):
    """Whether this module's fu_ww_same uses SSSE3 (fu_ww_init asked the
    CPU); with on, set it (off: its SSE2 form, for the tests) and give
    back what it was."""
    global fu_ww_ssse3
    was = bool(fu_ww_ssse3)
    if on is not None:
        fu_ww_ssse3 = 1 if on and fu_ww_ssse3_ok() else 0
    return was


cdef extern from *:
    """
    /* whether fu_ww_same can use SSSE3 here at all */
    static int fu_ww_ssse3_ok(void)
    {
    #if FU_SSSE3_DISPATCH
        return fu_has_ssse3();
    #else
        return 0;
    #endif
    }
    """
    int fu_ww_ssse3_ok()


def _parts(URL url):
    """The C path's record of a URL (fu_ww_url's fields, in their order),
    for the column kernels' base: any URL, the C path's or not."""
    return (
        len(url._href), url._scheme_end, url._user_start, url._user_end, url._pass_start,
        url._pass_end, url._host_start, url._host_end, url._path_start, url._path_end,
        url._query_start, url._frag_start, url._port,
        FU_WW_OTHER if url._scheme == SCHEME_BLOB else url._scheme,
    )


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
