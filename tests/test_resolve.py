"""Reference resolution: RFC 3986 §5.2 and its §5.4 examples, the
non-strict loophole, and RFC 2396 Appendix C with ``rfc=2396``."""

from __future__ import annotations

import pytest
from rfc_examples import RFC_5_4_1, RFC_5_4_2

from fasturi._types import InvalidURI

BASE = "http://a/b/c/d;p?q"

# §5.4.1, every example: RFC_5_4_1 (tests/rfc_examples.py).

# §5.4.2, every example: RFC_5_4_2 (tests/rfc_examples.py).

# RFC 2396 Appendix C.1 and C.2, every example, same base.  "(current
# document)" is the base without a fragment.
RFC_2396_C1 = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]
RFC_2396_C2 = [
    ("", "http://a/b/c/d;p?q"),
    ("../../../g", "http://a/../g"),
    ("../../../../g", "http://a/../../g"),
    ("/./g", "http://a/./g"),
    ("/../g", "http://a/../g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


@pytest.mark.parametrize(("ref", "want"), RFC_5_4_1)
def test_normal_examples(core, ref, want):
    assert core.resolve(BASE, ref) == want


@pytest.mark.parametrize(("ref", "want"), RFC_5_4_2)
def test_abnormal_examples(core, ref, want):
    assert core.resolve(BASE, ref) == want


@pytest.mark.parametrize(("ref", "want"), RFC_5_4_1 + RFC_5_4_2[:-1])
def test_non_strict_agrees_when_schemes_differ(core, ref, want):
    assert core.resolve(BASE, ref, strict=False) == want


@pytest.mark.parametrize(
    ("ref", "want"),
    [
        ("http:g", "http://a/b/c/g"),  # §5.4.2 "for backward compatibility"
        ("HTTP:g", "http://a/b/c/g"),  # schemes compare caselessly
        ("http:", "http://a/b/c/d;p?q"),
        ("http:?y", "http://a/b/c/d;p?y"),
        ("http:/g", "http://a/g"),
        ("http://g", "http://g"),  # an authority still replaces the base's
        ("https:g", "https:g"),
        ("ftp:g", "ftp:g"),
    ],
)
def test_non_strict(core, ref, want):
    assert core.resolve(BASE, ref, strict=False) == want


@pytest.mark.parametrize(("ref", "want"), RFC_2396_C1 + RFC_2396_C2)
def test_rfc2396_appendix_c(core, ref, want):
    assert core.resolve(BASE, ref, rfc=2396) == want


def test_rfc2396_backwards_compatible_reading(core):
    # C.2: "http:g" = "http://a/b/c/g" "for backwards compatibility"
    assert core.resolve(BASE, "http:g", rfc=2396, strict=False) == "http://a/b/c/g"


@pytest.mark.parametrize(
    ("base", "ref", "want"),
    [
        # §5.2.3 first rule: a base with an authority and an empty path
        ("http://a", "g", "http://a/g"),
        ("http://a", "../g", "http://a/g"),
        ("http://a?q", "", "http://a?q"),
        ("http://a", "?y", "http://a?y"),
        # no "/" in the base path: the whole path goes
        ("foo:bar", "baz", "foo:baz"),
        ("foo:bar", "../baz", "foo:baz"),
        ("mailto:a@b", "c", "mailto:c"),
        ("urn:a:b", "#f", "urn:a:b#f"),
        # the base's fragment never carries over
        ("http://a/b#f", "", "http://a/b"),
        ("http://a/b#f", "#g", "http://a/b#g"),
        ("http://a/b#f", "c", "http://a/c"),
        # dot segments of the base path are not the resolver's business
        ("http://a/b/./c/../d", "", "http://a/b/./c/../d"),
        ("http://a/b/./c/../d", "e", "http://a/b/e"),
        # empty vs undefined survive
        ("http://a/b?q", "?", "http://a/b?"),
        ("http://a/b?q", "#", "http://a/b?q#"),
        ("http://a/b", "//", "http://"),
        ("http://a/b", "//h?", "http://h?"),
        # an absolute reference still loses its dot segments (§5.2.2)
        ("http://a/b", "s://h/x/../y/./z", "s://h/y/z"),
        ("http://a/b", "s:x/../../y", "s:/y"),
        ("http://a/b", "//h/x/../y", "http://h/y"),
        # text outside the grammar resolves all the same
        ("http://a/b/c", "é/../ü?ö#ä", "http://a/b/ü?ö#ä"),
        ("é://ü/c", "\U0001f600", "é://ü/\U0001f600"),
        ("x:/\ud800/a", "b", "x:/\ud800/b"),
        ("HTTP://A/b", "c", "HTTP://A/c"),
        ("http://a/b c/d", "e f", "http://a/b c/e f"),
    ],
)
def test_resolve_edges(core, base, ref, want):
    assert core.resolve(base, ref) == want


@pytest.mark.parametrize(
    ("base", "ref", "want"),
    [
        # Without an authority, a path that starts with "//" would read back
        # as one; it is written "/.//", the same path after §5.2.4.
        ("foo:/a/b", "..//g", "foo:/.//g"),
        ("foo:/a", "/..//g", "foo:/.//g"),
        ("http://a/b", "s:/..//g", "s:/.//g"),
        ("foo:", "/.//g", "foo:/.//g"),
    ],
)
def test_path_that_would_read_as_an_authority(core, base, ref, want):
    result = core.resolve(base, ref)
    assert result == want
    parts = core.split(result)
    assert parts.authority is None
    assert core.remove_dot_segments(parts.path) == "//g"


def test_rfc2396_merge_edges(core):
    assert core.resolve("http://a/b/c", "x/../../../y", rfc=2396) == "http://a/../y"
    assert core.resolve("foo:a/b", "../../c", rfc=2396) == "foo:../c"
    assert core.resolve("http://a", "g", rfc=2396) == "http://a/g"
    assert core.resolve("http://a/b#f", "", rfc=2396) == "http://a/b"
    assert core.resolve("http://a/b#f", "#g", rfc=2396) == "http://a/b#g"
    # steps 3-5 take absolute URIs, network paths and absolute paths as written
    assert core.resolve(BASE, "s://h/./x/../y", rfc=2396) == "s://h/./x/../y"
    assert core.resolve(BASE, "//h/./x", rfc=2396) == "http://h/./x"


def test_many_dot_dot_segments(core):
    assert core.resolve("http://a/b/c/d", "../" * 100_000 + "g") == "http://a/g"
    assert core.resolve("http://a/b/c/d", "../" * 100_000 + "g", rfc=2396) == (
        "http://a/" + "../" * (100_000 - 2) + "g"
    )


def test_large_inputs(core):
    base = "http://h/" + "a/" * 500_000
    assert core.resolve(base, "x") == base + "x"
    ref = "p" * 5_000_000
    assert core.resolve("http://h/", ref) == "http://h/" + ref


@pytest.mark.parametrize("base", ["", "/a/b", "//h/p", "a/b", "?q", "#f", ":x", "/a:b"])
def test_base_must_have_a_scheme(core, base):
    with pytest.raises(InvalidURI) as info:
        core.resolve(base, "g")
    assert str(info.value) == "base URI must be absolute"
    assert info.value.position == 0
    assert info.value.rule == "absolute-URI"
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("rfc", [1808, 3987, 0, -3986])
def test_unknown_rfc(core, rfc):
    with pytest.raises(ValueError) as info:
        core.resolve(BASE, "g", rfc=rfc)
    assert str(info.value) == f"resolve() argument 'rfc' must be 3986 or 2396, not {rfc!r}"


@pytest.mark.parametrize("rfc", [True, False, "3986", None, 3986.0])
def test_rfc_that_is_no_int(core, rfc):
    # (True == 1, but names no RFC)
    with pytest.raises(TypeError) as info:
        core.resolve(BASE, "g", rfc=rfc)
    want = f"resolve() argument 'rfc' must be int, not {type(rfc).__name__}"
    assert str(info.value) == want


def test_rfc_any_integer(core):
    # an integer of another type (numpy's) names its RFC as the int does
    class Number:
        def __init__(self, n):
            self.n = n

        def __index__(self):
            return self.n

    assert core.resolve(BASE, "../../../g", rfc=Number(2396)) == "http://a/../g"
    with pytest.raises(ValueError, match="must be 3986 or 2396"):
        core.resolve(BASE, "g", rfc=Number(1808))


def test_type_errors(core):
    with pytest.raises(TypeError) as info:
        core.resolve(b"http://a", "g")
    assert str(info.value) == "resolve() argument 'base' must be str, not bytes"
    with pytest.raises(TypeError) as info:
        core.resolve("http://a", None)
    assert str(info.value) == "resolve() argument 'ref' must be str, not NoneType"
    with pytest.raises(TypeError):
        core.resolve(BASE, "g", True)  # strict and rfc are keyword-only
