"""fasturi's DuckDB extension: loaded, the same answers as the Arrow path and
the scalar functions, and no crash on any input from several DuckDB threads."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from corpus_files import FOLDER, lines

import fasturi
import fasturi.duckdb
from fasturi import _duckdb_ext, arrow

pytestmark = pytest.mark.skipif(
    fasturi.duckdb.extension_path() is None, reason="fasturi was built without its DuckDB extension"
)

#: DuckDB before 1.2 cannot load an extension built on C API v1.2.0:
#: there fasturi.duckdb gives every function through Arrow, warning once
#: (test_connect_on_this_duckdb); what the extension does is tested where
#: it loads (CI runs this module on the newest DuckDB and on 1.2.0).
OLDER = tuple(int(x) for x in duckdb.__version__.split(".")[:2]) < (1, 2)
LOADS = pytest.mark.skipif(
    OLDER, reason=f"DuckDB {duckdb.__version__} cannot load extensions built on C API v1.2.0"
)

# (resolve, query_param and remove_params need a second argument: OPTIONED)
ONE_ARG = sorted(
    n
    for n in fasturi.duckdb.NATIVE
    if n not in ("uri_resolve", "uri_query_param", "uri_remove_params")
)
# native calls with options, of the column u
OPTIONED = [
    "uri_query_param(u, 'k')",
    "uri_query_param(u, '\u00e9', false)",
    "uri_query_param(u, '')",
    "uri_remove_params(u, ['k', '?*=', '\u00e9*'])",
    "uri_remove_params(u, [])",
    "uri_subdomain(u, true)",
    "uri_query_params(u, false)",
]


def corpus_column():
    """The full corpus (or the shipped sample) with NULLs and edge rows."""
    from .conftest import EDGES

    urls = lines(FOLDER / "urls.txt")
    return pa.array([None if i % 97 == 13 else u for i, u in enumerate(urls)] + EDGES, pa.string())


@pytest.fixture(scope="module")
def corpus():
    return corpus_column()


@pytest.fixture(scope="module")
def parquet(tmp_path_factory, corpus):
    path = tmp_path_factory.mktemp("corpus") / "urls.parquet"
    table = pa.table({"id": pa.array(range(len(corpus)), pa.int64()), "url": corpus})
    pq.write_table(table, path, row_group_size=5000)
    return path


@pytest.fixture(scope="module")
def native():
    if OLDER:
        pytest.skip(f"DuckDB {duckdb.__version__} cannot load extensions built on C API v1.2.0")
    con = fasturi.duckdb.connect()
    yield con
    con.close()


@pytest.fixture(scope="module")
def loaded():
    """The extension alone: LOADed, nothing registered through Arrow."""
    if OLDER:
        pytest.skip(f"DuckDB {duckdb.__version__} cannot load extensions built on C API v1.2.0")
    con = duckdb.connect(config={"allow_unsigned_extensions": True})
    path = _duckdb_ext.for_platform(con.execute("PRAGMA platform").fetchall()[0][0])
    con.execute(f"LOAD '{path}'")
    yield con
    con.close()


@pytest.fixture(scope="module")
def through_arrow():
    con = duckdb.connect()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fasturi.duckdb.register(con)
    yield con
    con.close()


def column_of(con, sql):
    return [r[0] for r in con.execute(sql).fetchall()]


def test_extension_carries_the_native_functions(loaded):
    names = set(
        column_of(
            loaded,
            "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name LIKE 'uri_%'",
        )
    )
    assert names == set(fasturi.duckdb.NATIVE)
    assert column_of(loaded, "SELECT uri_host('http://user@Example.COM:8080/p?q#f')") == [
        "Example.COM"
    ]


def test_connect_on_this_duckdb(monkeypatch):
    # the extension where this DuckDB loads it, silently; on DuckDB 1.1,
    # every function through Arrow and one warning that says why
    monkeypatch.setattr(fasturi.duckdb, "_warned", False)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        cons = [fasturi.duckdb.connect(), fasturi.duckdb.connect()]
    said = [str(w.message) for w in record]
    if OLDER:
        assert len(said) == 1, said
        assert said[0].startswith("fasturi.duckdb: the uri_* functions run through Python")
        assert (
            f"DuckDB {duckdb.__version__} cannot load extensions built on C API v1.2.0" in said[0]
        )
        assert "pip install -U duckdb" in said[0]
        assert "allow_unsigned_extensions" not in said[0]  # (no use here)
        assert record[0].filename == __file__  # (the caller's line)
    else:
        assert said == []
    for con in cons:
        names = column_of(
            con, "SELECT function_name FROM duckdb_functions() WHERE function_name LIKE 'uri_%'"
        )
        assert set(names) == set(fasturi.duckdb.FUNCTIONS)
        # the extension's functions are C functions, the Arrow path's macros
        kinds = dict(
            con.execute(
                "SELECT function_name, function_type FROM duckdb_functions()"
                " WHERE function_name IN ('uri_host', 'uri_surt')"
            ).fetchall()
        )
        assert kinds["uri_host"] == ("macro" if OLDER else "scalar"), kinds
        assert kinds["uri_surt"] == "macro"
        assert column_of(con, "SELECT uri_host('http://u@Example.COM:8080/p')") == ["Example.COM"]
        con.close()


@LOADS
def test_connect_has_every_function():
    con = fasturi.duckdb.connect(config={"threads": 1})
    names = column_of(
        con,
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name LIKE 'uri_%'",
    )
    assert sorted(names) == sorted(fasturi.duckdb.FUNCTIONS)
    assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 1
    con.close()


@LOADS
def test_register_loads_where_allowed():
    con = duckdb.connect(config={"allow_unsigned_extensions": True})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fasturi.duckdb.register(con) is con
        fasturi.duckdb.register(con)  # again: harmless
    assert column_of(con, "SELECT uri_port('http://h:8080/')") == ["8080"]
    con.close()


def test_register_falls_back_and_warns_once(monkeypatch):
    monkeypatch.setattr(fasturi.duckdb, "_warned", False)
    con = duckdb.connect()
    how = "pip install -U duckdb" if OLDER else "allow_unsigned_extensions"
    with pytest.warns(RuntimeWarning, match=how):
        fasturi.duckdb.register(con)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fasturi.duckdb.register(duckdb.connect())
    assert column_of(con, "SELECT uri_host('http://h:8080/')") == ["h"]
    got = con.execute("SELECT uri_split('http://u@h:1/p?q#f')").fetchall()[0][0]
    assert got == dict(
        scheme="http", authority="u@h:1", userinfo="u", host="h", port="1", path="/p",
        query="q", fragment="f",
    )  # fmt: skip


def test_connect_without_the_extension(monkeypatch, tmp_path):
    # a fasturi built without a C compiler: connect() still gives every
    # function, through Arrow, and says why
    monkeypatch.setenv("FASTURI_DUCKDB_EXTENSION", str(tmp_path / "missing"))
    monkeypatch.setattr(fasturi.duckdb, "_warned", False)
    assert fasturi.duckdb.extension_path() is None
    with pytest.warns(RuntimeWarning, match="no DuckDB extension"):
        con = fasturi.duckdb.connect()
    assert column_of(con, "SELECT uri_query_params('http://h/?a=1&b')") == [
        [{"key": "a", "value": "1"}, {"key": "b", "value": None}]
    ]
    assert column_of(con, "SELECT uri_registrable_domain('https://www.bbc.co.uk/')") == [
        "bbc.co.uk"
    ]
    con.close()


@pytest.mark.parametrize("name", ONE_ARG)
def test_native_equals_arrow_path(native, through_arrow, parquet, name):
    sql = f"SELECT {name}(url) FROM read_parquet('{parquet}') ORDER BY id"
    assert column_of(native, sql) == column_of(through_arrow, sql)


@pytest.mark.parametrize("call", OPTIONED)
def test_native_options_equal_arrow_path(native, through_arrow, parquet, call):
    sql = f"SELECT {call} FROM (SELECT id, url AS u FROM read_parquet('{parquet}')) ORDER BY id"
    assert column_of(native, sql) == column_of(through_arrow, sql)


def test_native_option_errors(native, through_arrow):
    for con in (native, through_arrow):
        for call, what in [
            ("uri_query_param(u, NULL)", "name"),
            ("uri_query_param(u, u)", "name"),
            ("uri_remove_params(u, [u])", "patterns"),
            ("uri_remove_params(u, ['a', NULL])", "patterns"),
            ("uri_remove_params(u, [NULL, 'a'])", "patterns"),
            ("uri_canonicalize(u, true, true, ['a', NULL])", "drop_params"),
            ("uri_subdomain(u, u = 'b')", "private"),
        ]:
            with pytest.raises(duckdb.Error, match=what):
                con.execute(f"SELECT {call} FROM (VALUES ('a'), ('b')) t(u)").fetchall()


def test_split_equals_arrow(native, parquet, corpus):
    got = column_of(native, f"SELECT uri_split(url) FROM read_parquet('{parquet}') ORDER BY id")
    want = arrow.split(corpus, arrow.FIELDS).to_pylist()
    assert got == want


def test_components_equal_the_scalar_functions(native, parquet, corpus):
    fields = ("scheme", "host", "port", "path", "query", "fragment")
    calls = ", ".join(f"uri_{f}(url)" for f in fields)
    got = native.execute(f"SELECT {calls} FROM read_parquet('{parquet}') ORDER BY id").fetchall()
    for row, url in zip(got, corpus.to_pylist()):
        if url is None:
            assert row == (None,) * len(fields)
            continue
        u = fasturi.URI(url)
        assert row == (u.scheme, u.host, None if u.host is None else _port_text(url),
                       u.path, u.query, u.fragment), url  # fmt: skip


def _port_text(url):
    from fasturi._impl import core

    return core.split_authority(fasturi.split(url).authority)[2]


def test_scalar_functions(native, parquet, corpus):
    got = native.execute(
        "SELECT uri_normalize(url), uri_canonicalize(url), uri_fingerprint(url), uri_is_valid(url)"
        f" FROM read_parquet('{parquet}') ORDER BY id"
    ).fetchall()
    for row, url in zip(got, corpus.to_pylist()):
        if url is None:
            assert row == (None, None, None, None)
            continue
        want = (fasturi.normalize(url), fasturi.canonicalize(url), fasturi.fingerprint(url),
                fasturi.is_valid(url))  # fmt: skip
        assert row == want, url


def reference_params(url):
    query = fasturi.split(url).query
    if query is None:
        return []
    out = []
    for field in query.split("&"):
        if field:
            key, eq, value = field.partition("=")
            out.append({"key": key, "value": value if eq else None})
    return out


def test_query_params(native, through_arrow, parquet, corpus):
    # as written
    sql = f"SELECT uri_query_params(url, false) FROM read_parquet('{parquet}') ORDER BY id"
    got = column_of(native, sql)
    want = [None if u is None else reference_params(u) for u in corpus.to_pylist()]
    assert got == want
    assert column_of(through_arrow, sql) == want
    # form-decoded, by default: fasturi.query_params
    sql = f"SELECT uri_query_params(url) FROM read_parquet('{parquet}') ORDER BY id"
    decoded = [
        None if u is None else [{"key": k, "value": v} for k, v in fasturi.query_params(u)]
        for u in corpus.to_pylist()
    ]
    assert decoded != want  # (the corpus has escapes in its queries)
    assert column_of(native, sql) == decoded
    assert column_of(through_arrow, sql) == decoded
    tricky = "'http://h/?a=1&&b&c=&=d&e=f=g&%C3%A4+x=%ff%zz+#x&y=z'"
    assert column_of(native, f"SELECT uri_query_params({tricky}, false)") == [
        [
            {"key": "a", "value": "1"},
            {"key": "b", "value": None},
            {"key": "c", "value": ""},
            {"key": "", "value": "d"},
            {"key": "e", "value": "f=g"},
            {"key": "%C3%A4+x", "value": "%ff%zz+"},
        ]
    ]
    assert column_of(native, f"SELECT uri_query_params({tricky})") == [
        [
            {"key": "a", "value": "1"},
            {"key": "b", "value": None},
            {"key": "c", "value": ""},
            {"key": "", "value": "d"},
            {"key": "e", "value": "f=g"},
            {"key": "\u00e4 x", "value": "\ufffd%zz "},
        ]
    ]
    for con in (native, through_arrow):
        with pytest.raises(duckdb.Error, match="decode"):
            con.execute(
                "SELECT uri_query_params(url, id % 2 = 0) FROM (VALUES (1, 'http://h/?a'),"
                " (2, 'http://h/?b')) AS t(id, url)"
            ).fetchall()
    rows = native.execute(
        "SELECT p.key, p.value FROM (SELECT unnest(uri_query_params(url)) AS p"
        f" FROM read_parquet('{parquet}')) WHERE p.key = 'utm_source' LIMIT 3"
    ).fetchall()
    assert all(k == "utm_source" for k, _ in rows)


def test_resolve(native, through_arrow, parquet, corpus):
    base = "https://docs.example.org/guide/intro/index.html?x=1#top"
    one = f"SELECT uri_resolve('{base}', url) FROM read_parquet('{parquet}') ORDER BY id"
    assert column_of(native, one) == arrow.resolve(base, corpus).to_pylist()
    # each row its own base: the URL against itself and against its neighbour
    each = (
        "SELECT uri_resolve(url, 'g/../h?y'), uri_resolve(lag(url) OVER (ORDER BY id), url)"
        f" FROM read_parquet('{parquet}') ORDER BY id"
    )
    assert native.execute(each).fetchall() == through_arrow.execute(each).fetchall()


def test_null_in_null_out(native):
    calls = [f"{n}(u)" for n in ONE_ARG] + ["uri_resolve(u, 'g')", "uri_resolve('http://a/', u)"]
    calls += OPTIONED
    got = native.execute(f"SELECT {', '.join(calls)} FROM (VALUES (NULL::VARCHAR)) t(u)").fetchall()
    assert got == [(None,) * len(calls)]


def test_bad_input_never_crashes(native, through_arrow):
    # empty, NULL, broken and huge rows, in four DuckDB threads: the
    # Arrow path's answers
    # (path_hierarchy's answer grows with the square of the path's length:
    # of the rows' first 120 characters)
    calls = [f"{n}(u)" for n in ONE_ARG if n != "uri_path_hierarchy"]
    calls += [
        "uri_resolve(u, u)",
        "uri_resolve('http://a/b', u)",
        "uri_path_hierarchy(left(u, 120))",
    ]
    calls += OPTIONED
    sql = f"SELECT {', '.join(calls)} FROM t ORDER BY i"
    huge = "http://h/" + "a/" * 3_000_000 + "?" + "k=v&" * 500_000 + "#" + "%41" * 100_000
    results = []
    for con in (native, through_arrow):
        con.execute("SET threads = 4")
        try:
            con.execute(
                "CREATE OR REPLACE TEMP TABLE t AS SELECT i, CASE i % 8 WHEN 0 THEN NULL"
                " WHEN 1 THEN '' WHEN 2 THEN 'http://[::1' WHEN 3 THEN '%'"
                " WHEN 4 THEN 'HTTP://A:80/./../' || i WHEN 5 THEN repeat('/?#&=@:[]%', i % 50)"
                " WHEN 6 THEN 'htüp://éx.中/😀?é=è' ELSE ? END AS u"
                " FROM range(50000) r(i)",
                [huge[: 1000 + 997 * 13]],
            )
            results.append(con.execute(sql).fetchall())
        finally:
            con.execute("SET threads = 1")
            con.execute("DROP TABLE IF EXISTS t")
    assert results[0] == results[1]
    got = native.execute(
        "SELECT length(uri_normalize(u)), length(uri_path(u)),"
        " len(uri_query_params(u)), uri_is_valid(u) FROM (VALUES (?)) t(u)",
        [huge],
    ).fetchall()[0]
    assert got == (len(fasturi.normalize(huge)), len(fasturi.split(huge).path), 500_000, True)


@pytest.mark.parametrize("rows", [3, 100_000])
def test_invalid_utf8_is_refused(native, through_arrow, rows):
    # DuckDB checks the text it makes; one it scans from Arrow without a
    # check can hold a producer's bytes that are not UTF-8: a clear error,
    # the Arrow path's, never a crash (in several threads for many rows;
    # short rows are inline in the duckdb_string_t, long ones are not)
    good = [b"http://h/ok", b"http://example.com/long/enough/to/point", None]
    raw = [good[i % 3] for i in range(rows)]
    raw[1] = b"http://h/\xff\xc0" if rows == 3 else b"\xff"
    raw[-2] = b"http://example.com/\xed\xa0\x80/surrogate"
    table = pa.table({"u": pa.array(raw, pa.binary())})
    table = table.cast(pa.schema([("u", pa.string())]), safe=False)
    needs = {"uri_resolve", "uri_query_param", "uri_remove_params"}
    calls = [f"{n}(u)" for n in sorted(fasturi.duckdb.FUNCTIONS) if n not in needs]
    calls += ["uri_resolve(u, 'g')", "uri_resolve('http://a/', u)"]
    calls += ["uri_query_param(u, 'a')", "uri_remove_params(u, ['a'])"]
    for con in (native, through_arrow):
        con.register("bad", table)
        con.execute("SET threads = 4")
        try:
            for call in calls:
                with pytest.raises(duckdb.InvalidInputException, match="is not valid UTF-8"):
                    con.execute(f"SELECT count({call}) FROM bad").fetchall()
        finally:
            con.execute("SET threads = 1")
            con.unregister("bad")


def test_threads(native, parquet, through_arrow):
    sql = (
        f"SELECT sum(length(uri_host(url))), count(uri_split(url).path),"
        f" sum(len(uri_query_params(url))), sum(uri_fingerprint(url) % 1000)"
        f" FROM read_parquet('{parquet}'), range(8)"
    )
    native.execute("SET threads = 4")
    try:
        many = native.execute(sql).fetchall()
    finally:
        native.execute("SET threads = 1")
    assert many == native.execute(sql).fetchall()


def test_path_command():
    out = subprocess.run(
        [sys.executable, "-m", "fasturi.duckdb", "--path"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == fasturi.duckdb.extension_path()
    assert Path(out).name == "fasturi.duckdb_extension"
    bad = subprocess.run([sys.executable, "-m", "fasturi.duckdb"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--path" in bad.stderr
    for args in (["--path", "--platform"], ["--path", "x"], ["--path", "--platform", "é"]):
        bad = subprocess.run(
            [sys.executable, "-m", "fasturi.duckdb", *args], capture_output=True, text=True
        )
        assert bad.returncode in (1, 2) and "Traceback" not in bad.stderr, bad.stderr


@LOADS
def test_without_python(tmp_path):
    # what a user of DuckDB's own command line does: LOAD the file the
    # package ships, hand it the list the command below writes
    run = [sys.executable, "-m", "fasturi.duckdb"]
    # (the copy for this DuckDB's name of the machine: the shipped file
    # where it is the same, as in DuckDB's own builds of 1.3 and later)
    platform = duckdb.connect().execute("PRAGMA platform").fetchall()[0][0]
    path = subprocess.run(
        [*run, "--path", "--platform", platform], capture_output=True, text=True, check=True
    ).stdout
    assert path.strip() == str(_duckdb_ext.for_platform(platform))
    keys = tmp_path / "psl.txt"
    sql = subprocess.run(
        [*run, "--write-public-suffix-table", str(keys)], capture_output=True, text=True, check=True
    ).stdout
    script = f"""
