"""The documentation runs: the README's examples and every recipe in docs/
that needs no engine (tests/doc_blocks.py says which blocks run and how;
tests/engines/test_docs_engines.py runs the engine recipes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_blocks import (
    ROOT,
    command_lines,
    doctest_documents,
    make_fixtures,
    run_command,
    run_doctests,
    run_script,
    runs,
)


@pytest.fixture()
def folder(tmp_path):
    return make_fixtures(tmp_path)


def test_the_readme_is_run():
    # the README's examples are doctests and need no engine
    assert ROOT / "README.md" in doctest_documents(engine=False)


@pytest.mark.parametrize("run", runs(engine=False))
def test_runs(run, folder, monkeypatch):
    if isinstance(run, Path):
        monkeypatch.chdir(folder)
        run_doctests(run, engine=False)
    else:
        run_script(run, folder)


@pytest.mark.parametrize(
    "command", [pytest.param(c, id=f"{b.path.name}:{n}") for b, n, c in command_lines()]
)
def test_command_line(command, folder):
    done = run_command(command, folder)
    # 1 is a run that met a line it reports (an invalid URI for validate)
    assert done.returncode in (0, 1), f"{command}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout, f"{command} wrote nothing"
