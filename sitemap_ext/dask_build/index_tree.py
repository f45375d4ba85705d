"""The index tree the client writes over every partition's sitemaps: one index of at
most ``MAX_SITEMAPS_PER_INDEX`` sitemaps (sitemaps.org), or past that several
(``sitemap-index-1.xml``, ...), each named in the robots.txt line (``output.robots``),
since an index may not list another index."""

from __future__ import annotations

from urllib.parse import quote

from ..folder import XSL_FILE
from ..limits import MAX_SITEMAPS_PER_INDEX
from ..read.normalised import NormalisedSite as Site
from ..write.output import Staging
from ..write.series import WrittenFile
from ..write.xml import write_index


def public_folder(site: Site) -> str:
    """Where the files are served, ending in '/' (as ``write.files.Files`` has it)."""
    assert site.scope is not None
    public = site.output.public_url or site.scope.base_url
    return public[: public.rindex("/") + 1]


def index_names(index_file: str, count: int, per_index: int) -> list[str]:
    """The names of the indexes for ``count`` sitemaps: ``sitemap.xml`` alone, or
    ``sitemap-index-1.xml``, ... past ``per_index``."""
    needed = max(1, -(-count // per_index))
    if needed == 1:
        return [index_file]
    stem = index_file[: -len(".xml")] if index_file.endswith(".xml") else index_file
    return [f"{stem}-index-{k}.xml" for k in range(1, needed + 1)]


def write_tree(site: Site, staging: Staging, sitemaps: list[WrittenFile],
               per_index: int | None = None) -> tuple[list[tuple[str, str]], list[WrittenFile]]:
    """The indexes (and the stylesheet and robots.txt line where asked) over
    ``sitemaps`` (named, with their URLs); the moves and the files written."""
    out = site.output
    public = public_folder(site)
    per_index = per_index or MAX_SITEMAPS_PER_INDEX
    moves: list[tuple[str, str]] = []
    written: list[WrittenFile] = []
    if out.xsl:
        from ..write.stylesheet import STYLESHEET

        path = staging.path(XSL_FILE)
        with open(path, "wb") as handle:
            handle.write(STYLESHEET)
        moves.append((path, XSL_FILE))
        written.append(WrittenFile(name=XSL_FILE, kind="xsl", bytes=len(STYLESHEET), uncompressed=len(STYLESHEET)))
    for number, name in enumerate(index_names(out.index_file, len(sitemaps), per_index)):
        listed = sitemaps[number * per_index:(number + 1) * per_index]
        path = staging.path(name)
        size = write_index(path, [(f.url or "", f.lastmod) for f in listed], out.xsl)
        moves.append((path, name))
        written.append(WrittenFile(name=name, kind="index", urls=len(listed), bytes=size, uncompressed=size,
                                   url=public + quote(name, safe="/")))
    if out.robots is not None:
        line = "".join(f"Sitemap: {index.url}\n" for index in written if index.kind == "index").encode()
        path = staging.path(out.robots)
        with open(path, "wb") as handle:
            handle.write(line)
        moves.append((path, out.robots))
        written.append(WrittenFile(name=out.robots, kind="robots", bytes=len(line), uncompressed=len(line)))
    return moves, written
