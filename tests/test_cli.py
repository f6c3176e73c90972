"""The command line (docs/cli.md), driven as a user would: a real child process."""

from __future__ import annotations

import io
import json
import os
import selectors
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import fasturi
from fasturi import _cli, _cli_stream

COMMANDS = [
    "split",
    "normalize",
    "canonicalize",
    "resolve",
    "validate",
    "audit",
    "extract",
    "bench",
]

# The module always; the installed console script too when it is on PATH.
RUNNERS = [[sys.executable, "-m", "fasturi"]]
if shutil.which("fasturi"):
    RUNNERS.append([shutil.which("fasturi")])


@pytest.fixture(params=RUNNERS, ids=lambda r: "script" if len(r) == 1 else "module")
def fasturi_cmd(request):
    return request.param


def run(args, data=b"", cmd=None):
    """Run the CLI; returns (exit status, stdout bytes, stderr text)."""
    cmd = cmd or RUNNERS[0]
    proc = subprocess.run(
        cmd + list(args), input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300
    )
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


def lines(out: bytes):
    return out.decode("utf-8").splitlines()


# ---- general -----------------------------------------------------------------


def test_version(fasturi_cmd):
    status, out, err = run(["--version"], cmd=fasturi_cmd)
    assert status == 0
    assert out.decode().strip() == f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION})"


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_examples(command):
    status, out, err = run([command, "--help"])
    assert status == 0 and err == ""
    text = out.decode()
    assert "examples:" in text
    assert f"fasturi {command}" in text


def test_no_command_is_a_usage_error():
    status, out, err = run([])
    assert status == 2 and "usage:" in err


def test_normalize_stdin_is_the_default(fasturi_cmd):
    status, out, err = run(["normalize"], b"HTTP://A.com:80/./b/../%7e\n", cmd=fasturi_cmd)
    assert (status, lines(out), err) == (0, ["http://a.com/~"], "")


def test_dash_and_files_in_order(tmp_path):
    a = tmp_path / "a.txt"
    a.write_bytes(b"HTTP://A/\nhttp://B:80\n")
    status, out, err = run(["normalize", str(a), "-", str(a)], b"X://Y/./z\n")
    assert status == 0
    assert lines(out) == ["http://a/", "http://b/", "x://y/z", "http://a/", "http://b/"]


def test_missing_file_is_reported_and_the_rest_goes_on(tmp_path):
    a = tmp_path / "a.txt"
    a.write_bytes(b"HTTP://A/\n")
    status, out, err = run(["normalize", str(tmp_path / "nope.txt"), str(a)])
    assert status == 2
    assert lines(out) == ["http://a/"]
    assert "nope.txt" in err and "Traceback" not in err


def test_crlf_bom_and_last_line_without_newline():
    data = b"\xef\xbb\xbfHTTP://A/\r\nHTTP://B/\r\nHTTP://C/"
    status, out, err = run(["normalize"], data)
    assert (status, lines(out), err) == (0, ["http://a/", "http://b/", "http://c/"], "")


def test_empty_lines_give_empty_results():
    status, out, err = run(["normalize"], b"\n\nHTTP://A\n")
    assert status == 0 and out == b"\n\nhttp://a/\n"


@pytest.mark.parametrize("command", ["split", "normalize", "canonicalize", "validate", "audit"])
def test_invalid_utf8_is_reported_kept_in_place_and_fails_at_the_end(fasturi_cmd, command):
    data = b"http://a/\n\xff\xfe/x\nhttp://b/\xed\xa0\x80\nhttp://c/\n"
    status, out, err = run([command], data, cmd=fasturi_cmd)
    assert status == 1
    assert "Traceback" not in err
    assert "<stdin>:2: invalid UTF-8" in err
    assert "<stdin>:3: invalid UTF-8" in err  # an encoded surrogate is not UTF-8 either
    # a message for each, then the count
    assert err.splitlines()[2:] == [f"fasturi {command}: 2 of 4 lines could not be processed"]
    if command in ("split", "normalize", "canonicalize"):
        width = 5 if command == "split" else 1
        assert lines(out)[1:3] == ["\t".join(["\\E"] * width)] * 2  # their places kept
        assert lines(out)[-1].startswith("http" if command != "split" else "http\tc")
        assert len(lines(out)) == 4
    else:  # a row of their own, the bad bytes as \xHH
        assert [r.split("\t")[0] for r in lines(out)] == ["2", "3"]
        assert lines(out)[0].endswith("\t\\xff\\xfe/x")


