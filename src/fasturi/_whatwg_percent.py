"""The URL Standard's percent-encoded bytes: its percent-encode sets, UTF-8
percent-encoding and percent-decoding, as the reference parser
(``_whatwg_py``) and the reference URLSearchParams (``_search_params_py``)
both use them."""

from __future__ import annotations

ASCII_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")

# -- Percent-encoded bytes ---------------------------------------------------
# A percent-encode set holds every code point above U+007E; the sets below
# list their ASCII members only, and `utf8_percent_encode` encodes every
# byte above 0x7F.

# C0 control percent-encode set: C0 controls and all code points > U+007E
C0_CONTROL_SET = frozenset(map(chr, range(0x20))) | {"\x7f"}
# fragment: C0 control set and U+0020 SPACE, ", <, >, `
FRAGMENT_SET = C0_CONTROL_SET | frozenset(' "<>`')
# query: C0 control set and U+0020 SPACE, ", #, <, >
QUERY_SET = C0_CONTROL_SET | frozenset(' "#<>')
# special-query: query set and '
SPECIAL_QUERY_SET = QUERY_SET | {"'"}
# path: query set and ?, ^, `, {, }
PATH_SET = QUERY_SET | frozenset("?^`{}")
# userinfo: path set and /, :, ;, =, @, [ to ] inclusive, |
USERINFO_SET = PATH_SET | frozenset("/:;=@[\\]|")
# component: userinfo set and $ to & inclusive, +, ,
COMPONENT_SET = USERINFO_SET | frozenset("$%&+,")


def _percent_encode_table(percent_encode_set: frozenset[str]) -> dict[int, str]:
    """The set as a str.translate table over bytes (U+0000 to U+00FF): each
    member and each byte above 0x7F to its percent-encoding."""
    table = {ord(c): f"%{ord(c):02X}" for c in percent_encode_set}
    table.update({byte: f"%{byte:02X}" for byte in range(0x80, 0x100)})
    return table


_TABLES = {
    s: _percent_encode_table(s)
    for s in (
        C0_CONTROL_SET,
        FRAGMENT_SET,
        QUERY_SET,
        SPECIAL_QUERY_SET,
        PATH_SET,
        USERINFO_SET,
        COMPONENT_SET,
    )
}


def utf8_percent_encode(input: str, percent_encode_set: frozenset[str]) -> str:
    """UTF-8 percent-encode a code point (or a string of them) using a set:
    each byte of its UTF-8 encoding that is in the set (every byte above
    0x7F is) becomes %XX."""
    if not input.isascii():
        input = input.encode("utf-8").decode("latin-1")  # a code point per byte
    return input.translate(_TABLES[percent_encode_set])


def percent_decode(data: bytes) -> bytes:
    """Percent-decode a byte sequence."""
    if b"%" not in data:
        return data
    output = bytearray()
    i = 0
    n = len(data)
    while i < n:
        byte = data[i]
        if (
            byte == 0x25
            and i + 2 < n
            and chr(data[i + 1]) in ASCII_HEX_DIGITS
            and chr(data[i + 2]) in ASCII_HEX_DIGITS
        ):
            output.append(int(data[i + 1 : i + 3], 16))
            i += 3
            continue
        output.append(byte)
        i += 1
    return bytes(output)
