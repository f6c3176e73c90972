"""What a call does, in a form two implementations are compared on.

``outcome(fn, *args, **kwargs)`` runs the call and describes it: its result
with the type of every part (``str`` and a subclass, a tuple and a named
tuple differ), or its exception (type, message, the types of its cause and
context, and an ``InvalidURI``'s position and rule); then the warnings it
issued.  Equal outcomes mean the caller cannot tell the two calls apart.
"""

from __future__ import annotations

import warnings


def typed(value):
    """The value with the type of every part spelled out, for exact comparison."""
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(typed(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((typed(k), typed(v)) for k, v in value.items()))
    return (type(value), value)


def outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the exception is the outcome
            got = (
                "raise",
                type(exc),
                str(exc),
                type(exc.__cause__),
                type(exc.__context__),
                getattr(exc, "position", None),
                getattr(exc, "rule", None),
            )
        else:
            got = ("return", typed(result))
    # A ResourceWarning comes from whatever the garbage collector happens to
    # finalize during the call, never from the function itself.
    warned = tuple(
        (w.category, str(w.message)) for w in caught if w.category is not ResourceWarning
    )
    return got + (warned,)
