"""The Python library from objects: a site and its pages as objects give the same
bytes and the same findings as the same site written in YAML; render() gives bytes
for a view; SitemapWriter takes pages one at a time; check() takes bytes, file
objects and a program's pages."""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path

import pytest

from sitemap_ext import Alternate, Image, Locale, Page, Site, SitemapWriter, build, check, render

NOW = "2026-11-21T12:00:00Z"

YAML = """\
site:
  base_url: https://www.example.com/
  now: 2026-11-21T12:00:00Z
locales:
  en: /en/
  de: /de/
  fr-CH: /ch-fr/
x_default: en
defaults:
  changefreq: weekly
pages:
  - loc: /
    lastmod: 2026-11-20
  - path: /boots
    lastmod: 2026-11-19T08:00:00Z
    priority: 0.8
    images:
      - loc: https://cdn.example.com/boots.jpg
      - loc: /img/boots-side.jpg
  - urls:
      en: /en/jackets
      de: /de/jacken
      fr-CH: /ch-fr/vestes
    lastmod: 2026-11-12
  - path: /tents
    locales: [en, de]
    x_default: de
    lastmod: 2026-13-01
  - urls:
      en: /en/gloves
      de_DE: /de/handschuhe
    changefreq: Daily
"""


def objects() -> tuple[Site, list[Page]]:
    site = Site(base_url="https://www.example.com/", now=NOW, x_default="en",
                locales=(Locale(code="en", prefix="/en/"), Locale(code="de", prefix="/de/"),
                         Locale(code="fr-CH", prefix="/ch-fr/")),
                defaults={"changefreq": "weekly"})
    pages = [
        Page(loc="/", lastmod=dt.date(2026, 11, 20)),
        Page(path="/boots", lastmod=dt.datetime(2026, 11, 19, 8, tzinfo=dt.timezone.utc), priority=0.8,
             images=(Image(loc="https://cdn.example.com/boots.jpg"), Image(loc="/img/boots-side.jpg"))),
        Page(alternates=(Alternate(code="en", url="/en/jackets"), Alternate(code="de", url="/de/jacken"),
                         Alternate(code="fr-CH", url="/ch-fr/vestes")), lastmod=dt.date(2026, 11, 12)),
        Page(path="/tents", locales=("en", "de"), x_default="de", lastmod="2026-13-01"),
        Page(alternates=(Alternate(code="en", url="/en/gloves"), Alternate(code="de_DE", url="/de/handschuhe")),
             changefreq="Daily"),
    ]
    return site, pages


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".sitemap-ext")}


def findings(result: object) -> list[tuple[str, str, str | None]]:
    return sorted((d.code, d.message, d.url) for d in result.collector.diagnostics)  # type: ignore[attr-defined]


