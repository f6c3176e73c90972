"""The WHATWG URL Standard's basic URL parser, host parser and serializer.

The reference twin: it reads like the standard beside it (the URL Standard,
"URL parsing", "Host parsing", "IDNA", "Percent-encoded bytes", "URL
serializing", "Origin"), state for state and step for step, with the
standard's names.  Validation errors that do not end the parse are not
recorded; those that do raise ``InvalidURL`` with the standard's name for
the error (``"host-missing"``, ``"port-out-of-range"``, ...) as its
``reason``.

The basic URL parser is here whole, *state override* included, with the
API's setters built on it, and UTF-8 as the only encoding.  Input is a
scalar value string: a ``str`` holding lone surrogates has each replaced by
U+FFFD, as Web IDL's conversion to ``USVString`` does, and ``bytes`` are
decoded as UTF-8 with U+FFFD for what is not UTF-8 (the Encoding Standard's
UTF-8 decode).

Domain to ASCII is ``_idna_py``'s: UTS #46 with the standard's flags over
the Unicode data of one version (``_idna_tables``), whatever the running
Python's ``unicodedata`` knows.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

from ._errors import type_error
from ._idna_py import domain_parse
from ._search_params_py import SearchParams
from ._types import UNPICKLE, InvalidURL
from ._webidl import usv
from ._whatwg_percent import (
    C0_CONTROL_SET,
    FRAGMENT_SET,
    PATH_SET,
    QUERY_SET,
    SPECIAL_QUERY_SET,
    USERINFO_SET,
    percent_decode,
    utf8_percent_encode,
)

__all__ = ["URL", "parse", "can_parse", "resolve"]

# -- Infrastructure ---------------------------------------------------------

# The EOF code point: longer than one code point, so that it is in no set
# and no string of delimiters (`c in "/?#"`) and equals no code point.
EOF = "<EOF>"

ASCII_ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_DIGITS = frozenset("0123456789")
ASCII_ALPHANUMERIC = ASCII_ALPHA | ASCII_DIGITS
ASCII_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")
OCTAL_DIGITS = frozenset("01234567")
ASCII_TAB_OR_NEWLINE = "\t\n\r"
# C0 control or space: U+0000 to U+001F and U+0020
C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))

# §URL miscellaneous: the special schemes and their default ports
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}

# -- Hosts -------------------------------------------------------------------

# forbidden host code point
FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
# forbidden domain code point: a forbidden host code point, a C0 control,
# U+0025 (%), or U+007F DELETE
FORBIDDEN_DOMAIN = FORBIDDEN_HOST | frozenset(map(chr, range(0x20))) | {"%", "\x7f"}


def host_parse(input: str, is_opaque: bool = False) -> str:
    """The host parser; returns the host serialized (host serializer).
    ``input`` is read as a scalar value string (a lone surrogate as
    U+FFFD)."""
    input = usv(input)
    # 1. IPv6
    if input.startswith("["):
        if not input.endswith("]"):
            raise InvalidURL("IPv6-unclosed")
        return "[" + ipv6_serialize(ipv6_parse(input[1:-1])) + "]"
    # 2.
    if is_opaque:
        return opaque_host_parse(input)
    # 5. domain: the percent-decoding, UTF-8 decoded without BOM
    domain = percent_decode(input.encode("utf-8")).decode("utf-8", "replace")
    # 6-7.
    ascii_domain = domain_parse(domain)
    # 8.
    if ends_in_a_number(ascii_domain):
        return ipv4_serialize(ipv4_parse(ascii_domain))
    return ascii_domain


def ends_in_a_number(input: str) -> bool:
    """The ends in a number checker."""
    parts = input.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if last and all(c in ASCII_DIGITS for c in last):
        return True
    return ipv4_number_parse(last) is not None


def ipv4_parse(input: str) -> int:
    """The IPv4 parser."""
    parts = input.split(".")
    if parts[-1] == "":
        # IPv4-empty-part (not a failure)
        if len(parts) > 1:
            parts.pop()
    if len(parts) > 4:
        raise InvalidURL("IPv4-too-many-parts")
    numbers = []
    for part in parts:
        result = ipv4_number_parse(part)
        if result is None:
            raise InvalidURL("IPv4-non-numeric-part")
        numbers.append(result[0])
    if any(n > 255 for n in numbers[:-1]):
        raise InvalidURL("IPv4-out-of-range-part")
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise InvalidURL("IPv4-out-of-range-part")
    ipv4 = numbers.pop()
    for counter, n in enumerate(numbers):
        ipv4 += n * 256 ** (3 - counter)
    return ipv4


def ipv4_number_parse(input: str) -> Optional[Tuple[int, bool]]:
    """The IPv4 number parser: (number, validationError), or None (failure)."""
    if input == "":
        return None
    validation_error = False
    r = 10
    if len(input) >= 2 and input[:2] in ("0x", "0X"):
        validation_error = True
        input = input[2:]
        r = 16
    elif len(input) >= 2 and input[0] == "0":
        validation_error = True
        input = input[1:]
        r = 8
    if input == "":
        return (0, True)
    digits = {10: ASCII_DIGITS, 16: ASCII_HEX_DIGITS, 8: OCTAL_DIGITS}[r]
    if not all(c in digits for c in input):
        return None
    if r == 10 and len(input) > 10:
        # No leading zeros here (those are octal): 11 digits are past 2^32,
        # and int() of a long decimal string is refused by Python 3.11+.
        return (1 << 64, validation_error)
    return (int(input, r), validation_error)


def ipv6_parse(input: str) -> List[int]:
    """The IPv6 parser."""
    address = [0] * 8
    piece_index = 0
    compress: Optional[int] = None
    pointer = 0
    n = len(input)

    def c_at(i: int) -> str:
        return input[i] if i < n else EOF

    if c_at(pointer) == ":":
        if c_at(pointer + 1) != ":":
            raise InvalidURL("IPv6-invalid-compression")
        pointer += 2
        piece_index += 1
        compress = piece_index
    while c_at(pointer) != EOF:
        if piece_index == 8:
            raise InvalidURL("IPv6-too-many-pieces")
        if c_at(pointer) == ":":
            if compress is not None:
                raise InvalidURL("IPv6-multiple-compression")
            pointer += 1
            piece_index += 1
            compress = piece_index
            continue
        value = length = 0
        while length < 4 and c_at(pointer) in ASCII_HEX_DIGITS:
            value = value * 0x10 + int(c_at(pointer), 16)
            pointer += 1
            length += 1
        if c_at(pointer) == ".":
            if length == 0:
                raise InvalidURL("IPv4-in-IPv6-invalid-code-point")
            pointer -= length
            if piece_index > 6:
                raise InvalidURL("IPv4-in-IPv6-too-many-pieces")
            numbers_seen = 0
            while c_at(pointer) != EOF:
                ipv4_piece: Optional[int] = None
                if numbers_seen > 0:
                    if c_at(pointer) == "." and numbers_seen < 4:
                        pointer += 1
                    else:
                        raise InvalidURL("IPv4-in-IPv6-invalid-code-point")
                if c_at(pointer) not in ASCII_DIGITS:
                    raise InvalidURL("IPv4-in-IPv6-invalid-code-point")
                while c_at(pointer) in ASCII_DIGITS:
                    number = int(c_at(pointer))
                    if ipv4_piece is None:
                        ipv4_piece = number
                    elif ipv4_piece == 0:
                        raise InvalidURL("IPv4-in-IPv6-invalid-code-point")
                    else:
                        ipv4_piece = ipv4_piece * 10 + number
                    if ipv4_piece > 255:
                        raise InvalidURL("IPv4-in-IPv6-out-of-range-part")
                    pointer += 1
                assert ipv4_piece is not None
                address[piece_index] = address[piece_index] * 0x100 + ipv4_piece
                numbers_seen += 1
                if numbers_seen in (2, 4):
                    piece_index += 1
            if numbers_seen != 4:
                raise InvalidURL("IPv4-in-IPv6-too-few-parts")
            break
        elif c_at(pointer) == ":":
            pointer += 1
            if c_at(pointer) == EOF:
                raise InvalidURL("IPv6-invalid-code-point")
        elif c_at(pointer) != EOF:
            raise InvalidURL("IPv6-invalid-code-point")
        address[piece_index] = value
        piece_index += 1
    if compress is not None:
        swaps = piece_index - compress
        piece_index = 7
        while piece_index != 0 and swaps > 0:
            other = compress + swaps - 1
            address[piece_index], address[other] = address[other], address[piece_index]
            piece_index -= 1
            swaps -= 1
    elif piece_index != 8:
        raise InvalidURL("IPv6-too-few-pieces")
    return address


def opaque_host_parse(input: str) -> str:
    """The opaque-host parser."""
    if any(c in FORBIDDEN_HOST for c in input):
        raise InvalidURL("host-invalid-code-point")
    return utf8_percent_encode(input, C0_CONTROL_SET)


def ipv4_serialize(address: int) -> str:
    """The IPv4 serializer."""
    return ".".join(str((address >> shift) & 0xFF) for shift in (24, 16, 8, 0))


def ipv6_serialize(address: List[int]) -> str:
    """The IPv6 serializer."""
    output = ""
    compress = ipv6_compressed_piece_index(address)
    ignore0 = False
    for piece_index in range(8):
        if ignore0 and address[piece_index] == 0:
            continue
        ignore0 = False
        if compress == piece_index:
            output += "::" if piece_index == 0 else ":"
            ignore0 = True
            continue
        output += f"{address[piece_index]:x}"
        if piece_index != 7:
            output += ":"
    return output


def ipv6_compressed_piece_index(address: List[int]) -> Optional[int]:
    """Find the IPv6 address compressed piece index."""
    longest_index: Optional[int] = None
    longest_size = 1
    found_index: Optional[int] = None
    found_size = 0
    for piece_index in range(8):
        if address[piece_index] != 0:
            if found_size > longest_size:
                longest_index, longest_size = found_index, found_size
            found_index = None
            found_size = 0
        else:
            if found_index is None:
                found_index = piece_index
            found_size += 1
    if found_size > longest_size:
        return found_index
    return longest_index


# -- IDNA --------------------------------------------------------------------
# The domain parser (domain to ASCII) is _idna_py's: UTS #46 over Unicode
# data of one version, whatever the running Python's.


# -- URLs --------------------------------------------------------------------


# -- The URL object ------------------------------------------------------------
# The API's URL: the reference's own class (the compiled twin has its own)
# over a record's serialization and fields.

# the schemes whose origin is a tuple origin (scheme, host, port)
SPECIAL_ORIGIN_SCHEMES = frozenset(("ftp", "http", "https", "ws", "wss"))


class URL:
    """A URL by the WHATWG URL Standard, with its ``URL`` class's getters.

    Immutable and hashable; equal when ``href`` is (URL equivalence).
    Built by ``fasturi.whatwg.parse``, not by calling the class; pickled by
    its href (``_impl._url_from_href``, registered where the twin is chosen).
    """

    __slots__ = (
        "_href",
        "_scheme",
        "_username",
        "_password",
        "_host",
        "_port",
        "_path",
        "_query",
        "_fragment",
        "_blob_origin",
    )

    _href: str
    _scheme: str
    _username: str
    _password: str
    _host: Optional[str]
    _port: Optional[int]
    _path: str
    _query: Optional[str]
    _fragment: Optional[str]
    _blob_origin: Optional[str]

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("URL objects are made by fasturi.whatwg.parse()")

    @classmethod
    def _from_record(
        cls,
        href: str,
        scheme: str,
        username: str,
        password: str,
        host: Optional[str],
        port: Optional[int],
        path: str,
        query: Optional[str],
        fragment: Optional[str],
        blob_origin: Optional[str] = None,
    ) -> "URL":
        """A URL from its serialization and its record's fields (``host``
        serialized, ``path`` serialized; ``blob_origin`` the origin of a
        "blob" URL, which needs the parser)."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "_href", href)
        setattr_(self, "_scheme", scheme)
        setattr_(self, "_username", username)
        setattr_(self, "_password", password)
        setattr_(self, "_host", host)
        setattr_(self, "_port", port)
        setattr_(self, "_path", path)
        setattr_(self, "_query", query)
        setattr_(self, "_fragment", fragment)
        setattr_(self, "_blob_origin", blob_origin)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"URL objects are immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"URL objects are immutable (cannot delete {name!r})")

    @property
    def href(self) -> str:
        """The URL serializer's output."""
        return self._href

    @property
    def protocol(self) -> str:
        """The scheme followed by ":"."""
        return self._scheme + ":"

    @property
    def username(self) -> str:
        return self._username

    @property
    def password(self) -> str:
        return self._password

    @property
    def host(self) -> str:
        """The host serialized, with ":" and the port when there is one."""
        if self._host is None:
            return ""
        if self._port is None:
            return self._host
        return f"{self._host}:{self._port}"

    @property
    def hostname(self) -> str:
        """The host serialized ("" when null)."""
        return "" if self._host is None else self._host

    @property
    def port(self) -> str:
        """The port as decimal text ("" when null, as for a default port)."""
        return "" if self._port is None else str(self._port)

    @property
    def pathname(self) -> str:
        """The URL path serializer's output."""
        return self._path

    @property
    def search(self) -> str:
        """ "?" and the query, or "" when the query is null or empty."""
        return "?" + self._query if self._query else ""

    @property
    def hash(self) -> str:
        """ "#" and the fragment, or "" when the fragment is null or empty."""
        return "#" + self._fragment if self._fragment else ""

    @property
    def origin(self) -> str:
        """The serialization of the URL's origin ("null" when opaque)."""
        if self._scheme in SPECIAL_ORIGIN_SCHEMES:
            return f"{self._scheme}://{self.host}"
        if self._scheme == "blob" and self._blob_origin is not None:
            return self._blob_origin
        return "null"

    @property
    def search_params(self) -> SearchParams:
        """A ``SearchParams`` of the URL's query: a copy (apply it with
        ``url.replace(search=str(params))``)."""
        # (search is "?" and the query, or "": what the constructor drops
        # is that "?", never one the query begins with)
        return SearchParams(self.search)

    def replace(self, **changes: object) -> URL:
        """A new URL with the URL Standard's setter of each keyword applied,
        in the order given (``href``, ``protocol``, ``username``,
        ``password``, ``host``, ``hostname``, ``port``, ``pathname``,
        ``search``, ``hash``); a value the setter ignores leaves the URL as
        it is.  ``href=`` that fails to parse raises ``InvalidURL``."""
        return replace(self, changes)

    def __str__(self) -> str:
        return self._href

    def __repr__(self) -> str:
        return f"URL({self._href!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self._href == other._href
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self._href != other._href
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._href)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # by its href, which loads as the running twin's URL (_types.UNPICKLE)
        return UNPICKLE.get("url", parse), (self._href,)

    def __copy__(self) -> URL:
        return self

    def __deepcopy__(self, memo: object) -> URL:
        return self


