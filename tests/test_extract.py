"""URIs in running text: RFC 3986 Appendix C, RFC 2396 Appendix E and F,
and the rules of _extract_py's docstring, on both twins."""

from __future__ import annotations

import pytest

# ---- RFC 3986 Appendix C -----------------------------------------------------

RFC3986_C_TEXT = """\
      Yes, Jim, I found it under "http://www.w3.org/Addressing/",
      but you can probably pick it up from <ftp://foo.example.
      com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
      ietf/uri/historical.html#WARNING>.
"""


def test_rfc3986_appendix_c_example(extractmod):
    assert extractmod.extract(RFC3986_C_TEXT) == [
        "http://www.w3.org/Addressing/",
        "ftp://foo.example.com/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # "usually within double-quotes ..., angle brackets ..., or just by
        # using whitespace"; "These wrappers do not form part of the URI."
        'within double-quotes "http://example.com/", angle brackets',
        "angle brackets <http://example.com/>, or just by using whitespace:",
        "\n      http://example.com/\n",
    ],
)
def test_rfc3986_appendix_c_delimiters(extractmod, text):
    assert extractmod.extract(text) == ["http://example.com/"]


def test_rfc3986_appendix_c_hyphen_at_line_break(extractmod):
    # "ignore all whitespace around the line break"; the hyphen is kept.
    text = "see <http://example.com/a-very-long-\n   path-name/>"
    assert extractmod.extract(text) == ["http://example.com/a-very-long-path-name/"]


@pytest.mark.parametrize("prefix", ["URL:", "URL: ", "url:", "Url:\n  "])
def test_rfc3986_appendix_c_url_prefix(extractmod, prefix):
    # 'The prefix "URL:" (with or without a trailing space)'
    assert extractmod.extract(f"<{prefix}http://example.com/x>") == ["http://example.com/x"]


# ---- RFC 2396 Appendix E -----------------------------------------------------

RFC2396_E_TEXT = """\
      Yes, Jim, I found it under "http://www.w3.org/Addressing/",
      but you can probably pick it up from <ftp://ds.internic.
      net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
      ietf/uri/historical.html#WARNING>.
"""


def test_rfc2396_appendix_e_example(extractmod):
    assert extractmod.extract(RFC2396_E_TEXT) == [
        "http://www.w3.org/Addressing/",
        "ftp://ds.internic.net/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


@pytest.mark.parametrize(
    "text",
    [
        'within double-quotes "http://test.com/", angle brackets',
        "angle brackets <http://test.com/>, or just using whitespace",
        "                             http://test.com/\n",
    ],
)
def test_rfc2396_appendix_e_delimiters(extractmod, text):
    assert extractmod.extract(text) == ["http://test.com/"]


def test_rfc2396_appendix_e_fragment_inside_brackets(extractmod):
    # "the fragment would be placed within the brackets as well"
    assert extractmod.extract("<http://test.com/doc#sec-2>") == ["http://test.com/doc#sec-2"]


def test_rfc2396_appendix_e_embedded_whitespace(extractmod):
    # "extra whitespace (spaces, linebreaks, tabs, etc.) ... should be ignored"
    text = "<http://www.ics.uci.edu/pub/\n\t ietf/uri/\r\n  historical.html>"
    assert extractmod.extract(text) == ["http://www.ics.uci.edu/pub/ietf/uri/historical.html"]


# ---- RFC 2396 Appendix F -----------------------------------------------------


def test_rfc2396_appendix_f_authority_and_path(extractmod):
    text = (
        "a reference consisting of only the authority and path portions ... www.w3.org/Addressing/"
    )
    assert extractmod.extract(text, abbreviated=True) == ["http://www.w3.org/Addressing/"]
    assert extractmod.extract(text) == []


def test_rfc2396_appendix_f_hostname_on_its_own(extractmod):
    # "or simply the DNS hostname on its own"
    assert extractmod.extract("visit www.w3.org today", abbreviated=True) == ["http://www.w3.org"]
    assert extractmod.extract("get it from ftp.example.com.", abbreviated=True) == [
        "ftp://ftp.example.com"
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("www.example.com/x", ["http://www.example.com/x"]),
        ("ftp.example.com", ["ftp://ftp.example.com"]),
        ("WWW.Example.COM/A?b#c", ["http://WWW.Example.COM/A?b#c"]),
        ("FTP.example.org/pub/", ["ftp://FTP.example.org/pub/"]),
        ("(www.example.com/a_(b))", ["http://www.example.com/a_(b)"]),
        ("see www.example.com:8080/x.", ["http://www.example.com:8080/x"]),
        ("www.example.com: the site", ["http://www.example.com"]),
        ("www.example.com's home page", ["http://www.example.com"]),
        ("'www.example.com/a'b", ["http://www.example.com/a"]),
        ("href=www.example.com/?q=1&r=2", ["http://www.example.com/?q=1&r=2"]),
        ("www.\u4f8b\u3048.jp/\u30d1\u30b9", ["http://www.\u4f8b\u3048.jp/\u30d1\u30b9"]),
        # one label after the prefix is a file name, not a host
        ("run ftp.py or www.js", []),
        ("www.example", []),
        # inside other tokens
        ("mail joe@www.example.com", []),
        ("/srv/www.example.com/htdocs", []),
        ("xwww.example.com", []),
        ("my_www.example.com", []),
        ("www.example.com_old", []),
        ("www.example.com%2F", []),
        ("www.example.com:80abc", []),
        ("caf\u00e9www.example.com", []),
        # a URI with a scheme is found once, whole
        ("ftp://ftp.example.com/x", ["ftp://ftp.example.com/x"]),
        (
            "http://www.example.com/ and www.example.org",
            ["http://www.example.com/", "http://www.example.org"],
        ),
    ],
)
def test_abbreviated_forms(extractmod, text, want):
    assert extractmod.extract(text, abbreviated=True) == want


