"""One adapter per (peer, operation) for the benchmark suite.

An adapter names its group (the operation), its peer and variant, the corpus
input it runs over, and how to load the per-item function.  The third-party
peers, their calls and their notes come from ``fasturi._peers``, the table
``fasturi bench`` uses too.  fasturi runs as
two peers: ``fasturi-compiled`` (``fasturi._core_c``, ``_rules_c``, ``_uri_c``,
``_pipeline_c`` and the compiled ``fasturi.parse``) and ``fasturi-python``
(``_core_py``, ``_rules_py``, ``_uri_py``, ``_pipeline_py``).  Third-party peers that are not installed are
left out with a printed note; a fasturi part that is not built (extension not
compiled, name not defined yet, or still raising ``NotImplementedError``) is
reported as "not built yet" by the run.

Where a peer does more or less work than the fasturi function it is timed
against, the adapter's ``note`` says so; the note is stored in the JSON.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import urllib.parse
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import repeat, starmap
from typing import Any

from corpus import Corpus

from fasturi._peers import DISTRIBUTIONS, PEERS

# The stdlib functions, captured before anything could call
# fasturi.parse.install() and swap them inside urllib.parse.
STDLIB: dict[str, Callable[..., Any]] = {
    name: getattr(urllib.parse, name)
    for name in (
        "urlsplit",
        "urlparse",
        "urljoin",
        "urldefrag",
        "urlunsplit",
        "urlunparse",
        "quote",
        "quote_plus",
        "unquote",
        "unquote_plus",
        "parse_qsl",
        "urlencode",
    )
}
_STDLIB_CLEAR = urllib.parse.clear_cache
#: the stdlib's case name in the parse.* groups (report.py's STDLIB)
STDLIB_CASE = "urllib.parse"
#: the call floor's case name (report.py's FLOOR): not a peer
FLOOR = "floor"

FASTURI_PEERS = ("fasturi-compiled", "fasturi-python")
SUFFIX = {"fasturi-compiled": "_c", "fasturi-python": "_py"}

#: Printed by the run: peers left out, and why.
NOTES: list[str] = []


def note(text: str) -> None:
    if text not in NOTES:
        NOTES.append(text)


class NotBuilt(Exception):
    """A fasturi part this run cannot time yet (the message says which)."""


@dataclass(frozen=True)
class Adapter:
    group: str
    peer: str
    load: Callable[[], Callable[..., Any]] = field(compare=False)
    inputs: str = "urls"
    variant: str = ""
    #: the items are argument tuples (``resolve(base, ref)``)
    star: bool = False
    #: keep caches warm between rounds (otherwise every cache is cleared)
    warm: bool = False
    #: the function takes the whole input list (the ``*_many`` batch API)
    batch: bool = False
    #: builds the input list from the corpus when it depends on the peer
    prepare: Callable[[Corpus], list[Any]] | None = field(default=None, compare=False)
    #: how many items an input list holds, when one entry is not one item
    count: Callable[[list[Any]], int] | None = field(default=None, compare=False)
    #: a batch case's loops (by variant): each is also timed in pairs with it
    baselines: dict[str, Callable[[], Callable[[list[Any]], Any]]] = field(
        default_factory=dict, compare=False
    )
    note: str = ""

    @property
    def name(self) -> str:
        return f"{self.peer}+{self.variant}" if self.variant else self.peer

    def items(self, corpus: Corpus) -> list[Any]:
        if self.prepare is not None:
            return self.prepare(corpus)
        return corpus.inputs(self.inputs)

    def size(self, items: list[Any]) -> int:
        return self.count(items) if self.count is not None else len(items)

    def __str__(self) -> str:
        return self.name


def _consume(iterable: Iterable[Any]) -> None:
    deque(iterable, maxlen=0)


def runner(
    fn: Callable[..., Any], star: bool, batch: bool = False, collect: bool = False
) -> Callable[[list[Any]], Any]:
    """The timed body of one round: ``fn`` over every item, at C loop speed.

    Results are dropped as they come unless ``collect``: a list that keeps
    every result alive costs more (the cyclic GC walks the growing heap of
    tuples), which is what a batch call must pay and what its loop
    counterpart is timed with.
    """
    if batch:
        return fn
    if collect:
        return lambda items: list(map(fn, items))
    if star:
        return lambda items: _consume(starmap(fn, items))
    return lambda items: _consume(map(fn, items))


def precheck(
    fn: Callable[..., Any], items: list[Any], star: bool, batch: bool = False
) -> tuple[list[Any], dict[str, int]]:
    """Runs ``fn`` once over ``items`` (untimed; also the warm-up round).

    Returns the items ``fn`` accepts and the count of rejections by exception
    type: peers that reject an input are timed on the rest, and the JSON
    records how many they rejected.  A batch function takes the whole list
    and must accept all of it.
    """
    if batch:
        try:
            fn(items)
        except NotImplementedError as exc:
            raise NotBuilt("raises NotImplementedError") from exc
        return items, {}
    accepted = []
    rejected: dict[str, int] = {}
    for item in items:
        try:
            fn(*item) if star else fn(item)
        except NotImplementedError as exc:
            raise NotBuilt("raises NotImplementedError") from exc
        except Exception as exc:  # noqa: BLE001 - a peer's rejection of this input
            kind = type(exc).__name__
            rejected[kind] = rejected.get(kind, 0) + 1
        else:
            accepted.append(item)
    return accepted, rejected


# --- caches ---------------------------------------------------------------


def clear_caches() -> None:
    """Empties every URL cache a peer keeps, so a round starts cold."""
    _STDLIB_CLEAR()  # urlsplit's lru_cache (3.11+) or _parse_cache, and quoters
    fast_parse = sys.modules.get("fasturi.parse")
    if fast_parse is not None:
        for name in ("urlsplit", "urlparse"):
            clear = getattr(getattr(fast_parse, name, None), "cache_clear", None)
            if clear is not None:
                clear()
    # yarl memoizes split_url, encode_url, split_netloc, host encoding, ...;
    # w3lib its urlsplit and IDNA steps; fasturi's surt its IDNA step
    for modname in ("yarl._url", "yarl._parse", "w3lib._url", "fasturi._surt"):
        mod = sys.modules.get(modname)
        for value in vars(mod).values() if mod else ():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and hasattr(value, "cache_info"):
                clear()


# --- loading --------------------------------------------------------------


def _optional(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _fasturi_twin(stem: str, peer: str) -> Any:
    name = f"fasturi._{stem}{SUFFIX[peer]}"
    try:
        return importlib.import_module(name)
    except Exception as exc:
        raise NotBuilt(f"{name} does not import ({type(exc).__name__}: {exc})") from exc


def _twin_attr(stem: str, attr: str, peer: str) -> Callable[..., Any]:
    mod = _fasturi_twin(stem, peer)
    try:
        return getattr(mod, attr)  # type: ignore[no-any-return]
    except AttributeError as exc:
        raise NotBuilt(f"{mod.__name__}.{attr} does not exist") from exc


def _twin(stem: str, attr: str, peer: str) -> Callable[[], Callable[..., Any]]:
    return lambda: _twin_attr(stem, attr, peer)


def _pipeline_attr(attr: str, peer: str) -> Callable[..., Any]:
    """A name of the pipeline twin (``canonicalize``, ``*_many``).

    Taken from ``fasturi._pipeline_c`` / ``_pipeline_py`` when that twin
    exists; a tree without it is served by the ``_core`` twin or, failing
    that, the facade (bound to one implementation per process).
    """
    try:
        twins = [
            importlib.util.find_spec(f"fasturi._pipeline{suffix}") for suffix in SUFFIX.values()
        ]
    except Exception as exc:
        raise NotBuilt(f"fasturi does not import ({type(exc).__name__}: {exc})") from exc
    if any(twins):
        return _twin_attr("pipeline", attr, peer)
    core = _fasturi_twin("core", peer)
    if hasattr(core, attr):
        return getattr(core, attr)  # type: ignore[no-any-return]
    fasturi = importlib.import_module("fasturi")
    if not hasattr(fasturi, attr):
        raise NotBuilt(f"fasturi.{attr} does not exist yet")
    if "fasturi-" + fasturi.IMPLEMENTATION != peer:
        flag = "1" if peer == "fasturi-python" else "0"
        raise NotBuilt(
            f"fasturi.{attr} runs on the {fasturi.IMPLEMENTATION} core in this process; "
            f"run with FASTURI_NO_EXTENSIONS={flag} for {peer}"
        )
    return getattr(fasturi, attr)  # type: ignore[no-any-return]


def _pipeline(attr: str, peer: str) -> Callable[[], Callable[..., Any]]:
    return lambda: _pipeline_attr(attr, peer)


def _fast_parse(name: str) -> Callable[..., Any]:
    """``fasturi.parse.<name>`` when it runs on the compiled ``_parse_c``."""
    try:
        importlib.import_module("fasturi._parse_c")
        fast_parse = importlib.import_module("fasturi.parse")
    except Exception as exc:
        raise NotBuilt(
            f"compiled fasturi.parse does not import ({type(exc).__name__}: {exc})"
        ) from exc
    fn = getattr(fast_parse, name, None)
    if fn is None:
        raise NotBuilt(f"fasturi.parse.{name} does not exist")
    if fn is STDLIB[name]:
        raise NotBuilt(f"fasturi.parse.{name} is the stdlib's own (compiled parse not active)")
    return fn  # type: ignore[no-any-return]


# --- the groups -----------------------------------------------------------


def _uri_components(URI: Callable[[str], Any]) -> Callable[[str], None]:
    def parse_and_read(s: str) -> None:
        u = URI(s)
        # bare reads: each attribute is computed, nothing else is built
        u.scheme, u.authority, u.path, u.query, u.fragment  # noqa: B018

    return parse_and_read


def _python_loop(fn: Callable[..., Any]) -> Callable[[list[Any]], list[Any]]:
    """What a user writes without the batch API: a list comprehension."""
    return lambda items: [fn(item) for item in items]


Loader = Callable[[], Callable[[list[Any]], Any]]


def _batch_cases(
    group: str, peer: str, loops: dict[str, Loader], many: Loader, **inputs: Any
) -> list[Adapter]:
    """A batch function, one call per round (``+many``), and the loops over
    the single function it replaces, each a case of its own and also timed
    back to back with it (``baselines``)."""
    cases = [
        Adapter(group, peer, load, variant=variant, batch=True, **inputs)
        for variant, load in loops.items()
    ]
    cases.append(Adapter(group, peer, many, variant="many", batch=True, baselines=loops, **inputs))
    return cases


def _many(group: str, peer: str, load: Callable[[], Callable[..., Any]]) -> list[Adapter]:
    """The batch API (``split_many`` ...) against the Python loop it replaces
    (``+loop``) and the fastest loop there is, ``list(map(single, items))``
    (``+list``)."""
    loops: dict[str, Loader] = {
        "loop": lambda: _python_loop(load()),
        "list": lambda: runner(load(), star=False, collect=True),
    }
    return _batch_cases(group, peer, loops, _pipeline(group + "_many", peer))


def _table(group: str, **inputs: Any) -> list[Adapter]:
    """The group's peers from fasturi's peer table (shared with ``fasturi
    bench``); a peer that does not import is left out with a note."""
    out = []
    for call in PEERS:
        if call.operation != group:
            continue
        try:
            call.load()
        except ImportError as exc:
            note(f"{call.peer}: not installed ({exc}); left out")
            continue
        out.append(
            Adapter(group, call.peer, call.load, variant=call.variant, note=call.note, **inputs)
        )
    return out


def _with_many(
    group: str, load: Callable[[str], Callable[[], Callable[..., Any]]]
) -> list[Adapter]:
    """The group's function of each fasturi twin (``load(peer)``), its batch
    form (``_many``) and the group's peers from the table."""
    out = []
    for peer in FASTURI_PEERS:
        out.append(Adapter(group, peer, load(peer)))
        out += _many(group, peer, load(peer))
    return out + _table(group)


