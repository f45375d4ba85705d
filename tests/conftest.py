"""Shared test helpers: site fixtures, XSD validation, canonical XML."""

from __future__ import annotations

import contextlib
import gzip
import os
import signal
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import strategies as st
from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
# The official sitemap schemas and this project's own (tests/data/xsd/README.md says
# where each comes from and on what terms): in the repository, so every clone has them.
SCHEMAS = ROOT / "tests" / "data" / "xsd"
XSD = SCHEMAS / "all.xsd"


def read_xml_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def canonical(data: bytes) -> bytes:
    """C14N 2.0 of a document: equal for the same XML whatever the serialisation."""
    return etree.canonicalize(etree.fromstring(data), strip_text=False).encode()


@pytest.fixture(scope="session")
def xsd() -> etree.XMLSchema:
    if not XSD.is_file():
        pytest.skip(f"the schemas are not at {XSD}: tests/data/xsd is missing from this copy of the repository")
    return etree.XMLSchema(etree.parse(str(XSD)))


@pytest.fixture
def assert_valid(xsd: etree.XMLSchema) -> Callable[[Path], None]:
    def check(path: Path) -> None:
        doc = etree.fromstring(read_xml_bytes(path))
        assert xsd.validate(doc), f"{path.name}: {xsd.error_log}"

    return check


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[..., Path]:
    """Write site.yaml (dedented) and any extra files into tmp_path; the YAML's path."""

    def make(text: str, **files: str | bytes) -> Path:
        site = tmp_path / "site.yaml"
        site.write_text(textwrap.dedent(text), encoding="utf-8")
        for name, content in files.items():
            target = tmp_path / name.replace("__", "/")
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(textwrap.dedent(content), encoding="utf-8")
        return site

    return make


FIXED_EPOCH = 1795262400


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Diagnostics name files relative to the working folder: run each test in its own.
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith("SITEMAP_TEST_"):
            monkeypatch.delenv(name)
    # Without --now, dates are judged at SOURCE_DATE_EPOCH: a fixed instant, so that no
    # test depends on the day it runs (2026-11-21T12:00:00Z).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(FIXED_EPOCH))


@contextlib.contextmanager
def hang_guard(seconds: int = 120) -> Iterator[None]:
    """Fail, instead of hanging the suite, when the body runs past ``seconds``: a guard
    against a blocking read or a super-linear blow-up, far above any normal run (speed
    is measured in benchmarks/, never asserted here)."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a hang or a super-linear cost")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture()
def server() -> Iterator[object]:
    """A web server on 127.0.0.1 that serves what a test adds (``tests/live_server.py``);
    the live check needs the 'live' extra (httpx, protego): skipped without it."""
    pytest.importorskip("httpx", reason="a live check needs the 'live' extra (httpx, protego)")
    pytest.importorskip("protego", reason="a live check needs the 'live' extra (httpx, protego)")
    from .live_server import Server

    running = Server()
    yield running
    running.close()


def _nested(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3))


# Any value a JSON, YAML or Python config can give a setting (hypothesis): the
# integrations' settings and the bounded JSON reader are tried on it.
JSONISH: st.SearchStrategy[object] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12), _nested, max_leaves=6)


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    """A Dask client of one in-process worker of two threads (the Dask build's tests: CI
    stays fast); skipped, saying why, without dask and distributed."""
    distributed = pytest.importorskip("distributed", reason="the Dask tests need the dask extra")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0")
    with distributed.Client(cluster) as made:
        yield made
    cluster.close()
