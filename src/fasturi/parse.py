"""A faster drop-in for the running interpreter's ``urllib.parse``.

Every public name of this Python's ``urllib.parse`` is here -- its
``__all__``, the result classes (``SplitResult``, ``ParseResult``,
``DefragResult`` and their ``*Bytes`` forms) and the undocumented helpers
(``unwrap``, ``splittype``, ``clear_cache`` ...) -- and behaves as the
stdlib's does on this Python: same values, same result classes (the
stdlib's own, so ``isinstance`` holds), same str/bytes handling, exceptions,
messages and warnings, including the security fixes this patch release
carries.  ``urlsplit``, ``urlparse``, ``urlunsplit``, ``urlunparse``,
``urljoin`` and ``urldefrag`` run compiled code (``fasturi._parse_c``), as
do ``quote``, ``quote_plus``, ``quote_from_bytes``, ``unquote``,
``unquote_plus``, ``unquote_to_bytes``, ``urlencode``, ``parse_qs`` and
``parse_qsl`` (``fasturi._quote_c``); every other name is the stdlib's own
object.  Where the stdlib's ``urlsplit`` has an ``lru_cache`` (3.11+), this
one has a least-recently-used cache of the same size with ``cache_info()``,
``cache_clear()``, ``cache_parameters()`` and ``__wrapped__``; it keeps a
result from its key's second use on, so URLs parsed once (the common case in
bulk work) neither evict the ones that repeat nor cost retained memory.

The pure-Python twin of this module IS the stdlib's own code: under
``FASTURI_NO_EXTENSIONS=1`` (or when the extension is not built, or off
CPython) every function here is the ``urllib.parse`` function itself,
re-exported -- the reference the compiled code is tested against.
``IMPLEMENTATION`` says which is active.

``install()`` puts the compiled functions into ``urllib.parse`` itself, so
unmodified code that calls ``urllib.parse.urlsplit(...)`` gets them;
``uninstall()`` restores the originals.  Modules that ran
``from urllib.parse import urlsplit`` before ``install()`` keep the binding
they took, so call it early.  Both stay right when either module is
reloaded: the originals are the stdlib's functions as the compiled modules
last took them (after ``importlib.reload(urllib.parse)``, its new ones),
and ``uninstall()`` puts back only what is one of this module's functions.

The compiled functions answer a call themselves only for arguments of the
exact types they are written for (``str``, ``bytes``, ``bytearray``, the
result classes, tuples and lists, ``None``, ``bool``, ``int``); any other
argument -- a ``str`` or ``bytes`` subclass, a proxy whose ``__class__``
says ``str`` (Django's ``SimpleLazyObject``, werkzeug's ``LocalProxy``), an
object with its own ``__str__`` -- goes to the stdlib's own function, whose
``isinstance`` checks, iteration and method calls then decide.
``urlencode`` quotes exact text, bytes and numbers itself, and from the
first key or value whose quoting is not an exact ASCII ``str`` goes on as the
stdlib's loop does.

The stdlib's functions read their module's globals on every call
(``scheme_chars``, the ``uses_*`` lists, the characters they strip, their
helpers and result classes, one another).  The compiled ones read the
``uses_*`` lists as bound at the time, and answer only while every other
such name (found by reading the running stdlib's code) is bound as it was
at import, or to one of this module's functions; after any other binding
(``urllib.parse.scheme_chars = ...``, ``mock.patch("urllib.parse.X")``) the
stdlib's function answers.  A change is noticed by the dict's version tag
(before 3.12) or a dict watcher (3.12+), so an unchanged module costs a
compare per call; an interpreter with no dict watcher left makes every call
check the names.

Where there is no GIL (free-threaded CPython), the split cache is on, as
the stdlib's is: each thread keeps its calls in a table of the same size of
its own (16 tables, by thread, each under its own lock), so one thread's
calls are kept and evicted as with the GIL, and threads do not wait on each
other; ``cache_info()`` sums the tables (its ``currsize`` can then pass
``maxsize``).  ``urljoin``'s memo of the last base is kept per thread too.

Which rules this Python's stdlib follows (the '//' rules of urlunsplit and
urlunparse, whether urljoin and urldefrag keep an empty query or fragment
apart from a missing one, as from 3.14) is found at import by probing each
function; the 3.15 keywords (``missing_as_none=``, ``keep_empty=``) and
3.14's ``parse_qsl(_stacklevel=)`` are taken exactly where the stdlib's
signature has them.  The compiled code answers ``missing_as_none=False``
(the default) and marks its results so, in the ``_keep_empty`` slot 3.15's
result classes have, as the stdlib does; ``urlunsplit``/``urlunparse``
answer ``keep_empty`` not given (on components that do not carry a true
``_keep_empty``) and ``keep_empty=False``.  Every other value is the
stdlib's to answer, with the keyword passed on as given.

Known differences, none in results but the last: the compiled functions
report ``__module__ == "urllib.parse"`` (so pickling them by reference needs
``install()``); a call with the wrong number of arguments raises
``TypeError`` with Cython's wording; the split cache's statistics follow
its own admission rule above, it counts a call by its argument values, not
by how they were passed, and it does not store calls with argument types
other than str, bytes, bool, int and None.  Warnings: a call the stdlib's
own code answers (and may warn about, such as 3.14's deprecated false
non-str arguments) is kept from its first use, as the stdlib's lru_cache
keeps it, so repeating it warns once, as there.  Because calls answered by
the compiled code are kept only from their second use, the two caches hold
different calls and evict in a different order: a warned-about call that
the stdlib's cache has evicted may still be answered here, without the
repeated warning.  Calls with other argument types are never kept, so they
warn on every use (the stdlib warns on the first only).  While a name the
stdlib reads is bound otherwise than at import, ``urlsplit`` calls go to the
stdlib's own (its ``lru_cache`` answers them, and this cache's statistics
do not count them).  The objects this module re-exports (the result
classes ...) are those of ``urllib.parse`` when this module was imported:
after ``importlib.reload(urllib.parse)``, reload this module too.  And the
stdlib's private tables are honoured when rebound, not when changed in
place: ``_UNSAFE_URL_BYTES_TO_REMOVE.append(...)`` (and its lazily built
``_hextobyte``, and before 3.11 its ``_parse_cache`` and ``_safe_quoters``,
changed in place) changes the stdlib's answers and not these.
"""