def test_objects_give_the_bytes_and_findings_of_the_same_yaml_site(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(YAML, encoding="utf-8")
    from_yaml = build(tmp_path / "site.yaml", tmp_path / "yaml-out")
    site, pages = objects()
    from_objects = build(site, tmp_path / "objects-out", pages=iter(pages))  # any iterable, read once
    assert files(tmp_path / "yaml-out") == files(tmp_path / "objects-out")
    assert findings(from_yaml) == findings(from_objects)
    assert from_yaml.urls == from_objects.urls == 10
    # The planted bad values, each found; a page of the iterable is located by its place in it.
    assert sorted((d.code, d.file, d.line) for d in from_objects.collector.diagnostics) == [
        ("D101", "<pages>", 4), ("D104", "<pages>", 5), ("I104", "<pages>", 2), ("L101", "<pages>", 5)]


def test_a_program_builds_a_multilingual_site_with_images_in_ten_lines(tmp_path: Path) -> None:
    rows = [{"slug": "boots", "updated": dt.date(2026, 11, 19), "photo": "/img/boots.jpg"},
            {"slug": "tents", "updated": dt.date(2026, 11, 20), "photo": "/img/tents.jpg"}]
    site = Site(base_url="https://www.example.com/", now=NOW, x_default="en",
                locales=(Locale(code="en", prefix="/en/"), Locale(code="de", prefix="/de/")))
    pages = (Page(path=f"/{row['slug']}", lastmod=row["updated"], images=(Image(loc=row["photo"]),))
             for row in rows)
    result = build(site, tmp_path / "out", pages=pages)
    assert result.ok and result.urls == 4
    assert check(str(tmp_path / "out"), now=NOW).ok


def test_render_gives_the_bytes_a_view_serves(tmp_path: Path) -> None:
    site, pages = objects()
    rendered = render(site, pages[:3])
    assert rendered.ok and set(rendered.files) == {"sitemap.xml", "sitemap.html", "sitemaps.html"}  # (views: output.html)
    assert rendered.sitemap.startswith(b"<?xml") and b"https://www.example.com/de/jacken" in rendered.sitemap
    build(site, tmp_path / "out", pages=pages[:3])
    assert rendered.sitemap == (tmp_path / "out" / "sitemap.xml").read_bytes()
    many = render(Site(base_url="https://www.example.com/", now=NOW, output=__import__("sitemap_ext").Output(
        max_urls=2)), [Page(loc=f"/p{n}") for n in range(5)])
    assert sorted(name for name in many.files if name.endswith(".xml")) == ["sitemap-1.xml", "sitemap-2.xml",
                                                                            "sitemap-3.xml", "sitemap.xml"]
    assert b"<sitemapindex" in many.sitemap
    bad = render(site, [Page(loc="https://other.example/")])
    assert not bad.ok and bad.files == {}  # an error: nothing to serve, the findings say why


def test_a_writer_takes_pages_one_at_a_time_and_an_error_in_the_block_keeps_the_old_files(tmp_path: Path) -> None:
    site, pages = objects()
    with SitemapWriter(site, tmp_path / "out") as writer:
        for page in pages[:3]:
            writer.add(page)
        writer.add({"loc": "/contact", "lastmod": "2026-11-01"})  # a mapping with a page's keys
    assert writer.result is not None and writer.result.ok and writer.result.urls == 8
    before = files(tmp_path / "out")
    with pytest.raises(KeyError):
        with SitemapWriter(site, tmp_path / "out") as failing:
            failing.add(Page(loc="/only"))
            raise KeyError("the database went away")
    assert files(tmp_path / "out") == before  # the abandoned build replaced nothing
    with pytest.raises(TypeError):
        SitemapWriter(site, tmp_path / "out").add("/not-a-page")  # type: ignore[arg-type]


def test_check_takes_bytes_file_objects_and_a_programs_pages(tmp_path: Path) -> None:
    site, pages = objects()
    data = render(site, pages[:3]).sitemap
    assert check(data, now=NOW).ok
    assert check(io.BytesIO(data), now=NOW).ok
    broken = data.replace(b"<loc>https://www.example.com/</loc>", b"<loc>/relative</loc>")
    result = check([io.BytesIO(broken)], now=NOW)
    assert [(d.code, d.file) for d in result.collector.diagnostics if d.code == "U101"] == [("U101", "<input 1>")]
    assert not any(str(tmp_path) in str(d.file) or "sitemap-ext-check" in str(d.file)
                   for d in result.collector.diagnostics)
    programs = check(site, pages=pages, now=NOW)
    assert {d.code for d in programs.collector.diagnostics} == {code for code, _, _ in
                                                                  findings(build(site, pages=pages, dry_run=True))}
    with pytest.raises(TypeError):
        check(io.StringIO("text"), now=NOW)
    with pytest.raises(TypeError):
        check(42)  # type: ignore[arg-type]


def test_wrong_arguments_are_type_errors_bad_data_are_findings(tmp_path: Path) -> None:
    site, _ = objects()
    with pytest.raises(TypeError):
        build(site, tmp_path / "out", pages="/a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        build(site, tmp_path / "out", pages=[42])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        build({"site": {}}, tmp_path / "out")  # type: ignore[arg-type]
    result = build(site, tmp_path / "out", pages=[Page(loc="/x", priority=7)])
    assert not result.ok and [d.code for d in result.collector.diagnostics] == ["D105"]
    assert not os.path.exists(tmp_path / "out" / "sitemap.xml")


MEDIA_YAML = """\
site:
  base_url: https://www.kitchen.example/
  now: 2026-11-21T12:00:00Z
news:
  publication: {name: The Kitchen Times, language: en}
pages:
  - loc: /recipes/sourdough
    lastmod: 2026-11-20
    videos:
      - thumbnail_loc: https://www.kitchen.example/thumbs/sourdough.jpg
        title: Sourdough from scratch
        description: Forty minutes from starter to crust.
        content_loc: https://www.kitchen.example/video/sourdough.mp4
        duration: 2415
        family_friendly: true
        tag: [bread, baking]
        restriction: {relationship: allow, countries: [GB, IE]}
  - loc: /news/ovens-recalled
    news:
      title: Ovens recalled
      publication_date: 2026-11-21T08:00:00Z
"""


def test_videos_and_news_from_objects_and_from_plain_dicts_match_the_yaml(tmp_path: Path) -> None:
    from sitemap_ext import NewsArticle, NewsPublication, Video

    (tmp_path / "site.yaml").write_text(MEDIA_YAML, encoding="utf-8")
    from_yaml = build(tmp_path / "site.yaml", tmp_path / "yaml-out")
    site = Site(base_url="https://www.kitchen.example/", now=NOW,
                publication=NewsPublication(name="The Kitchen Times", language="en"))
    pages = [
        Page(loc="/recipes/sourdough", lastmod=dt.date(2026, 11, 20), videos=(Video(
            thumbnail_loc="https://www.kitchen.example/thumbs/sourdough.jpg", title="Sourdough from scratch",
            description="Forty minutes from starter to crust.",
            content_loc="https://www.kitchen.example/video/sourdough.mp4", duration=2415, family_friendly=True,
            tag=("bread", "baking"), extra={"restriction": {"relationship": "allow", "countries": ["GB", "IE"]}}),)),
        Page(loc="/news/ovens-recalled", news=NewsArticle(
            title="Ovens recalled", publication_date=dt.datetime(2026, 11, 21, 8))),  # naive: UTC
    ]
    from_objects = build(site, tmp_path / "objects-out", pages=pages)
    from_dicts = build(site, tmp_path / "dicts-out", pages=[page.as_yaml() for page in pages])  # plain dicts
    assert files(tmp_path / "yaml-out") == files(tmp_path / "objects-out") == files(tmp_path / "dicts-out")
    assert findings(from_yaml) == findings(from_objects) == findings(from_dicts)
    assert from_objects.ok and set(files(tmp_path / "objects-out")) >= {"sitemap.xml", "news-1.xml"}
