"""``sitemap-ext diff OLD NEW``: what a deploy changes in a site's sitemaps.

Each side (a folder, a file or a URL) is read by the check (``side.py``); the two are
compared by URL identity (``compare.py``) and by hreflang cluster (``clusters.py``).
The formats are in ``report/diff_formats.py`` and ``report/html.py``; the API is
``api.diff``.
"""

from __future__ import annotations

from .clusters import ClusterChange, ClusterChanges, Member
from .compare import NEW_ERRORS, REMOVED, DiffResult, UrlChange, diff_inputs
from .side import Reading, Side, refused

__all__ = ["NEW_ERRORS", "REMOVED", "ClusterChange", "ClusterChanges", "DiffResult", "Member", "Reading", "Side",
           "UrlChange", "diff_inputs", "refused"]
