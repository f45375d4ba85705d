"""lxml's element as the type checker should see it; typing only, nothing at run time.

lxml-stubs 0.5 leaves ``_Element.sourceline`` untyped (``sourceline = ...``, so mypy
reads it as the ellipsis), which would take a cast at every line number read from an
element, in the readers' hottest loops. ``Element`` is lxml's own class at run time;
for mypy it is that class with ``sourceline`` typed as lxml gives it (``int | None``)
and the navigation methods the readers use returning ``Element``. A reader casts
what lxml hands it once (a batch of parse events, a root), then reads lines with no
cast. On the ground floor so that ``read/`` and ``ext/`` can both use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    class Element(etree._Element):
        sourceline: int | None  # type: ignore[assignment]  # the stubs' `...` (see above)

        def __iter__(self) -> Iterator[Element]: ...  # type: ignore[override]  # (the stubs' ElementChildIterator)
        def __getitem__(self, item: int) -> Element: ...
        def getparent(self) -> Element | None: ...
        def getprevious(self) -> Element | None: ...
        def iter(self, tag: str | None = ..., *tags: str) -> Iterator[Element]: ...  # type: ignore[override]  # (tag names only)
else:
    Element = etree._Element