def test_invalid_utf8_in_resolve_and_extract():
    status, out, err = run(["resolve", "http://a/b/c"], b"\xc3(\nd\n")
    assert (status, lines(out)) == (1, ["\\E", "http://a/b/d"])
    assert "<stdin>:1: invalid UTF-8" in err
    status, out, err = run(["extract"], b"x \x80 http://a/\nsee http://b/ too\n")
    assert (status, lines(out)) == (1, ["http://b/"])
    assert "<stdin>:1: invalid UTF-8" in err and "Traceback" not in err


def test_non_ascii_round_trips():
    text = "http://caf\u00e9.example/\u65e5\u672c?\U0001f600\n"
    status, out, err = run(["normalize"], text.encode())
    assert status == 0 and out.decode() == text


def test_clean_run_writes_nothing_to_stderr():
    # no progress bar when stderr is not a terminal
    status, out, err = run(["normalize"], b"http://a/\n" * 20000)
    assert status == 0 and err == "" and len(lines(out)) == 20000


# ---- split ---------------------------------------------------------------------


def test_split_tsv():
    data = b"http://u@h:8/p?q#f\nmailto:x\n//h\n"
    status, out, err = run(["split"], data)
    assert status == 0
    assert lines(out) == [
        "http\tu@h:8\t/p\tq\tf",
        "mailto\t\\N\tx\t\\N\t\\N",
        "\\N\th\t\t\\N\t\\N",
    ]


def test_split_fields_and_header():
    data = b"http://user:pw@[::1]:8080/p?q#f\nhttp://h/\nurn:x\nhttp://h:/\n"
    status, out, err = run(
        ["split", "--fields", "scheme,host,port,userinfo,path", "--header"], data
    )
    assert status == 0
    assert lines(out) == [
        "scheme\thost\tport\tuserinfo\tpath",
        "http\t[::1]\t8080\tuser:pw\t/p",
        "http\th\t\\N\t\\N\t/",
        "urn\t\\N\t\\N\t\\N\tx",
        "http\th\t\t\\N\t/",
    ]


def test_split_json():
    status, out, err = run(["split", "--json"], b"http://h/p?q\n")
    assert status == 0
    assert json.loads(out) == {
        "uri": "http://h/p?q",
        "scheme": "http",
        "authority": "h",
        "path": "/p",
        "query": "q",
        "fragment": None,
    }
    status, out, err = run(["split", "--json", "--fields", "host,port"], b"http://h:x/\n//\n")
    assert [json.loads(line) for line in lines(out)] == [
        {"uri": "http://h:x/", "host": "h", "port": "x"},
        {"uri": "//", "host": "", "port": None},
    ]


def test_split_escapes_tsv_specials():
    status, out, err = run(["split", "--fields", "path"], b"a\tb\\c\rd\n")
    assert status == 0 and out == b"a\\tb\\\\c\\rd\n"
    status, out, err = run(["split", "--fields", "path", "--json"], b"a\tb\\c\n")
    assert json.loads(out) == {"uri": "a\tb\\c", "path": "a\tb\\c"}


@pytest.mark.parametrize("fields", ["nope", "scheme,,nope", ","])
def test_split_bad_fields(fields):
    status, out, err = run(["split", "--fields", fields], b"http://a/\n")
    assert status == 2 and out == b"" and "field" in err and "Traceback" not in err


