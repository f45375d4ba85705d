"""A page's URL: absolute, http(s), escaped, short enough, on the sitemap's host and in its folder.

Sources: sitemaps.org protocol ("less than 2,048 characters"; entity-escaped; all
URLs of a sitemap on one host; a sitemap at /catalog/ lists URLs under /catalog/
unless submitted through robots.txt; cross-submission through the other host's
robots.txt); Google, "Build and submit a sitemap" (fully-qualified absolute URLs;
cross-site submission once ownership is verified); RFC 3986.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..limits import MAX_URL_CHARS
from ..read.record import Value
from ..urls import (
    PLAIN_PATH_CHARS,
    escaped_twice,
    is_clean,
    normalise,
    origin_text,
    resolve_http,
    template_token,
    unreachable,
)
from .context import Context, Report
from .registry import Rule
from .structure import empty_loc


def judge_loc(value: Value, ctx: Context, what: str = "loc") -> str | None:
    """The rules on one loc (U101-U111, U118, X107 when empty); the URL if it is usable."""
    text, line = value.text, value.line
    if text is None or not text.strip():
        empty_loc(ctx, line, what)
        return None
    if is_clean(text):  # the common case: escaped, its scheme and host in lower case (so comparable)
        for code, message, suggestion in _unfilled(text, what):
            ctx.report(code, message, line, url=text, suggestion=suggestion)
        _scope(text, ctx, line)
        return text
    url, fixed, findings = url_findings(text, what)
    for code, message, suggestion in findings:
        if code == "U101" and fixed is None:
            message, suggestion = _relative(url, ctx.facts.url, what) or (message, suggestion)
        ctx.report(code, message, line, url=url, suggestion=suggestion)
    if fixed is None:
        return None
    comparable = _comparable(url)  # (scheme and host are case-insensitive: an upper-case host is the same URL)
    if fixed != comparable and fixed != comparable + "/" and not any(f[0] in ("U105", "U106") for f in findings):
        ctx.report("U111", f"{what} is not written as an escaped URI (RFC 3986); write {fixed}", line, url=url,
                   suggestion=fixed)
    _scope(url, ctx, line)
    return url


def url_findings(text: str, what: str) -> tuple[str, str | None, list[tuple[str, str, str | None]]]:
    """What any URL field of a sitemap says (whitespace around it, U101-U106, U109, U110):
    the URL as written (stripped), its normalised form (None: unusable) and the findings
    as (code, message, suggestion); U118 where it holds a template's variable left
    unfilled. Used for locs here and for media URLs (media.py)."""
    if is_clean(text):
        return text, text, _unfilled(text, what)  # the common case: nothing to normalise
    url = text.strip()
    findings = _unfilled(url, what)
    if url != text:
        findings.append(("U115", f"{what} has whitespace around the URL; parsers trim it (tidier without)", None))
    fixed, problems = normalise(url)
    for problem in problems:
        if problem.code == "U106":
            findings.append((*escaped_twice(what), fixed))
        else:
            findings.append((problem.code, f"{what}: {problem.message}", problem.suggestion))
    return url, fixed, findings


def _relative(url: str, base: str | None, what: str) -> tuple[str, str | None] | None:
    """U101 of a relative URL (None: it is not one): search engines resolve no URL of a
    sitemap, so it names no page; its absolute form against the sitemap's own URL where
    that is known (fetched, or mapped by --base-url), else what an absolute URL is."""
    if not url or ":" in url.split("/", 1)[0] or url.startswith("//"):
        return None
    resolved = resolve_http(url, base)
    said = f"{what} '{url}' is relative: a sitemap must give absolute URLs, and search engines resolve none"
    if resolved is not None:
        return f"{said}; against this sitemap's URL it is {resolved}: write that", resolved
    shape = f"https://HOST{url}" if url.startswith("/") else f"https://HOST/FOLDER/{url}, FOLDER the sitemap's"
    return (f"{said}; write it with its scheme and host ({shape}); where the sitemap is served from (--base-url "
            "URL=DIR) is known, the check says what it resolves to"), None


def _unfilled(url: str, what: str) -> list[tuple[str, str, str | None]]:
    """U118: a template's variable left unfilled in a URL ($VIDEO_ID, ${id}, {{ slug }})."""
    token = template_token(url)
    if token is None:
        return []
    return [("U118", f"{what} holds {token}, a template's variable left unfilled: every entry written so names "
             "this one URL, not its own (a CMS template expanded without its value); fill it in", None)]


