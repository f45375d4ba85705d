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


class Raw:
    """A TCP server on 127.0.0.1 that answers every connection with ``answer(request)``:
    the bytes to send, each piece followed by its pause (a server that drips its headers
    or its body, lies in its Content-Length, or sends what no HTTP server should)."""

    def __init__(self, answer: Callable[[bytes], Iterable[tuple[bytes, float]]]) -> None:
        import socket

        self.answer = answer
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.requests: list[bytes] = []
        self.closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn) -> None:  # type: ignore[no-untyped-def]
        try:
            conn.settimeout(5)
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 65536:
                data = conn.recv(4096)
                if not data:
                    return
                request += data
            self.requests.append(request)
            for piece, pause in self.answer(request):
                if self.closed:
                    return
                conn.sendall(piece)
                if pause:
                    time.sleep(pause)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.closed = True
        self.sock.close()


def drip(data: bytes, pause: float) -> Iterable[tuple[bytes, float]]:
    """``data`` a byte at a time, ``pause`` seconds apart."""
    return ((data[i:i + 1], pause) for i in range(len(data)))


def gzip_layers(data: bytes, layers: int) -> bytes:
    """``data`` gzipped ``layers`` times (Content-Encoding: gzip, gzip, ...)."""
    for _ in range(layers):
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        data = compressor.compress(data) + compressor.flush()
    return data
