"""hreflang annotations of one entry: each link, and the cluster it describes.

Sources: Google, "Tell Google about localized versions of your page" (sitemap
method: <xhtml:link rel="alternate" hreflang href> in each <url>, each listing
every version including itself; values ISO 639-1 language, optional ISO 15924
script and ISO 3166-1 alpha-2 region, or x-default; several regions may name one
URL, for example one page for es-MX, es-AR and es-CO); Google, "Separate URLs"
for mobile (rel="alternate" media="..." is another annotation); BCP 47.

The verdict on a set of links is memoised: the members of a cluster list the same
links, so a cluster of six is judged once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from .. import langtags
from ..read.record import UrlEntry
from ..urls import resolve_http, url_key
from .cluster_findings import UNCOUNTED
from .context import Context, Report
from .registry import Rule

if TYPE_CHECKING:
    from ..read.html import PageHead, Placed

X_DEFAULT = langtags.X_DEFAULT
LinkKey = tuple[tuple[str | None, str | None, str | None, str | None], ...]  # rel, hreflang, href, media
_APP_SCHEMES = ("android-app:", "ios-app:")


class Judged:
    """What a set of links says, whatever entry holds it. Read-only once made (a verdict is
    memoised and shared by every entry that lists the links). A plain slotted class: one is
    made per distinct set of links, and a frozen dataclass's __init__ (a setattr through
    object per field) cost most of a small cluster's verdict."""

    __slots__ = ("findings", "pairs", "cluster", "cluster_keys", "keys", "named", "cluster_places", "relative")

    def __init__(self, findings: tuple[tuple[int, str, str, str | None, str | None], ...],
                 pairs: tuple[tuple[str, str], ...], cluster: tuple[tuple[str, str], ...],
                 cluster_keys: tuple[int, ...], keys: frozenset[int], named: frozenset[int],
                 cluster_places: tuple[int, ...] = (), relative: bool = False) -> None:
        # (link position, code, message, suggestion, hreflang as written)
        self.findings = findings
        self.pairs = pairs  # (code the link counts as, href), usable links in written order
        self.cluster = cluster  # the same sorted, each once: what the cluster rules compare
        self.cluster_keys = cluster_keys  # url_key of each href of cluster
        self.keys = keys  # url_key of every href in pairs
        self.named = named  # url_key of every href listed under a language (not x-default only)
        self.cluster_places = cluster_places  # per pair of cluster: the link (position in the key) that gives it
        self.relative = relative  # some href is relative: the verdict depends on the URL holding the links

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Judged) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Judged{self._fields()!r}"

    def _fields(self) -> tuple[object, ...]:
        return (self.findings, self.pairs, self.cluster, self.cluster_keys, self.keys, self.named,
                self.cluster_places, self.relative)


def is_hreflang(rel: str | None, code: str | None, href: str | None, media: str | None) -> bool:
    """Whether a link is meant as an hreflang alternate, not another annotation
    (rel="amphtml", a mobile URL with media=, an app deep link)."""
    if code:
        return True
    if rel is not None and rel != "alternate":
        return False  # amphtml, canonical, ...: not hreflang
    if media is not None:
        return False  # separate mobile URLs
    return not (href or "").strip().lower().startswith(_APP_SCHEMES)


def judge_links(key: LinkKey, base: str | None = None) -> Judged:
    """H101, H102, L101-L112 on each link; H106, H107, H108, L114 on the set. ``base``: the
    URL of the entry or page that holds the links. A relative href is H102, once, and
    is then read as resolved against ``base`` (as a browser resolves it), so the cluster
    it describes is judged too: where it leads and whether that page links back."""
    judged = _judge(key, None)  # (absolute hrefs: one verdict for every member that lists them)
    return _judge(key, base) if judged.relative and base is not None else judged


