# A two-language Sphinx project with the sitemap_ext extension; one build a language,
# each with its own html_baseurl (Sphinx writes every page's canonical link from it):
#   sphinx-build -W -b html -D language=en . _build/en
#   sphinx-build -W -b html -D language=fr -D html_baseurl=https://docs.example.com/fr/ . _build/fr
# tests/test_integration_sphinx.py builds it.
project = "Trail guides"
extensions = ["sitemap_ext.sphinx"]
language = "en"
locale_dirs = ["locales/"]
gettext_compact = False
html_baseurl = "https://docs.example.com/en/"
sitemap_ext_base_url = "https://docs.example.com/"
exclude_patterns = ["_build"]
sitemap_ext_languages = ["en", "fr"]
sitemap_ext_x_default = "en"
sitemap_ext_now = "2026-11-21T12:00:00Z"
