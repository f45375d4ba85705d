"""Sitemap XML namespaces: each extension owns its URI, prefix, parsing and writing.

Registered explicitly here (no discovery by import), in the order their elements
are written inside a <url>. The writer declares a namespace in a file only when
an entry of that file uses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@dataclass(frozen=True)
class Extension:
    name: str  # the key in Page.extensions, and in a page's YAML (images, videos, news)
    uri: str
    prefix: str
    render: Callable[[Any], str]  # one page's value -> its elements' XML text, escaped by xmlesc.escape


def _registry() -> dict[str, Extension]:
    from . import image, news, video

    return {m.NAME: Extension(m.NAME, m.URI, m.PREFIX, m.render) for m in (image, video, news)}


EXTENSIONS: dict[str, Extension] = _registry()