# A cluster's members mostly stand near each other in a file: a few thousand recent
# lists catch them, and a worker holds no more than that (each verdict keeps its links).
@lru_cache(maxsize=1 << 12)
def _judge(key: LinkKey, base: str | None) -> Judged:
    findings: list[tuple[int, str, str, str | None, str | None]] = []
    pairs: list[tuple[str, str]] = []
    places: list[int] = []
    relative = _read_links(key, base, findings, pairs, places)
    keys = {href: url_key(href) for _, href in pairs}
    findings += _set_rules(pairs, places, key, keys)
    if findings:
        codes = {code for code, _ in pairs}
        findings = [f if not (f[1] == "L112" and f[3] in codes) else (*f[:3], None, f[4]) for f in findings]
    cluster = tuple(sorted(set(pairs)))
    first = dict(zip(reversed(pairs), reversed(places), strict=True))  # (each pair at its first place)
    return Judged(tuple(findings), tuple(pairs), cluster, tuple([keys[href] for _, href in cluster]),
                  frozenset(keys.values()), frozenset([keys[href] for code, href in pairs if code != X_DEFAULT]),
                  tuple([first[pair] for pair in cluster]), relative)


def _read_links(key: LinkKey, base: str | None, findings: list[tuple[int, str, str, str | None, str | None]],
                pairs: list[tuple[str, str]], places: list[int]) -> bool:
    """Each link's own findings into ``findings``, and the (code, URL) pairs that count
    with the place of each; whether some href is relative."""
    relative = False
    for place, (rel, code, href, media) in enumerate(key):
        if rel == "alternate" and code and href and media is None:
            counted = _clean_code(code)
            target = href.strip()
            if counted is not None and target.startswith(("https://", "http://")):
                pairs.append((counted, target))  # the usual link: a valid code, an absolute URL
                places.append(place)
                continue
        if not is_hreflang(rel, code, href, media):
            continue
        if rel != "alternate" or not code or not href:
            missing = [name for name, ok in (('rel="alternate"', rel == "alternate"), ("hreflang", code),
                                             ("href", href)) if not ok]
            findings.append((place, "H101", f"xhtml:link needs {', '.join(missing)}", None, code))
            continue
        relative_href, pair = _judge_link(place, code, href, base, findings)
        relative = relative or relative_href
        if pair is not None:  # else search engines ignore the link; its L-code says why
            pairs.append(pair)
            places.append(place)
    return relative


@lru_cache(maxsize=4096)
def _clean_code(code: str) -> str | None:
    """The code a valid hreflang value counts as, when it has nothing to say of it (None:
    it is judged link by link)."""
    verdict = langtags.judge(code)
    return None if verdict.problems else verdict.canonical


def _judge_link(place: int, code: str, href: str, base: str | None,
                findings: list[tuple[int, str, str, str | None, str | None]]) -> tuple[bool, tuple[str, str] | None]:
    """A link with its rel, hreflang and href: its code's findings and H102 (added to
    ``findings``). Whether its href is relative, and the (code, URL) pair it counts as
    (None: none, its href is unusable). A code that is an error counts as UNCOUNTED:
    search engines ignore the link, so no rule compares its code, not even a guess at
    what it meant (en_US and us-en are no two en-US); its URL is still named."""
    verdict = langtags.judge(code)
    for problem in verdict.problems:
        findings.append((place, problem.code, problem.message, problem.suggestion, code))
    target = href.strip()
    relative = False
    if not target.lower().startswith(("http://", "https://")):
        relative = True
        resolved = resolve_http(target, base)
        if resolved is None:
            findings.append((place, "H102", f"alternate href '{href}' ({code}) must be an absolute http(s) URL",
                             None, code))
            return relative, None
        target = resolved
        findings.append((place, "H102", f"alternate href '{href}' ({code}) must be an absolute http(s) URL; "
                         f"write {target} (it is judged as that here)", target, code))
    return relative, (verdict.canonical if verdict.canonical is not None else UNCOUNTED, target)


