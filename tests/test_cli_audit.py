"""audit on the command line writes, for every line, the rows that
``fasturi.audit`` of the line gives, through the block path and the per-line
path alike: also where a valid line's findings are written from the facts
the kernels find (``audit_escapes``, csrc/fasturi_cli.h fu_audit_escapes)
instead of by audit() itself.  Both implementations: the reference kernels
stand in for the compiled ones, which only the compiled run has."""

from __future__ import annotations

import json
from pathlib import Path

import corpus_files
import pyarrow as pa
import pytest
from cli_runs import run_cli
from hypothesis import given
from hypothesis import strategies as st

import fasturi
from fasturi import _arrow_py, _audit, _tsv
from fasturi._types import ArrowColumn

# what audit() reports of an escape, and the escapes it must not mistake
# for one: every control, every encoded delimiter, the encoded dots and
# slashes of dot segments, in both cases
ESCAPES = [
    *(f"%{c:02X}" for c in (*range(0x20), 0x7F)),
    *("%0a", "%0d", "%1b", "%1f", "%7f"),
    *("%2F", "%2f", "%3F", "%3f", "%23", "%5B", "%5b", "%5D", "%5d", "%40", "%3A", "%3a"),
    *("%5C", "%5c", "%2E", "%2e", "%41", "%25", "%20", "%7E", "%80", "%ff"),
]
# each escape in every component, and beside the findings audit() reads
# the authority for (userinfo, IPv4 number forms, file URLs)
PLACES = [
    *("http://{e}a/b", "http://u{e}@a/b", "http://u:p{e}@a/", "http://a:8{e}/", "http://a/{e}"),
    *("http://a/b{e}c/d", "http://a/b?{e}", "http://a/b#{e}", "http://a/b?q#f{e}", "{e}"),
    *("a/{e}/b", "/{e}", "//h{e}/p", "//h/p{e}", "file:///{e}", "file://c:/{e}", "file:/c:{e}"),
    *("file://localhost/{e}/x", "mailto:{e}@x", "x:{e}", "urn:a:{e}", "?{e}", "#{e}"),
    *("http://a/{e}{e}/{e}?{e}#{e}", "http://a/.{e}./{e}..", "http:{e}", "https:///{e}"),
    *("http://0x7f.1/{e}", "http://017.0.0.1/{e}", "http://1.2.3.4/{e}", "http://2130706433/{e}"),
    *("http://user:pw@a/{e}", "http://a.com@b.com/{e}", "http://[::1]/{e}", "http://[v1.x]/{e}"),
    *("ssh://git@host:repo/{e}", "http:/{e}", "{e}:x", "a{e}:b", "http://a/\x01{e}"),
]
# encoded dot segments, and what is not one
DOTS = [
    *("/%2e", "/%2E%2e", "/%2e%2e/", "/a%2F..", "/..%2Fa", "/.%5C.", "/%2e.%2f%2e", "/...%2e"),
    *("/%2e%2e%2e", "/x/%2e/%2e%2e?%2e#%2e", "/%2e%2f%2e%2e%2f", "%2e", "%2e%2e/x", "./%2e/.."),
    *("/a/..%41", "/%2e%41", "/%2f%2f", "/%5c%5c..", "/%2e%5c", "/a%2fb%2f.", "/.%2e%2e."),
    *("http://a/%2e%2e/%2E%2e/%2e", "http://a%2e/%2e", "/%2e?x=/%2e", "/%2e#/%2e"),
]

HOSTILE_AUDIT = [
    *(place.format(e=e) for place in PLACES for e in ESCAPES),
    *(place.format(e=d) for place in PLACES[:12] for d in DOTS),
    *DOTS,
    *("http://a/b", "", "%", "%0", "%0g", "http://a/%", "http://é/%0a", "http://a/é%2f"),
]


def _kernels():
    return fasturi._impl.arrow_kernels()


def _parsers():
    """What fasturi.audit reads with: the running twins."""
    return _audit.Parsers(fasturi._impl.core, fasturi._impl.rules, lambda: fasturi._impl.whatwg)


def _facts_agree(text):
    """The facts of ``text`` are the same in both kernels and the reference,
    and there are some only where audit() gives the findings they make."""
    facts = _audit._escape_facts(_parsers(), text)
    assert _kernels().audit_escapes(text) == facts, text
    assert _arrow_py.audit_escapes(text) == facts, text
    if facts is not None:
        assert _audit._escape_findings(text, facts) == fasturi.audit(text), text
    return facts


def test_escape_facts_on_hostile_lines():
    seen = [_facts_agree(text) for text in HOSTILE_AUDIT]
    # the facts of every kind of finding were checked, and refused lines too
    kinds = [f for f in seen if f is not None]
    assert None in seen and len(kinds) > 300
    assert any(f[1] for f in kinds) and any(f[3] for f in kinds) and any(f[6] for f in kinds)
    assert {f[7] for f in kinds} == {0, 1, 2}
    assert any(f[1] > 1 for f in kinds) and any(f[3] > 1 for f in kinds)
    assert any(f[6] > 1 for f in kinds)


@given(
    st.sampled_from(["", "http://a", "//h", "x:", "file://", "a"]),
    st.lists(
        st.sampled_from(["%2e", "%2E", "%2f", "%5C", "%5c", ".", "/", "a", "%0a", "%7F", "%3a"])
        | st.sampled_from(["?", "#", "%40", "@", ":", "//", "%41", "%23", "%5d", "..", "%1F"]),
        max_size=14,
    ),
)
def test_escape_facts_of_any_path(start, pieces):
    _facts_agree(start + "".join(pieces))