# ---- normalize, canonicalize, resolve --------------------------------------------


def test_normalize_options_and_json():
    status, out, err = run(["normalize", "--no-scheme-based"], b"http://a:80\n")
    assert lines(out) == ["http://a:80"]
    status, out, err = run(["normalize", "--json"], b"HTTP://A:80\n")
    assert json.loads(out) == {"uri": "HTTP://A:80", "normalized": "http://a/"}


def test_canonicalize():
    data = b"http://A.com/?utm_source=x&b=2&a=1&fbclid=z#top\nhttp://a.com/?b=2&a=1\n"
    status, out, err = run(
        ["canonicalize", "--drop-param", "utm_*", "--drop-param", "fbclid"], data
    )
    assert (status, lines(out)) == (0, ["http://a.com/?a=1&b=2", "http://a.com/?a=1&b=2"])
    status, out, err = run(["canonicalize", "--keep-query-order", "--keep-fragment"], data)
    assert lines(out) == [
        "http://a.com/?utm_source=x&b=2&a=1&fbclid=z#top",
        "http://a.com/?b=2&a=1",
    ]
    status, out, err = run(["canonicalize", "--json"], b"HTTP://A/?b&a#f\n")
    assert json.loads(out) == {"uri": "HTTP://A/?b&a#f", "canonical": "http://a/?a&b"}


RFC_5_4_1 = {
    "g:h": "g:h",
    "g": "http://a/b/c/g",
    "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/",
    "/g": "http://a/g",
    "//g": "http://g",
    "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s",
    "g#s": "http://a/b/c/g#s",
    "g?y#s": "http://a/b/c/g?y#s",
    ";x": "http://a/b/c/;x",
    "g;x": "http://a/b/c/g;x",
    "g;x?y#s": "http://a/b/c/g;x?y#s",
    "": "http://a/b/c/d;p?q",
    ".": "http://a/b/c/",
    "./": "http://a/b/c/",
    "..": "http://a/b/",
    "../": "http://a/b/",
    "../g": "http://a/b/g",
    "../..": "http://a/",
    "../../": "http://a/",
    "../../g": "http://a/g",
}


def test_resolve_rfc_5_4_1():
    data = "".join(ref + "\n" for ref in RFC_5_4_1).encode()
    status, out, err = run(["resolve", "http://a/b/c/d;p?q"], data)
    assert (status, err) == (0, "")
    assert lines(out) == list(RFC_5_4_1.values())


def test_resolve_options():
    status, out, err = run(["resolve", "--rfc", "2396", "http://a/b/c/d;p?q"], b"../../../g\n")
    assert lines(out) == ["http://a/../g"]
    status, out, err = run(["resolve", "--non-strict", "http://a/b/c/d;p?q"], b"http:g\n")
    assert lines(out) == ["http://a/b/c/g"]
    status, out, err = run(["resolve", "--json", "http://a/b/c/d;p?q"], b"g\n")
    assert json.loads(out) == {"ref": "g", "resolved": "http://a/b/c/g"}


def test_resolve_needs_an_absolute_base():
    status, out, err = run(["resolve", "a/b"], b"g\n")
    assert status == 2 and out == b"" and "absolute" in err and "Traceback" not in err


# ---- validate, audit, extract -----------------------------------------------------


def test_validate():
    data = b"http://a/b\nhttp://a b/\n%zz\nok\n"
    status, out, err = run(["validate"], data)
    assert status == 1
    assert lines(out) == ["2\t8\tURI-reference\thttp://a b/", "3\t1\tURI-reference\t%zz"]
    status, out, err = run(["validate"], b"http://a/b\n\nok\n")
    assert (status, out) == (0, b"")