import duckdb, sys
assert "fasturi" not in sys.modules
con = duckdb.connect(config={{"allow_unsigned_extensions": True}})
con.execute("LOAD '{path.strip()}'")
print(con.execute("SELECT uri_host('http://Example.COM:80/'), uri_fingerprint('http://a/')").fetchall())
try:
    con.execute("SELECT uri_registrable_domain('https://www.bbc.co.uk/')").fetchall()
except duckdb.InvalidInputException as exc:
    print("refused:", "no Public Suffix List loaded" in str(exc))
print(con.execute({sql.strip()!r}).fetchall())
print(con.execute("SELECT uri_registrable_domain('https://www.bbc.co.uk/')").fetchall())
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    version = fasturi.public_suffix_list_version() or ""
    assert out.stdout.splitlines() == [
        f"[('Example.COM', {fasturi.fingerprint('http://a/')})]",
        "refused: True",
        f"[({version!r},)]",
        "[('bbc.co.uk',)]",
    ]


def test_metadata():
    path = Path(fasturi.duckdb.extension_path())
    fields = _duckdb_ext.metadata(path)
    assert fields[0] == "4"
    assert fields[2] == "v1.2.0"  # the C API it needs: DuckDB 1.2.0 and later
    assert fields[3] == fasturi.__version__
    assert fields[4] == "C_STRUCT"
    data = path.read_bytes()
    assert data[-534:-512] == b"\x00\x93\x04\x10duckdb_signature\x80\x04"
    assert data[-256:] == bytes(256)  # unsigned


