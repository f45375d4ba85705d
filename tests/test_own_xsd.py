"""The video and news schemas in tests/data/xsd are this project's own (README.md there
says what each constraint comes from). They must give the verdict Google's published
schemas give on every document the tests validate: the goldens, every example built,
the real-world sitemaps with video or news, and hand-made documents that each break one
documented constraint. The own-schema part never skips. Where Google's originals are on
this machine (``shared/xsd`` beside a folder that holds the checkout, as the tests once
read them), the same documents go through them too and the verdicts are compared;
elsewhere that comparison skips, saying why."""

from __future__ import annotations

import gzip
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sitemap_ext import build

from .conftest import ROOT, SCHEMAS, XSD

REALWORLD = ROOT / "tests" / "data" / "realworld" / "sitemaps"
EXAMPLES = sorted((ROOT / "examples").glob("*/site.yaml"))
GOLDENS = sorted(p for p in (ROOT / "tests" / "golden").rglob("*") if p.name.endswith((".xml", ".xml.gz")))
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"


def test_no_schema_here_carries_a_notice_we_hold_no_licence_for() -> None:
    """Google's video and news schemas say "Copyright 2010 Google Inc. All Rights
    Reserved." and grant no licence: the repository keeps its own instead, and the
    README's table says so."""
    for path in SCHEMAS.glob("*.xsd"):
        text = path.read_text(encoding="utf-8")
        assert "All Rights Reserved" not in text and "Google Inc" not in text, path.name
    rows = {line.split("|")[1].strip(): line for line in (SCHEMAS / "README.md").read_text(encoding="utf-8")
            .splitlines() if line.startswith("| sitemap-")}
    for name in ("sitemap-video.xsd", "sitemap-news.xsd"):
        assert "written for this project" in rows[name] and "(MIT)" in rows[name], rows[name]


def _google_schemas() -> Path | None:
    """Google's originals, if this machine keeps them in shared/xsd beside the checkout
    or beside one of its parent folders (a worktree sits a level deeper)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "xsd"
        video = candidate / "sitemap-video.xsd"
        if (candidate / "all.xsd").is_file() and video.is_file() and b"Google Inc" in video.read_bytes():
            return candidate
    return None


GOOGLE_DIR = _google_schemas()
OWN = etree.XMLSchema(etree.parse(str(XSD), etree.XMLParser(no_network=True)))
GOOGLE = etree.XMLSchema(etree.parse(str(GOOGLE_DIR / "all.xsd"))) if GOOGLE_DIR else None
NO_GOOGLE = ("Google's published video and news schemas are not on this machine (shared/xsd beside the "
             "checkout); the repository keeps no copy of them, having no licence for one")


def _parse(data: bytes) -> etree._Element:
    return etree.fromstring(data, etree.XMLParser(no_network=True, resolve_entities=False))


def _verdict(schema: etree.XMLSchema, doc: etree._Element) -> tuple[bool, str]:
    """Valid or not, and the first error's message ('' when valid)."""
    ok = schema.validate(doc)
    return ok, "" if ok else str(schema.error_log).splitlines()[0]


# ----- (a) the documents the suite holds -----

# Real-world sitemaps that declare the video or news namespace and that Google's schema
# rejects, each with the element its first error names: ours rejects them at the same
# element. Every other such file is valid for both.
REALWORLD_REJECTED = {
    "crawler-commons-cms/hebdenbridgetimes-articles-sitemap.xml": "sitemap-mobile/1.0}mobile",
    "java-sitemapgen4j/news-genres.xml": "news/0.9}genres",
    "java-sitemapgen4j/video-options.xml": "video/1.1}content_loc",
    "nextsitemap-lib/exclude-undefined.xml": "sitemap/0.9}lastmod",
    "nextsitemap-lib/image.xml": "image/1.1}geo_location",
    "nextsitemap-lib/video.xml": "video/1.1}title",
    "nuxt-sitemap/news.xml": "news/0.9}title",
    "nuxt-sitemap/video.xml": "video/1.1}title",
    "python-usp-docs/google-news.xml": "news/0.9}publication",
    "rust-sitemap-rs/urlset-all-fields.xml": "sitemap/0.9}lastmod",
    "simplemvcsitemap/sitemap-node-video-all.xml": "video/1.1}tag",
    "simplemvcsitemap/sitemap-node-video-multiple.xml": "video/1.1}tag",
    "sitemapjs/alltags.cdata.xml": "xhtml}link",
    "sitemapjs/alltags.xml": "xhtml}link",
    "sitemapjs/bad-tag-sitemap.xml": "sitemap/0.9}foo",
    "spatie-laravel-sitemap/news-embedded.xml": "news/0.9}title",
    "spatie-laravel-sitemap/video-embedded.xml": "video/1.1}family_friendly",
}
REALWORLD_UNPARSEABLE = {"sitemapjs/unescaped-lt.xml"}  # not XML: no schema sees it


