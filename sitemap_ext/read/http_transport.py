"""httpx's transport for a check: every connection made to an address checked when it
is made, every read and write of the socket ended by the deadline of its answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (an optional dependency, imported when a live check starts: client_module)
    import httpx as httpx_types
    from httpcore import NetworkStream
    from httpcore._backends.base import SOCKET_OPTION

answer = threading.local()  # ``end``: the deadline (time.monotonic()) of the URL this thread fetches


def _left(timeout: float | None) -> float | None:
    """The time a read, write or connection may take: ``timeout``, and never past the
    deadline of the URL being fetched (then it times out at once)."""
    end: float | None = getattr(answer, "end", None)
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        import httpcore
        raise httpcore.ReadTimeout("the deadline of the answer has passed")
    return left if timeout is None else min(timeout, left)


def transport(httpx: ModuleType, allow_private: bool,
              resolve: Callable[[str, int], list[str]]) -> httpx_types.HTTPTransport:
    """httpx's transport, connecting through ``_Backend``: the address checked is the
    address connected to (unless private addresses are allowed), and every read and
    write of the socket ends by the deadline of its answer. ``resolve``: the guard's
    resolver (the addresses of a host, all public, or ``Refusal``)."""
    import ssl

    import certifi
    import httpcore
    from httpcore._backends.sync import SyncBackend

    class _Bounded(httpcore.NetworkStream):
        def __init__(self, stream: NetworkStream) -> None:
            self._stream = stream

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return self._stream.read(max_bytes, _left(timeout))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._stream.write(buffer, _left(timeout))

        def close(self) -> None:
            self._stream.close()

        def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                      timeout: float | None = None) -> NetworkStream:
            return _Bounded(self._stream.start_tls(ssl_context, server_hostname, _left(timeout)))

        def get_extra_info(self, info: str) -> object:
            return self._stream.get_extra_info(info)

    class _Backend(SyncBackend):
        def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                        socket_options: Iterable[SOCKET_OPTION] | None = None) -> NetworkStream:
            if not allow_private:
                host = resolve(host, port)[0]  # (TLS still names and verifies the URL's host)
            return _Bounded(super().connect_tcp(host, port, _left(timeout), local_address, socket_options))

    transport: httpx_types.HTTPTransport = httpx.HTTPTransport(trust_env=False)
    transport._pool = httpcore.ConnectionPool(
        ssl_context=ssl.create_default_context(cafile=certifi.where()), max_connections=32,
        max_keepalive_connections=16, network_backend=_Backend())
    return transport