from __future__ import annotations

import types as _types
import urllib.parse as _std

# typing is not imported at run time (a drop-in installed from sitecustomize
# is imported by every interpreter); type checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    import typing as _typing
    from typing import Any as _Any
    from urllib.parse import *  # noqa: F403
del TYPE_CHECKING

from ._impl import NO_EXTENSIONS as _pure  # noqa: E402

# The functions that run compiled code (when it is active).
_HOT_SPLIT = ("urlsplit", "urlparse", "urlunsplit", "urlunparse", "urljoin", "urldefrag")
_HOT_QUOTE = (
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
    "parse_qs",
    "parse_qsl",
)
_HOT = _HOT_SPLIT + _HOT_QUOTE


def _stdlib_names() -> dict[str, _Any]:
    """What urllib.parse defines (not what it imports), public and private."""
    names = {}
    for name, value in vars(_std).items():
        if name.startswith("__") and name.endswith("__"):
            continue
        if isinstance(value, _types.ModuleType):
            continue
        imported = getattr(value, "__module__", None) != _std.__name__
        if imported and isinstance(value, (type, _types.FunctionType, _types.BuiltinFunctionType)):
            continue  # e.g. collections.namedtuple
        names[name] = value
    return names


globals().update(_stdlib_names())
__all__ = list(_std.__all__)
if "__getattr__" in vars(_std):
    # names the stdlib serves lazily, with its deprecation warnings (Quoter)
    __getattr__ = vars(_std)["__getattr__"]

