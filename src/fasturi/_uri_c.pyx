"""The URI value object and §7.5 redaction: the compiled twin of _uri_py.

A ``URI`` holds its text and six offsets found by one Appendix B scan plus
the authority split (csrc/fasturi_scan.h); component strings are sliced
out only when read and are not cached, so an unread URI costs the object
header, the str reference and 48 bytes of offsets.
"""

cimport cython
from cpython.unicode cimport (
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_FromObject,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t

from fasturi._capi cimport fu_unicode_ready
from fasturi._csrc cimport (
    fu_authority_1,
    fu_authority_2,
    fu_authority_4,
    fu_authority_t,
    fu_split_1,
    fu_split_2,
    fu_split_4,
    fu_split_t,
)

from fasturi import _core_c as _core
from fasturi import _rules_c as _rules
from fasturi._errors import type_error
from fasturi._uri import decimal, from_parts_text, replace_text
from fasturi._types import InvalidURI

__all__ = ["URI", "redact"]

# Up to 18 decimal digits fit an unsigned 64-bit accumulator.
cdef Py_ssize_t _FAST_DIGITS = 18


cdef str _text_of(str func, str name, value):
    """The text of a ``str`` or ``URI`` argument."""
    if type(value) is URI:
        return (<URI>value)._s
    if isinstance(value, str):
        return value
    raise type_error(func, name, value, "str or URI")


def redact(s, password="***"):
    """Replace the password in the userinfo by ``password`` (§7.5, §3.2.1).

    The password is whatever follows the userinfo's first ":"; a URI whose
    userinfo has no ":" (or that has no userinfo) comes back unchanged.
    """
    if not isinstance(s, str):
        raise type_error("redact", "s", s, "str")
    if not isinstance(password, str):
        raise type_error("redact", "password", password, "str")
    cdef URI u = URI(s)
    cdef Py_ssize_t start = _authority_start(u), i
    if u._auth_end < 0 or u._userinfo_end < 0:
        return u._s
    cdef str text = u._s
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    for i in range(start, u._userinfo_end):
        if PyUnicode_READ(kind, data, i) == u":":
            return text[:i + 1] + password + text[u._userinfo_end:]
    return u._s


@cython.final
@cython.no_gc
@cython.freelist(16)
cdef class URI:
    """An RFC 3986 URI reference, kept as the exact text it was made from.

    Components follow §3: ``None`` when undefined, ``""`` when empty.
    Equality and hashing compare the text exactly; use ``equivalent`` for
    the §6.2 comparison ladder.
    """

    # Offsets into _s (code points), -1 for an undefined component.  The
    # rest follow from these: authority starts 2 after the scheme's ":" (or
    # at 2), the path at _auth_end (or after the scheme), the query one
    # after _path_end, the fragment one after the query (or path) when that
    # ends before the text does, the port one after _host_end when that
    # ends before the authority does.
    cdef str _s
    cdef Py_ssize_t _scheme_end
    cdef Py_ssize_t _auth_end
    cdef Py_ssize_t _path_end
    cdef Py_ssize_t _query_end
    cdef Py_ssize_t _userinfo_end
    cdef Py_ssize_t _host_end

    def __cinit__(self, s):
        if type(s) is not str:
            if not isinstance(s, str):
                raise type_error("URI", "s", s, "str")
            s = PyUnicode_FromObject(s)  # a str subclass is kept as its plain text
        fu_unicode_ready(s)
        self._s = <str>s
        _scan(self)

    # -- components (§3) -------------------------------------------------

    @property
    def scheme(self):
        if self._scheme_end < 0:
            return None
        return self._s[:self._scheme_end]

    @property
    def authority(self):
        if self._auth_end < 0:
            return None
        return self._s[_authority_start(self):self._auth_end]

    @property
    def userinfo(self):
        if self._auth_end < 0 or self._userinfo_end < 0:
            return None
        return self._s[_authority_start(self):self._userinfo_end]

    @property
    def host(self):
        if self._auth_end < 0:
            return None
        return self._s[_host_start(self):self._host_end]

    @property
    def port(self):
        """The port as a number; ``None`` when absent or empty (§3.2.3).

        Raises InvalidURI (rule ``"port"``, position in the URI text) when the
        port text is not ``*DIGIT``.
        """
        cdef Py_ssize_t start, end, i
        cdef uint32_t c
        cdef unsigned long long value = 0
        if self._auth_end < 0 or self._host_end >= self._auth_end:
            return None
        start = self._host_end + 1
        end = self._auth_end
        if start == end:
            return None
        cdef int kind = PyUnicode_KIND(self._s)
        cdef void *data = PyUnicode_DATA(self._s)
        for i in range(start, end):
            c = PyUnicode_READ(kind, data, i)
            # DIGIT is ASCII only.
            if c < 48 or c > 57:
                raise InvalidURI(f"invalid port at position {i}: {chr(c)!r}", i, "port")
            value = value * 10 + (c - 48)
        if end - start <= _FAST_DIGITS:
            return value
        return decimal(self._s[start:end])

    @property
    def path(self):
        return self._s[_path_start(self):self._path_end]

    @property
    def query(self):
        if self._query_end < 0:
            return None
        return self._s[self._path_end + 1:self._query_end]

    @property
    def fragment(self):
        cdef Py_ssize_t start = _fragment_start(self)
        if start < 0:
            return None
        return self._s[start:]

    @property
    def host_type(self):
        """``"reg-name"``, ``"IPv4"``, ``"IPv6"``, ``"IPvFuture"`` or ``None`` (§3.2.2)."""
        if self._auth_end < 0:
            return None
        return _rules.host_type(self._s[_host_start(self):self._host_end])

    @property
    def zone_id(self):
        """The RFC 6874 zone ID: what follows "%25" inside the brackets, as written."""
        cdef Py_ssize_t start, close, mark
        if self._auth_end < 0:
            return None
        start = _host_start(self)
        if start >= self._host_end or self._s[start] != u"[":
            return None
        close = self._s.find(u"]", start, self._host_end)
        if close < 0:
            return None
        mark = self._s.find(u"%25", start + 1, close)
        if mark < 0:
            return None
        return self._s[mark + 3:close]

    # -- value semantics -------------------------------------------------

    def __str__(self):
        return self._s

    def __repr__(self):
        return f"URI({self._s!r})"

    def __eq__(self, other):
        if type(other) is URI:
            return self._s == (<URI>other)._s
        return NotImplemented

    def __ne__(self, other):
        if type(other) is URI:
            return self._s != (<URI>other)._s
        return NotImplemented

    def __hash__(self):
        # str caches its own hash, so this is O(1) after the first call.
        return hash(self._s)

    def __reduce__(self):
        return (URI, (self._s,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # -- operations ------------------------------------------------------

    def resolve(self, ref, *, strict=True, rfc=3986):
        """The target of ``ref`` with this URI as its base (§5.2)."""
        return URI(_core.resolve(self._s, _text_of("resolve", "ref", ref), strict=strict, rfc=rfc))

    def normalize(self, *, scheme_based=True):
        """Syntax-based (§6.2.2) and, unless turned off, scheme-based (§6.2.3) normalization."""
        return URI(_core.normalize(self._s, scheme_based=scheme_based))

    def equivalent(self, other):
        """Whether the two are equivalent by the §6.2 comparison ladder."""
        return _core.equivalent(self._s, _text_of("equivalent", "other", other))

    def is_absolute(self):
        """Whether this has the shape of ``absolute-URI`` (§4.3): a scheme, no fragment."""
        return self._scheme_end >= 0 and _fragment_start(self) < 0

    def is_valid(self, rule="URI-reference", *, rfc=3986):
        """Whether the text matches ``rule`` of RFC 3986 (or RFC 2396) Appendix A."""
        return _rules.is_valid(self._s, rule, rfc=rfc)

    def validate(self, rule="URI-reference", *, rfc=3986):
        """This URI if the text matches ``rule``; raises InvalidURI otherwise."""
        _rules.validate(self._s, rule, rfc=rfc)
        return self

    def redact(self, password="***"):
        """This URI with the userinfo's password replaced by ``password`` (§7.5)."""
        return URI(redact(self._s, password))

    def replace(self, **components):
        """A URI with the given components replaced, inserted as given (§5.3).

        Keywords: scheme, authority, userinfo, host, port, path, query,
        fragment; ``None`` undefines a component (an undefined path is the
        empty path).  ``authority`` cannot be combined with userinfo, host or
        port.  Setting userinfo or port needs a host; a host of ``None``
        removes the authority.
        """
        current = (
            self.scheme,
            self.authority,
            self.userinfo,
            self.host,
            _port_of(self),
            self.path,
            self.query,
            self.fragment,
        )
        return URI(replace_text(_core, current, components))

    @classmethod
    def from_parts(
        cls,
        scheme=None,
        userinfo=None,
        host=None,
        port=None,
        path="",
        query=None,
        fragment=None,
        *,
        encode=True,
    ):
        """Build a URI from components (§5.3).

        With ``encode`` each component's disallowed characters are
        percent-encoded as UTF-8 (an existing ``%hh`` is kept), so the result
        matches ``URI-reference`` and reads back the same components.  An
        IPv6 host gets its brackets.  Raises InvalidURI for a bad scheme or
        port, ValueError when the path cannot follow the authority (§3.3).
        """
        return cls(
            from_parts_text(
                _core, _rules, scheme, userinfo, host, port, path, query, fragment, encode
            )
        )


# -- offsets -------------------------------------------------------------
# Module-level helpers rather than cdef methods: methods would put a vtable
# pointer in every instance.

cdef inline void _scan(URI u) noexcept:
    cdef fu_split_t sp
    cdef fu_authority_t au
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(u._s)
    cdef int kind = PyUnicode_KIND(u._s)
    cdef void *data = PyUnicode_DATA(u._s)
    if kind == PyUnicode_1BYTE_KIND:
        fu_split_1(<const uint8_t *>data, n, &sp)
        if sp.auth_start >= 0:
            fu_authority_1(<const uint8_t *>data, sp.auth_start, sp.auth_end, &au)
    elif kind == PyUnicode_2BYTE_KIND:
        fu_split_2(<const uint16_t *>data, n, &sp)
        if sp.auth_start >= 0:
            fu_authority_2(<const uint16_t *>data, sp.auth_start, sp.auth_end, &au)
    else:
        fu_split_4(<const uint32_t *>data, n, &sp)
        if sp.auth_start >= 0:
            fu_authority_4(<const uint32_t *>data, sp.auth_start, sp.auth_end, &au)
    u._scheme_end = sp.scheme_end
    u._auth_end = sp.auth_end
    u._path_end = sp.path_end
    u._query_end = sp.query_end
    if sp.auth_start >= 0:
        u._userinfo_end = au.userinfo_end
        u._host_end = au.host_end
    else:
        u._userinfo_end = -1
        u._host_end = -1


cdef inline Py_ssize_t _authority_start(URI u) noexcept:
    return u._scheme_end + 3


cdef inline Py_ssize_t _path_start(URI u) noexcept:
    return u._auth_end if u._auth_end >= 0 else u._scheme_end + 1


cdef inline Py_ssize_t _host_start(URI u) noexcept:
    return u._userinfo_end + 1 if u._userinfo_end >= 0 else u._scheme_end + 3


cdef inline Py_ssize_t _fragment_start(URI u) noexcept:
    cdef Py_ssize_t end = u._query_end if u._query_end >= 0 else u._path_end
    return end + 1 if end < PyUnicode_GET_LENGTH(u._s) else -1


cdef inline object _port_of(URI u):
    """The port text, or None."""
    if u._auth_end < 0 or u._host_end >= u._auth_end:
        return None
    return u._s[u._host_end + 1:u._auth_end]
