"""urllib.parse's module state, honoured as the stdlib honours it.

The stdlib's functions read their module's globals on every call
(``scheme_chars``, the ``uses_*`` lists, the tables of what is stripped,
their helpers and result classes, one another).  Code that rebinds one of
them, or patches a function the others call, changes what the stdlib
answers; fasturi.parse answers the same.  install() and uninstall() stay
right when either module is reloaded (those run in a child interpreter: a
reload of urllib.parse makes new result classes for the rest of a
process).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
import urllib.parse as std
from unittest import mock

import pytest

import fasturi.parse as fp
from fasturi import _stdstate

pytestmark = pytest.mark.compiled

URLS = [
    "http://a/b;p?q#f",
    "a_b:c/d",
    "A-B.c+d:x",
    "x:y",
    "Https://h/p",
    "  http://a/b",
    "\x00\x01http://a",
    "ht\ttp://a/b\n",
    "svn+ssh://h/p;q",
    "foo://h/p;x?y",
    "//h/p",
    "mailto:a@b",
]
PARTS = [
    ("http", "", "/p", "", ""),
    ("foo", "", "/p", "q", ""),
    ("foo", "", "p", "", ""),
    ("a_b", "h", "p", "", "f"),
]
JOINS = [
    ("http://a/b/c", "../d"),
    ("foo://a/b/c", "../d"),
    ("a_b://a/b/c", "d"),
    ("foo://a/b/c", "//h/x"),
    ("foo:/b/c", "d;p"),
]


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    fp.uninstall()
    yield
    fp.uninstall()


def outcome(fn, *args):
    try:
        r = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return ("raise", type(exc), str(exc))
    return ("ok", type(r), r)


def split_family_agrees():
    """Every split-family function on the inputs above, fp against std (the
    stdlib's urlsplit without its cache: a cached answer predates a change)."""
    raw = getattr(std.urlsplit, "__wrapped__", std.urlsplit)
    fp.clear_cache()
    for url in URLS:
        assert outcome(fp.urlsplit, url) == outcome(raw, url), url
        assert outcome(fp.urlparse, url) == outcome(std.urlparse, url), url
        assert outcome(fp.urldefrag, url + "#z") == outcome(std.urldefrag, url + "#z"), url
    for parts in PARTS:
        assert outcome(fp.urlunsplit, parts) == outcome(std.urlunsplit, parts), parts
        six = parts[:3] + ("x",) + parts[3:]
        assert outcome(fp.urlunparse, six) == outcome(std.urlunparse, six), six
    for base, ref in JOINS:
        assert outcome(fp.urljoin, base, ref) == outcome(std.urljoin, base, ref), (base, ref)
    return True


@contextlib.contextmanager
def rebound(name, value):
    with mock.patch.object(std, name, value):
        yield


@pytest.mark.parametrize(
    "chars",
    [
        std.scheme_chars + "_",  # more characters make a scheme
        std.scheme_chars.replace("+", ""),  # fewer
        "abcdefghijklmnopqrstuvwxyz",  # lower case only
        "",
    ],
)
def test_scheme_chars(chars):
    with rebound("scheme_chars", chars):
        assert split_family_agrees()
    assert split_family_agrees()


def test_uses_lists_rebound_and_extended():
    for name in ("uses_netloc", "uses_relative", "uses_params"):
        with rebound(name, [*getattr(std, name), "foo", "a_b"]):
            assert split_family_agrees()
        with rebound(name, ("", "http")):  # any container
            assert split_family_agrees()
        lst = getattr(std, name)
        lst.append("foo")
        try:
            assert split_family_agrees()
        finally:
            lst.remove("foo")
    assert split_family_agrees()


def test_uses_list_deleted():
    for name in ("uses_netloc", "uses_relative", "uses_params"):
        saved = getattr(std, name)
        delattr(std, name)
        try:
            assert split_family_agrees()  # the same NameError where it is read
        finally:
            setattr(std, name, saved)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("_WHATWG_C0_CONTROL_OR_SPACE", ""),
        ("_WHATWG_C0_CONTROL_OR_SPACE", " "),
        ("_UNSAFE_URL_BYTES_TO_REMOVE", ["\t"]),
        ("_UNSAFE_URL_BYTES_TO_REMOVE", ["\t", "\r", "\n", "/"]),
    ],
)
def test_stripped_characters(name, value):
    if not hasattr(std, name):  # (a 3.9 patch release before the security fix)
        pytest.fail(f"urllib.parse has no {name}")
    with rebound(name, value):
        assert split_family_agrees()


def test_helpers_patched():
    # a stricter netloc check, and a result class of one's own
    def refuse(netloc, *rest):
        if netloc and "bad" in netloc:
            raise ValueError("refused: " + netloc)

    raw = getattr(std.urlsplit, "__wrapped__", std.urlsplit)
    with rebound("_checknetloc", refuse):
        assert outcome(fp.urlsplit, "http://bad/x") == outcome(raw, "http://bad/x")
        assert outcome(fp.urlsplit, "http://bad/x")[0] == "raise"
        assert split_family_agrees()

    class Mine(std.SplitResult):
        __slots__ = ()

    with rebound("SplitResult", Mine):
        assert type(fp.urlsplit("http://a/b")) is Mine
        assert split_family_agrees()
    assert type(fp.urlsplit("http://a/b")) is std.SplitResult


