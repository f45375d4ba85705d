"""Built sites shaped like what static-site generators write, for the tests.

Not our own reading of the rules: the heads carry what real themes put there (feed
autodiscovery, a theme's canonical, og:locale, icons and preloads, a language menu in
the body), the sitemaps are laid out as Hugo writes them (a root index listing one
sitemap per language, each entry with its alternates, attributes on lines of their
own), every section has its RSS feed, and every language folder its 404 page. The
shapes follow the corpus in tests/data/realworld/ (Hugo, MkDocs, Docusaurus, Jekyll).
"""

from __future__ import annotations

from pathlib import Path

BASE = "https://www.example.org/"
LANGS = ("en", "de", "fr")
PAGES = ("", "posts/", "posts/first/", "posts/second/", "about/")


def url(lang: str, path: str) -> str:
    return f"{BASE}{lang}/{path}"


def head_links(path: str, lang: str, *, relative: bool = False, versions: tuple[str, ...] = LANGS) -> str:
    """The hreflang links a theme writes from .AllTranslations (itself included), then x-default."""
    def href(code: str) -> str:
        return f"/{code}/{path}" if relative else url(code, path)
    links = [f'<link rel="alternate" hreflang="{code}" href="{href(code)}">' for code in versions]
    links.append(f'<link rel="alternate" hreflang="x-default" href="{href("en")}">')
    return "\n    ".join(links)


def page(path: str, lang: str, *, links: str | None = None, canonical: str | None = None) -> str:
    own = url(lang, path)
    section = path.split("/")[0] or ""
    feed = url(lang, f"{section}/index.xml" if section else "index.xml")
    menu = "".join(f'<li><a href="/{code}/">{code.upper()}</a></li>' for code in LANGS)  # to each home page
    return f"""<!DOCTYPE html>
<html lang="{lang}" dir="ltr">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="Hugo 0.125.4">
    <title>Title</title>
    <meta name="description" content="placeholder">
    <link rel="canonical" href="{canonical or own}">
    <meta property="og:locale" content="{lang}_{lang.upper() if lang != 'en' else 'US'}">
    <meta property="og:url" content="{own}">
    <link rel="alternate" type="application/rss+xml" href="{feed}" title="Title">
    <link rel="alternate" type="application/atom+xml" href="{own}atom.xml" title="Title">
    <link rel="icon" href="/favicon.ico">
    <link rel="preload" href="/fonts/a.woff2" as="font" type="font/woff2" crossorigin>
    <link rel="stylesheet" href="/css/main.min.css">
    {links if links is not None else head_links(path, lang)}
  </head>
  <body><nav><ul>{menu}</ul></nav><main></main></body>
</html>
"""


def sitemap(lang: str, entries: list[tuple[str, tuple[str, ...]]]) -> str:
    """One language's sitemap as Hugo writes it: each entry with its alternates, itself included."""
    out = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
           '  xmlns:xhtml="http://www.w3.org/1999/xhtml">']
    for day, (path, versions) in enumerate(entries, 1):
        out += ["  <url>", f"    <loc>{url(lang, path)}</loc>", f"    <lastmod>2024-05-{day:02}T10:00:00+02:00</lastmod>"]
        for code in (versions if len(versions) > 1 else ()):
            out += ["    <xhtml:link", '                rel="alternate"', f'                hreflang="{code}"',
                    f'                href="{url(code, path)}"', "                />"]
        out.append("  </url>")
    out.append("</urlset>")
    return "\n".join(out) + "\n"


def index(langs: tuple[str, ...] = LANGS) -> str:
    items = "".join(f"\n  <sitemap>\n    <loc>{BASE}{code}/sitemap.xml</loc>\n"
                    "    <lastmod>2024-05-01T10:00:00+02:00</lastmod>\n  </sitemap>" for code in langs)
    return ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
            f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}\n</sitemapindex>\n')


def feed(lang: str, paths: list[str]) -> str:
    items = "".join(f"\n    <item>\n      <title>Title</title>\n      <link>{url(lang, p)}</link>\n"
                    f"      <pubDate>Wed, {day:02} May 2024 10:00:00 +0200</pubDate>\n      <guid>{url(lang, p)}</guid>\n"
                    "      <description>placeholder</description>\n    </item>" for day, p in enumerate(paths, 1))
    return ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
            '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n  <channel>\n    <title>Title</title>\n'
            f"    <link>{url(lang, '')}</link>\n    <description>placeholder</description>{items}\n"
            "  </channel>\n</rss>\n")


def hugo_site(folder: Path) -> Path:
    """A clean multilingual Hugo site, as `hugo` writes it into public/."""
    public = folder / "public"
    files: dict[str, str] = {"sitemap.xml": index(), "404.html": page("404.html", "en", links=""),
                             "robots.txt": f"User-agent: *\nDisallow:\nSitemap: {BASE}sitemap.xml\n"}
    for lang in LANGS:
        for path in PAGES:
            files[f"{lang}/{path}index.html"] = page(path, lang)
        files[f"{lang}/404.html"] = page("404.html", lang, links="")  # localised error pages
        files[f"{lang}/sitemap.xml"] = sitemap(lang, [(path, LANGS) for path in PAGES])
        files[f"{lang}/index.xml"] = feed(lang, [p for p in PAGES if p.startswith("posts/") and p != "posts/"])
        files[f"{lang}/posts/index.xml"] = feed(lang, ["posts/first/", "posts/second/"])
    for name, text in files.items():
        target = public / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (public / "css").mkdir(exist_ok=True)
    (public / "css" / "main.min.css").write_text("body{margin:0}\n")
    return public
