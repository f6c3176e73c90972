"""Write the seed corpora: RFC examples plus a sample of a URL list.

    python fuzz/seed.py [--out DIR] [URLS_TXT]

DIR defaults to fuzz/corpus (one subdirectory per target); URLS_TXT, one URL
a line, defaults to ../shared/corpus/urls.txt next to the checkout and is
skipped when absent.  Seeds are encoded so that fuzz/targets.py's Reader
decodes them back to the same text (ASCII maps through its alphabet when it
can); each seed is two texts, and for ``validate`` a leading byte that
cycles through its rules.
"""

import hashlib
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from targets import RULES, TARGETS, Reader  # noqa: E402

EXAMPLES = [
    "http://a/b/c/d;p?q",
    "../../../g",
    "g;x=1/../y",
    "//g",
    "?y#s",
    "",
    ".",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "http://[fe80::1%25eth0]:8080/a",
    "HTTP://a.COM:80/%7euser",
    "http://u:p@h/%2e%2e/x",
    "http://0x7f.1/",
    "http://www.bank.com@evil.com/",
    "<URL:http://a/b>",
    "http://[::ffff:192.0.2.1]/",
    "http://[v7.a:b]/",
    "[::1]x:80",
    "//@:",
    "?#",
    "%",
    "%%41%4g%2e%2E/b%7E",
    "HTTP://ExAmPlE.com:0080",
    "a:b:c/./../d",
    "http://a/b?c=1&utm_x=3&d=&b#f",
    "file:///etc/passwd",
    "http://\u00f1x.com/\u00f1?\u00f1",
    "see <URL:http://a/b\n c> and (http://w.org/x_(y)).",
    "www.w3.org/x ftp.a.b",
    "http://u:p@[fe80::a%25en0]:0/..%2F",
    "a=1;b=2&c",
    "javascript:alert(1)",
    "https://www.Example.co.uk:443/A/./b//c.aspx?b=2&a=1&sid=0123456789abcdef0123456789abcdef",
    "http://(abcdefghijklmnopqrstuvwx)/x/(S(abcdefghijklmnopqrstuvwx))/p.aspx?cfid=1&cftoken=2",
    "http://b\u00fccher.example.\u0440\u0444/%E4%B8%AD?q=%25%32%35&Z",
    "http://WWW7.a.b.ck/?aspsessionidABCDEFGH=abcdefghijklmnopqrstuvwx",
]


def encode(text: str) -> bytes:
    """Bytes that Reader decodes back to text (exactly where it can: every
    code point below U+00C0, and each one Reader's other classes make)."""
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if 0x20 <= c < 0xC0:
            out.append(c)
        elif ch in Reader.ALPHABET:
            out.append(Reader.ALPHABET.index(ch))
        elif 0xC0 <= c < 0xC0 + 32 * 7 and (c - 0xC0) % 7 == 0:
            out.append(0xC0 + (c - 0xC0) // 7)
        elif any(0 <= c - base < 256 for base in Reader.BLOCKS):
            i = next(i for i, base in enumerate(Reader.BLOCKS) if 0 <= c - base < 256)
            out += bytes([0xE0 + i, c - Reader.BLOCKS[i]])
        else:  # the multiple of 17 at or below it: exact for some, wide anyway
            n = min(c // 17, 0xFFFF)
            out += bytes([0xF0, n >> 8, n & 0xFF])
    return bytes(out) + b"\xff"


# Pieces that are valid for the small rules (hosts, addresses, segments).
PIECES = [
    "::",
    "::1",
    "1:2:3:4:5:6:7:8",
    "1::8",
    "::ffff:192.0.2.1",
    "fe80::1%25eth0",
    "[fe80::1%25eth0]",
    "[v1.x:y]",
    "[::]",
    "v7.a",
    "255.255.255.255",
    "0.0.0.0",
    "0",
    "%41",
    "%e2%82%ac",
    "a",
    "-",
    "a+b-c.d",
    "user:pa%3Ass",
    "h:8080",
    "u@h:1",
    "\u00f1",
    "\ue000",
    "\U00010000",
    "www.example.com",
    "/a/b",
    "a/b",
    "a:b",
    "//a",
    "?q=1&r",
    "#f",
    "eth0",
    "dd.dd",
    "xn--n3h.example",
]


def validate_seeds(seeds: list[str]) -> list[bytes]:
    """For each rule, a few texts it accepts and one it rejects, so that the
    fuzzer starts next to each rule's edge rather than at position 0."""
    import fasturi._core_py as core
    import fasturi._rules_py as rules

    pool = list(PIECES)
    for text in seeds:
        parts = core.split(text)
        pool += [text] + [p for p in parts if p]
        if parts.authority:
            pool += [p for p in core.split_authority(parts.authority) if p]
    pool = list(dict.fromkeys(pool))
    out = []
    for i, (rule, rfc) in enumerate(RULES):
        valid = [p for p in pool if rules.is_valid(p, rule, rfc=rfc)][:6]
        invalid = [p for p in pool if not rules.is_valid(p, rule, rfc=rfc)][i % 7 : i % 7 + 1]
        for text in valid + invalid:
            out.append(bytes([i]) + encode(text) + encode(""))
    return out


def main() -> None:
    args = sys.argv[1:]
    out = HERE / "corpus"
    if args[:1] == ["--out"]:
        out, args = Path(args[1]), args[2:]
    src = Path(args[0]) if args else HERE.parent.parent / "shared/corpus/urls.txt"
    seeds = list(EXAMPLES)
    if src.exists():
        lines = src.read_text(encoding="utf-8").splitlines()
        seeds += random.Random(3986).sample(lines, min(200, len(lines)))
    for name in TARGETS:
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        inputs = [encode(a) + encode(b) for a, b in zip(seeds, seeds[1:] + seeds[:1])]
        if name == "validate":  # its first byte picks the rule
            inputs = [bytes([i % len(RULES)]) + x for i, x in enumerate(inputs)]
            inputs += validate_seeds(seeds)
        for data in inputs:
            (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"wrote {len(seeds)} seeds for {len(TARGETS)} targets under {out}")


if __name__ == "__main__":
    main()
