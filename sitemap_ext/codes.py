"""The registry of diagnostic codes: the one list the catalogue in specs/ mirrors.

Each code is declared (severity, name, one-line summary) in the module that reports
it, in the ``CODES`` tuple at the end of that module; this module gathers them, one
line per module. Adding a code to a module that reports codes already is one line in
its ``CODES``; a new module that reports codes adds one line here too.

Codes are stable and never reused. The letter says where a finding comes from:
F files and I/O, C the site description, S sources, U URLs, D values (dates,
changefreq, priority), O output, X sitemap XML being checked, L language tags,
H hreflang clusters, I images, V videos, N news, R a live site fetched over HTTP.

Nothing the modules below import may import this module (a test holds the import
graph free of cycles): the check is handed ``REGISTRY`` by the API
(``rules.check.check_inputs(registry=...)``), and a submission its collector.
"""

from __future__ import annotations

from . import dates, diagnostics, folder, langtags, state, urls
from .diagnostics import Code
from .ext import image, news, video
from .read import (
    built_site,
    description_findings,
    http,
    link_header,
    live,
    page_fields,
    page_locales,
    page_media,
    site_output,
    site_sources,
    site_yaml,
    sniff,
    sources,
    static_headers,
    text,
    xml,
    yaml_doc,
)
from .rules import (
    check,
    cluster_findings,
    cluster_pairs,
    clusters,
    credible,
    folder_walk,
    header_files,
    hreflang,
    index_follow,
    judge_file,
    live_fetch,
    locs,
    media,
    robots,
    run_state,
    structure,
    values,
)
from .rules import files as rule_files
from .submit import CODES as SUBMIT_CODES  # (the package's own name 'submit' is the api's function)
from .write import files as output_files
from .write import headers, output
from .write import state as build_state

# Every module that reports codes, by its path in the package.
_ENTRIES: tuple[Code, ...] = (
    *dates.CODES,
    *diagnostics.CODES,
    *image.CODES,
    *news.CODES,
    *video.CODES,
    *folder.CODES,
    *langtags.CODES,
    *built_site.CODES,
    *description_findings.CODES,
    *http.CODES,
    *link_header.CODES,
    *live.CODES,
    *page_fields.CODES,
    *page_locales.CODES,
    *page_media.CODES,
    *site_output.CODES,
    *site_sources.CODES,
    *site_yaml.CODES,
    *sniff.CODES,
    *sources.CODES,
    *static_headers.CODES,
    *text.CODES,
    *xml.CODES,
    *yaml_doc.CODES,
    *check.CODES,
    *cluster_findings.CODES,
    *cluster_pairs.CODES,
    *clusters.CODES,
    *credible.CODES,
    *rule_files.CODES,
    *folder_walk.CODES,
    *header_files.CODES,
    *hreflang.CODES,
    *index_follow.CODES,
    *judge_file.CODES,
    *live_fetch.CODES,
    *locs.CODES,
    *media.CODES,
    *robots.CODES,
    *run_state.CODES,
    *structure.CODES,
    *values.CODES,
    *state.CODES,
    *SUBMIT_CODES,
    *urls.CODES,
    *output_files.CODES,
    *headers.CODES,
    *output.CODES,
    *build_state.CODES,
)

# The catalogue's order (specs/rules.md, `sitemap-ext rules`): by letter as below, then by number.
_LETTERS = "FCSUDLHXRIVNO"

REGISTRY: dict[str, Code] = {
    entry.code: entry for entry in sorted(_ENTRIES, key=lambda entry: (_LETTERS.index(entry.code[0]), entry.code))
}

if len(REGISTRY) != len(_ENTRIES):  # pragma: no cover - guards the declarations
    raise RuntimeError("a diagnostic code is declared twice")
