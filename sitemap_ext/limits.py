"""Every numeric limit the toolkit enforces, in one table, each with its source.

Sources: sitemaps.org protocol page and FAQ (SM), Google Search Central pages on
sitemaps, image, video and news sitemaps (G), and the published XSDs (XSD).
"""

from __future__ import annotations

from typing import Final

# SM: "no more than 50,000 URLs" per sitemap; the same for an index's entries.
MAX_URLS_PER_FILE: Final = 50_000
# SM: "must be no larger than 50MB (52,428,800 bytes)", uncompressed.
MAX_BYTES_PER_FILE: Final = 52_428_800
# libxml2's default (xmlParserMaxDepth, without XML_PARSE_HUGE), which the XML reader
# kept before it read with expat: elements nest at most this deep in a sitemap or feed
# (a sitemap's nest four deep); deeper is X101, so the parser's stack stays small.
MAX_XML_DEPTH: Final = 256
# SM: "less than 2,048 characters"; the XSD allows 12..2048, so < 2048 satisfies both.
MAX_URL_CHARS: Final = 2_047
# XSD: loc has minLength 12 ("http://a.bc/" is 12 characters).
MIN_URL_CHARS: Final = 12
# SM: an index may list at most 50,000 sitemaps.
MAX_SITEMAPS_PER_INDEX: Final = 50_000

# G (image): "up to 1,000 images" per <url>.
MAX_IMAGES_PER_URL: Final = 1_000
# G (news): "no more than 1,000 news:news tags" per sitemap.
MAX_NEWS_PER_FILE: Final = 1_000
# G (news): articles published in the last two days.
NEWS_MAX_AGE_HOURS: Final = 48
# G (video): description at most 2,048 characters.
MAX_VIDEO_DESCRIPTION: Final = 2_048
# XSD (video): title maxLength 100.
MAX_VIDEO_TITLE: Final = 100
# G (video): duration 1..28,800 seconds (the XSD allows 0).
VIDEO_DURATION_RANGE: Final = (1, 28_800)
# G (video): rating 0.0..5.0.
VIDEO_RATING_RANGE: Final = (0.0, 5.0)
# G (video): at most 32 tags.
MAX_VIDEO_TAGS: Final = 32
# G (video): uploader name at most 255 characters.
MAX_VIDEO_UPLOADER: Final = 255
# XSD (news): stock_tickers at most 5.
MAX_NEWS_STOCK_TICKERS: Final = 5

