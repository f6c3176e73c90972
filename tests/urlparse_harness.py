"""Run an interpreter's own Lib/test/test_urlparse.py against a drop-in.

    python tests/urlparse_harness.py [--module fasturi.parse] [--install] [--testfile PATH] [-v]

The test file is executed as a fresh module whose ``import urllib.parse``
(and ``from urllib.parse import ...``, at any depth) is answered with the
drop-in module instead: its ``__import__`` is replaced, so nothing outside
the test module -- not ``sys.modules``, not the real ``urllib`` package --
is touched.  Every ``urllib.parse.X`` the tests look up is the drop-in's
``X``.  With ``--install`` the tests import the real ``urllib.parse`` after
the drop-in's ``install()`` has put its functions there (the way an
application uses it: the stdlib's own code then calls them too, and the
tests' patches of the module are the module's).  The default test file is
the running interpreter's own.

Exit status 0 only when at least one test ran and all passed; the last
line is ``N passed, N failed``.
"""

from __future__ import annotations

import argparse
import builtins
import importlib
import os
import sys
import sysconfig
import types
import unittest


def default_testfile() -> str:
    """The running interpreter's Lib/test/test_urlparse.py."""
    return os.path.join(sysconfig.get_path("stdlib"), "test", "test_urlparse.py")


class _UrllibProxy(types.ModuleType):
    """Stands for the ``urllib`` package: ``.parse`` is the drop-in, every
    other attribute is the real package's."""

    def __init__(self, real: types.ModuleType, parse: types.ModuleType) -> None:
        super().__init__(real.__name__)
        self._real = real
        self.parse = parse

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)


def load_tests_module(testfile: str, dropin: types.ModuleType) -> types.ModuleType:
    """Execute ``testfile`` as a module that sees ``dropin`` as urllib.parse."""
    import urllib

    proxy = _UrllibProxy(urllib, dropin)
    real_import = builtins.__import__

    def swapped_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name == "urllib.parse":
            # "import urllib.parse" binds the top package; "from urllib.parse
            # import x" and "import urllib.parse as p" want the module itself
            return dropin if fromlist else proxy
        if level == 0 and name == "urllib" and fromlist and "parse" in fromlist:
            return proxy
        return real_import(name, globals, locals, fromlist, level)

    patched_builtins = dict(vars(builtins))
    patched_builtins["__import__"] = swapped_import
    module = types.ModuleType("test_urlparse_dropin")
    module.__file__ = testfile
    module.__dict__["__builtins__"] = patched_builtins
    with open(testfile, encoding="utf-8") as f:
        code = compile(f.read(), testfile, "exec")
    exec(code, module.__dict__)  # noqa: S102 - running the test file is the point
    # the swap must have taken: a harness that tests the stdlib proves nothing
    if module.__dict__.get("urllib") is not proxy or proxy.parse is not dropin:
        raise RuntimeError(f"{testfile} did not import urllib.parse through the swap")
    return module


def load_installed(testfile: str, dropin: types.ModuleType) -> types.ModuleType:
    """Execute ``testfile`` as a module that imports the real urllib.parse,
    with ``dropin.install()`` done (and checked)."""
    import urllib.parse

    dropin.install()  # type: ignore[attr-defined]
    if urllib.parse.urlsplit is not dropin.urlsplit:
        raise RuntimeError("install() did not put the drop-in's functions in urllib.parse")
    module = types.ModuleType("test_urlparse_installed")
    module.__file__ = testfile
    with open(testfile, encoding="utf-8") as f:
        code = compile(f.read(), testfile, "exec")
    exec(code, module.__dict__)  # noqa: S102 - running the test file is the point
    return module


def run(
    testfile: str, module_name: str, verbosity: int = 1, install: bool = False
) -> unittest.TestResult:
    dropin = importlib.import_module(module_name)
    if install:
        module = load_installed(testfile, dropin)
    else:
        module = load_tests_module(testfile, dropin)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=verbosity)
    try:
        return runner.run(suite)
    finally:
        if install:
            dropin.uninstall()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default="fasturi.parse", help="the drop-in to test")
    parser.add_argument("--testfile", default=None, help="a test_urlparse.py")
    parser.add_argument(
        "--install", action="store_true", help="the real urllib.parse, after install()"
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    testfile = args.testfile or default_testfile()
    if not os.path.exists(testfile):
        print(f"no test suite at {testfile}: this interpreter ships without Lib/test")
        return 2
    result = run(testfile, args.module, 2 if args.verbose else 1, args.install)
    bad = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - bad - len(result.skipped)
    impl = getattr(sys.modules[args.module], "IMPLEMENTATION", "n/a")
    how = "installed in urllib.parse" if args.install else "as urllib.parse"
    print(f"module: {args.module} ({impl}), {how}  testfile: {testfile}")
    print(f"{passed} passed, {bad} failed, {len(result.skipped)} skipped")
    return 0 if result.wasSuccessful() and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
