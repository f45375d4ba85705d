"""Serving the written sitemaps from Django itself, as WhiteNoise serves static
files: a middleware that answers a GET or HEAD for a file that
``sitemap_ext_build`` wrote to ``SITEMAP_EXT["out_dir"]`` at the URL the sitemaps
give it (``SITEMAP_EXT["base_url"]`` plus the file's name), and hands every other
request on::

    MIDDLEWARE = ["sitemap_ext.integrations.django.middleware.SitemapFilesMiddleware", ...]
    SITEMAP_EXT = {"base_url": "https://www.example.com/", "out_dir": str(BASE_DIR / "sitemaps")}

A file the folder does not hold is left to the URLconf (Django's own sitemap view,
a robots.txt view), so the middleware may come first. Only a file directly in the
folder is served: a name of letters, digits, ``.``, ``_`` and ``-`` not starting
with a dot (never the manifest), with a suffix the build writes; a symbolic link or
anything but a regular file is not served. The content type is the one the file
needs (``application/xml`` for a sitemap, ``application/gzip`` for ``.xml.gz``,
which is served as is, not decoded); ``Last-Modified`` is the file's and a
conditional request is answered 304.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.http import FileResponse, HttpResponseNotModified
from django.utils.http import http_date
from django.views.static import was_modified_since

from ...safeio import Refused, open_regular
from .sitemaps import settings_value

# what a build writes, by suffix: the content type it is served with
CONTENT_TYPES = {".xml": "application/xml; charset=utf-8", ".xml.gz": "application/gzip",
                 ".txt": "text/plain; charset=utf-8", ".xsl": "text/xsl; charset=utf-8",
                 ".html": "text/html; charset=utf-8"}
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


def content_type(name: str) -> str | None:
    """The content type of a file the build writes, None for any other name."""
    if not _NAME.fullmatch(name):
        return None
    return next((kind for suffix, kind in CONTENT_TYPES.items() if name.endswith(suffix)), None)


class SitemapFilesMiddleware:
    """Answers requests for the files written to ``SITEMAP_EXT["out_dir"]``."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        folder, base_url = settings_value("out_dir"), settings_value("base_url")
        if not isinstance(folder, str) or not folder or not isinstance(base_url, str) or not base_url:
            raise ImproperlyConfigured("SitemapFilesMiddleware serves SITEMAP_EXT['out_dir'] at "
                                       "SITEMAP_EXT['base_url']: set both")
        self.folder = folder
        self.prefix = urlsplit(base_url if base_url.endswith("/") else base_url + "/").path

    def __call__(self, request: Any) -> Any:
        if request.method in ("GET", "HEAD") and request.path.startswith(self.prefix):
            response = self.serve(request, request.path[len(self.prefix):])
            if response is not None:
                return response
        return self.get_response(request)

    def serve(self, request: Any, name: str) -> Any:
        """The response for the file ``name`` of the folder, None where it holds none."""
        kind = content_type(name)
        if kind is None:
            return None
        try:
            handle = open_regular(os.path.join(self.folder, name), follow=False)
        except (OSError, Refused):  # (no such file, a link, a folder, unreadable: not ours to serve)
            return None
        status = os.fstat(handle.fileno())
        if not was_modified_since(request.META.get("HTTP_IF_MODIFIED_SINCE"), int(status.st_mtime)):
            handle.close()
            return HttpResponseNotModified()
        response = FileResponse(handle, content_type=kind)
        response["Last-Modified"] = http_date(status.st_mtime)
        return response