def _named(code: str) -> str:
    name = langtags.display_name(code)
    return f"{code} ({name})" if name else code


def _set_rules(pairs: list[tuple[str, str]], places: list[int], key: LinkKey,
               keys: dict[str, int]) -> list[tuple[int, str, str, str | None, str | None]]:
    """One code for one URL; one language for one URL; one x-default. A link whose code is
    an error (UNCOUNTED) is in none of them."""
    if not _codes_may_clash(tuple([code for code, _ in pairs])):
        targets = [keys[href] for code, href in pairs if code != X_DEFAULT]
        if len(set(targets)) == len(targets):
            return []  # each code once, each URL once, at most one x-default, no 'uk': nothing to say
    found: list[tuple[int, str, str, str | None, str | None]] = []
    by_code: dict[str, tuple[int, str]] = {}
    by_url: dict[int, str] = {}
    defaults = 0
    for (code, href), place in zip(pairs, places, strict=True):
        written = key[place][1]
        if code == UNCOUNTED:
            continue
        if code == X_DEFAULT:
            defaults += 1
            if defaults == 2:
                found.append((place, "H108", "more than one x-default in this cluster; keep one", None, written))
            continue
        target = keys[href]
        if code in by_code and by_code[code][0] != target:
            found.append((place, "H106", f"{_named(code)} names two URLs, {by_code[code][1]} and {href}; each code "
                          "names one version", None, written))
        by_code.setdefault(code, (target, href))
        other = by_url.get(target)
        if other is not None and not may_share(other, code):
            found.append((place, "H107", _url_twice_message(href, other, code), None, written))
        by_url.setdefault(target, code)
    found += _ukrainian_or_british(pairs, places, key)
    return found


@lru_cache(maxsize=1024)
def _codes_may_clash(codes: tuple[str, ...]) -> bool:
    """Whether the codes of a set of links (as they count) leave a set rule anything to
    say whatever their URLs: a code twice, x-default twice, or a Ukrainian code (L114).
    Memoised: a site's clusters share a few sets of codes."""
    return len(set(codes)) != len(codes) or any(langtags.language_of(code) == "uk" for code in codes)


def may_share(code: str, other: str) -> bool:
    """Whether two hreflang codes may name one URL: regions of one language (es-MX and
    es-AR), as Google documents. The build keeps both then, and leaves out a code of
    another language (H107)."""
    return langtags.language_of(code) == langtags.language_of(other)


def _url_twice_message(href: str, other: str, code: str) -> str:
    return (f"{href} is listed as both {other} and {code}; a URL has one language (several regions of one "
            "language may share it)")


def url_twice(report: Report, href: str, other: str, code: str, at: Any, **extra: Any) -> None:
    """H107, for a build's cluster (a page's urls: give one URL for two languages)."""
    report("H107", _url_twice_message(href, other, code), at, **extra)


def no_self(report: Report, url: str, at: Any, consequence: str = "") -> None:
    """H103: a URL lists alternates but not itself."""
    report("H103", f"{url} lists alternates but not itself; add an xhtml:link to its own URL with its own "
           f"hreflang{consequence}", at, url=url)


def code_twice(report: Report, url: str, code: str, one: str, other: str, at: Any, consequence: str = "") -> None:
    """H106, for a built page whose head names one code twice."""
    report("H106", f"{_named(code)} names two URLs, {one} and {other}; each code names one version{consequence}",
           at, url=url, hreflang=code)


def lang_differs(head: PageHead, url: str, report: Report) -> None:
    """L113: <html lang> names another language than the page's own hreflang code (a
    built page's, read by the check or by a build from a built site)."""
    if head.lang is None or not head.lang.text.strip():
        return
    own = _own_alternate(head, url)
    if own is None:
        return
    code, place = own
    written = head.lang.text.strip()
    page_lang, own_code = langtags.judge(written).canonical, langtags.judge(code).canonical
    if page_lang and own_code and langtags.language_of(page_lang) != langtags.language_of(own_code):
        report("L113", f'<html lang="{written}"> says another language than the page\'s own hreflang '
               f'"{code}" (line {place.line}); one of them is wrong', head.lang.line, url=url, hreflang=code)


