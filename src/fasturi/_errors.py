"""The ``TypeError`` every public function raises for an argument of the
wrong type, in the one wording docs/ARCHITECTURE.md makes a contract:
``<func>() argument '<name>' must be str, not bytes``.  Both twins of every
module build it here, so their messages cannot drift apart."""

from __future__ import annotations

from typing import Optional


def type_error(
    func: str, name: str, value: object, expected: str = "str", item: Optional[int] = None
) -> TypeError:
    """The error for argument ``name`` of ``func`` (or its item ``item``); the caller raises it."""
    where = f"argument '{name}'" if item is None else f"argument '{name}' item {item}"
    return TypeError(f"{func}() {where} must be {expected}, not {type(value).__name__}")


def item_error(func: str, index: int, value: object) -> TypeError:
    """The error for item ``index`` of a batch function's input list."""
    return TypeError(f"{func}() item {index} must be str, not {type(value).__name__}")


def rfc_error(func: str, rfc: object) -> ValueError:
    """The error for an argument ``rfc`` that is neither 3986 nor 2396."""
    return ValueError(f"{func}() argument 'rfc' must be 3986 or 2396, not {rfc!r}")
