"""Sitemap XML namespaces: each extension owns its URI, prefix, parsing and writing.

Registered explicitly (no discovery by import): the writer declares a namespace
in a file only when an entry of that file uses it.
"""

from __future__ import annotations

from typing import Any, Protocol

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


class XmlSink(Protocol):
    """The part of ``lxml.etree.xmlfile`` the reference renderer uses."""

    def element(self, tag: str, attrib: dict[str, str] | None = None, **kw: Any) -> Any: ...

    def write(self, *args: Any) -> None: ...


class Extension(Protocol):
    name: str
    uri: str
    prefix: str

    def render_fast(self, value: Any) -> str:
        """The extension's elements for one <url>, as XML text (escaped via xmlesc)."""

    def render_lxml(self, xf: XmlSink, value: Any) -> None:
        """The same elements through lxml's incremental writer (the reference path)."""


EXTENSIONS: dict[str, Extension] = {}

# Prefixes of every namespace the writer may declare, in the order declared.
PREFIXES: dict[str, str] = {}


def register(ext: Extension) -> None:
    EXTENSIONS[ext.name] = ext
    PREFIXES[ext.prefix] = ext.uri
