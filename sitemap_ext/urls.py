"""URL normalisation: absolute, http(s), RFC 3986 escaped, no whitespace.

An IRI (``/café/``, ``/日本/``) is percent-encoded as UTF-8 and an IDN host is
written in punycode. Existing ``%XX`` escapes are kept; a stray ``%`` becomes
``%25``. XML escaping is not done here: the writer escapes ``&`` exactly once,
so a URL that arrives already escaped (``&amp;``) is unescaped and reported.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from functools import lru_cache
from hashlib import blake2b
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

import idna

from ._escapes import canonical_part
from .limits import MAX_URL_CHARS

# Already in the form we write: ASCII, lower-case scheme and host, no port (ports
# take the slow path, which checks their range), only characters allowed unescaped
# in a URI, and every '%' starting an escape.
# A host name: dot-separated labels of letters, digits and '-', none empty.
_HOST_NAME = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
_CLEAN = re.compile(
    r"https?://" + _HOST_NAME +
    r"/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*"
)
_CLEAN_PATH = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*")
# The same without escapes: one character class, which the regex engine runs much faster.
PLAIN_PATH_CHARS = r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*"
_PLAIN = re.compile(r"https?://" + _HOST_NAME + "/" + PLAIN_PATH_CHARS)
_PLAIN_PATH = re.compile(r"/[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_WHITESPACE = re.compile(r"\s")
# Characters left as they are when escaping: RFC 3986 unreserved and reserved, and '%'.
# Not '[' ']': RFC 3986 allows them only around an IPv6 host, and anyURI rejects them.
_SAFE = "-._~!$&'()*+,;=:@/?%"


@dataclass(frozen=True, slots=True)
class UrlProblem:
    code: str
    message: str
    suggestion: str | None = None


UrlResult = tuple[str | None, tuple[UrlProblem, ...]]


@dataclass(frozen=True, slots=True)
class Origin:
    """scheme://host[:port], the unit a sitemap may list URLs for."""

    scheme: str
    netloc: str

    def __str__(self) -> str:
        return f"{self.scheme}://{self.netloc}"


def origin_text(url: str) -> str:
    """scheme://host[:port] of an absolute URL, as written (cheap: no parsing)."""
    end = url.find("/", url.find("//") + 2)
    return url if end < 0 else url[:end]


def origin_of(url: str) -> Origin:
    """The origin of a URL normalise() returned (so it parses)."""
    parts = urlsplit(url)
    return Origin(parts.scheme, parts.netloc)


def is_clean(url: str) -> bool:
    """Already in the one form we write (so normalise() would return it unchanged)."""
    return len(url) <= MAX_URL_CHARS and \
        (_PLAIN.fullmatch(url) is not None or ("%" in url and _CLEAN.fullmatch(url) is not None)) \
        and "&amp;" not in url


def is_clean_path(path: str) -> bool:
    """A root-relative path that needs no escaping: base + path[1:] is then clean too."""
    return (_PLAIN_PATH.fullmatch(path) is not None
            or (path.startswith("/") and "%" in path and _CLEAN_PATH.fullmatch(path) is not None)) \
        and "&amp;" not in path


def _escape(part: str) -> str:
    if _CLEAN_PATH.fullmatch(part):
        return part
    return quote(_BAD_PERCENT.sub("%25", part), safe=_SAFE)


# Labels may hold '_' (found in real subdomains; DNS allows it, host names do not);
# an IPv6 literal is hex digits and colons (with an IPv4 tail) in brackets.
_VALID_HOST = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?"
                         r"|\[[0-9a-f:.]+\]")


@lru_cache(maxsize=4096)
def _idn(host: str) -> str | None:
    """A non-ASCII host as browsers write it (UTS 46 non-transitional, IDNA 2008):
    ``straße`` is ``xn--strae-oqa``, ``ς`` stays a final sigma, a joiner where its
    context forbids it is refused; None if it does not encode. (The standard library's
    ``idna`` codec is IDNA 2003: it writes ``strasse`` and drops joiners, naming
    another host.) ASCII labels are kept as they are: DNS allows ``_`` in them."""
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
        return ".".join(label if label.isascii() else idna.alabel(label).decode("ascii")
                        for label in mapped.split("."))
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def _host(netloc: str) -> str | None:
    """Lower-case the host, punycode an IDN, keep userinfo and port; None if invalid."""
    userinfo, _, hostport = netloc.rpartition("@")
    if hostport.startswith("["):  # [IPv6] or [IPv6]:port
        host, _, rest = hostport.partition("]")
        host += "]"
        if rest and not rest.startswith(":"):
            return None
        port = rest[1:]
    else:
        host, _, port = hostport.partition(":")
    if port and (not (port.isascii() and port.isdigit() and len(port) <= 5) or not 0 < int(port) < 65536):
        return None
    if not host:
        return None
    name = host.lower() if host.isascii() else _idn(host)
    if name is None or not _VALID_HOST.fullmatch(name) or len(name) > 253:
        return None
    out = name + (":" + port if port else "")
    return (userinfo + "@" + out) if userinfo else out


