"""U117: a published sitemap whose URLs are on a host no crawler can reach (a dev
server's base URL, a loopback or private address): once per file, in a check and in
a build, with the live check's own address predicate."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from sitemap_ext import build, check
from sitemap_ext.read import http
from sitemap_ext.urls import is_public, unreachable

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap(tmp_path: Path, *locs: str, name: str = "sitemap.xml") -> Path:
    path = tmp_path / name
    body = "".join(f"<url><loc>{loc}</loc></url>\n" for loc in locs)
    path.write_text(f'<urlset xmlns="{NS}">\n{body}</urlset>\n', encoding="utf-8")
    return path


def found(path: Path, **kw: object) -> list[tuple[str, int | None, str | None]]:
    return [(d.code, d.line, d.url) for d in check([str(path)], **kw).collector.sorted()]  # type: ignore[arg-type]


@pytest.mark.parametrize("origin", [
    "http://localhost:3000", "http://LOCALHOST", "https://app.localhost", "http://my-mac.local", "https://site.test",
    "https://api.corp.internal", "http://127.0.0.1:8080", "http://10.0.0.5", "http://192.168.1.20", "http://[::1]:3000",
    "http://[::ffff:127.0.0.1]", "http://100.64.0.1", "http://169.254.1.1", "http://localhost.",
])
def test_development_hosts_are_unreachable(origin: str) -> None:
    assert unreachable(origin) is not None


@pytest.mark.parametrize("origin", [
    "https://www.example.com", "https://example.com", "https://docs.example", "https://e.com", "http://8.8.8.8",
    "https://test.com", "https://local.example.org", "https://localhost.example.com", "https://[2606:4700::1111]",
    "https://xn--strae-oqa.example",
])
def test_public_and_documentation_hosts_are_left_alone(origin: str) -> None:
    assert unreachable(origin) is None


def test_one_address_predicate_for_the_live_guard_and_the_rules() -> None:
    assert http.is_public is is_public
    assert not is_public(ipaddress.ip_address("127.0.0.1")) and is_public(ipaddress.ip_address("8.8.8.8"))


def test_a_sitemap_of_a_dev_server_s_urls(tmp_path: Path) -> None:
    """Once, at the first URL: every URL of the file is on that host."""
    path = sitemap(tmp_path, "http://localhost:3000/", "http://localhost:3000/blog", "http://localhost:3000/about")
    assert found(path) == [("U117", 2, "http://localhost:3000/")]


def test_a_sitemap_on_a_private_address(tmp_path: Path) -> None:
    assert found(sitemap(tmp_path, "http://192.168.1.20/", "http://192.168.1.20/a")) == \
        [("U117", 2, "http://192.168.1.20/")]


def test_a_sitemap_checked_where_the_dev_server_serves_it(tmp_path: Path) -> None:
    """Its own URL is on that host (a check of a dev server): nothing to say."""
    path = sitemap(tmp_path, "http://localhost:3000/", "http://localhost:3000/blog")
    assert found(path, base_urls=[f"http://localhost:3000/={tmp_path}"]) == []


def test_documentation_hosts_are_no_development_hosts(tmp_path: Path) -> None:
    assert found(sitemap(tmp_path, "https://www.example.com/", "https://www.example.com/a")) == []


def test_an_index_of_sitemaps_on_a_dev_host(tmp_path: Path) -> None:
    path = tmp_path / "index.xml"
    path.write_text(f'<sitemapindex xmlns="{NS}">\n<sitemap><loc>http://127.0.0.1:8000/sitemap-1.xml</loc></sitemap>\n'
                    "</sitemapindex>\n", encoding="utf-8")
    assert [c for c, *_ in found(path) if c != "X111"] == ["U117"]  # (X111: the listed file is not among the inputs)


def test_a_build_whose_pages_are_on_the_dev_server_and_its_files_published(tmp_path: Path) -> None:
    """Served from a public URL, its pages on localhost: what a check of the files says."""
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: http://localhost:3000/\noutput:\n  public_url: https://www.example.com/\n"
                    "pages:\n  - loc: /\n", encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    assert [(d.code, d.severity, d.line, d.column) for d in result.collector.sorted()
            if d.code == "U117"] == [("U117", "error", 2, 13)]


def test_a_build_for_the_dev_server_itself(tmp_path: Path) -> None:
    """Its files served where its pages are (a preview, a local test): as a check of a
    dev server, nothing to say; the files are written."""
    site = tmp_path / "site.yaml"
    site.write_text("site:\n  base_url: http://localhost:3000/\npages:\n  - loc: /\n", encoding="utf-8")
    result = build(str(site), str(tmp_path / "out"))
    assert result.ok and [d.code for d in result.collector.sorted()] == []
    assert "<loc>http://localhost:3000/</loc>" in (tmp_path / "out" / "sitemap.xml").read_text(encoding="utf-8")