# users meet it as fasturi.whatwg.URL (tracebacks, reprs of types)
URL.__module__ = "fasturi.whatwg"


class URLRecord:
    """A URL (URL representation): the parser's working struct.  ``path`` is
    a list of segments, or a str when the URL has an opaque path; ``host`` is
    null or the host serialized."""

    __slots__ = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")

    def __init__(self) -> None:
        self.scheme = ""
        self.username = ""
        self.password = ""
        self.host: Optional[str] = None
        self.port: Optional[int] = None
        self.path: Union[List[str], str] = []
        self.query: Optional[str] = None
        self.fragment: Optional[str] = None

    def is_special(self) -> bool:
        return self.scheme in SPECIAL_SCHEMES

    def has_opaque_path(self) -> bool:
        return isinstance(self.path, str)

    def includes_credentials(self) -> bool:
        return self.username != "" or self.password != ""

    def cannot_have_username_password_port(self) -> bool:
        return self.host is None or self.host == "" or self.scheme == "file"

    def copy_authority(self, base: URLRecord) -> None:
        """Set url's username, password, host and port to base's."""
        self.username = base.username
        self.password = base.password
        self.host = base.host
        self.port = base.port

    def shorten_path(self) -> None:
        """Shorten a url's path."""
        path = self.path
        assert isinstance(path, list)
        if self.scheme == "file" and len(path) == 1 and is_normalized_windows_drive_letter(path[0]):
            return
        if path:
            path.pop()