def split_adapters() -> list[Adapter]:
    return _with_many("split", lambda peer: _twin("core", "split", peer))


def uri_adapters() -> list[Adapter]:
    out = []
    for peer in FASTURI_PEERS:
        out.append(Adapter("uri", peer, _twin("uri", "URI", peer)))
        out.append(
            Adapter(
                "uri",
                peer,
                lambda peer=peer: _uri_components(_twin_attr("uri", "URI", peer)),
                variant="components",
            )
        )
    return out + _table("uri")


def _pages(corpus: Corpus) -> list[tuple[str, list[str]]]:
    """refs.tsv as (base, [references]): the links of one page, in order."""
    pages: dict[str, list[str]] = {}
    for base, ref in corpus.refs:
        pages.setdefault(base, []).append(ref)
    return list(pages.items())


def _count_refs(pages: list[tuple[str, list[str]]]) -> int:
    return sum(len(refs) for _, refs in pages)


def _resolve_many(peer: str) -> list[Adapter]:
    """``resolve_many(base, refs)`` once per page, and the loop it must be at
    least as fast as: ``list(map(resolve, repeat(base), refs))`` per page."""

    def per_page(resolve: Callable[..., Any]) -> Callable[[list[Any]], Any]:
        return lambda pages: [list(map(resolve, repeat(b, len(r)), r)) for b, r in pages]

    def python_loop(resolve: Callable[..., Any]) -> Callable[[list[Any]], Any]:
        return lambda pages: [[resolve(b, ref) for ref in r] for b, r in pages]

    def batched(resolve_many: Callable[..., Any]) -> Callable[[list[Any]], Any]:
        return lambda pages: [resolve_many(b, r) for b, r in pages]

    single, many = _twin("core", "resolve", peer), _pipeline("resolve_many", peer)
    loops: dict[str, Loader] = {
        "loop": lambda: python_loop(single()),
        "list": lambda: per_page(single()),
    }
    return _batch_cases(
        "resolve", peer, loops, lambda: batched(many()), prepare=_pages, count=_count_refs
    )


