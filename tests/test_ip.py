"""IP literals: RFC 3986 §3.2.2 IPv6address (all nine forms), IPv4address
and dec-octet, IPvFuture, RFC 6874 zone IDs, and host_type."""

from __future__ import annotations

import pytest

from fasturi._types import InvalidURI

# One address per form of the IPv6address rule, with the h16 pieces and the
# IPv4address ls32 where the form allows it.
IPV6_FORMS = {
    #                             6( h16 ":" ) ls32
    1: ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    #                        "::" 5( h16 ":" ) ls32
    2: ["::2:3:4:5:6:7:8", "::2:3:4:5:6:1.2.3.4"],
    #  [               h16 ] "::" 4( h16 ":" ) ls32
    3: ["1::3:4:5:6:7:8", "::3:4:5:6:7:8", "1::3:4:5:6:1.2.3.4"],
    #  [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    4: ["1:2::4:5:6:7:8", "2::4:5:6:7:8", "::4:5:6:7:8", "1:2::4:5:6:1.2.3.4"],
    #  [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    5: ["1:2:3::5:6:7:8", "::5:6:7:8", "1:2:3::5:6:1.2.3.4"],
    #  [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
    6: ["1:2:3:4::6:7:8", "::6:7:8", "1:2:3:4::6:1.2.3.4", "::ffff:192.0.2.128"],
    #  [ *4( h16 ":" ) h16 ] "::"              ls32
    7: ["1:2:3:4:5::7:8", "::7:8", "1:2:3:4:5::1.2.3.4", "::1.2.3.4", "1::1.2.3.4"],
    #  [ *5( h16 ":" ) h16 ] "::"              h16
    8: ["1:2:3:4:5:6::8", "::8", "1::8", "2001:db8::7"],
    #  [ *6( h16 ":" ) h16 ] "::"
    9: ["1:2:3:4:5:6:7::", "1::", "::", "fe80::"],
}

IPV6_INVALID = [
    # (text, error position)
    ("", 0),
    (":", 1),
    ("1:", 2),
    (":1", 1),
    (":::", 2),
    ("1:::2", 3),
    ("::1::", 4),
    ("1::2::3", 5),
    ("1::2:", 5),
    ("1:2:3:4:5:6:7", 13),  # too few pieces and no "::"
    # too many pieces
    ("1:2:3:4:5:6:7:8:9", 15),
    ("1:2:3:4:5:6:7:8::", 15),
    ("1:2:3:4::5:6:7:8", 14),
    ("1:2:3:4:5:6:7::8", 15),
    ("::1:2:3:4:5:6:7:8", 15),
    ("::1:2:3:4:5:6:7::", 15),
    # bad hex
    ("g::", 0),
    ("::g", 2),
    ("1:2:3:4:5:6:7:g", 14),
    ("12345::", 4),
    ("1:23456::", 6),
    ("fe80::1 ", 7),
    # IPv4address in ls32 only, worth two pieces, its dec-octets exact
    ("1.2.3.4", 1),
    ("1.2.3.4::", 1),
    ("1:2:3:4:5:1.2.3.4", 11),
    ("1:2:3:4:5:6:7:1.2.3.4", 15),
    ("1:2:3:4:5:6::1.2.3.4", 14),
    ("::1.2.3.4:5", 9),
    ("::1.2.3", 7),
    ("::1.2.3.", 8),
    ("::1.2.3.256", 10),
    ("::01.2.3.4", 4),
    ("::1.2.3.04", 9),
    ("::1234.1.1.1", 6),
    ("::1a.1.1.1", 4),
    ("::1.2..3", 6),
]

IPV4_VALID = [f"1.2.3.{v}" for v in (0, 9, 10, 99, 100, 199, 200, 249, 250, 255)]
IPV4_VALID += [f"{v}.0.0.0" for v in (0, 9, 10, 99, 100, 199, 200, 249, 250, 255)]
IPV4_INVALID = [
    ("1.2.3.256", 8),
    ("1.2.3.260", 8),
    ("1.2.3.300", 8),
    ("1.2.3.1000", 9),
    ("1.2.3.00", 7),
    ("1.2.3.01", 7),
    ("1.2.3.010", 7),
    ("1.2.3.001", 7),
    ("256.1.1.1", 2),
    ("00.1.1.1", 1),
    ("1.2.3", 5),
    ("1.2.3.", 6),
    ("1.2.3.4.", 7),
    ("1.2..4", 4),
    (".1.2.3", 0),
    ("1.2.3.-4", 6),
    ("0x7f.0.0.1", 1),
]

HOST_TYPES = [
    ("[::1]", "IPv6"),
    ("[::]", "IPv6"),
    ("[2001:db8::7]", "IPv6"),
    ("[::ffff:192.0.2.1]", "IPv6"),
    ("[fe80::1%25eth0]", "IPv6"),
    ("[fe80::a%25en1]", "IPv6"),
    ("[v1.x]", "IPvFuture"),
    ("[V1.x]", "IPvFuture"),
    ("[v7.fe80::a+en1]", "IPvFuture"),
    ("1.2.3.4", "IPv4"),
    ("0.0.0.0", "IPv4"),
    ("255.255.255.255", "IPv4"),
    # §7.4: these look like addresses but are reg-names
    ("1.2.3.256", "reg-name"),
    ("01.2.3.4", "reg-name"),
    ("1.2.3", "reg-name"),
    ("0x7f.1", "reg-name"),
    ("example.com", "reg-name"),
    ("EXAMPLE.com.", "reg-name"),
    ("%65xample.com", "reg-name"),
    ("", "reg-name"),
    ("[::1", None),
    ("[::1]:80", None),
    ("::1", None),
    ("[fe80::1%eth0]", None),
    ("[fe80::1%25]", None),
    ("[v1.x%25a]", None),
    ("[1.2.3.4]", None),
    ("[]", None),
    ("a b", None),
    ("a:80", None),
    ("u@h", None),
    ("%zz", None),
    ("\u00e9.example", None),
    ("[\u00e9]", None),
]


