import datetime as dt
import os

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

ROUTES = {"ridge": dt.date(2026, 11, 2), "lakes": dt.date(2026, 10, 5)}


class PagesSitemap(Sitemap):
    """The static pages, in every language, with alternates and Django's x-default."""
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"

    def items(self):
        return ["home", "about"]

    def location(self, item):
        return reverse(item)


class RoutesSitemap(Sitemap):
    """One page per route, in English and German only, each with a photo."""
    i18n = True
    languages = ["en", "de"]
    alternates = True
    x_default = True
    priority = 0.8

    def items(self):
        return sorted(ROUTES)

    def location(self, item):
        return reverse("route", args=[item])

    def lastmod(self, item):
        if os.environ.get("TRAILS_PLANT_DEFECT"):  # a lastmod in the future: the planted defect
            return dt.date(2027, 1, 1)
        return ROUTES[item]

    def images(self, item):
        return [f"/media/routes/{item}.jpg"]


class LegalSitemap(Sitemap):
    """A page in one language only (no i18n)."""

    def items(self):
        return ["imprint"]

    def location(self, item):
        return "/imprint/"


sitemaps = {"pages": PagesSitemap, "routes": RoutesSitemap, "legal": LegalSitemap}