def test_validate_rule_rfc_and_json(tmp_path):
    status, out, err = run(["validate", "--rule", "absolute-URI"], b"http://a/\nhttp://a/#f\n")
    assert (status, lines(out)) == (1, ["2\t9\tabsolute-URI\thttp://a/#f"])
    status, out, err = run(["validate", "--rfc", "2396", "--rule", "absoluteURI"], b"a:b\n/x\n")
    assert (status, lines(out)) == (1, ["2\t0\tabsoluteURI\t/x"])
    f = tmp_path / "u.txt"
    f.write_bytes(b"ok\nhttp://a b/\n")
    status, out, err = run(["validate", "--json", str(f), "-"], b"x y\n")
    assert status == 1
    assert [json.loads(line) for line in lines(out)] == [
        {
            "file": str(f),
            "line": 2,
            "uri": "http://a b/",
            "position": 8,
            "rule": "URI-reference",
            "message": "invalid URI-reference at position 8: ' '",
        },
        {
            "file": "<stdin>",
            "line": 1,
            "uri": "x y",
            "position": 1,
            "rule": "URI-reference",
            "message": "invalid URI-reference at position 1: ' '",
        },
    ]
    status, out, err = run(["validate", str(f), "-"], b"x y\n")
    assert lines(out) == [
        f"{f}:2\t8\tURI-reference\thttp://a b/",
        "<stdin>:1\t1\tURI-reference\tx y",
    ]


def test_validate_unknown_rule():
    status, out, err = run(["validate", "--rule", "nope"], b"x\n")
    assert status == 2 and "nope" in err and "Traceback" not in err


def test_audit():
    data = b"http://example.com/\nhttp://user:secret@example.com/\n"
    status, out, err = run(["audit"], data)
    assert status == 1
    rows = [line.split("\t") for line in lines(out)]
    assert [(r[0], r[1], r[2], r[-1]) for r in rows] == [
        ("2", "password-in-userinfo", "7.5", "http://user:secret@example.com/")
    ]
    assert run(["audit"], b"http://example.com/\n")[:2] == (0, b"")


def test_audit_json():
    status, out, err = run(["audit", "--json"], b"ok\nhttp://0x7f.1/\n")
    record = json.loads(out)
    assert (record["line"], record["uri"]) == (2, "http://0x7f.1/")
    assert [f["code"] for f in record["findings"]] == [
        f.code for f in fasturi.audit("http://0x7f.1/")
    ]
    assert set(record["findings"][0]) == {"code", "section", "message"}


def test_extract():
    text = textwrap.dedent("""\
        See <http://www.w3.org/Addressing/
           ietf-uri.txt> and "http://example.com/a".
        Nothing here.
        Also http://example.org/x, and www.example.net/y.
    """).encode()
    status, out, err = run(["extract"], text)
    assert status == 0
    assert lines(out) == [
        "http://www.w3.org/Addressing/ietf-uri.txt",
        "http://example.com/a",
        "http://example.org/x",
    ]
    status, out, err = run(["extract", "--abbreviated", "--json"], text)
    records = [json.loads(line) for line in lines(out)]
    assert [r["uri"] for r in records][-1] == "http://www.example.net/y"
    assert [r["line"] for r in records] == [1, 1, 4, 4]


def test_extract_unclosed_angle_bracket_is_bounded():
    # a "<" that never closes must not make the command hold the whole input
    data = b"<http://a/\n" + b"x\n" * 50000 + b"http://b/\n"
    status, out, err = run(["extract"], data)
    assert status == 0 and "http://b/" in lines(out)


# ---- streaming -----------------------------------------------------------------


