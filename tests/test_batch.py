"""split_many, normalize_many, canonicalize_many, resolve_many (docs/reference.md §3)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rfc_examples import RFC_5_4_1

import fasturi


@pytest.fixture(scope="module")
def pair(pipeline, core):
    """(pipeline twin, core twin) of one implementation."""
    return pipeline, core


BASE = "http://a/b/c/d;p?q"
URIS = [
    "HTTP://Example.COM:80/a/./b/../%7euser?b=2&a=1#frag",
    "",
    "mailto:Joe@Example.COM",
    "../g;x?y#s",
    "//host:/p?",
    "http://[fe80::1%25EN0]:443/%e2%82%ac",
    "\x00\ud800\U0001f600?&#",
    "urn:ISBN:0451450523",
]
# RFC 3986 §5.4.1 normal examples


def test_same_as_single_calls(pair):
    pipeline, core = pair
    assert pipeline.split_many(URIS) == [core.split(s) for s in URIS]
    assert pipeline.normalize_many(URIS) == [core.normalize(s) for s in URIS]
    assert pipeline.canonicalize_many(URIS) == [pipeline.canonicalize(s) for s in URIS]


def test_split_many_gives_split_tuples(pipeline):
    result = pipeline.split_many(URIS)
    assert all(type(r) is fasturi.Split for r in result)
    assert result[0] == ("HTTP", "Example.COM:80", "/a/./b/../%7euser", "b=2&a=1", "frag")
    assert result[1] == (None, None, "", None, None)


def test_options(pair):
    pipeline, core = pair
    assert pipeline.normalize_many(["http://a:80"], scheme_based=False) == ["http://a:80"]
    assert pipeline.normalize_many(["http://a:80"]) == ["http://a/"]
    assert pipeline.canonicalize_many(
        ["http://a/?utm_x=1&b&a#f"], sort_query=False, drop_fragment=False, drop_params=["utm_*"]
    ) == ["http://a/?b&a#f"]
    assert pipeline.resolve_many("http://a/b", ["http:g"], strict=False) == ["http://a/g"]
    assert pipeline.resolve_many("http://a/b", ["http:g"]) == ["http:g"]
    assert pipeline.resolve_many("http://a/b/c/d;p?q", ["../../../g"], rfc=2396) == [
        "http://a/../g"
    ]


def test_resolve_many_rfc_5_4_1(pipeline):
    refs = [ref for ref, _ in RFC_5_4_1]
    assert pipeline.resolve_many(BASE, refs) == [want for _, want in RFC_5_4_1]


def test_resolve_many_same_as_single_calls(pair):
    pipeline, core = pair
    for base in (BASE, "HTTP://H/a/b?x#y", "foo:a/b", "file:///"):
        assert pipeline.resolve_many(base, URIS) == [core.resolve(base, s) for s in URIS]


# Bases and references of every str width (ASCII, Latin-1, BMP, astral), so a
# batch sees references both as wide as its base and wider or narrower.
_PIECE = st.sampled_from(
    [
        "/",
        ".",
        "..",
        "./",
        "../",
        "?",
        "#",
        ":",
        "//",
        "a",
        "b;p",
        "%2e",
        "é",
        "\u20ac",
        "\U0001f600",
    ]
)
_TAIL = st.lists(_PIECE, max_size=10).map("".join)
_BASES = st.tuples(
    st.sampled_from(["http:", "foo:", "HTTP://h", "s://é", "x://\u20ac"]), _TAIL
).map("".join)


@given(_BASES, st.lists(_TAIL, max_size=6), st.booleans(), st.sampled_from([3986, 2396]))
def test_resolve_many_same_as_single_calls_any_width(pair, base, refs, strict, rfc):
    # The batch splits its base once; every reference must still resolve as alone.
    pipeline, core = pair
    want = [core.resolve(base, r, strict=strict, rfc=rfc) for r in refs]
    assert pipeline.resolve_many(base, refs, strict=strict, rfc=rfc) == want


@pytest.mark.parametrize(
    "make",
    [list, tuple, iter, lambda xs: (x for x in xs), lambda xs: dict.fromkeys(xs).keys()],
    ids=["list", "tuple", "iterator", "generator", "dict-keys"],
)
def test_any_iterable(pipeline, make):
    refs = ["g", "../g", "?y"]
    assert pipeline.split_many(make(URIS)) == pipeline.split_many(list(URIS))
    assert pipeline.normalize_many(make(URIS)) == pipeline.normalize_many(list(URIS))
    assert pipeline.canonicalize_many(make(URIS)) == pipeline.canonicalize_many(list(URIS))
    assert pipeline.resolve_many(BASE, make(refs)) == pipeline.resolve_many(BASE, refs)


def test_empty(pipeline):
    assert pipeline.split_many([]) == []
    assert pipeline.normalize_many(()) == []
    assert pipeline.canonicalize_many(iter([])) == []
    assert pipeline.resolve_many(BASE, []) == []


def test_large_batch(pair):
    pipeline, core = pair
    uris = [f"HTTP://H{i % 7}.example/{i}/./x/../y?b={i}&a#f" for i in range(20000)]
    got = pipeline.canonicalize_many(uris)
    assert len(got) == 20000
    assert got[12345] == "http://h4.example/12345/y?a&b=12345"
    assert pipeline.normalize_many(uris)[19999] == core.normalize(uris[19999])


# ---- bad items -------------------------------------------------------------

BAD = [
    ("split_many", ()),
    ("normalize_many", ()),
    ("canonicalize_many", ()),
    ("resolve_many", (BASE,)),
]


@pytest.mark.parametrize(("name", "lead"), BAD)
def test_bad_item_names_its_index(pipeline, name, lead):
    func = getattr(pipeline, name)
    for items, index, tname in [
        (["a", "b", "c", 3], 3, "int"),
        ([None], 0, "NoneType"),
        (("a", b"b"), 1, "bytes"),
        ((x for x in ["a", "b", 1.5]), 2, "float"),
    ]:
        with pytest.raises(TypeError) as info:
            func(*lead, items)
        assert str(info.value) == f"{name}() item {index} must be str, not {tname}"


@pytest.mark.parametrize(("name", "lead"), BAD)
def test_bad_item_leaves_an_iterator_where_it_stopped(pipeline, name, lead):
    it = iter(["a", 7, "after"])
    with pytest.raises(TypeError, match=r"item 1 must be str, not int"):
        getattr(pipeline, name)(*lead, it)
    assert next(it) == "after"


@pytest.mark.parametrize(("name", "lead"), BAD)
def test_errors_none_keeps_going(pipeline, name, lead):
    func = getattr(pipeline, name)
    good = func(*lead, ["g", "h"])
    got = func(*lead, iter([3, "g", None, "h", b"x"]), errors="none")
    assert got == [None, good[0], None, good[1], None]
    assert func(*lead, ["g", "h"], errors="raise") == good


@pytest.mark.parametrize(("name", "lead"), BAD)
def test_errors_must_be_raise_or_none(pipeline, name, lead):
    with pytest.raises(ValueError) as info:
        getattr(pipeline, name)(*lead, ["g"], errors="ignore")
    assert str(info.value) == f"{name}() argument 'errors' must be 'raise' or 'none', not 'ignore'"


@pytest.mark.parametrize(("name", "lead"), BAD)
def test_not_an_iterable(pipeline, name, lead):
    func = getattr(pipeline, name)
    arg = "refs" if name == "resolve_many" else "uris"
    for value, tname in [(3, "int"), (None, "NoneType"), ("http://a/", "str"), (b"x", "bytes")]:
        with pytest.raises(TypeError) as info:
            func(*lead, value)
        assert (
            str(info.value) == f"{name}() argument '{arg}' must be an iterable of str, not {tname}"
        )


def test_str_subclass_items(pair):
    pipeline, core = pair

    class Text(str):
        pass

    items = [Text("HTTP://A/./b?y&x"), Text("")]
    assert pipeline.normalize_many(items) == ["http://a/b?y&x", ""]
    assert all(type(r) is str for r in pipeline.normalize_many(items))
    assert pipeline.canonicalize_many(items) == ["http://a/b?x&y", ""]
    assert pipeline.split_many(items) == [core.split(str(s)) for s in items]
    assert pipeline.resolve_many(Text(BASE), items) == [core.resolve(BASE, str(s)) for s in items]


def test_resolve_many_checks_base_first(pair):
    pipeline, core = pair
    consumed = []

    def refs():
        consumed.append(1)
        yield "g"

    with pytest.raises(fasturi.InvalidURI) as info:
        pipeline.resolve_many("no/scheme", refs())
    assert info.value.rule == "absolute-URI"
    assert consumed == []
    with pytest.raises(
        TypeError, match=r"^resolve_many\(\) argument 'base' must be str, not bytes$"
    ):
        pipeline.resolve_many(b"http://a/", refs())
    with pytest.raises(
        ValueError, match=r"^resolve_many\(\) argument 'rfc' must be 3986 or 2396, not 1808$"
    ):
        pipeline.resolve_many(BASE, refs(), rfc=1808)
    with pytest.raises(TypeError, match=r"^resolve_many\(\) argument 'rfc' must be int, not bool$"):
        pipeline.resolve_many(BASE, refs(), rfc=True)
    assert consumed == []
    # relative base with no refs still fails, as resolve(base, ref) would
    with pytest.raises(fasturi.InvalidURI):
        pipeline.resolve_many("", [])


def test_canonicalize_many_option_errors(pipeline):
    with pytest.raises(
        TypeError,
        match=r"^canonicalize_many\(\) argument 'drop_params' must be an iterable of str, not str$",
    ):
        pipeline.canonicalize_many(["http://a/"], drop_params="utm_*")
    with pytest.raises(
        TypeError,
        match=r"^canonicalize_many\(\) argument 'drop_params' items must be str, not int$",
    ):
        pipeline.canonicalize_many(["http://a/"], drop_params=["a", 1])


# ---- parity and the facade ---------------------------------------------------

items = st.lists(st.text(max_size=40) | st.sampled_from(URIS) | st.integers(), max_size=8)


@pytest.mark.parity
@given(items, st.sampled_from(["raise", "none"]))
def test_twins_agree(twin_pair, values, errors):
    compiled, python = twin_pair("pipeline")
    for name, lead in BAD:
        outcomes = []
        for twin in (compiled, python):
            try:
                outcomes.append(getattr(twin, name)(*lead, values, errors=errors))
            except TypeError as exc:
                outcomes.append(("TypeError", str(exc)))
        assert outcomes[0] == outcomes[1]


def test_facade_binds_the_active_twin():
    want = "fasturi._pipeline_" + ("c" if fasturi.IMPLEMENTATION == "compiled" else "py")
    for name in ("split_many", "normalize_many", "canonicalize_many", "resolve_many"):
        assert getattr(fasturi, name).__module__ == want
    assert fasturi.split_many(["a:b"]) == [fasturi.split("a:b")]
    assert fasturi.resolve_many(BASE, ["../g"]) == ["http://a/b/g"]


def test_batch_functions_take_pandas_columns():
    # docs/reference.md §3: a pandas string column, converted with .tolist() or iterated
    base = "https://docs.example.org/guide/intro/index.html"
    uris = ["HTTP://A/./b?y&x#f", "", "mailto:X@Y", "caf\u00e9?\U0001f600"]
    for dtype in (object, "string"):
        column = pd.Series(uris, dtype=dtype)
        assert fasturi.normalize_many(column.tolist()) == fasturi.normalize_many(uris)
        assert fasturi.canonicalize_many(column) == fasturi.canonicalize_many(uris)  # iterated
        assert fasturi.split_many(column.array) == fasturi.split_many(uris)
        assert fasturi.resolve_many(base, column) == fasturi.resolve_many(base, uris)
