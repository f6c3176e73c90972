"""The URL Standard's application/x-www-form-urlencoded parser and
serializer, and its URLSearchParams class.

The reference twin: it reads like the standard beside it
("application/x-www-form-urlencoded" and "URLSearchParams class"), step
for step.  Names and values are scalar value strings: a ``str`` argument
holding lone surrogates has each replaced by U+FFFD, as Web IDL's
conversion to ``USVString`` does; an argument of another type raises
``TypeError`` (Python does not turn ``1`` or ``None`` into text unasked,
as JavaScript does).  Those conversions are ``_webidl``'s, which the
compiled twin shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterable, Iterator, List, Optional, Tuple, Union

from ._types import UNPICKLE
from ._webidl import init_pairs, usv_string
from ._whatwg_percent import COMPONENT_SET, percent_decode

__all__ = ["SearchParams", "urlencoded_parse", "urlencoded_serialize", "urlencoded_string_parse"]

Pair = Tuple[str, str]

# The application/x-www-form-urlencoded percent-encode set: the component
# percent-encode set and U+0021 (!), U+0027 (') to U+0029 RIGHT
# PARENTHESIS, and U+007E (~) -- all but the ASCII alphanumerics, "*", "-",
# "." and "_".
URLENCODED_SET = COMPONENT_SET | frozenset("!'()~")

# percent-encode after encoding with UTF-8 and that set, spaceAsPlus: the
# set as a str.translate table over bytes (each member, and each byte above
# 0x7F, to its %XX; U+0020 SPACE to "+")
_URLENCODED_TABLE = {ord(c): f"%{ord(c):02X}" for c in URLENCODED_SET}
_URLENCODED_TABLE.update({byte: f"%{byte:02X}" for byte in range(0x80, 0x100)})
_URLENCODED_TABLE[0x20] = "+"


def urlencoded_percent_encode(input: str) -> str:
    """Percent-encode after encoding, with UTF-8, ``input`` and the
    application/x-www-form-urlencoded percent-encode set (spaceAsPlus)."""
    if not input.isascii():
        input = input.encode("utf-8").decode("latin-1")  # a code point per byte
    return input.translate(_URLENCODED_TABLE)


def urlencoded_parse(input: bytes) -> List[Pair]:
    """The application/x-www-form-urlencoded parser."""
    output: List[Pair] = []
    # 1. split on 0x26 (&)
    for sequence in input.split(b"&"):
        # 3.1 an empty byte sequence is skipped
        if sequence == b"":
            continue
        # 3.2-3.3 name and value: either side of the first 0x3D (=), or the
        # whole and the empty byte sequence
        name, _, value = sequence.partition(b"=")
        # 3.4 0x2B (+) is 0x20 (SP)
        name = name.replace(b"+", b" ")
        value = value.replace(b"+", b" ")
        # 3.5 UTF-8 decode without BOM (U+FFFD for what is not UTF-8) of the
        # percent-decoding
        output.append(
            (
                percent_decode(name).decode("utf-8", "replace"),
                percent_decode(value).decode("utf-8", "replace"),
            )
        )
    return output


def urlencoded_string_parse(input: str) -> List[Pair]:
    """The application/x-www-form-urlencoded string parser: ``input`` (a
    scalar value string) UTF-8 encoded, then parsed."""
    return urlencoded_parse(input.encode("utf-8"))


def urlencoded_serialize(tuples: Iterable[Pair]) -> str:
    """The application/x-www-form-urlencoded serializer (UTF-8)."""
    return "&".join(
        urlencoded_percent_encode(name) + "=" + urlencoded_percent_encode(value)
        for name, value in tuples
    )


# -- Initialize ------------------------------------------------------------------

_Init = Union[str, bytes, Mapping[str, str], Iterable[Tuple[str, str]]]


def _init_list(init: object) -> List[Pair]:
    """The list a URLSearchParams is initialized with (the constructor's
    steps, the string's leading "?" already dropped, and initialize)."""
    if isinstance(init, str):
        return urlencoded_string_parse(usv_string("SearchParams", "init", init))
    if isinstance(init, (bytes, bytearray, memoryview)):
        # a byte sequence: the urlencoded parser's own input
        return urlencoded_parse(bytes(init))
    # a record or a sequence of pairs
    return init_pairs(init)


# -- URLSearchParams ------------------------------------------------------------


class SearchParams:
    """The URL Standard's URLSearchParams: a list of (name, value) pairs.

    ``init`` is a query string (a leading "?" dropped; ``bytes`` are the
    urlencoded parser's input as they are), a mapping, or an iterable of
    (name, value) pairs.  ``str()`` is the standard's serialization.
    """

    __slots__ = ("_list",)

    _list: List[Pair]

    def __init__(self, init: _Init = "") -> None:
        # If init is a string and starts with U+003F (?), remove it.
        if isinstance(init, str) and init.startswith("?"):
            init = init[1:]
        elif isinstance(init, (bytes, bytearray, memoryview)) and bytes(init[:1]) == b"?":
            init = bytes(init[1:])
        self._list = _init_list(init)

    def append(self, name: str, value: str) -> None:
        """Append (name, value)."""
        self._list.append(
            (usv_string("append", "name", name), usv_string("append", "value", value))
        )

    def delete(self, name: str, value: Optional[str] = None) -> None:
        """Remove every pair whose name is ``name`` (and whose value is
        ``value``, when given)."""
        name = usv_string("delete", "name", name)
        if value is None:
            self._list[:] = [pair for pair in self._list if pair[0] != name]
        else:
            value = usv_string("delete", "value", value)
            self._list[:] = [pair for pair in self._list if pair != (name, value)]

    def get(self, name: str) -> Optional[str]:
        """The value of the first pair whose name is ``name``, or None."""
        name = usv_string("get", "name", name)
        for pair_name, value in self._list:
            if pair_name == name:
                return value
        return None

    def get_all(self, name: str) -> List[str]:
        """The values of every pair whose name is ``name``, in order."""
        name = usv_string("get_all", "name", name)
        return [value for pair_name, value in self._list if pair_name == name]

    def has(self, name: str, value: Optional[str] = None) -> bool:
        """Whether a pair has the name ``name`` (and the value ``value``,
        when given)."""
        name = usv_string("has", "name", name)
        if value is None:
            return any(pair_name == name for pair_name, _ in self._list)
        value = usv_string("has", "value", value)
        return (name, value) in self._list

    def set(self, name: str, value: str) -> None:
        """Set the value of the first pair named ``name`` and remove the
        others of that name, or append (name, value) where there is none."""
        name = usv_string("set", "name", name)
        value = usv_string("set", "value", value)
        for i, (pair_name, _) in enumerate(self._list):
            if pair_name == name:
                self._list[i + 1 :] = [pair for pair in self._list[i + 1 :] if pair[0] != name]
                self._list[i] = (name, value)
                return
        self._list.append((name, value))

    def sort(self) -> None:
        """Sort the pairs by name, stably, comparing names by UTF-16 code
        units as the standard does (U+FFFD sorts after U+1F308)."""
        self._list.sort(key=lambda pair: pair[0].encode("utf-16-be"))

    def keys(self) -> List[str]:
        """Every pair's name, in order."""
        return [name for name, _ in self._list]

    def values(self) -> List[str]:
        """Every pair's value, in order."""
        return [value for _, value in self._list]

    def items(self) -> List[Pair]:
        """The (name, value) pairs, in order."""
        return list(self._list)

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[Pair]:
        # over the list itself, as the standard's iterator is: pairs deleted
        # or added while iterating are missed or seen as they would be there
        return iter(self._list)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def __str__(self) -> str:
        return urlencoded_serialize(self._list)

    def __repr__(self) -> str:
        return f"SearchParams({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SearchParams):
            return self._list == other._list
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Tuple[Any, Tuple[List[Pair]]]:
        # by its pairs, which load as the running twin's SearchParams
        # (_types.UNPICKLE)
        return UNPICKLE.get("search_params", SearchParams), (list(self._list),)

    def __copy__(self) -> SearchParams:
        return SearchParams(self._list)


# Users meet the class as fasturi.whatwg.SearchParams (a pickle names it
# there, and loads as the running twin's).
SearchParams.__module__ = "fasturi.whatwg"
