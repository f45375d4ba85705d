"""sitemap_ext.report"""
