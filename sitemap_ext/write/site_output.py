"""The ``output:`` section of a site description: the output folder, the files' names,
the switches and the limits, read into an ``OutputConfig``; names that clash are C108."""

from __future__ import annotations

import os
from typing import Any

from ..diagnostics import Collector
from ..folder import RESERVED_PREFIX, STATE, XSL_FILE, reserved_name, safe_relative_name
from ..limits import MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE
from ..read.description_file import TypedDoc
from ..read.description_findings import out_of_range
from ..read.normalised import OutputConfig
from ..urls import normalise
from .site_sources import SourceEntries

OUTPUT_KEYS = (
    "dir", "pattern", "news_pattern", "index_file", "index", "gzip", "max_urls", "max_bytes", "text", "robots",
    "public_url", "drop_deprecated", "drop_old_news", "versioned", "html", "xsl", "headers", "state",
)
ROBOTS_FILE = "robots-sitemap.txt"


def read_output(top: TypedDoc, collector: Collector, value: Any, roots: tuple[str, ...]) -> OutputConfig | None:
    """The ``output:`` section; None when a value in it is unusable (each one reported).
    ``roots``: the folders sources may come from (the description's first), where
    ``output.state`` must lie too."""
    raw = top.mapping(("output",), value, OUTPUT_KEYS, "output")
    if raw is None:
        return None
    config: dict[str, Any] = {}
    ok = _files(top, collector, raw, config)
    ok &= _switches(top, collector, raw, config)
    if "robots" in raw:
        ok &= _robots(top, collector, raw["robots"], config)
    ok &= _limits(top, collector, raw, config)
    if "public_url" in raw:
        ok &= _public_url(top, collector, raw["public_url"], config)
    if "state" in raw:
        ok &= _state(top, collector, raw["state"], config, roots)
    if not ok:
        return None
    output = OutputConfig(**config)
    return output if _names(top, collector, output) else None


def _files(top: TypedDoc, collector: Collector, raw: dict[str, Any], config: dict[str, Any]) -> bool:
    """output.dir and the files' names (into ``config``); whether all are usable."""
    ok = True
    for key in ("dir", "pattern", "news_pattern", "index_file"):
        if key in raw:
            text = top.string(("output", key), raw[key], f"output.{key}")
            ok &= text is not None
            config[key] = text
    for key in ("pattern", "news_pattern", "index_file"):
        name = config.get(key)
        if name is None:
            continue
        problem = _file_name_problem(key, name)
        if problem:
            collector.report("C108", f"output.{key} '{name}' {problem}", top.doc.value_where(("output", key)))
            ok = False
    return ok


def _switches(top: TypedDoc, collector: Collector, raw: dict[str, Any], config: dict[str, Any]) -> bool:
    """output.index and the switches (into ``config``); whether all are usable."""
    ok = True
    if "index" in raw:
        mode = top.string(("output", "index"), raw["index"], "output.index")
        if mode not in ("auto", "always"):
            out_of_range(collector.report, "output.index must be 'auto' (an index when there is more than one "
                         "file) or 'always'", top.doc.value_where(("output", "index")))
            ok = False
        config["index"] = mode
    if "headers" in raw:
        host = top.string(("output", "headers"), raw["headers"], "output.headers")
        if host not in ("netlify", "vercel"):
            out_of_range(collector.report, "output.headers must be 'netlify' (a _headers file, also read by "
                         "Cloudflare Pages) or 'vercel' (a vercel.json with headers)",
                         top.doc.value_where(("output", "headers")))
            ok = False
        config["headers"] = host
    for key in ("gzip", "text", "drop_deprecated", "drop_old_news", "versioned", "html", "xsl"):
        if key in raw:
            flag = top.boolean(("output", key), raw[key], f"output.{key}")
            ok &= flag is not None
            config[key] = flag
    return ok


def _limits(top: TypedDoc, collector: Collector, raw: dict[str, Any], config: dict[str, Any]) -> bool:
    """output.max_urls and max_bytes (into ``config``); whether both are usable."""
    ok = True
    if "max_urls" in raw:
        config["max_urls"] = top.integer(("output", "max_urls"), raw["max_urls"], "output.max_urls", 1,
                                         MAX_URLS_PER_FILE)
        ok &= config["max_urls"] is not None
    if "max_bytes" in raw:
        config["max_bytes"] = top.integer(("output", "max_bytes"), raw["max_bytes"], "output.max_bytes", 4_096,
                                          MAX_BYTES_PER_FILE)
        ok &= config["max_bytes"] is not None
    return ok