def is_windows_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] in ":|"


def is_normalized_windows_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] == ":"


def starts_with_windows_drive_letter(s: str) -> bool:
    return len(s) >= 2 and is_windows_drive_letter(s[:2]) and (len(s) == 2 or s[2] in "/\\?#")


def is_single_dot(segment: str) -> bool:
    """A single-dot URL path segment: "." or "%2e" (ASCII case-insensitive)."""
    return segment == "." or segment.lower() == "%2e"


def is_double_dot(segment: str) -> bool:
    """A double-dot URL path segment: "..", ".%2e", "%2e." or "%2e%2e"."""
    return segment == ".." or segment.lower() in (".%2e", "%2e.", "%2e%2e")


# The states of the basic URL parser
SCHEME_START = "scheme start state"
SCHEME = "scheme state"
NO_SCHEME = "no scheme state"
SPECIAL_RELATIVE_OR_AUTHORITY = "special relative or authority state"
PATH_OR_AUTHORITY = "path or authority state"
RELATIVE = "relative state"
RELATIVE_SLASH = "relative slash state"
SPECIAL_AUTHORITY_SLASHES = "special authority slashes state"
SPECIAL_AUTHORITY_IGNORE_SLASHES = "special authority ignore slashes state"
AUTHORITY = "authority state"
HOST = "host state"
HOSTNAME = "hostname state"
PORT = "port state"
FILE = "file state"
FILE_SLASH = "file slash state"
FILE_HOST = "file host state"
PATH_START = "path start state"
PATH = "path state"
OPAQUE_PATH = "opaque path state"
QUERY = "query state"
FRAGMENT = "fragment state"