_parse_c: _Any = None
_quote_c: _Any = None
if not _pure:
    try:
        from . import _parse_c
    except ImportError:  # built without a compiler
        _parse_c = None
    try:
        from . import _quote_c
    except ImportError:
        _quote_c = None

IMPLEMENTATION = "compiled" if _parse_c is not None else "python"


def _owner(name: str) -> _Any:
    """The compiled module that replaces the stdlib's function name, or None."""
    return _parse_c if name in _HOT_SPLIT else _quote_c


def _original(name: str) -> _Any:
    """The stdlib's own function name: as the compiled module that replaces
    it took it (at its import, or after urllib.parse was reloaded), so that
    neither install() nor a reload of this module can mistake a compiled
    function for it."""
    owner = _owner(name)
    if owner is None:
        return getattr(_std, name)
    return owner._original(name)


def _adopt(fn: _Any, name: str) -> _Any:
    """Make a compiled function introspect as the stdlib's one it replaces."""
    original = _original(name)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = _std.__name__  # the stdlib's test_all requires this
    fn.__doc__ = original.__doc__
    return fn


def _bind(name: str) -> _Any:
    if name in _HOT_SPLIT:
        if _parse_c is None or not _parse_c.COMPILED[name]:
            return _original(name)
        # the forms with 3.15's keywords, where this stdlib's signature has them
        kw = "_kw" if _parse_c.KEYWORD.get(name) else ""
        if name == "urlsplit" and _parse_c.HAS_CACHE:
            _adopt(getattr(_parse_c, "urlsplit" + kw), name)
            return _adopt(getattr(_parse_c, "urlsplit_cached" + kw), name)
        return _adopt(getattr(_parse_c, name + kw), name)
    if _quote_c is None:
        return _original(name)
    if name == "parse_qsl" and _quote_c.QS_STACKLEVEL:
        return _adopt(_quote_c.parse_qsl_kw, name)  # 3.14's keyword-only _stacklevel
    return _adopt(getattr(_quote_c, name), name)


urlsplit = _bind("urlsplit")
urlparse = _bind("urlparse")
urlunsplit = _bind("urlunsplit")
urlunparse = _bind("urlunparse")
urljoin = _bind("urljoin")
urldefrag = _bind("urldefrag")
quote = _bind("quote")
quote_plus = _bind("quote_plus")
quote_from_bytes = _bind("quote_from_bytes")
unquote = _bind("unquote")
unquote_plus = _bind("unquote_plus")
unquote_to_bytes = _bind("unquote_to_bytes")
urlencode = _bind("urlencode")
parse_qs = _bind("parse_qs")
parse_qsl = _bind("parse_qsl")

if _parse_c is not None:
    _std_clear_cache: _typing.Callable[[], None] = vars(_std)["clear_cache"]

    def clear_cache() -> None:
        """Clear internal performance caches. Undocumented; some tests want it."""
        _std_clear_cache()
        _parse_c.clear_cache()


def _ours(name: str, value: object) -> bool:
    """Whether value is one of the compiled forms of name."""
    owner = _owner(name)
    return owner is not None and any(value is f for f in owner.OURS[name])


def _sync() -> None:
    # the compiled modules look at urllib.parse now: after a reload of it,
    # its new functions are the originals
    for module in (_parse_c, _quote_c):
        if module is not None:
            module._sync()


def install() -> None:
    """Put this module's compiled functions into ``urllib.parse`` (idempotent)."""
    _sync()
    namespace = globals()
    for name in _HOT:
        if _ours(name, namespace[name]):
            setattr(_std, name, namespace[name])


def uninstall() -> None:
    """Put the stdlib's own functions back into ``urllib.parse`` (idempotent)."""
    _sync()
    for name in _HOT:
        if _ours(name, getattr(_std, name, None)):
            setattr(_std, name, _original(name))