@pytest.mark.parametrize("form", sorted(IPV6_FORMS))
def test_ipv6_forms(rules, form):
    for address in IPV6_FORMS[form]:
        assert rules.is_valid(address, "IPv6address"), address
        assert rules.is_valid(address.upper(), "IPv6address"), address
        assert rules.is_valid(f"[{address}]", "IP-literal"), address
        assert rules.is_valid(f"http://[{address}]:80/", "URI"), address
        assert rules.host_type(f"[{address}]") == "IPv6"


@pytest.mark.parametrize(("text", "want"), IPV6_INVALID)
def test_ipv6_invalid(rules, text, want):
    assert not rules.is_valid(text, "IPv6address")
    with pytest.raises(InvalidURI) as info:
        rules.validate(text, "IPv6address")
    assert info.value.position == want
    # Inside brackets the same text stops one character later.
    with pytest.raises(InvalidURI) as info:
        rules.validate(f"[{text}]", "IP-literal")
    assert info.value.position == want + 1


def test_ipv6_piece_counts(rules):
    # Exactly eight pieces without "::", at most seven with it.
    for n in range(1, 10):
        pieces = ":".join(["f"] * n)
        assert rules.is_valid(pieces, "IPv6address") is (n == 8)
        for k in range(n + 1):
            text = ":".join(["f"] * k) + "::" + ":".join(["f"] * (n - k))
            assert rules.is_valid(text, "IPv6address") is (n <= 7), text


@pytest.mark.parametrize("text", IPV4_VALID)
def test_ipv4_valid(rules, text):
    assert rules.is_valid(text, "IPv4address")
    assert rules.is_valid("::" + text, "IPv6address")
    assert rules.host_type(text) == "IPv4"


@pytest.mark.parametrize(("text", "want"), IPV4_INVALID)
def test_ipv4_invalid(rules, text, want):
    with pytest.raises(InvalidURI) as info:
        rules.validate(text, "IPv4address")
    assert info.value.position == want
    assert rules.host_type(text) != "IPv4"


@pytest.mark.parametrize(
    ("text", "want"),
    [("0", None), ("9", None), ("10", None), ("99", None), ("100", None), ("199", None)]
    + [("200", None), ("249", None), ("250", None), ("255", None)]
    + [("256", 2), ("259", 2), ("260", 2), ("299", 2), ("300", 2), ("999", 2)]
    + [("00", 1), ("01", 1), ("09", 1), ("010", 1), ("0255", 1), ("1000", 3), ("2550", 3)],
)
def test_dec_octet_edges(rules, text, want):
    assert rules.is_valid(text, "dec-octet") is (want is None)
    if want is not None:
        with pytest.raises(InvalidURI) as info:
            rules.validate(text, "dec-octet")
        assert info.value.position == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("[v1.x]", None),
        ("[vFF.a:b]", None),
        ("[V0.!$&'()*+,;=:-._~]", None),
        ("[v1.]", 4),
        ("[v.x]", 2),
        ("[vx.y]", 2),
        ("[v1x]", 3),
        ("[v1.x/]", 5),
        ("[v1.x%41]", 5),
        ("[w1.x]", 1),
    ],
)
def test_ipvfuture(rules, text, want):
    assert rules.is_valid(text, "IP-literal") is (want is None)
    assert rules.is_valid(text[1:-1], "IPvFuture") is (want is None)
    if want is not None:
        with pytest.raises(InvalidURI) as info:
            rules.validate(text, "IP-literal")
        assert info.value.position == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID
        ("[fe80::1%25eth0]", None),
        ("[fe80::a%25en1]", None),
        ("[fe80::1%2525]", None),
        ("[fe80::1%25%65th0]", None),
        ("[fe80::1%25Eth.0_~-]", None),
        ("[::1.2.3.4%25x]", None),
        # a bare "%" is the RFC 4007 text form, not a URI's
        ("[fe80::1%eth0]", 9),
        ("[fe80::1%2eth0]", 10),
        ("[fe80::1%25]", 11),
        ("[fe80::1%25%]", 12),
        ("[fe80::1%25e:0]", 12),
        ("[fe80::1%25e!]", 12),
        ("[fe80::%25e%25f]", None),
        ("[fe80:%25x]", 6),
        ("[fe80::1%25x", 12),
        ("[v1.x%25x]", 5),
    ],
)
def test_zone_ids(rules, text, want):
    assert rules.is_valid(text, "IP-literal") is (want is None)
    assert rules.is_valid(text, "host") is (want is None)
    assert rules.is_valid("http://" + text + "/", "URI") is (want is None)
    if want is None:
        assert rules.is_valid(text[1:-1], "IPv6addrz")
        assert rules.host_type(text) == "IPv6"
    else:
        with pytest.raises(InvalidURI) as info:
            rules.validate(text, "IP-literal")
        assert info.value.position == want
        with pytest.raises(InvalidURI) as info:
            rules.validate("http://" + text + "/", "URI")
        assert info.value.position == want + 7
        assert rules.host_type(text) is None


@pytest.mark.parametrize(("host", "want"), HOST_TYPES)
def test_host_type(rules, host, want):
    assert rules.host_type(host) == want


def test_host_type_argument(rules):
    with pytest.raises(TypeError, match=r"^host_type\(\) argument 'host' must be str, not bytes$"):
        rules.host_type(b"[::1]")
    with pytest.raises(TypeError, match=r"^host_type\(\) argument 'host' must be str, not int$"):
        rules.host_type(1)
