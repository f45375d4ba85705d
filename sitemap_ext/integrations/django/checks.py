"""The system check ``python manage.py check --deploy --tag sitemap_ext``: the
project's sitemaps judged by every rule of the checker (a dry build: nothing is
written). Each finding is a check message with the id ``sitemap_ext.CODE``
(``SILENCED_SYSTEM_CHECKS = ["sitemap_ext.H112"]`` hides one). The settings are
checked by every ``check`` (and so before every management command): a SITEMAP_EXT
key no build can use is an error, ``sitemap_ext.E001`` (``output``), ``E002``
(``ignore``), ``E003`` (``now``)."""

from __future__ import annotations

from typing import Any

from django.core import checks

from .. import _common
from .sitemaps import check_sitemaps, settings_value

_KINDS = {"error": checks.Error, "warning": checks.Warning, "info": checks.Info}


# SITEMAP_EXT's keys a build cannot use, each its error id
_SETTINGS = (("output", "sitemap_ext.E001"), ("ignore", "sitemap_ext.E002"), ("now", "sitemap_ext.E003"))


def settings_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``python manage.py check``: the SITEMAP_EXT keys that no build could use, each
    an error naming the key (every management command runs it first)."""
    errors = []
    for key, error_id in _SETTINGS:
        problem = _common.setting_problem(key, settings_value(key))
        if problem is not None:
            errors.append(checks.Error(f"SITEMAP_EXT[{key!r}]: {problem}", id=error_id,
                                       hint="see the keys of SITEMAP_EXT in sitemap_ext.integrations.django"))
    return errors


def sitemaps_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings_check():  # (reported by the settings' own check)
        return []
    if not settings_value("base_url"):
        return [checks.Warning("SITEMAP_EXT['base_url'] is not set: the sitemaps cannot be judged",
                               hint="SITEMAP_EXT = {'base_url': 'https://www.example.com/'}",
                               id="sitemap_ext.config")]
    result = check_sitemaps()
    return [_KINDS[d.severity.value](_common.line(d), id=f"sitemap_ext.{d.code}")
            for d in _common.shown(result.collector, settings_value("ignore") or ())]
