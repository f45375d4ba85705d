"""Every diagnostic code, in one static table: the registry (``codes.REGISTRY``), the
catalogue (specs/rules.md, ``sitemap-ext rules``) and the modules that report a code
all read it from here.

This module imports nothing, so knowing the codes costs nothing: a build does not load
the check, nor the check a writer, to learn a code's severity. A module reports a code
by its string (``collector.report("D104", ...)``); a test holds that each code here is
reported by exactly one module, and that every code a module reports is here.

Codes are stable and never reused. The letter says where a finding comes from:
F files and I/O, C the site description, S sources, U URLs, D values (dates,
changefreq, priority), L language tags, H hreflang clusters, X sitemap XML being
checked, I images, V videos, N news, O output, R a live site fetched over HTTP.
Rows are in the catalogue's order (specs/rules.md): by letter as above, then by
number.

Each row is ``(code, severity, name, stage, flags, summary)``:

- severity: ``"error"``, ``"warning"`` or ``"info"`` (the default; a user's policy may
  change it).
- name: the code's stable name, which ``--select`` and ``--ignore`` accept too.
- stage (as ruff keeps its codes): ``"preview"`` (new, its meaning may still change),
  ``"stable"``, ``"deprecated"`` (still reported, going in a later version) or
  ``"removed"`` (never reported again; kept here so the code is never given another
  meaning).
- flags, separated by spaces: ``io``, an input/output failure (unreadable input,
  unwritable output: exit 3); ``unread``, a finding of it means an input, or a file an
  input lists, was not read whole as a sitemap (rejected, missing, unfetched): what was
  read is less than the site. With ``io``, such a finding is never recorded in a
  baseline nor hidden by one, and a diff of a side that has one stops (exit 3).
- summary: one line, ending with a full stop; specs/rules.md says the rest.

Adding a code touches three files: a row here (after the last of its letter), the
report in the module that judges it, and specs/rules.md (its row and text in its
letter's section, and its failing and passing example, a ```yaml example CODE block of
the Examples part).
"""

PREVIEW, STABLE, DEPRECATED, REMOVED = "preview", "stable", "deprecated", "removed"
STAGES = (PREVIEW, STABLE, DEPRECATED, REMOVED)
SEVERITIES = ("error", "warning", "info")
FLAGS = ("io", "unread")

