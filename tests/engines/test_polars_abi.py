"""The polars plugin called as polars calls it (polars-ffi's SeriesExport),
from ctypes, with pyarrow's arrays: the Arrow string types polars does not
hand it today (string, large_string) as well as string_view, sliced and in
several chunks; its results imported by pyarrow, which checks them."""

from __future__ import annotations

import ctypes

import pyarrow as pa
import pytest

import fasturi.polars
from fasturi import arrow

from .conftest import EDGES, URLS

pytestmark = pytest.mark.compiled


class ArrowSchema(ctypes.Structure):
    pass


class ArrowArray(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]
ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.c_void_p),
    ("children", ctypes.c_void_p),
    ("dictionary", ctypes.c_void_p),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]


class SeriesExport(ctypes.Structure):
    pass


RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(SeriesExport))
SeriesExport._fields_ = [
    ("field", ctypes.POINTER(ArrowSchema)),
    ("arrays", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("len", ctypes.c_size_t),
    ("release", RELEASE),
    ("private_data", ctypes.c_void_p),
]

SCHEMA_RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))


@pytest.fixture(scope="module")
def lib():
    lib = ctypes.CDLL(fasturi.polars.plugin_path())
    lib._polars_plugin_get_version.restype = ctypes.c_uint32
    lib._polars_plugin_get_last_error_message.restype = ctypes.c_char_p
    return lib


class Series:
    """A pyarrow column exported as polars exports a Series: one schema, an
    array per chunk, and a release that frees the schema (the chunks are
    each the plugin's to release)."""

    def __init__(self, column, name="url"):
        chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
        self.schema = ArrowSchema()
        pa.field(name, column.type)._export_to_c(ctypes.addressof(self.schema))
        self.arrays = [ArrowArray() for _ in chunks]
        for chunk, c_array in zip(chunks, self.arrays):
            chunk._export_to_c(ctypes.addressof(c_array))
        self.pointers = (ctypes.POINTER(ArrowArray) * len(chunks))(
            *[ctypes.pointer(a) for a in self.arrays]
        )

        def release(export):
            SCHEMA_RELEASE(self.schema.release)(ctypes.pointer(self.schema))
            export.contents.release = RELEASE()

        self.release = RELEASE(release)
        self.export = SeriesExport(
            ctypes.pointer(self.schema), self.pointers, len(chunks), self.release, 1
        )


def call(lib, name, *columns, context=0):
    """``_polars_plugin_NAME`` on the columns: the result as a pyarrow
    ChunkedArray, or the plugin's error message as ValueError."""
    series = [Series(c, name=f"a{i}") for i, c in enumerate(columns)]
    exports = (SeriesExport * len(series))(*[s.export for s in series])
    out = SeriesExport()
    context = ctypes.c_uint64(context)
    getattr(lib, f"_polars_plugin_{name}")(
        exports, len(series), None, 0, ctypes.byref(out), ctypes.byref(context)
    )
    # every input chunk and Series released (or moved into the result)
    for s, e in zip(series, exports):
        assert not e.release, name
        assert all(not a.release for a in s.arrays), name
    if not out.private_data:
        raise ValueError(lib._polars_plugin_get_last_error_message().decode())
    assert out.field.contents.name == b"a0"
    chunks = []
    for k in range(out.len):
        array = ctypes.addressof(out.arrays[k].contents)
        # (the first import takes the schema, which pyarrow releases)
        kind = chunks[0].type if chunks else ctypes.addressof(out.field.contents)
        chunk = pa.Array._import_from_c(array, kind)
        chunk.validate(full=True)
        chunks.append(chunk)
    out.release(ctypes.byref(out))
    return pa.chunked_array(chunks)


def lit(value, type):
    return pa.array([value], type)


TYPES = [pa.string(), pa.large_string(), pa.string_view()]


def shapes(type):
    """The corpus sample with nulls as one chunk, a slice, and three chunks."""
    whole = pa.array(URLS, type)
    third = len(URLS) // 3
    yield "whole", whole
    yield "sliced", whole.slice(5, len(URLS) - 9)
    yield (
        "chunked",
        pa.chunked_array(
            [whole.slice(0, third), whole.slice(third, third), whole.slice(2 * third)]
        ),
    )


def test_version(lib):
    assert lib._polars_plugin_get_version() == 1  # polars-ffi 0.1