# ---- trailing punctuation ------------------------------------------------------


@pytest.mark.parametrize("punct", list(".,;:!?)]'\""))
def test_trailing_punctuation_excluded(extractmod, punct):
    assert extractmod.extract(f"see http://example.com/a{punct} then") == ["http://example.com/a"]
    assert extractmod.extract(f"see http://example.com/a{punct}") == ["http://example.com/a"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("http://example.com/a.b.", "http://example.com/a.b"),
        ("http://example.com/?q=1!?!", "http://example.com/?q=1"),
        ("(see http://example.com/a).", "http://example.com/a"),
        ("[http://example.com/a]", "http://example.com/a"),
        ("http://example.com/a'.", "http://example.com/a"),
        ("http://example.com/a),;]:", "http://example.com/a"),
        ("http://example.com/a=&", "http://example.com/a=&"),  # not punctuation
        ("http://example.com/a/*", "http://example.com/a/*"),
        ("http://example.com/it's/x", "http://example.com/it's/x"),
        ("http://example.com:", "http://example.com"),
        ("http://example.com:8080.", "http://example.com:8080"),
    ],
)
def test_trailing_punctuation_cases(extractmod, text, want):
    assert extractmod.extract(text) == [want]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
        ),
        (
            "(https://en.wikipedia.org/wiki/Python_(programming_language))",
            "https://en.wikipedia.org/wiki/Python_(programming_language)",
        ),
        (
            "See https://en.wikipedia.org/wiki/Bracket_(disambiguation).",
            "https://en.wikipedia.org/wiki/Bracket_(disambiguation)",
        ),
        (
            "(as in https://en.wikipedia.org/wiki/Mercury_(planet)), or",
            "https://en.wikipedia.org/wiki/Mercury_(planet)",
        ),
        ("https://msdn.example/library/aa752574(VS.85).aspx", None),
        ("http://example.com/a_((b))", None),
        ("http://example.com/a_((b)))", "http://example.com/a_((b))"),
        ("http://[::1]:8080/", None),
        ("[see http://[2001:db8::1]/]", "http://[2001:db8::1]/"),
        ("http://example.com/a[1]", None),
        ("[http://example.com/(a)]", "http://example.com/(a)"),
        ("(http://example.com/[a])", "http://example.com/[a]"),
        ("http://example.com/a)(", "http://example.com/a)("),  # nothing trailing to trim
        ("[link](http://example.com/x)", "http://example.com/x"),  # Markdown
    ],
)
def test_balanced_brackets_kept(extractmod, text, want):
    assert extractmod.extract(text) == [text if want is None else want]