def resolve_adapters() -> list[Adapter]:
    out = []
    for peer in FASTURI_PEERS:
        out.append(Adapter("resolve", peer, _twin("core", "resolve", peer), "refs", star=True))
        out += _resolve_many(peer)
    return out + _table("resolve", inputs="refs", star=True)


def normalize_adapters() -> list[Adapter]:
    return _with_many("normalize", lambda peer: _twin("core", "normalize", peer))


def is_valid_adapters() -> list[Adapter]:
    out = [Adapter("is_valid", peer, _twin("rules", "is_valid", peer)) for peer in FASTURI_PEERS]
    return out + _table("is_valid")


def canonicalize_adapters() -> list[Adapter]:
    return _with_many("canonicalize", lambda peer: _pipeline("canonicalize", peer))


# --- crawler and archive tools (docs/reference.md §4) --------------------------------


def _crawler_peer(module: str, peer: str) -> Any:
    # The crawler tools' peers are not in fasturi's peer table (`fasturi
    # bench` does not time these operations): imported here, or noted.
    mod = _optional(module)
    if mod is None:
        note(f"{peer}: not installed ({module} does not import); left out")
    return mod


def registrable_domain_adapters() -> list[Adapter]:
    out = []
    for peer in FASTURI_PEERS:
        load = _twin("psl", "registrable_domain", peer)
        out.append(Adapter("registrable_domain", peer, load, inputs="web"))
        out.append(Adapter("registrable_domain", peer, load, inputs="hosts", variant="host"))
    tldextract = _crawler_peer("tldextract", "tldextract")
    if tldextract is not None:

        def tldextract_domain() -> Callable[[str], Any]:
            # the list it bundles: no network (suffix_list_urls=()), ICANN
            # section only, as registrable_domain's default
            extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
            return lambda url: extract(url).top_domain_under_public_suffix

        out.append(
            Adapter(
                "registrable_domain",
                "tldextract",
                tldextract_domain,
                inputs="web",
                note="extract(url): splits the URL itself, then a trie of the list; "
                "its own copy of the list",
            )
        )
    psl = _crawler_peer("publicsuffixlist", "publicsuffixlist")
    if psl is not None:

        def psl_domain() -> Callable[[str], Any]:
            return psl.PublicSuffixList(only_icann=True).privatesuffix  # type: ignore[no-any-return]

        out.append(
            Adapter(
                "registrable_domain",
                "publicsuffixlist",
                psl_domain,
                inputs="hosts",
                variant="host",
                note="privatesuffix(host): takes the host only (extracted beforehand, not "
                "timed); the same list file fasturi reads",
            )
        )
    return out


