"""sitemap_ext.write"""