def _robots(top: TypedDoc, collector: Collector, value: Any, config: dict[str, Any]) -> bool:
    """output.robots: true, false or a file name (into ``config``); whether it is usable."""
    if isinstance(value, bool):
        config["robots"] = ROBOTS_FILE if value else None
        return True
    name = top.string(("output", "robots"), value, "output.robots")
    if name is not None and not safe_relative_name(name):
        collector.report("C108", f"output.robots '{name}' must be a relative file name",
                              top.doc.value_where(("output", "robots")))
        name = None
    config["robots"] = name
    return name is not None


def _state(top: TypedDoc, collector: Collector, value: Any, config: dict[str, Any], roots: tuple[str, ...]) -> bool:
    """output.state: true (the default file beside the manifest, ""), false, or a path
    (relative to the description's folder) into ``config``; whether it is usable. A
    path lies where sources may (C114, the one check of sources and includes: the
    description's folder after links are followed, or --allow-read), and names none of
    the output folder's own files but the state's (C108): a build deletes a stale
    staging folder and replaces its manifest and journal. Nothing is written before."""
    if isinstance(value, bool):
        config["state"] = "" if value else None
        return True
    path = top.string(("output", "state"), value, "output.state")
    config["state"] = path or None
    if not path:
        return path is not None
    where = top.doc.value_where(("output", "state"))
    parts = path.replace("\\", "/").split("/")
    if any(part.startswith(RESERVED_PREFIX) for part in parts[:-1]) or \
            (parts[-1].startswith(RESERVED_PREFIX) and parts[-1] != STATE):
        collector.report("C108", f"output.state '{path}' names a file starting with '{RESERVED_PREFIX}', which is "
                         f"kept for the manifest, journal and staging folders: choose another name (or "
                         f"output.state: true for {STATE} in the output folder)", where)
        return False
    full = os.path.join(roots[0], path)
    return SourceEntries(collector, roots).readable(full, path, where, "output.state")


def _public_url(top: TypedDoc, collector: Collector, value: Any, config: dict[str, Any]) -> bool:
    """output.public_url, a folder's URL (into ``config``); whether it is usable."""
    text = top.string(("output", "public_url"), value, "output.public_url")
    url, problems = normalise(text) if text is not None else (None, ())
    for problem in problems:
        collector.report(problem.code, f"output.public_url: {problem.message}",
                              top.doc.value_where(("output", "public_url")))
    if url is not None and not url.endswith("/"):
        url += "/"
    config["public_url"] = url
    return url is not None


def _names(top: TypedDoc, collector: Collector, output: OutputConfig) -> bool:
    """Output names that would clash with each other or with sitemap-ext's own files."""
    keys = {"index_file": output.index_file, "pattern": output.pattern, "news_pattern": output.news_pattern,
            "robots": output.robots}
    clash = None
    for key, name in keys.items():
        if name is not None and reserved_name(name):
            clash = key, f"output.{key} '{name}' starts with '.sitemap-ext', which is kept for the manifest, " \
                "journal and staging folders"
    if output.robots is not None and output.robots.casefold() == output.index_file.casefold():
        clash = "robots", f"output.robots '{output.robots}' is the index's name; the robots line would " \
            "replace the index"
    if output.xsl:
        for key in ("index_file", "robots"):
            name = keys[key]
            if name is not None and name.casefold() == XSL_FILE:
                clash = key, f"output.{key} '{name}' is the name of the stylesheet output.xsl writes"
    if output.pattern.casefold() == output.news_pattern.casefold():
        clash = "news_pattern", f"output.news_pattern '{output.news_pattern}' is output.pattern; news " \
            "sitemaps would replace the others"
    if clash is None:
        return True
    key, message = clash
    collector.report("C108", f"{message}: choose another name", top.doc.value_where(("output", key)))
    return False

# --- sections (the top file and every include) -------------------------------------


def _file_name_problem(key: str, name: str) -> str | None:
    """What is wrong with an output file's name (output.pattern, news_pattern, index_file)."""
    if not safe_relative_name(name):
        return "must be a relative name inside the output folder (no '..', no leading '/')"
    if not name.endswith(".xml"):
        return "must end in .xml (with gzip on, .gz is added)"
    if key in ("pattern", "news_pattern") and "{n}" not in name:
        return "must contain {n}, the file's number"
    if key == "index_file" and "{" in name:
        return "takes no placeholders"
    return None
