"""Declares the compiled extensions; everything else is in pyproject.toml.

Every ``src/fasturi/_*_c.pyx`` is one extension.  ``FASTURI_NO_EXTENSIONS=1``
builds none; a failed compile installs the pure-Python package, unless CI or
CIBUILDWHEEL is set, where a broken extension must fail the build.
``FASTURI_DEBUG_BUILD=1`` turns Cython's bounds checks and C asserts back on.
``FASTURI_ONLY=_core_c,_rules_c`` builds just those (development).
GCC and Clang compile with ``-Wall -Wextra``, and with ``-Werror`` too when CI
is set (CIBUILDWHEEL alone does not: a release build must not fail on a new
compiler's new warning).
"""

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
PKG = HERE / "src" / "fasturi"


def flag(name):
    return os.environ.get(name, "") not in ("", "0")


DEBUG = flag("FASTURI_DEBUG_BUILD")
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "freethreading_compatible": True,
}


def extensions():
    if flag("FASTURI_NO_EXTENSIONS") or sys.implementation.name != "cpython":
        return []
    from Cython.Build import cythonize
    from setuptools import Extension

    only = {n for n in os.environ.get("FASTURI_ONLY", "").split(",") if n}
    macros = [] if DEBUG else [("NDEBUG", "1")]
    cflags = ["-O0", "-g"] if DEBUG and os.name != "nt" else []
    exts = []
    for pyx in sorted(PKG.glob("_*_c.pyx")):
        if only and pyx.stem not in only:
            continue
        exts.append(
            Extension(
                "fasturi." + pyx.stem,
                [str(pyx.relative_to(HERE))],
                include_dirs=["csrc"],
                define_macros=macros,
                extra_compile_args=cflags,
            )
        )
    return cythonize(exts, compiler_directives=DIRECTIVES, quiet=True)


def warning_flags():
    # Cython's static PyTypeObject initializers leave out the fields newer
    # Pythons append (3.15's _tp_iteritem); zero is their right value.
    flags = ["-Wall", "-Wextra", "-Wno-missing-field-initializers"]
    if flag("CI") and not flag("CIBUILDWHEEL"):
        flags.append("-Werror")
    return flags


class optional_build_ext(build_ext):
    """Falls back to pure Python when the compiler fails, except in CI."""

    def build_extensions(self):
        # gcc and clang ("unix"); MSVC spells its warning options otherwise
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = warning_flags() + list(ext.extra_compile_args)
        super().build_extensions()

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:  # the modules are independent: build them at once
            self.parallel = os.cpu_count() or 1

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure
            self._fallback(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._fallback(exc)

    def _fallback(self, exc):
        if flag("CI") or flag("CIBUILDWHEEL"):
            raise exc
        print(f"fasturi: compiled core not built ({exc}); installing pure Python")


setup(ext_modules=extensions(), cmdclass={"build_ext": optional_build_ext})
