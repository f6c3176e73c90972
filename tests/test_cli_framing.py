"""One record per input line, whatever the line holds (docs/cli.md): lines
that are not UTF-8, hold NUL or other controls, or that a command refuses
keep their place with an error record, through the per-line path and the
block path alike; the TSV escaping is reversible; options and operands come
in any order."""

from __future__ import annotations

import json
import re

import pyarrow as pa
import pytest
from cli_runs import run_cli
from hypothesis import given
from hypothesis import strategies as st

import fasturi
from fasturi import _tsv
from fasturi._audit import _NOTHING, Parsers, _scope
from fasturi._types import ArrowColumn

HOSTILE = [
    b"HTTP://Example.COM:80/a/./b/../%7euser?b=2&a=1#frag",
    b"",
    b"\xff\xfe",
    b"http://a/\x00b",
    b"http://a/\x01\x1b\x1f\x7f",
    b"a\tb\rc",
    b"http://a/b\\c",
    "http://a/\u0085\u2028\u2029".encode(),
    b"\xed\xa0\x80",
    b"http://a:99999/",
    b"http://a.com:x/",
    "http://例え.テスト/パス".encode(),
    b"\\E",
    b"\\N",
    b"http://user:pw@0x7f.1/%2e%2e/",
    b"\x0b\x0c\x1c\x1d\x1e",
]
BASE = "http://a/b/c/d;p?q"
# each transforming command: its argv and the scalar function of a line
TRANSFORMS = {
    "split": (["split", "--fields", "scheme,host,port,path"], None),
    "normalize": (["normalize"], fasturi.normalize),
    "canonicalize": (["canonicalize"], fasturi.canonicalize),
    "resolve": (["resolve", BASE], lambda t: fasturi.resolve(BASE, t)),
    "domain": (["domain"], fasturi.registrable_domain),
    "surt": (["surt"], fasturi.surt),
    "fingerprint": (["fingerprint"], fasturi.fingerprint),
    "fingerprint w3lib": (
        ["fingerprint", "--preset", "w3lib"],
        lambda t: fasturi.fingerprint(t, preset="w3lib"),
    ),
}


def _split(text):
    parts = fasturi.split(text)
    if parts.authority is None:
        return [parts.scheme, None, None, parts.path]
    _, host, port = fasturi._impl.core.split_authority(parts.authority)
    return [parts.scheme, host, port, parts.path]


def _unescape(field):
    """The text of one TSV field as docs/cli.md reads it back."""
    if field == "\\N":
        return None

    def one(m):
        e = m.group(1)
        if len(e) > 1:
            code = int(e[1:], 16)
            return chr(code + 0xDC00 if e[0] == "x" and code >= 0x80 else code)
        return {"t": "\t", "n": "\n", "r": "\r"}.get(e, e)

    return re.sub(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|.)", one, field, flags=re.S)


