"""Compiled modules, only when asked: ``SITEMAP_EXT_COMPILE=1 pip install .``.

The modules below are the rule engine's per-entry path (the XML reader, the records,
the engine and its entry rules, URL keys, language tags, dates). mypyc compiles them
from the same source the pure-Python package runs (the rules stay in Python, one
source); benchmarks/record_path.py measures what it pays. Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import os

from setuptools import setup  # type: ignore[import-untyped]

COMPILED = [
    "sitemap_ext/read/xml.py",
    "sitemap_ext/read/record.py",
    "sitemap_ext/rules/engine.py",
    "sitemap_ext/rules/context.py",
    "sitemap_ext/rules/hreflang.py",
    "sitemap_ext/rules/locs.py",
    "sitemap_ext/rules/values.py",
    "sitemap_ext/rules/media.py",
    "sitemap_ext/rules/structure.py",
    "sitemap_ext/urls.py",
    "sitemap_ext/langtags.py",
    "sitemap_ext/dates.py",
]


def _compiled() -> list[object]:
    if os.environ.get("SITEMAP_EXT_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return list(mypycify(COMPILED, opt_level="3", debug_level="0"))


setup(ext_modules=_compiled())
