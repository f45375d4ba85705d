"""Where users build: a MkDocs plugin, a Sphinx extension and a Django app.

Each integration maps its tool's own settings to a site description (a ``Site`` and
its pages, or a built-site source), builds with ``sitemap_ext.build`` into the tool's
output, checks the output with ``sitemap_ext.check`` (the sitemaps together with the
built pages, where there are pages), and hands the package's findings to the tool's
own reporting: MkDocs' logger, Sphinx warnings, Django's command output and system
checks. There is one writer and one rule set underneath; no integration judges
anything itself.

Nothing here is imported by ``import sitemap_ext``; each module imports its tool
only when the tool loads it:

* MkDocs: ``plugins: [sitemap-ext]`` (entry point ``mkdocs.plugins``),
  ``sitemap_ext.integrations.mkdocs``.
* Sphinx: ``extensions = ["sitemap_ext.sphinx"]`` (``sitemap_ext.integrations.sphinx``).
* Django: ``INSTALLED_APPS += ["sitemap_ext.integrations.django"]``, then
  ``python manage.py sitemap_ext_build``.
"""
