"""fasturi.whatwg's parser, compiled: the twin of _whatwg_py.

Every input is parsed in C (csrc/fasturi_whatwg*.h: the basic URL parser,
every state; the host parser, domain to ASCII by _idna_c's C; the
serializer; the setters), str and bytes alike: a str is read in place
where it is ASCII, else written as UTF-8 with each lone surrogate as
U+FFFD; bytes are read in place where they are UTF-8, else with U+FFFD for
what is not.  Failures are named in C by the standard's validation-error
names.  The URL objects are this module's URL: the href and its parts'
offsets, the parts sliced out when read (the reference's URL holds every
part as a string).
"""

cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject, PyTypeObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.unicode cimport PyUnicode_Substring
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.stdlib cimport free
from libc.string cimport memcmp, memcpy

from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_GET_SIZE,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_KIND,
    PyUnicode_New,
)
from fasturi._csrc cimport (
    FU_WW_SET_HREF,
    fu_ww_set,
    fu_ww_set_room,
    FU_WW_FAIL,
    FU_WW_FRAG,
    FU_WW_FTP,
    FU_WW_HOST,
    FU_WW_HTTP,
    FU_WW_HTTPS,
    FU_WW_OK,
    FU_WW_PATH,
    FU_WW_QUERY,
    FU_WW_SQUERY,
    FU_WW_USERINFO,
    fu_ww_enc,
    fu_ww_error_detail,
    fu_ww_error_name,
    fu_ww_init,
    fu_ww_parse,
    fu_ww_host,
    fu_ww_host_alone,
    fu_ww_idna,
    FU_WW_IDNA_NOMEM,
    FU_IDNA_PERCENT,
    fu_ww_parse_given,
    fu_ww_room,
    fu_ww_url,
    fu_ww_usv_1,
    fu_ww_usv_2,
    fu_ww_usv_4,
    fu_ww_usv_room,
    fu_ww_utf8_fix,
    fu_ww_utf8_ok,
)


from fasturi._idna_c cimport idna_to_ascii

from fasturi._errors import type_error
from fasturi._search_params_c import SearchParams
from fasturi._types import UNPICKLE, InvalidURL


cdef extern from "fasturi_whatwg.h" nogil:
    int fu_ww_same(const uint8_t *s, Py_ssize_t n, uint8_t *out, fu_ww_url *u)
    int fu_ww_ssse3
    enum:
        FU_WW_BLOB

__all__ = ["URL", "can_parse", "host_parse", "parse", "resolve"]

cdef str _EMPTY = ""

# A URL's scheme number (FU_WW_*): a "blob" URL's origin is that of the
# URL its path holds.
DEF SCHEME_BLOB = 7

fu_ww_init()


cdef Py_ssize_t _idna(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                      Py_ssize_t cap) noexcept nogil:
    # domain to ASCII of a host state's buffer (_idna_c's, where the
    # Unicode tables are linked)
    return idna_to_ascii(s, n, FU_IDNA_PERCENT, out, cap)


fu_ww_idna = _idna

# Inputs whose work fits in this many bytes are parsed on the stack.
DEF STACK = 2048


@cython.final
@cython.no_gc
@cython.freelist(32)
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

    def __reduce__(self):
        # by its href, which loads as the running twin's URL (_types.UNPICKLE)
        return UNPICKLE.get("url", parse), (self._href,)

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
    """The URL of a parse (out: its serialization); its href is `input`
    itself where that is an ASCII str written as out is."""
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


# ---- the input as UTF-8 ----------------------------------------------------------

cdef struct _In:
    const uint8_t *p  # the UTF-8: in place, or (once _make has run) in the work buffer
    Py_ssize_t n
    const void *units  # what _make converts (NULL: nothing, p is the text)
    Py_ssize_t count
    int kind  # a str's (1, 2, 4), or 0: bytes that are not UTF-8
    Py_ssize_t room  # the bytes _make writes at most