# (code, severity, name, stage, flags, summary)
TABLE: tuple[tuple[str, str, str, str, str, str], ...] = (
    # F: files and I/O
    ("F101", "error", "input-unreadable", STABLE, "io", "An input file or folder cannot be read."),
    ("F102", "error", "output-unwritable", STABLE, "io", "The output folder cannot be created or written."),
    ("F103", "error", "output-locked", STABLE, "io", "Another build is writing into the same output folder."),
    ("F104", "error", "nothing-to-check", STABLE, "unread",
     "A check found no sitemap, feed or site description among its inputs."),
    ("F105", "error", "state-unreadable", STABLE, "io",
     "A build state file cannot be used: not SQLite, damaged, or not a sitemap-ext state."),
    ("F106", "warning", "own-file-damaged", STABLE, "",
     "A file sitemap-ext keeps for itself (an output folder's manifest or journal, a --cache entry) is not JSON,"
     " nests too deep or is too large; it is set aside and rebuilt."),
    ("F107", "error", "spill-unwritable", STABLE, "io",
     "A check past its --memory-budget cannot write its spill folder (a full disk); the rules across files are not"
     " run."),
    # C: the site description
    ("C101", "error", "yaml-syntax", STABLE, "unread", "The YAML is malformed."),
    ("C102", "error", "unknown-key", STABLE, "", "A key the format does not define (often a misspelling)."),
    ("C103", "error", "wrong-type", STABLE, "", "A value of the wrong type (a list where a mapping belongs, say)."),
    ("C104", "error", "missing-key", STABLE, "", "A required key is missing."),
    ("C105", "error", "undefined-variable", STABLE, "",
     "${VAR} names an unset environment variable and gives no default."),
    ("C106", "error", "include-failed", STABLE, "unread",
     "An included file is missing, unreadable or includes itself."),
    ("C107", "error", "duplicate-key", STABLE, "",
     "A mapping names the same key twice; YAML would silently keep the last."),
    ("C108", "error", "bad-output-name", STABLE, "", "An output file name escapes the output folder or lacks {n}."),
    ("C109", "error", "bad-setting", STABLE, "", "A setting is out of its allowed range."),
    ("C110", "error", "yaml-too-large", STABLE, "unread",
     "The YAML holds, or expands (through aliases) to, more nodes than the limit."),
    ("C111", "error", "conflicting-keys", STABLE, "",
     "A page gives keys that exclude each other (loc with path or urls)."),
    ("C112", "error", "unknown-locale", STABLE, "", "A page names a locale that locales: does not define."),
    ("C113", "error", "page-other-host", STABLE, "",
     "A page's URL is on no host of the site description, so it cannot be written (it was U107 before 0.2)."),
    ("C114", "error", "include-outside", STABLE, "",
     "An include, or output.state, lies outside the site description's folder (and the folders --allow-read names)."),
    ("C115", "warning", "include-repeated", STABLE, "", "A file is included more than once; it is read once."),
    ("C120", "warning", "content-date-unknown", STABLE, "",
     "lastmod: content on a page that gives no digest or content field, or in a build that keeps no state; its"
     " lastmod is left out."),
    # S: sources (CSV, JSON Lines)
    ("S101", "error", "source-missing", STABLE, "unread", "A source file is missing or unreadable."),
    ("S102", "error", "csv-row-invalid", STABLE, "", "A CSV row has more fields than the header."),
    ("S103", "error", "jsonl-line-invalid", STABLE, "", "A JSON Lines line is not a JSON object."),
    ("S104", "warning", "source-column-unknown", STABLE, "",
     "A source column the format does not define; it is ignored."),
    ("S105", "error", "source-no-url", STABLE, "", "A source has no column that gives the page's URL."),
    ("S106", "error", "source-encoding", STABLE, "unread", "A source is not valid UTF-8."),
    ("S107", "error", "source-format-unknown", STABLE, "", "A source's format cannot be told from its name."),
    ("S108", "error", "source-outside", STABLE, "",
     "A source lies outside the site description's folder (and the folders --allow-read names)."),
    ("S109", "error", "source-line-long", STABLE, "", "A source line longer than 1 MiB; it is skipped."),
    ("S110", "warning", "site-git-unavailable", STABLE, "",
     "lastmod from git was asked for a built site whose folder is in no git repository (or git is missing); its pages"
     " get no lastmod from git."),
    ("S111", "error", "source-parts-columns", PREVIEW, "",
     "A part of a folder source has other columns than the folder's first part."),
    # U: URLs
    ("U101", "error", "url-relative", STABLE, "", "A URL is relative where an absolute one is required."),
    ("U102", "error", "url-scheme", STABLE, "", "A URL's scheme is not http or https."),
    ("U103", "error", "url-too-long", STABLE, "", "A URL has 2,048 characters or more once encoded."),
    ("U104", "warning", "url-duplicate", STABLE, "", "A URL is listed more than once; it is written once."),
    ("U105", "warning", "url-whitespace", STABLE, "",
     "A URL contains whitespace inside it; it is percent-encoded (whitespace around it is U115)."),
    ("U106", "warning", "url-pre-escaped", STABLE, "", "A URL contains '&amp;': it was XML-escaped already."),
    ("U107", "warning", "url-other-host", STABLE, "",
     "A URL on another host (or scheme, or port) than its sitemap, with no cross-submission shown (a robots.txt among"
     " the inputs, or --cross-submitted HOST)."),
    ("U108", "warning", "url-out-of-scope", STABLE, "",
     "A URL lies outside the folder its sitemap is served from (allowed only through robots.txt)."),
    ("U109", "error", "url-malformed", STABLE, "", "A URL cannot be parsed (no host, bad port, bad characters)."),
    ("U110", "warning", "url-fragment", STABLE, "", "A URL has a #fragment; search engines drop it."),
    ("U111", "warning", "url-not-encoded", STABLE, "",
     "A URL in a sitemap is not written as an escaped URI (raw é, a space)."),
    ("U112", "warning", "url-excluded", STABLE, "",
     "A sitemap lists a URL whose built page is noindex or names another URL as its canonical."),
    ("U113", "error", "url-no-page", STABLE, "",
     "A sitemap lists a URL of the built site that no built file serves: a 404 after deploying."),
    ("U114", "warning", "url-not-listed", STABLE, "",
     "A built page that is indexable and its own canonical is in no sitemap checked."),
    ("U115", "info", "url-padded", STABLE, "",
     "Whitespace around a URL in its element or attribute; the XSD's anyURI collapses it and every parser trims it"
     " (U105 before 0.4)."),
    ("U116", "warning", "page-name-not-utf8", STABLE, "",
     "A built file's name is not valid UTF-8: no URL reaches it, so it is no page of the site."),
    ("U117", "error", "url-unreachable-host", PREVIEW, "",
     "A published sitemap's URLs are on a development name (localhost, *.local, *.test, *.internal) or a loopback or"
     " private address: no crawler can reach them."),
    ("U118", "warning", "url-template-token", PREVIEW, "",
     "A URL holds a template's variable left unfilled ($VIDEO_ID, ${id}, {{ slug }}, %ID%)."),
    # D: values (dates, changefreq, priority)
    ("D101", "error", "lastmod-invalid", STABLE, "", "A lastmod is empty, not a W3C datetime, or not a real date."),
    ("D102", "warning", "lastmod-future", STABLE, "", "A lastmod lies after the build or check time."),
    ("D103", "warning", "lastmod-uniform", STABLE, "",
     "Every lastmod in a file is identical: build time, not page time."),
    ("D104", "error", "changefreq-invalid", STABLE, "", "A changefreq is not one of the seven values."),
    ("D105", "error", "priority-invalid", STABLE, "", "A priority is not a number from 0.0 to 1.0."),
    ("D106", "info", "lastmod-rewritten", STABLE, "", "A lastmod was written in a form both W3C and the XSD accept."),
    ("D107", "warning", "lastmod-no-zone", STABLE, "", "A lastmod has a time but no zone; UTC is assumed."),
    ("D108", "warning", "lastmod-not-xsd", STABLE, "",
     "A lastmod in a W3C form the sitemap XSD rejects (YYYY, YYYY-MM, hh:mm)."),
    ("D109", "warning", "lastmod-not-credible", STABLE, "",
     "Most lastmods of a file are its newest one, or all of a large file's fall within one minute: the time it was"
     " generated, not when pages changed."),
    ("D110", "warning", "lastmod-moved-same-content", STABLE, "",
     "A page's lastmod moved since the last build while its content digest did not."),
    ("D111", "warning", "lastmod-not-w3c", PREVIEW, "",
     "A lastmod the sitemap XSD accepts in a form W3C Datetime does not define (a date with a zone, 24:00:00)."),
    # L: language tags
    ("L101", "error", "hreflang-underscore", STABLE, "", "A hreflang value uses '_' where '-' belongs (en_US)."),
    ("L102", "error", "hreflang-region-invalid", STABLE, "",
     "A region that is not an ISO 3166-1 country (UK, EU, LA for Latin America)."),
    ("L103", "error", "hreflang-country-as-language", STABLE, "",
     "A country code written as the language (jp, gr, cn, dk, ua, cz, kr, vn)."),
    ("L104", "error", "hreflang-deprecated", STABLE, "", "A withdrawn language code (iw, in, ji, jw, mo)."),
    ("L105", "error", "hreflang-region-only", STABLE, "", "A region alone, with no language (us)."),
    ("L106", "error", "hreflang-reversed", STABLE, "", "Region and language in the wrong order (us-en)."),
    ("L107", "warning", "hreflang-un-m49", STABLE, "",
     "A UN M.49 numeric region (es-419), which Google does not take."),
    ("L108", "info", "hreflang-case", STABLE, "", "A tag written in a non-canonical case (en-us for en-US)."),
    ("L109", "warning", "hreflang-three-letter", STABLE, "",
     "A three-letter language code (fil); Google documents two-letter ones."),
    ("L110", "error", "hreflang-three-letter-has-two", STABLE, "",
     "A three-letter code where a two-letter one exists (deu for de)."),
    ("L111", "error", "hreflang-invalid", STABLE, "",
     "Not a language tag Google takes (unknown code, variants, private use)."),
    ("L112", "warning", "hreflang-sami-or-swedish", STABLE, "",
     "'se' is Northern Sami; Swedish is 'sv' (se is Sweden's country code)."),
    ("L113", "info", "html-lang-differs", STABLE, "",
     "A built page's <html lang> names another language than its own hreflang code."),
    ("L114", "info", "hreflang-uk-ukrainian", STABLE, "",
     "'uk' (Ukrainian) beside only English versions, or on a .uk host: often meant as the United Kingdom, which is"
     " en-GB."),
    # H: hreflang clusters
    ("H101", "error", "hreflang-link-malformed", STABLE, "", "An xhtml:link without rel=alternate, hreflang or href."),
    ("H102", "error", "hreflang-href-invalid", STABLE, "", "An alternate's href is relative or not an http(s) URL."),
    ("H103", "error", "hreflang-no-self", STABLE, "", "A URL with alternates does not list itself among them."),
    ("H104", "error", "hreflang-no-return", STABLE, "",
     "A lists B as an alternate; B is known and does not list A back."),
    ("H105", "error", "hreflang-return-code-differs", STABLE, "",
     "A lists B under one code; B lists itself under another."),
    ("H106", "error", "hreflang-code-twice", STABLE, "", "One hreflang code names two URLs in one cluster."),
    ("H107", "error", "hreflang-url-twice", STABLE, "",
     "One URL is listed under two different languages (regions of one language may share a URL)."),
    ("H108", "error", "hreflang-x-default-twice", STABLE, "", "A cluster has more than one x-default."),
    ("H109", "error", "hreflang-url-in-two-clusters", STABLE, "",
     "A URL belongs to two clusters that share nothing else."),
    ("H110", "warning", "hreflang-sets-differ", STABLE, "",
     "Members of one cluster list different sets of alternates; Google keeps the reciprocal pairs."),
    ("H111", "info", "hreflang-unverifiable", STABLE, "",
     "An alternate points outside everything checked, or only to a text sitemap (which carries no hreflang); its"
     " return link cannot be verified."),
    ("H112", "info", "hreflang-no-x-default", STABLE, "",
     "A cluster has no x-default for users whose language matches none."),
    ("H113", "error", "hreflang-url-variant", STABLE, "",
     "An alternate or return link names another spelling of a listed URL (trailing slash, http/https): a different"
     " URL to search engines."),
    ("H114", "error", "hreflang-to-excluded", STABLE, "",
     "An alternate names a built page that is noindex or names another URL as its canonical; search engines ignore"
     " the pair."),
    ("H115", "error", "hreflang-to-missing", STABLE, "",
     "An alternate names a URL of the built site that no built file serves: a 404 after deploying."),
    ("H116", "warning", "hreflang-sitemap-page-differ", STABLE, "",
     "A URL's sitemap entry, its built page and its Link header give alternates that contradict."),
    ("H117", "warning", "page-head-unread", STABLE, "",
     "A built page's head does not end within its first 1 MiB; its hreflang links, canonical and robots tags were not"
     " read."),
    ("H118", "error", "link-header-malformed", STABLE, "",
     "A Link header (RFC 8288) that cannot be parsed: a link without <target>, an unterminated quoted string; the"
     " rest of that value is not read."),
    ("H119", "error", "link-header-too-large", STABLE, "",
     "A Link header over 16 KiB, or more than 1,000 links for one URL: read up to that limit only."),
    ("H120", "warning", "header-rule-no-file", STABLE, "",
     "A _headers or vercel.json rule that gives hreflang links names no file of the built site."),
    ("H121", "error", "headers-file-invalid", STABLE, "",
     "A _headers line that is neither a path pattern nor a 'Name: value' header under one, or a vercel.json whose"
     " headers are not of the documented shape; that rule is not read."),
    # X: sitemap XML being checked
    ("X101", "error", "xml-malformed", STABLE, "unread", "The file is not well-formed XML (or is truncated)."),
    ("X102", "error", "xml-doctype", STABLE, "unread",
     "The file has a DOCTYPE or entity declarations; they are refused unread."),
    ("X103", "error", "xml-encoding", STABLE, "unread", "The file is not UTF-8."),
    ("X104", "error", "xml-root", STABLE, "unread",
     "The root element is neither urlset nor sitemapindex of the sitemaps.org 0.9 namespace."),
    ("X105", "error", "xml-namespace", STABLE, "", "A namespace URI is misspelt (https for http, a trailing slash)."),
    ("X106", "warning", "xml-order", STABLE, "",
     "Elements out of the order the XSD requires (loc, lastmod, changefreq, priority, extensions); search engines"
     " read any order."),
    ("X107", "error", "xml-loc", STABLE, "", "A url or sitemap entry without exactly one loc."),
    ("X108", "error", "file-too-many-urls", STABLE, "", "A sitemap or index with more than 50,000 entries."),
    ("X109", "error", "file-too-large", STABLE, "unread",
     "A file over 52,428,800 bytes uncompressed; reading stops there."),
    ("X110", "error", "index-nested", STABLE, "unread", "A sitemap index lists another sitemap index."),
    ("X111", "warning", "index-child-missing", STABLE, "unread",
     "A sitemap an index lists is not found on disk; it is not checked."),
    ("X112", "warning", "xml-unknown-element", STABLE, "", "An element the sitemap schemas do not define."),
    ("X113", "error", "text-line-invalid", STABLE, "", "A text sitemap line that is not one absolute URL."),
    ("X114", "error", "gzip-invalid", STABLE, "unread", "A .gz file that is not valid gzip, or is truncated."),
    ("X115", "error", "urlset-empty", STABLE, "unread", "A urlset or index with no entries."),
    ("X116", "info", "file-misnamed", STABLE, "",
     "A file's name says one kind (.txt, .xml, .gz) and its content another; it is read as its content."),
    ("X117", "info", "file-same-as", STABLE, "",
     "A sitemap and its gzipped copy (sitemap.xml, sitemap.xml.gz) hold the same bytes: checked once."),
    ("X118", "error", "index-lists-itself", STABLE, "", "A sitemap index lists itself."),
    # I: images
    ("I101", "error", "image-loc", STABLE, "", "An image without a loc (its URL)."),
    ("I102", "error", "image-too-many", STABLE, "", "More than 1,000 images on one page."),
    ("I103", "warning", "image-deprecated", STABLE, "",
     "caption, title, geo_location or license: ignored by Google since 2022."),
    ("I104", "info", "image-other-host", STABLE, "", "An image on another host than its page (a CDN): allowed."),
    ("I105", "error", "image-not-an-image", PREVIEW, "",
     "An image's URL names another kind of file (a video, a PDF, a page) by its extension."),
    # V: videos
    ("V101", "error", "video-field-missing", STABLE, "", "A video without thumbnail_loc, title or description."),
    ("V102", "error", "video-no-media", STABLE, "", "A video with neither content_loc nor player_loc."),
    ("V103", "error", "video-loc-is-page", STABLE, "", "content_loc or player_loc is the page's own URL."),
    ("V104", "error", "video-description-long", STABLE, "", "A video description over 2,048 characters."),
    ("V105", "error", "video-title-long", STABLE, "", "A video title over 100 characters (the XSD's limit)."),
    ("V106", "error", "video-duration", STABLE, "",
     "A duration that is not a whole number of seconds from 1 to 28,800."),
    ("V107", "error", "video-rating", STABLE, "", "A rating outside 0.0 to 5.0."),
    ("V108", "error", "video-restriction", STABLE, "",
     "A restriction that is not allow|deny with upper-case ISO 3166 codes, or more than one."),
    ("V109", "error", "video-platform", STABLE, "",
     "A platform that is not allow|deny with web, mobile, tv, or more than one."),
    ("V110", "error", "video-yes-no", STABLE, "",
     "family_friendly, requires_subscription or live that is not yes or no."),
    ("V111", "error", "video-uploader", STABLE, "",
     "An uploader over 255 characters, or its info URL off the page's domain."),
    ("V112", "error", "video-tags", STABLE, "", "More than 32 tags on one video."),
    ("V113", "error", "video-date", STABLE, "", "An expiration_date or publication_date that is not a W3C date."),
    ("V114", "warning", "video-expired", STABLE, "", "A video whose expiration_date has passed."),
    ("V115", "warning", "video-deprecated", STABLE, "",
     "category, gallery_loc, price, tvshow or player_loc attributes: ignored since 2022."),
    ("V116", "warning", "video-order", STABLE, "",
     "Children of a video:video out of the XSD's strict order; search engines read any order."),
    ("V117", "error", "video-view-count", STABLE, "", "A view_count that is not a whole number of at least 0."),
    ("V118", "error", "video-url-wrong-kind", PREVIEW, "",
     "thumbnail_loc names no image, or content_loc a page, Flash, an image or a document, by its extension."),
    # N: news
    ("N101", "error", "news-field-missing", STABLE, "",
     "News without publication name, language, publication_date or title."),
    ("N102", "error", "news-language", STABLE, "",
     "A news language that is not ISO 639 in lower case (or zh-cn, zh-tw)."),
    ("N103", "error", "news-date", STABLE, "", "A news publication_date that is not a W3C date."),
    ("N104", "warning", "news-old", STABLE, "",
     "An article published more than 48 hours before the build or check time."),
    ("N105", "warning", "news-future", STABLE, "", "An article published after the build or check time."),
    ("N106", "error", "news-too-many", STABLE, "", "More than 1,000 news entries in one sitemap."),
    ("N107", "warning", "news-undocumented", STABLE, "",
     "keywords, stock_tickers, genres or access: no longer documented by Google."),
    ("N108", "error", "news-twice", STABLE, "", "More than one news:news in one <url>."),
    ("N109", "warning", "news-order", STABLE, "",
     "Children of news:news out of the XSD's order; search engines read any order."),
    ("N110", "info", "news-left-out", STABLE, "",
     "An article older than 48 hours left out of the news sitemap (drop_old_news)."),
    # O: output
    ("O101", "error", "too-many-sitemaps", STABLE, "", "More than 50,000 sitemaps would be needed for one index."),
    ("O102", "error", "no-urls", STABLE, "", "The site has no URLs to write (an empty urlset fails the XSD)."),
    ("O103", "error", "output-name-clash", STABLE, "",
     "Two output files would have one name, or a name sitemap-ext keeps for itself."),
    ("O104", "error", "output-owned-elsewhere", STABLE, "",
     "A file this build writes was written by another site description into the same folder."),
    ("O105", "error", "output-not-ours", STABLE, "",
     "A link, folder or special file stands where the build writes; it is never followed or replaced."),
    ("O106", "error", "header-injection", STABLE, "",
     "A value to be written into a _headers file or vercel.json holds CR, LF or another control character, or a"
     " _headers path holds a pattern ('*', ':name', whitespace); nothing is written."),
    ("O107", "error", "headers-file-not-ours", STABLE, "",
     "A _headers or vercel.json that this build did not write stands in the output folder; it is never replaced."),
    ("O108", "error", "state-other-site", STABLE, "", "A build state file was written for another site description."),
    ("O109", "info", "views-left-out", STABLE, "",
     "output.html is not set and a host's sitemaps list more than 50,000 URLs: their HTML views are not written."),
    # R: a live site, over HTTP
    ("R101", "error", "fetch-failed", STABLE, "io",
     "A sitemap, robots.txt or page cannot be fetched: no connection, no name, TLS, or no answer in time."),
    ("R102", "error", "http-error", STABLE, "unread",
     "A sitemap or robots.txt answers with an HTTP error status (403, 404, 410, 429, 5xx)."),
    ("R103", "warning", "sitemap-redirected", STABLE, "", "A sitemap URL redirects; list and submit its final URL."),
    ("R104", "error", "redirect-loop", STABLE, "unread", "Redirects loop, or go on past five hops."),
    ("R105", "warning", "sitemap-content-type", STABLE, "",
     "A sitemap is served with a Content-Type that says neither XML, text nor gzip."),
    ("R106", "error", "address-refused", STABLE, "io",
     "A URL that resolves to a local-network address, or is no http(s) URL, is not fetched (--allow-private)."),
    ("R107", "error", "url-disallowed", STABLE, "",
     "A listed URL is one its host's robots.txt disallows for Googlebot."),
    ("R108", "error", "no-sitemap-found", STABLE, "unread",
     "A site names no sitemap in its robots.txt and has none at the usual locations."),
    ("R109", "warning", "page-redirects", STABLE, "", "A listed URL or an alternate redirects; list the final URL."),
    ("R110", "error", "listed-fetch-failed", STABLE, "unread",
     "A sitemap or page the site lists (robots.txt, an index, --pages) cannot be fetched: no connection, no answer in"
     " time."),
    ("R111", "error", "indexnow-key-file", STABLE, "",
     "The IndexNow key file at a host's root is missing or does not hold the key; nothing is sent for that host."),
    ("R112", "error", "indexnow-refused", STABLE, "", "An IndexNow endpoint refused a submission (400, 403, 422)."),
    ("R113", "error", "indexnow-unavailable", STABLE, "",
     "An IndexNow endpoint cannot be reached, or answers 429 or 5xx after the retries."),
    ("R114", "info", "indexnow-key-pending", STABLE, "",
     "An IndexNow endpoint took URLs while it validates the key (202)."),
)
