"""The ``sources:`` of a site description: CSV, JSON Lines and Parquet files, folders
of such parts, and built sites (``site: FOLDER``), each checked to lie inside the
folders the run may read."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..diagnostics import Collector, Where
from ..folder import DEFAULT_EXCLUDE
from ..limits import MAX_SOURCE_PARTS
from ..read.description_file import TypedDoc, display_name
from ..read.description_findings import missing, wrong_shape
from ..read.normalised import BuiltSite, Defaults, Source
from ..read.sources import format_of, unreadable_source
from ..read.yaml_doc import Path
from ..safeio import inside, regular_file
from ..urls import normalise

if TYPE_CHECKING:  # (only its type: the build's normaliser is handed in)
    from .page_normaliser import PageNormaliser

SOURCE_KEYS = ("file", "format")
SITE_SOURCE_KEYS = ("site", "url", "drop_ext", "exclude", "lastmod", "content")
DEFAULT_LASTMOD_PLACES = (("meta", "article:modified_time"),)


@dataclass(frozen=True)
class SourceEntries:
    """Reads the entries of ``sources:``; ``roots``: the folders they may come from."""

    collector: Collector
    roots: tuple[str, ...]

    def read(self, doc: TypedDoc, path: Path, entry: Any, defaults: Defaults, base: str,
             normaliser: PageNormaliser) -> Source | list[Source] | BuiltSite | None:
        """A source entry: a file (a ``Source``), a folder of parts (a ``Source``
        each, in order), a built site; None when it cannot be read (reported)."""
        if isinstance(entry, str):
            entry = {"file": entry}
        if isinstance(entry, dict) and "site" in entry:
            return self._built_site(doc, path, entry, defaults, base, normaliser)
        raw = doc.mapping(path, entry, SOURCE_KEYS, "a source")
        if raw is None:
            return None
        if "file" not in raw:
            missing(self.collector.report, "a source needs file: (a CSV, JSON Lines or Parquet path, or a "
                    "folder of them) or site: (a built site's folder)", doc.where(path))
            return None
        name = doc.string(path + ("file",), raw["file"], "source file")
        if name is None:
            return None
        where = doc.doc.value_where(path + ("file",))
        full = os.path.join(os.path.dirname(base), name)
        if os.path.isdir(full):
            if not self.readable(full, name, where, "source"):
                return None
            if "format" in raw:
                wrong_shape(self.collector.report, f"'{name}' is a folder of parts, each told by its name "
                            "(.parquet, .csv, .jsonl, optionally .gz): format: is for one file",
                            doc.doc.value_where(path + ("format",)))
                return None
            return self._parts(full, name, defaults, where)
        fmt = raw.get("format") or format_of(name)
        if fmt not in ("csv", "jsonl", "parquet"):
            self.collector.report(
                "S107", f"cannot tell the format of '{name}': name it .csv, .jsonl (optionally .gz), .parquet "
                "or give format: csv | jsonl | parquet", where,
            )
            return None
        display = display_name(full)
        if not self.readable(full, name, where, "source"):
            return None
        if not regular_file(full):
            problem = "is not a regular file (a FIFO, device or folder)" if os.path.exists(full) else "does not exist"
            unreadable_source(self.collector.report, f"source file '{name}' {problem} (looked for {display})",
                              where)
            return None
        if fmt == "parquet" and not self._pyarrow(f"source '{name}' is Parquet", where):
            return None
        return Source(path=full, display=display, format=fmt, defaults=defaults, where=where)

    def _parts(self, full: str, name: str, defaults: Defaults, where: Where) -> list[Source] | None:
        """A folder's parts (see read/parts.py), a ``Source`` each, in order: a part of
        no known format (S107) or outside the folders the run may read (S108) is left
        out; so is an empty one (no rows, nothing to say)."""
        from ..read.parts import parts_of  # (only for a folder: a build of files loads none of it)

        listed = parts_of(full)
        report = self.collector.report
        if listed is None:
            unreadable_source(report, f"source folder '{name}' holds more than {MAX_SOURCE_PARTS:,} parts; "
                              "write fewer, larger parts", where)
            return None
        sources = []
        for part in listed:
            shown = f"{name.rstrip('/')}/{part.relative}"
            fmt = format_of(part.relative)
            if fmt is None:
                report("S107", f"cannot tell the format of part '{shown}': name it .parquet, .csv or .jsonl "
                       "(optionally .gz), or move it out of the folder (names starting with '.' or '_' are not "
                       "parts)", where)
            elif (not part.leaves or self.readable(part.path, shown, where, "source")) and not _empty(part.path):
                sources.append(Source(path=part.path, display=display_name(part.path), format=fmt,
                                      defaults=defaults, where=where))
        if not listed:
            unreadable_source(report, f"source folder '{name}' holds no part (a .parquet, .csv or .jsonl file); "
                              "is it the folder the export wrote?", where)
            return None
        kinds = [source for source in sources if source.format == "parquet"]
        if kinds and not self._pyarrow(f"source folder '{name}' holds Parquet parts ({kinds[0].display}, ...)",
                                       where):
            return None
        self._compatible(sources)
        return sources

    def _pyarrow(self, what: str, where: Where) -> bool:
        """Whether Parquet can be read; if not, S101 at the source says which extra to install."""
        from ..read.parquet import missing_pyarrow

        absent = missing_pyarrow()
        if absent is not None:
            unreadable_source(self.collector.report, f"{what}: {absent}", where)
        return absent is None

    def _compatible(self, sources: list[Source]) -> None:
        """S111 for each part whose columns are not the first part's (a CSV header, a
        Parquet schema; JSON Lines rows say their fields themselves)."""
        from ..read.parts import columns_of

        first: tuple[str, list[str]] | None = None
        for source in sources:
            columns = columns_of(source.path, source.format)
            if columns is None:
                continue
            if first is None:
                first = source.display, columns
                continue
            lacks = [column for column in first[1] if column not in columns]
            adds = [column for column in columns if column not in first[1]]
            if lacks or adds:
                said = "; ".join(text for text in (
                    f"without {', '.join(lacks)}" if lacks else "", f"with {', '.join(adds)}" if adds else "")
                    if text)
                self.collector.report(
                    "S111", f"part's columns are not those of the source's first part, {first[0]} ({said}); "
                    "every part of a source needs the same columns", Where(source.display,
                                                                           1 if source.format == "csv" else None))

    def _built_site(self, doc: TypedDoc, path: Path, entry: dict[str, Any], defaults: Defaults, base: str,
                    normaliser: PageNormaliser) -> BuiltSite | None:
        """A source ``site: FOLDER``: the pages of a built site (see write/built_site.py)."""
        from ..read.html_content import DEFAULT_CONTENT, parse_selector  # (it loads the HTML reader: only here)

        raw = doc.mapping(path, entry, SITE_SOURCE_KEYS, "a built-site source")
        if raw is None:
            return None
        name = doc.string(path + ("site",), raw["site"], "site folder")
        if name is None:
            return None
        where = doc.doc.value_where(path + ("site",))
        base_url = normaliser.scope.base_url
        url = base_url[: base_url.rindex("/") + 1]  # (base_url's folder)
        if raw.get("url") is not None:
            given = doc.string(path + ("url",), raw["url"], "url")
            served = None if given is None else self._served_at(given, doc.doc.value_where(path + ("url",)))
            if served is None:
                return None
            url = served
        drop_ext = raw.get("drop_ext", False)
        if not isinstance(drop_ext, bool):
            wrong_shape(self.collector.report, "drop_ext must be true or false",
                        doc.doc.value_where(path + ("drop_ext",)))
            return None
        exclude: tuple[str, ...] = DEFAULT_EXCLUDE
        if "exclude" in raw:
            items = [raw["exclude"]] if isinstance(raw["exclude"], str) else \
                doc.sequence(path + ("exclude",), raw["exclude"], "exclude")
            exclude = tuple(item for i, item in enumerate(items)
                            if doc.string(path + ("exclude", i), item, "an exclude pattern") is not None)
        places: tuple[tuple[str, ...], ...] = DEFAULT_LASTMOD_PLACES
        if "lastmod" in raw:
            read = self._places(doc, path, raw["lastmod"])
            if read is None:
                return None
            places = read
        content: tuple[str, str | None, str | None] = DEFAULT_CONTENT
        if "content" in raw:
            text = doc.string(path + ("content",), raw["content"], "content")
            picked = None if text is None else parse_selector(text)
            if picked is None:
                wrong_shape(self.collector.report, f"content {raw['content']!r} is not TAG, .CLASS, #ID, TAG.CLASS "
                            "or TAG#ID (the element whose content dates a page)",
                            doc.doc.value_where(path + ("content",)))
                return None
            content = picked
        full = os.path.join(os.path.dirname(base), name)
        display = display_name(full)
        if not self.readable(full, name, where, "built site"):
            return None
        if not os.path.isdir(full):
            problem = "is not a folder" if os.path.exists(full) else "does not exist"
            unreadable_source(self.collector.report, f"built site '{name}' {problem} (looked for {display}); "
                              "build the site first, or name its output folder", where)
            return None
        return BuiltSite(path=full, display=display, url=url, drop_ext=drop_ext, exclude=exclude,
                         lastmod=places, defaults=defaults, where=where, content=content)

    def _places(self, doc: TypedDoc, path: Path, value: Any) -> tuple[tuple[str, ...], ...] | None:
        """The places a built page's lastmod is read from (``lastmod:``); None when one is none."""
        items = [value] if isinstance(value, str) else doc.sequence(path + ("lastmod",), value, "lastmod")
        found = []
        for i, item in enumerate(items):
            place = _lastmod_place(item)
            if place is None:
                where = doc.doc.value_where(path + ("lastmod",) if isinstance(value, str) else path + ("lastmod", i))
                wrong_shape(self.collector.report, f"lastmod place {item!r} is not one of meta:NAME (as "
                            "meta:article:modified_time), time, time.CLASS, time#ID, git or content", where)
                return None
            found.append(place)
        return tuple(found)

    def _served_at(self, given: str, where: Where) -> str | None:
        """A built site's url: an absolute http(s) URL of a folder."""
        url, problems = normalise(given)
        for problem in problems:
            self.collector.report(problem.code, f"url: {problem.message}", where, url=given)
        if url is None:
            return None
        if not url.startswith(("http://", "https://")):
            wrong_shape(self.collector.report, "url must be the absolute http(s) URL the built site is served at",
                        where, url=given)
            return None
        return url if url.endswith("/") else url + "/"

    def readable(self, full: str, name: str, where: Where, what: str) -> bool:
        """Whether a source, include or state (``what``) lies inside the folders this run
        may read: the one rule of where a description may reach (S108 for a source or
        built site, C114 for an include or ``output.state``)."""
        if inside(full, self.roots):
            return True
        self.collector.report(
            "S108" if what in ("source", "built site") else "C114",
            f"{what} '{name}' is outside the site description's folder (after links are followed); "
            "move it into that folder, or allow its folder with --allow-read DIR", where)
        return False


def _empty(path: str) -> bool:
    """Whether a part is an empty file: no rows (exports write one for an empty partition)."""
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False  # (its reader reports it)


def _lastmod_place(item: Any) -> tuple[str, ...] | None:
    """A place a built page's lastmod is read from, parsed (None: not one)."""
    if not isinstance(item, str):
        return None
    text = item.strip()
    if text in ("git", "content"):
        return (text,)
    if text.startswith("meta:") and len(text) > len("meta:"):
        return ("meta", text[len("meta:"):].lower())
    if text == "time":
        return ("time",)
    for mark, kind in ((".", "class"), ("#", "id")):
        if text.startswith("time" + mark) and len(text) > 5 and " " not in text:
            return ("time", kind, text[5:])
    return None
