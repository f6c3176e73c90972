"""registrable_domain and public_suffix (docs/reference.md §4): the Public Suffix List
algorithm, from the list's own rules and test cases, and agreement with the
publicsuffixlist package (the same list text) on real and generated hosts."""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

import publicsuffixlist
import pytest
from crawler_corpus import corpora, urls
from hypothesis import given
from hypothesis import strategies as st

import fasturi

# A small list with each kind of rule, in both sections.
LIST = """\
// VERSION: 2000-01-01_test
// ===BEGIN ICANN DOMAINS===
com
uk
co.uk
// a wildcard, and an exception to it
*.ck
!www.ck
jp
// a wildcard without its root listed: the root is implied
*.kobe.jp
!city.kobe.jp
cn
公司.cn
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
blogspot.com
*.compute.example.com
// ===END PRIVATE DOMAINS===
"""


@pytest.fixture
def small(psl, tmp_path):
    """The twin, reading LIST until the test ends."""
    path = tmp_path / "list.dat"
    path.write_text(LIST, encoding="utf-8")
    psl.load_public_suffix_list(str(path))
    yield psl
    psl.load_public_suffix_list(None)


# host -> (public suffix, registrable domain), ICANN section only
ICANN_CASES = {
    "example.com": ("com", "example.com"),
    "a.b.example.com": ("com", "example.com"),
    "com": ("com", None),
    "example.co.uk": ("co.uk", "example.co.uk"),
    "www.example.co.uk": ("co.uk", "example.co.uk"),
    "co.uk": ("co.uk", None),
    # *.ck: every label under ck is public; !www.ck is not
    "ck": ("ck", None),
    "test.ck": ("test.ck", None),
    "b.test.ck": ("test.ck", "b.test.ck"),
    "a.b.test.ck": ("test.ck", "b.test.ck"),
    "www.ck": ("ck", "www.ck"),
    "a.www.ck": ("ck", "www.ck"),
    # *.kobe.jp implies kobe.jp
    "kobe.jp": ("kobe.jp", None),
    "c.kobe.jp": ("c.kobe.jp", None),
    "b.c.kobe.jp": ("c.kobe.jp", "b.c.kobe.jp"),
    "city.kobe.jp": ("kobe.jp", "city.kobe.jp"),
    "www.city.kobe.jp": ("kobe.jp", "city.kobe.jp"),
    # no rule: the implicit "*"
    "example": ("example", None),
    "a.example": ("example", "a.example"),
    "a.b.example": ("example", "b.example"),
    # IDN rules match Unicode and A-label hosts; answers keep the host's form
    "食狮.公司.cn": ("公司.cn", "食狮.公司.cn"),
    "www.食狮.公司.cn": ("公司.cn", "食狮.公司.cn"),
    "www.xn--85x722f.xn--55qx5d.cn": ("xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
    "公司.cn": ("公司.cn", None),
    # PRIVATE rules do not count here
    "foo.blogspot.com": ("com", "blogspot.com"),
    "a.b.compute.example.com": ("com", "example.com"),
}

PRIVATE_CASES = {
    "foo.blogspot.com": ("blogspot.com", "foo.blogspot.com"),
    "blogspot.com": ("blogspot.com", None),
    "a.b.compute.example.com": ("b.compute.example.com", "a.b.compute.example.com"),
    "b.compute.example.com": ("b.compute.example.com", None),
    "compute.example.com": ("compute.example.com", None),
    "example.com": ("com", "example.com"),
    "www.ck": ("ck", "www.ck"),
}


@pytest.mark.parametrize(("host", "want"), sorted(ICANN_CASES.items()))
def test_rules_icann(small, host, want):
    assert (small.public_suffix(host), small.registrable_domain(host)) == want


@pytest.mark.parametrize(("host", "want"), sorted(PRIVATE_CASES.items()))
def test_rules_private(small, host, want):
    got = (small.public_suffix(host, private=True), small.registrable_domain(host, private=True))
    assert got == want


# Whatever s is written as, the host is what counts.
FORMS = {
    "WwW.Example.COM": "example.com",
    "example.com.": "example.com",  # one trailing dot: the root
    "https://user:pw@WWW.Example.com:8443/path?q#f": "example.com",
    "http://example.co.uk./": "example.co.uk",
    "//a.example.com/x": "example.com",
    "example.com:8080": "example.com",
    "user@example.com": "example.com",
    "example.com/path?q": "example.com",
    "HTTP://XN--85X722F.XN--55QX5D.CN/": "xn--85x722f.xn--55qx5d.cn",
}

# No host, or no name: None from both functions.
NO_ANSWER = [
    "",
    "192.168.0.1",
    "http://127.0.0.1:8080/",
    "[::1]",
    "http://[2001:db8::1]/",
    "http://[v7.x]/",
    "a..example.com",
    ".example.com",
    "example.com..",
    "http:///path",
    "mailto:someone",  # a scheme, not a host and port
    "urn:isbn:0451450523",
]


@pytest.mark.parametrize(("s", "want"), sorted(FORMS.items()))
def test_uri_and_host_forms(small, s, want):
    assert small.registrable_domain(s) == want


@pytest.mark.parametrize("s", NO_ANSWER)
def test_no_answer(small, s):
    for private in (False, True):
        assert small.public_suffix(s, private=private) is None
        assert small.registrable_domain(s, private=private) is None


def test_version_of_loaded_list(small):
    assert small.public_suffix_list_version() == "2000-01-01_test"


def test_packaged_list_version(psl):
    # the "// VERSION:" line of the file publicsuffixlist ships
    text = Path(publicsuffixlist.PSLFILE).read_text(encoding="utf-8")
    want = re.search(r"^// VERSION: (\S+)", text, re.M).group(1)
    assert psl.public_suffix_list_version() == want


@pytest.mark.parametrize("func", ["registrable_domain", "public_suffix"])
def test_type_error(psl, func):
    with pytest.raises(TypeError, match=rf"^{func}\(\) argument 's' must be str, not bytes$"):
        getattr(psl, func)(b"example.com")


def test_facade():
    assert fasturi.registrable_domain("https://www.bbc.co.uk/news") == "bbc.co.uk"
    assert fasturi.public_suffix("https://www.bbc.co.uk/news") == "co.uk"
    assert fasturi.registrable_domain("a.b.blogspot.com", private=True) == "b.blogspot.com"
    assert fasturi.registrable_domain("a.b.blogspot.com") == "blogspot.com"
    assert fasturi.public_suffix_list_version()


# ---- the list's own test cases --------------------------------------------


def _official_cases():
    # publicsuffix.org's tests/test_psl.txt, as the publicsuffixlist package
    # ships it: checkPublicSuffix(host, registrable domain) on the whole list
    path = Path(publicsuffixlist.__file__).with_name("test_psl.txt")
    pattern = re.compile(r"^checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);", re.M)
    cases = []
    for host, want in pattern.findall(path.read_text(encoding="utf-8")):
        if host != "null":
            cases.append((host.strip("'"), None if want == "null" else want.strip("'")))
    return cases


OFFICIAL = _official_cases()


def test_official_cases_read():
    assert len(OFFICIAL) > 50


@pytest.mark.parametrize(("host", "want"), OFFICIAL)
def test_official_cases(psl, host, want):
    assert psl.registrable_domain(host, private=True) == want


# ---- agreement with publicsuffixlist --------------------------------------


@pytest.fixture(scope="module")
def peers():
    # (ICANN only, both sections), reading the same packaged file
    return (
        publicsuffixlist.PublicSuffixList(only_icann=True),
        publicsuffixlist.PublicSuffixList(),
    )


def _comparable(s):
    """The host publicsuffixlist is given for s, or None where fasturi says
    None by definition (no host, an IP address) and the package guesses."""
    try:
        host = fasturi.URI(s).host
    except ValueError:
        return None
    if host is None or host.startswith("[") or ":" in host:
        return None
    if fasturi.host_type(host[:-1] if host.endswith(".") else host) == "IPv4":
        return None
    return host


@pytest.mark.parametrize("path", corpora(), ids=lambda p: p.parent.name)
def test_agrees_with_publicsuffixlist_on_corpus(psl, peers, path):
    checked = 0
    wrong = []
    for url in urls(path):
        host = _comparable(url)
        if host is None:
            continue
        checked += 1
        for private, peer in zip((False, True), peers):
            want = (peer.publicsuffix(host), peer.privatesuffix(host))
            got = (
                psl.public_suffix(url, private=private),
                psl.registrable_domain(url, private=private),
            )
            if got != want:
                wrong.append((url, private, got, want))
    assert checked > 3000
    assert wrong == []


# labels the rules are made of, and others
_RULE_LABELS = sorted(
    {
        label
        for line in Path(publicsuffixlist.PSLFILE).read_text(encoding="utf-8").splitlines()[::40]
        if line and not line.startswith("//")
        for label in line.lstrip("!").split(".")
    }
)
_LABEL = st.one_of(
    st.sampled_from(_RULE_LABELS + ["www", "WWW", "City", "xn--55qx5d", "公司", "食狮"]),
    st.text(alphabet="abcXYZ019-_é", min_size=0, max_size=4),
)


@given(st.lists(_LABEL, min_size=1, max_size=6).map(".".join), st.booleans())
def test_agrees_with_publicsuffixlist_on_generated_hosts(psl, peers, host, dot):
    host += "." if dot else ""
    if _comparable(host) != host:
        return
    for private, peer in zip((False, True), peers):
        want = (peer.publicsuffix(host), peer.privatesuffix(host))
        got = (
            psl.public_suffix(host, private=private),
            psl.registrable_domain(host, private=private),
        )
        assert got == want


def test_rules_as_deep_as_allowed(psl, tmp_path):
    # 120 labels, the deepest rule a compiled table takes: every suffix of a
    # host far deeper is looked up, none past the deepest rule's
    deep = ".".join(f"l{i}" for i in range(120))
    path = tmp_path / "deep.dat"
    path.write_text(
        f"// ===BEGIN ICANN DOMAINS===\n{deep}\n*.w.{deep.split('.', 2)[2]}\n"
        "// ===END ICANN DOMAINS===\n",
        encoding="utf-8",
    )
    psl.load_public_suffix_list(str(path))
    try:
        host = "a.b.c." + deep
        assert psl.public_suffix(host) == deep
        assert psl.registrable_domain(host) == "c." + deep
        assert psl.registrable_domain("z." * 130 + deep) == "z." + deep
        wild = "x.w." + deep.split(".", 2)[2]
        assert psl.public_suffix("q." + wild) == wild
    finally:
        psl.load_public_suffix_list(None)


# LIST, but with example.com a public suffix of its own: hosts under it
# have other answers by each list.
LIST_B = LIST.replace("\ncom\n", "\ncom\nexample.com\n")
SWAP_HOSTS = [
    "a.b.example.com",
    "http://www.Example.COM/p",
    "b.test.ck",
    "www.city.kobe.jp",
    "foo.blogspot.com",
    "www.食狮.公司.cn",
    "x." * 40 + "example.com",  # (longer than the compiled side's stack buffer)
]


def _answers(psl):
    answers = []
    for h in SWAP_HOSTS:
        answers += [psl.registrable_domain(h), psl.public_suffix(h, private=True)]
    return answers


def test_lookups_while_lists_are_swapped(psl, tmp_path):
    # Readers look hosts up while another thread swaps two lists in and
    # out: each answer is the one list's or the other's (each call's: two
    # calls may find different lists).  (The compiled twin's swap once
    # freed the table a reader had just loaded: without the GIL, a
    # segfault, a hang or answers from freed memory.)
    paths = []
    for name, text in (("a.dat", LIST), ("b.dat", LIST_B)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    by_list = []
    for path in paths:
        psl.load_public_suffix_list(path)
        by_list.append(_answers(psl))
    assert by_list[0] != by_list[1]
    allowed = [set(pair) for pair in zip(*by_list)]
    start = threading.Barrier(7)
    swapped = threading.Event()
    wrong = []
    rounds = []

    def read():
        start.wait()
        done = 0
        while not swapped.is_set():  # (bounded by the swaps' fixed number)
            for i, got in enumerate(_answers(psl)):
                if got not in allowed[i]:
                    wrong.append((SWAP_HOSTS[i // 2], got))
            done += 1
        rounds.append(done)

    def swap():
        start.wait()
        try:
            for k in range(2000):
                psl.load_public_suffix_list(paths[k % 2])
        finally:
            swapped.set()

    threads = [threading.Thread(target=read) for _ in range(6)] + [threading.Thread(target=swap)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # (with a GIL: the swapping thread gets it often)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
        psl.load_public_suffix_list(None)
    assert not wrong, wrong[:5]
    assert len(rounds) == 6 and min(rounds) > 0  # every reader read during the swaps


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX's")
def test_a_child_forked_during_a_swap_swaps_lists(psl):
    # The lock a swap holds, held at the fork (as by another thread of the
    # parent): the child's own swap must not wait for it forever.
    with psl._lock:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # (threads here: pytest's)
            pid = os.fork()
        if pid == 0:  # the child
            try:
                psl.load_public_suffix_list(None)
                os._exit(0 if psl.registrable_domain("a.b.example.com") == "example.com" else 1)
            except BaseException:
                os._exit(2)
    for _ in range(1200):  # (a child stuck on the lock is killed after 2 minutes)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child's load_public_suffix_list() waited for good")
    assert os.waitstatus_to_exitcode(status) == 0
