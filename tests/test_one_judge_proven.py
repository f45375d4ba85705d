"""One judge, proven over generated descriptions: every finding of ``check OUT`` (with
the pages, for a built site) is among the build's, with the same code, severity and
URL; under ``--strict`` the check of the output fails only where the build fails, and
both fail alike unless the build said something only a description shows (a value it
did not write: a second spelling, a rewritten date, an old article left out);
``check site.yaml`` gives the findings of a build.

Descriptions: locales with prefixes and a host, per-page locale overrides and
x-default, URLs in two spellings (``/~a`` and ``/%7Ea``, ``café`` and ``caf%C3%A9``),
lastmods (equal on every page, in the future, in a form the XSD rejects), images,
videos, news; built sites with pages that link back or do not.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import build, check

NOW = "2026-01-01T00:00:00Z"
Finding = tuple[str, str, str | None]

PATHS = ["/~a", "/%7Ea", "/café", "/caf%C3%A9", "/b", "/c/"]
LASTMODS = [None, "2025-05-05", "2025-05-05T10:00:00+02:00", "2030-01-01", "2025-01"]
MEDIA = [
    "",
    "    images: [/i.jpg]\n",
    "    images:\n      - {loc: https://cdn.e.com/i.jpg, caption: C}\n",
    "    videos:\n      - {thumbnail_loc: /t.jpg, title: T, description: D, content_loc: /v.mp4, live: 'yEs'}\n",
    "    videos:\n      - {thumbnail_loc: /t.jpg, title: T, description: D, player_loc: /p, family_friendly: 'NO',"
    " category: c, expiration_date: '2025-01-01'}\n",
    "    news: {title: N, publication_date: '2025-12-31T12:00:00Z'}\n",
    "    news: {title: Old, publication_date: '2025-06-01'}\n",
]
LOCALES = {"en": "/en/", "de": "/de/", "fr": "{host: https://e.fr}"}


# Said once per cluster, at the member read first: the build reads its pages in the
# description's order, a check its files in theirs, so the URL may be another member's.
_ONCE_PER_CLUSTER = ("H112",)


def _findings(result: Any) -> set[Finding]:
    """(code, severity, URL); a finding said once per run (an image host: I104) is about
    its subject, and one said once per cluster about the cluster, not the URL it was
    first met at, which depends on the order of reading."""
    return {(d.code, d.severity.value, None if d.code in _ONCE_PER_CLUSTER else d.once or d.url)
            for d in result.collector.diagnostics}


@st.composite
def descriptions(draw: Any) -> str:
    locales = draw(st.lists(st.sampled_from(sorted(LOCALES)), unique=True, max_size=3))
    head = "site:\n  base_url: https://e.com/\nnews:\n  publication: {name: P, language: en}\n"
    if locales:
        head += "locales:\n" + "".join(f"  {code}: {LOCALES[code]}\n" for code in locales)
        if draw(st.booleans()):
            head += f"x_default: {locales[0]}\n"
    pages = []
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(PATHS))
        page = f"  - {'path' if locales else 'loc'}: {path}\n"
        if len(locales) > 1 and draw(st.booleans()):
            page += f"    locales: [{', '.join(draw(st.permutations(locales))[:-1])}]\n"
        lastmod = draw(st.sampled_from(LASTMODS))
        if lastmod is not None:
            page += f"    lastmod: '{lastmod}'\n"
        pages.append(page + draw(st.sampled_from(MEDIA)))
    if draw(st.booleans()):  # the same lastmod on every page (D103 at five pages or more)
        pages += [f"  - loc: /same{n}\n    lastmod: '2025-02-02'\n" for n in range(5)]
    return head + "pages:\n" + "".join(pages)


COMPARED: list[Path] = []  # the descriptions whose output was compared (for a count of the examples that bite)


def _of_the_index(found: Finding) -> bool:
    """Left: the build does not yet hand the index it writes to the engine, so what the
    check says of an index entry (D102: a child's lastmod, its newest page's, in the
    future) is the check's alone."""
    return found[2] is not None and found[2].endswith(".xml")


def _agree(tmp: Path, site: Path, extra: list[str], base_urls: list[str]) -> None:
    """The build's findings hold the check's of what it wrote (and of ``extra``)."""
    out = tmp / "out"
    shutil.rmtree(out, ignore_errors=True)
    built = build(str(site), str(out), now=NOW)
    if not (out.is_dir() and any(out.rglob("*.xml"))):
        # Left: a build with errors writes nothing, yet its cluster rules judged what it
        # would have written beside the pages' heads; the check of the pages alone can
        # then examine a pair otherwise (H105 where the build says H104, say).
        return
    COMPARED.append(site)
    checked = check([str(out)] + extra, base_urls=base_urls, now=NOW, jobs=1)
    said = {found for found in _findings(checked) if not _of_the_index(found)}
    assert said <= _findings(built), sorted(said - _findings(built))
    if checked.collector.failed(strict=True):
        assert built.collector.failed(strict=True)
    apart = {found for found in _findings(built) - _findings(checked) if found[1] != "info"}
    if not apart:  # (nothing only the description shows, or only notes: the same exit code)
        assert checked.collector.failed(strict=True) == built.collector.failed(strict=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(descriptions())
def test_check_of_the_output_says_nothing_the_build_did_not(tmp_path: Path, yaml: str) -> None:
    site = tmp_path / "site.yaml"
    site.write_text(yaml, encoding="utf-8")
    _agree(tmp_path, site, [], [])
    assert _findings(check([str(site)], now=NOW)) == _findings(build(str(site), dry_run=True, now=NOW))


PAGES = ["a/", "b/", "c/"]
CODES = ["en", "de", "fr"]


@st.composite
def built_sites(draw: Any) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Each page: its <html lang> and the (hreflang, page) links of its head."""
    if draw(st.booleans()):  # a whole cluster (so that the build writes), its langs and x-default drawn
        members = PAGES[:draw(st.integers(1, 3))]
        pairs = zip(CODES[:len(members)], members, strict=True)
        cluster = [(code, page) for code, page in pairs] if len(members) > 1 else []
        if cluster and draw(st.booleans()):
            cluster.append(("x-default", members[0]))
        return {page: (draw(st.sampled_from(CODES)), cluster if page in members else []) for page in PAGES}
    site = {}
    for number, page in enumerate(PAGES):
        links = draw(st.lists(st.tuples(st.sampled_from(CODES + ["x-default"]), st.sampled_from(PAGES)),
                              max_size=3, unique_by=lambda link: link[0]))
        if links and draw(st.booleans()):
            links = [(CODES[number], page)] + [link for link in links if link[0] != CODES[number]]
        site[page] = (draw(st.sampled_from(CODES)), links)
    return site


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(built_sites())
def test_check_of_the_output_and_the_pages_says_nothing_the_build_did_not(
        tmp_path: Path, pages: dict[str, tuple[str, list[tuple[str, str]]]]) -> None:
    public = tmp_path / "public"
    shutil.rmtree(public, ignore_errors=True)
    for page, (lang, links) in pages.items():
        (public / page).mkdir(parents=True, exist_ok=True)
        head = "".join(f'  <link rel="alternate" hreflang="{code}" href="https://e.com/{target}">\n'
                       for code, target in links)
        (public / page / "index.html").write_text(
            f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{head}</head>\n'
            "<body><p>x</p></body>\n</html>\n", encoding="utf-8")
    site = tmp_path / "site.yaml"
    site.write_text(f"site:\n  base_url: https://e.com/\nsources:\n  - site: {public}\n", encoding="utf-8")
    _agree(tmp_path, site, [str(public)], [f"https://e.com/={public}"])
