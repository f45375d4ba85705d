"""The one escaping function of the string fast path (the lxml path escapes itself)."""

from __future__ import annotations

import re

# Characters XML 1.0 cannot carry at all, escaped or not.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape(text: str) -> str:
    """Entity-escape a text or attribute value: & < > " ' (the protocol asks for all five)."""
    # Substring tests are memchr scans: cheaper than a regex search on short strings.
    if "&" not in text and "<" not in text and ">" not in text and '"' not in text and "'" not in text:
        return text
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def xml_safe(text: str) -> bool:
    """False for text holding characters XML 1.0 cannot represent (control characters)."""
    return _NOT_XML.search(text) is None
