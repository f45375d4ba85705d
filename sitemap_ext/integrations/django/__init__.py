"""Django: sitemaps built from the project's own ``django.contrib.sitemaps.Sitemap``
classes, split and indexed by this package's rules, and checked.

Add the app and say where the site is served::

    INSTALLED_APPS = [..., "sitemap_ext.integrations.django"]
    SITEMAP_EXT = {"base_url": "https://www.example.com/"}  # optional: sitemaps, output, now, ignore, out_dir

then ``python manage.py sitemap_ext_build public/sitemaps`` writes the sitemaps (an
index and its parts past 50,000 URLs or 50 MiB) and checks them; ``python manage.py
check --deploy --tag sitemap_ext`` judges the same pages without writing; in a test,
``assert_sitemaps_ok()``. A finding names the Sitemap class and the URL
(``trails.sitemaps.RoutesSitemap: https://www.example.com/en/routes/ridge/``).

To serve the written files from Django (as WhiteNoise serves static files), set
``SITEMAP_EXT["out_dir"]`` and add
``"sitemap_ext.integrations.django.middleware.SitemapFilesMiddleware"`` to
``MIDDLEWARE``: it answers the URLs the sitemaps give their files (``base_url`` plus
the name) with the right content type and hands every other request on. A web
server in front may serve the folder instead (an nginx ``location`` whose ``root``
is the folder), or WhiteNoise with ``WHITENOISE_ROOT`` set to it.

What maps to what: the Sitemap classes are those the URLconf hands to
``django.contrib.sitemaps.views.sitemap`` (or ``index``) as ``{"sitemaps": ...}``,
or ``SITEMAP_EXT["sitemaps"]`` (a dotted path to that mapping). Each class's
``items()``, ``location``, ``lastmod``, ``changefreq``, ``priority``, ``protocol``,
``i18n``, ``languages``, ``alternates`` and ``x_default`` are read through
``Sitemap.get_urls`` as Django's own view reads them, page by page of its paginator;
an item's language versions become one page whose alternates are the versions
(written once for all), Django's x-default its x-default. An ``images(item)`` method
on a class, if there is one, gives the item's images (URLs, or
``sitemap_ext.Image``). ``SITEMAP_EXT["output"]`` takes the keys of ``output:``
(``gzip``, ``max_urls``, ...).
"""

from __future__ import annotations

from .sitemaps import assert_sitemaps_ok, build_sitemaps, check_sitemaps, find_sitemaps, pages, site

__all__ = ["assert_sitemaps_ok", "build_sitemaps", "check_sitemaps", "find_sitemaps", "pages", "site"]
