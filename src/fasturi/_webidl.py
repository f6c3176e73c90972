"""Web IDL's conversions of arguments, as the URL Standard's API takes them
in Python: a ``USVString``, and the ``record<USVString, USVString>`` or
``sequence<sequence<USVString>>`` a URLSearchParams is initialized with.

Not hot (the compiled twins take a plain ``str`` without lone surrogates
themselves), and the same for both twins of the URL Standard's API, which
both import it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Tuple

from ._errors import type_error

__all__ = ["init_pairs", "usv", "usv_string"]

Pair = Tuple[str, str]


def usv(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (a scalar value
    string)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def usv_string(func: str, argument: str, value: object) -> str:
    """``value`` as a USVString: a ``str`` with each lone surrogate replaced
    by U+FFFD (a subclass's text as a plain ``str``); another type raises
    ``TypeError`` (Python does not turn ``1`` or ``None`` into text unasked,
    as JavaScript does)."""
    if type(value) is not str:
        if not isinstance(value, str):
            raise type_error(func, argument, value)
        value = str.__str__(value)
    return usv(value)


def init_pairs(init: object) -> List[Pair]:
    """The pairs of a URLSearchParams ``init`` that is neither a string nor
    a byte sequence: a record (a mapping) or a sequence of pairs, each name
    and value a USVString."""
    if isinstance(init, Mapping):
        # a record<USVString, USVString>: keys that convert alike are one
        # key, the last value at the first one's place
        record: Dict[str, str] = {}
        for name, value in init.items():
            record[usv_string("SearchParams", "init", name)] = usv_string(
                "SearchParams", "init", value
            )
        return list(record.items())
    try:
        sequences = iter(init)  # type: ignore[call-overload]
    except TypeError:
        raise type_error(
            "SearchParams", "init", init, "str, bytes, a mapping or an iterable of pairs"
        ) from None
    output: List[Pair] = []
    for i, inner in enumerate(sequences):
        # a sequence<USVString> of size 2 (a str is not one: Web IDL takes
        # no string primitive for a sequence)
        pair = None if isinstance(inner, (str, bytes)) else _pair(inner)
        if pair is None:
            raise TypeError(
                f"SearchParams() argument 'init' item {i} must be a pair (name, value), "
                f"not {_describe(inner)}"
            )
        output.append(
            (
                usv_string("SearchParams", "init", pair[0]),
                usv_string("SearchParams", "init", pair[1]),
            )
        )
    return output


def _pair(inner: object) -> Optional[List[Any]]:
    try:
        items = list(inner)  # type: ignore[call-overload]
    except TypeError:
        return None
    return items if len(items) == 2 else None


def _describe(inner: object) -> str:
    try:
        return f"{type(inner).__name__} of {len(inner)}"  # type: ignore[arg-type]
    except TypeError:
        return type(inner).__name__