# Where a run of code points that a state treats alike ends (for a URL that
# is not special, and one that is): the states' steps for "otherwise" are
# run on such a run at once, the same steps in the same order.
PATH_DELIMITERS = ("/?#", "/\\?#")
PATH_SLASHES = ("/", "/\\")  # the path state's, with a state override
OPAQUE_PATH_DELIMITERS = "?#"
AUTHORITY_DELIMITERS = ("@/?#", "@/\\?#")
HOST_DELIMITERS = (":/?#[]", ":/\\?#[]")
QUERY_DELIMITERS = "#"


def _run_end(delimiters: str, input: str, pointer: int) -> int:
    """The index of the first of ``delimiters`` at or after ``pointer``, or
    the length of ``input``."""
    end = len(input)
    for delimiter in delimiters:
        found = input.find(delimiter, pointer, end)
        if found != -1:
            end = found
    return end


def remaining_starts_with(input: str, pointer: int, prefix: Union[str, Tuple[str, ...]]) -> bool:
    """Whether remaining (the code points after c) starts with ``prefix``."""
    return 0 <= pointer < len(input) and input.startswith(prefix, pointer + 1)


def _api_failure(detail: str) -> InvalidURL:
    """The failure a state override ends in where the value does not fit
    the state (an API validation error, which the standard leaves unnamed;
    the setters ignore it)."""
    return InvalidURL("setter-value", detail)


def start_query_or_fragment(url: URLRecord, c: str) -> str:
    """c is "?" (or "#"): set url's query (or fragment) to the empty string;
    the query (or fragment) state is the next state."""
    if c == "?":
        url.query = ""
        return QUERY
    url.fragment = ""
    return FRAGMENT


