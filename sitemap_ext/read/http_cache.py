"""Responses kept between runs with their validators (ETag, Last-Modified), so the next
run asks with If-None-Match / If-Modified-Since and a 304 reuses the body."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass

from ..folder import Damaged, read_json
from .http_types import CHUNK, Fetched


@dataclass
class Kept:
    status: int
    content_type: str
    etag: str | None
    modified: str | None
    body: str

    def validators(self) -> dict[str, str]:
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.modified:
            headers["If-Modified-Since"] = self.modified
        return headers


class Cache:
    """Responses kept in a folder: per URL (by its SHA-256) a body and a JSON of its
    validators; written atomically (a killed run leaves the old entry whole). An entry
    whose JSON is damaged (not JSON, too deep, too large, a link) is removed, as the
    cache's own file, and noted in ``damaged`` (its file, why: F106); the URL is then
    fetched whole, and kept anew."""

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
        meta, body = self._names(url)
        try:
            data = read_json(meta)  # (bounded in size and depth; None when there is no entry)
        except Damaged as exc:
            self.damaged.append((meta, str(exc)))
            for path in (meta, body):
                try:
                    os.remove(path)  # (a link is removed, never followed)
                except OSError:
                    pass
            return None
        except OSError:
            return None
        try:
            if not isinstance(data, dict) or not os.path.isfile(body) or data.get("url") != url:
                return None
            return Kept(int(data["status"]), str(data.get("content_type", "")), data.get("etag"),
                        data.get("last_modified"), body)
        except (ValueError, KeyError, TypeError):
            return None

    def store(self, url: str, fetched: Fetched) -> None:
        etag, modified = fetched.headers.get("etag"), fetched.headers.get("last-modified")
        if (not etag and not modified) or fetched.path is None or fetched.status is None:
            return  # nothing to ask with next time
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