# ---- wrappers ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("<http://example.com/a b>", ["http://example.com/ab"]),
        ("< http://example.com/a >", ["http://example.com/a"]),
        ("<http://example.com/.>", ["http://example.com/."]),  # brackets delimit: no trim
        ("<http:\n//example.com/>", ["http://example.com/"]),
        ("<mailto:\n joe@example.com>", ["mailto:joe@example.com"]),
        ("<urn:isbn:\n0451450523>", ["urn:isbn:0451450523"]),
        ("<news:comp.infosystems.www.servers.unix>", ["news:comp.infosystems.www.servers.unix"]),
        # not a URI wrapper: the bare rules apply inside
        ("<a href=http://example.com/x>", ["http://example.com/x"]),
        ('<http://example.com/a"b>', ["http://example.com/a"]),
        ("<http://example.com/ and never closed", ["http://example.com/"]),
        ("<note: this>", []),
        ("<http://>", []),
        ("<http:/ />", []),
        ("<mailto:>", []),
        ("<URL:>", []),
        ("<>", []),
        ("<1http://example.com/>", ["http://example.com/"]),
        ("a < b and c > d", []),
        ("<<http://example.com/>>", ["http://example.com/"]),
        ("<http://a.example/><http://b.example/>", ["http://a.example/", "http://b.example/"]),
    ],
)
def test_wrapped(extractmod, text, want):
    assert extractmod.extract(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('<a href="http://example.com/x?a=1&amp;b=2">link</a>', "http://example.com/x?a=1&amp;b=2"),
        ("<a href='http://example.com/x'>link</a>", "http://example.com/x"),
        ("<img src='http://example.com/it's.png'>", "http://example.com/it"),
        ("<a href=http://example.com/x>link</a>", "http://example.com/x"),
        ('<link rel="stylesheet" href="https://cdn.example/s.css"/>', "https://cdn.example/s.css"),
        ("<!-- http://example.com/old -->", "http://example.com/old"),
        ("url('http://example.com/bg.png')", "http://example.com/bg.png"),
        (
            '{"url": "https://api.example.com/v1/items?id=7"}',
            "https://api.example.com/v1/items?id=7",
        ),
        ("`http://example.com/code`", "http://example.com/code"),
        ("\u201chttp://example.com/curly\u201d", "http://example.com/curly"),
        ("\u00abhttp://example.com/guillemets\u00bb", "http://example.com/guillemets"),
        ("\u300chttp://example.com/\u300d", "http://example.com/"),
    ],
)
def test_quotes_and_markup(extractmod, text, want):
    assert extractmod.extract(text) == [want]


def test_html_document(extractmod):
    html = (
        '<!DOCTYPE html><html><head><link href="https://cdn.example/a.css" rel=stylesheet>'
        "</head><body><p>Read <a href='https://example.org/doc?x=1&amp;y=2#top'>the docs</a>"
        ' (mirror: http://mirror.example/doc).</p><img src="/relative.png"></body></html>'
    )
    assert extractmod.extract(html) == [
        "https://cdn.example/a.css",
        "https://example.org/doc?x=1&amp;y=2#top",
        "http://mirror.example/doc",
    ]


def test_log_lines(extractmod):
    log = (
        '203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "GET http://example.com/a?b=c HTTP/1.1"'
        ' 200 2326 "https://ref.example/page" "Mozilla/5.0 (X11; rv:109.0) Gecko/20100101"\n'
        "2024-01-02T03:04:05Z ERROR fetch failed url=https://api.example.com/v2/x, retrying\n"
        "12:30:01 WARN [worker-3] redirect to <https://example.net/login>\n"
        "time=12:30 level=info msg=ok\n"
    )
    assert extractmod.extract(log) == [
        "http://example.com/a?b=c",
        "https://ref.example/page",
        "https://api.example.com/v2/x",
        "https://example.net/login",
    ]


# ---- schemes and prose ------------------------------------------------------------