def basic_url_parse(
    input: str,
    base: Optional[URLRecord] = None,
    url: Optional[URLRecord] = None,
    state_override: Optional[str] = None,
) -> URLRecord:
    """The basic URL parser (UTF-8): returns url, or raises InvalidURL
    (failure).

    With ``url`` and ``state_override`` (the API's setters), ``url`` is
    modified in place and returned where the standard's steps "return";
    where they return failure, InvalidURL is raised and what was set on
    ``url`` before stays set, as the standard has it.
    """
    if url is None:
        url = URLRecord()
        # Remove leading and trailing C0 control or space (invalid-URL-unit
        # validation error).
        input = input.strip(C0_CONTROL_OR_SPACE)
    # Remove all ASCII tab or newline (invalid-URL-unit validation error).
    if any(c in input for c in ASCII_TAB_OR_NEWLINE):
        input = input.replace("\t", "").replace("\n", "").replace("\r", "")
    state = state_override or SCHEME_START
    buffer = ""
    at_sign_seen = inside_brackets = password_token_seen = False
    # the authority state's username and password, as they are appended to
    username: List[str] = []
    password: List[str] = []
    pointer = 0
    length = len(input)

    while True:
        c = input[pointer] if 0 <= pointer < length else EOF

        if state == SCHEME_START:
            if c in ASCII_ALPHA:
                buffer += c.lower()
                state = SCHEME
            elif state_override is None:
                state = NO_SCHEME
                pointer -= 1
            else:
                raise _api_failure("the scheme does not begin with an ASCII letter")

        elif state == SCHEME:
            if c in ASCII_ALPHANUMERIC or c in "+-.":
                buffer += c.lower()
            elif c == ":":
                if state_override is not None:
                    if url.is_special() and buffer not in SPECIAL_SCHEMES:
                        return url
                    if not url.is_special() and buffer in SPECIAL_SCHEMES:
                        return url
                    if (url.includes_credentials() or url.port is not None) and buffer == "file":
                        return url
                    if url.scheme == "file" and url.host == "":
                        return url
                url.scheme = buffer
                if state_override is not None:
                    if url.port is not None and url.port == SPECIAL_SCHEMES.get(url.scheme):
                        url.port = None
                    return url
                buffer = ""
                if url.scheme == "file":
                    state = FILE
                elif url.is_special() and base is not None and base.scheme == url.scheme:
                    state = SPECIAL_RELATIVE_OR_AUTHORITY
                elif url.is_special():
                    state = SPECIAL_AUTHORITY_SLASHES
                elif remaining_starts_with(input, pointer, "/"):
                    state = PATH_OR_AUTHORITY
                    pointer += 1
                else:
                    url.path = ""
                    state = OPAQUE_PATH
            elif state_override is None:
                # start over from the first code point in input
                buffer = ""
                state = NO_SCHEME
                pointer = -1
            else:
                raise _api_failure("the scheme holds a code point a scheme cannot")

        elif state == NO_SCHEME:
            if base is None or (base.has_opaque_path() and c != "#"):
                raise InvalidURL("missing-scheme-non-relative-URL")
            elif base.has_opaque_path() and c == "#":
                url.scheme = base.scheme
                url.path = base.path
                url.query = base.query
                url.fragment = ""
                state = FRAGMENT
            elif base.scheme != "file":
                state = RELATIVE
                pointer -= 1
            else:
                state = FILE
                pointer -= 1

        elif state == SPECIAL_RELATIVE_OR_AUTHORITY:
            if c == "/" and remaining_starts_with(input, pointer, "/"):
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 1
            else:
                state = RELATIVE
                pointer -= 1

        elif state == PATH_OR_AUTHORITY:
            if c == "/":
                state = AUTHORITY
            else:
                state = PATH
                pointer -= 1

        elif state == RELATIVE:
            assert base is not None and base.scheme != "file"
            url.scheme = base.scheme
            if c == "/":
                state = RELATIVE_SLASH
            elif url.is_special() and c == "\\":
                state = RELATIVE_SLASH
            else:
                url.copy_authority(base)
                url.path = list(base.path)
                url.query = base.query
                if c in "?#":
                    state = start_query_or_fragment(url, c)
                elif c != EOF:
                    url.query = None
                    url.shorten_path()
                    state = PATH
                    pointer -= 1

        elif state == RELATIVE_SLASH:
            assert base is not None
            if url.is_special() and c in ("/", "\\"):
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
            elif c == "/":
                state = AUTHORITY
            else:
                url.copy_authority(base)
                state = PATH
                pointer -= 1

        elif state == SPECIAL_AUTHORITY_SLASHES:
            if c == "/" and remaining_starts_with(input, pointer, "/"):
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 1
            else:
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer -= 1

        elif state == SPECIAL_AUTHORITY_IGNORE_SLASHES:
            if c not in ("/", "\\"):
                state = AUTHORITY
                pointer -= 1

        elif state == AUTHORITY:
            if c == "@":
                if at_sign_seen:
                    buffer = "%40" + buffer
                at_sign_seen = True
                # For each code point of buffer: the first ":" while no
                # password token was seen switches to the password; every
                # other is UTF-8 percent-encoded with the userinfo set and
                # appended to the username or the password.
                if not password_token_seen and ":" in buffer:
                    username_part, _, buffer = buffer.partition(":")
                    username.append(utf8_percent_encode(username_part, USERINFO_SET))
                    password_token_seen = True
                encoded = utf8_percent_encode(buffer, USERINFO_SET)
                (password if password_token_seen else username).append(encoded)
                buffer = ""
            elif c == EOF or c in "/?#" or (url.is_special() and c == "\\"):
                if at_sign_seen and buffer == "":
                    raise InvalidURL("host-missing")
                url.username = "".join(username)
                url.password = "".join(password)
                pointer -= len(buffer) + 1
                buffer = ""
                state = HOST
            else:
                # c, and the code points up to the next delimiter
                end = _run_end(AUTHORITY_DELIMITERS[url.is_special()], input, pointer)
                buffer += input[pointer:end]
                pointer = end - 1

        elif state == HOST or state == HOSTNAME:
            if state_override is not None and url.scheme == "file":
                pointer -= 1
                state = FILE_HOST
            elif c == ":" and not inside_brackets:
                if buffer == "":
                    raise InvalidURL("host-missing")
                if state_override == HOSTNAME:
                    raise _api_failure("a hostname cannot have a port")
                url.host = host_parse(buffer, not url.is_special())
                buffer = ""
                state = PORT
            elif c == EOF or c in "/?#" or (url.is_special() and c == "\\"):
                pointer -= 1
                if url.is_special() and buffer == "":
                    raise InvalidURL("host-missing")
                elif (
                    state_override is not None
                    and buffer == ""
                    and (url.includes_credentials() or url.port is not None)
                ):
                    raise _api_failure("a URL with credentials or a port cannot have an empty host")
                url.host = host_parse(buffer, not url.is_special())
                buffer = ""
                state = PATH_START
                if state_override is not None:
                    return url
            else:
                if c == "[":
                    inside_brackets = True
                if c == "]":
                    inside_brackets = False
                # c, and the code points up to the next delimiter or bracket
                end = _run_end(HOST_DELIMITERS[url.is_special()], input, pointer + 1)
                buffer += input[pointer:end]
                pointer = end - 1

        elif state == PORT:
            if c in ASCII_DIGITS:
                buffer += c
            elif (
                c == EOF
                or c in "/?#"
                or (url.is_special() and c == "\\")
                or state_override is not None
            ):
                if buffer != "":
                    # int() refuses very long decimal strings (Python 3.11+)
                    digits = buffer.lstrip("0")
                    port = int(digits) if 0 < len(digits) <= 5 else (0 if not digits else 1 << 16)
                    if port > 65535:
                        raise InvalidURL("port-out-of-range")
                    url.port = None if port == SPECIAL_SCHEMES.get(url.scheme) else port
                    buffer = ""
                    if state_override is not None:
                        return url
                if state_override is not None:
                    raise _api_failure("the port does not begin with a digit")
                state = PATH_START
                pointer -= 1
            else:
                raise InvalidURL("port-invalid")

        elif state == FILE:
            url.scheme = "file"
            url.host = ""
            if c in ("/", "\\"):
                state = FILE_SLASH
            elif base is not None and base.scheme == "file":
                url.host = base.host
                url.path = list(base.path)
                url.query = base.query
                if c in "?#":
                    state = start_query_or_fragment(url, c)
                elif c != EOF:
                    url.query = None
                    if not starts_with_windows_drive_letter(input[pointer:]):
                        url.shorten_path()
                    else:
                        url.path = []
                    state = PATH
                    pointer -= 1
            else:
                state = PATH
                pointer -= 1

        elif state == FILE_SLASH:
            if c in ("/", "\\"):
                state = FILE_HOST
            else:
                if base is not None and base.scheme == "file":
                    url.host = base.host
                    if (
                        not starts_with_windows_drive_letter(input[pointer:])
                        and base.path
                        and is_normalized_windows_drive_letter(base.path[0])
                    ):
                        assert isinstance(url.path, list)
                        url.path.append(base.path[0])
                state = PATH
                pointer -= 1

        elif state == FILE_HOST:
            if c == EOF or c in "/\\?#":
                pointer -= 1
                if state_override is None and is_windows_drive_letter(buffer):
                    # buffer is not reset here and is used in the path state
                    state = PATH
                elif buffer == "":
                    url.host = ""
                    if state_override is not None:
                        return url
                    state = PATH_START
                else:
                    host = host_parse(buffer, not url.is_special())
                    if host == "localhost":
                        host = ""
                    url.host = host
                    if state_override is not None:
                        return url
                    buffer = ""
                    state = PATH_START
            else:
                buffer += c

        elif state == PATH_START:
            if url.is_special():
                state = PATH
                if c not in ("/", "\\"):
                    pointer -= 1
            elif state_override is None and c in "?#":
                state = start_query_or_fragment(url, c)
            elif c != EOF:
                state = PATH
                if c != "/":
                    pointer -= 1
            elif state_override is not None and url.host is None:
                assert isinstance(url.path, list)
                url.path.append("")

        elif state == PATH:
            path = url.path
            assert isinstance(path, list)
            slash = c == "/" or (url.is_special() and c == "\\")
            if c == EOF or slash or (state_override is None and c in "?#"):
                if is_double_dot(buffer):
                    url.shorten_path()
                    if not slash:
                        path.append("")
                elif is_single_dot(buffer) and not slash:
                    path.append("")
                elif not is_single_dot(buffer):
                    if url.scheme == "file" and not path and is_windows_drive_letter(buffer):
                        buffer = buffer[0] + ":"
                    path.append(buffer)
                buffer = ""
                if c in "?#":  # (only where there is no state override)
                    state = start_query_or_fragment(url, c)
            else:
                # c, and with it the code points up to the next delimiter
                # (the same step for each of them, in one go)
                delimiters = PATH_DELIMITERS if state_override is None else PATH_SLASHES
                end = _run_end(delimiters[url.is_special()], input, pointer)
                buffer += utf8_percent_encode(input[pointer:end], PATH_SET)
                pointer = end - 1

        elif state == OPAQUE_PATH:
            assert isinstance(url.path, str)
            if c in "?#":
                state = start_query_or_fragment(url, c)
            elif c != EOF:
                # c, and the code points up to the next "?" or "#": each is
                # UTF-8 percent-encoded with the C0 control percent-encode
                # set, but U+0020 SPACE, which is appended as it is, or as
                # "%20" where remaining starts with "?" or "#" (the last code
                # point of a run that one of them ends)
                end = _run_end(OPAQUE_PATH_DELIMITERS, input, pointer)
                encoded = utf8_percent_encode(input[pointer:end], C0_CONTROL_SET)
                if end < length and encoded.endswith(" "):
                    encoded = encoded[:-1] + "%20"
                url.path += encoded
                pointer = end - 1

        elif state == QUERY:
            if (state_override is None and c == "#") or c == EOF:
                query_set = SPECIAL_QUERY_SET if url.is_special() else QUERY_SET
                url.query = (url.query or "") + utf8_percent_encode(buffer, query_set)
                buffer = ""
                if c == "#":
                    state = start_query_or_fragment(url, c)
            else:
                # c, and the code points up to the next "#" (up to the end
                # with a state override: "#" is then part of the query)
                end = length if state_override else _run_end(QUERY_DELIMITERS, input, pointer)
                buffer += input[pointer:end]
                pointer = end - 1

        elif state == FRAGMENT:
            if c != EOF:
                # c, and every code point after it (the fragment state is
                # the last one)
                url.fragment = (url.fragment or "") + utf8_percent_encode(
                    input[pointer:], FRAGMENT_SET
                )
                pointer = length - 1

        if pointer >= length:
            break
        pointer += 1

    return url


