"""The findings of the rules across files, each said here once: the check's cluster
rules and the build's normaliser of a built site (which leaves the pair out, and says
so in ``consequence``).

Sources: Google, "Tell Google about localized versions of your page" (return
links; x-default; "If two pages don't both point to each other, the tags will
be ignored"); Google, "Build and submit a sitemap" (a URL listed once).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet

from .. import langtags
from ..diagnostics import Related

Report = Callable[..., object]
# What a link whose code is an error (en_US, us-en, jp) counts as: no code. Search engines
# ignore it, so it conflicts with nothing and gives no code to compare (the L code says
# what is wrong, and nothing is derived from a guess at what it meant); its URL is still
# named, so the page it names keeps its self-reference and its return link.
UNCOUNTED = ""


def named_code(code: str) -> str:
    name = langtags.display_name(code)
    return f"{code} ({name})" if name else code


LISTED_TWICE = "U104"
NO_X_DEFAULT = "H112"


def listed_twice(report: Report, loc: str, at: object, same: str = "", consequence: str = "",
                 related: tuple[Related, ...] = ()) -> None:
    """U104: a URL listed more than once."""
    report(LISTED_TWICE, f"{loc} is listed more than once{same}; list each URL once in each kind of sitemap"
           f"{consequence}", at, url=loc, related=related)


def no_return(report: Report, loc: str, href: str, code: str, at: object, detail: str = "",
              related: tuple[Related, ...] = (), fix: str = "") -> None:
    """H104: a pair without its return link (``fix``: the link to add, where)."""
    report("H104", f"{loc} lists {href} as {named_code(code)}, but {href} does not list {loc} back{detail}; search "
           f"engines ignore a pair without its return link{fix}", at, url=loc, hreflang=code, related=related)


def return_fix(loc: str, own: AbstractSet[str], href: str, kind: str, place: str) -> str:
    """What H104 says to add, and where: the return link naming ``loc`` as the language
    it lists itself as (``own``), in the entry, head or Link header (``kind``: xml,
    html, header) of ``href``, at ``place`` (file:line, empty when not known)."""
    languages = sorted(own - {langtags.X_DEFAULT, UNCOUNTED})
    code = languages[0] if languages else "LANG"
    at = f" ({place})" if place else ""
    if kind == "html":
        link = f'<link rel="alternate" hreflang="{code}" href="{loc}"> to the head of {href}{at}'
    elif kind == "header":
        link = f'<{loc}>; rel="alternate"; hreflang="{code}" to the Link header of {href}{at}'
    else:
        link = f'<xhtml:link rel="alternate" hreflang="{code}" href="{loc}"/> to the entry of {href}{at}'
    unknown = f" (LANG: the language of {loc}, which lists none for itself)" if not languages else ""
    return f": add {link}{unknown}"


def return_missing(back: AbstractSet[str] | None, own: AbstractSet[str]) -> str | None:
    """The return-link rule of a pair, for the check's clusters and a build's built site
    alike: None when the other end lists this URL back (``back``: the codes it lists it
    as, None when it does not list it; ``own``: the codes this URL lists itself as),
    else what H104 adds to its message (a return link only as x-default is none)."""
    if back is None:
        return ""
    languages = own - {langtags.X_DEFAULT, UNCOUNTED}
    if back == {langtags.X_DEFAULT} and languages:
        return (f", only as x-default (a return link names the page as the language version it is: "
                f"{', '.join(sorted(languages))})")
    return None


def sets_differ(report: Report, loc: str, other: str, at: object, detail: str = "", consequence: str = "",
                related: tuple[Related, ...] = ()) -> None:
    """H110: members of one cluster that list different alternates."""
    report("H110", f"{loc} and {other} are in one cluster but list different alternates{detail}; Google keeps the "
           f"pairs that link both ways, and every member should list every version{consequence}", at, url=loc,
           related=related)


def to_excluded(report: Report, loc: str, target: str, code: str, why: str, at: object, consequence: str = "",
                related: tuple[Related, ...] = ()) -> None:
    """H114: an alternate names a page that is noindex or canonicalised elsewhere."""
    report("H114", f"{loc} names {target} as {code}, but that page {why}: search engines ignore an alternate that "
           f"is not indexable and canonical; name the canonical URL{consequence}", at, url=loc, hreflang=code,
           related=related)


def to_missing(report: Report, loc: str, target: str, code: str, why: str, fix: str, at: object,
               consequence: str = "") -> None:
    """H115: an alternate names a URL that does not answer 200 (no built file serves it)."""
    report("H115", f"{loc} names {target} as {code}, but {why}: an alternate that does not answer 200 is ignored; "
           f"{fix}{consequence}", at, url=loc, hreflang=code)


NOT_BUILT = "no file of the built site serves it"