def surt_adapters() -> list[Adapter]:
    out = [
        Adapter("surt", peer, _twin("surt", "surt", peer), inputs="web") for peer in FASTURI_PEERS
    ]
    surt = _crawler_peer("surt", "surt")
    if surt is not None:
        out.append(Adapter("surt", "surt", lambda: surt.surt, inputs="web"))
    return out


def canonicalize_w3lib_adapters() -> list[Adapter]:
    def preset(peer: str) -> Callable[[], Callable[..., Any]]:
        def load() -> Callable[..., Any]:
            # the call as written, canonicalize(u, preset="w3lib"): a
            # functools.partial holding a keyword copies it into a new dict
            # on every call, which costs a third of the call itself
            canonicalize = _pipeline_attr("canonicalize", peer)
            return lambda u: canonicalize(u, preset="w3lib")

        return load

    out = [Adapter("canonicalize.w3lib", peer, preset(peer)) for peer in FASTURI_PEERS]
    w3lib = _crawler_peer("w3lib.url", "w3lib")
    if w3lib is not None:
        out.append(
            Adapter(
                "canonicalize.w3lib",
                "w3lib",
                lambda: w3lib.canonicalize_url,
                note="the key fasturi reproduces (its lru_caches cleared before each round)",
            )
        )
    return out