def path_serialize(url: URLRecord) -> str:
    """The URL path serializer."""
    if isinstance(url.path, str):
        return url.path
    return "".join("/" + segment for segment in url.path)


def serialize(url: URLRecord, exclude_fragment: bool = False) -> str:
    """The URL serializer."""
    output = url.scheme + ":"
    if url.host is not None:
        output += "//"
        if url.includes_credentials():
            output += url.username
            if url.password != "":
                output += ":" + url.password
            output += "@"
        output += url.host
        if url.port is not None:
            output += ":" + str(url.port)
    if url.host is None and not url.has_opaque_path() and len(url.path) > 1 and url.path[0] == "":
        output += "/."
    output += path_serialize(url)
    if url.query is not None:
        output += "?" + url.query
    if not exclude_fragment and url.fragment is not None:
        output += "#" + url.fragment
    return output


def origin(url: URLRecord) -> str:
    """The serialization of url's origin ("null" for an opaque origin)."""
    if url.scheme == "blob":
        try:
            path_url = basic_url_parse(path_serialize(url))
        except InvalidURL:
            return "null"
        if path_url.scheme in ("http", "https", "file"):
            return origin(path_url)
        return "null"
    if url.scheme in ("ftp", "http", "https", "ws", "wss"):
        assert url.host is not None
        port = "" if url.port is None else ":" + str(url.port)
        return url.scheme + "://" + url.host + port
    return "null"