def test_function_the_stdlib_calls_patched():
    # the stdlib's split functions all go through _coerce_args; quote
    # through quote_from_bytes; parse_qs through parse_qsl
    with mock.patch.object(std, "_coerce_args", wraps=std._coerce_args) as seen:
        fp.urlsplit("http://a/b/patched")
        fp.urljoin("http://a/b", "c")
        fp.urlunsplit(("http", "a", "/b", "", ""))
        assert seen.call_count >= 3
    with mock.patch.object(std, "quote_from_bytes", wraps=std.quote_from_bytes) as seen:
        assert fp.quote("a b") == "a%20b"
        assert seen.call_count == 1
    with mock.patch.object(std, "parse_qsl", return_value=[("k", "v")]):
        assert fp.parse_qs("x=y") == std.parse_qs("x=y") == {"k": ["v"]}
    # once restored, the compiled functions answer again
    with mock.patch.object(std, "quote_from_bytes", wraps=std.quote_from_bytes) as seen:
        pass
    fp.quote("a b")
    assert seen.call_count == 0


def test_quote_tables_rebound():
    safe = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~ ")
    try:
        with rebound("_ALWAYS_SAFE", safe), rebound("_ALWAYS_SAFE_BYTES", bytes(safe)):
            for text in ("a b", "a b/c", "\xe9 x"):
                assert outcome(fp.quote, text, "") == outcome(std.quote, text, "")
                assert outcome(fp.quote_plus, text) == outcome(std.quote_plus, text)
                assert outcome(fp.urlencode, {"k": text}) == outcome(std.urlencode, {"k": text})
    finally:
        # the stdlib's quoters were made with that table and are kept by its
        # own cache: they would go on answering so
        std.clear_cache()
    assert fp.quote("a b", "") == std.quote("a b", "") == "a%20b"


def test_builtin_shadowed_in_the_module():
    # a global of the module that shadows a builtin the stdlib's code reads
    std.len = lambda x: 0  # type: ignore[attr-defined]
    try:
        for fn in ("quote_from_bytes", "urlencode"):
            args = (b"a b",) if fn == "quote_from_bytes" else ([("a", "b c")],)
            assert outcome(getattr(fp, fn), *args) == outcome(getattr(std, fn), *args)
    finally:
        del std.len


def test_split_cache_stands_aside_while_the_state_differs():
    if not hasattr(std.urlsplit, "cache_info"):
        assert not hasattr(fp.urlsplit, "cache_info")  # 3.9, 3.10: no lru_cache
        return
    fp.urlsplit.cache_clear()
    with rebound("scheme_chars", std.scheme_chars + "_"):
        for _ in range(3):
            assert fp.urlsplit("a_b:c").scheme == "a_b"
        # the stdlib's own cache answered
        assert fp.urlsplit.cache_info().misses == 0
    for _ in range(3):
        assert fp.urlsplit("a_b:c").scheme == ""
    assert fp.urlsplit.cache_info()[:2] == (1, 2)


def test_names_read_are_the_stdlibs():
    # what is checked: the names this Python's urllib.parse code reads
    read = _stdstate.names_read(vars(std), [std.urlsplit, std.urljoin, std.quote])
    assert {"scheme_chars", "_coerce_args", "quote_from_bytes"} <= read
    assert "_hextobyte" not in read  # a table the stdlib builds itself
    assert "urlunsplit" in _stdstate.names_read(vars(std), [std.SplitResult])


# ---------------------------------------------------------------------------
# Reloads, in a child interpreter.


def run_child(code):
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_install_reload_fasturi_parse_uninstall():
    run_child(
        """
        import importlib, urllib.parse as std
        originals = {n: getattr(std, n) for n in ("urlsplit", "quote", "urljoin", "parse_qsl")}
        import fasturi.parse as fp
        fp.install()
        assert std.urlsplit is fp.urlsplit
        importlib.reload(fp)
        fp.install()
        fp.uninstall()
        for name, f in originals.items():
            assert getattr(std, name) is f, name
        assert fp.urlsplit("http://a/b") == originals["urlsplit"]("http://a/b")
        """
    )


def test_reload_urllib_parse_installed_and_not():
    run_child(
        """
        import importlib, urllib.parse as std
        import fasturi.parse as fp
        names = ("urlsplit", "urlparse", "urljoin", "urldefrag", "quote", "unquote", "urlencode")
        fp.install()
        importlib.reload(std)   # the stdlib's new functions replace the installed ones
        fresh = {n: getattr(std, n) for n in names}
        fp.uninstall()          # leaves them
        for n in names:
            assert getattr(std, n) is fresh[n], n
        # the compiled functions make the new result classes
        r = fp.urlsplit("http://a/b?q#f")
        assert type(r) is std.SplitResult, type(r)
        assert type(fp.urlparse("http://a/b;p")) is std.ParseResult
        assert type(fp.urldefrag("http://a/b#f")) is std.DefragResult
        assert fp.urljoin("http://a/b/c", "../d") == "http://a/d"
        fp.install()
        assert std.urlsplit is fp.urlsplit and std.quote is fp.quote
        assert type(std.urlsplit("http://x/y")) is std.SplitResult
        fp.uninstall()
        for n in names:
            assert getattr(std, n) is fresh[n], n
        # reloaded while nothing is installed
        importlib.reload(std)
        fresh = {n: getattr(std, n) for n in names}
        fp.install()
        fp.uninstall()
        for n in names:
            assert getattr(std, n) is fresh[n], n
        assert type(fp.urlsplit("http://a/c")) is std.SplitResult
        print("ok")
        """
    )


def test_uninstall_leaves_a_function_someone_else_installed():
    def mine(*args, **kwargs):
        return "mine"

    fp.install()
    std.quote = mine
    try:
        fp.uninstall()
        assert std.quote is mine
        assert std.urlsplit is not fp.urlsplit
    finally:
        std.quote = fp._original("quote")