cdef object _in(_In *t, object v, str func, str name):
    """Where v's UTF-8 is, or what makes it (t.room > 0): a str's code
    units, or bytes that are not UTF-8.  Returns the object that holds
    them (bytes for a bytearray or memoryview: their copy)."""
    t.units = NULL
    t.room = 0
    if isinstance(v, str):  # (a subclass's text too, as the reference reads it)
        t.n = PyUnicode_GET_LENGTH(v)
        t.p = <const uint8_t *>PyUnicode_DATA(v)
        if not PyUnicode_IS_ASCII(v):
            t.units = t.p
            t.count = t.n
            t.kind = PyUnicode_KIND(v)
            t.room = fu_ww_usv_room(t.n)
        return v
    if isinstance(v, (bytes, bytearray, memoryview)):
        if type(v) is not bytes:
            v = bytes(v)
        t.n = PyBytes_GET_SIZE(v)
        t.p = <const uint8_t *>PyBytes_AS_STRING(v)
        if not fu_ww_utf8_ok(t.p, t.n):
            t.units = t.p
            t.count = t.n
            t.kind = 0
            t.room = 3 * t.n
        return v
    raise type_error(func, name, v, "str or bytes")


cdef inline void _make(_In *t, uint8_t *dest) noexcept nogil:
    """The UTF-8 written at dest, where it is to be made."""
    if t.units == NULL:
        return
    if t.kind == 1:
        t.n = fu_ww_usv_1(<const uint8_t *>t.units, t.count, dest)
    elif t.kind == 2:
        t.n = fu_ww_usv_2(<const uint16_t *>t.units, t.count, dest)
    elif t.kind == 4:
        t.n = fu_ww_usv_4(<const uint32_t *>t.units, t.count, dest)
    else:
        t.n = fu_ww_utf8_fix(<const uint8_t *>t.units, t.count, dest)
    t.p = dest


cdef inline Py_ssize_t _most(_In *t):
    """The most UTF-8 bytes t's text is."""
    return t.room if t.units != NULL else t.n


# ---- failures ----------------------------------------------------------------------


cdef object _host(fu_ww_url *u):
    """The serialization (bytes) of the host the C parser leaves to the
    caller (a domain beyond ASCII whose ASCII form is longer than its room:
    fu_ww_host_alone), or the InvalidURL that fails it."""
    cdef uint8_t *host = NULL
    cdef Py_ssize_t n = 0
    cdef int rc
    with nogil:
        rc = fu_ww_host_alone(u.need, u.need_len, &host, &n, u)
    if rc == FU_WW_IDNA_NOMEM:
        raise MemoryError()
    if rc != FU_WW_OK:
        return _failure(u)
    try:
        return PyBytes_FromStringAndSize(<const char *>host, n)
    finally:
        free(host)


cdef object _failure(fu_ww_url *u):
    """The InvalidURL of a parse that failed in C."""
    cdef const char *detail = fu_ww_error_detail(u.error)
    return InvalidURL(
        fu_ww_error_name(u.error).decode("ascii"),
        detail.decode("ascii") if detail != NULL else None,
    )


cdef uint8_t *_block(uint8_t **blocks, int k, Py_ssize_t size, uint8_t *stack) except NULL:
    """size bytes: the stack buffer where they fit, else blocks[k] (the
    caller frees it)."""
    if size <= STACK:
        return stack
    blocks[k] = <uint8_t *>PyMem_Malloc(size)
    if blocks[k] == NULL:
        raise MemoryError()
    return blocks[k]


cdef object _parse(const uint8_t *s, Py_ssize_t n, const uint8_t *base, fu_ww_url *b,
                   uint8_t **out, fu_ww_url *u, uint8_t **owned, int *rc):
    """fu_ww_parse (its result in *rc), and again with the host where it
    leaves one to the caller (then *out is *owned, which the caller frees).
    Returns the host parser's InvalidURL where it fails the host (*rc
    FU_WW_FAIL), else None."""
    rc[0] = fu_ww_parse(s, n, base, b, out[0], u)
    if rc[0] != FU_WW_HOST:
        return None
    host = _host(u)
    if type(host) is not bytes:
        rc[0] = FU_WW_FAIL
        return host
    owned[0] = <uint8_t *>PyMem_Malloc(
        fu_ww_room(n, b.len if base != NULL else 0) + len(<bytes>host))
    if owned[0] == NULL:
        raise MemoryError()
    out[0] = owned[0]
    rc[0] = fu_ww_parse_given(s, n, base, b, <const uint8_t *><const char *>host,
                              len(<bytes>host), out[0], u)
    return None