def _realworld() -> list[str]:
    found = []
    for path in sorted(REALWORLD.rglob("*")):
        if path.is_file() and (VIDEO_NS.encode() in path.read_bytes() or NEWS_NS.encode() in path.read_bytes()):
            found.append(path.relative_to(REALWORLD).as_posix())
    return found


REALWORLD_FILES = _realworld()


def _read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def test_the_documents_are_there() -> None:
    """The lists below are not empty by accident: goldens with video and news, and the
    real-world files the table above names."""
    assert len(GOLDENS) >= 9 and len(EXAMPLES) >= 8
    golden_text = b"".join(_read(p) for p in GOLDENS)
    assert VIDEO_NS.encode() in golden_text and NEWS_NS.encode() in golden_text
    assert set(REALWORLD_REJECTED) | REALWORLD_UNPARSEABLE <= set(REALWORLD_FILES)
    assert len(set(REALWORLD_FILES) - set(REALWORLD_REJECTED) - REALWORLD_UNPARSEABLE) >= 20


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.relative_to(ROOT / "tests" / "golden").as_posix())
def test_every_golden_is_valid(path: Path) -> None:
    doc = _parse(_read(path))
    ok, message = _verdict(OWN, doc)
    assert ok, message


@pytest.mark.parametrize("name", REALWORLD_FILES)
def test_a_real_world_sitemap_gets_the_published_schemas_verdict(name: str) -> None:
    data = (REALWORLD / name).read_bytes()
    if name in REALWORLD_UNPARSEABLE:
        with pytest.raises(etree.XMLSyntaxError):
            _parse(data)
        return
    doc = _parse(data)
    ok, message = _verdict(OWN, doc)
    if name in REALWORLD_REJECTED:
        assert not ok and REALWORLD_REJECTED[name] in message, message
    else:
        assert ok, message


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Every example built once: its name -> the XML files written."""
    files = {}
    for site in EXAMPLES:
        out = tmp_path_factory.mktemp(site.parent.name)
        assert build(str(site), str(out), now="2026-11-21T12:00:00Z").ok
        files[site.parent.name] = sorted(p for p in out.rglob("*") if p.name.endswith((".xml", ".xml.gz")))
    return files


@pytest.mark.parametrize("name", [site.parent.name for site in EXAMPLES])
def test_every_example_built_is_valid(name: str, built: dict[str, list[Path]]) -> None:
    assert built[name]
    for path in built[name]:
        ok, message = _verdict(OWN, _parse(_read(path)))
        assert ok, f"{path.name}: {message}"


# ----- (b) hand-made documents, each breaking one documented constraint -----

# Every element of both extensions, in the published schemas' order, valid for both.
VIDEO = """<video:video>
  <video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>
  <video:title>Grilling steaks</video:title>
  <video:description>How to grill.</video:description>
  <video:content_loc>https://e.com/v.mp4</video:content_loc>
  <video:player_loc allow_embed="yes" autoplay="ap=1">https://e.com/player</video:player_loc>
  <video:duration>600</video:duration>
  <video:expiration_date>2027-11-05T19:20:30+08:00</video:expiration_date>
  <video:rating>4.2</video:rating>
  <video:content_segment_loc duration="30">https://e.com/s1.mp4</video:content_segment_loc>
  <video:view_count>12345</video:view_count>
  <video:publication_date>2026-11-05</video:publication_date>
  <video:tag>steak</video:tag>
  <video:category>Grilling</video:category>
  <video:family_friendly>yes</video:family_friendly>
  <video:restriction relationship="allow">IE GB US CA</video:restriction>
  <video:gallery_loc title="Cooking">https://e.com/gallery</video:gallery_loc>
  <video:price currency="EUR" type="rent" resolution="HD">1.99</video:price>
  <video:requires_subscription>no</video:requires_subscription>
  <video:uploader info="https://e.com/users/grill">Grill Master</video:uploader>
  <video:tvshow>
    <video:show_title>Grill</video:show_title>
    <video:video_type>full</video:video_type>
    <video:episode_title>Steak</video:episode_title>
    <video:season_number>1</video:season_number>
    <video:episode_number>8</video:episode_number>
    <video:premier_date>2026-01-01</video:premier_date>
  </video:tvshow>
  <video:platform relationship="allow">web tv</video:platform>
  <video:live>no</video:live>
  <video:id type="url">https://e.com/id/1</video:id>