@pytest.mark.parametrize(
    "uri",
    [
        "mailto:joe@example.com",
        "MAILTO:Joe@Example.COM?subject=hi",
        "urn:isbn:0451450523",
        "urn:ietf:rfc:3986",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "file:///etc/hosts",
        "file:/etc/hosts",
        "file://localhost/c:/WINDOWS/clock.avi",
        "tel:+1-816-555-1212",
        "news:comp.infosystems.www.servers.unix",
        "data:text/plain;base64,SGVsbG8=",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "telnet://192.0.2.16:80/",
        "s3://bucket/key/with%20space",
        "git+https://github.com/example/repo.git",
        "tag:example.com,2005:x",
        "sip:alice@atlanta.example.com",
        "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a",
        "about:blank",
        "geo:13.4125,103.8667",
    ],
)
def test_schemes(extractmod, uri):
    assert extractmod.extract(f"Contact: {uri}.") == [uri]
    assert extractmod.extract(uri) == [uri]


@pytest.mark.parametrize(
    "text",
    [
        "Note: foo",
        "at 12:30 we met",
        "ratio 3:2, time 10:45:00",
        "Re:subject",
        "TODO:fix this",
        "warning:unused variable",
        "std::vector<int> v;",
        "key: value\nother:thing",
        "http: //example.com",
        "http:/example.com",
        "http:example.com",
        "https://",
        "mailto:",
        "urn: isbn",
        "C:\\Windows\\System32",
        "see page 5: the end",
        "a:b:c:d",
        ":::::",
        "",
    ],
)
def test_prose_colons_not_extracted(extractmod, text):
    assert extractmod.extract(text) == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Re:http://example.com/x", ["http://example.com/x"]),
        ("URL:http://example.com/x", ["http://example.com/x"]),
        ("1http://example.com/", ["http://example.com/"]),
        ("--http://example.com/", ["http://example.com/"]),
        ("s3://a then mailto:b@c.d and urn:x:y", ["s3://a", "mailto:b@c.d", "urn:x:y"]),
        ("http://a.example/http://b.example/", ["http://a.example/http://b.example/"]),
        ("http://a.example/ http://b.example/", ["http://a.example/", "http://b.example/"]),
        ("http://a.example/\nhttp://b.example/", ["http://a.example/", "http://b.example/"]),
        ("'http://a.example/''http://b.example/'", ["http://a.example/", "http://b.example/"]),
        ("http://a.example/\\path", ["http://a.example/"]),
        ("http://a.example/{x}", ["http://a.example/"]),
        ("http://a.example/a|b", ["http://a.example/a"]),
        ("http://a.example/a^b", ["http://a.example/a"]),
        ("http://a.example/%zz%", ["http://a.example/%zz%"]),
        ("http://a.example/\x00x", ["http://a.example/"]),
        ("http://a.example/\x7fx", ["http://a.example/"]),
        ("foo.http://example.com/", ["foo.http://example.com/"]),
        # a scheme's run stops at the previous ":"
        ("jdbc:mysql://localhost/db", ["mysql://localhost/db"]),
    ],
)
def test_boundaries(extractmod, text, want):
    assert extractmod.extract(text) == want


