"""fingerprint (docs/reference.md §4): XXH64 (seed 0) of canonicalize(s, ...)'s UTF-8
bytes.  XXH64 is checked against the published sanity vectors of xxHash's
reference implementation (cli/xsum_sanity_check.c), both twins."""

from __future__ import annotations

import importlib

import pytest

import fasturi

PRIME32 = 2654435761
PRIME64 = 11400714785074694797


def _sanity_buffer(size: int) -> bytes:
    # xxHash's test buffer: the top byte of a multiplicative sequence
    out = bytearray()
    gen = PRIME32
    for _ in range(size):
        out.append(gen >> 56)
        gen = gen * PRIME64 % (1 << 64)
    return bytes(out)


# (length, seed, XXH64) from xxHash's sanity check
VECTORS = [
    (0, 0, 0xEF46DB3751D8E999),
    (0, PRIME32, 0xAC75FDA2929B17EF),
    (1, 0, 0xE934A84ADB052768),
    (1, PRIME32, 0x5014607643A9B4C3),
    (4, 0, 0x9136A0DCA57457EE),
    (14, 0, 0x8282DCC4994E35C8),
    (14, PRIME32, 0xC3BD6BF63DEB6DF0),
    (222, 0, 0xB641AE8CB691C174),
    (222, PRIME32, 0x20CB8AB7AE10C14A),
]


@pytest.mark.parametrize(("length", "seed", "want"), VECTORS)
def test_xxh64_published_vectors(pipeline, length, seed, want):
    assert pipeline.xxh64(_sanity_buffer(222)[:length], seed) == want


def test_xxh64_every_length(pipeline):
    # every tail path (8-, 4-, 1-byte lanes) and up to 3 stripes: distinct
    # values, and the published ones where there are some
    data = _sanity_buffer(100)
    values = [pipeline.xxh64(data[:n]) for n in range(101)]
    assert len(set(values)) == 101
    assert values[0] == 0xEF46DB3751D8E999 and values[14] == 0x8282DCC4994E35C8


URLS = [
    "http://example.com/",
    "HTTP://Example.COM:80/a/./b?z=1&a=2#f",
    "http://例え.テスト/パス?q=é",
]


@pytest.mark.parametrize("url", URLS)
def test_is_xxh64_of_the_key(pipeline, url):
    key = pipeline.canonicalize(url)
    assert pipeline.fingerprint(url) == pipeline.xxh64(key.encode("utf-8"))
    w3 = pipeline.canonicalize(url, preset="w3lib", drop_fragment=False)
    assert pipeline.fingerprint(url, preset="w3lib", drop_fragment=False) == (
        pipeline.xxh64(w3.encode("utf-8"))
    )


def test_options_reach_the_key(pipeline):
    url = "http://a.com/?utm_source=x&b=1#f"
    assert pipeline.fingerprint(url) != pipeline.fingerprint(url, drop_params=["utm_*"])
    assert pipeline.fingerprint(url, drop_params=["utm_*"]) == pipeline.fingerprint(
        "http://a.com/?b=1"
    )
    assert pipeline.fingerprint(url, drop_fragment=False) != pipeline.fingerprint(url)


def test_equivalent_uris_share_a_fingerprint(pipeline):
    assert pipeline.fingerprint("HTTP://a.com:80/%7Ex?b&a") == pipeline.fingerprint(
        "http://a.com/~x?a&b"
    )


def test_lone_surrogate(pipeline):
    # written as UTF-8 with surrogatepass, as the rest of the library does
    key = pipeline.canonicalize("http://a/\ud800")
    want = pipeline.xxh64(key.encode("utf-8", "surrogatepass"))
    assert pipeline.fingerprint("http://a/\ud800") == want


def test_unsigned_64_bit(pipeline):
    values = [pipeline.fingerprint(f"http://a.com/{i}") for i in range(200)]
    assert all(0 <= v < 1 << 64 for v in values)
    assert any(v >= 1 << 63 for v in values)  # the top bit is used, not a sign


def test_known_value():
    # fixed forever: XXH64 of b"http://example.com/", the key of both
    assert fasturi.fingerprint("http://EXAMPLE.com") == 0xFDB57B2D0813B5B1
    assert fasturi.fingerprint("http://example.com/") == 0xFDB57B2D0813B5B1


def test_type_error(pipeline):
    with pytest.raises(TypeError, match=r"^fingerprint\(\) argument 's' must be str, not int$"):
        pipeline.fingerprint(5)


@pytest.mark.parity
def test_twins_agree_on_every_length():
    compiled = importlib.import_module("fasturi._pipeline_c")
    python = importlib.import_module("fasturi._pipeline_py")
    data = _sanity_buffer(300)
    for n in range(len(data) + 1):
        for seed in (0, 1, PRIME32, (1 << 64) - 1):
            assert compiled.xxh64(data[:n], seed) == python.xxh64(data[:n], seed)
