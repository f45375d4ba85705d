"""check on a built site (a first part of "The built site"): the hreflang links in
each page's head are judged by the rules that judge a sitemap's, with their file and
line; pages are skipped with --html off or when no --base-url gives their URL."""

from __future__ import annotations

from pathlib import Path

from sitemap_ext import check

BASE = "https://e.com/"
LOCALES = {"en": "en/", "de": "de/", "fr": "fr/"}


def page(links: dict[str, str], *, lang: str = "en") -> str:
    tags = "\n".join(f'  <link rel="alternate" hreflang="{code}" href="{href}">' for code, href in links.items())
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n  <meta charset="utf-8">\n{tags}\n'
            '  <link rel="stylesheet" href="/site.css">\n</head>\n<body><p>text</p></body>\n</html>\n')


def site(folder: Path, pages: dict[str, dict[str, str]]) -> Path:
    """A built site: each page's file and the alternates its head gives."""
    public = folder / "public"
    for name, links in pages.items():
        target = public / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page(links), encoding="utf-8")
    (public / "site.css").write_text("p { color: black }\n")
    return public


def full(path: str = "") -> dict[str, str]:
    return {**{code: f"{BASE}{prefix}{path}" for code, prefix in LOCALES.items()}, "x-default": f"{BASE}en/{path}"}


def findings(result: object) -> list[tuple[str, str | None, int | None, str | None]]:
    return [(d.code, d.file, d.line, d.url) for d in result.collector.sorted()]  # type: ignore[attr-defined]


def test_a_clean_built_site_passes(tmp_path: Path) -> None:
    public = site(tmp_path, {f"{prefix}index.html": full() for prefix in LOCALES.values()}
                  | {f"{prefix}about.html": full("about.html") for prefix in LOCALES.values()})
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    assert result.ok and findings(result) == []
    assert sorted(f["kind"] for f in result.files) == ["html"] * 6
    assert "public/site.css" in result.skipped


def test_a_missing_return_link_and_self_reference_are_found_in_the_page(tmp_path: Path) -> None:
    pages = {f"{prefix}index.html": full() for prefix in LOCALES.values()}
    pages["de/index.html"] = {code: href for code, href in full().items() if code != "fr"}  # no link to fr
    pages["en/about.html"] = {"de": f"{BASE}de/about.html"}  # lists de, not itself
    pages["de/about.html"] = {"de": f"{BASE}de/about.html", "en": f"{BASE}en/about.html"}
    public = site(tmp_path, pages)
    result = check([str(public)], base_urls=[f"{BASE}={public}"])
    got = findings(result)
    # fr lists de; de does not list fr back: reported at fr's alternates (from line 5), as a
    # sitemap's is at its <url>.
    assert ("H104", "public/fr/index.html", 5, f"{BASE}fr/") in got
    # en/about.html gives alternates but not itself (line 5: its first link).
    assert ("H103", "public/en/about.html", 5, f"{BASE}en/about.html") in got
    assert not result.ok


def test_pages_take_their_urls_from_base_url_and_the_conventions(tmp_path: Path) -> None:
    links = {**{code: f"{BASE}{p}about" for code, p in LOCALES.items()}, "x-default": f"{BASE}en/about"}
    public = site(tmp_path, {f"{prefix}about.html": links for prefix in LOCALES.values()})
    kept = check([str(public)], base_urls=[f"{BASE}={public}"], html="drop-ext")
    assert kept.ok and findings(kept) == []  # /de/about is de/about.html served without .html
    as_written = check([str(public)], base_urls=[f"{BASE}={public}"])
    own = [(code, file) for code, file, _, _ in findings(as_written) if code == "H103"]
    assert len(own) == 3 and not as_written.ok  # each page's own URL ends in .html: none lists itself


def test_a_page_without_alternates_named_by_another_misses_its_return_link(tmp_path: Path) -> None:
    public = site(tmp_path, {"en/index.html": {"en": f"{BASE}en/", "de": f"{BASE}de/", "x-default": f"{BASE}en/"},
                             "de/index.html": {}})
    got = findings(check([str(public)], base_urls=[f"{BASE}={public}"]))
    assert ("H104", "public/en/index.html", 5, f"{BASE}en/") in got


def test_html_off_or_no_base_url_skips_the_pages(tmp_path: Path) -> None:
    pages = {"de/index.html": {"en": f"{BASE}en/"}}  # a defect, if the page were read
    public = site(tmp_path, pages)
    for result in (check([str(public)], base_urls=[f"{BASE}={public}"], html="off"), check([str(public)])):
        assert "public/de/index.html" in result.skipped
        assert [d.code for d in result.collector.diagnostics] == ["F104"]  # nothing else to check


def test_html_served_as_a_sitemap_is_still_the_wrong_root(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(page({"en": f"{BASE}en/"}), encoding="utf-8")
    # Judged as the sitemap it is named as (HTML is no well-formed XML), not skipped as a page.
    assert [d.code for d in check([str(path)]).collector.diagnostics] == ["X102"]
