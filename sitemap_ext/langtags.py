"""hreflang values judged strictly: BCP 47 through langcodes, names through babel, and
Google's stricter rules on top. The only module that imports langcodes or babel.

Google takes ``language[-Script][-REGION]``: an ISO 639-1 language (ISO 639-2/3
where no two-letter code exists), an optional ISO 15924 script and an optional
ISO 3166-1 alpha-2 region, or ``x-default``. langcodes alone is too lenient:
``tag_is_valid('en-UK')`` is True because it maps UK to GB, and it takes
``en-EU``, ``es-419`` and ``iw``; so the structure is parsed here and each subtag
checked on its own, with ``Language.get(tag, normalize=False).is_valid()`` as the
strict BCP 47 test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale

X_DEFAULT = "x-default"

# ISO 3166-1 alpha-2 codes that appear in region lists but are not assigned country
# codes (CLDR macro-regions, exceptionally reserved and user-assigned codes).
NOT_REGIONS = {
    "EU": "the European Union", "EZ": "the Eurozone", "UN": "the United Nations",
    "QO": "Outlying Oceania", "XA": "a pseudo-locale", "XB": "a pseudo-locale", "ZZ": "an unknown region",
    "XK": "Kosovo (a user-assigned code, not ISO 3166-1)", "AC": "Ascension Island (reserved)",
    "CP": "Clipperton Island (reserved)", "DG": "Diego Garcia (reserved)", "EA": "Ceuta and Melilla (reserved)",
    "IC": "the Canary Islands (reserved)", "TA": "Tristan da Cunha (reserved)", "CQ": "Sark (reserved)",
    "UK": "reserved; the United Kingdom is GB",
}
REGION_FIXES = {"UK": "GB"}
# Country codes written where a language belongs: the language meant.
COUNTRY_AS_LANGUAGE = {"gr": "el", "jp": "ja", "cn": "zh", "dk": "da", "ua": "uk", "cz": "cs", "kr": "ko",
                       "vn": "vi"}
# 'se' is Northern Sami (a language of its own) and Sweden's country code: often
# Swedish written wrong, but valid, so only a warning (L112), and suggested as sv.
SAMI_OR_SWEDISH = "se"
# Withdrawn ISO 639 codes and their replacements.
DEPRECATED = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}
# Codes that name no language.
NO_LANGUAGE = {"und": "undetermined", "mul": "multiple languages", "zxx": "no linguistic content",
               "mis": "uncoded languages"}

_SHAPE = re.compile(r"([A-Za-z]{2,3})(?:-([A-Za-z]{4}))?(?:-([A-Za-z]{2}|[0-9]{3}))?")


# langcodes and babel load when a tag is first judged or named (most of a start-up's
# import time where no hreflang is written or read): _english(), _regions(), _scripts().
@cache
def _english() -> Locale:
    from babel import Locale

    return Locale("en")


@cache
def _regions() -> frozenset[str]:
    return frozenset(t for t in _english().territories if isinstance(t, str) and len(t) == 2 and t.isalpha()) \
        - set(NOT_REGIONS)


@cache
def _scripts() -> frozenset[str]:
    return frozenset(s for s in _english().scripts if isinstance(s, str) and len(s) == 4 and not s.startswith("Q"))


def is_country(code: str) -> bool:
    """An assigned ISO 3166-1 alpha-2 country code, in upper case (CLDR's territories,
    less macro-regions and reserved or user-assigned codes such as UK, EU, XK, ZZ)."""
    return code in _regions()


def country_fix(code: str) -> str | None:
    """The assigned code meant by a misspelt one (gb for GB, UK for GB), if evident."""
    upper = REGION_FIXES.get(code.upper(), code.upper())
    return upper if upper in _regions() else None


@dataclass(frozen=True, slots=True)
class TagProblem:
    code: str
    message: str
    suggestion: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    tag: str
    canonical: str | None  # the form to write; None when the tag is unusable (an error)
    name: str | None  # "German (Austria)"
    problems: tuple[TagProblem, ...] = ()
    # What the link counts as in the cluster rules when the tag is an error with an
    # evident meaning (en-UK counts as en-GB): one mistake, one finding.
    counts_as: str | None = None

    @property
    def ok(self) -> bool:
        return self.canonical is not None


def display_name(tag: str) -> str | None:
    """The English name of a tag through CLDR: 'de-AT' -> 'German (Austria)'."""
    if tag.lower() == X_DEFAULT:
        return "default (no language matches)"
    match = _SHAPE.fullmatch(tag)
    if match is None:
        return None
    lang, script, region = match.groups()
    english = _english()
    name = english.languages.get(lang.lower())
    if name is None:
        return None
    details = [d for d in (english.scripts.get(script.title()) if script else None,
                           english.territories.get(region.upper()) if region else None) if d]
    return f"{name} ({', '.join(details)})" if details else name


def _named(tag: str) -> str:
    name = display_name(tag)
    return f"{tag} ({name})" if name else tag


def _is_language(code: str) -> bool:
    code = code.lower()
    if code in NO_LANGUAGE or "qaa" <= code <= "qtz":
        return False
    import langcodes

    try:
        return bool(langcodes.Language.get(code, normalize=False).is_valid())
    except (ValueError, LookupError):
        return False


def _likely_language(region: str) -> str | None:
    import langcodes

    try:
        language = langcodes.Language.get(f"und-{region}").maximize().language
    except (ValueError, LookupError):
        return None
    return language if language and language != "und" else None


def _error(tag: str, code: str, message: str, suggestion: str | None = None, counts_as: str | None = None) -> Verdict:
    if counts_as is None and suggestion is not None and code != "L105":
        counts_as = suggestion  # a region alone (L105) has no evident language: a guess counts as nothing
    return Verdict(tag, None, None, (TagProblem(code, message, suggestion),), counts_as)


@lru_cache(maxsize=4096)
def accepted(tag: str) -> str:
    """The canonical form of a tag judge() finds nothing to say about; "" otherwise
    (for callers that map it over many tags at once)."""
    verdict = judge(tag)
    return "" if verdict.problems else verdict.canonical or ""


@lru_cache(maxsize=4096)
def judge(tag: str) -> Verdict:
    """Whether Google accepts ``tag`` as an hreflang value; the fix where there is one."""
    if tag.lower() == X_DEFAULT:
        return _x_default(tag)
    if "_" in tag:
        fixed = tag.replace("_", "-")
        suggestion = judge(fixed).canonical or fixed
        return _error(tag, "L101", f"'{tag}' uses an underscore; hreflang subtags are joined by '-': "
                      f"{_named(suggestion)}", suggestion)
    match = _SHAPE.fullmatch(tag)
    if match is None:
        return _reject_shape(tag, tag.split("-"))
    lang, script, region = match.groups()
    low = lang.lower()
    misused = _misused_language(tag, lang, script, region)
    if misused is not None:
        return misused
    if not _is_language(low):
        return _reject_language(tag, lang, script, region)
    problems: list[TagProblem] = []
    if len(low) == 3:
        problems.append(TagProblem("L109", f"'{lang}' ({display_name(low) or 'a language'}) has no ISO 639-1 "
                                   "code; Google documents two-letter codes, so check it is recognised"))
    if script is not None and script.title() not in _scripts():
        return _error(tag, "L111", f"'{script}' in '{tag}' is not an ISO 15924 script")
    if region is not None:
        wrong = _judge_region(tag, low, script, region, problems)
        if wrong is not None:
            return wrong
    canonical = _compose(low, script, region)
    if canonical != tag:
        problems.append(TagProblem("L108", f"'{tag}' is usually written {_named(canonical)}; tags are "
                                   "case-insensitive, so this is only style", canonical))
    return Verdict(tag, canonical, display_name(canonical), tuple(problems))


def _x_default(tag: str) -> Verdict:
    """x-default, in any case."""
    if tag != X_DEFAULT:
        return Verdict(tag, X_DEFAULT, display_name(tag),
                       (TagProblem("L108", f"write '{X_DEFAULT}' in lower case", X_DEFAULT),))
    return Verdict(tag, X_DEFAULT, display_name(tag))


def _misused_language(tag: str, lang: str, script: str | None, region: str | None) -> Verdict | None:
    """The verdict on a language subtag that is a known mistake (Sami for Swedish, a
    country code, a withdrawn code, a three-letter code that has a two-letter one);
    None when it is none of those."""
    low = lang.lower()
    if low == SAMI_OR_SWEDISH and script is None and (region is None or region.upper() == "SE"):
        fix = _compose("sv", script, region)
        canonical = _compose(low, script, region)
        return Verdict(tag, canonical, display_name(canonical), (TagProblem(
            "L112", f"'{tag}' is Northern Sami; if the page is in Swedish, the code is 'sv': {_named(fix)}", fix),))
    if low in COUNTRY_AS_LANGUAGE:
        fix = _compose(COUNTRY_AS_LANGUAGE[low], script, region)
        return _error(tag, "L103", f"'{lang}' is a country code, not a language; the language is "
                      f"'{COUNTRY_AS_LANGUAGE[low]}': {_named(fix)}", fix)
    if low in DEPRECATED:
        fix = _compose(DEPRECATED[low], script, region)
        return _error(tag, "L104", f"'{lang}' is a withdrawn ISO 639 code; use '{DEPRECATED[low]}': "
                      f"{_named(fix)}", fix)
    if len(low) == 3:
        import langcodes

        two = langcodes.standardize_tag(low)
        if len(two) == 2 and _is_language(two):
            fix = _compose(two, script, region)
            return _error(tag, "L110", f"'{lang}' has a two-letter ISO 639-1 code, '{two}'; Google expects it: "
                          f"{_named(fix)}", fix)
    return None


def _judge_region(tag: str, low: str, script: str | None, region: str, problems: list[TagProblem]) -> Verdict | None:
    """The verdict when the region makes the tag an error; None when it does not (a UN
    M.49 region is added to ``problems`` as a warning)."""
    upper = region.upper()
    if upper.isdigit():
        fix = _compose(low, script, None)
        problems.append(TagProblem("L107", f"'{region}' is a UN M.49 region, which Google does not take; use "
                                   f"'{fix}', or one tag per country", fix))
    elif upper in NOT_REGIONS:
        meant = _compose(low, script, REGION_FIXES[upper]) if upper in REGION_FIXES else None
        advice = f": {_named(meant)}" if meant else "; name a country, or leave the region out"
        return _error(tag, "L102", f"'{region}' is not an ISO 3166-1 country code ({NOT_REGIONS[upper]})"
                      f"{advice}", meant, counts_as=meant or _compose(low, script, None))
    elif upper == "LA" and low != "lo":
        return _error(tag, "L102", f"'LA' is Laos, not Latin America; Google takes no region for Latin "
                      f"America: use '{low}', or one tag per country ({low}-MX, {low}-AR, ...)", low)
    elif upper not in _regions():
        return _error(tag, "L102", f"'{region}' is not an ISO 3166-1 country code", counts_as=low)
    return None


def _compose(lang: str, script: str | None, region: str | None) -> str:
    out = lang.lower()
    if script:
        out += "-" + script.title()
    if region:
        out += "-" + region.upper()
    return out


def _reject_language(tag: str, lang: str, script: str | None, region: str | None) -> Verdict:
    upper = lang.upper()
    if len(lang) == 2 and upper in _regions() and script is None:
        if region is not None and _is_language(region):
            fix = _compose(region, None, upper)
            return _error(tag, "L106", f"'{tag}' has region and language reversed: {_named(fix)}", fix)
        if region is None:
            likely = _likely_language(upper)
            guess = _compose(likely, None, upper) if likely else None
            advice = f", such as {_named(guess)}" if guess else ""
            return _error(tag, "L105", f"'{tag}' is a region alone; hreflang needs a language first{advice}", guess)
    if lang.lower() in NO_LANGUAGE:
        return _error(tag, "L111", f"'{lang}' means {NO_LANGUAGE[lang.lower()]}, not a language")
    return _error(tag, "L111", f"'{lang}' is not an ISO 639 language code")


def _reject_shape(tag: str, parts: list[str]) -> Verdict:
    if parts[0].lower() == "x":
        return _error(tag, "L111", f"'{tag}' is a private-use tag; Google takes language, script and region only")
    for cut in (3, 2, 1):
        head = "-".join(parts[:cut])
        if len(parts) > cut and _SHAPE.fullmatch(head) and judge(head).ok:
            fix = judge(head).canonical
            return _error(tag, "L111", f"'{tag}' has subtags Google does not take (variants, extensions, "
                          f"private use); keep language, script and region: '{fix}'", fix)
    return _error(tag, "L111", f"'{tag}' is not a language tag (language[-Script][-REGION], or x-default)")


def language_of(tag: str) -> str:
    """The language subtag of a canonical tag ('es' of 'es-MX'); x-default is its own."""
    return tag if tag == X_DEFAULT else tag.split("-", 1)[0]


# gettext's @modifiers that name a script (Sphinx's own sr@latin); any other (ca@valencia)
# names no part of an hreflang code Google reads, and a .codeset (zh_TW.Big5) none either
_GETTEXT_SCRIPTS = {"latin": "Latn", "cyrillic": "Cyrl", "arabic": "Arab", "devanagari": "Deva"}


def from_locale(name: str) -> str:
    """A tool's locale name (``pt_BR``, ``en-us``, ``de``; gettext's ``sr@latin``,
    ``zh_TW.Big5``) as the hreflang code it means, in its canonical form where it is a
    valid tag (``pt-BR``, ``en-US``, ``sr-Latn``, ``zh-TW``); else with its underscores as
    hyphens, for the rules to judge as written."""
    if "@" in name or "." in name:
        name, _, modifier = name.partition("@")
        language, _, region = name.partition(".")[0].partition("_")
        name = "_".join(part for part in (language, _GETTEXT_SCRIPTS.get(modifier.lower()), region) if part)
    tag = name.replace("_", "-")
    return judge(tag).canonical or tag
