"""What a rule is given besides the record: the file it is in, and how to report."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..dates import DateCache
from ..read.record import FileFacts
from ..urls import origin_text

if TYPE_CHECKING:
    from .hreflang import Judged

Report = Callable[..., Any]  # report(code, message, line, *, column=, url=, hreflang=, suggestion=, related=, once=)


@dataclass
class Context:
    """One file's context for the rules, and the facts they keep across its entries."""

    facts: FileFacts
    report: Report
    now: float | None = None
    dates: DateCache = field(default_factory=DateCache)
    # Facts reported once per run (an image host, say): (kind, value).
    noted: set[tuple[str, str]] = field(default_factory=set)
    # Origins (scheme://host) whose URLs any sitemap may list: cross-submission shown.
    cross_submitted: frozenset[str] = frozenset()
    robots: Mapping[str, str] = field(default_factory=dict)  # origin -> its robots.txt (a live check)
    origin: str | None = None  # the sitemap's own origin: from its URL, else its first loc
    folder: str | None = None  # the folder it may list URLs under (None: anywhere on its host)
    loc: str | None = None  # the entry being judged: its URL as written, stripped
    loc_key: int = 0  # and its urls.url_key
    judged: Judged | None = None  # and the verdict on its alternates (hreflang.judge_links), when it has some
    # The file's last entry's links as the engine judged them: (the tuple, (its verdict, the
    # URL it was for)); the next batch's first entry often holds the same.
    last_links: tuple[Any, tuple[Judged, str | None] | None] = (None, None)
    # Whether the file is published where crawlers read it (U117); None: unless its own
    # URL is on a host no crawler reaches. A build says it of its description instead.
    published: bool | None = None

    def __post_init__(self) -> None:
        url = self.facts.url
        if url is not None:
            self.origin = origin_text(url).lower()
            if not self.facts.submitted:
                # (its host in lower case, as locs are compared: the path keeps its case)
                self.folder = self.origin + url[len(origin_text(url)): url.rindex("/") + 1]