def _join(base: str, reference: str) -> str:
    """Resolve a relative reference. urljoin() drops empty ';' parameters ('/;' -> '/'),
    so the common root-relative case is joined by hand."""
    if reference.startswith("/") and not reference.startswith("//"):
        parts = urlsplit(base)
        return f"{parts.scheme}://{parts.netloc}{reference}"
    return urljoin(base, reference)


def escaped_twice(what: str | None = None) -> tuple[str, str]:
    """U106: '&amp;' in a URL (in a sitemap, ``what`` names the field: there it is left
    after XML decoding, so the & was escaped twice)."""
    if what is not None:
        return "U106", (f"{what} holds '&amp;' after XML decoding: the & was escaped twice; escape it once (&amp; "
                        "in the file)")
    return "U106", "URL contains '&amp;': write a plain '&' (the writer escapes it once)"


def normalise(text: str, base: str | None = None) -> UrlResult:
    """Resolve ``text`` against ``base`` (if relative) and write it the one way we write URLs."""
    if is_clean(text):
        return text, ()
    problems: list[UrlProblem] = []
    url = text.strip()
    if "&amp;" in url:
        url = url.replace("&amp;", "&")
        problems.append(UrlProblem(*escaped_twice(), url))
    if _WHITESPACE.search(url):
        problems.append(UrlProblem("U105", "URL contains whitespace; it is written percent-encoded"))
        url = _WHITESPACE.sub(lambda m: quote(m.group(0)), url)
    if not url:
        return None, (UrlProblem("U101", "URL is empty"),)
    if len(url) > 4 * MAX_URL_CHARS:  # judged by its length before any pattern or parser runs
        return None, (UrlProblem("U103", f"URL has {len(url):,} characters; sitemaps take fewer than 2,048"),)
    try:
        parts = urlsplit(url)
        if parts.scheme:
            if parts.scheme.lower() not in ("http", "https"):
                return None, (UrlProblem("U102", f"URL scheme '{parts.scheme[:20]}:' is not http or https"),)
        elif base is None:
            return None, (UrlProblem("U101", f"'{url}' is relative; give an absolute http(s) URL"),)
        else:
            url = _join(base, url)
            parts = urlsplit(url)
    except ValueError:  # a bracketed host that is no IP address, say
        return None, (UrlProblem("U109", f"'{url}' has no valid host"),)
    scheme = parts.scheme.lower()
    try:
        netloc = _host(parts.netloc)
    except ValueError:
        netloc = None
    if netloc is None:
        return None, (UrlProblem("U109", f"'{url}' has no valid host (or a bad port)"),)
    if parts.fragment:
        problems.append(UrlProblem("U110", "URL has a #fragment, which search engines drop; remove it"))
    try:
        out = urlunsplit((scheme, netloc, _escape(parts.path) or "/", _escape(parts.query), _escape(parts.fragment)))
    except UnicodeEncodeError:  # a lone surrogate: no character, so no UTF-8 for it
        return None, (UrlProblem("U101", "URL holds a lone surrogate, which is no character"),)
    if len(out) > MAX_URL_CHARS:
        problems.append(
            UrlProblem("U103", f"URL has {len(out):,} characters once encoded; sitemaps take fewer than 2,048")
        )
        return None, tuple(problems)
    return out, tuple(problems)


# --- identity: when two spellings are one URL -------------------------------------------

_DEFAULT_PORTS = {"http": "80", "https": "443"}
# An http(s) URL whose scheme and host urlsplit() finds where these groups are: a host
# with no brackets (IPv6: urlsplit checks them), in a URL with no tab or line break
# (urlsplit removes them wherever they are). Not IGNORECASE: that takes U+017F for s.
_HEAD = re.compile(r"([Hh][Tt][Tt][Pp][Ss]?)://([^/?#\[\]\t\r\n]*)(?=[/?#]|\Z)")


@lru_cache(maxsize=1024)
def _origin(scheme: str, netloc: str) -> str | None:
    """scheme://host[:port] in its one form, as ``_identity_parsed`` writes it; None
    where that finds no valid host (memoised: a site has few origins)."""
    try:
        host = _host(urlsplit(f"{scheme}://{netloc}").netloc) if netloc else None
    except ValueError:
        return None
    if host is None:
        return None
    name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    return f"{scheme}://{name if name and port == _DEFAULT_PORTS.get(scheme) else host}"


