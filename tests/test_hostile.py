"""Inputs where URL parsers disagree and attackers profit from it.

For each class: what RFC 3986 says (split, validity, host), that
``fasturi.parse`` gives exactly what the stdlib gives, and that ``audit``
flags the hazard.  Expected RFC results are worked out from the ABNF and
Appendix B by hand, not read back from the code.
"""

from __future__ import annotations

import urllib.parse
import warnings

import pytest
from outcomes import outcome

import fasturi
import fasturi.parse as fp


def attrs(r):
    """Attributes of a urlsplit/urlparse result, or the error reading each."""
    return {
        name: outcome(getattr, r, name)
        for name in ("hostname", "port", "username", "password", "netloc")
    }


def assert_parse_matches_stdlib(url, base="http://a/b/c/d;p?q"):
    for name in ("urlsplit", "urlparse"):
        ours, theirs = outcome(getattr(fp, name), url), outcome(getattr(urllib.parse, name), url)
        assert ours == theirs, (name, url)
        if ours[0] == "return":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # compared in the outcomes above
                ours, theirs = getattr(fp, name)(url), getattr(urllib.parse, name)(url)
            assert attrs(ours) == attrs(theirs), (name, url)
    assert outcome(fp.urljoin, base, url) == outcome(urllib.parse.urljoin, base, url)
    assert outcome(fp.unquote, url) == outcome(urllib.parse.unquote, url)


def codes(url):
    return {f.code for f in fasturi.audit(url)}


# (input, RFC 3986 split, first invalid position or None, audit codes that must be present).
# The position is the end of the longest prefix that can still be completed to
# a valid URI-reference: in "http://::1]/" the prefix "http://::1" could be a
# userinfo awaiting "@", so the "]" at 10 is the first offending character.
CLASSES = {
    "leading-space": (" http://a/", (" http", "a", "/", None, None), 0, {"invalid"}),
    "leading-c0": (
        "\x00http://a/",
        ("\x00http", "a", "/", None, None),
        0,
        {"invalid", "control-character"},
    ),
    "trailing-c0": (
        "http://a/\x1f",
        ("http", "a", "/\x1f", None, None),
        9,
        {"invalid", "control-character"},
    ),
    "tab-in-host": (
        "http://a\tb.com/",
        ("http", "a\tb.com", "/", None, None),
        8,
        {"invalid", "control-character"},
    ),
    "crlf-in-path": (
        "http://a/x\r\nHost: evil",
        ("http", "a", "/x\r\nHost: evil", None, None),
        10,
        {"invalid", "control-character"},
    ),
    "backslash": (
        "http://evil.com\\@good.com/",
        ("http", "evil.com\\@good.com", "/", None, None),
        15,
        {"invalid"},
    ),
    "two-at-signs": ("http://a@b@c/", ("http", "a@b@c", "/", None, None), 10, {"invalid"}),
    "at-in-password": (
        "http://u:p@ss@h/",
        ("http", "u:p@ss@h", "/", None, None),
        13,
        {"invalid", "password-in-userinfo"},
    ),
    "hash-in-userinfo": ("http://u#@evil/", ("http", "u", "", None, "@evil/"), None, set()),
    "query-in-userinfo": ("http://u?@evil/", ("http", "u", "", "@evil/", None), None, set()),
    "ipv6": ("http://[::1]/", ("http", "[::1]", "/", None, None), None, set()),
    "unclosed-bracket": ("http://[::1/", ("http", "[::1", "/", None, None), 11, {"invalid"}),
    "unopened-bracket": ("http://::1]/", ("http", "::1]", "/", None, None), 10, {"invalid"}),
    "ipvfuture": ("http://[v7.a:b]/", ("http", "[v7.a:b]", "/", None, None), None, set()),
    "zone-id": (
        "http://[fe80::1%25eth0]/",
        ("http", "[fe80::1%25eth0]", "/", None, None),
        None,
        set(),
    ),
    "zone-id-unencoded": (
        "http://[fe80::1%eth0]/",
        ("http", "[fe80::1%eth0]", "/", None, None),
        16,
        {"invalid"},
    ),
    "encoded-dots": (
        "http://a/b/%2e%2E/c",
        ("http", "a", "/b/%2e%2E/c", None, None),
        None,
        {"encoded-dot-segment"},
    ),
    "encoded-slash": (
        "http://a/b%2Fc",
        ("http", "a", "/b%2Fc", None, None),
        None,
        {"encoded-delimiter"},
    ),
    "encoded-at-in-host": (
        "http://a%40b.com/",
        ("http", "a%40b.com", "/", None, None),
        None,
        {"encoded-delimiter"},
    ),
    "nfkc-host": (
        "http://a\uff03b.com/",
        ("http", "a\uff03b.com", "/", None, None),
        8,
        {"invalid"},
    ),
    "overlong-utf8": ("http://a/%C0%AF", ("http", "a", "/%C0%AF", None, None), None, set()),
    "integer-ipv4": (
        "http://3232235777/",
        ("http", "3232235777", "/", None, None),
        None,
        {"ambiguous-ipv4"},
    ),
    "hex-ipv4": ("http://0x7f.1/", ("http", "0x7f.1", "/", None, None), None, {"ambiguous-ipv4"}),
    "octal-ipv4": (
        "http://0177.0.0.1/",
        ("http", "0177.0.0.1", "/", None, None),
        None,
        {"ambiguous-ipv4"},
    ),
    "short-ipv4": ("http://127.1/", ("http", "127.1", "/", None, None), None, {"ambiguous-ipv4"}),
    "userinfo-host": (
        "http://www.bank.example@evil.example/",
        ("http", "www.bank.example@evil.example", "/", None, None),
        None,
        {"userinfo-looks-like-host"},
    ),
    "port-out-of-range": ("http://a:65536/", ("http", "a:65536", "/", None, None), None, set()),
    "port-with-sign": ("http://a:+80/", ("http", "a:+80", "/", None, None), 12, {"invalid"}),
    "empty-host": ("http:///p", ("http", "", "/p", None, None), None, set()),
    "empty-host-port": ("http://:80/", ("http", ":80", "/", None, None), None, set()),
}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_rfc3986_result(name):
    url, parts, bad_at, _ = CLASSES[name]
    assert tuple(fasturi.split(url)) == parts
    assert fasturi.unsplit(fasturi.split(url)) == url
    assert str(fasturi.URI(url)) == url
    if bad_at is None:
        assert fasturi.validate(url) == url
    else:
        with pytest.raises(fasturi.InvalidURI) as err:
            fasturi.validate(url)
        assert err.value.position == bad_at


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_drop_in_matches_stdlib(name):
    assert_parse_matches_stdlib(CLASSES[name][0])


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_audit_flags_hazard(name):
    url, _, bad_at, want = CLASSES[name]
    got = codes(url)
    assert want <= got, (url, got)
    assert ("invalid" in got) == (bad_at is not None)