def _own_alternate(head: PageHead, url: str) -> tuple[str, Placed] | None:
    """The first hreflang link (not x-default, not media) that names the page itself:
    its URL as written, else the same URL in another spelling."""
    candidates = [(code, href.strip(), place) for (_, code, href, media), place
                  in zip(head.alternates, head.alternate_places, strict=True)
                  if code is not None and href is not None and media is None and code.lower() != "x-default"]
    for code, href, place in candidates:
        if href == url:  # (the usual case, without a key)
            return code, place
    own = url_key(url)
    for code, href, place in candidates:
        try:
            if url_key(href if href.startswith(("https://", "http://")) else urljoin(url, href)) == own:
                return code, place
        except ValueError:
            continue
    return None


def _ukrainian_or_british(pairs: list[tuple[str, str]], places: list[int],
                          key: LinkKey) -> list[tuple[int, str, str, str | None, str | None]]:
    """L114 (a hint): 'uk' is Ukrainian, and the United Kingdom's code is GB. In a cluster
    whose other versions are all English (a site by country: en-US, en-AU, uk), or for a
    URL on a .uk host, 'uk' is often meant as en-GB. A cluster with other languages
    beside it (a site translated into Ukrainian, say) gets no hint."""
    others = {langtags.language_of(code) for code, _ in pairs} - {"uk", X_DEFAULT, UNCOUNTED}
    english = others == {"en"}
    for (code, href), place in zip(pairs, places, strict=True):
        if langtags.language_of(code) != "uk":
            continue
        host = href.split("//", 1)[-1].split("/", 1)[0].split(":", 1)[0].lower().rstrip(".")
        if english or host.endswith(".uk"):
            why = "beside only English versions" if english else f"for a URL on {host}"
            return [(place, "L114", f"'{key[place][1]}' is Ukrainian; {why} it is often meant as the United Kingdom, "
                     "which is en-GB (GB, not UK): keep it if the page is in Ukrainian", None, key[place][1])]
    return []


def links(entry: UrlEntry, ctx: Context) -> None:
    """H101-H103, H106-H108, L101-L112: the links of one entry, and its self-reference.
    The x-default page may list itself as x-default only: that is its self-reference; a
    page canonicalised elsewhere needs none."""
    if not entry.links:
        return
    judged = ctx.judged or judge_links(entry.links, ctx.loc)
    columns = entry.link_columns  # (known where the reader knows them: a Link header's)
    for place, code, message, suggestion, written in judged.findings:
        ctx.report(code, message, entry.link_lines[place], url=ctx.loc, hreflang=written, suggestion=suggestion,
                   column=columns[place] if columns else None)
    if judged.pairs and ctx.loc is not None and ctx.loc_key not in judged.keys and not canonical_elsewhere(ctx):
        no_self(ctx.report, ctx.loc, entry.line)


def canonical_elsewhere(ctx: Context) -> bool:
    """Whether the entry is a page whose head names another URL as its canonical (a built
    or fetched page: a sitemap entry has no canonical). Google reads hreflang from
    canonical pages only; such a page carries its canonical's set (a CMS's home alias,
    an untranslated term shown in another language), which is no missing self-reference."""
    page = ctx.facts.page
    return page is not None and page[3] is not None


RULES: tuple[Rule, ...] = (
    Rule("hreflang-links", "entry", ("H101", "H102", "H103", "H106", "H107", "H108", "L101", "L102", "L103", "L104",
                                     "L105", "L106", "L107", "L108", "L109", "L110", "L111", "L112", "L114"),
         links, reads="links"),
)