# What _api gives back.
cdef enum:
    WANT_OK = 0  # True or False
    WANT_HREF = 1  # the href
    WANT_URL = 2  # the URL


cdef object _api(object input, object base, int want, str func, str input_name):
    """The API URL parser: the base parsed first (its failure the whole's),
    then the input against it; True (False where it fails: WANT_OK), the
    href or the URL; else raises InvalidURL."""
    cdef _In ti, tb
    cdef fu_ww_url b, u
    cdef uint8_t stack0[STACK]
    cdef uint8_t stack1[STACK]
    cdef uint8_t *blocks[4]
    cdef uint8_t *conv
    cdef uint8_t *bout = NULL
    cdef uint8_t *out
    cdef object error = None
    cdef Py_ssize_t broom = 0, croom
    cdef int rc
    _held_input = _in(&ti, input, func, input_name)
    _held_base = None
    if base is not None:
        _held_base = _in(&tb, base, func, "base")
        broom = fu_ww_room(_most(&tb), 0)
    croom = ti.room + (tb.room if base is not None else 0)
    blocks[0] = blocks[1] = blocks[2] = blocks[3] = NULL
    try:
        conv = _block(blocks, 0, croom + broom, stack0)
        _make(&ti, conv)
        if base is not None:
            _make(&tb, conv + ti.room)
            bout = conv + croom
            error = _parse(tb.p, tb.n, NULL, NULL, &bout, &b, &blocks[1], &rc)
            if rc != FU_WW_OK:
                if want == WANT_OK:
                    return False
                if error is None:
                    error = _failure(&b)
                raise InvalidURL(error.reason, "the base URL fails to parse: " + error.detail)
        out = _block(blocks, 2, fu_ww_room(ti.n, b.len if base is not None else 0), stack1)
        error = _parse(ti.p, ti.n, bout, &b, &out, &u, &blocks[3], &rc)
        if rc != FU_WW_OK:
            if want == WANT_OK:
                return False
            raise error if error is not None else _failure(&u)
        if want == WANT_URL:
            return _url(out, &u, input, ti.p, ti.n)
        if want == WANT_HREF:
            return _ascii(out, u.len)
        return True
    finally:
        for k in range(4):
            PyMem_Free(blocks[k])


# ---- the setters ---------------------------------------------------------------------

# The URL class's setters (FU_WW_SET_*), by the attribute they set.
cdef dict _SETTERS = {
    "href": 0,
    "protocol": 1,
    "username": 2,
    "password": 3,
    "host": 4,
    "hostname": 5,
    "port": 6,
    "pathname": 7,
    "search": 8,
    "hash": 9,
}


cdef tuple _SETTER_NAMES = tuple(_SETTERS)


cdef inline void _record(URL url, fu_ww_url *u):
    u.len = len(url._href)
    u.scheme_end = url._scheme_end
    u.user_start = url._user_start
    u.user_end = url._user_end
    u.pass_start = url._pass_start
    u.pass_end = url._pass_end
    u.host_start = url._host_start
    u.host_end = url._host_end
    u.path_start = url._path_start
    u.path_end = url._path_end
    u.query_start = url._query_start
    u.frag_start = url._frag_start
    u.port = url._port
    u.scheme = url._scheme


cdef object _setter_value(str name, object value, _In *t):
    """The setter's value as parse takes its input (a str, lone surrogates
    replaced; bytes, UTF-8), and for port an int too (its decimal text, as
    JavaScript gives it); where it is in t, and the object holding it."""
    if name == "port" and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, (str, bytes, bytearray, memoryview)):
        raise type_error("replace", name, value,
                         "str, bytes or int" if name == "port" else "str or bytes")
    return _in(t, value, "replace", name)


