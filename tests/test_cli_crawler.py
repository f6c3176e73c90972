"""The crawler subcommands (docs/reference.md §4, docs/cli.md): fasturi domain, surt, fingerprint,
driven as a user would, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys

import fasturi

INPUT = (
    "https://a.b.blogspot.com/x\n"
    "http://127.0.0.1/\n"
    "http://www.Archive.org/goo/?b&a#f\n"
    "http://a.com:x/\n"
).encode()
URLS = INPUT.decode().splitlines()


def run(args, data=INPUT):
    proc = subprocess.run(
        [sys.executable, "-m", "fasturi", *args],
        input=data,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=300,
    )
    return proc.returncode, proc.stdout.decode("utf-8").splitlines(), proc.stderr.decode()


def test_domain():
    status, out, _ = run(["domain"])
    assert status == 0
    assert out == ["blogspot.com", "\\N", "archive.org", "a.com"]


def test_domain_private_and_suffix_json():
    status, out, _ = run(["domain", "--private"])
    assert out[0] == "b.blogspot.com"
    status, out, _ = run(["domain", "--suffix", "--private", "--json"])
    assert status == 0
    assert [json.loads(row) for row in out] == [
        {"uri": u, "suffix": fasturi.public_suffix(u, private=True)} for u in URLS
    ]
    assert json.loads(out[1])["suffix"] is None


def test_surt_keeps_the_place_of_a_bad_port():
    status, out, err = run(["surt"])
    assert status == 1
    assert out == [*(fasturi.surt(u) for u in URLS[:3]), "\\E"]
    assert "<stdin>:4: ValueError" in err and "error record written" in err
    status, out, err = run(["surt", "--on-error", "skip"])
    assert status == 1
    assert out == [fasturi.surt(u) for u in URLS[:3]]
    assert "<stdin>:4: ValueError" in err and "line skipped" in err


def test_fingerprint():
    status, out, _ = run(["fingerprint"])
    assert status == 0
    assert out == [str(fasturi.fingerprint(u)) for u in URLS]


def test_fingerprint_options():
    status, out, _ = run(["fingerprint", "--keep-fragment", "--drop-param", "b", "--json"])
    assert status == 0
    want = [fasturi.fingerprint(u, drop_fragment=False, drop_params=["b"]) for u in URLS]
    assert [json.loads(row)["fingerprint"] for row in out] == want
    status, out, err = run(["fingerprint", "--preset", "w3lib"])
    assert status == 1  # w3lib rejects the port "x": reported, an error record
    assert out == [*(str(fasturi.fingerprint(u, preset="w3lib")) for u in URLS[:3]), "\\E"]


def test_fingerprint_preset_conflict():
    status, out, err = run(["fingerprint", "--preset", "w3lib", "--keep-query-order"])
    assert status == 2
    assert "always sorts the query" in err