def _scope(url: str, ctx: Context, line: int) -> None:
    if ctx.facts.kind == "html":
        return  # a built page's own URL: no sitemap's scope to keep
    if ctx.folder is not None and url.startswith(ctx.folder):
        return  # in the sitemap's folder, on its host (the folder is lower case to its path)
    origin = origin_text(url).lower()
    if ctx.origin is None:
        ctx.origin = origin
        # (a sitemap's URLs; a header file's or a fetched URL's Link headers are the URLs' own)
        published = ctx.published if ctx.published is not None else ctx.facts.kind != "headers" and (
            ctx.facts.url is None or unreachable(origin_text(ctx.facts.url).lower()) is None)
        why = unreachable(origin) if published else None
        if why is not None:
            unreachable_host(ctx.report, origin, why, line, url)
    elif origin != ctx.origin:
        if origin not in ctx.cross_submitted:
            ctx.report("U107", f"{url} is not on {ctx.origin}, the host of this sitemap. Search engines take it only "
                       f"where cross-submission is shown: list this sitemap in {origin}/robots.txt (give that "
                       f"robots.txt to the check, or say --cross-submitted {origin}), or move the URL to a sitemap "
                       "on its own host", line, url=url)
    elif ctx.folder is not None and not _comparable(url).startswith(ctx.folder):
        out_of_folder(ctx.report, url, ctx.folder, line)


def unreachable_host(report: Report, origin: str, why: str, at: Any, url: str | None = None,
                     what: str = "the URLs of this sitemap") -> None:
    """U117: a published file's URLs on a host no crawler can reach (a development
    name, a loopback or private address): once per file, at its first URL. A sitemap
    served from such a host itself (a check of a dev server) is left alone."""
    report("U117", f"{what} are on {origin}: {why}, which no crawler can reach (was it generated with the "
           "development server's base URL?); give the public base URL", at, url=url)


def out_of_folder(report: Report, url: str, folder: str, at: Any, what: str = "loc", fix: str = "") -> None:
    """U108: a URL outside the folder its sitemap is served from (the build's pages too)."""
    report("U108", f"{what} {url} lies outside {folder}, where the sitemap is served: search engines accept it only "
           f"from a sitemap submitted in robots.txt{f' ({fix})' if fix else ''}", at, url=url)


def _comparable(url: str) -> str:
    """The URL with its scheme and host in lower case and an empty path written as ``/``
    (RFC 3986, 6.2.2 and 6.2.3: ``HTTPS://Host`` is ``https://host/``); the path keeps
    its case, which is significant."""
    origin = origin_text(url)
    rest = url[len(origin):]
    return origin.lower() + (rest if rest.startswith("/") else "/" + rest)


def loc(entry: object, ctx: Context) -> None:
    """U101-U111, U117, U118, X107 (empty loc): the entry's one loc (entries with more are X107's)."""
    locs = entry.locs  # type: ignore[attr-defined]
    if len(locs) == 1:
        text = locs[0].text
        if text and ctx.origin is not None and _said_nothing(text, ctx.folder or ctx.origin + "/"):
            return
        judge_loc(locs[0], ctx, "line" if getattr(entry, "source", "") == "line" else "loc")


def _said_nothing(text: str, prefix: str) -> bool:
    """Whether judge_loc has nothing to say of ``text``, known at once: a clean URL (urls.is_clean)
    under ``prefix``, the file's folder or its origin's root, with no template's variable in it.
    One match of a pattern made once per prefix: a file's locs share it."""
    pattern = _in_scope(prefix)
    return pattern is not None and len(text) <= MAX_URL_CHARS and pattern.fullmatch(text) is not None \
        and "&amp;" not in text and template_token(text) is None


@lru_cache(maxsize=64)
def _in_scope(prefix: str) -> re.Pattern[str] | None:
    """The URLs under ``prefix`` that need no escaping (None: the prefix itself is no clean URL,
    a port say: its locs take the long way)."""
    if not is_clean(prefix) or "%" in prefix or not prefix.endswith("/"):
        return None
    return re.compile(re.escape(prefix) + PLAIN_PATH_CHARS)


RULES: tuple[Rule, ...] = (
    Rule("loc", "entry", ("U101", "U102", "U103", "U105", "U106", "U107", "U108", "U109", "U110", "U111", "U115",
                 "U117", "U118"),
         loc, reads="locs"),
    Rule("index-loc", "index", ("U101", "U102", "U103", "U105", "U106", "U107", "U108", "U109", "U110", "U111", "U115",
                 "U117", "U118"),
         loc, reads="locs"),
)