</video:video>"""
NEWS = """<news:news>
  <news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
  <news:access>Subscription</news:access>
  <news:genres>PressRelease, Blog</news:genres>
  <news:publication_date>2026-11-20T10:00:00Z</news:publication_date>
  <news:title>Companies A, B in merger talks</news:title>
  <news:keywords>business, merger</news:keywords>
  <news:stock_tickers>NASDAQ:A, NASDAQ:B</news:stock_tickers>
</news:news>"""


def document(video: str = VIDEO, news: str = NEWS) -> bytes:
    return (f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="{VIDEO_NS}" '
            f'xmlns:news="{NEWS_NS}"><url><loc>https://e.com/a</loc>{video}{news}</url></urlset>').encode()


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines(keepends=True) if line.lstrip().startswith(start))


def _turn(text: str, first: str, second: str) -> str:
    """The two adjacent lines that start so, in the other order."""
    pair = _line(text, first) + _line(text, second)
    return _swap(text, pair, _line(text, second) + _line(text, first))


def _part(text: str, old: str, new: str) -> str:
    """One change: ``old`` the start of a line takes the whole line; else the text itself."""
    starts = [line for line in text.splitlines(keepends=True) if line.lstrip().startswith(old)]
    return _swap(text, starts[0] if starts else old, new)


def _v(old: str, new: str = "") -> tuple[str, str]:
    return _part(VIDEO, old, new), NEWS


def _n(old: str, new: str = "") -> tuple[str, str]:
    return VIDEO, _part(NEWS, old, new)


TAG = "<video:tag>steak</video:tag>"
# (what it breaks, (video, news), the element or attribute the first error names)
BROKEN = [
    ("video: thumbnail_loc is required", _v("<video:thumbnail_loc"), "video/1.1}title"),
    ("video: title is required", _v("<video:title"), "video/1.1}description"),
    ("video: description is required", _v("<video:description"), "video/1.1}content_loc"),
    ("video: title of 101 characters", _v("Grilling steaks", "x" * 101), "video/1.1}title"),
    ("video: description of 2049 characters", _v("How to grill.", "x" * 2049), "video/1.1}description"),
    ("video: order (rating before expiration_date)",
     (_turn(VIDEO, "<video:expiration_date", "<video:rating"), NEWS), "video/1.1}expiration_date"),
    ("video: an element the extension has not", _v("</video:live>", "</video:live><video:colour>red</video:colour>"),
     "video/1.1}colour"),
    ("video: duration over 28,800 seconds", _v(">600<", ">28801<"), "video/1.1}duration"),
    ("video: duration not a number", _v(">600<", ">10m<"), "video/1.1}duration"),
    ("video: expiration_date not W3C", _v("2027-11-05T19:20:30+08:00", "05/11/2027"), "video/1.1}expiration_date"),
    ("video: rating over 5.0", _v(">4.2<", ">5.1<"), "video/1.1}rating"),
    ("video: rating under 0.0", _v(">4.2<", ">-0.5<"), "video/1.1}rating"),
    ("video: view_count negative", _v(">12345<", ">-1<"), "video/1.1}view_count"),
    ("video: publication_date not W3C", _v("2026-11-05<", "yesterday<"), "video/1.1}publication_date"),
    ("video: 33 tags", _v(TAG, TAG * 33), "video/1.1}tag"),
    ("video: category over 256 characters", _v(">Grilling<", f">{'x' * 257}<"), "video/1.1}category"),
    ("video: family_friendly neither yes nor no", _v("friendly>yes<", "friendly>true<"), "video/1.1}family_friendly"),
    ("video: restriction's relationship neither allow nor deny", _v('"allow">IE', '"block">IE'), "relationship"),
    ("video: restriction without its relationship", _v(' relationship="allow">IE', ">IE"), "relationship"),
    ("video: restriction's countries in lower case", _v("IE GB US CA", "ie gb"), "video/1.1}restriction"),
    ("video: restriction's countries separated by commas", _v("IE GB US CA", "IE,GB"), "video/1.1}restriction"),
    ("video: platform other than web, mobile, tv", _v(">web tv<", ">web desktop<"), "video/1.1}platform"),
    ("video: platform without its relationship", _v(' relationship="allow">web', ">web"), "relationship"),
    ("video: price currency not ISO 4217", _v('currency="EUR"', 'currency="euro"'), "currency"),
    ("video: price type neither rent nor own", _v('type="rent"', 'type="lease"'), "type"),
    ("video: price resolution neither HD nor SD", _v('resolution="HD"', 'resolution="4K"'), "resolution"),
    ("video: requires_subscription neither yes nor no", _v("subscription>no<", "subscription>0<"),
     "video/1.1}requires_subscription"),
    ("video: uploader with another attribute than info", _v('info="', 'href="'), "href"),
    ("video: live neither yes nor no", _v("live>no<", "live>maybe<"), "video/1.1}live"),
    ("video: player_loc's allow_embed neither yes nor no", _v('allow_embed="yes"', 'allow_embed="1"'), "allow_embed"),
    ("video: tvshow without its video_type", _v("<video:video_type"), "video/1.1}episode_title"),
    ("video: id in an unknown context", _v('type="url">', 'type="isbn">'), "type"),
    ("video: a child of video straight in a url", (VIDEO + "<video:title>Stray</video:title>", NEWS),
     "video/1.1}title"),
    ("news: publication without its language", _n("<news:language>en</news:language>"), "news/0.9}publication"),
    ("news: language neither ISO 639 nor zh-cn/zh-tw", _n(">en<", ">English<"), "news/0.9}language"),
    ("news: language in upper case", _n(">en<", ">EN<"), "news/0.9}language"),
    ("news: publication is required", _n("<news:publication>"), "news/0.9}access"),
    ("news: publication_date is required", _n("<news:publication_date"), "news/0.9}title"),
    ("news: publication_date not W3C", _n("2026-11-20T10:00:00Z", "20 Nov 2026"), "news/0.9}publication_date"),
    ("news: title is required", _n("<news:title"), "news/0.9}keywords"),
    ("news: order (title before publication_date)",
     (VIDEO, _turn(NEWS, "<news:publication_date", "<news:title")), "news/0.9}publication_date"),
    ("news: access neither Subscription nor Registration", _n(">Subscription<", ">Free<"), "news/0.9}access"),
    ("news: a genre the old schema does not list", _n("PressRelease, Blog", "PressRelease, News"), "news/0.9}genres"),
    ("news: six stock tickers", _n("NASDAQ:A, NASDAQ:B", ", ".join(["NASDAQ:A"] * 6)), "news/0.9}stock_tickers"),
    ("news: a stock ticker without its exchange", _n("NASDAQ:A, NASDAQ:B", "AMAT"), "news/0.9}stock_tickers"),
]


# Forms both take: the either/or of content_loc and player_loc, yes/no in the case forms
# the published schema lists, an empty price with its type, the two Chinese codes...
VARIANTS = [
    ("video: player_loc alone", _v("<video:content_loc")),
    ("video: content_loc alone", _v("<video:player_loc")),
    ("video: only what is required", ("<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>"
     "<video:title>T</video:title><video:description>D</video:description>"
     "<video:content_loc>https://e.com/v.mp4</video:content_loc></video:video>", NEWS)),
    ("video: Yes and NO", (_swap(_swap(VIDEO, "friendly>yes<", "friendly>Yes<"), "live>no<", "live>NO<"), NEWS)),
    ("video: duration 28800 and 1 second segments",
     (_swap(_swap(VIDEO, ">600<", ">28800<"), 'duration="30"', 'duration="1"'), NEWS)),
    ("video: an empty price with its type",
     _v('currency="EUR" type="rent" resolution="HD">1.99<', 'type="purchase">  <')),
    ("video: 32 tags", _v(TAG, TAG * 32)),
    ("video: deny and an empty country list", _v('"allow">IE GB US CA', '"deny">')),
    ("news: zh-tw, a date alone, only what is required", (VIDEO,
     "<news:news><news:publication><news:name>N</news:name><news:language>zh-tw</news:language></news:publication>"
     "<news:publication_date>2026-11-20</news:publication_date><news:title>T</news:title></news:news>")),
    ("news: a three-letter language and five tickers",
     (VIDEO, _swap(_swap(NEWS, ">en<", ">haw<"), "NASDAQ:A, NASDAQ:B", ",".join(["NYSE:X"] * 5)))),
]


@pytest.mark.parametrize("parts", [case[1] for case in VARIANTS], ids=[case[0] for case in VARIANTS])
def test_a_form_both_take_is_valid(parts: tuple[str, str]) -> None:
    doc = _parse(document(*parts))
    ok, message = _verdict(OWN, doc)
    assert ok, message


def test_the_whole_document_is_valid() -> None:
    doc = _parse(document())
    ok, message = _verdict(OWN, doc)
    assert ok, message


@pytest.mark.parametrize(("parts", "named"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN])
def test_a_document_breaking_one_constraint_is_rejected(parts: tuple[str, str], named: str) -> None:
    doc = _parse(document(*parts))
    ok, message = _verdict(OWN, doc)
    assert not ok and named in message, message


# ----- where the own schemas follow the documentation and Google's published schema does not -----

# (what differs, video, news, the own schema's verdict); Google's published schema gives the other.
DELIBERATE = [
    ("video: duration 0 (the documentation's range starts at 1)", _v(">600<", ">0<"), False),
    ("video: neither content_loc nor player_loc (the documentation requires one)",
     (_swap(_swap(VIDEO, _line(VIDEO, "<video:content_loc"), ""), _line(VIDEO, "<video:player_loc"), ""), NEWS), False),
    ("video: price type own (the documentation's; the published schema has purchase)",
     _v('type="rent"', 'type="own"'), True),
    ("video: a price that is no number (a non-negative decimal or empty)", _v(">1.99<", ">free<"), False),
    ("video: uploader over 255 characters", _v(">Grill Master<", f">{'x' * 256}<"), False),
]


@pytest.mark.parametrize(("parts", "own"), [case[1:] for case in DELIBERATE], ids=[case[0] for case in DELIBERATE])
def test_where_the_documentation_is_stricter_or_wider_than_the_published_schema(parts: tuple[str, str],
                                                                                 own: bool) -> None:
    """Not a difference on any document the suite validates: each is named in README.md;
    the comparison below checks that the published schema gives the other verdict."""
    doc = _parse(document(*parts))
    ok, message = _verdict(OWN, doc)
    assert ok == own, message


# ----- generated values against the documented bounds -----

def _video_with(**values: str) -> etree._Element:
    video = VIDEO
    for name, value in values.items():
        video = _swap(video, _line(video, f"<video:{name}"), f"<video:{name}>{value}</video:{name}>\n")
    return _parse(document(video))


def _google_says(doc: etree._Element) -> bool | None:
    return None if GOOGLE is None else bool(GOOGLE.validate(doc))


@settings(max_examples=60, deadline=None)
@given(seconds=st.integers(-5, 28805) | st.sampled_from([0, 1, 28800, 28801]))
def test_a_duration_is_valid_from_1_to_28800_seconds(seconds: int) -> None:
    doc = _video_with(duration=str(seconds))
    assert OWN.validate(doc) == (1 <= seconds <= 28800)
    assert _google_says(doc) in (None, 0 <= seconds <= 28800)  # the published schema takes 0


@settings(max_examples=60, deadline=None)
@given(rating=st.decimals(min_value=-1, max_value=6, places=2, allow_nan=False, allow_infinity=False))
def test_a_rating_is_valid_from_0_to_5(rating: Decimal) -> None:
    doc = _video_with(rating=str(rating))
    assert OWN.validate(doc) == (0 <= rating <= 5)
    assert _google_says(doc) in (None, OWN.validate(doc))


@settings(max_examples=40, deadline=None)
@given(value=st.sampled_from(["yes", "no", "Yes", "No", "YES", "NO", "yEs", "true", "1", "", " yes"])
       | st.text(max_size=4))
def test_yes_or_no_in_the_listed_forms_only(value: str) -> None:
    escaped = value.replace("&", "&amp;").replace("<", "&lt;")
    try:
        doc = _video_with(live=escaped, family_friendly=escaped, requires_subscription=escaped)
    except etree.XMLSyntaxError:
        return  # a character XML does not allow: no document to validate
    assert OWN.validate(doc) == (value in {"yes", "no", "Yes", "No", "YES", "NO"})
    assert _google_says(doc) in (None, OWN.validate(doc))


@settings(max_examples=20, deadline=None)
@given(count=st.integers(0, 40))
def test_at_most_32_tags(count: int) -> None:
    doc = _parse(document(_swap(VIDEO, "<video:tag>steak</video:tag>", "<video:tag>t</video:tag>" * count)))
    assert OWN.validate(doc) == (count <= 32)
    assert _google_says(doc) in (None, OWN.validate(doc))


# ----- the same documents through Google's published schemas, where a copy is here -----

needs_google = pytest.mark.skipif(GOOGLE is None, reason=NO_GOOGLE)


def _fixed_documents() -> list[tuple[str, bytes, bool, str]]:
    """(id, document, the published schemas' verdict, what their first error names)."""
    docs = [(f"golden {p.relative_to(ROOT / 'tests' / 'golden').as_posix()}", _read(p), True, "") for p in GOLDENS]
    docs += [(f"real-world {name}", (REALWORLD / name).read_bytes(), name not in REALWORLD_REJECTED,
              REALWORLD_REJECTED.get(name, "")) for name in REALWORLD_FILES if name not in REALWORLD_UNPARSEABLE]
    docs.append(("the whole document", document(), True, ""))
    docs += [(case[0], document(*case[1]), False, case[2]) for case in BROKEN]
    docs += [(case[0], document(*case[1]), True, "") for case in VARIANTS]
    docs += [(case[0], document(*case[1]), not case[2], "") for case in DELIBERATE]
    return docs


FIXED = _fixed_documents()


@needs_google
@pytest.mark.parametrize(("data", "google", "named"), [doc[1:] for doc in FIXED], ids=[doc[0] for doc in FIXED])
def test_google_s_schemas_give_the_verdict_the_own_tests_expect(data: bytes, google: bool, named: str) -> None:
    """With the own-schema tests above, the same verdict as ours on every document but
    the deliberate differences, and the same element named by the first error."""
    assert GOOGLE is not None
    ok, message = _verdict(GOOGLE, _parse(data))
    assert ok == google and named in message, message


@needs_google
@pytest.mark.parametrize("name", [site.parent.name for site in EXAMPLES])
def test_every_example_built_is_valid_for_google_s_schemas(name: str, built: dict[str, list[Path]]) -> None:
    assert GOOGLE is not None and built[name]
    for path in built[name]:
        ok, message = _verdict(GOOGLE, _parse(_read(path)))
        assert ok, f"{path.name}: {message}"
