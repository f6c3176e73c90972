"""Run one fuzz target under atheris.

    python fuzz/run.py TARGET [libFuzzer options] [CORPUS_DIR ...]
    python fuzz/run.py split -max_total_time=60 fuzz/corpus/split

TARGET is one of fuzz/targets.py's TARGETS.  A failing input is written by
libFuzzer as crash-<sha1> in the working directory (or under
-artifact_prefix=DIR/); add it to tests/fuzz_regressions/ so the suite
replays it (fuzz/README.md).

Coverage feedback comes from Python bytecode only: the pure-Python twins
(``fasturi._*_py``), the targets, and the stdlib's ``urllib.parse`` (the
reference of the ``parse`` target).  The compiled twins are not instrumented;
the checks compare them with those references.
"""

import sys
import types
import urllib.parse
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parent))

with atheris.instrument_imports(include=["fasturi", "targets"]):
    import targets


def _instrument_module(module: types.ModuleType) -> int:
    """Instrument, in place, the functions and methods a module defines.

    For modules imported before ``instrument_imports`` (atheris itself
    imports urllib.parse), so the import hook never saw them."""
    seen: set[int] = set()

    def visit(obj: object) -> int:
        if id(obj) in seen:
            return 0
        seen.add(id(obj))
        wrapped = getattr(obj, "__wrapped__", None)  # functools.lru_cache
        if wrapped is not None:
            return visit(wrapped)
        if isinstance(obj, types.FunctionType):
            if obj.__module__ != module.__name__:
                return 0
            atheris.instrument_func(obj)
            return 1
        if isinstance(obj, property):
            return sum(visit(f) for f in (obj.fget, obj.fset, obj.fdel) if f is not None)
        if isinstance(obj, (classmethod, staticmethod)):
            return visit(obj.__func__)
        if isinstance(obj, type) and obj.__module__ == module.__name__:
            return sum(visit(v) for v in vars(obj).values())
        return 0

    return sum(visit(v) for v in list(vars(module).values()))


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in targets.TARGETS:
        sys.exit(f"usage: run.py {{{','.join(targets.TARGETS)}}} [libFuzzer args]")
    name = sys.argv.pop(1)
    if name == "parse":
        _instrument_module(urllib.parse)
    atheris.Setup(sys.argv, targets.TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
