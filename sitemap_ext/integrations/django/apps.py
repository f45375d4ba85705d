from __future__ import annotations

from django.apps import AppConfig


class SitemapExtConfig(AppConfig):  # type: ignore[misc]  # (Django ships no types: AppConfig is Any)
    name = "sitemap_ext.integrations.django"
    label = "sitemap_ext"
    verbose_name = "sitemap-ext"

    def ready(self) -> None:
        from django.core import checks

        from .checks import settings_check, sitemaps_check

        checks.register(settings_check, "sitemap_ext")
        # a deploy check: it reads every item, as a crawler's visit to the sitemap would
        checks.register(sitemaps_check, "sitemap_ext", deploy=True)
