"""fasturi.extract against re.findall on text generated from the corpus.

Two regexes stand in for what people use: a minimal one (http/https only,
no trimming: it does less work than extract) and a typical one (a few
schemes or www., trailing punctuation excluded).  A round is one whole text;
extra_info records its size and URL count.
"""

from __future__ import annotations

import os
import random
import re
import time

import pytest

import fasturi._extract_c as extract_c
import fasturi._extract_py as extract_py

MINIMAL = re.compile(r"https?://[^\s<>\"']+")
TYPICAL = re.compile(
    r"(?:(?:https?|ftp|file|mailto):(?://)?|www\.)"
    r"[-A-Za-z0-9+&@#/%?=~_|!:,.;()]*[-A-Za-z0-9+&@#/%=~_|)]"
)


def _texts(urls: list[str]) -> dict[str, str]:
    rnd = random.Random(3986)
    sample = urls[:5000]
    log = "\n".join(
        f"10.0.0.{rnd.randint(1, 254)} - - [22/Nov/2026:10:00:{rnd.randint(10, 59)} +0000] "
        f'"GET /p?x=1 HTTP/1.1" 200 {rnd.randint(100, 9999)} "{u}" "Mozilla/5.0 (X11; Linux)"'
        for u in sample
    )
    html = "".join(
        f'<p>See <a href="{u}">this page</a>, or read more at {u}.</p>\n' for u in sample
    )
    return {"log": log, "html": html}


ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "5"))

FINDERS = {
    "fasturi-compiled": extract_c.extract,
    "fasturi-python": extract_py.extract,
    "re-minimal": MINIMAL.findall,
    "re-typical": TYPICAL.findall,
}


@pytest.mark.parametrize("kind", ["log", "html"])
@pytest.mark.parametrize("finder", sorted(FINDERS))
def bench_extract(benchmark, corpus, kind, finder):
    text = _texts(corpus.urls)[kind]
    fn = FINDERS[finder]
    benchmark.group = f"extract-{kind}"
    benchmark.extra_info.update(
        group=f"extract-{kind}",
        peer=finder,
        case=finder,
        items=len(text.splitlines()),  # one URL per line: ns per URL
        chars=len(text),
        found=len(fn(text)),
        note="re-minimal finds http(s) only and trims nothing: less work than extract",
    )
    # A round of one pass is ~1 ms for fasturi: too short to time on a busy
    # machine, so a round repeats the pass to last at least ~50 ms.
    started = time.perf_counter()
    fn(text)
    once = time.perf_counter() - started
    iterations = max(1, min(200, int(0.05 / max(once, 1e-6))))
    benchmark.extra_info["iterations"] = iterations
    benchmark.pedantic(fn, args=(text,), rounds=ROUNDS, iterations=iterations, warmup_rounds=1)