# ---- non-ASCII ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # RFC 3987 ucschar is part of an IRI written in text
        (
            "\u65e5\u672c https://ja.example/\u6771\u4eac \u3067",
            ["https://ja.example/\u6771\u4eac"],
        ),
        (
            "https://ru.example/\u041c\u043e\u0441\u043a\u0432\u0430.",
            ["https://ru.example/\u041c\u043e\u0441\u043a\u0432\u0430"],
        ),
        ("http://x.example/\U0001f600/", ["http://x.example/\U0001f600/"]),
        ("http://caf\u00e9.example/", ["http://caf\u00e9.example/"]),
        # text delimiters end it: CJK full stop, ideographic space, em dash,
        # no-break space, curly quotes, fullwidth parenthesis
        (
            "\u8a73\u3057\u304f\u306fhttps://ja.example/\u30da\u30fc\u30b8\u3002\u4ee5\u4e0a",
            ["https://ja.example/\u30da\u30fc\u30b8"],
        ),
        ("https://a.example/x\u3000next", ["https://a.example/x"]),
        ("https://a.example/x\u2014see", ["https://a.example/x"]),
        # but hyphens and the en dash are part of names
        (
            "https://en.wikipedia.org/wiki/Fisher\u2013Yates_shuffle",
            ["https://en.wikipedia.org/wiki/Fisher\u2013Yates_shuffle"],
        ),
        ("http://a.example/non\u2011breaking", ["http://a.example/non\u2011breaking"]),
        ("https://a.example/x\u00a0next", ["https://a.example/x"]),
        ("\uff08https://a.example/x\uff09", ["https://a.example/x"]),
        ("https://a.example/x\u200e", ["https://a.example/x"]),
        # not characters of an IRI
        ("http://a.example/x\ud800y", ["http://a.example/x"]),
        ("http://a.example/x\ufffey", ["http://a.example/x"]),
        ("http://a.example/x\ufdd0y", ["http://a.example/x"]),
        ("http://a.example/x\U0001fffey", ["http://a.example/x"]),
        ("http://a.example/x\U000e0001y", ["http://a.example/x"]),
        ("http://a.example/x\x85y", ["http://a.example/x"]),
        # iprivate is allowed
        ("http://a.example/?\ue000", ["http://a.example/?\ue000"]),
        ("<http://a.example/\u00e9\n\u00e8>", ["http://a.example/\u00e9\u00e8"]),
    ],
)
def test_non_ascii(extractmod, text, want):
    assert extractmod.extract(text) == want


@pytest.mark.parametrize("pad", ["", "\u00e9", "\u20ac", "\U0001f600"])
def test_every_str_kind_same_result(extractmod, pad):
    text = pad + "see <http://example.com/a\n b>, http://example.com/(c)). " + pad
    assert extractmod.extract(text) == ["http://example.com/ab", "http://example.com/(c)"]
    text = pad + " www.example.com/x. " + pad
    assert extractmod.extract(text, abbreviated=True) == ["http://www.example.com/x"]


# ---- API ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [b"http://a/", None, 1, ["http://a/"]])
def test_type_error(extractmod, bad):
    with pytest.raises(TypeError) as info:
        extractmod.extract(bad)
    want = f"extract() argument 'text' must be str, not {type(bad).__name__}"
    assert str(info.value) == want


def test_abbreviated_is_keyword_only(extractmod):
    with pytest.raises(TypeError):
        extractmod.extract("www.example.com", True)


def test_abbreviated_truthiness(extractmod):
    assert extractmod.extract("www.example.com/x", abbreviated=1) == ["http://www.example.com/x"]
    assert extractmod.extract("www.example.com/x", abbreviated=0) == []


def test_str_subclass(extractmod):
    class Text(str):
        def __getitem__(self, key):
            return "x"

        def find(self, *args):
            return -1

    got = extractmod.extract(Text("go to http://example.com/ now"))
    assert got == ["http://example.com/"]
    assert type(got[0]) is str


def test_results_are_new_list(extractmod):
    text = "http://example.com/"
    first = extractmod.extract(text)
    first.append("x")
    assert extractmod.extract(text) == ["http://example.com/"]


def test_opaque_schemes_agree(every_twin):
    from fasturi import _extract_py

    mods = every_twin("extract")
    for mod in mods:
        assert mod.OPAQUE_SCHEMES == _extract_py.OPAQUE_SCHEMES
    for scheme in sorted(_extract_py.OPAQUE_SCHEMES):
        for mod in mods:
            assert mod.extract(f"x {scheme}:y") == [f"{scheme}:y"]
            assert mod.extract(f"x {scheme.upper()}:y") == [f"{scheme.upper()}:y"]
            assert mod.extract(f"x {scheme}x:y") == []


def test_long_text_linear(extractmod):
    # Hostile repetitions finish and find what is there.
    n = 20_000
    assert extractmod.extract("a:" * n) == []
    assert extractmod.extract("<http:" * n) == []
    assert extractmod.extract("http://. " * n) == []
    assert extractmod.extract("http://." * n) == ["http://." * (n - 1) + "http://"]
    assert extractmod.extract("www." * n, abbreviated=True) == [
        "http://" + "www." * (n - 1) + "www"
    ]
    assert extractmod.extract(")" * n + "http://a" + ")" * n) == ["http://a"]
    assert len(extractmod.extract("http://a " * n)) == n
