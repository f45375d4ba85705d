"""The registry of diagnostic codes: the one list the catalogue in specs/ mirrors.

Codes are stable and never reused. The letter says where a finding comes from:
F files and I/O, C the site description, S sources, U URLs, D values (dates,
changefreq, priority), O output, X sitemap XML being checked, L language tags,
H hreflang clusters, I images, V videos, N news.
"""

from __future__ import annotations

from .diagnostics import Code, Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_ENTRIES: tuple[Code, ...] = (
    # --- files and I/O
    Code("F101", E, "input-unreadable", "An input file or folder cannot be read.", io=True),
    Code("F102", E, "output-unwritable", "The output folder cannot be created or written.", io=True),
    Code("F103", E, "output-locked", "Another build is writing into the same output folder.", io=True),
    Code("F104", E, "nothing-to-check", "A check found no sitemap, feed or site description among its inputs."),
    # --- site description
    Code("C101", E, "yaml-syntax", "The YAML is malformed."),
    Code("C102", E, "unknown-key", "A key the format does not define (often a misspelling)."),
    Code("C103", E, "wrong-type", "A value of the wrong type (a list where a mapping belongs, say)."),
    Code("C104", E, "missing-key", "A required key is missing."),
    Code("C105", E, "undefined-variable", "${VAR} names an unset environment variable and gives no default."),
    Code("C106", E, "include-failed", "An included file is missing, unreadable or includes itself."),
    Code("C107", E, "duplicate-key", "A mapping names the same key twice; YAML would silently keep the last."),
    Code("C108", E, "bad-output-name", "An output file name escapes the output folder or lacks {n}."),
    Code("C109", E, "bad-setting", "A setting is out of its allowed range."),
    Code("C110", E, "yaml-too-large", "The YAML expands (through aliases) past the node limit."),
    Code("C111", E, "conflicting-keys", "A page gives keys that exclude each other (loc with path or urls)."),
    Code("C112", E, "unknown-locale", "A page names a locale that locales: does not define."),
    Code("C113", E, "page-other-host", "A page's URL is on no host of the site description, so it cannot be written (it was U107 before 0.2)."),
    Code("C114", E, "include-outside", "An include lies outside the site description's folder (and the folders --allow-read names)."),
    Code("C115", W, "include-repeated", "A file is included more than once; it is read once."),
    # --- sources (CSV, JSON Lines)
    Code("S101", E, "source-missing", "A source file is missing or unreadable."),
    Code("S102", E, "csv-row-invalid", "A CSV row has more fields than the header."),
    Code("S103", E, "jsonl-line-invalid", "A JSON Lines line is not a JSON object."),
    Code("S104", W, "source-column-unknown", "A source column the format does not define; it is ignored."),
    Code("S105", E, "source-no-url", "A source has no column that gives the page's URL."),
    Code("S106", E, "source-encoding", "A source is not valid UTF-8."),
    Code("S107", E, "source-format-unknown", "A source's format cannot be told from its name."),
    Code("S108", E, "source-outside", "A source lies outside the site description's folder (and the folders --allow-read names)."),
    Code("S109", E, "source-line-long", "A source line longer than 1 MiB; it is skipped."),
    # --- URLs
    Code("U101", E, "url-relative", "A URL is relative where an absolute one is required."),
    Code("U102", E, "url-scheme", "A URL's scheme is not http or https."),
    Code("U103", E, "url-too-long", "A URL has 2,048 characters or more once encoded."),
    Code("U104", W, "url-duplicate", "A URL is listed more than once; it is written once."),
    Code("U105", W, "url-whitespace", "A URL contains whitespace; it is percent-encoded."),
    Code("U106", W, "url-pre-escaped", "A URL contains '&amp;': it was XML-escaped already."),
    Code("U107", W, "url-other-host", "A URL on another host (or scheme, or port) than its sitemap, with no cross-submission shown (a robots.txt among the inputs, or --cross-submitted HOST)."),
    Code("U108", W, "url-out-of-scope", "A URL lies outside the folder its sitemap is served from (allowed only through robots.txt)."),
    Code("U109", E, "url-malformed", "A URL cannot be parsed (no host, bad port, bad characters)."),
    Code("U110", W, "url-fragment", "A URL has a #fragment; search engines drop it."),
    Code("U111", W, "url-not-encoded", "A URL in a sitemap is not written as an escaped URI (raw é, upper-case host)."),
    # --- values
    Code("D101", E, "lastmod-invalid", "A lastmod is empty, not a W3C datetime, or not a real date."),
    Code("D102", W, "lastmod-future", "A lastmod lies after the build or check time."),
    Code("D103", W, "lastmod-uniform", "Every lastmod in a file is identical: build time, not page time."),
    Code("D104", E, "changefreq-invalid", "A changefreq is not one of the seven values."),
    Code("D105", E, "priority-invalid", "A priority is not a number from 0.0 to 1.0."),
    Code("D106", I, "lastmod-rewritten", "A lastmod was written in a form both W3C and the XSD accept."),
    Code("D107", W, "lastmod-no-zone", "A lastmod has a time but no zone; UTC is assumed."),
    Code("D108", W, "lastmod-not-xsd", "A lastmod in a W3C form the sitemap XSD rejects (YYYY, YYYY-MM, hh:mm)."),
    # --- language tags (hreflang values)
    Code("L101", E, "hreflang-underscore", "A hreflang value uses '_' where '-' belongs (en_US)."),
    Code("L102", E, "hreflang-region-invalid", "A region that is not an ISO 3166-1 country (UK, EU, LA for Latin America)."),
    Code("L103", E, "hreflang-country-as-language", "A country code written as the language (jp, gr, cn, dk, ua, cz, kr, vn)."),
    Code("L104", E, "hreflang-deprecated", "A withdrawn language code (iw, in, ji, jw, mo)."),
    Code("L105", E, "hreflang-region-only", "A region alone, with no language (us)."),
    Code("L106", E, "hreflang-reversed", "Region and language in the wrong order (us-en)."),
    Code("L107", W, "hreflang-un-m49", "A UN M.49 numeric region (es-419), which Google does not take."),
    Code("L108", I, "hreflang-case", "A tag written in a non-canonical case (en-us for en-US)."),
    Code("L109", W, "hreflang-three-letter", "A three-letter language code (fil); Google documents two-letter ones."),
    Code("L110", E, "hreflang-three-letter-has-two", "A three-letter code where a two-letter one exists (deu for de)."),
    Code("L111", E, "hreflang-invalid", "Not a language tag Google takes (unknown code, variants, private use)."),
    Code("L112", W, "hreflang-sami-or-swedish", "'se' is Northern Sami; Swedish is 'sv' (se is Sweden's country code)."),
    # --- hreflang clusters
    Code("H101", E, "hreflang-link-malformed", "An xhtml:link without rel=alternate, hreflang or href."),
    Code("H102", E, "hreflang-href-invalid", "An alternate's href is relative or not an http(s) URL."),
    Code("H103", E, "hreflang-no-self", "A URL with alternates does not list itself among them."),
    Code("H104", E, "hreflang-no-return", "A lists B as an alternate; B is known and does not list A back."),
    Code("H105", E, "hreflang-return-code-differs", "A lists B under one code; B lists itself under another."),
    Code("H106", E, "hreflang-code-twice", "One hreflang code names two URLs in one cluster."),
    Code("H107", E, "hreflang-url-twice", "One URL is listed under two different languages (regions of one language may share a URL)."),
    Code("H108", E, "hreflang-x-default-twice", "A cluster has more than one x-default."),
    Code("H109", E, "hreflang-url-in-two-clusters", "A URL belongs to two clusters that share nothing else."),
    Code("H110", W, "hreflang-sets-differ", "Members of one cluster list different sets of alternates; Google keeps the reciprocal pairs."),
    Code("H111", I, "hreflang-unverifiable", "An alternate points outside everything checked, or only to a text sitemap (which carries no hreflang); its return link cannot be verified."),
    Code("H112", I, "hreflang-no-x-default", "A cluster has no x-default for users whose language matches none."),
    Code("H113", E, "hreflang-url-variant", "An alternate or return link names another spelling of a listed URL (trailing slash, http/https): a different URL to search engines."),
    # --- sitemap XML being checked
    Code("X101", E, "xml-malformed", "The file is not well-formed XML (or is truncated)."),
    Code("X102", E, "xml-doctype", "The file has a DOCTYPE or entity declarations; they are refused unread."),
    Code("X103", E, "xml-encoding", "The file is not UTF-8."),
    Code("X104", E, "xml-root", "The root element is neither urlset nor sitemapindex of the sitemaps.org 0.9 namespace."),
    Code("X105", E, "xml-namespace", "A namespace URI is misspelt (https for http, a trailing slash)."),
    Code("X106", W, "xml-order", "Elements out of the order the XSD requires (loc, lastmod, changefreq, priority, extensions); search engines read any order."),
    Code("X107", E, "xml-loc", "A url or sitemap entry without exactly one loc."),
    Code("X108", E, "file-too-many-urls", "A sitemap or index with more than 50,000 entries."),
    Code("X109", E, "file-too-large", "A file over 52,428,800 bytes uncompressed; reading stops there."),
    Code("X110", E, "index-nested", "A sitemap index lists another sitemap index."),
    Code("X111", W, "index-child-missing", "A sitemap an index lists is not found on disk; it is not checked."),
    Code("X112", W, "xml-unknown-element", "An element the sitemap schemas do not define."),
    Code("X113", E, "text-line-invalid", "A text sitemap line that is not one absolute URL."),
    Code("X114", E, "gzip-invalid", "A .gz file that is not valid gzip, or is truncated."),
    Code("X115", E, "urlset-empty", "A urlset or index with no entries."),
    Code("X116", I, "file-misnamed", "A file's name says one kind (.txt, .xml, .gz) and its content another; it is read as its content."),
    Code("X117", I, "file-same-as", "A sitemap and its gzipped copy (sitemap.xml, sitemap.xml.gz) hold the same bytes: checked once."),
    Code("X118", E, "index-lists-itself", "A sitemap index lists itself."),
    # --- images
    Code("I101", E, "image-loc", "An image without a loc (its URL)."),
    Code("I102", E, "image-too-many", "More than 1,000 images on one page."),
    Code("I103", W, "image-deprecated", "caption, title, geo_location or license: ignored by Google since 2022."),
    Code("I104", I, "image-other-host", "An image on another host than its page (a CDN): allowed."),
    # --- videos
    Code("V101", E, "video-field-missing", "A video without thumbnail_loc, title or description."),
    Code("V102", E, "video-no-media", "A video with neither content_loc nor player_loc."),
    Code("V103", E, "video-loc-is-page", "content_loc or player_loc is the page's own URL."),
    Code("V104", E, "video-description-long", "A video description over 2,048 characters."),
    Code("V105", E, "video-title-long", "A video title over 100 characters (the XSD's limit)."),
    Code("V106", E, "video-duration", "A duration that is not a whole number of seconds from 1 to 28,800."),
    Code("V107", E, "video-rating", "A rating outside 0.0 to 5.0."),
    Code("V108", E, "video-restriction", "A restriction that is not allow|deny with upper-case ISO 3166 codes, or more than one."),
    Code("V109", E, "video-platform", "A platform that is not allow|deny with web, mobile, tv, or more than one."),
    Code("V110", E, "video-yes-no", "family_friendly, requires_subscription or live that is not yes or no."),
    Code("V111", E, "video-uploader", "An uploader over 255 characters, or its info URL off the page's domain."),
    Code("V112", E, "video-tags", "More than 32 tags on one video."),
    Code("V113", E, "video-date", "An expiration_date or publication_date that is not a W3C date."),
    Code("V114", W, "video-expired", "A video whose expiration_date has passed."),
    Code("V115", W, "video-deprecated", "category, gallery_loc, price, tvshow or player_loc attributes: ignored since 2022."),
    Code("V116", W, "video-order", "Children of a video:video out of the XSD's strict order; search engines read any order."),
    Code("V117", E, "video-view-count", "A view_count that is not a whole number of at least 0."),
    # --- news
    Code("N101", E, "news-field-missing", "News without publication name, language, publication_date or title."),
    Code("N102", E, "news-language", "A news language that is not ISO 639 in lower case (or zh-cn, zh-tw)."),
    Code("N103", E, "news-date", "A news publication_date that is not a W3C date."),
    Code("N104", W, "news-old", "An article published more than 48 hours before the build or check time."),
    Code("N105", W, "news-future", "An article published after the build or check time."),
    Code("N106", E, "news-too-many", "More than 1,000 news entries in one sitemap."),
    Code("N107", W, "news-undocumented", "keywords, stock_tickers, genres or access: no longer documented by Google."),
    Code("N108", E, "news-twice", "More than one news:news in one <url>."),
    Code("N109", W, "news-order", "Children of news:news out of the XSD's order; search engines read any order."),
    Code("N110", I, "news-left-out", "An article older than 48 hours left out of the news sitemap (drop_old_news)."),
    # --- output
    Code("O101", E, "too-many-sitemaps", "More than 50,000 sitemaps would be needed for one index."),
    Code("O102", E, "no-urls", "The site has no URLs to write (an empty urlset fails the XSD)."),
    Code("O103", E, "output-name-clash", "Two output files would have one name, or a name sitemap-ext keeps for itself."),
    Code("O104", E, "output-owned-elsewhere", "A file this build writes was written by another site description into the same folder."),
    Code("O105", E, "output-not-ours", "A link, folder or special file stands where the build writes; it is never followed or replaced."),
)

REGISTRY: dict[str, Code] = {entry.code: entry for entry in _ENTRIES}

if len(REGISTRY) != len(_ENTRIES):  # pragma: no cover - guards edits to the table
    raise RuntimeError("duplicate diagnostic code in codes.py")
