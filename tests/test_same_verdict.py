"""The same verdict everywhere: generated sites, valid and with planted defects.

* ``check site.yaml`` and ``build site.yaml`` (a dry run) report the same findings
  (code, severity, place);
* a defect planted in a description and the same defect in the XML the description
  gives are reported with the same code;
* the XML written from a valid site checks with no error or warning (regions of one
  language that share a URL included: Google documents that as valid).
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_ext import build, check
from sitemap_ext.rules.config import make_policy

NOW = "2026-01-01T00:00:00Z"
E = "https://e.com"
HEAD = ("site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n  es-MX: /mx/\n  es-AR: /ar/\n"
        "x_default: en\npages:\n")
LINK = '<xhtml:link rel="alternate" hreflang="{}" href="{}"/>'
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
          'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{}</urlset>\n')

# A defect: (its YAML page, or a key: value added to a plain page; the XML entries it gives).
VALUES = {"changefreq-case": ("changefreq", "Weekly"), "changefreq": ("changefreq", "sometimes"),
          "priority": ("priority", "'2'"), "priority-text": ("priority", "high"), "future": ("lastmod", "2030-01-01")}
DEFECTS = sorted(VALUES) + ["duplicate", "languages-share", "code-underscore", "code-country"]


def _pair_page(name: str) -> tuple[str, str]:
    """A cluster page with a planted hreflang defect, and the entries it gives as XML."""
    if name == "languages-share":  # one URL for two languages: H107
        url = f"{E}/x/shared"
        links = LINK.format("de", url) + LINK.format("en", url)
        return "  - urls: {en: /x/shared, de: /x/shared}\n", f"<url><loc>{url}</loc>{links}</url>\n"
    code = "en_US" if name == "code-underscore" else "jp"
    one, other = f"{E}/x/one", f"{E}/x/other"
    links = LINK.format("de", other) + LINK.format(code, one)
    yaml = f"  - urls: {{{code}: /x/one, de: /x/other}}\n"
    return yaml, f"<url><loc>{one}</loc>{links}</url>\n<url><loc>{other}</loc>{links}</url>\n"


sites = st.fixed_dictionaries({
    "paths": st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=4, unique=True),
    "shared": st.booleans(),  # es-MX and es-AR share one URL (valid)
    "plain": st.integers(1, 3),
    "defect": st.none() | st.sampled_from(DEFECTS),
})


def _yaml(site: dict[str, object]) -> str:
    out = HEAD
    for path in site["paths"]:  # type: ignore[attr-defined]
        if site["shared"]:
            out += f"  - urls: {{en: /en/{path}, de: /de/{path}, es-MX: /es/{path}, es-AR: /es/{path}}}\n"
        else:
            out += f"  - path: /{path}\n"
    for number in range(site["plain"]):  # type: ignore[call-overload]
        out += f"  - loc: /p{number}\n"
    return out


def _findings(collector: object) -> list[tuple[str, str, str | None, int | None, int | None]]:
    return sorted((d.code, d.severity.value, os.path.basename(d.file or ""), d.line, d.column)
                  for d in collector.diagnostics)  # type: ignore[attr-defined]


def _serious(collector: object) -> set[str]:
    return {d.code for d in collector.diagnostics if d.severity.value != "info"}  # type: ignore[attr-defined]


def _plant(site: dict[str, object], xml: str) -> tuple[str, str]:
    """The description with its defect, and the XML with the same defect."""
    defect = site["defect"]
    yaml = _yaml(site)
    if defect in VALUES:
        key, value = VALUES[defect]  # type: ignore[index]
        yaml = yaml.replace("  - loc: /p0\n", f"  - loc: /p0\n    {key}: {value}\n")
        text = value.strip("'")
        xml = xml.replace(f"<loc>{E}/p0</loc>", f"<loc>{E}/p0</loc><{key}>{text}</{key}>")
    elif defect == "duplicate":
        yaml += "  - loc: /p0\n"
        entry = f"<url><loc>{E}/p0</loc></url>\n"
        xml = xml.replace("</urlset>", entry + "</urlset>")
    else:
        page, entries = _pair_page(defect)  # type: ignore[arg-type]
        yaml += page
        xml = xml.replace("</urlset>", entries + "</urlset>")
    return yaml, xml


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sites)
def test_one_verdict_for_a_description_its_build_and_its_xml(site: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        valid = os.path.join(folder, "valid.yaml")
        with open(valid, "w", encoding="utf-8") as handle:
            handle.write(_yaml(site))
        out = os.path.join(folder, "out")
        built = build(valid, out, now=NOW)
        assert built.ok and _serious(built.collector) == set(), _findings(built.collector)
        written = os.path.join(out, "sitemap.xml")
        assert _serious(check([written], now=NOW).collector) == set()
        if site["defect"] is None:
            return
        with open(written, encoding="utf-8") as handle:
            xml = handle.read()
        yaml, xml = _plant(site, xml)
        planted = os.path.join(folder, "site.yaml")
        with open(planted, "w", encoding="utf-8") as handle:
            handle.write(yaml)
        planted_xml = os.path.join(folder, "planted.xml")
        with open(planted_xml, "w", encoding="utf-8") as handle:
            handle.write(xml)
        dry = build(planted, dry_run=True, now=NOW)
        checked = check([planted], now=NOW)
        assert _findings(dry.collector) == _findings(checked.collector)
        from_xml = check([planted_xml], now=NOW)
        assert _serious(dry.collector) == _serious(from_xml.collector) != set(), (
            _findings(dry.collector), _findings(from_xml.collector))


def test_a_policy_gives_build_and_check_one_verdict(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "site.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(_yaml({"paths": ["a"], "shared": True, "plain": 1, "defect": None})
                     + "  - loc: /q\n    priority: '2'\n")
    policy = make_policy([], [], {"D105": "info"})
    dry = build(path, dry_run=True, now=NOW, policy=policy)
    checked = check([path], now=NOW, policy=policy)
    assert _findings(dry.collector) == _findings(checked.collector) == [("D105", "info", "site.yaml", 13, 15)]
    assert dry.ok


# --- spellings of one URL, and locales that share one -------------------------------------

# Each name's spellings: raw and percent-encoded, '~' and '%7E', escapes in either case.
SPELLINGS = {"tilde": ["~a", "%7Ea", "%7ea"], "cafe": ["café", "caf%C3%A9", "caf%c3%a9"],
             "plain": ["p", "%70"], "space": ["a%20b", "a%20B"]}
ENGINE_ONLY = {"H112", "D103", "D109"}  # whole-file and cluster rules only the check's engine runs
spelled = st.tuples(st.sampled_from(sorted(SPELLINGS)), st.integers(0, 2))
spelling_sites = st.fixed_dictionaries({
    "locs": st.lists(spelled, max_size=4),  # plain pages
    "clusters": st.lists(st.lists(st.tuples(st.sampled_from(["en", "de", "es-MX", "es-AR"]), spelled),
                                  min_size=1, max_size=4), max_size=3),  # urls: mappings
    "paths": st.lists(spelled, max_size=2),  # a path under every locale
    "shared_base": st.booleans(),  # es-MX and es-AR on one base (/es/)
})


def _spelling(choice: tuple[str, int]) -> str:
    forms = SPELLINGS[choice[0]]
    return forms[choice[1] % len(forms)]


def _spelled_yaml(site: dict[str, object]) -> str:
    mx, ar = ("/es/", "/es/") if site["shared_base"] else ("/mx/", "/ar/")
    out = f"site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n  es-MX: {mx}\n  es-AR: {ar}\npages:\n"
    for choice in site["locs"]:  # type: ignore[attr-defined]
        out += f"  - loc: /x/{_spelling(choice)}\n"
    for cluster in site["clusters"]:  # type: ignore[attr-defined]
        urls = ", ".join(f"{code}: /y/{_spelling(choice)}" for code, choice in dict(cluster).items())
        out += f"  - urls: {{{urls}}}\n"
    for choice in site["paths"]:  # type: ignore[attr-defined]
        out += f"  - path: /{_spelling(choice)}\n"
    return out


def _judged(collector: object) -> set[tuple[str, str, str | None]]:
    return {(d.code, d.severity.value, d.url) for d in collector.diagnostics}  # type: ignore[attr-defined]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spelling_sites)
def test_spellings_of_one_url_and_shared_urls_get_one_verdict(site: dict[str, object]) -> None:
    """Whatever the spellings: the build's findings include every finding of the check of
    what it wrote (code, severity, URL); what it wrote lists each URL once (no U104 in
    the check); a dry run and ``check site.yaml`` agree."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "site.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(_spelled_yaml(site))
        out = os.path.join(folder, "out")
        built = build(path, out, now=NOW)
        written = sorted(os.path.join(out, name) for name in os.listdir(out) if name.endswith(".xml")) \
            if os.path.isdir(out) else []
        if written:
            checked = {f for f in _judged(check(written, now=NOW).collector) if f[0] not in ENGINE_ONLY}
            assert checked <= _judged(built.collector), (checked, _judged(built.collector))
            assert "U104" not in {code for code, _, _ in checked}
        else:
            assert not built.ok
        dry = build(path, dry_run=True, now=NOW)
        assert _findings(dry.collector) == _findings(check([path], now=NOW).collector)
        assert "O102" not in _serious(dry.collector) or not (site["locs"] or site["clusters"] or site["paths"])
