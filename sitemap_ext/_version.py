"""The package's version, in a module of its own (the HTTP client names it; the root imports it).

The one place it is written: pyproject.toml reads it (``dynamic = ["version"]``), and
tests/test_packaging.py checks that ``--version``, a built wheel's metadata and action.yml's
example agree with it."""

__version__ = "0.5.0"
