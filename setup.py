"""Compiled modules, only when asked: ``SITEMAP_EXT_COMPILE=1 pip install .``.

The modules below are the rule engine's per-entry path (the XML reader, the records,
the engine and its entry rules, URL keys, language tags, dates). mypyc compiles them
from the same source the pure-Python package runs (the rules stay in Python, one
source); benchmarks/record_path.py measures what it pays. Everything else is in
pyproject.toml.

The catalogue and the schemas of specs/ (what messages, ``sitemap-ext rules`` and the
documentation point to) are copied into the wheel as ``sitemap_ext/specs/``, so that
whoever installs the wheel has them too; MANIFEST.in puts them in the sdist.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]

COMPILED = [
    "sitemap_ext/read/xml.py",
    "sitemap_ext/read/xml_entries.py",
    "sitemap_ext/read/xml_names.py",
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


# specs/ files a pip user is pointed to: the rule catalogue, the site format, the JSON schemas.
SPECS = ["rules.md", "site-format.md", "site.schema.json", "report.schema.json", "diff.schema.json"]


class BuildPy(build_py):  # type: ignore[misc]
    """setuptools' build_py, then specs/ copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads specs/ from the checkout
            return
        target = Path(self.build_lib) / "sitemap_ext" / "specs"
        target.mkdir(parents=True, exist_ok=True)
        for name in SPECS:
            shutil.copyfile(Path("specs") / name, target / name)


def _compiled() -> list[object]:
    if os.environ.get("SITEMAP_EXT_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return list(mypycify(COMPILED, opt_level="3", debug_level="0"))


setup(ext_modules=_compiled(), cmdclass={"build_py": BuildPy})