# -- The API -----------------------------------------------------------------


def scalar_value_string(func: str, name: str, value: object) -> str:
    """``value`` as a scalar value string (USVString): lone surrogates
    become U+FFFD; bytes are UTF-8, decoded with U+FFFD for errors."""
    if isinstance(value, str):
        return usv(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    raise type_error(func, name, value, "str or bytes")


def to_url(record: URLRecord) -> URL:
    blob_origin = origin(record) if record.scheme == "blob" else None
    return URL._from_record(
        serialize(record),
        record.scheme,
        record.username,
        record.password,
        record.host,
        record.port,
        path_serialize(record),
        record.query,
        record.fragment,
        blob_origin,
    )


def _api_parse(func: str, input: object, base: object, input_name: str = "input") -> URLRecord:
    """The API URL parser: ``base`` parsed first, failing the whole."""
    text = scalar_value_string(func, input_name, input)
    parsed_base = None
    if base is not None:
        base_text = scalar_value_string(func, "base", base)
        try:
            parsed_base = basic_url_parse(base_text)
        except InvalidURL as e:
            raise InvalidURL(e.reason, "the base URL fails to parse: " + e.detail) from None
    return basic_url_parse(text, parsed_base)


def parse(input: Union[str, bytes], base: Union[str, bytes, None] = None) -> URL:
    """Parse ``input`` against ``base`` (URL Standard, the API URL parser).

    Raises ``InvalidURL`` (a ``ValueError``) where the parser returns failure.
    """
    return to_url(_api_parse("parse", input, base))


def can_parse(input: Union[str, bytes], base: Union[str, bytes, None] = None) -> bool:
    """Whether ``parse(input, base)`` succeeds (URL Standard, canParse)."""
    try:
        _api_parse("can_parse", input, base)
    except InvalidURL:
        return False
    return True


def resolve(base: Union[str, bytes], ref: Union[str, bytes]) -> str:
    """The ``href`` of ``ref`` parsed against ``base`` (both must parse).

    Raises ``InvalidURL`` where either fails.
    """
    if base is None:
        raise type_error("resolve", "base", base, "str or bytes")
    return serialize(_api_parse("resolve", ref, base, "ref"))


# -- The API's setters ----------------------------------------------------------
# Each sets one part of a URL record as the URL class's setter of that name
# does, and returns the record (the href setter's is a new one).  Where the
# basic URL parser returns failure under a state override, the setter does
# nothing more: what the parser set before it failed stays set (a host
# setter's "example.com:99999" sets the host, not the port).


def record_of(url: URL) -> URLRecord:
    """The URL record a URL holds.  Its path is opaque exactly where its
    host is null and its path does not begin with "/" (a URL with a null
    host and a list of segments has at least one, as the path state and
    the path start state make it); no segment holds "/"."""
    record = URLRecord()
    record.scheme = url._scheme
    record.username = url._username
    record.password = url._password
    record.host = url._host
    record.port = url._port
    if url._host is None and not url._path.startswith("/"):
        record.path = url._path
    else:
        record.path = url._path.split("/")[1:]
    record.query = url._query
    record.fragment = url._fragment
    return record


def _parse_with_state_override(url: URLRecord, input: str, state: str) -> URLRecord:
    """Basic URL parse input with url as url and state as state override;
    a failure leaves url as the parser left it."""
    try:
        basic_url_parse(input, url=url, state_override=state)
    except InvalidURL:
        pass
    return url


def set_href(url: URLRecord, value: str) -> URLRecord:
    """The href setter: the value parsed on its own (its failure raises
    InvalidURL, where the standard throws a TypeError)."""
    return basic_url_parse(value)


def set_protocol(url: URLRecord, value: str) -> URLRecord:
    return _parse_with_state_override(url, value + ":", SCHEME_START)


def set_username(url: URLRecord, value: str) -> URLRecord:
    if not url.cannot_have_username_password_port():
        # set the username
        url.username = utf8_percent_encode(value, USERINFO_SET)
    return url


def set_password(url: URLRecord, value: str) -> URLRecord:
    if not url.cannot_have_username_password_port():
        # set the password
        url.password = utf8_percent_encode(value, USERINFO_SET)
    return url


def set_host(url: URLRecord, value: str) -> URLRecord:
    if url.has_opaque_path():
        return url
    return _parse_with_state_override(url, value, HOST)


def set_hostname(url: URLRecord, value: str) -> URLRecord:
    if url.has_opaque_path():
        return url
    return _parse_with_state_override(url, value, HOSTNAME)


def set_port(url: URLRecord, value: str) -> URLRecord:
    if url.cannot_have_username_password_port():
        return url
    if value == "":
        url.port = None
        return url
    return _parse_with_state_override(url, value, PORT)


def set_pathname(url: URLRecord, value: str) -> URLRecord:
    if url.has_opaque_path():
        return url
    url.path = []
    return _parse_with_state_override(url, value, PATH_START)


def set_search(url: URLRecord, value: str) -> URLRecord:
    if value == "":
        url.query = None
        return url
    input = value[1:] if value.startswith("?") else value
    url.query = ""
    return _parse_with_state_override(url, input, QUERY)


def set_hash(url: URLRecord, value: str) -> URLRecord:
    if value == "":
        url.fragment = None
        return url
    input = value[1:] if value.startswith("#") else value
    url.fragment = ""
    return _parse_with_state_override(url, input, FRAGMENT)


#: The URL class's setters, by the name of the attribute they set.
SETTERS = {
    "href": set_href,
    "protocol": set_protocol,
    "username": set_username,
    "password": set_password,
    "host": set_host,
    "hostname": set_hostname,
    "port": set_port,
    "pathname": set_pathname,
    "search": set_search,
    "hash": set_hash,
}


def setter_value(name: str, value: object) -> str:
    """A setter's value as the scalar value string the setter takes: a str
    (lone surrogates replaced) or bytes (UTF-8) as ``parse`` takes them, and
    for ``port`` an int too (its decimal text, as JavaScript gives it)."""
    if name == "port" and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, (str, bytes, bytearray, memoryview)):
        expected = "str, bytes or int" if name == "port" else "str or bytes"
        raise type_error("replace", name, value, expected)
    return scalar_value_string("replace", name, value)


def replace(url: URL, changes: Dict[str, object]) -> URL:
    """``url`` with the setter of each of ``changes`` applied, in order."""
    record = record_of(url)
    for name, value in changes.items():
        setter = SETTERS.get(name)
        if setter is None:
            raise TypeError(
                f"replace() got an unexpected keyword argument {name!r}; "
                f"the setters are {', '.join(SETTERS)}"
            )
        record = setter(record, setter_value(name, value))
    return to_url(record)