# Ours, not a protocol's: guards for untrusted input.
# A YAML document may hold, and expand (through aliases) to, at most this many nodes,
# counted on its events before it is composed. Measured: 50,000 pages take 250,000
# nodes as `- loc:` with a lastmod, 750,000 with translated slugs in five locales (the
# international example's shape); pages richer than 20 nodes each (videos) belong in a
# JSON Lines source. Composing costs about 25 us and 250 bytes a node (2,000,000 before
# 0.5: 50 s and 600 MB for a 5 MB file of scalars).
MAX_YAML_NODES: Final = 1_000_000
# A site description file (YAML) is read whole: at most this many bytes.
MAX_DESCRIPTION_BYTES: Final = 64 << 20
# A line of a CSV or JSON Lines source (one page): at most this many bytes.
MAX_SOURCE_LINE: Final = 1 << 20
# A folder of parts (``sources: - file: parts/``): at most this many parts are listed.
# A billion pages at a million rows a part (Spark's and Dask's usual partitions) are
# a thousand parts; a listing past this is no table export.
MAX_SOURCE_PARTS: Final = 100_000
# A Parquet part: its footer (the schema and row groups' metadata, read whole by
# pyarrow) at most this many bytes, as every JSON or TOML file we read; and a row
# group (pyarrow decodes a column chunk of one at a time) at most this many bytes
# uncompressed, as its footer states: parquet-mr and Spark write 128 MiB groups,
# pyarrow a million rows (about 200 MiB of page rows).
MAX_PARQUET_FOOTER: Final = 64 << 20
MAX_PARQUET_ROW_GROUP: Final = 1 << 30
# A Link header value (RFC 8288) read for hreflang: at most this many bytes, and this many
# links for one URL. Web servers refuse a request's header fields past 8 to 16 KiB
# (Apache LimitRequestFieldSize 8190, nginx large_client_header_buffers 8k); a
# response's Link header past 16 KiB is no annotation a crawler is known to read whole.
MAX_LINK_HEADER_BYTES: Final = 16 << 10
MAX_LINKS_PER_URL: Final = 1_000
# A _headers file or a vercel.json read for its header rules: at most this many bytes;
# at most this many rules with a pattern ('*', ':name') that give Link headers, each
# matched against every file (Cloudflare Pages takes 100 rules in a _headers file in
# all); every pattern (a _headers path or host, a vercel.json source) repeats at most
# this many times, splats, placeholders and a regex's repetitions counted together (a
# hostile one such as (a*)*b or twelve '*' backtracks for ever; Python's re has no time limit).
MAX_HEADERS_FILE_BYTES: Final = 4 << 20
MAX_PATTERN_RULES: Final = 100
MAX_PATTERN_QUANTIFIERS: Final = 3
# Ours, for what a build writes: one Link line of a header file at most this many bytes
# (servers and proxies hold a header to 4 or 8 KiB: nginx's proxy_buffer_size, Apache's
# LimitRequestFieldSize 8190); a longer set of alternates goes on to another Link line.
MAX_WRITTEN_LINK_BYTES: Final = 8 << 10
# Stored diagnostics per code; further ones are only counted (bounded memory).
MAX_STORED_PER_CODE: Final = 1_000
# Ours: a JSON or TOML file we read (our manifest, journal and cache entries, baselines,
# configs, vercel.json) nests at most this many arrays and objects; our own nest three or
# four deep. Deeper nesting is refused before it is parsed (a parser recurses per level).
MAX_STRUCTURED_DEPTH: Final = 64
# Ours: a JSON or TOML file of ours or a config (pyproject.toml, sitemap-ext.toml, a
# baseline, a manifest) is read up to this many bytes; a larger one is refused unread.
MAX_STRUCTURED_BYTES: Final = 64 << 20
# Ours: a build or submission waits at most this many seconds for a build state that
# another program holds locked (SQLite's busy timeout; Python's sqlite3 default), then
# gives up with F103: a lock is never taken for damage.
STATE_BUSY_SECONDS: Final = 5.0
# Ours: the rule catalogue (specs/rules.md, ours, shipped in the package) is read for its
# examples up to this many bytes; with every code's text and examples it is about 130 KB.
MAX_CATALOGUE_BYTES: Final = 1 << 20
# Ours: a config file (sitemap-ext.toml, or a pyproject.toml found upward from the
# working folder) is read up to this many bytes. Real ones are a few KiB (a monorepo's
# pyproject.toml tens of KiB); parsing TOML costs about 1 s a MiB, and a config is read
# by every check, so a planted 64 MiB one would cost a minute of every CI run.
MAX_CONFIG_BYTES: Final = 1 << 20

# Bytes of a built page read for its head (its hreflang links, canonical, robots): a head
# is rarely 50 KB; one that does not end within this is H117.
HEAD_LIMIT = 1 << 20

# Ours, measured (benchmarks/check_memory.py --memory-budget, and reads of a spilled
# column of 2,000,000 numbers): a check past its memory budget reads and writes the
# cluster index's spilled columns this many bytes at a time, and each column keeps this
# many pages read (least recently read given up first); its URLs are compressed this many
# bytes at a time (8 blocks kept inflated a text). A read out of order costs a page's
# pread: 4 KiB pages took 4-5 us, 16 KiB 7-9 us, 64 KiB 10-12 us; in order, 0.5 us a
# number whatever the page. With these, what a spilled index keeps whatever its size
# is about 10 MiB (``minimum_budget``).
SPILL_PAGE_BYTES: Final = 1 << 12
SPILL_PAGES_KEPT: Final = 64
SPILL_TEXT_BLOCK: Final = 1 << 18