cdef object _replace(object self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames):
    """URL.replace(**changes): self with the setter of each keyword
    applied, in order (a method of METH_FASTCALL | METH_KEYWORDS: the
    keywords' names in kwnames, their values after the positional args)."""
    cdef URL url = <URL>self
    cdef fu_ww_url u, nu
    cdef _In tv
    cdef uint8_t stack0[STACK]
    cdef uint8_t stack1[STACK]
    cdef uint8_t *stacks[2]
    cdef uint8_t *blocks[2]
    cdef uint8_t *conv[2]
    cdef uint8_t *out
    cdef const uint8_t *href
    cdef int which, rc, k = 0
    cdef Py_ssize_t room, i, count
    if nargs != 0:
        raise TypeError(
            f"URL.replace() takes 1 positional argument but {nargs + 1} were given")
    count = 0 if kwnames == NULL else PyTuple_GET_SIZE(<object>kwnames)
    if count == 0:
        return url
    _record(url, &u)
    href = <const uint8_t *>PyUnicode_DATA(url._href)
    stacks[0] = stack0
    stacks[1] = stack1
    blocks[0] = blocks[1] = conv[0] = conv[1] = NULL
    try:
        for i in range(count):
            name = <object>PyTuple_GET_ITEM(<object>kwnames, i)
            value = <object>args[i]
            # (a keyword's name is the interned str of the setter's name,
            # but where a caller spells a dict out: compared by identity)
            which = 0
            while which < 10 and name is not _SETTER_NAMES[which]:
                which += 1
            if which == 10:
                which = _SETTERS.get(name, -1)
            if which < 0:
                raise TypeError(
                    f"replace() got an unexpected keyword argument {name!r}; "
                    f"the setters are {', '.join(_SETTERS)}"
                )
            if type(value) is str:
                _in(&tv, value, "replace", name)
            else:
                _held = _setter_value(name, value, &tv)
            # the value's UTF-8, made where it is to be made
            if conv[k] != NULL:
                PyMem_Free(conv[k])
                conv[k] = NULL
            if tv.units != NULL:
                conv[k] = <uint8_t *>PyMem_Malloc(tv.room)
                if conv[k] == NULL:
                    raise MemoryError()
                _make(&tv, conv[k])
            # the new URL in the other buffer than the href's
            room = fu_ww_set_room(u.len, tv.n)
            if blocks[k] != NULL:
                PyMem_Free(blocks[k])
                blocks[k] = NULL
            out = _block(blocks, k, room, stacks[k])
            nu.given = NULL
            nu.given_len = 0
            rc = fu_ww_set(which, href, &u, tv.p, tv.n, out, &nu)
            if rc == FU_WW_HOST:
                host = _host(&nu)
                if type(host) is not bytes:
                    # (a host setter leaves the URL as it is; href raises)
                    if which == FU_WW_SET_HREF:
                        raise host
                    continue
                PyMem_Free(blocks[k])
                blocks[k] = <uint8_t *>PyMem_Malloc(room + 2 * len(<bytes>host))
                if blocks[k] == NULL:
                    raise MemoryError()
                out = blocks[k]
                nu.given = <const uint8_t *><const char *>host
                nu.given_len = len(<bytes>host)
                rc = fu_ww_set(which, href, &u, tv.p, tv.n, out, &nu)
            if rc != FU_WW_OK:
                raise _failure(&nu)
            href = out
            u = nu
            k ^= 1
        return _url(href, &u, None, NULL, 0)
    finally:
        for k in range(2):
            if blocks[k] != NULL:
                PyMem_Free(blocks[k])
            if conv[k] != NULL:
                PyMem_Free(conv[k])


