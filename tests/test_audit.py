"""audit: the RFC 3986 §7 hazards in a URI reference (active implementation;
the suite runs once per implementation)."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rfc_examples import RFC_1_1_2

import fasturi
from fasturi import Finding, _audit


def findings(text, code):
    return [f for f in fasturi.audit(text) if f.code == code]


def only(text, code):
    """The one finding of ``code`` for ``text``."""
    got = findings(text, code)
    assert len(got) == 1, fasturi.audit(text)
    finding = got[0]
    assert isinstance(finding, Finding)
    # a sentence, in English, naming the hazard
    assert finding.message[0].isupper() and finding.message.endswith(".")
    return finding


CLEAN = [
    *RFC_1_1_2,  # §1.1.2
    # §3
    "foo://example.com:8042/over/there?name=ferret#nose",
    "http://[fe80::1%25eth0]:8080/",
    "http://[v7.a:b]/",
    "http://user@example.com/",
    "ftp://anonymous@ftp.example.org/",
    "http://a/%7Euser/b%20c",
    "http://a/./b/../c",  # literal dot segments are §5.2.4's business, not a hazard
    "http://a/.../%2e%2e%2e/x%2e/%2ex",
    "http://a/b?x=%2F&y=%2e%2e&z=%3A#%2F%2e%2e",  # query and fragment are not split on these
    "http://a/%20%25%7E",
    "",
    "../g",
    "#f",
]


@pytest.mark.parametrize("text", CLEAN)
def test_clean(text):
    assert fasturi.audit(text) == []


def test_type_error():
    with pytest.raises(TypeError) as err:
        fasturi.audit(b"http://a/")
    assert str(err.value) == "audit() argument 's' must be str, not bytes"


# -- invalid ---------------------------------------------------------------


def test_invalid_names_the_position():
    f = only("http://a b/", "invalid")
    assert f.section == "4.1"
    assert "position 8" in f.message and "' '" in f.message


def test_invalid_when_the_text_ends_too_early():
    f = only("http://[::1", "invalid")
    assert "position 11" in f.message and "ends" in f.message


# -- control characters ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "named"),
    [
        ("http://a/x\r\nHost: evil", 10, "U+000D"),
        ("\x00http://a/", 0, "U+0000"),
        ("http://a/\x7f", 9, "U+007F"),
        ("http://a/%0d%0aSet-Cookie:x", 9, "%0d"),
        ("http://a/file%00.txt", 13, "%00"),
        ("http://a/?%7F", 10, "%7F"),
        ("http://a/#%1B", 10, "%1B"),
    ],
)
def test_control_character(text, position, named):
    f = only(text, "control-character")
    assert f.section == "7.3"
    assert f"position {position}" in f.message and named in f.message


def test_raw_and_encoded_controls_are_reported_apart():
    got = findings("http://a/\t%09%09", "control-character")
    assert len(got) == 2
    assert "U+0009" in got[0].message and "%09" in got[1].message
    assert "1 more" in got[1].message


# -- §7.5 password in userinfo ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "http://alice:hunter2@example.com/",
        "ftp://:hunter2@h/",
        "http://alice:hunter2:x@h/",
        "//alice:hunter2@[::1]:80/",
    ],
)
def test_password_in_userinfo(text):
    f = only(text, "password-in-userinfo")
    assert f.section == "7.5"
    assert "password" in f.message
    assert "hunter2" not in f.message  # the finding must not leak what it warns about


def test_empty_password_is_still_a_password_field():
    f = only("http://alice:@h/", "password-in-userinfo")
    assert "empty password" in f.message


# -- §7.6 userinfo that looks like a host -----------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("http://www.bank.com@evil.com/", "www.bank.com"),
        ("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm", "cnn.example.com"),
        ("http://www.bank.com:443@evil.com/", "www.bank.com"),
        ("http://paypal.com@evil.example/", "paypal.com"),
        ("http://10.0.0.1@evil.example/", "10.0.0.1"),
        ("http://localhost@evil.example/", "localhost"),
        ("http://www%2Ebank%2Ecom@evil.example/", "www.bank.com"),
        ("http://xn--bcher-kva.example@evil.example/", "xn--bcher-kva.example"),
        ("http://bank.de@evil.example/", "bank.de"),
        ("http://shop.xn--p1ai@evil.example/", "shop.xn--p1ai"),
        ("http://mail.corp.acme@evil.example/", "mail.corp.acme"),
    ],
)
def test_userinfo_looks_like_host(text, named):
    f = only(text, "userinfo-looks-like-host")
    assert f.section == "7.6"
    assert f"'{named}'" in f.message
    assert f"'{fasturi.URI(text).host}'" in f.message


@pytest.mark.parametrize(
    "text",
    [
        "http://user@host/",
        "http://john_doe@host/",
        "http://john.doe@host/",
        "http://first.last:pw@host/",
        "http://a1@host/",
        "http://1@h/",
    ],
)
def test_plain_user_names_are_not_hosts(text):
    assert findings(text, "userinfo-looks-like-host") == []


# -- §7.4 rare IPv4 formats --------------------------------------------------


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("3232235777", "192.168.1.1"),  # one 32-bit number
        ("0x7f.1", "127.0.0.1"),  # hexadecimal, two parts (Class A)
        ("0177.0.0.1", "127.0.0.1"),  # octal
        ("127.1", "127.0.0.1"),  # two parts
        ("10.0.1", "10.0.0.1"),  # three parts (Class B)
        ("192.168.257", "192.168.1.1"),
        ("0x7F000001", "127.0.0.1"),
        ("0X7f.0.0.0x1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("127.0.0.01", "127.0.0.1"),  # a leading zero makes an octal octet
        ("0", "0.0.0.0"),
        ("127.0.0.1.", "127.0.0.1"),  # trailing dot
        ("%31%32%37.1", "127.0.0.1"),  # percent-encoded
        ("%EF%BC%91%EF%BC%92%EF%BC%97%E3%80%821", "127.0.0.1"),  # fullwidth, ideographic stop
        ("4294967295", "255.255.255.255"),
    ],
)
def test_ambiguous_ipv4(host, address):
    f = only(f"http://{host}/", "ambiguous-ipv4")
    assert f.section == "7.4"
    assert f"'{host}'" in f.message and address in f.message


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "example.com",
        "1.2.3.4.5",
        "256.1",
        "4294967296",
        "1.16777216",
        "08.0.0.1",
        "0x1g",
        "1e3",
        "1..2",
        ".1",
        "[::1]",
        "",
        "0x7f.1.example",
        "1.2.3.256",
    ],
)
def test_not_ambiguous_ipv4(host):
    assert findings(f"http://{host}/", "ambiguous-ipv4") == []


# -- §7.3 back-end transcoding ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "component", "position", "named"),
    [
        ("http://a/b%2Fc", "path", 10, "%2F"),
        ("http://a/b%2fc%3F%23", "path", 10, "%2f"),
        ("http://a/%5C", "path", 9, "%5C"),
        ("/x%5b%5D", "path", 2, "%5b"),
        ("a%3Ab", "path", 1, "%3A"),
        ("http://a%40b.com/", "authority", 8, "%40"),
        ("http://u%3Ap@h/", "authority", 8, "%3A"),
    ],
)
def test_encoded_delimiter(text, component, position, named):
    f = only(text, "encoded-delimiter")
    assert f.section == "7.3"
    assert f"The {component}" in f.message
    assert f"position {position}" in f.message and named in f.message


def test_encoded_delimiters_in_authority_and_path_are_reported_apart():
    got = findings("http://a%2Fb/c%2Fd%2F", "encoded-delimiter")
    assert [f.message.split()[1] for f in got] == ["authority", "path"]
    assert "1 more" in got[1].message


@pytest.mark.parametrize(
    ("text", "position", "segment"),
    [
        ("http://a/b/%2e%2E/c", 11, "%2e%2E"),
        ("http://a/%2e/c", 9, "%2e"),
        ("/.%2e/x", 1, ".%2e"),
        ("/%2E./x", 1, "%2E."),
        ("x/%2e", 2, "%2e"),
        ("/..%2f..%2fetc/passwd", 1, "..%2f..%2fetc"),  # "../" hidden by an encoded slash
        ("/..%5c..%5cwin.ini", 1, "..%5c..%5cwin.ini"),
    ],
)
def test_encoded_dot_segment(text, position, segment):
    f = only(text, "encoded-dot-segment")
    assert f.section == "7.3"
    assert f"'{segment}'" in f.message and f"position {position}" in f.message


# -- ipv4-mapped-ipv6 (§7.4) ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reaches"),
    [
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1 (loopback)"),
        ("http://[::FFFF:7f00:1]:8080/x", "127.0.0.1 (loopback)"),
        ("http://[0:0:0:0:0:ffff:a9fe:a9fe]/latest", "169.254.169.254 (link-local"),
        ("http://[0000::ffff:10.0.0.1]/", "10.0.0.1 (private)"),
        ("http://[::ffff:0.0.0.0]/", "0.0.0.0 (unspecified"),
        ("http://[::ffff:8.8.8.8]/", "8.8.8.8, which"),
        ("http://u@[::ffff:127.0.0.1]/", "127.0.0.1 (loopback)"),
        ("//[::ffff:192.168.1.1]", "192.168.1.1 (private)"),
    ],
)
def test_ipv4_mapped_ipv6(text, reaches):
    f = only(text, "ipv4-mapped-ipv6")
    assert f.section == "7.4"
    assert f"reaches the IPv4 address {reaches}" in f.message
    assert "RFC 4291 §2.5.5.2" in f.message


@pytest.mark.parametrize(
    "text",
    [
        "http://[::1]/",
        "http://[::ffff]/",  # ::ffff is 0:0:0:0:0:0:0:ffff, no IPv4 in it
        "http://[ffff::1]/",
        "http://[fe80::ffff:1%25eth0]/",
        "http://[v1.ffff]/",
        "http://[::127.0.0.1]/",  # IPv4-compatible (deprecated): no IPv4 reached
        "http://ffff.example/",
        "http://a/[::ffff:127.0.0.1]",
    ],
)
def test_not_ipv4_mapped_ipv6(text):
    assert findings(text, "ipv4-mapped-ipv6") == []


# -- idna-mapped-host (§7.6) -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("http://\u24d6\u24de\u24de\u24d6\u24db\u24d4.com/", "google.com"),  # circled letters
        ("http://google.com\u3002evil.com/", "google.com.evil.com"),  # an ideographic full stop
        ("http://google.com\uff0eevil.com/", "google.com.evil.com"),  # a fullwidth one
        ("https://\uff47\uff4f\uff4f\uff47\uff4c\uff45.com/", "google.com"),  # fullwidth letters
        ("http://goo\u00adgle.com/", "google.com"),  # a soft hyphen, which IDNA drops
        ("http://%E2%93%96oogle.com/", "google.com"),  # the same, percent-encoded
        ("http://\u2170.example/", "i.example"),  # small roman numeral one
        ("http://b\u00fccher.de\u3002evil/", "bücher.de.evil"),  # the name shown in Unicode
    ],
)
def test_idna_mapped_host(text, name):
    f = only(text, "idna-mapped-host")
    assert f.section == "7.6"
    assert f"makes it '{name}'" in f.message


@pytest.mark.parametrize(
    "text",
    [
        "http://b\u00fccher.de/",  # a name spelled in Unicode: its A-labels are the same name
        "http://B\u00dcCHER.de/",  # case is no other name
        "http://fa\u00df.example/",  # the URL Standard keeps sharp s (nontransitional)
        "http://xn--bcher-kva.de/",
        "http://Example.COM/",
        "http://%65xample.com/",
        "http://ex\u212aample.com/",  # the Kelvin sign lowercases to k, as IDNA maps it
        "http://\uff11\uff12\uff17.0.0.1/",  # a number: ambiguous-ipv4's
        "http://a\u0000b.com/",  # refused by the URL Standard: no name browsers reach
        "mailto:\u24d6@example.com",
        "http://[::1]/",
    ],
)
def test_not_idna_mapped_host(text):
    assert findings(text, "idna-mapped-host") == []


def test_messages_quote_text_without_escaping_it():
    # the command line's TSV escapes a message once: the message holds the
    # character itself (not repr()'s "\\\\"), and shows what cannot be
    # printed as an escape
    assert "(an encoded '\\')" in only("http://a/%5C/", "encoded-delimiter").message
    assert "the character '\\' at position 8" in only("http://a\\b/", "invalid").message
    assert "the character '\\x00'" in only("http://a/\x00", "invalid").message


# -- classic SSRF payloads ---------------------------------------------------------

# What audit names of the payloads written to reach an internal address past
# a check: every confusion of a host's form or of which host is meant.  A
# plain internal address (127.0.0.1, localhost, [::1], 169.254.169.254) is
# a destination, not a confusion, and a fragment that hides "@host" misleads
# people, not parsers: those give no finding.
SSRF = [
    ("http://127.0.0.1/", []),
    ("http://localhost/", []),
    ("http://0.0.0.0/", []),
    ("http://[::1]/", []),
    ("http://[::]/", []),
    ("http://[0:0:0:0:0:0:0:1]/", []),
    ("http://169.254.169.254/latest/meta-data/", []),
    ("http://127.0.0.1#@google.com/", []),
    ("http://0/", ["ambiguous-ipv4"]),
    ("http://127.1/", ["ambiguous-ipv4"]),
    ("http://2130706433/", ["ambiguous-ipv4"]),
    ("http://0x7f000001/", ["ambiguous-ipv4"]),
    ("http://0177.0.0.1/", ["ambiguous-ipv4"]),
    ("http://0x7f.0.0.1/", ["ambiguous-ipv4"]),
    ("http://127.000.000.001/", ["ambiguous-ipv4"]),
    ("http://%31%32%37.0.0.1/", ["ambiguous-ipv4"]),
    ("http://[::ffff:127.0.0.1]/", ["ipv4-mapped-ipv6"]),
    ("http://[::ffff:7f00:1]/", ["ipv4-mapped-ipv6"]),
    ("http://[0:0:0:0:0:ffff:127.0.0.1]/", ["ipv4-mapped-ipv6"]),
    ("http://[::ffff:a9fe:a9fe]/latest/meta-data/", ["ipv4-mapped-ipv6"]),
    (
        "http://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/",
        ["invalid", "idna-mapped-host"],
    ),
    ("http://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460/", ["invalid", "ambiguous-ipv4"]),
    ("http://127\u30020\u30020\u30021/", ["invalid", "ambiguous-ipv4"]),
    ("http://\u24d6\u24de\u24de\u24d6\u24db\u24d4.com/", ["invalid", "idna-mapped-host"]),
    ("http://google.com\u3002evil.com/", ["invalid", "idna-mapped-host"]),
    ("http://google.com@127.0.0.1/", ["userinfo-looks-like-host"]),
    (
        "http://evil.com\\@google.com/",
        ["invalid", "userinfo-looks-like-host", "host-differs"],
    ),
    (
        "http://127.0.0.1:80\\@google.com/",
        ["invalid", "password-in-userinfo", "userinfo-looks-like-host", "host-differs"],
    ),
    (
        "http://user:pass@127.0.0.1:6379/%0D%0AFLUSHALL",
        ["control-character", "password-in-userinfo"],
    ),
]


@pytest.mark.parametrize(("text", "codes"), SSRF)
def test_classic_ssrf_payloads(text, codes):
    assert [f.code for f in fasturi.audit(text)] == codes


# -- the whole list ------------------------------------------------------------


def test_codes_come_in_a_fixed_order():
    text = "http://www.bank.com:pw@0x7f.1/%2e%2E/a%2Fb\x00"
    assert [f.code for f in fasturi.audit(text)] == [
        "invalid",
        "control-character",
        "password-in-userinfo",
        "userinfo-looks-like-host",
        "ambiguous-ipv4",
        "encoded-delimiter",
        "encoded-dot-segment",
    ]
    # the URL Standard reads 1.1.1.1, RFC 3986 and urllib.parse 0x7f.1
    text = "http://www.bank.com:pw@1.1.1.1\\@0x7f.1/%2e%2E/a%2Fb\x00"
    assert [f.code for f in fasturi.audit(text)] == [
        "invalid",
        "control-character",
        "password-in-userinfo",
        "userinfo-looks-like-host",
        "host-differs",
        "ambiguous-ipv4",
        "encoded-delimiter",
        "encoded-dot-segment",
    ]
    # the two confusions of a host: a name IDNA maps, an IPv4-mapped address
    text = "http://x:pw@goo\u00adgle.com/%2e%2E"
    assert [f.code for f in fasturi.audit(text)] == [
        "invalid",
        "password-in-userinfo",
        "idna-mapped-host",
        "encoded-dot-segment",
    ]
    text = "http://x:pw@[::ffff:127.0.0.1]/a%2Fb"
    assert [f.code for f in fasturi.audit(text)] == [
        "password-in-userinfo",
        "ipv4-mapped-ipv6",
        "encoded-delimiter",
    ]


def test_many_escapes_give_a_short_list():
    text = "http://a/" + "%2F%2e%2e/%00" * 10_000
    got = fasturi.audit(text)
    assert sorted(f.code for f in got) == [
        "control-character",
        "encoded-delimiter",
        "encoded-dot-segment",
    ]
    assert "9999 more" in findings(text, "control-character")[0].message


# ---- host-differs: RFC 3986, the WHATWG URL Standard and urllib.parse ----------

HOST_CONFUSIONS = [
    # text, (RFC 3986's host, the WHATWG parser's, urllib.parse's); None: no host
    ("http://127.0.0.1:6666\\@1.1.1.1", ("'1.1.1.1'", "'127.0.0.1'", "'1.1.1.1'")),
    ("http://good.example\\@evil.example/", ("'evil.example'", "'good.example'", "'evil.example'")),
    ("https://good.example\\.evil.example@x/", ("'x'", "'good.example'", "'x'")),
    ("http:\\\\evil.example\\x", (None, "'evil.example'", None)),
    ("http:/evil.example/", (None, "'evil.example'", None)),
    ("file://c:/windows/win.ini", ("'c'", None, "'c'")),
]


@pytest.mark.parametrize(("text", "hosts"), HOST_CONFUSIONS)
def test_host_differs_says_which_parser_reads_which_host(text, hosts):
    message = only(text, "host-differs").message
    assert only(text, "host-differs").section == "7.6"
    for parser, host in zip(("RFC 3986", "the WHATWG URL Standard", "urllib.parse"), hosts):
        said = "reads no host" if host is None else f"reads the host {host}"
        assert f"{parser} {said}" in message, message


@pytest.mark.parametrize(
    "text",
    [
        "http://example.com/a",
        "HTTP://%65xample.COM:80/",  # case and percent-encoding: the same host
        "https://faß.example/",  # IDNA: the same host
        "http://[::1]:8080/",
        "http://[fe80::1%25eth0]/",  # the URL Standard rejects zone IDs: no answer
        "file://localhost/etc/passwd",  # the URL Standard's file host: localhost is none
        "file:///etc/passwd",
        "http://evil.example#@good.example/",  # misleads people, not parsers
        "http://0x7f.1/",  # the same address: ambiguous-ipv4's business
        "mailto:someone@example.com",
        "../relative",
    ],
)
def test_host_differs_not_reported_where_parsers_agree(text):
    assert findings(text, "host-differs") == []


@pytest.mark.parametrize(
    "text", ["http://\ud800.example/", "foo://x\udfff/", "http://a\ud800\\@b/", "http://\ud800/"]
)
def test_a_lone_surrogate_in_the_host_is_a_finding_not_an_exception(text):
    # (the URL Standard's host parser reads it as U+FFFD, as its parse does)
    assert only(text, "invalid").section == "4.1"


# ---- the scope: the checks audit runs on a valid reference --------------------

# pieces of references around the places where the scope decides: hosts that
# three parsers might read apart, numbers inet_aton() reads, encoded controls,
# delimiters and dots, in an authority, a path or a query
_PIECES = [
    *("a", "b.c", "0", "1", "7", "0x7f", "0X1", "01", "256", "1e", "0pointer.de"),
    *(".", "..", ":", "@", "[", "]", "[::1]", "[v1.x]", "[V7.a]", "c:", "localhost"),
    *("[::ffff:127.0.0.1]", "[::FFFF:a00:1]", "[::ffff]", "[fff:ffff::1]", "ffff"),
    *("%2e", "%2E", "%2f", "%5C", "%5b", "%0a", "%1F", "%7F", "%7e", "%41", "%3a", "%40"),
    *("%23", "%3F", "%CF%80", "/", "//", "///", "?", "#", "é", "\\", " ", "xn--a", "1.2.3.4"),
]
_SCHEMES = ["http", "HTTPS", "ws", "wss", "ftp", "file", "FILE", "foo", "mailto", "git+ssh"]
_REFERENCES = st.builds(
    lambda scheme, pieces: ("" if scheme is None else scheme + ":") + "".join(pieces),
    st.none() | st.sampled_from(_SCHEMES),
    st.lists(st.sampled_from(_PIECES), max_size=10),
)


def _audit_everything(text):
    """audit with every check run, whatever the scope says."""
    with mock.patch.object(_audit, "_scope", lambda p, s, parts: _audit._ALL):
        return fasturi.audit(text)


@pytest.mark.slow  # (3,000 examples, whatever the profile)
@given(_REFERENCES)
@settings(max_examples=3000)
def test_the_scope_leaves_out_only_checks_that_find_nothing(text):
    assert fasturi.audit(text) == _audit_everything(text)


@pytest.mark.parametrize(
    "text",
    [
        *(text for text, _ in HOST_CONFUSIONS),
        *("http:example.com", "HTTP:///example.com", "ws:x.y", "https:a@b", "http://[v1.x]/"),
        *("http://0x7f.1/", "http://01.2.3.4/", "http://1.2.3.4/%0a", "file://c:/x"),
        *("http://a/%2e%2E/%2f?%2e#%2f", "http://%CF%80.example/", "http://0pointer.de/"),
    ],
)
def test_the_scope_on_the_hosts_parsers_read_apart(text):
    assert fasturi.audit(text) == _audit_everything(text)