def identity(url: str) -> str:
    """The one spelling that every way of writing this URL shares (RFC 3986 section 6.2.2):
    scheme and host in lower case, an IDN host in punycode, no default port, percent
    escapes in upper case, unreserved characters unescaped, an IRI percent-encoded as
    UTF-8, no fragment. A trailing slash and the scheme stay: they make another URL."""
    if "%" not in url and _PLAIN.fullmatch(url) is not None:
        return url  # already so: lower-case host, no port, nothing escaped
    text = url.strip()
    head = _HEAD.match(text)
    removed = "\t" in text or "\n" in text or "\r" in text
    origin = None if head is None or removed else _origin(head[1].lower(), head[2])
    if head is None or origin is None:
        return _identity_parsed(url)
    path, asked, query = text[head.end():].partition("#")[0].partition("?")  # (as urlsplit splits)
    try:
        out = origin + (canonical_part(path) or "/")
        return out + "?" + canonical_part(query) if asked else out  # ("a?" is another URL than "a")
    except UnicodeEncodeError:
        return text


def _identity_parsed(url: str) -> str:
    """``identity`` the long way: the URL parsed and each part written in its one form
    (what a URL in that form already, which ``identity`` returns as it is, gives too)."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        scheme = parts.scheme.lower()
        host = _host(parts.netloc) if parts.netloc else None
    except ValueError:
        return text
    if host is None:
        return text
    name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if name and port == _DEFAULT_PORTS.get(scheme):
        host = name
    try:
        out = f"{scheme}://{host}{canonical_part(parts.path) or '/'}"
        if parts.query or "?" in text.partition("#")[0]:  # (a "?" in the fragment is the fragment's)
            out += "?" + canonical_part(parts.query)
    except UnicodeEncodeError:
        return text
    return out


def variants(url: str) -> tuple[str, ...]:
    """The URLs this one is most often confused with: the other trailing slash, the other scheme."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ()
    if parts.scheme not in ("http", "https"):
        return ()
    path = parts.path or "/"
    other_path = path[:-1] if path.endswith("/") and path != "/" else path + "/" if path != "/" else None
    other_scheme = "http" if parts.scheme == "https" else "https"
    found = []
    if other_path is not None:
        found.append(urlunsplit((parts.scheme, parts.netloc, other_path, parts.query, "")))
    found.append(urlunsplit((other_scheme, parts.netloc, path, parts.query, "")))
    return tuple(found)


