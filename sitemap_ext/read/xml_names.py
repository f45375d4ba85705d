"""Namespaces of the XML reader: the known ones, their usual misspellings, and the
names expat hands over ("uri local", or "local" outside any namespace).

Namespaces are matched to the letter, but a misspelt one (``https://``, a trailing
slash) or the legacy ``sitemap/0.84`` is reported once (X105, with the fix) and then
read as the namespace it meant, so one mistake gives one finding.
"""

from __future__ import annotations

from ..ext import SITEMAP_NS, image, news, video, xhtml
from .sniff import Report

ATOM_NS = "http://www.w3.org/2005/Atom"
LEGACY_SITEMAP_NS = ("http://www.google.com/schemas/sitemap/0.84", "http://www.google.com/schemas/sitemap/0.9",
                     "http://www.sitemaps.org/schemas/sitemap/0.84")
KNOWN = {SITEMAP_NS: "sitemap", xhtml.URI: xhtml.PREFIX, image.URI: image.PREFIX, video.URI: video.PREFIX,
         news.URI: news.PREFIX}


def loose_namespace(uri: str) -> str:
    """A namespace URI with the usual misspellings folded away."""
    text = uri.strip().lower()
    for scheme in ("https://", "http://"):
        if text.startswith(scheme):
            text = text[len(scheme):]
    return text.rstrip("/")


_LOOSE = {loose_namespace(uri): uri for uri in KNOWN}
_LOOSE.update({loose_namespace(uri): SITEMAP_NS for uri in LEGACY_SITEMAP_NS})


def meant_namespace(uri: str) -> str | None:
    """The known namespace a misspelt or legacy URI stands for; None when it is right or unrelated."""
    if uri in KNOWN or uri == ATOM_NS:
        return None
    return _LOOSE.get(loose_namespace(uri))


def local_of(name: str) -> str:
    """The local part of a name as expat gives it ("uri loc" -> "loc", "loc" -> "loc")."""
    return name.rpartition(" ")[2]


def clark(name: str) -> str:
    """A name as expat gives it in Clark notation, as lxml spells it ("uri loc" -> "{uri}loc")."""
    uri, _, local = name.rpartition(" ")
    return f"{{{uri}}}{local}" if uri else local


class Namespaces:
    """Each namespace URI met in one file, mapped to the one it means (X105 once each)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.meant: dict[str, str] = {}

    def resolve(self, uri: str, line: int) -> str:
        found = self.meant.get(uri)
        if found is not None:
            return found
        right = meant_namespace(uri)
        if right is None:
            self.meant[uri] = uri
            return uri
        self.meant[uri] = right
        legacy = uri in LEGACY_SITEMAP_NS
        why = "is a legacy namespace search engines no longer document" if legacy else \
            "must match to the letter, or search engines ignore the elements"
        self.report("X105", f"namespace '{uri}' is not '{right}'; namespace URIs {why}. The file is read as if it "
                    "said the right one", line, suggestion=right)
        return right

    def split(self, name: str, line: int) -> tuple[str, str]:
        """An expat name as (the namespace it means, its local part); "" outside any namespace."""
        uri, _, local = name.rpartition(" ")
        if not uri:
            return "", local
        return self.meant.get(uri) or self.resolve(uri, line), local
