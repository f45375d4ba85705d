"""The Sphinx extension, by the name users give it: ``extensions = ["sitemap_ext.sphinx"]``.
It lives in ``sitemap_ext.integrations.sphinx``; see there for its settings."""

from .integrations.sphinx import setup

__all__ = ["setup"]
