"""What the build leaves in the package: compiled modules and the DuckDB
and polars libraries without debug info (setup.py compiles a release build
with -g0, against the -g of the interpreter's own CFLAGS), unless it was
asked for with FASTURI_DEBUG_BUILD=1; and a DuckDB extension whose metadata
names the machine it was built for, the one running it."""

from __future__ import annotations

import os
import platform
import struct
import sys
import sysconfig
from pathlib import Path

import pytest

import fasturi

# (the pure run, which has no compiled modules, deselects these)
pytestmark = pytest.mark.compiled

PACKAGE = Path(fasturi.__file__).parent


def _elf_sections(path: Path) -> list[str]:
    """The section names of an ELF file (64 or 32 bit, either byte order)."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF", path
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        (shoff,) = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
    else:
        (shoff,) = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)

    def header(i: int) -> tuple[int, int, int]:
        at = shoff + i * shentsize
        if wide:
            name, offset, size = struct.unpack_from(order + "I20xQQ", data, at)
        else:
            name, offset, size = struct.unpack_from(order + "I12xII", data, at)
        return name, offset, size

    _, names_at, _ = header(shstrndx)
    out = []
    for i in range(shnum):
        name, _, _ = header(i)
        end = data.index(b"\0", names_at + name)
        out.append(data[names_at + name : end].decode("ascii"))
    return out


def _libraries() -> list[Path]:
    return sorted(
        p
        for p in PACKAGE.iterdir()
        if p.name.startswith("_")
        and p.suffix in (".so", ".pyd")
        or p.name in ("fasturi.duckdb_extension", "fasturi.polars_plugin")
    )


def _elf(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def test_the_elf_reader_reads_sections():
    for path in filter(_elf, _libraries()):
        names = _elf_sections(path)
        assert ".text" in names and ".dynsym" in names, path.name


def test_no_debug_info():
    libraries = list(filter(_elf, _libraries()))
    if os.environ.get("FASTURI_DEBUG_BUILD", "") not in ("", "0") or not libraries:
        # (a debug build keeps it; Mach-O and PE keep debug info apart anyway)
        pytest.skip("a debug build, or no ELF libraries on this platform")
    assert len(libraries) >= 12
    for path in libraries:
        debug = [n for n in _elf_sections(path) if n.startswith((".debug_", ".zdebug_"))]
        assert debug == [], path.name


def _duckdb_name_of_this_machine() -> str:
    """DuckDB's platform name (PRAGMA platform) for the machine running the
    tests: under Rosetta 2 (an x86_64 wheel tested on an arm64 Mac) that is
    the x86_64 one, which platform.machine() says too."""
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}
    arch_name = arch.get(machine, machine)
    if sys.platform == "darwin":
        return "osx_" + arch_name
    if sys.platform == "win32":
        return "windows_" + arch_name
    musl = "musl" in (sysconfig.get_config_var("HOST_GNU_TYPE") or "")
    return f"linux_{arch_name}" + ("_musl" if musl else "")


def test_duckdb_extension_is_for_this_machine():
    # the build writes the platform of the machine it builds for, also when
    # it cross-compiles (a macOS x86_64 wheel built on arm64)
    from fasturi import _duckdb_ext

    path = _duckdb_ext.extension_file()
    assert path is not None
    if os.environ.get("FASTURI_DUCKDB_PLATFORM"):
        assert _duckdb_ext.platform_of(path) == os.environ["FASTURI_DUCKDB_PLATFORM"]
    else:
        assert _duckdb_ext.platform_of(path) == _duckdb_name_of_this_machine()
