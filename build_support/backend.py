"""The build backend: setuptools', and with ``SITEMAP_EXT_COMPILE=1`` what compiling needs.

``SITEMAP_EXT_COMPILE=1 pip install .`` compiles the rule engine's modules with mypyc
(``setup.py`` names them) from the same source the pure-Python install runs; the build
then needs mypy (which carries mypyc) and the type stubs the package is checked with,
and this hook asks the installer for them. Without the variable nothing changes: a
pure-Python package, built with setuptools alone.
"""

from __future__ import annotations

import os

from setuptools.build_meta import *  # type: ignore[import-untyped]  # noqa: F403  (every PEP 517 hook)

# mypyc type-checks what it compiles as the tests do (mypy --strict, pyproject.toml), and
# so follows the package's imports: the dependencies and the extras it imports are needed.
_COMPILE_NEEDS = ["mypy>=1.10", "lxml-stubs>=0.5", "types-PyYAML>=6.0", "lxml>=5.0", "PyYAML>=6.0", "babel>=2.12",
                  "langcodes>=3.4", "idna>=3.7", "tomli>=1.1; python_version < '3.11'", "httpx>=0.27", "protego>=0.3",
                  "isal>=1.6"]


def _extra() -> list[str]:
    return _COMPILE_NEEDS if os.environ.get("SITEMAP_EXT_COMPILE") == "1" else []


# (setuptools' own hooks would run setup.py to learn its setup_requires, which it has
# none of, before mypyc is there to import.)
def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    return _extra()


def get_requires_for_build_editable(config_settings: dict[str, str] | None = None) -> list[str]:
    return _extra()
