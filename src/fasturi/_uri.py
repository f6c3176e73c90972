"""What the two ``URI`` twins share and gain nothing from compiling: the
argument checks and text building of ``URI.from_parts`` and ``URI.replace``,
and long port numbers.

Both twins call these with their own core and rules twin (``core``,
``rules``), so the reference stays pure Python and the compiled twin keeps
its compiled percent-encoding and validation.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from ._errors import type_error

# sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
_SUB_DELIMS = "!$&'()*+,;="
# What each component allows besides unreserved and pct-encoded (§3).
SAFE_USERINFO = _SUB_DELIMS + ":"
SAFE_REG_NAME = _SUB_DELIMS
SAFE_PATH = _SUB_DELIMS + ":@/"
SAFE_QUERY = _SUB_DELIMS + ":@/?"
SAFE_ZONE_ID = ""

# pct-encoded = "%" HEXDIG HEXDIG; from_parts keeps these as they are.
_PCT_ENCODED = re.compile("%[0-9A-Fa-f]{2}")

COMPONENTS = frozenset(
    ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
)

# int() refuses longer decimal strings (sys.set_int_max_str_digits); a port
# of any length is still *DIGIT, so longer ones are converted in halves.
_INT_DIGITS = 4000


def decimal(digits: str) -> int:
    """The value of a string of ASCII digits, however long."""
    if len(digits) <= _INT_DIGITS:
        return int(digits)
    half = len(digits) // 2
    value: int = decimal(digits[:half]) * 10 ** (len(digits) - half) + decimal(digits[half:])
    return value


def compose_authority(
    userinfo: Optional[str], host: Optional[str], port: Optional[str]
) -> Optional[str]:
    """authority = [ userinfo "@" ] host [ ":" port ] (§3.2)."""
    if host is None:
        return None
    authority = host
    if userinfo is not None:
        authority = userinfo + "@" + authority
    if port is not None:
        authority = authority + ":" + port
    return authority


def _port_text(func: str, port: object) -> str:
    if isinstance(port, bool) or not isinstance(port, (int, str)):
        raise type_error(func, "port", port, "int, str or None")
    if isinstance(port, int):
        if port < 0:
            raise ValueError(f"{func}() argument 'port' must not be negative, got {port}")
        return str(port)
    return port


def _encode(core: ModuleType, text: str, safe: str) -> str:
    """Percent-encode what ``safe`` and unreserved leave out, keeping ``%hh``."""
    out = []
    start = 0
    for m in _PCT_ENCODED.finditer(text):
        out.append(core.percent_encode(text[start : m.start()], safe))
        out.append(m.group())
        start = m.end()
    out.append(core.percent_encode(text[start:], safe))
    return "".join(out)


def _bracketed_ipv6(core: ModuleType, rules: ModuleType, host: str, encode: bool) -> Optional[str]:
    """``host`` as an IP-literal when it is an IPv6 address without brackets."""
    if rules.is_valid(host, "IPv6address") or rules.is_valid(host, "IPv6addrz"):
        return "[" + host + "]"
    if encode and "%" in host:
        # RFC 6874 §2: a zone written the RFC 4007 way ("fe80::1%eth0")
        # is carried as "%25" followed by the percent-encoded zone.
        address, _, zone = host.partition("%")
        if zone and rules.is_valid(address, "IPv6address"):
            return "[" + address + "%25" + _encode(core, zone, SAFE_ZONE_ID) + "]"
    return None


def _from_parts_host(core: ModuleType, rules: ModuleType, host: str, encode: bool) -> str:
    if not host.startswith("["):
        literal = _bracketed_ipv6(core, rules, host, encode)
        if literal is not None:
            return literal
    elif not encode or rules.is_valid(host, "IP-literal"):
        return host
    # Anything else is a reg-name (an IPv4address is one too, character-wise).
    return _encode(core, host, SAFE_REG_NAME) if encode else host


def from_parts_text(
    core: ModuleType,
    rules: ModuleType,
    scheme: Optional[str],
    userinfo: Optional[str],
    host: Optional[str],
    port: Union[int, str, None],
    path: Optional[str],
    query: Optional[str],
    fragment: Optional[str],
    encode: bool,
) -> str:
    """The text ``URI.from_parts`` builds (its docstring says how)."""
    for name, value in (
        ("scheme", scheme),
        ("userinfo", userinfo),
        ("host", host),
        ("path", path),
        ("query", query),
        ("fragment", fragment),
    ):
        if value is not None and not isinstance(value, str):
            raise type_error("from_parts", name, value, "str or None")
    if scheme is not None:
        rules.validate(scheme, "scheme")
    port_text = None
    if port is not None:
        port_text = _port_text("from_parts", port)
        rules.validate(port_text, "port")
    if path is None:
        path = ""

    if host is None:
        if userinfo is not None or port is not None:
            raise ValueError("from_parts() needs a host to set userinfo or port")
        authority = None
    else:
        if encode and userinfo is not None:
            userinfo = _encode(core, userinfo, SAFE_USERINFO)
        authority = compose_authority(
            userinfo, _from_parts_host(core, rules, host, encode), port_text
        )

    # §3.3: after an authority the path is empty or starts with "/";
    # without one it cannot start with "//" (that would be an authority).
    if authority is not None and path and not path.startswith("/"):
        raise ValueError("with an authority, the path must be empty or start with '/'")
    if authority is None and path.startswith("//"):
        raise ValueError("without an authority, the path cannot start with '//'")
    if encode:
        path = _encode(core, path, SAFE_PATH)
    if scheme is None and authority is None:
        # §4.2: a colon in the first segment of a relative-path
        # reference would read as a scheme delimiter.
        first, slash, rest = path.partition("/")
        path = first.replace(":", "%3A") + slash + rest
    if encode:
        if query is not None:
            query = _encode(core, query, SAFE_QUERY)
        if fragment is not None:
            fragment = _encode(core, fragment, SAFE_QUERY)
    text: str = core.unsplit((scheme, authority, path, query, fragment))
    return text


def replace_text(
    core: ModuleType,
    current: Tuple[Optional[str], ...],
    components: Mapping[str, Any],
) -> str:
    """The text ``URI.replace(**components)`` builds (its docstring says how).

    ``current`` is the URI's own ``(scheme, authority, userinfo, host, port
    text, path, query, fragment)``.
    """
    for name in components:
        if name not in COMPONENTS:
            raise TypeError(f"replace() got an unexpected keyword argument {name!r}")
    subparts = [n for n in ("userinfo", "host", "port") if n in components]
    if "authority" in components and subparts:
        raise TypeError("replace() cannot take 'authority' together with " + repr(subparts[0]))
    given: Dict[str, Optional[str]] = {}
    for name, value in components.items():
        if name == "port" and value is not None:
            given[name] = _port_text("replace", value)
        elif value is None or isinstance(value, str):
            given[name] = value
        else:
            raise type_error("replace", name, value, "str or None")

    scheme, authority, userinfo, host, port, path, query, fragment = current
    if subparts:
        host = given.get("host", host)
        if host is None:
            if given.get("userinfo") is not None or given.get("port") is not None:
                raise ValueError("replace() needs a host to set userinfo or port")
            authority = None
        else:
            authority = compose_authority(
                given.get("userinfo", userinfo), host, given.get("port", port)
            )
    else:
        authority = given.get("authority", authority)
    text: str = core.unsplit(
        (
            given.get("scheme", scheme),
            authority,
            given.get("path", path) or "",
            given.get("query", query),
            given.get("fragment", fragment),
        )
    )
    return text
