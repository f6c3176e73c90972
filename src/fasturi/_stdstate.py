"""urllib.parse's module state, as the stdlib's functions read it per call.

The stdlib's functions look their module's globals up on every call:
``scheme_chars``, the tables of characters they strip, their helper
functions and result classes, and one another.  Code that rebinds one of
them (``urllib.parse.scheme_chars = ...``, ``mock.patch("urllib.parse.X")``,
``importlib.reload(urllib.parse)``) changes what the stdlib answers.  A
compiled module of the drop-in answers a call itself only while every name
the replaced stdlib functions read is bound as it was when the module
captured it -- or, for a function the drop-in replaces, to the drop-in's
own (``install()``); otherwise it hands the call to the stdlib's function,
which then reads the module as it is.

Which names those are is found here by reading the stdlib's code: the
names it looks up (``co_names``), from the replaced functions through every
function and class of the module they reach, so each Python version's
module is read as it is.  Names the code rebinds itself (a table it builds
on first use, such as ``_hextobyte``: a ``STORE_GLOBAL``) are its own
business, not settings.  The ``uses_*`` lists are read by the compiled code
itself, as they are bound at the time (``live``), and are not checked here.
"""

from __future__ import annotations

import builtins
import opcode
import threading
import types

# typing is not imported at run time (the drop-in's start-up); type
# checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

ABSENT: Any = object()  # a name not bound in the module


def _own(value: object, namespace: dict[str, Any]) -> bool:
    """Whether value is a function or class of the module itself."""
    if isinstance(value, type):
        return value.__dict__.get("__module__") == namespace.get("__name__")
    while value is not None and not isinstance(value, types.FunctionType):
        value = getattr(value, "__wrapped__", None)  # functools.lru_cache
    return isinstance(value, types.FunctionType) and value.__globals__ is namespace


def _codes(value: object) -> Iterable[types.CodeType]:
    """The code objects of a function (through its wrappers) or of a class's
    methods and properties, with the code nested in them."""
    if isinstance(value, type):
        parts: list[object] = []
        for cls in value.__mro__:  # (methods of its bases: the result classes')
            if cls.__dict__.get("__module__") != value.__module__:
                continue
            for member in vars(cls).values():
                if isinstance(member, property):
                    parts += [member.fget, member.fset, member.fdel]
                elif isinstance(member, (staticmethod, classmethod)):
                    parts.append(member.__func__)
                else:
                    parts.append(member)
        for part in parts:
            if isinstance(part, types.FunctionType):
                yield from _codes(part)
        return
    while value is not None and not isinstance(value, types.FunctionType):
        value = getattr(value, "__wrapped__", None)
    if value is None:
        return
    todo = [value.__code__]
    while todo:
        code = todo.pop()
        yield code
        todo += [c for c in code.co_consts if isinstance(c, types.CodeType)]


_REBINDS = frozenset(opcode.opmap[name] for name in ("STORE_GLOBAL", "DELETE_GLOBAL"))
_EXTENDED = opcode.EXTENDED_ARG


def _rebound(code: types.CodeType) -> Iterable[str]:
    """The global names code stores or deletes (its STORE_GLOBAL and
    DELETE_GLOBAL instructions: two bytes each, inline caches included)."""
    raw = code.co_code
    extended = 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        extended = arg << 8 if op == _EXTENDED else 0
        if op in _REBINDS:
            yield code.co_names[arg]


def names_read(namespace: dict[str, Any], roots: Iterable[object]) -> frozenset[str]:
    """The global names the code of ``roots`` can read per call (every name
    it looks up that the module or the builtins define), following the
    module's own functions and classes that code reaches, less the names
    that code rebinds itself."""
    read: set[str] = set()
    rebound: set[str] = set()
    seen: set[types.CodeType] = set()
    known = vars(builtins)
    todo = list(roots)
    while todo:
        for code in _codes(todo.pop()):
            if code in seen:
                continue
            seen.add(code)
            rebound.update(_rebound(code))
            for name in code.co_names:
                if name in read or (name not in namespace and name not in known):
                    continue
                read.add(name)
                value = namespace.get(name)
                if _own(value, namespace):
                    todo.append(value)
    return frozenset(read - rebound)


class State:
    """What one compiled module's stdlib functions read, as captured.

    ``originals`` are the stdlib's functions the module replaces (its names
    in ``ours``).  ``check()`` (under ``lock``) says whether every name read
    is still bound as captured; first, after a reload of the module, it
    captures it again and calls ``on_reload(originals)``, and it asks
    ``on_check()`` (the module's own reading of the ``live`` names).
    """

    def __init__(
        self,
        module: types.ModuleType,
        ours: dict[str, tuple[Callable[..., Any], ...]],
        live: frozenset[str] = frozenset(),
        on_reload: Callable[[dict[str, Callable[..., Any]]], object] | None = None,
        on_check: Callable[[], bool] | None = None,
    ) -> None:
        self.module = module
        self.ours = ours
        self.live = live
        self.on_reload = on_reload
        self.on_check = on_check
        self.lock = threading.RLock()
        self.originals: dict[str, Callable[..., Any]] = {}
        self.capture()

    def capture(self) -> None:
        """Take the module as it is now (at import, and after a reload)."""
        namespace = vars(self.module)
        self.spec = namespace.get("__spec__")
        for name, ours in self.ours.items():
            value = namespace[name]
            if not any(value is f for f in ours):
                self.originals[name] = value
        names = names_read(namespace, self.originals.values()) - self.live
        self.expected = {name: namespace.get(name, ABSENT) for name in sorted(names)}
        for name, original in self.originals.items():
            if name in self.expected:
                self.expected[name] = original

    def reloaded(self) -> bool:
        return vars(self.module).get("__spec__") is not self.spec

    def holds(self) -> bool:
        namespace = vars(self.module)
        for name, want in self.expected.items():
            got = namespace.get(name, ABSENT)
            if got is want:
                continue
            if not any(got is f for f in self.ours.get(name, ())):
                return False
        return True

    def check(self) -> bool:
        if self.reloaded():
            self.capture()
            if self.on_reload is not None:
                self.on_reload(self.originals)
        live = self.on_check() if self.on_check is not None else True
        return live and self.holds()
