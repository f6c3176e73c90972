"""redact and URI.redact (both twins): §7.5 / §3.2.1 password hiding."""

from __future__ import annotations

import pytest

REDACTED = [
    ("http://user:secret@host/p?q#f", "http://user:***@host/p?q#f"),
    ("ftp://anonymous:guest@ftp.example/", "ftp://anonymous:***@ftp.example/"),
    # the password is everything after the FIRST ":" (§3.2.1)
    ("http://u:p:q@h/", "http://u:***@h/"),
    ("http://:p@h/", "http://:***@h/"),
    ("http://u:@h/", "http://u:***@h/"),
    # the userinfo runs to the LAST "@"
    ("http://u:p@ss@h:8080/", "http://u:***@h:8080/"),
    ("//u:p@[::1]:80", "//u:***@[::1]:80"),
    ("s://u:\u20ac@\U0001f600/", "s://u:***@\U0001f600/"),
    # nothing to hide
    ("http://user@host/", "http://user@host/"),
    ("http://host:80/", "http://host:80/"),
    ("mailto:user:pw@example.com", "mailto:user:pw@example.com"),  # no authority
    ("http://h/p?u:p@x#u:p@y", "http://h/p?u:p@x#u:p@y"),
    ("http://u#:p@h/", "http://u#:p@h/"),  # "#" ends the authority first
    ("", ""),
]


@pytest.mark.parametrize(("text", "want"), REDACTED)
def test_redact(urimod, text, want):
    assert urimod.redact(text) == want
    u = urimod.URI(text).redact()
    assert type(u) is urimod.URI and str(u) == want


def test_redact_with_chosen_replacement(urimod):
    assert urimod.redact("http://u:p@h/", "") == "http://u:@h/"
    assert urimod.redact("http://u:p@h/", password="REDACTED") == "http://u:REDACTED@h/"
    assert str(urimod.URI("http://u:p@h/").redact(password="x")) == "http://u:x@h/"


def test_redacted_components(urimod):
    u = urimod.URI("https://alice:s3cr%3At@example.com:8443/x").redact()
    assert (u.userinfo, u.host, u.port, u.path) == ("alice:***", "example.com", 8443, "/x")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((b"http://u:p@h/",), "redact() argument 's' must be str, not bytes"),
        (("http://u:p@h/", None), "redact() argument 'password' must be str, not NoneType"),
    ],
)
def test_redact_types(urimod, args, message):
    with pytest.raises(TypeError) as err:
        urimod.redact(*args)
    assert str(err.value) == message
