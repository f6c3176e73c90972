"""Declares the compiled extensions; everything else is in pyproject.toml.

Every ``src/fasturi/_*_c.pyx`` is one extension.  ``FASTURI_NO_EXTENSIONS=1``
builds none; a failed compile installs the pure-Python package, unless CI or
CIBUILDWHEEL is set, where a broken extension must fail the build.
``FASTURI_DEBUG_BUILD=1`` turns Cython's bounds checks and C asserts back on.
``FASTURI_ONLY=_core_c,_rules_c`` builds just those (development);
``duckdb`` and ``polars`` among them name the two plain libraries below.
GCC and Clang compile with ``-Wall -Wextra``, and with ``-Werror`` too when CI
is set (CIBUILDWHEEL alone does not: a release build must not fail on a new
compiler's new warning).

Beside the Python extensions, ``build_ext`` links ``csrc/fasturi_duckdb.c``
as a plain shared library, ``fasturi/fasturi.duckdb_extension``: DuckDB's
loader wants that name (NAME.duckdb_extension exporting NAME_init_c_api),
and the 534 bytes of metadata DuckDB appends to its own extensions, written
here by ``duckdb_footer``.  Likewise ``csrc/fasturi_polars.c`` becomes
``fasturi/fasturi.polars_plugin``, the polars expression plugin
``fasturi.polars`` registers (polars loads it by its path: any name does).
Neither links against Python.
"""

import os
import platform
import re
import shutil
import sys
import sysconfig
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
    from setuptools import Extension

    only = {n for n in os.environ.get("FASTURI_ONLY", "").split(",") if n}
    macros = [] if DEBUG else [("NDEBUG", "1")]
    cflags = compile_flags()
    # the C the modules include: an edit to a header rebuilds them
    headers = [str(h.relative_to(HERE)) for h in sorted((HERE / "csrc").glob("*.h"))]
    exts = []
    for pyx in sorted(PKG.glob("_*_c.pyx")):
        if only and pyx.stem not in only:
            continue
        exts.append(
            Extension(
                "fasturi." + pyx.stem,
                [str(pyx.relative_to(HERE))],
                include_dirs=["csrc"],
                depends=headers,
                define_macros=macros,
                extra_compile_args=cflags,
            )
        )
    if not exts:  # (FASTURI_ONLY=duckdb,polars: no Cython needed)
        return []
    from Cython.Build import cythonize

    return cythonize(exts, compiler_directives=DIRECTIVES, quiet=True)


def compile_flags():
    """Debug builds: no optimisation, debug info.  Release builds: none of
    the debug info the interpreter's own CFLAGS ask for (-g), which tripled
    the size of each module and of the wheels (MSVC adds none)."""
    if os.name == "nt":
        return []
    return ["-O0", "-g"] if DEBUG else ["-g0"]


#: the DuckDB C extension API csrc/duckdb/ is from: DuckDB 1.2.0 and every
#: later DuckDB load an extension that asks for it
DUCKDB_C_API = "v1.2.0"


def target_machine():
    """The machine the build is for, which is not the build machine's when
    it cross-compiles (cibuildwheel builds macOS x86_64 wheels on arm64,
    setting ARCHFLAGS and _PYTHON_HOST_PLATFORM, which setuptools and
    sysconfig.get_platform() follow): the one ``-arch`` of ARCHFLAGS, else
    the platform's machine (``macosx-11.0-x86_64``, ``linux-aarch64``,
    ``win-arm64``), else, for a fat build (``universal2``), this machine."""
    arches = re.findall(r"-arch\s+(\S+)", os.environ.get("ARCHFLAGS", ""))
    if len(arches) == 1:
        return arches[0]
    machine = sysconfig.get_platform().rsplit("-", 1)[-1]
    if machine in ("universal2", "universal", "intel", "fat", "fat3", "fat64"):
        return platform.machine()
    return machine


def duckdb_platform():
    """The platform string DuckDB reports (``PRAGMA platform``) for the
    machine the build is for: ``FASTURI_DUCKDB_PLATFORM`` when set, else
    worked out here (a DuckDB that reports another one gets a copy with its
    own, made by fasturi.duckdb when it loads the file)."""
    given = os.environ.get("FASTURI_DUCKDB_PLATFORM")
    if given:
        return given
    machine = target_machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(
        machine, machine
    )
    if sys.platform == "darwin":
        return "osx_" + arch
    if sys.platform == "win32":
        return "windows_" + arch
    name = "linux_" + arch
    if "musl" in (sysconfig.get_config_var("HOST_GNU_TYPE") or ""):
        name += "_musl"
    return name