def test_copy_for_another_platform_name(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shipped = Path(fasturi.duckdb.extension_path())
    copy = _duckdb_ext.for_platform("linux_amd64_gcc4")
    assert copy != shipped and copy.is_relative_to(tmp_path)
    assert _duckdb_ext.platform_of(copy) == "linux_amd64_gcc4"
    assert copy.read_bytes()[:-512] == shipped.read_bytes()[:-512]
    assert _duckdb_ext.for_platform("linux_amd64_gcc4") == copy
    assert _duckdb_ext.for_platform(_duckdb_ext.platform_of(shipped)) == shipped


def test_public_suffix_list_is_the_packages(native):
    got = column_of(native, "SELECT fasturi_public_suffix_list_version()")
    assert got == [fasturi.public_suffix_list_version() or ""]


def unicode_hosts():
    """Hosts whose case folding is str.lower's beyond ASCII: every code point
    it maps to others (some to two), and U+03A3 in every context its
    Final_Sigma rule reads (cased, case-ignorable, neither, the host's ends)."""
    import sys

    lowered = [c for c in map(chr, range(0x80, 0x30000)) if c.lower() != c]
    hosts = [f"{c}.{d}.Com" for c, d in zip(lowered, reversed(lowered))]
    hosts += [f"x{c}y.\u03c3\u03c3.\u0395\u039b" for c in lowered[::7]]
    around = ["", "A", "a", ".", "'", "\u00ad", "\u0345", "1", "-", "\u0391", "\u02b0", "\u1d2c"]
    for before in around:
        for after in around:
            hosts.append(f"{before}\u03a3{after}.gr")
            hosts.append(f"w.{before}\u03a3{after}")
            hosts.append(f"A{before}\u03a3{after}.co.uk")
    hosts += ["\u0130stanbul.\u0130.tr", "B\u00dcCHER.DE", "\u2c65.ST", "x.\u0399\u0301\u03a3"]
    assert sys.maxunicode > 0xFFFF
    return hosts


def test_psl_of_unicode_hosts(native):
    hosts = unicode_hosts()
    urls = hosts + [f"https://u@{h}:8080/p" for h in hosts[::3]]
    table = pa.table({"i": pa.array(range(len(urls))), "u": pa.array(urls, pa.string())})
    native.register("hosts", table)
    try:
        got = native.execute(
            "SELECT uri_registrable_domain(u), uri_public_suffix(u) FROM hosts ORDER BY i"
        ).fetchall()
    finally:
        native.unregister("hosts")
    want = [(fasturi.registrable_domain(u), fasturi.public_suffix(u)) for u in urls]
    assert got == want


OTHER_PYTHONS = [
    p for p in os.environ.get("FASTURI_OTHER_DUCKDB_PYTHONS", "").split(os.pathsep) if p
]
PROBE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("ext", sys.argv[1])
ext = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ext)
import duckdb
con = duckdb.connect(config={"allow_unsigned_extensions": True})
platform = con.execute("PRAGMA platform").fetchall()[0][0]
con.execute(f"LOAD '{ext.for_platform(platform)}'")
keys = open(sys.argv[2], encoding="utf-8").read()
con.execute("SELECT fasturi_load_public_suffix_list(?, 'v')", [keys]).fetchall()
urls = json.load(open(sys.argv[3], encoding="utf-8"))
con.execute("CREATE TABLE probe_urls (i INTEGER, url VARCHAR)")
con.executemany("INSERT INTO probe_urls VALUES (?, ?)", list(enumerate(urls)))
print(json.dumps([duckdb.__version__, con.execute(sys.argv[4]).fetchall()]))
"""


@pytest.mark.skipif(not OTHER_PYTHONS, reason="FASTURI_OTHER_DUCKDB_PYTHONS names no Python")
@pytest.mark.parametrize("python", OTHER_PYTHONS)
def test_other_duckdb_versions(native, tmp_path, python):
    # The same file loads in another DuckDB (an interpreter with duckdb
    # 1.2.0 or later installed, fasturi not needed) and answers alike.
    import json

    from corpus_files import PACKAGED

    urls = lines(PACKAGED / "urls.txt") + ["", "http://[::1]:80/a?b=c&d#e"]
    calls = [f"{n}(url)" for n in ONE_ARG] + ["uri_resolve('http://a/b/c', url)"]
    sql = f"SELECT {', '.join(calls)} FROM probe_urls ORDER BY i"
    (tmp_path / "urls.json").write_text(json.dumps(urls), "utf-8")
    keys, _ = _duckdb_ext.public_suffix_table()
    (tmp_path / "psl.txt").write_text(keys, "utf-8")
    out = subprocess.run(
        [python, "-c", PROBE, _duckdb_ext.__file__, str(tmp_path / "psl.txt"),
         str(tmp_path / "urls.json"), sql],
        capture_output=True, text=True, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    version, got = json.loads(out.stdout)
    table = pa.table({"i": pa.array(range(len(urls)), pa.int32()), "url": pa.array(urls)})
    native.register("probe_urls", table)
    try:
        want = json.loads(json.dumps(native.execute(sql).fetchall()))
    finally:
        native.unregister("probe_urls")
    assert got == want, version