# --- the urllib.parse drop-in --------------------------------------------

#: (group, function, input, argument tuples?, warm caches?)
PARSE_CASES = [
    ("parse.urlsplit", "urlsplit", "urls", False, False),
    ("parse.urlsplit-stream", "urlsplit", "stream", False, True),
    ("parse.urlparse", "urlparse", "urls", False, False),
    ("parse.urljoin", "urljoin", "refs", True, False),
    ("parse.urldefrag", "urldefrag", "urls", False, False),
    ("parse.urlunsplit", "urlunsplit", "split_results", False, False),
    ("parse.urlunparse", "urlunparse", "parse_results", False, False),
    ("parse.quote", "quote", "raw_paths", False, False),
    ("parse.quote_plus", "quote_plus", "raw_queries", False, False),
    ("parse.unquote", "unquote", "paths", False, False),
    ("parse.unquote_plus", "unquote_plus", "queries", False, False),
    ("parse.parse_qsl", "parse_qsl", "queries", False, False),
    ("parse.urlencode", "urlencode", "query_pairs", False, False),
]

note(
    "fasturi-python: its fasturi.parse is the stdlib's own code (docs/ARCHITECTURE.md), "
    "so the urllib.parse rows of the parse.* groups are its numbers"
)


def _hostname_port(result: Any) -> None:
    result.hostname, result.port  # noqa: B018


def _split_results(urlsplit: Callable[[str], Any]) -> Callable[[Corpus], list[Any]]:
    def prepare(corpus: Corpus) -> list[Any]:
        out = []
        for url in corpus.urls:
            try:
                out.append(urlsplit(url))
            except ValueError:
                continue
        return out

    return prepare


def parse_adapters() -> list[Adapter]:
    out = []
    for group, name, inputs, star, warm in PARSE_CASES:
        # Timed back to back with the stdlib too: the drop-in's targets are
        # ratios of ~10x between cases a minute apart otherwise, and this
        # machine's drift over a minute is larger than the margins.  (Not for
        # the warm-cache case: a pair clears the caches before each side.)
        stdlib = (
            {} if warm else {STDLIB_CASE: lambda name=name, star=star: runner(STDLIB[name], star)}
        )
        out.append(
            Adapter(
                group,
                "fasturi-compiled",
                lambda name=name: _fast_parse(name),
                inputs,
                "",
                star,
                warm,
                baselines=stdlib,
            )
        )
        out.append(
            Adapter(group, STDLIB_CASE, lambda name=name: STDLIB[name], inputs, "", star, warm)
        )
    # What any quote(text) pays before doing anything, in the same loop: a
    # builtin that reads each str's header and returns a cached object.  Its
    # ratio to the stdlib is the most any quote could show here.
    out.append(
        Adapter(
            "parse.quote",
            FLOOR,
            lambda: len,
            "raw_paths",
            baselines={STDLIB_CASE: lambda: runner(STDLIB["quote"], False)},
            note="len(text): the call floor, no quoting at all (the ceiling of any quote's ratio)",
        )
    )
    quoting = _optional("yarl._quoting_c")
    if quoting is None:
        note("yarl: yarl._quoting_c does not import; its quoter is left out")
    else:
        out.append(
            Adapter(
                "parse.quote_plus",
                "yarl",
                lambda: quoting._Quoter(qs=True, requote=False),
                "raw_queries",
                note="yarl's compiled _Quoter(qs=True, requote=False)",
            )
        )
        out.append(
            Adapter(
                "parse.unquote_plus",
                "yarl",
                lambda: quoting._Unquoter(qs=True),
                "queries",
                note="yarl's compiled _Unquoter(qs=True)",
            )
        )

    # .hostname/.port: each library's own urlsplit results; the stdlib's raise
    # ValueError for a non-numeric port, counted as rejections.
    def fast_results(corpus: Corpus) -> list[Any]:
        return _split_results(_fast_parse("urlsplit"))(corpus)

    def load_fast_hostname_port() -> Callable[[Any], None]:
        _fast_parse("urlsplit")
        return _hostname_port

    out.append(
        Adapter(
            "parse.hostname_port",
            "fasturi-compiled",
            load_fast_hostname_port,
            prepare=fast_results,
        )
    )
    out.append(
        Adapter(
            "parse.hostname_port",
            "urllib.parse",
            lambda: _hostname_port,
            prepare=_split_results(STDLIB["urlsplit"]),
        )
    )
    return out


