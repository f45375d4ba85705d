"""``python manage.py sitemap_ext_build [OUT_DIR]``: the project's sitemaps, built from
its django.contrib.sitemaps classes, written to OUT_DIR and checked."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from sitemap_ext.integrations import _common
from sitemap_ext.integrations.django.checks import settings_check
from sitemap_ext.integrations.django.places import line
from sitemap_ext.integrations.django.sitemaps import build_sitemaps, settings_value
from sitemap_ext.report.formats import plural


class Command(BaseCommand):  # type: ignore[misc]  # (Django ships no types: BaseCommand is Any)
    help = ("Write the sitemaps of the project's django.contrib.sitemaps classes to a folder (split and indexed "
            "at the protocol's limits, alternates, x-default, images) and check them.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("out_dir", nargs="?", help="the folder (default: SITEMAP_EXT['out_dir'])")
        parser.add_argument("--base-url", help="where the site is served (default: SITEMAP_EXT['base_url'])")
        parser.add_argument("--now", help="the instant dates are judged at (ISO 8601)")
        parser.add_argument("--no-check", action="store_true", help="write without checking the written files")
        parser.add_argument("--strict", action="store_true", help="fail on warnings too")
        parser.add_argument("--dry-run", action="store_true", help="judge the pages, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        errors = settings_check()  # (run before any command by manage.py; call_command skips the checks)
        if errors:
            raise CommandError("; ".join(f"{error.msg} ({error.id})" for error in errors))
        out_dir = options["out_dir"] or settings_value("out_dir")
        if not out_dir:
            raise CommandError("name the folder: sitemap_ext_build OUT_DIR, or SITEMAP_EXT['out_dir']")
        base_url = options["base_url"] or settings_value("base_url")
        now = options["now"] or settings_value("now")
        try:
            result = build_sitemaps(out_dir, base_url=base_url, now=now, dry_run=options["dry_run"])
        except (LookupError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        findings = list(result.collector)
        if result.ok and not options["dry_run"]:
            self.stdout.write(f"sitemaps written to {out_dir}: {', '.join(f.name for f in result.files)}")
            if not options["no_check"]:
                findings = _common.merged(findings, _common.check_folder(out_dir, site_url(base_url), now=now))
        counts = {"error": 0, "warning": 0, "info": 0}
        for diagnostic in _common.shown(findings, settings_value("ignore") or ()):
            severity = diagnostic.severity.value
            counts[severity] += 1
            style = {"error": self.style.ERROR, "warning": self.style.WARNING, "info": str}[severity]
            (self.stdout if severity == "info" else self.stderr).write(
                style(f"{severity} {line(diagnostic, out_dir)}"))
        self.stdout.write(", ".join(plural(counts[kind], kind) for kind in ("error", "warning", "info")))
        if counts["error"] or (options["strict"] and counts["warning"]):
            raise CommandError("the sitemaps have " + ("errors" if counts["error"] else "warnings (--strict)"))


def site_url(base_url: str | None) -> str:
    return _common.folder_url(base_url or "")
