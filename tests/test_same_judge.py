"""One judge for a build and for the check of its output: the build's findings include
every finding of ``check OUT`` (code, severity, URL), because the build computes each
predicate with the check's own function (URL identity by ``urls.identity``, whose
digest is ``url_key``; may two codes share a URL; the lastmod judgement).

The build hands every entry it writes to the check's engine (``write/judge.py``): the
file rules (D103, D109) and the cluster rules (H112 and the others) run in a build too,
so nothing is left out of the comparison.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

from sitemap_ext import build, check

NOW = "2026-01-01T00:00:00Z"

Finding = tuple[str, str, str | None]


def _findings(result: object) -> set[Finding]:
    return {(d.code, d.severity.value, d.url) for d in result.collector.diagnostics}  # type: ignore[attr-defined]


def build_and_check(tmp_path: Path, yaml: str) -> tuple[set[Finding], set[Finding], list[str]]:
    """The build's findings, the check's findings of its output, and the locs written."""
    site = tmp_path / "site.yaml"
    site.write_text(yaml, encoding="utf-8")
    out = tmp_path / "out"
    built = build(str(site), str(out), now=NOW)
    files = sorted(glob.glob(os.path.join(out, "*.xml")))
    checked = _findings(check(files, now=NOW)) if files else set()
    locs = [part.split("</loc>")[0] for name in files
            for part in Path(name).read_text(encoding="utf-8").split("<loc>")[1:]]
    return _findings(built), checked, locs


def test_two_spellings_of_one_url_are_one_url_to_the_build(tmp_path: Path) -> None:
    built, checked, locs = build_and_check(
        tmp_path, "site:\n  base_url: https://e.com/\npages:\n  - loc: /~a\n  - loc: /%7Ea\n  - loc: /%7ea\n")
    assert built == {("U104", "warning", "https://e.com/%7Ea"), ("U104", "warning", "https://e.com/%7ea")}
    assert checked <= built
    assert locs == ["https://e.com/~a"]  # written once, as first spelled


def test_one_url_in_two_spellings_under_two_languages_is_h107(tmp_path: Path) -> None:
    built, checked, locs = build_and_check(
        tmp_path, "site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\npages:\n"
        "  - urls: {en: /caf%c3%a9, de: /café}\n")
    # (before: no finding, and both spellings written, which the check called H107 twice and U104)
    assert built == {("H107", "error", "https://e.com/caf%c3%a9")}  # en, after de (codes in order)
    assert checked == set() and locs == []  # an error: nothing is written


def test_regions_that_share_a_url_in_two_spellings_write_it_once(tmp_path: Path) -> None:
    built, checked, locs = build_and_check(
        tmp_path, "site:\n  base_url: https://e.com/\nlocales:\n  es-MX: /mx/\n  es-AR: /ar/\npages:\n"
        "  - urls: {es-MX: /es/caf%c3%a9, es-AR: /es/café}\n")
    assert built == checked == {("H112", "info", "https://e.com/es/caf%C3%A9")}  # (the engine's, in both)
    assert locs == ["https://e.com/es/caf%C3%A9"]  # one entry, both codes, in the first code's spelling


def test_a_layout_page_and_a_url_of_it_spelled_otherwise_are_one_url(tmp_path: Path) -> None:
    head = "site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\npages:\n"
    for order, (first, second) in enumerate([("  - path: /~x\n", "  - loc: /de/%7ex\n"),
                                             ("  - loc: /de/%7ex\n", "  - path: /~x\n")]):
        folder = tmp_path / str(order)
        folder.mkdir()
        built, checked, locs = build_and_check(folder, head + first + second)
        assert ("U104", "warning", "https://e.com/de/~x" if order else "https://e.com/de/%7ex") in built
        assert checked <= built
        assert sorted(locs) == ["https://e.com/de/%7ex" if order else "https://e.com/de/~x", "https://e.com/en/~x"]


def test_locales_that_share_a_url_give_check_and_build_one_verdict(tmp_path: Path) -> None:
    yaml = "site:\n  base_url: https://e.com/\nlocales:\n  es-MX: /es/\n  es-AR: /es/\npages:\n  - path: /a\n"
    built, checked, locs = build_and_check(tmp_path, yaml)
    assert built == checked == {("H112", "info", "https://e.com/es/a")} and locs == ["https://e.com/es/a"]
    site = str(tmp_path / "site.yaml")
    # (before: a dry run counted no URL, and check site.yaml said O102 "no pages")
    assert _findings(check([site], now=NOW)) == _findings(build(site, dry_run=True, now=NOW)) == checked


VIDEO = "{thumbnail_loc: /t.jpg, title: T, description: D, content_loc: /v.mp4, publication_date: '2025-01'}"
VIDEO_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
             'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><url><loc>https://e.com/a</loc>'
             '<lastmod>2025-01</lastmod><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>'
             '<video:title>T</video:title><video:description>D</video:description><video:content_loc>'
             'https://e.com/v.mp4</video:content_loc><video:publication_date>2025-01</video:publication_date>'
             '</video:video></url></urlset>\n')


def test_one_date_judgement_for_a_lastmod_and_a_video_date(tmp_path: Path) -> None:
    """A W3C form the XSD rejects: a note (D106) where the writer writes it anew, for a
    page's lastmod and a video's date alike (before: the video's was rewritten in
    silence); D108 for both in a sitemap, where it stands as written."""
    built, checked, _ = build_and_check(
        tmp_path, f"site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    lastmod: '2025-01'\n"
        f"    videos:\n      - {VIDEO}\n")
    assert built == {("D106", "info", None), ("D106", "info", "https://e.com/a")} and checked == set()
    messages = {d.message for d in build(str(tmp_path / "site.yaml"), dry_run=True, now=NOW).collector.diagnostics}
    assert "publication_date: lastmod '2025-01' is written as 2025-01-01: the XSD rejects YYYY and YYYY-MM" \
        in messages
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(VIDEO_XML, encoding="utf-8")
    assert _findings(check([str(sitemap)], now=NOW)) == {("D108", "warning", "https://e.com/a")}
    assert len(check([str(sitemap)], now=NOW).collector.diagnostics) == 2


def _built_page(public: Path, name: str, lang: str, head: str) -> None:
    target = public / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{head}</head>\n'
                      "<body><p>x</p></body>\n</html>\n", encoding="utf-8")


LINK = '  <link rel="alternate" hreflang="{}" href="https://e.com/{}">\n'


def test_a_built_page_that_does_not_link_back_is_h104_in_the_build_as_in_the_check(
        tmp_path: Path, monkeypatch: object) -> None:
    """a/ lists b/ as de, b/ lists itself alone: the check of the output and the pages
    says H104 (error) at a/'s link to b/, L113 at b/'s <html lang>, H112 of a/'s head.
    The build judges the pages' heads with the same engine, into the same cluster log
    (before: the H112 of a/'s head was the check's alone, and the build's H104 its
    own verdict, at the link's column)."""
    public = tmp_path / "public"
    _built_page(public, "a/index.html", "en", LINK.format("en", "a/") + LINK.format("de", "b/"))
    _built_page(public, "b/index.html", "en", LINK.format("de", "b/"))  # (and its <html lang> is not de)
    (tmp_path / "site.yaml").write_text("site:\n  base_url: https://e.com/\nsources:\n  - site: public/\n")
    monkeypatch.chdir(tmp_path)  # type: ignore[attr-defined]
    built = build("site.yaml", "out", now=NOW)
    both = check([str(tmp_path / "out"), str(public)], base_urls=[f"https://e.com/={public}"], now=NOW, jobs=1)
    checked = _findings(both)
    assert checked == {("H104", "error", "https://e.com/a/"), ("L113", "info", "https://e.com/b/"),
                       ("H112", "info", "https://e.com/a/")}
    assert _findings(built) == checked
    assert sorted((d.code, d.file, d.line) for d in built.collector.diagnostics) == \
        sorted((d.code, os.path.relpath(d.file or "", tmp_path), d.line) for d in both.collector.diagnostics) == [
        ("H104", "public/a/index.html", 6), ("H112", "public/a/index.html", 5), ("L113", "public/b/index.html", 2)]


def test_a_cluster_without_x_default_is_h112_in_the_build_as_in_the_check(tmp_path: Path) -> None:
    """(before: the build said nothing, the check of its output H112)"""
    built, checked, _ = build_and_check(
        tmp_path, "site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\npages:\n  - path: /a\n")
    assert built == checked == {("H112", "info", "https://e.com/de/a")}
    (finding,) = build(str(tmp_path / "site.yaml"), dry_run=True, now=NOW).collector.diagnostics
    assert (finding.code, os.path.basename(finding.file or ""), finding.line) == ("H112", "site.yaml", 7)  # its page


def _dated(count: int, dates: list[str]) -> str:
    pages = "".join(f"  - loc: /p{n}\n    lastmod: '{dates[n % len(dates)]}'\n" for n in range(count))
    return "site:\n  base_url: https://e.com/\npages:\n" + pages


def test_one_lastmod_on_every_page_is_d103_in_the_build_at_its_file(tmp_path: Path) -> None:
    """(before: the build said nothing, the check of its output D103)"""
    built, checked, _ = build_and_check(tmp_path, _dated(6, ["2025-05-05"]))
    assert built == checked == {("D103", "warning", None)}
    result = build(str(tmp_path / "site.yaml"), str(tmp_path / "again"), now=NOW)
    assert [(d.code, d.file, d.line) for d in result.collector.diagnostics] == [
        ("D103", os.path.join(str(tmp_path / "again"), "sitemap.xml"), None)]


def test_most_lastmods_at_the_newest_is_d109_in_the_build(tmp_path: Path) -> None:
    """(before: the build said nothing, the check of its output D109)"""
    built, checked, _ = build_and_check(tmp_path, _dated(10, ["2025-05-05"] * 9 + ["2025-01-01"]))
    assert built == checked == {("D109", "warning", None)}


def test_a_future_lastmod_is_said_once(tmp_path: Path) -> None:
    """The engine's lastmod rule says D102 on the entry written; the build's own call is gone."""
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    lastmod: '2030-01-01'\n")
    codes = [(d.code, d.line) for d in build(str(site), dry_run=True, now=NOW).collector.diagnostics]
    assert codes == [("D102", 4)]


def _video_sitemap(tmp_path: Path, children: str) -> set[Finding]:
    """The check's findings of a sitemap with one video of ``children`` (after the
    required ones) on https://e.com/a."""
    sitemap = tmp_path / "given.xml"
    sitemap.write_text(VIDEO_XML.replace("<lastmod>2025-01</lastmod>", "").replace(
        "<video:publication_date>2025-01</video:publication_date>", children), encoding="utf-8")
    return _findings(check([str(sitemap)], now=NOW))


VIDEO_YAML = ("site:\n  base_url: https://e.com/\npages:\n  - loc: /a\n    videos:\n      - thumbnail_loc: /t.jpg\n"
              "        title: T\n        description: D\n        content_loc: /v.mp4\n")


def test_a_yes_no_value_has_one_verdict_in_a_description_and_a_sitemap(tmp_path: Path) -> None:
    """The XSD's yes/no (yes, Yes, YES, no, No, NO) for both (before: a build took
    'yEs' in silence, the check said V110 of it)."""
    built, checked, _ = build_and_check(tmp_path, VIDEO_YAML + "        live: 'yEs'\n        family_friendly: 'NO'\n")
    assert built == _video_sitemap(tmp_path, "<video:family_friendly>NO</video:family_friendly>"
                                             "<video:live>yEs</video:live>") == {("V110", "error", "https://e.com/a")}
    assert checked == set()  # (an error: nothing written)
    built, checked, _ = build_and_check(tmp_path, VIDEO_YAML + "        family_friendly: 'NO'\n")
    assert built == checked == set()
    assert "<video:family_friendly>no</video:family_friendly>" in (tmp_path / "out" / "sitemap.xml").read_text()


def test_the_xsd_s_own_video_fields_are_known_and_written_by_a_build(tmp_path: Path) -> None:
    """content_segment_loc and id: fields of the XSD, which a check reads without a
    word; a build said C102 (unknown) of them and wrote neither. Now both know them and
    the build writes them as given, in the XSD's order."""
    built, checked, _ = build_and_check(
        tmp_path, VIDEO_YAML + "        id: {value: 'tt0068646', type: url}\n        rating: 4\n"
        "        content_segment_loc: [https://e.com/s1.mp4, {value: https://e.com/s2.mp4, duration: 30}]\n")
    assert built == checked == set()
    xml = (tmp_path / "out" / "sitemap.xml").read_text()
    assert ("<video:rating>4</video:rating><video:content_segment_loc>https://e.com/s1.mp4</video:content_segment_loc>"
            '<video:content_segment_loc duration="30">https://e.com/s2.mp4</video:content_segment_loc>') in xml
    assert '<video:id type="url">tt0068646</video:id></video:video>' in xml


def test_a_restriction_without_relationship_has_one_message(tmp_path: Path) -> None:
    """One verdict, one wording: the rule does not ask whether a build or a check calls it."""
    built = build(str(_site(tmp_path, VIDEO_YAML + "        restriction: GB\n")), dry_run=True, now=NOW)
    sitemap = tmp_path / "given.xml"
    sitemap.write_text(VIDEO_XML.replace("<video:publication_date>2025-01</video:publication_date>",
                                         "<video:restriction>GB</video:restriction>"), encoding="utf-8")
    checked = check([str(sitemap)], now=NOW)
    assert [(d.code, d.message) for d in built.collector.diagnostics] == \
        [(d.code, d.message) for d in checked.collector.diagnostics if d.code == "V108"]


def test_the_media_context_has_no_writing_flag() -> None:
    """No verdict of an extension asks whether it is building or checking."""
    import dataclasses

    from sitemap_ext.ext.media import MediaContext
    assert "writing" not in {f.name for f in dataclasses.fields(MediaContext)}


def _site(tmp_path: Path, yaml: str) -> Path:
    site = tmp_path / "site.yaml"
    site.write_text(yaml, encoding="utf-8")
    return site
