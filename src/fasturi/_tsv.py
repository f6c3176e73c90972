"""The command line's one TSV escaping rule (docs/cli.md), for the line path
and the reference column kernels; csrc/fasturi_cli.h is the compiled form.

A field is written as its text with "\\" as "\\\\"; TAB, LF and CR as "\\t",
"\\n", "\\r"; every other C0 control and DEL as "\\xHH"; the C1 controls
U+0080-U+009F and U+2028, U+2029 (which some readers take for line ends) as
"\\uHHHH"; a byte that is not UTF-8 (a lone surrogate of surrogateescape) as
"\\xHH".  An undefined field is "\\N", a line that could not be processed
"\\E": neither can be the escaped form of any text.
"""

from __future__ import annotations

import re
from typing import Optional

NULL = "\\N"
ERROR = "\\E"

_SPECIAL = re.compile("[\\\\\x00-\x1f\x7f\x80-\x9f\u2028\u2029\udc80-\udcff]")
_SHORT = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(m: "re.Match[str]") -> str:
    c = m.group()
    if c in _SHORT:
        return _SHORT[c]
    code = ord(c)
    if code < 0x80:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the raw byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def escape(value: Optional[str]) -> str:
    """One TSV field: ``value`` escaped, or ``\\N`` for None."""
    if value is None:
        return NULL
    if value.isprintable() and "\\" not in value:  # nearly every URI: no scan
        return value
    return _SPECIAL.sub(_escape, value)
