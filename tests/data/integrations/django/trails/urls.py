from django.conf.urls.i18n import i18n_patterns
from django.contrib.sitemaps.views import sitemap
from django.http import HttpResponse
from django.urls import path

from .sitemaps import sitemaps


def page(request, **kwargs):
    return HttpResponse("a page")


urlpatterns = [
    path("sitemap.xml", sitemap, {"sitemaps": sitemaps}, name="django.contrib.sitemaps.views.sitemap"),
    path("imprint/", page, name="imprint"),
]
urlpatterns += i18n_patterns(
    path("", page, name="home"),
    path("about/", page, name="about"),
    path("routes/<slug:slug>/", page, name="route"),
)