@pytest.mark.parametrize("type", TYPES, ids=str)
def test_every_function_on_every_string_type(lib, type):
    fields = pa.struct([(f, pa.string()) for f in arrow.FIELDS])
    for shape, col in shapes(type):
        want_col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
        plain = pa.array(want_col.to_pylist(), pa.string())
        cases = [
            (
                "split",
                (lit({f: "" for f in arrow.FIELDS}, fields),),
                arrow.split(plain, arrow.FIELDS),
            ),
            ("normalize", (lit(True, pa.bool_()),), arrow.normalize(plain)),
            (
                "canonicalize",
                (
                    lit(True, pa.bool_()),
                    lit(False, pa.bool_()),
                    lit(["utm_*"], pa.large_list(pa.string())),
                ),
                arrow.canonicalize(plain, drop_fragment=False, drop_params=["utm_*"]),
            ),
            (
                "fingerprint",
                (
                    lit(False, pa.bool_()),
                    lit(True, pa.bool_()),
                    lit(["utm_*", "id"], pa.large_list(pa.string())),
                ),
                arrow.fingerprint(plain, sort_query=False, drop_params=["utm_*", "id"]),
            ),
            (
                "is_valid",
                (lit("URI", pa.string()), lit(3986, pa.int32())),
                arrow.is_valid(plain, "URI"),
            ),
            (
                "error_position",
                (lit("URI-reference", pa.large_string()), lit(2396, pa.int32())),
                arrow.error_position(plain, rfc=2396),
            ),
            (
                # (the bases in one chunk, whatever the references' chunks)
                "resolve",
                (want_col, lit(True, pa.bool_()), lit(3986, pa.int32())),
                arrow.resolve(plain, plain),
            ),
            *[(f, (), arrow.split(plain, (f,)).field(0)) for f in arrow.FIELDS],
        ]
        for name, args, want in cases:
            got = call(lib, name, col, *args)
            assert len(got) == len(col), (name, shape)
            assert got.to_pylist() == want.to_pylist(), (name, type, shape)


def test_errors_are_reported_not_raised(lib):
    with pytest.raises(ValueError, match="needs a String column"):
        call(lib, "host", pa.array([1, 2]))
    with pytest.raises(ValueError, match="unknown rule 'nope' for RFC 3986"):
        call(lib, "is_valid", pa.array(["a"]), lit("nope", pa.string()), lit(3986, pa.int32()))
    with pytest.raises(ValueError, match="takes 2 arguments, not 1"):
        call(lib, "normalize", pa.array(["a"]))
    bad = pa.Array.from_buffers(
        pa.string(),
        2,
        [None, pa.py_buffer(b"\0\0\0\0\1\0\0\0\3\0\0\0"), pa.py_buffer(b"a\xff\xfe")],
    )
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        call(lib, "path", bad)
    assert EDGES  # (the edge rows are among URLS above)


def test_large_string_text_past_2gib_is_copied(lib):
    # string views address their bytes with int32 offsets: rows of a
    # large_string column that lie past 2 GiB into its text cannot be viewed
    # where they are, and split and the components copy them instead (the
    # text is one mapping of 2.2 GB whose pages are touched only where the
    # rows are)
    import mmap

    start = (1 << 31) + 4096
    rows = [u for u in URLS if u is not None][:200] + [None, ""]
    text = b"".join((u or "").encode() for u in rows)
    memory = mmap.mmap(-1, start + len(text))
    memory[start : start + len(text)] = text
    offsets, at = [], start
    for u in rows:
        offsets.append(at)
        at += len((u or "").encode())
    offsets.append(at)
    validity = pa.array([u is not None for u in rows]).buffers()[1]
    col = pa.Array.from_buffers(
        pa.large_string(),
        len(rows),
        [validity, pa.array(offsets, pa.int64()).buffers()[1], pa.py_buffer(memory)],
        null_count=1,
    )
    plain = pa.array(rows, pa.string())
    fields = pa.struct([(f, pa.string()) for f in arrow.FIELDS])
    got = call(lib, "split", col, lit({f: "" for f in arrow.FIELDS}, fields))
    assert got.to_pylist() == arrow.split(plain, arrow.FIELDS).to_pylist()
    for f in ("host", "path", "fragment"):
        assert call(lib, f, col).to_pylist() == arrow.split(plain, (f,)).field(0).to_pylist()
    del got, col
    memory.close()


def test_every_registered_function_is_exported(lib):
    # polars looks both symbols up without checking: one missing would panic
    # inside polars, not fail the query
    for name in fasturi.polars.NATIVE:
        assert hasattr(lib, f"_polars_plugin_{name}"), name
        assert hasattr(lib, f"_polars_plugin_field_{name}"), name
    assert hasattr(lib, "_polars_plugin_get_last_error_message")


def test_large_calls_with_and_without_threads_of_its_own(lib):
    # a call of 262,144 rows or more is cut over threads of the plugin's
    # own, unless polars says it runs the call in parallel with others
    # (CallerContext's bit 0): the same result either way
    col = pa.array(URLS * (300_000 // len(URLS) + 1), pa.string_view())
    plain = pa.array(col.to_pylist(), pa.string())
    for context in (0, 1):
        got = call(lib, "normalize", col, lit(True, pa.bool_()), context=context)
        assert got.to_pylist() == arrow.normalize(plain).to_pylist()
        got = call(lib, "port", col, context=context)
        assert got.to_pylist() == arrow.split(plain, ("port",)).field(0).to_pylist()