@lru_cache(maxsize=1 << 16)
def url_key(url: str) -> int:
    """A stable 64-bit key of a URL's identity (blake2b): the same in every process and run.
    Memoised: a cluster's URLs come back once per member page, and per alternate list."""
    return int.from_bytes(blake2b(identity(url).encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "little", signed=True)


# The escapes of what a built page's path keeps as it is (!$&'()*+,;=:@, see read.html.page_url):
# a file server decodes them to the same file (MkDocs and Sphinx write c++/ as c%2B%2B/).
_KEPT_ESCAPE = re.compile("%(?:2[146-9A-Ca-c]|3[ABDabd]|40)")


def served_key(url: str) -> int:
    """url_key of a built page's URL with those escapes undone in its path: every spelling
    of one file's URL shares it (a canonical is compared with its page by this key)."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    if "%" in path and sep and slash:
        path, mark, query = path.partition("?")
        url = f"{scheme}://{host}/{_KEPT_ESCAPE.sub(lambda m: chr(int(m[0][1:], 16)), path)}{mark}{query}"
    return url_key(url)


def resolve_http(reference: str, base: str | None) -> str | None:
    """A relative reference (an href, a loc) resolved against the URL that holds it, as
    a browser resolves it; None where that gives no http(s) URL (no base, a scheme of
    its own such as ``mailto:`` or ``android-app:``, a malformed reference)."""
    if base is None or not reference or ":" in reference.split("/", 1)[0]:
        return None
    try:
        target = urljoin(base, reference)
    except ValueError:
        return None
    return target if target.lower().startswith(("http://", "https://")) else None


# --- reach: hosts no crawler can reach ----------------------------------------------------

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # IPv4 addresses translated (RFC 6052): judged by the IPv4 one
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# Names that resolve only on the machine or network they are used on: localhost (RFC 6761),
# .local (mDNS, RFC 6762), .test (RFC 6761, for testing), .internal (ICANN's private-use
# TLD, 2024). Not .example nor example.com: documentation names, which fixtures use.
_DEV_SUFFIXES = (".localhost", ".local", ".test", ".internal")


def is_public(address: Address) -> bool:
    """The one address predicate (the live check's guard, and a sitemap's hosts): a
    globally routable unicast address. Not loopback, private, carrier-grade NAT
    (100.64.0.0/10), link-local, multicast, reserved, documentation or unspecified; an
    IPv6 address that carries an IPv4 one (IPv4-mapped, 6to4, Teredo, NAT64) is public
    only when that IPv4 address is."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d connects to a.b.c.d
            return is_public(address.ipv4_mapped)
        if address in _NAT64:  # 64:ff9b::a.b.c.d (DNS64) reaches a.b.c.d through a translator
            return is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if any(inner is not None and not is_public(inner) for inner in (*(address.teredo or ()), address.sixtofour)):
            return False
    return address.is_global and not address.is_multicast and not address.is_reserved


@lru_cache(maxsize=1024)
def unreachable(origin: str) -> str | None:
    """Why no crawler can reach the host of ``origin`` (``scheme://host[:port]``, as
    ``origin_text`` gives it), or None: a development name, or an address literal
    that is not public (``is_public``). Judged by name only: nothing is resolved."""
    host = origin.partition("://")[2].rpartition("@")[2]
    host = host.partition("]")[0][1:] if host.startswith("[") else host.partition(":")[0]
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(_DEV_SUFFIXES):
        return f"{host} is a development name"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    return None if is_public(address) else f"{host} is a loopback or private address"


# What a URL's path names by its extension, where the extension says it clearly (a
# CDN serves images at extension-less URLs, and a script may serve anything: neither
# says a thing). Sources: Google, "Image SEO best practices" (the image formats Google
# indexes), "Video sitemaps" and "Video SEO best practices" (the video formats it
# reads; "HTML and Flash aren't supported formats").
_KINDS = {
    **dict.fromkeys(("jpg", "jpeg", "jpe", "png", "gif", "webp", "svg", "bmp", "avif", "ico", "tif", "tiff", "heic",
                     "heif", "jxl"), "image"),
    **dict.fromkeys(("mp4", "m4v", "mov", "webm", "mkv", "avi", "wmv", "flv", "mpg", "mpeg", "m3u8", "ts", "ogv",
                     "3gp", "3g2", "asf", "m2v", "vob", "divx", "mpd"), "video"),
    **dict.fromkeys(("mp3", "wav", "m4a", "aac", "flac", "oga", "opus", "wma"), "audio"),
    "ogg": "media",  # an Ogg file: audio or video, no image either way
    **dict.fromkeys(("pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "odt", "ods", "odp", "rtf", "epub", "zip",
                     "rar", "7z", "gz", "tgz"), "document"),
    **dict.fromkeys(("html", "htm", "xhtml", "shtml"), "page"),
    "swf": "flash",
}


def named_kind(url: str) -> str | None:
    """The kind of file a URL's path names by its extension: image, video, audio,
    media (audio or video), document, page or flash; None where the path says
    nothing (no extension, or one not listed)."""
    path = url.partition("?")[0].partition("#")[0]
    start = path.find("/", path.find("//") + 2) if "//" in path else 0  # (the host names no file)
    stem, dot, extension = path[start:].rpartition("/")[2].rpartition(".") if start >= 0 else ("", "", "")
    return _KINDS.get(extension.lower()) if dot and stem else None


# A template's variable left unfilled, in the forms that are no real URL content: $NAME
# (upper case, a whole segment or value: OData's $filter is lower case), ${name},
# {{name}} and %NAME% (no escape: its first two characters are no hex pair), each also
# percent-encoded as a URL builder writes it ($%7Bname%7D, %7B%7Bname%7D%7D, %25NAME%25).
# Escenic wrote player URLs ending 'videoID=$VIDEO_ID'.
_TEMPLATE = re.compile(
    r"(?<=[=/])\$[A-Z][A-Z0-9_]+(?=$|[/?&#;,.])"
    r"|\$(?:\{|%7[Bb])[A-Za-z_][\w.-]*(?:\}|%7[Dd])"
    r"|(?:\{|%7[Bb]){2}(?:\s|%20)*[A-Za-z_][\w.-]*(?:\s|%20)*(?:\}|%7[Dd]){2}"
    r"|(?<=[=/])(?:%(?![0-9A-Fa-f]{2})|%25)[A-Z][A-Z0-9_]+(?:%25|%)(?=$|[/?&#;,.])")


def template_token(url: str) -> str | None:
    """The first unfilled template variable a URL holds ($VIDEO_ID, ${id}, {{ slug }},
    %ID%), or None."""
    if "$" not in url and "%" not in url and "{" not in url:
        return None
    found = _TEMPLATE.search(url)
    return found.group() if found else None