def test_hosts_the_rfc_way():
    # §7.4: only the strict dotted-decimal form is an IPv4address.
    assert fasturi.URI("http://127.0.0.1/").host_type == "IPv4"
    for host in ("3232235777", "0x7f.1", "0177.0.0.1", "127.1"):
        assert fasturi.URI(f"http://{host}/").host_type == "reg-name"
    u = fasturi.URI("http://[fe80::1%25eth0]:8080/")
    assert (u.host, u.host_type, u.zone_id, u.port) == ("[fe80::1%25eth0]", "IPv6", "eth0", 8080)
    assert fasturi.URI("http://a:65536/").port == 65536  # RFC: port = *DIGIT, no range
    with pytest.raises(fasturi.InvalidURI):
        fasturi.URI("http://a:+80/").port  # noqa: B018
    # §7.6 / multiple @: the host is what follows the last "@".
    assert fasturi.URI("http://a@b@c/").host == "c"
    assert fasturi.URI("http://u#@evil/").host == "u"


def test_percent_decoding_of_bad_utf8():
    assert fasturi.percent_decode_bytes("%C0%AF%ff") == b"\xc0\xaf\xff"
    with pytest.raises(UnicodeDecodeError):
        fasturi.percent_decode("%C0%AF")
    assert fasturi.percent_decode("%C0%AF", errors="replace") == "\ufffd\ufffd"
    assert fasturi.percent_decode("%zz%4") == "%zz%4"  # malformed escapes kept


def test_dot_segments_cannot_climb_above_root():
    ref = "../" * 100_000 + "etc/passwd"
    assert fasturi.resolve("http://a/b/c", ref) == "http://a/etc/passwd"
    assert fasturi.normalize("http://a/" + "../" * 100_000 + "x") == "http://a/x"
    assert fasturi.normalize("http://a/b/%2e%2E/c") == "http://a/c"


def test_huge_inputs():
    big = "http://h/" + "a" * 10_000_000 + "?q#f"
    assert fasturi.split(big) == ("http", "h", "/" + "a" * 10_000_000, "q", "f")
    assert fasturi.is_valid(big)
    assert str(fasturi.URI(big)) == big
    assert fp.urlsplit(big) == urllib.parse.urlsplit(big)
    bad = "http://h/" + "a" * 10_000_000 + " "
    with pytest.raises(fasturi.InvalidURI) as err:
        fasturi.validate(bad)
    assert err.value.position == len(bad) - 1


def test_lone_surrogates_and_nul_never_crash():
    s = "http://\ud800@a/\udfff?\x00#\x00"
    assert fasturi.unsplit(fasturi.split(s)) == s
    assert not fasturi.is_valid(s)
    assert codes(s) >= {"invalid", "control-character"}
    assert fasturi.normalize(fasturi.normalize(s)) == fasturi.normalize(s)
    assert_parse_matches_stdlib(s)