def _expect(name, raw):
    """The fields of a line's record, or None where it must be an error."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    one = TRANSFORMS[name][1]
    try:
        value = _split(text) if one is None else one(text)
    except ValueError:
        return None
    return value if isinstance(value, list) else [value]


PATHS = ["lines", "blocks"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", TRANSFORMS)
def test_one_record_per_line_in_order(monkeypatch, capfd, name, path):
    argv = TRANSFORMS[name][0]
    data = b"\n".join(HOSTILE) + b"\n"
    status, out, err = run_cli(monkeypatch, capfd, [*argv, "--no-progress"], data, path == "lines")
    rows = out.split("\n")
    assert rows.pop() == ""
    assert len(rows) == len(HOSTILE)
    bad = []
    for number, (raw, row) in enumerate(zip(HOSTILE, rows), 1):
        want = _expect(name, raw)
        fields = row.split("\t")
        if want is None:
            assert fields == ["\\E"] * len(fields), (raw, row)
            bad.append(number)
        else:
            assert [_unescape(f) for f in fields] == [v if v is None else str(v) for v in want], raw
    assert bad and status == 1
    # each bad line reported once, by its number, then how many there were
    messages = err.splitlines()
    assert messages.pop() == (
        f"fasturi {argv[0]}: {len(bad)} of {len(HOSTILE)} lines could not be processed"
    )
    assert [int(line.split(":")[2]) for line in messages] == bad
    assert "error record written" in err


@pytest.mark.parametrize("name", TRANSFORMS)
def test_json_records_carry_the_input_and_the_error(monkeypatch, capfd, name):
    argv = TRANSFORMS[name][0]
    data = b"\n".join(HOSTILE) + b"\n"
    status, out, err = run_cli(monkeypatch, capfd, [*argv, "--json", "--no-progress"], data, True)
    records = [json.loads(row) for row in out.splitlines()]
    assert len(records) == len(HOSTILE) and status == 1
    key = "ref" if name == "resolve" else "uri"
    for raw, record in zip(HOSTILE, records):
        assert record[key] == raw.decode("utf-8", "replace")
        assert ("error" in record) == (_expect(name, raw) is None)
        if "error" in record:
            assert record["error"] and set(record) == {key, "error"}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", ["surt", "normalize", "split"])
def test_on_error_skip_and_stop(monkeypatch, capfd, name, path):
    argv = [*TRANSFORMS[name][0], "--no-progress"]
    data = b"\n".join(HOSTILE) + b"\n"
    keep = run_cli(monkeypatch, capfd, argv, data, path == "lines")[1].splitlines()
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "--on-error", "skip"], data, path == "lines"
    )
    assert status == 1 and "line skipped" in err
    assert out.splitlines() == [r for r in keep if not r.startswith("\\E")]
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "--on-error", "stop"], data, path == "lines"
    )
    first = next(i for i, raw in enumerate(HOSTILE) if _expect(name, raw) is None)
    assert status == 1 and out.splitlines() == keep[:first]
    # the line it stopped at, and the count up to there
    stop, count = err.splitlines()
    assert stop.endswith("; stopped")
    assert count == f"fasturi {name}: 1 of {first + 1} lines could not be processed"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("command", ["validate", "audit"])
def test_report_commands_give_unreadable_lines_a_row(monkeypatch, capfd, command, path):
    data = b"\n".join(HOSTILE) + b"\n"
    status, out, err = run_cli(
        monkeypatch, capfd, [command, "--no-progress"], data, path == "lines"
    )
    rows = [row.split("\t") for row in out.splitlines()]
    unreadable = [r for r in rows if r[1] == "\\E"]
    assert [r[0] for r in unreadable] == ["3", "9"]
    assert [_unescape(r[-1]) for r in unreadable] == [
        HOSTILE[2].decode("utf-8", "surrogateescape"),
        HOSTILE[8].decode("utf-8", "surrogateescape"),
    ]
    status, out, err = run_cli(
        monkeypatch, capfd, [command, "--no-progress", "--on-error", "skip"], data, path == "lines"
    )
    assert status == 1 and all(row.split("\t")[1] != "\\E" for row in out.splitlines())


@given(st.text())
def test_tsv_escaping_is_reversible_and_one_line(text):
    field = _tsv.escape(text)
    assert _unescape(field) == text
    assert field not in ("\\N", "\\E")
    assert not re.search("[\x00-\x1f\x7f\x80-\x9f\u2028\u2029]", field)
    assert field.splitlines() == ([field] if field else [])


@given(st.lists(st.text()))
def test_the_kernels_escape_as_the_line_path(texts):
    k = fasturi._impl.arrow_kernels()
    texts = [t.encode("utf-8", "replace").decode() for t in texts]  # no surrogates
    want = "".join(_tsv.escape(t) + "\n" for t in [*texts, None]).encode()
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        arr = pa.array(["\x00 sliced off", *texts, None], type=typ).slice(1)
        assert bytes(k.join_lines(ArrowColumn(*arr.__arrow_c_array__()))) == want
    arr = pa.array([1, None, 2**64 - 1, 0], type=pa.uint64()).slice(1)
    assert bytes(k.join_lines(ArrowColumn(*arr.__arrow_c_array__()))) == (
        b"\\N\n18446744073709551615\n0\n"
    )


def test_the_kernels_escape_at_every_place_in_a_row():
    # before, inside and after the 16-byte blocks the compiled escaping reads
    k = fasturi._impl.arrow_kernels()
    specials = ("\x00", "\\", "\t", "\x7f", "\x85", "\u2028", "\xa9", "\u2013", "é")
    texts = [
        "a" * i + c + "b" * j + d
        for i in range(0, 36, 5)
        for j in range(0, 20)
        for c in specials
        for d in ("", "\x01")
    ]
    arr = pa.array(texts)
    want = "".join(_tsv.escape(t) + "\n" for t in texts).encode()
    assert k.join_lines(ArrowColumn(*arr.__arrow_c_array__())) == want


def _suspect(text):
    """Whether the block path must run audit on a line (the reference)."""
    parsers = Parsers(fasturi._impl.core, fasturi._impl.rules, lambda: fasturi._impl.whatwg)
    return not fasturi.is_valid(text) or _scope(parsers, text, fasturi.split(text)) != _NOTHING


def _kernel_suspects(texts, threads=1):
    k = fasturi._impl.arrow_kernels()
    arr = pa.array(["sliced off", *texts]).slice(1)
    return k.audit_suspects(ArrowColumn(*arr.__arrow_c_array__()), 0, threads)


@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_audit_finds_nothing_where_the_prefilter_says_so(text):
    if not _suspect(text):
        assert fasturi.audit(text) == []
    assert _kernel_suspects([text]) == ([0] if _suspect(text) else [])


# the hostile lines that are UTF-8 and one line each
HOSTILE_TEXTS = [
    text
    for text in (raw.decode("utf-8", "replace") for raw in HOSTILE)
    if not re.search("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029\ufffd]", text)
]
# where the hosts parsers read can differ, or inet_aton() reads a number
AUDIT_LINES = [
    *("http:example.com", "HTTP:///example.com", "ws:x.y", "https:a@b", "file://c:/x"),
    *("http://[v1.x]/", "http://[::1]/", "http://0x7f.1/", "http://01.2.3.4/", "//0x7f.1/"),
    *("http://1.2.3.4/", "http://0pointer.de/", "http://1.2.3.4/%0a", "http://a@b/", "1a:x"),
    *("http://a/%2e%2E/%2f?%2e#%2f", "http://a/?%2f#%3a", "http://%CF%80.example/"),
    *("http://a/b%7e%41", "mailto:a@b", "file:///x", "foo:///bar", "http://a.b.c.d/"),
]


def test_audit_prefilter_on_hostile_lines():
    texts = [raw.decode("utf-8", "replace") for raw in HOSTILE] + AUDIT_LINES
    for text in texts:
        if not _suspect(text):
            assert fasturi.audit(text) == []
    assert _kernel_suspects(texts) == [i for i, text in enumerate(texts) if _suspect(text)]
    many = [*texts, None] * 3000  # (ranges on two threads; null rows)
    assert _kernel_suspects(many, 2) == [i for i, t in enumerate(many) if t and _suspect(t)]
    assert not _suspect("http://1.2.3.4/") and not _suspect("http://0pointer.de/")
    assert _suspect("http:example.com") and _suspect("//0x7f.1/") and _suspect("1a:x")


@pytest.mark.parametrize("path", PATHS)
def test_audit_lines_through_both_paths(monkeypatch, capfd, path):
    # each line's rows are its findings, on the block path too, and for a
    # line seen before (the handler keeps recent answers)
    texts = [*AUDIT_LINES, *HOSTILE_TEXTS, *AUDIT_LINES]
    data = "\n".join(texts).encode() + b"\n"
    status, out, err = run_cli(
        monkeypatch, capfd, ["audit", "--no-progress"], data, path == "lines"
    )
    want = [
        "\t".join((str(n), f.code, f.section, _tsv.escape(f.message), _tsv.escape(text)))
        for n, text in enumerate(texts, 1)
        for f in fasturi.audit(text)
    ]
    assert (status, out.splitlines(), err) == (1, want, "")


@pytest.mark.parametrize("path", PATHS)
def test_options_and_operands_in_any_order(monkeypatch, capfd, path, tmp_path):
    f = tmp_path / "refs.txt"
    f.write_bytes(b"../g\n")
    want = run_cli(monkeypatch, capfd, ["resolve", "--json", BASE, str(f)], b"", path == "lines")
    assert want[0] == 0 and json.loads(want[1]) == {"ref": "../g", "resolved": "http://a/b/g"}
    for argv in (
        ["resolve", BASE, "--json", str(f)],
        ["resolve", BASE, str(f), "--json"],
        ["resolve", "--json", BASE, str(f), "--no-progress"],
    ):
        assert run_cli(monkeypatch, capfd, argv, b"", path == "lines") == want


def test_usage_errors_print_the_commands_usage(monkeypatch, capfd):
    for argv, what in (
        (["resolve", "http://a/", "--bogus"], "unrecognized arguments: --bogus"),
        (["split", "--fields", "nope"], "unknown field 'nope'"),
        (["normalize", "--on-error", "maybe"], "argument --on-error: invalid choice: 'maybe'"),
    ):
        status, out, err = run_cli(monkeypatch, capfd, argv, b"", True)
        assert status == 2 and out == ""
        assert err.startswith(f"usage: fasturi {argv[0]} ")
        assert f"fasturi {argv[0]}: error: {what}" in err


_SPECIALS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)] + ["\\"]


@given(
    st.lists(
        st.sampled_from(["http://a/", "<URL: http://b/", ">", "www.c.org/", "mailto:d", " ", "é"])
        | st.sampled_from(_SPECIALS)
        | st.text(max_size=3),
        max_size=12,
    ),
    st.booleans(),
)
def test_extract_writes_its_uris_unescaped(pieces, abbreviated):
    # extract's TSV rows are its URIs as they are: none holds a character
    # the escaping rule rewrites (each ends a URI, or is dropped)
    for uri in fasturi.extract("".join(pieces), abbreviated=abbreviated):
        assert _tsv.escape(uri) == uri


@pytest.mark.parametrize("path", PATHS)
def test_extract_keeps_hostile_lines_to_themselves(monkeypatch, capfd, path):
    data = b"\n".join(HOSTILE) + b"\n"
    status, out, err = run_cli(
        monkeypatch, capfd, ["extract", "--no-progress"], data, path == "lines"
    )
    want = [
        uri
        for raw in HOSTILE
        if b"\xff" not in raw and b"\xed" not in raw
        for uri in fasturi.extract(raw.decode())
    ]
    assert (status, out.splitlines()) == (1, want)
    *messages, count = err.splitlines()
    assert [line.split(":")[2] for line in messages] == ["3", "9"]
    assert count == f"fasturi extract: 2 of {len(HOSTILE)} lines could not be processed"


def test_extract_joins_only_lines_a_bracket_leaves_open(monkeypatch, capfd):
    data = b"a > b\n<http://x/\ny>\n\xff <\nhttp://z/ <http://w/>\n<\nhttp://q/\n"
    status, out, err = run_cli(monkeypatch, capfd, ["extract", "--no-progress"], data, True)
    assert out.splitlines() == ["http://x/y", "http://z/", "http://w/", "http://q/"]
    *messages, count = err.splitlines()
    assert status == 1 and [line.split(":")[2] for line in messages] == ["4"]
    assert count == "fasturi extract: 1 of 7 lines could not be processed"


def test_audit_prefilter_at_every_place_in_a_long_authority():
    # before, inside and after the 16-byte blocks the compiled scan reads
    texts = [
        f"{scheme}//{'a' * i}{mark}{'b' * j}{end}"
        for scheme in ("http:", "file:", "")
        for i in range(0, 36, 3)
        for j in (0, 1, 15, 16, 17)
        for mark in ("", "%41", "@", "[v1.x]", "[::1]", ":8", ":", "1.2.3.4", "0x7f")
        for end in ("", "/p%2e", "?q%0a", "#f")
    ]
    assert _kernel_suspects(texts) == [i for i, text in enumerate(texts) if _suspect(text)]


def test_audit_prefilter_at_every_place_in_a_long_scheme():
    # the scheme is read 16 bytes at a time too: a mark before the ":" at
    # every place in and around those blocks
    texts = [
        f"{'a' * i}{mark}{'b' * j}:{rest}"
        for i in range(0, 36, 3)
        for j in (0, 1, 14, 15, 16, 17)
        for mark in ("", "/", "?", "#", "%41", "%0a", "@", "[v1.x]", "1.2")
        for rest in ("", "//h/p", "//0x7f.1/", "//a@b/", "x%2e", "//h/%0a")
    ]
    assert _kernel_suspects(texts) == [i for i, text in enumerate(texts) if _suspect(text)]
