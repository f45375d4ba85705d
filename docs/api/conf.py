"""Sphinx settings for the API reference (built by tests/test_api_docs.py; by hand:
python -m sphinx -W -b html docs/api docs/api/_build)."""

project = "sitemap-ext"
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
html_theme = "alabaster"
exclude_patterns = ["_build"]
suppress_warnings = ["ref.python"]  # (type hints name classes that are not themselves documented here)
