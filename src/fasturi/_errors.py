"""The ``TypeError`` every public function raises for an argument of the
wrong type, in the one wording docs/ARCHITECTURE.md makes a contract:
``<func>() argument '<name>' must be str, not bytes``.  Both twins of every
module build it here, so their messages cannot drift apart."""

from __future__ import annotations

import operator

# typing is not imported at run time (start-up); type checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
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


def rfc_number(func: str, rfc: object) -> int:
    """``rfc`` as the RFC it names, 3986 or 2396: a ``TypeError`` unless it
    is an integer (``True`` names no RFC), else ``rfc_error``'s."""
    if isinstance(rfc, bool) or not hasattr(type(rfc), "__index__"):
        raise type_error(func, "rfc", rfc, "int")
    number = operator.index(rfc)  # type: ignore[arg-type]
    if number != 3986 and number != 2396:
        raise rfc_error(func, rfc)
    return number