def test_line_buffered_answers_each_line_before_input_ends():
    proc = subprocess.Popen(
        RUNNERS[0] + ["normalize", "--line-buffered"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        sel = selectors.DefaultSelector() if os.name != "nt" else None
        for text, want in [(b"HTTP://A/./b\n", b"http://a/b\n"), (b"X:Y\n", b"x:Y\n")]:
            proc.stdin.write(text)
            proc.stdin.flush()
            if sel is not None:  # a bound on waiting, not a timing assertion
                sel.register(proc.stdout, selectors.EVENT_READ)
                assert sel.select(timeout=120), "no answer while input is still open"
                sel.unregister(proc.stdout)
            assert proc.stdout.readline() == want
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_reader_going_away_is_quiet(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"http://a/\n" * 200000)
    with open(big, "rb") as stdin:
        proc = subprocess.Popen(
            RUNNERS[0] + ["normalize", "-"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        first = proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read().decode()
        proc.stderr.close()
        status = proc.wait(timeout=300)
    assert first == b"http://a/\n"
    assert "Traceback" not in err and err == ""
    assert status == 1


def _peak_memory_script(n_lines: int) -> str:
    return textwrap.dedent(f"""
        import resource, subprocess, sys
        line = b"HTTP://Example.COM:80/a/./b/../c/%7euser/" + b"x" * 100 + b"?b=2&a=1#f\\n"
        child = subprocess.Popen({RUNNERS[0]!r} + ["canonicalize"],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        for _ in range({n_lines} // 1000):
            child.stdin.write(line * 1000)
        child.stdin.close()
        assert child.wait() == 0
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """)


if sys.platform != "win32":  # the resource module is POSIX-only

    def test_streaming_memory_stays_flat():
        # ~30 MB of input: holding it (or its results) would add far more
        # than the bound; the difference is measured against a tiny run.
        def peak(n_lines):
            out = subprocess.run(
                [sys.executable, "-c", _peak_memory_script(n_lines)],
                stdout=subprocess.PIPE,
                check=True,
                timeout=600,
            ).stdout
            kib = int(out)
            return kib // 1024 if sys.platform == "darwin" else kib  # macOS reports bytes

        small, large = peak(2000), peak(200000)
        # (a free-threaded build's allocator, mimalloc, keeps the pages of
        # blocks one thread allocated and another freed for a while: 13 to
        # 19 MiB more for 30 MB of input, 20 for 150 MB, on 3.14t)
        bound = 24 if sysconfig.get_config_var("Py_GIL_DISABLED") else 16
        assert large - small < bound * 1024, (small, large)


def test_streaming_memory_in_process(monkeypatch):
    # The same bound on every platform, with tracemalloc, in this process.
    import tracemalloc

    line = b"HTTP://Example.COM:80/a/./b/../c/%7euser/" + b"x" * 100 + b"?b=2&a=1#f\n"

    class Stdin:
        buffer = io.BytesIO(line * 50000)

    class Stdout:
        class buffer:
            @staticmethod
            def write(data):
                return len(data)

            @staticmethod
            def flush():
                pass

        @staticmethod
        def flush():
            pass

    monkeypatch.setattr(sys, "stdin", Stdin)
    monkeypatch.setattr(sys, "stdout", Stdout)
    tracemalloc.start()
    try:
        assert _cli.main(["canonicalize", "--no-progress"]) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 7.5 MB of input; one chunk of lines and results is well under 4 MB.
    # (A free-threaded build frees an object dropped by another thread than
    # the one that made it only once its maker runs again: biased reference
    # counting.  The reading thread's chunks outlive their use a little
    # there: 4.0 to 4.3 MB at the peak on 3.14t, 3.8 MB on 3.11.)
    free_threaded = sysconfig.get_config_var("Py_GIL_DISABLED")
    assert peak < (6 if free_threaded else 4) * 1024 * 1024, peak


# ---- progress bar ----------------------------------------------------------------


def _args(*argv):
    return _cli.build_parser().parse_args(list(argv))


def test_progress_bar_only_on_a_terminal(monkeypatch, tmp_path):
    f = tmp_path / "u.txt"
    f.write_bytes(b"http://a/\n" * 10)
    run_ = _cli_stream._Run("normalize", _args("normalize", str(f)))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert _cli_stream._progress(run_, [str(f)]) is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    bar = _cli_stream._progress(run_, [str(f)])
    try:
        assert bar is not None and bar.total == 100  # bytes of the regular file
    finally:
        bar.close()
    quiet = _cli_stream._Run("normalize", _args("normalize", "--no-progress", str(f)))
    assert _cli_stream._progress(quiet, [str(f)]) is None


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_and_messages_share_stderr(monkeypatch, tmp_path):
    f = tmp_path / "u.txt"
    f.write_bytes(b"http://a/\n" * 10)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    run_ = _cli_stream._Run("normalize", _args("normalize", str(f)))
    run_.bar = _cli_stream._progress(run_, [str(f)])
    try:
        run_.bar.update(2_500_000)
        run_.bar.refresh()
        drawn = terminal.getvalue()
        assert "2.50MB" in drawn  # decimal units: 2,500,000 bytes
        run_.warn("u.txt:3: something")
        after = terminal.getvalue()[len(drawn) :]
        # the bar cleared, the message on a line of its own, the bar drawn again
        cleared, message, again = after.split("\r")[1:]
        assert cleared.strip() == "" and message == "fasturi normalize: u.txt:3: something\n"
        assert "2.50MB" in again
    finally:
        run_.bar.close()
    # on a pipe the bar counts the bytes read, without a total
    read, write = os.pipe()
    try:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.FileIO(read, closefd=False)))
        bar = _cli_stream._progress(run_, ["-"])
        assert bar is not None and bar.total is None and bar.unit == "B"
        bar.close()
    finally:
        os.close(read)
        os.close(write)


# ---- bench -----------------------------------------------------------------------


def test_bench_table():
    status, out, err = run(["bench", "--rounds", "1", "--ops", "split,resolve"])
    assert status == 0, err
    text = out.decode()
    for label in (
        "fasturi.split",
        "fasturi.split_many",
        "urllib.parse.urlsplit",
        "fasturi.resolve",
        "fasturi.resolve_many",
        "urllib.parse.urljoin",
    ):
        assert label in text
    assert "4,017 URLs, 2,159 references" in text
    assert "ns/URL" in text and "x urllib" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    # the empty "x urllib" cells and the footnotes are explained
    assert "x urllib: how many times faster than urllib.parse" in text
    assert "[1] " in text and "\n[1] " in text


def test_bench_json_covers_every_operation():
    status, out, err = run(["bench", "--rounds", "1", "--json"])
    assert status == 0, err
    records = [json.loads(line) for line in lines(out)]
    ours = {r["operation"] for r in records if r["implementation"].startswith("fasturi")}
    assert {"split", "resolve", "normalize", "canonicalize", "is_valid"} <= ours
    assert all(r["ns_per_item"] > 0 and r["items"] > 0 for r in records)
    urllib_ops = {r["operation"] for r in records if r["implementation"].startswith("urllib")}
    assert {"split", "resolve", "urlsplit", "urljoin", "quote"} <= urllib_ops


def test_bench_without_peers():
    peers = ["yarl", "ada_url", "can_ada", "rfc3986", "rfc3986_validator", "uritools", "w3lib"]
    code = (
        "import sys\n"
        f"sys.modules.update(dict.fromkeys({peers!r}))\n"  # None: `import x` fails
        "from fasturi._cli import main\n"
        "sys.exit(main(['bench', '--rounds', '1', '--ops', 'split,is_valid']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert "fasturi.split" in text and "urllib.parse.urlsplit" in text
    assert "not timed:" in text and "yarl.URL" in text.split("not timed:")[1]


def test_bench_corpus_files_and_bad_op(tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text("http://a/b\nhttp://c/d?e\n")
    refs = tmp_path / "refs.tsv"
    refs.write_text("http://a/b/c\t../d\n")
    status, out, err = run(
        [
            "bench",
            "--rounds",
            "2",
            "--ops",
            "split,resolve",
            "--corpus",
            str(urls),
            "--refs",
            str(refs),
        ]
    )
    assert status == 0 and "2 URLs, 1 references" in out.decode()
    status, out, err = run(["bench", "--ops", "nope"])
    assert status == 2 and "nope" in err


def test_bench_rounds_are_one_or_more():
    for rounds in ("0", "-2", "x"):
        status, out, err = run(["bench", "--rounds", rounds, "--ops", "quote"])
        assert status == 2 and "--rounds" in err and out == b""


def test_bench_help_is_wrapped():
    status, out, err = run(["bench", "--help"])
    assert status == 0 and max(len(line) for line in lines(out)) <= 80


def test_bench_progress_on_a_terminal(monkeypatch):
    from fasturi import _cli_bench

    assert _cli_bench._progress_bar(3, False) is None  # (stderr is no terminal here)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert _cli_bench._progress_bar(3, True) is None  # --no-progress
    bar = _cli_bench._progress_bar(3, False)
    bar.set_description_str("bench fasturi.split")
    bar.update()
    bar.close()
    assert "bench fasturi.split" in sys.stderr.getvalue()


def _records():
    """A bench table as its plot gets it: values over five decades."""
    rows = [
        ("split", "fasturi.split", 120),
        ("split", "urllib.parse.urlsplit", 2_400),
        ("split", "a peer with a long name, slow", 98_765),
        ("resolve", "fasturi.resolve", 110),
        ("resolve", "rfc3986 resolve_with", 38_000),
        ("quote", "fasturi.parse.quote", 0.4),
        ("quote", "urllib.parse.quote", 3_000),
    ]
    return [
        {"operation": op, "implementation": label, "ns_per_item": ns, "items": 1, "failed": 0}
        for op, label, ns in rows
    ]


def test_bench_plot_reads_well():
    pytest.importorskip("matplotlib")  # (a test extra: here whenever bench's plot can be)
    from fasturi import _cli_bench

    fig = _cli_bench._figure(_records(), "the title", "the line under it")
    fig.canvas.draw()
    axes = fig.axes
    assert len(axes) == 3
    boxes = [ax.get_window_extent() for ax in axes]
    legend = fig.legends[0].get_window_extent()
    title = fig._suptitle.get_window_extent()
    for box in boxes:
        # nothing over a panel: the legend and the title are above them all
        assert not legend.overlaps(box) and not title.overlaps(box)
    for ax, box in zip(axes, boxes):
        for text in ax.texts:  # each bar's value, inside its panel
            label = text.get_window_extent()
            assert box.x0 <= label.x0 and label.x1 <= box.x1, text.get_text()
        # one scale for every panel, labelled at its decades only
        assert ax.get_xlim() == axes[0].get_xlim()
        minor = [t.get_text() for t in ax.xaxis.get_minorticklabels()]
        assert not any(minor)
    labels = [t.get_text() for t in axes[-1].xaxis.get_majorticklabels() if t.get_text()]
    assert "1,000" in labels and "100" in labels
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_bench_plot_titles_the_run(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import datetime
    import platform

    from fasturi import _cli_bench

    drawn = {}
    monkeypatch.setattr(
        _cli_bench, "_plot", lambda records, path, title, line: drawn.update(t=title, l=line)
    )
    status = _cli.main(
        ["bench", "--rounds", "1", "--ops", "quote", "--plot", str(tmp_path / "b.png")]
    )
    assert status == 0
    assert drawn["t"] == f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}) and its peers"
    assert f"{platform.python_implementation()} {platform.python_version()}" in drawn["l"]
    assert datetime.date.today().isoformat() in drawn["l"]
    assert "best of 1 round " in drawn["l"]


def test_bench_plot_file(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "bench.png"
    status, out, err = run(["bench", "--rounds", "1", "--ops", "quote", "--plot", str(path)])
    assert status == 0 and err == f"fasturi bench: plot written to {path}\n"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
