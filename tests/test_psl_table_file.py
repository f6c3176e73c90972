"""``python -m fasturi.duckdb --write-public-suffix-table NEW_FILE`` (no
DuckDB needed): it creates its file and never replaces one, least of all
the Public Suffix List fasturi reads; the option's old name, which read like
an input, is refused with the new one."""

from __future__ import annotations

import subprocess
import sys

import fasturi
from fasturi import _duckdb_ext, _psl

RUN = [sys.executable, "-m", "fasturi.duckdb"]


def _run(*args: str):
    proc = subprocess.run([*RUN, *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_writes_a_new_file_and_prints_its_statement(tmp_path):
    path = tmp_path / "psl.txt"
    status, out, err = _run("--write-public-suffix-table", str(path))
    assert (status, err) == (0, "")
    keys, version = _duckdb_ext.public_suffix_table()
    assert path.read_text("utf-8") == keys
    assert out == (
        f"SELECT fasturi_load_public_suffix_list(content, '{version}') FROM read_text('{path}');\n"
    )


def test_an_existing_file_is_not_replaced(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("my own data\n")
    status, out, err = _run("--write-public-suffix-table", str(path))
    assert (status, out) == (1, "")
    assert err == (
        f"fasturi: {path}: the file exists, and is not replaced (give a new file's name);"
        " nothing written\n"
    )
    assert path.read_text() == "my own data\n"


def test_the_list_in_use_is_refused(tmp_path):
    listed = _psl.default_path()
    with open(listed, "rb") as f:
        before = f.read()
    # by its path, and through a link to it
    link = tmp_path / "link.dat"
    link.symlink_to(listed)
    for path in (listed, str(link)):
        status, out, err = _run("--write-public-suffix-table", path)
        assert (status, out) == (1, "")
        assert "this is the Public Suffix List fasturi reads" in err
    with open(listed, "rb") as f:
        assert f.read() == before
    assert fasturi.registrable_domain("www.bbc.co.uk") == "bbc.co.uk"


def test_the_old_option_is_refused(tmp_path):
    path = tmp_path / "psl.txt"
    status, out, err = _run("--public-suffix-list", str(path))
    assert status == 2 and "--write-public-suffix-table NEW_FILE" in err
    assert not path.exists()