# URL.replace is a method of METH_FASTCALL | METH_KEYWORDS written here, not
# a def with **changes: its keywords are read from the call's names and
# values as they come, no dict made (a fifth of a replace's time).
cdef extern from *:
    """
    static PyObject *(*fu_ww_replace_impl)(PyObject *, PyObject *const *, Py_ssize_t,
                                           PyObject *);
    static PyObject *fu_ww_replace_method(PyObject *self, PyObject *const *args,
                                          Py_ssize_t nargsf, PyObject *kwnames)
    {
        return fu_ww_replace_impl(self, args, PyVectorcall_NARGS(nargsf), kwnames);
    }
    static PyMethodDef fu_ww_replace_def = {
        "replace", (PyCFunction)(void (*)(void))fu_ww_replace_method,
        METH_FASTCALL | METH_KEYWORDS,
        "replace($self, /, **changes)\\n--\\n\\n"
        "A new URL with the URL Standard's setter of each keyword applied, in\\n"
        "the order given (href, protocol, username, password, host, hostname,\\n"
        "port, pathname, search, hash); a value the setter ignores leaves the\\n"
        "URL as it is.  href= that fails to parse raises InvalidURL."};
    /* the method, put in the type's dict */
    static int fu_ww_add_replace(PyObject *type)
    {
        PyObject *d = PyDescr_NewMethod((PyTypeObject *)type, &fu_ww_replace_def);
        if (d == NULL)
            return -1;
        int rc = PyDict_SetItemString(((PyTypeObject *)type)->tp_dict, "replace", d);
        Py_DECREF(d);
        PyType_Modified((PyTypeObject *)type);
        return rc;
    }
    """
    object (*fu_ww_replace_impl)(object, PyObject *const *, Py_ssize_t, PyObject *)
    int fu_ww_add_replace(object type) except -1

fu_ww_replace_impl = _replace
fu_ww_add_replace(URL)


def parse(input, base=None):
    """Parse ``input`` against ``base`` (URL Standard, the API URL parser).

    Raises ``InvalidURL`` (a ``ValueError``) where the parser returns failure.
    """
    return _api(input, base, WANT_URL, "parse", "input")


def can_parse(input, base=None):
    """Whether ``parse(input, base)`` succeeds (URL Standard, canParse)."""
    return _api(input, base, WANT_OK, "can_parse", "input")


def resolve(base, ref):
    """The ``href`` of ``ref`` parsed against ``base`` (both must parse).

    Raises ``InvalidURL`` where either fails.
    """
    if base is None:
        raise type_error("resolve", "base", base, "str or bytes")
    return _api(ref, base, WANT_HREF, "resolve", "ref")


def host_parse(str input, bint is_opaque=False):
    """The host parser; returns the host serialized (host serializer).
    ``input`` is read as a scalar value string (a lone surrogate as
    U+FFFD)."""
    cdef _In t
    cdef fu_ww_url u
    cdef uint8_t stack[STACK]
    cdef uint8_t *blocks[1]
    cdef uint8_t *buf
    cdef Py_ssize_t o = 0
    cdef int rc
    _held = _in(&t, input, "host_parse", "input")
    blocks[0] = NULL
    u.given = NULL
    u.given_len = 0
    u.need = NULL
    u.need_len = 0
    try:
        # the UTF-8 (where it is made), then the host serialized: 3n + 41
        # bytes at most (fasturi_whatwg_host.h)
        buf = _block(blocks, 0, t.room + 3 * _most(&t) + 41, stack)
        _make(&t, buf)
        with nogil:
            rc = fu_ww_host(t.p, t.n, is_opaque, buf + t.room, &o, &u)
        if rc == FU_WW_HOST:
            # a domain whose ASCII form is longer than its room
            host = _host(&u)
            if type(host) is not bytes:
                raise host
            return (<bytes>host).decode("ascii")
        if rc != FU_WW_OK:
            raise _failure(&u)
        return _ascii(buf + t.room, o)
    finally:
        PyMem_Free(blocks[0])


def _usv_utf8(str text):
    """text as a scalar value string, UTF-8 (a lone surrogate as U+FFFD)."""
    cdef _In t
    _in(&t, text, "", "")
    if t.units == NULL:
        return PyBytes_FromStringAndSize(<const char *>t.p, t.n)
    cdef bytearray buf = bytearray(t.room)
    _make(&t, <uint8_t *><char *>buf)
    return PyBytes_FromStringAndSize(<const char *>t.p, t.n)


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
    """The C parser's record of a URL (fu_ww_url's fields, in their
    order), for the column kernels' base."""
    return (
        len(url._href), url._scheme_end, url._user_start, url._user_end, url._pass_start,
        url._pass_end, url._host_start, url._host_end, url._path_start, url._path_end,
        url._query_start, url._frag_start, url._port, url._scheme,
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
