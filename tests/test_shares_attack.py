"""An attack on the rules across files judged in shares of the URL keys
(``rules/cluster_shards.py``): sites made to be hard for the shares (a URL listed in
several files and kinds with different alternates, a page holding a list that does not
name it, alternates listed only in a text sitemap or feed, other spellings, codes that
are errors, max-per-code 1), each judged by one index and in shares, which must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the shares match keys with numpy, which the dask extra brings")

from sitemap_ext.rules.cluster_shards import owner  # noqa: E402
from sitemap_ext.urls import url_key  # noqa: E402

from .test_cluster_shards import HEAD, _both, _logs  # noqa: E402

E = "https://e.com"


def _entry(loc: str, *links: tuple[str, str]) -> str:
    return f"<url><loc>{loc}</loc>" + "".join(
        f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links) + "</url>\n"


def _xml(path: Path, *entries: str) -> str:
    path.write_text(HEAD + "".join(entries) + "</urlset>\n", encoding="utf-8")
    return str(path)


def _apart(*urls: str) -> int:
    """A number of shares that gives each of these URLs a share of its own."""
    keys = [url_key(one) for one in urls]
    return next(n for n in range(2, 200) if len({owner(key, n) for key in keys}) == len(keys))


def test_a_page_holding_a_whole_list_it_is_not_in_is_examined_alike(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """/a and /k give the alternates of /en and /de, which name neither; /k is listed again
    in a text sitemap, so one index examines that list (a URL listed twice with other
    alternates) and says H104 at /a too. The share owning /a holds no listing of /k (its
    list does not name /k): it finds the list whole and says nothing at /a."""
    links = (("en", f"{E}/en"), ("de", f"{E}/de"))
    xml = _xml(tmp_path / "s.xml", _entry(f"{E}/en", *links), _entry(f"{E}/de", *links), _entry(f"{E}/a", *links),
               _entry(f"{E}/k", *links))
    (tmp_path / "t.txt").write_text(f"{E}/k\n", encoding="utf-8")
    logs = _logs([xml, str(tmp_path / "t.txt")], monkeypatch)
    one, many, _, _ = _both(logs, _apart(f"{E}/a", f"{E}/k"), None)
    assert [row[:6] for row in one[0] if row[5] == f"{E}/a"], one[0]  # (one index says something at /a)
    _show(one, many)
    assert many == one


def test_h111_is_said_where_one_index_says_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/a is listed twice, with list M (web sitemap) then list L (a second sitemap); /e holds
    L too. L names /h, which nothing lists. One index says H111 of (L, /h) while it
    examines /e, at L's first entry: /a in the second sitemap. The share owning /e takes its
    own entry as L's first (its owned entries come before those it asked for)."""
    m_links = (("en", f"{E}/a"), ("es", f"{E}/g"))
    l_links = (("en", f"{E}/a"), ("de", f"{E}/e"), ("fr", f"{E}/h"))
    first = _xml(tmp_path / "s1.xml", _entry(f"{E}/a", *m_links))
    second = _xml(tmp_path / "s2.xml", _entry(f"{E}/a", *l_links), _entry(f"{E}/e", *l_links))
    logs = _logs([first, second], monkeypatch)
    one, many, _, _ = _both(logs, _apart(f"{E}/a", f"{E}/e"), None)
    _show(one, many)
    assert many == one


def _show(one: object, many: object) -> None:
    if one != many:
        for name, seen in (("one index", one), ("shares", many)):
            print(f"--- {name}: counts {seen[1]}")  # type: ignore[index]
            for row in seen[0]:  # type: ignore[index]
                print("  ", row[:8])