def test_escape_facts_refuse_what_is_no_valid_reference():
    for text in ("http://a/%0a\x00", "http://a/\u00e9%0a", "http://a/%0a ", "%zz%0a", "\ud800"):
        assert _kernels().audit_escapes(text) is None
        assert _arrow_py.audit_escapes(text) is None
        assert _audit._escape_facts(_parsers(), text) is None


@pytest.mark.parametrize("threads", [1, 2])
def test_suspect_rows_come_with_their_text_and_facts(threads):
    texts = [t for t in HOSTILE_AUDIT if "\ud800" not in t]
    many = [*texts, None] * 40  # (ranges on two threads; null rows)
    arr = pa.array(["sliced off", *many]).slice(1)
    for kernels in (_kernels(), _arrow_py):
        known: list = []
        rows = kernels.audit_suspects(ArrowColumn(*arr.__arrow_c_array__()), 0, threads, known)
        assert rows == kernels.audit_suspects(ArrowColumn(*arr.__arrow_c_array__()), 0, threads)
        assert known == [(many[i], _audit._escape_facts(_parsers(), many[i])) for i in rows]
        assert sum(facts is not None for _, facts in known) > 300 * 40


def _text(raw):
    """A line's text as the command line reads it, or None if not UTF-8."""
    try:
        return raw.removesuffix(b"\r").decode("utf-8")
    except UnicodeDecodeError:
        return None


def _want_tsv(raws):
    """audit's TSV rows of the lines, each line through fasturi.audit; None
    for the error row of a line that is not UTF-8."""
    rows = []
    for n, text in enumerate(map(_text, raws), 1):
        if text is None:
            rows.append(None)
            continue
        for f in fasturi.audit(text):
            rows.append("\t".join((str(n), f.code, f.section, _tsv.escape(f.message))))
            rows[-1] += "\t" + _tsv.escape(text)
    return rows


def _check_both_paths(monkeypatch, capfd, raws):
    data = b"\n".join(raws) + b"\n"
    want = _want_tsv(raws)
    bad = want.count(None)
    for lines in (True, False):
        status, out, err = run_cli(monkeypatch, capfd, ["audit", "--no-progress"], data, lines)
        got = out.split("\n")
        assert got.pop() == ""
        assert len(got) == len(want)
        for w, g in zip(want, got):
            if w is None:
                assert g.split("\t")[1:3] == ["\\E", "\\E"]
            else:
                assert g == w
        # a message for each line not read, then the count of them
        assert (status, err.count("\n")) == (1 if want else 0, bad + 1 if bad else 0)
        if bad:
            total = len(raws)
            assert err.endswith(f": {bad} of {total:,} lines could not be processed\n")
    # --json (the line path only): a record for each line with findings
    status, out, err = run_cli(monkeypatch, capfd, ["audit", "--json", "--no-progress"], data, True)
    records = [json.loads(row) for row in out.splitlines()]
    want_json = [
        {"file": "<stdin>", "line": n, "uri": text, "findings": findings}
        for n, text in enumerate(map(_text, raws), 1)
        if text is not None
        for findings in [[f._asdict() for f in fasturi.audit(text)]]
        if findings
    ]
    assert [r for r in records if "error" not in r] == want_json
    assert len(records) == len(want_json) + bad
    assert (status, err.count("\n")) == (1 if records else 0, bad + 1 if bad else 0)


def test_cli_audit_of_hostile_lines(monkeypatch, capfd):
    raws = [text.encode() for text in HOSTILE_AUDIT if "\ud800" not in text]
    raws += [b"http://a/%0a\x00", b"http://a/\x01%2f", b"http://a/%2e\r", b"x\x1b[31m%0a"]
    raws += ["http://a/\u2028%0a".encode(), b"http://a/%0a\tb"]
    # every block on the kernels; then a block the per-line path takes
    # (a line in it is not UTF-8)
    _check_both_paths(monkeypatch, capfd, raws)
    _check_both_paths(monkeypatch, capfd, [b"\xff%0a", *raws[:200], b"\xffhttp://a/%2e%2e/"])


def _stream_lines(limit):
    path = corpus_files.SHARED / "stream.txt"
    if not path.is_file():
        path = Path(corpus_files.FOLDER) / "urls.txt"
    with open(path, "rb") as f:
        raws = f.read().split(b"\n")[:-1]
    return raws[:limit]


def test_cli_audit_of_the_corpus_stream(monkeypatch, capfd):
    raws = _stream_lines(None)
    # the kernels find the facts of most lines with findings
    suspects = [raw.decode() for raw in raws if b"%" in raw]
    assert sum(_facts_agree(text) is not None for text in suspects) > len(raws) // 200
    _check_both_paths(monkeypatch, capfd, raws)


@pytest.mark.parametrize("text", ["http://a/%0A%2f?%7F#%0a", "/%2e%2E/%2E/x"])
def test_cli_audit_of_a_line_seen_before(monkeypatch, capfd, text):
    # the handler keeps recent answers: a repeated line gives its rows again
    _check_both_paths(monkeypatch, capfd, [text.encode()] * 3)
