"""robots.txt read as Googlebot reads it (RFC 9309: groups by user agent, the longest
match, Allow over Disallow on a tie), through Protego; the standard library's
``urllib.robotparser`` takes the first match and knows no wildcards."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

CRAWLER = "Googlebot"


@lru_cache(maxsize=64)
def parse_robots(text: str) -> Any:
    """A robots.txt's rules (a Protego object: ``can_fetch(url, CRAWLER)``), memoised:
    a host's robots.txt is asked about every URL of its sitemaps."""
    from protego import Protego  # (the live extra: imported where robots.txt is read)
    return Protego.parse(text)
