"""The system check ``python manage.py check --deploy --tag sitemap_ext``: the
project's sitemaps judged by every rule of the checker (a dry build: nothing is
written). Each finding is a check message with the id ``sitemap_ext.CODE``
(``SILENCED_SYSTEM_CHECKS = ["sitemap_ext.H112"]`` hides one)."""

from __future__ import annotations

from typing import Any

from django.core import checks

from .. import _common
from .sitemaps import check_sitemaps, settings_value

_KINDS = {"error": checks.Error, "warning": checks.Warning, "info": checks.Info}


def sitemaps_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if not settings_value("base_url"):
        return [checks.Warning("SITEMAP_EXT['base_url'] is not set: the sitemaps cannot be judged",
                               hint="SITEMAP_EXT = {'base_url': 'https://www.example.com/'}",
                               id="sitemap_ext.config")]
    result = check_sitemaps()
    return [_KINDS[d.severity.value](_common.line(d), id=f"sitemap_ext.{d.code}")
            for d in _common.shown(result.collector, settings_value("ignore") or ())]
