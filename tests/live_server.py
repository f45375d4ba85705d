"""A real HTTP server on 127.0.0.1 for the tests of a live check (the standard library's
ThreadingHTTPServer, in a thread): each path answers as a route says, and every
request is recorded. No test reaches any other address."""

from __future__ import annotations

import zlib
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterable


@dataclass
class Route:
    status: int = 200
    body: bytes | Callable[[], Iterable[bytes]] = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/xml"
    times: list[int] = field(default_factory=list)  # statuses for the first requests (then ``status``)
    etag: str | None = None


class Server:
    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.times: list[tuple[str, float]] = []  # (path, when), for politeness
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                server.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                server.times.append((self.path, time.monotonic()))
                host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
                route = server.routes.get(f"//{host}{self.path}") or server.routes.get(self.path)  # by host first
                if route is None:
                    self._send(404, b"not here", {"Content-Type": "text/plain"})
                    return
                status = route.times.pop(0) if route.times else route.status
                headers = {"Content-Type": route.content_type, **route.headers}
                if route.etag is not None:
                    headers["ETag"] = route.etag
                    if self.headers.get("If-None-Match") == route.etag:
                        self._send(304, b"", {"ETag": route.etag})
                        return
                if callable(route.body):
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    try:
                        for chunk in route.body():
                            self.wfile.write(chunk)
                            self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    self.close_connection = True
                    return
                self._send(status, route.body, headers)

            def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                pass  # a client that hung up (as the checker does past a limit) is no error here

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def add(self, path: str, **kwargs: object) -> None:
        self.routes[path] = Route(**kwargs)  # type: ignore[arg-type]

    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]


def stalled(first: bytes, seconds: float) -> Callable[[], Iterable[bytes]]:
    """A body that sends its first bytes, then nothing for ``seconds``."""
    def body() -> Iterable[bytes]:
        yield first
        time.sleep(seconds)
        yield b"</urlset>\n"
    return body


def repeated(chunk: bytes, total: int) -> Callable[[], Iterable[bytes]]:
    def body() -> Iterable[bytes]:
        sent = 0
        while sent < total:
            yield chunk
            sent += len(chunk)
    return body


def gzip_bomb(size: int) -> bytes:
    """A gzip stream of ``size`` bytes of blank XML (about size / 1000 on the wire),
    made a MiB at a time."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [compressor.compress(b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')]
    block = b" " * (1 << 20)
    for _ in range(size >> 20):
        parts.append(compressor.compress(block))
    parts.append(compressor.flush())
    return b"".join(parts)
