"""A failing and a passing example of each code, kept as data beside the registry
(``examples.yaml``): ``sitemap-ext rules CODE`` prints them, and the tests run every
one through the real check (each failing example gives exactly its code, each passing
example no finding).

An example is the text of one file (``name``), with the files beside it (``files``)
and, where the finding depends on where the files are served, the URL of their folder
(``served_at``, as ``--base-url URL=FOLDER`` gives it); ``also``: the codes the same
defect gives besides (a missing page is also unverifiable). A sitemap example written as
entries (``<url>`` or ``<sitemap>`` elements) is read inside a ``<urlset>`` or
``<sitemapindex>`` that declares the namespaces (``document``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources

import yaml

NOW = "2026-11-21T12:00:00Z"  # the instant the examples' dates are judged at
_NAMESPACES = ('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"\n'
               '        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n'
               '        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"\n'
               '        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"')
_ROOTS = {"<url>": "urlset", "<sitemap>": "sitemapindex"}
# Codes whose examples are site descriptions (the builder's codes, and D106 and N110).
_DESCRIBED = ("C", "S", "O")


@dataclass(frozen=True)
class Example:
    code: str
    failing: str
    passing: str
    name: str
    files: dict[str, str] = field(default_factory=dict)
    served_at: str | None = None
    also: tuple[str, ...] = ()  # codes the failing example gives besides its own (one defect, two verdicts)

    @property
    def wrapped_in(self) -> str | None:
        """The root an example written as entries is read inside (None: a whole file)."""
        return next((root for start, root in _ROOTS.items() if self.failing.lstrip().startswith(start)), None)

    def inputs(self) -> list[str]:
        """The files a check is given: the example and the built pages beside it (an
        index's children, an include or a source are read through the example)."""
        return [self.name, *(name for name in self.files if name.endswith(".html"))]

    def document(self, text: str) -> str:
        """The file an example's text stands for."""
        root = self.wrapped_in
        if root is None:
            return text
        inner = "".join(f"  {line}\n" for line in text.splitlines())
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} {_NAMESPACES}>\n{inner}</{root}>\n'


@functools.cache
def examples() -> dict[str, Example]:
    """Every example, by code (read once from the package's examples.yaml)."""
    text = resources.files(__package__).joinpath("examples.yaml").read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    out: dict[str, Example] = {}
    for code, entry in raw.items():
        default = "site.yaml" if code.startswith(_DESCRIBED) else "sitemap.xml"
        out[code] = Example(code=code, failing=entry["failing"], passing=entry["passing"],
                            name=entry.get("name", default), files=dict(entry.get("files") or {}),
                            served_at=entry.get("served_at"), also=tuple(entry.get("also") or ()))
    return out


def example(code: str) -> Example | None:
    return examples().get(code)