def duckdb_footer(platform_name, version, extension_version):
    """DuckDB's extension metadata: a WebAssembly custom section's header
    (so the file stays a valid Wasm module there), then eight 32-byte
    NUL-padded fields, last to first, then 256 bytes of signature (none:
    the extension is unsigned).  DuckDB reads the last 512 bytes."""

    def field(text):
        raw = text.encode("ascii")
        if len(raw) > 32:
            raise ValueError(f"DuckDB metadata field too long: {text!r}")
        return raw + b"\0" * (32 - len(raw))

    # section id 0 (custom), its size 531 as LEB128 (\x93\x04), the name's
    # length and the name, then the payload's size 512 as LEB128 (\x80\x04)
    head = b"\x00\x93\x04\x10duckdb_signature\x80\x04"
    fields = [
        "",  # 8, 7, 6: unused
        "",
        "",
        "C_STRUCT",  # 5: the ABI: the C extension API's struct of functions
        extension_version,  # 4
        version,  # 3: with C_STRUCT, the C API version it needs
        platform_name,  # 2
        "4",  # 1: what marks a DuckDB extension
    ]
    return head + b"".join(field(f) for f in fields) + b"\0" * 256


def unicode_header():
    """fasturi_lower_unicode.h, the DuckDB extension's and the polars
    plugin's copy of this Python's ``str.lower`` (csrc/gen_lower.py)."""
    import runpy

    return runpy.run_path(str(HERE / "csrc" / "gen_lower.py"))["unicode_header"]()


def package_version():
    text = (PKG / "__init__.py").read_text("utf-8")
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


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
        only = {n for n in os.environ.get("FASTURI_ONLY", "").split(",") if n}
        if flag("FASTURI_NO_EXTENSIONS"):
            return
        for name, build, fallback in (
            ("duckdb", self.build_duckdb_extension, "fasturi.duckdb uses Arrow"),
            ("polars", self.build_polars_plugin, "fasturi.polars runs through Python"),
        ):
            if only and name not in only:
                continue
            try:
                build()
            except Exception as exc:  # noqa: BLE001
                if flag("CI") or flag("CIBUILDWHEEL"):
                    raise
                print(f"fasturi: {name} library not built ({exc}); {fallback}")

    def build_plain_library(self, source, dest, generated=None):
        """Compiles and links ``csrc/<source>`` alone as the shared library
        ``dest`` (no Python in it; symbols hidden but those it marks
        exported); ``generated`` maps header names to their text, written
        into the build for it to include.  False when dest is newer than
        every source it reads (nothing done)."""
        source = HERE / "csrc" / source
        depends = [source, *(HERE / "csrc").glob("*.h"), *(HERE / "csrc" / "duckdb").glob("*.h")]
        if not self.force and dest.exists():
            newest = max(p.stat().st_mtime for p in depends)
            if dest.stat().st_mtime >= newest:
                return False
        compiler = self.compiler
        if not hasattr(compiler, "compile"):  # no Python extension built: none made yet
            from distutils.ccompiler import new_compiler
            from distutils.sysconfig import customize_compiler

            compiler = new_compiler(compiler=compiler, force=self.force)
            customize_compiler(compiler)
        if compiler.compiler_type == "unix":
            flags = warning_flags() + ["-std=c99", "-fvisibility=hidden"]
            flags += ["-O0", "-g"] if DEBUG else ["-O2", "-g0"]
        else:
            flags = []
        temp = Path(self.build_temp) / source.stem
        include = temp / "include"
        include.mkdir(parents=True, exist_ok=True)
        for name, text in (generated or {}).items():
            (include / name).write_text(text, "utf-8")
        objects = compiler.compile(
            [str(source.relative_to(HERE))],
            output_dir=str(temp),
            include_dirs=["csrc", str(include)],
            macros=[] if DEBUG else [("NDEBUG", "1")],
            extra_postargs=flags,
        )
        library = temp / (source.stem + ".so")
        compiler.link_shared_object(objects, str(library))
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial = dest.with_name(dest.name + ".tmp")
        shutil.copyfile(library, partial)
        return partial

    def build_duckdb_extension(self):
        """csrc/fasturi_duckdb.c as fasturi/fasturi.duckdb_extension, its
        metadata appended."""
        dest = Path(self.get_ext_fullpath("fasturi._duckdb")).with_name("fasturi.duckdb_extension")
        partial = self.build_plain_library(
            "fasturi_duckdb.c", dest, {"fasturi_lower_unicode.h": unicode_header()}
        )
        if not partial:
            return
        with open(partial, "ab") as f:
            f.write(duckdb_footer(duckdb_platform(), DUCKDB_C_API, package_version()))
        os.replace(partial, dest)
        print(f"fasturi: DuckDB extension {dest} (C API {DUCKDB_C_API}, {duckdb_platform()})")

    def build_polars_plugin(self):
        """csrc/fasturi_polars.c as fasturi/fasturi.polars_plugin."""
        dest = Path(self.get_ext_fullpath("fasturi._polars")).with_name("fasturi.polars_plugin")
        partial = self.build_plain_library(
            "fasturi_polars.c", dest, {"fasturi_lower_unicode.h": unicode_header()}
        )
        if partial:
            os.replace(partial, dest)
            print(f"fasturi: polars plugin {dest}")

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
