"""The URI value object and §7.5 redaction: the pure-Python reference.

A ``URI`` keeps the text it was given, with its components as the
reference core splits them (Appendix B, then the authority split of
docs/ARCHITECTURE.md); ``str(URI(s)) == s`` for every ``s``.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import _core_py as _core
from . import _rules_py as _rules
from ._errors import type_error
from ._types import InvalidURI, Split
from ._uri import compose_authority, decimal, from_parts_text, replace_text

__all__ = ["URI", "redact"]


def _text_of(func: str, name: str, value: object) -> str:
    """The text of a ``str`` or ``URI`` argument."""
    if isinstance(value, URI):
        return value._s
    if isinstance(value, str):
        return value
    raise type_error(func, name, value, "str or URI")


def redact(s: str, password: str = "***") -> str:
    """Replace the password in the userinfo by ``password`` (§7.5, §3.2.1).

    The password is whatever follows the userinfo's first ":"; a URI whose
    userinfo has no ":" (or that has no userinfo) comes back unchanged.
    """
    if not isinstance(s, str):
        raise type_error("redact", "s", s, "str")
    if not isinstance(password, str):
        raise type_error("redact", "password", password, "str")
    s = str.__str__(s)
    parts = _core.split(s)
    if parts.authority is None:
        return s
    userinfo, host, port = _core.split_authority(parts.authority)
    if userinfo is None or ":" not in userinfo:
        return s
    user = userinfo.partition(":")[0]
    authority = compose_authority(user + ":" + password, host, port)
    return _core.unsplit(parts._replace(authority=authority))


class URI:
    """An RFC 3986 URI reference, kept as the exact text it was made from.

    Components follow §3: ``None`` when undefined, ``""`` when empty.
    Equality and hashing compare the text exactly; use ``equivalent`` for
    the §6.2 comparison ladder.
    """

    __slots__ = ("_host", "_parts", "_port", "_s", "_userinfo")
    _s: str
    _parts: Split
    _userinfo: Optional[str]
    _host: Optional[str]
    _port: Optional[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Immutable value object, like the compiled twin's final cdef class.
        raise TypeError("type 'URI' is not an acceptable base type")

    def __init__(self, s: str) -> None:
        if not isinstance(s, str):
            raise type_error("URI", "s", s, "str")
        s = str.__str__(s)  # a str subclass is kept as its plain text
        parts = _core.split(s)
        if parts.authority is None:
            userinfo = host = port = None
        else:
            userinfo, host, port = _core.split_authority(parts.authority)
        object.__setattr__(self, "_s", s)
        object.__setattr__(self, "_parts", parts)
        object.__setattr__(self, "_userinfo", userinfo)
        object.__setattr__(self, "_host", host)
        object.__setattr__(self, "_port", port)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"URI objects are immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"URI objects are immutable; cannot delete {name!r}")

    # -- components (§3) -------------------------------------------------

    @property
    def scheme(self) -> Optional[str]:
        return self._parts.scheme

    @property
    def authority(self) -> Optional[str]:
        return self._parts.authority

    @property
    def userinfo(self) -> Optional[str]:
        return self._userinfo

    @property
    def host(self) -> Optional[str]:
        return self._host

    @property
    def port(self) -> Optional[int]:
        """The port as a number; ``None`` when absent or empty (§3.2.3).

        Raises InvalidURI (rule ``"port"``, position in the URI text) when the
        port text is not ``*DIGIT``.
        """
        text = self._port
        if not text:
            return None
        # The port is the last thing in the authority.
        start = len(self._authority_prefix()) + len(self._parts.authority or "") - len(text)
        for i, c in enumerate(text):
            if not "0" <= c <= "9":
                position = start + i
                raise InvalidURI(f"invalid port at position {position}: {c!r}", position, "port")
        return decimal(text)

    @property
    def path(self) -> str:
        return self._parts.path

    @property
    def query(self) -> Optional[str]:
        return self._parts.query

    @property
    def fragment(self) -> Optional[str]:
        return self._parts.fragment

    @property
    def host_type(self) -> Optional[str]:
        """``"reg-name"``, ``"IPv4"``, ``"IPv6"``, ``"IPvFuture"`` or ``None`` (§3.2.2)."""
        if self._host is None:
            return None
        return _rules.host_type(self._host)

    @property
    def zone_id(self) -> Optional[str]:
        """The RFC 6874 zone ID: what follows "%25" inside the brackets, as written."""
        host = self._host
        if host is None or not host.startswith("["):
            return None
        close = host.find("]")
        if close < 0:
            return None
        inside = host[1:close]
        mark = inside.find("%25")
        if mark < 0:
            return None
        return inside[mark + 3 :]

    def _authority_prefix(self) -> str:
        scheme = self._parts.scheme
        return ("" if scheme is None else scheme + ":") + "//"

    # -- value semantics -------------------------------------------------

    def __str__(self) -> str:
        return self._s

    def __repr__(self) -> str:
        return f"URI({self._s!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URI):
            return self._s == other._s
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, URI):
            return self._s != other._s
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._s)

    def __reduce__(self) -> tuple[type[URI], tuple[str]]:
        return (URI, (self._s,))

    def __copy__(self) -> URI:
        return self

    def __deepcopy__(self, memo: object) -> URI:
        return self

    # -- operations ------------------------------------------------------

    def resolve(self, ref: Union[str, URI], *, strict: bool = True, rfc: int = 3986) -> URI:
        """The target of ``ref`` with this URI as its base (§5.2)."""
        return URI(_core.resolve(self._s, _text_of("resolve", "ref", ref), strict=strict, rfc=rfc))

    def normalize(self, *, scheme_based: bool = True) -> URI:
        """Syntax-based (§6.2.2) and, unless turned off, scheme-based (§6.2.3) normalization."""
        return URI(_core.normalize(self._s, scheme_based=scheme_based))

    def equivalent(self, other: Union[str, URI]) -> bool:
        """Whether the two are equivalent by the §6.2 comparison ladder."""
        return _core.equivalent(self._s, _text_of("equivalent", "other", other))

    def is_absolute(self) -> bool:
        """Whether this has the shape of ``absolute-URI`` (§4.3): a scheme, no fragment."""
        return self._parts.scheme is not None and self._parts.fragment is None

    def is_valid(self, rule: str = "URI-reference", *, rfc: int = 3986) -> bool:
        """Whether the text matches ``rule`` of RFC 3986 (or RFC 2396) Appendix A."""
        return _rules.is_valid(self._s, rule, rfc=rfc)

    def validate(self, rule: str = "URI-reference", *, rfc: int = 3986) -> URI:
        """This URI if the text matches ``rule``; raises InvalidURI otherwise."""
        _rules.validate(self._s, rule, rfc=rfc)
        return self

    def redact(self, password: str = "***") -> URI:
        """This URI with the userinfo's password replaced by ``password`` (§7.5)."""
        return URI(redact(self._s, password))

    def replace(self, **components: Union[str, int, None]) -> URI:
        """A URI with the given components replaced, inserted as given (§5.3).

        Keywords: scheme, authority, userinfo, host, port, path, query,
        fragment; ``None`` undefines a component (an undefined path is the
        empty path).  ``authority`` cannot be combined with userinfo, host or
        port.  Setting userinfo or port needs a host; a host of ``None``
        removes the authority.
        """
        current = (
            self._parts.scheme,
            self._parts.authority,
            self._userinfo,
            self._host,
            self._port,
            self._parts.path,
            self._parts.query,
            self._parts.fragment,
        )
        return URI(replace_text(_core, current, components))

    @classmethod
    def from_parts(
        cls,
        scheme: Optional[str] = None,
        userinfo: Optional[str] = None,
        host: Optional[str] = None,
        port: Union[int, str, None] = None,
        path: Optional[str] = "",
        query: Optional[str] = None,
        fragment: Optional[str] = None,
        *,
        encode: bool = True,
    ) -> URI:
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
