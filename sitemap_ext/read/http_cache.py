"""Responses kept between runs with their validators (ETag, Last-Modified), so the next
run asks with If-None-Match / If-Modified-Since and a 304 reuses the body."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..folder import Damaged, read_json
from ..safeio import Refused, open_regular
from .http_types import CHUNK, Fetched


@dataclass
class Kept:
    """A cache entry found: its answer's status and type, its validators and its body,
    opened (as a regular file, never through a link) when the entry was looked up;
    ``close`` it when the answer is in."""

    status: int
    content_type: str
    etag: str | None
    modified: str | None
    body: BinaryIO

    def validators(self) -> dict[str, str]:
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.modified:
            headers["If-Modified-Since"] = self.modified
        return headers

    def chunks(self) -> Iterator[bytes]:
        """The body's bytes, from the file opened at lookup (whatever its name holds now)."""
        return iter(lambda: self.body.read(CHUNK), b"")

    def close(self) -> None:
        self.body.close()


def header_safe(value: object) -> bool:
    """Whether a validator can be sent back as a header value: None, or text of visible
    ASCII, spaces and tabs (no CR, LF, NUL or other control, nothing past ASCII)."""
    return value is None or (isinstance(value, str) and all(" " <= c <= "~" or c == "\t" for c in value))


def entry_problem(data: object, url: str) -> str | None:
    """Why a cache entry read back is none a run wrote for ``url`` (None when it is one):
    of another URL, a status that is no 2xx number, a type that is no text, a
    validator that is no header value."""
    if not isinstance(data, dict):
        return "not an entry: no JSON object"
    if data.get("url") != url:
        return "not the entry of this URL"
    status = data.get("status")
    if isinstance(status, bool) or not isinstance(status, int) or not 200 <= status < 300:
        return f"its status {str(status)[:20]!r} is no 2xx number"
    if not isinstance(data.get("content_type", ""), str):
        return "its content_type is no text"
    for key in ("etag", "last_modified"):
        if not header_safe(data.get(key)):
            return f"its {key} {str(data.get(key))[:40]!r} cannot be sent as a header value"
    return None


class Cache:
    """Responses kept in a folder: per URL (by its SHA-256) a body and a JSON of its
    validators; written atomically (a killed run leaves the old entry whole). An entry
    that is damaged (its JSON not JSON, too deep, too large or a link; of values no run
    writes, a validator that is no header value; its body a link or no regular file)
    is removed, as the cache's own file, and noted in ``damaged`` (its file, why:
    F106); the URL is then fetched whole, and kept anew."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.damaged: list[tuple[str, str]] = []
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            pass  # (then nothing is found in it or kept: each request is a full one)

    def _names(self, url: str) -> tuple[str, str]:
        digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()
        return os.path.join(self.folder, digest + ".json"), os.path.join(self.folder, digest + ".body")

    def lookup(self, url: str) -> Kept | None:
        """The entry of ``url``, its body open; None when there is none (or it was damaged)."""
        meta, body = self._names(url)
        reason: str | None = None
        try:
            data = read_json(meta)  # (bounded in size and depth; None when there is no entry)
            reason = None if data is None else entry_problem(data, url)
            if data is not None and reason is None:
                handle = open_regular(body, follow=False)  # (O_NOFOLLOW: never what a link points to)
                return Kept(data["status"], data.get("content_type", ""), data.get("etag"),
                            data.get("last_modified"), handle)
        except Damaged as exc:
            reason = str(exc)
        except Refused as exc:
            reason = f"its body is {exc}"
        except OSError as exc:  # (no body: no entry; ELOOP: the body is a link)
            reason = "its body is a symbolic link" if exc.errno == errno.ELOOP else None
        if reason is not None:
            self._remove(meta, body, reason)
        return None

    def _remove(self, meta: str, body: str, reason: str) -> None:
        """A damaged entry removed and noted (F106): its URL is fetched whole, and kept anew."""
        self.damaged.append((meta, reason))
        for path in (meta, body):
            try:
                os.remove(path)  # (a link is removed, never followed)
            except OSError:
                pass

    def store(self, url: str, fetched: Fetched) -> None:
        etag, modified = fetched.headers.get("etag"), fetched.headers.get("last-modified")
        if (not etag and not modified) or fetched.path is None or fetched.status is None:
            return  # nothing to ask with next time
        if not (header_safe(etag) and header_safe(modified)):
            return  # (a validator that cannot be sent back: kept, it would be a damaged entry)
        meta, body = self._names(url)
        try:
            with open(fetched.path, "rb") as source, tempfile.NamedTemporaryFile(
                    "wb", dir=self.folder, delete=False) as out:
                while True:
                    chunk = source.read(CHUNK)
                    if not chunk:
                        break
                    out.write(chunk)
            os.replace(out.name, body)
            text = json.dumps({"url": url, "status": fetched.status, "content_type": fetched.content_type,
                               "etag": etag, "last_modified": modified})
            with tempfile.NamedTemporaryFile("w", dir=self.folder, delete=False, encoding="utf-8") as handle:
                handle.write(text)
            os.replace(handle.name, meta)
        except OSError:
            return  # a cache that cannot be written costs the next run full requests, nothing more
