"""The system check ``python manage.py check --deploy --tag sitemap_ext``: the
project's sitemaps judged by every rule of the checker (a dry build: nothing is
written). Each finding is a check message with the id ``sitemap_ext.CODE``
(``SILENCED_SYSTEM_CHECKS = ["sitemap_ext.H112"]`` hides one). The settings are
checked by every ``check`` (and so before every management command): a SITEMAP_EXT
key no build can use is an error, ``sitemap_ext.E001`` (``output``), ``E002``
(``ignore``), ``E003`` (``now``), ``E004`` (``base_url``), ``E005`` (``sitemaps``:
not a dotted path to a mapping of Sitemap classes, or that mapping), ``E006``
(``out_dir``); ``E007``: SITEMAP_EXT is no dict, or has a key it has no use for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core import checks

from .. import _common
from .places import line
from .sitemaps import check_sitemaps, find_sitemaps, is_sitemap, settings_value

_KINDS = {"error": checks.Error, "warning": checks.Warning, "info": checks.Info}


# SITEMAP_EXT's keys: the kind of value each takes (_common.setting_problem judges it), its error id
_SETTINGS = {"output": ("output", "sitemap_ext.E001"), "ignore": ("ignore", "sitemap_ext.E002"),
             "now": ("now", "sitemap_ext.E003"), "base_url": ("base_url", "sitemap_ext.E004"),
             "sitemaps": ("sitemaps", "sitemap_ext.E005"), "out_dir": ("folder", "sitemap_ext.E006")}
_HINT = "see the keys of SITEMAP_EXT in sitemap_ext.integrations.django"


def settings_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``python manage.py check``: SITEMAP_EXT when it is no dict of the keys below, and
    each key whose value no build could use, an error naming the key (every management
    command runs it first)."""
    configured = getattr(settings, "SITEMAP_EXT", None)
    if configured is None:
        return []
    problem = _common.keys_problem(configured, _SETTINGS, "SITEMAP_EXT")
    if problem is not None:
        return [checks.Error(f"SITEMAP_EXT: {problem}", id="sitemap_ext.E007", hint=_HINT)]
    errors = []
    for key, (kind, error_id) in _SETTINGS.items():
        problem = _common.setting_problem(kind, configured.get(key))
        if problem is None and key == "sitemaps":
            problem = _sitemaps_problem(configured.get(key))
        if problem is not None:
            errors.append(checks.Error(f"SITEMAP_EXT[{key!r}]: {problem}", id=error_id, hint=_HINT))
    return errors


def _sitemaps_problem(named: Any) -> str | None:
    """What is wrong with SITEMAP_EXT['sitemaps'] (a dotted path or a mapping, as the
    shared judge says): a path that imports nothing, or no mapping of Sitemap classes."""
    if named is None:
        return None
    try:
        found = find_sitemaps(named)
    except ImportError as exc:
        return f"{named!r} cannot be imported: {exc}"
    if not isinstance(found, Mapping):
        return f"{named!r} is {type(found).__name__}, not a mapping of names to Sitemap classes"
    wrong = next((name for name, value in found.items() if not is_sitemap(value)), None)
    if wrong is not None:
        return f"{wrong!r}: {type(found[wrong]).__name__} is no django.contrib.sitemaps.Sitemap class or instance"
    return None


def sitemaps_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings_check():  # (reported by the settings' own check)
        return []
    if not settings_value("base_url"):
        return [checks.Warning("SITEMAP_EXT['base_url'] is not set: the sitemaps cannot be judged",
                               hint="SITEMAP_EXT = {'base_url': 'https://www.example.com/'}",
                               id="sitemap_ext.config")]
    result = check_sitemaps()
    return [_KINDS[d.severity.value](line(d), id=f"sitemap_ext.{d.code}")
            for d in _common.shown(result.collector, settings_value("ignore") or ())]
