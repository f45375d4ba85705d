"""sitemap_ext.read"""
