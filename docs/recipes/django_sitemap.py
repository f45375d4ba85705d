"""Recipe: a Django view that serves a checked sitemap, and a test that checks it.

In a project: put ``sitemap_view`` in a views module and route it,
``path("sitemap.xml", sitemap_view)``; ``pages()`` reads the model
(``Article.objects.values_list(...)`` streamed with ``.iterator()``). The test at
the end is the one a project keeps in its suite: it asks the view, as a crawler
would, and checks what it serves with every rule of the checker.

A project whose sitemaps are already ``django.contrib.sitemaps.Sitemap`` classes
needs no view of its own: add ``"sitemap_ext.integrations.django"`` to
``INSTALLED_APPS`` and ``SITEMAP_EXT = {"base_url": "https://www.example.com/"}``,
then ``python manage.py sitemap_ext_build public/`` writes them (i18n, alternates,
x_default, lastmod, an ``images(item)`` method) split and indexed by this package's
rules and checks them; ``python manage.py check --deploy --tag sitemap_ext`` and
``sitemap_ext.integrations.django.assert_sitemaps_ok()`` judge them in CI and in
tests (tests/test_integration_django.py), and the middleware
``sitemap_ext.integrations.django.middleware.SitemapFilesMiddleware`` serves the
written files (``SITEMAP_EXT["out_dir"]``) at the URLs the sitemaps give them.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseServerError

from sitemap_ext import Alternate, Locale, Page, Site, check, render

SITE = Site(base_url="https://www.example.com/", x_default="en",
            locales=(Locale(code="en", prefix="/en/"), Locale(code="es", prefix="/es/")))
ARTICLES = [("news", "noticias", "2026-11-20"), ("team", "equipo", "2026-09-01")]  # stands for the model


def pages():
    for english, spanish, updated in ARTICLES:  # Article.objects.values_list(...).iterator()
        yield Page(alternates=(Alternate(code="en", url=f"/en/{english}"), Alternate(code="es", url=f"/es/{spanish}")),
                   lastmod=updated)


def sitemap_view(request):
    rendered = render(SITE, pages())
    if not rendered.ok:
        return HttpResponseServerError("the sitemap has errors", content_type="text/plain")
    return HttpResponse(rendered.sitemap, content_type="application/xml")


def test_the_served_sitemap_passes_the_checker(client_get) -> None:
    """``client_get``: django.test.Client().get in a project's TestCase (self.client.get)."""
    response = client_get("/sitemap.xml")
    assert response.status_code == 200 and response["Content-Type"] == "application/xml"
    result = check(response.content)
    assert result.ok, [(d.code, d.message) for d in result.collector.sorted()]
