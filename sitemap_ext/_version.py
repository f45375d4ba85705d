"""The package's version, in a module of its own (the HTTP client names it; the root imports it)."""

__version__ = "0.3.0"