# --- WHATWG URLs (fasturi.whatwg) ---------------------------------------------


def _whatwg_getters(parse: Callable[..., Any]) -> Callable[..., None]:
    def parse_and_read(*args: Any) -> None:
        u = parse(*args)
        # the getters a caller reads: each is computed, nothing else is built
        u.href, u.host, u.pathname, u.search, u.hash  # noqa: B018

    return parse_and_read


def whatwg_adapters() -> list[Adapter]:
    """``fasturi.whatwg.parse`` (compiled twin and reference) against ada's
    two bindings, bare and with getters read."""
    out = []
    for peer in ("fasturi-compiled", "fasturi-python"):
        out.append(Adapter("whatwg", peer, _twin("whatwg", "parse", peer)))
        out.append(
            Adapter(
                "whatwg",
                peer,
                lambda peer=peer: _whatwg_getters(_twin_attr("whatwg", "parse", peer)),
                variant="getters",
            )
        )
    for module, attr in (("ada_url", "URL"), ("can_ada", "parse")):
        if _optional(module) is None:
            note(f"{module}: not installed; left out of whatwg")
            continue
        load = lambda module=module, attr=attr: getattr(_optional(module), attr)  # noqa: E731
        out.append(Adapter("whatwg", module, load))
        out.append(
            Adapter("whatwg", module, lambda load=load: _whatwg_getters(load()), variant="getters")
        )
    return out


def whatwg_resolve_adapters() -> list[Adapter]:
    """``fasturi.whatwg.resolve(base, ref)`` over refs.tsv against
    ``ada_url.join_url(base, ref)`` (the same standard, the same result)."""
    out = [
        Adapter(
            "whatwg.resolve",
            peer,
            _twin("whatwg", "resolve", peer),
            "refs",
            star=True,
        )
        for peer in ("fasturi-compiled", "fasturi-python")
    ]
    if _optional("ada_url") is None:
        note("ada_url: not installed; left out of whatwg.resolve")
    else:
        out.append(
            Adapter(
                "whatwg.resolve",
                "ada_url",
                lambda: _optional("ada_url").join_url,
                "refs",
                star=True,
            )
        )
    return out


GROUPS: dict[str, Callable[[], list[Adapter]]] = {
    "split": split_adapters,
    "uri": uri_adapters,
    "resolve": resolve_adapters,
    "normalize": normalize_adapters,
    "is_valid": is_valid_adapters,
    "canonicalize": canonicalize_adapters,
    "canonicalize.w3lib": canonicalize_w3lib_adapters,
    "registrable_domain": registrable_domain_adapters,
    "surt": surt_adapters,
    "parse": parse_adapters,
    "whatwg": whatwg_adapters,
    "whatwg.resolve": whatwg_resolve_adapters,
}


def adapters(kind: str) -> list[Adapter]:
    return GROUPS[kind]()


def peer_versions() -> dict[str, str]:
    """Installed versions of the peers, for the JSON's machine_info."""
    from importlib import metadata

    out = {"python": sys.version.split()[0]}
    # the crawler tools' peers are timed here only, not by `fasturi bench`
    for dist in ("fasturi", *DISTRIBUTIONS.values(), "publicsuffixlist", "tldextract", "surt"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out
