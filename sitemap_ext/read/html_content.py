"""The digest of a built page's main content, for ``lastmod: content``.

What counts is what a reader of the page sees change: the element the site
description names (``content:`` of a built-site source: ``main`` by default, or
``TAG``, ``.CLASS``, ``#ID``, ``TAG.CLASS``, ``TAG#ID``), else the ``<body>``. The
head never counts (a theme's build time, a generator's version, a random nonce),
nor do the contents of ``script``, ``style`` and ``template`` elements, ``nonce``
attributes, comments, or how whitespace is laid out. Element names, the other
attributes (links, image sources) and the text do. The page is read as the other
readers read it (bounded: ``limit`` bytes), parsed by lxml's HTML parser.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, cast

from lxml import etree

from ..lxml_types import Element
from .html import within

_SKIP = frozenset({"script", "style", "template"})
_IGNORED_ATTRIBUTES = frozenset({"nonce"})
_MAX_DEPTH = 512  # (libxml2 stops nesting well before this)
DEFAULT_CONTENT = ("main", None, None)


def parse_selector(text: str) -> tuple[str, str | None, str | None] | None:
    """``TAG``, ``.CLASS``, ``#ID``, ``TAG.CLASS`` or ``TAG#ID`` as (tag or "", kind, name);
    None when it is none of these."""
    text = text.strip()
    for mark, kind in ((".", "class"), ("#", "id")):
        tag, found, name = text.partition(mark)
        if found:
            if name and _plain(name) and (not tag or tag.isalnum()):
                return tag.lower(), kind, name
            return None
    return (text.lower(), None, None) if text.isalnum() else None


def _plain(name: str) -> bool:
    return all(c.isalnum() or c in "-_" for c in name)


def content_digest(chunks: Iterator[bytes], selector: tuple[str, str | None, str | None], limit: int
                   ) -> bytes | None:
    """16 bytes that change when the page's main content does; None when the page
    holds no HTML at all."""
    parser = etree.HTMLParser(recover=True, no_network=True, remove_comments=True, remove_pis=True,
                              huge_tree=False, encoding="utf-8")
    for chunk in within(chunks, limit):
        parser.feed(chunk)
    try:
        root = cast("Element | None", parser.close())
    except etree.Error:
        return None
    if root is None:
        return None
    element = _pick(root, selector)
    digest = hashlib.blake2b(digest_size=16)
    _feed(digest, element, 0)
    return digest.digest()


def _pick(root: Element, selector: tuple[str, str | None, str | None]) -> Element:
    tag, kind, name = selector
    for element in root.iter(tag or "*"):
        if kind is None or (kind == "class" and name in (element.get("class") or "").split()) or \
                (kind == "id" and element.get("id") == name):
            return element
    body = cast("Element | None", root.find("body"))
    return body if body is not None else root


def _text(value: str | None) -> bytes:
    return " ".join(value.split()).encode("utf-8", "surrogatepass") if value else b""


def _feed(digest: Any, element: Element, depth: int) -> None:
    tag = element.tag if isinstance(element.tag, str) else ""
    digest.update(b"<" + tag.encode("utf-8", "surrogatepass"))
    for name, value in sorted(element.attrib.items()):
        if name not in _IGNORED_ATTRIBUTES:
            digest.update(b"\0" + str(name).encode("utf-8", "surrogatepass") + b"=" + _text(str(value)))
    digest.update(b">")
    if tag not in _SKIP and depth < _MAX_DEPTH:
        digest.update(_text(element.text))
        for child in element:
            _feed(digest, child, depth + 1)
            digest.update(_text(child.tail))
    digest.update(b"</>")
