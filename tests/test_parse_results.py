"""Result objects of fasturi.parse against the running interpreter's own.

A result is more than its values: 3.15 records ``missing_as_none`` on it
(``_keep_empty``), and ``urlunsplit``/``urlunparse``, ``geturl()``,
``_replace``, ``encode``/``decode``, copying and pickling read or carry it.
For every split function, str and bytes, and every ``missing_as_none`` form
this Python has (not given, ``False``, ``True``), the result fasturi.parse
makes and the one urllib.parse makes behave the same under each of those
operations; and ``urlunsplit``/``urlunparse`` of either module agree on
results made by either module, with ``keep_empty`` not given, ``False``,
``True`` and other values.  Expectations come from the running stdlib, so
the same tests hold on 3.9 to 3.15.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import urllib.parse as std

import pytest
from hypothesis import given
from hypothesis import strategies as st
from outcomes import outcome, typed

import fasturi.parse as fp

NOT_SET = "<not set>"
URLS = [
    "http://u:p@a:80/b;p?q#f",
    "http://a/b?#",
    "a?#",
    "//x/p",
    "////p",
    "http:",
    "http://",
    "mailto:a@b#",
    "",
    "/p;x",
    "HTTP://A/%7e?q",
    "http://[::1]:8/p",
    "http://\xe9.fr/\u4e2d?\xe9#\xe9",
    " http://a/b",
    "http://a\t/b",
    "file:///tmp/x",
    "svn+ssh://a/b;c",
    "itms-services://?action=x",
]
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    fp.uninstall()


def _has(fn, keyword):
    return keyword in inspect.signature(getattr(std, fn)).parameters


def split_forms():
    """(function name, kwargs) for each form of the split family here."""
    forms = []
    for name in ("urlsplit", "urlparse", "urldefrag"):
        forms.append((name, {}))
        if _has(name, "missing_as_none"):
            forms += [(name, {"missing_as_none": False}), (name, {"missing_as_none": True})]
    return forms


def keep_forms(name):
    """The keep_empty= values urlunsplit/urlunparse take here."""
    if not _has(name, "keep_empty"):
        return [{}]
    return [{}, {"keep_empty": False}, {"keep_empty": True}, {"keep_empty": 0}]


def state(r):
    """Everything a caller can read off a result, typed."""
    return (typed(r), getattr(r, "_keep_empty", NOT_SET))


def inputs(url):
    yield url
    try:
        yield url.encode("ascii")
    except UnicodeEncodeError:
        pass


def behaviour(r):
    """What each operation on a result gives."""
    out = {"state": state(r), "geturl": outcome(r.geturl)}
    out["copy"] = state(copy.copy(r))
    out["deepcopy"] = state(copy.deepcopy(r))
    out["pickle"] = [state(pickle.loads(pickle.dumps(r, p))) for p in PROTOCOLS]
    first = r._fields[0]
    out["replace"] = outcome(lambda: state(r._replace(**{first: r[0][:0]})))
    if hasattr(r, "encode"):
        out["encode"] = outcome(lambda: state(r.encode()))
    else:
        out["decode"] = outcome(lambda: state(r.decode()))
    return out


def _both(name, url, kwargs):
    ours = outcome(getattr(fp, name), url, **kwargs)
    theirs = outcome(getattr(std, name), url, **kwargs)
    assert ours == theirs, (name, url, kwargs)
    if ours[0] == "raise":
        return None, None
    return getattr(fp, name)(url, **kwargs), getattr(std, name)(url, **kwargs)


@pytest.mark.parametrize(("name", "kwargs"), split_forms())
@pytest.mark.parametrize("url", URLS)
def test_results_behave_as_the_stdlibs(name, kwargs, url):
    for text in inputs(url):
        ours, theirs = _both(name, text, kwargs)
        if ours is None:
            continue
        assert behaviour(ours) == behaviour(theirs), (name, text, kwargs)


@pytest.mark.parametrize(("name", "kwargs"), split_forms())
def test_keep_empty_slot_is_the_stdlibs(name, kwargs):
    # where the stdlib records missing_as_none on its results, so does fasturi
    ours, theirs = _both(name, "http://a/b?q#f", kwargs)
    assert getattr(ours, "_keep_empty", NOT_SET) == getattr(theirs, "_keep_empty", NOT_SET)
    assert hasattr(ours, "_keep_empty") == hasattr(theirs, "_keep_empty")


JOIN_BACK = {"urlsplit": "urlunsplit", "urlparse": "urlunparse"}


def _sources(name, url, kwargs):
    """Components to put back together: results of both modules, a tuple, a list."""
    for text in inputs(url):
        ours, theirs = _both(name, text, kwargs)
        if ours is None:
            continue
        yield from (ours, theirs, tuple(theirs), list(theirs))


@pytest.mark.parametrize(("name", "kwargs"), [f for f in split_forms() if f[0] in JOIN_BACK])
@pytest.mark.parametrize("url", URLS)
def test_joining_back_agrees_on_every_keep_empty_form(name, kwargs, url):
    back = JOIN_BACK[name]
    for parts in _sources(name, url, kwargs):
        for keep in keep_forms(back):
            ours = outcome(getattr(fp, back), parts, **keep)
            theirs = outcome(getattr(std, back), parts, **keep)
            assert ours == theirs, (back, parts, keep)


def test_components_with_none_join_as_the_stdlib_joins():
    # 3.15: None is a missing component; a made-up result without a recorded
    # _keep_empty, with keep_empty given or not
    made = [
        std.SplitResult(None, "", "/path/to/file", None, None),
        std.ParseResult(None, "", "/path/to/file", None, None, None),
        std.SplitResult("http", None, "x", "", None),
        ("http", "", "", "", ""),
        ["", "", "//x", "", ""],
    ]
    for parts in made:
        back = "urlunparse" if len(parts) == 6 else "urlunsplit"
        for keep in keep_forms(back):
            assert outcome(getattr(fp, back), parts, **keep) == outcome(
                getattr(std, back), parts, **keep
            ), (parts, keep)


@given(st.text(st.sampled_from(list("ab/.:?#;@%=[]\xe9 \t")), max_size=16))
def test_results_of_any_text_pickle_and_join_back_the_same(url):
    for name, kwargs in split_forms():
        ours, theirs = _both(name, url, kwargs)
        if ours is None:
            continue
        assert state(pickle.loads(pickle.dumps(ours))) == state(pickle.loads(pickle.dumps(theirs)))
        back = JOIN_BACK.get(name)
        if back is not None:
            for keep in keep_forms(back):
                assert outcome(getattr(fp, back), ours, **keep) == outcome(
                    getattr(std, back), theirs, **keep
                ), (url, name, kwargs, keep)


def test_parse_qsl_takes_the_stdlibs_keywords():
    ours = inspect.signature(fp.parse_qsl).parameters
    theirs = inspect.signature(std.parse_qsl).parameters
    assert [(p.name, p.kind, p.default) for p in ours.values()] == [
        (p.name, p.kind, p.default) for p in theirs.values()
    ]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((b"",), {"separator": "\xe9"}),
        ((b"",), {"separator": "&"}),
        (("",), {"separator": b"\xe9"}),
        ((b"a=1;b=2",), {"separator": ";"}),
        ((b"a=1",), {"separator": ""}),
        ((bytearray(b"a=1"),), {}),
        ((b"",), {"max_num_fields": 0}),
        ((0,), {}),
        ((None,), {}),
    ],
)
def test_parse_qsl_edge_arguments(args, kwargs):
    for fn in ("parse_qsl", "parse_qs"):
        assert outcome(getattr(fp, fn), *args, **kwargs) == outcome(
            getattr(std, fn), *args, **kwargs
        ), (fn, args, kwargs)


def _warned_where(fn, *args, **kwargs):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [(w.category, w.filename) for w in caught]


@pytest.mark.parametrize("fn", ["parse_qsl", "parse_qs"])
def test_parse_qs_warnings_name_the_callers_frame(fn):
    # a deprecated false non-str query (3.14+) warns at the caller's line,
    # through fasturi as through the stdlib
    for qs in (0, [], b"", ""):
        assert _warned_where(getattr(fp, fn), qs) == _warned_where(getattr(std, fn), qs), qs
    if "_stacklevel" in inspect.signature(std.parse_qsl).parameters:
        assert _warned_where(fp.parse_qsl, 0, _stacklevel=2) == _warned_where(
            std.parse_qsl, 0, _stacklevel=2
        )
