"""output.xsl: the XSLT stylesheet written beside the sitemaps, so that a browser
shows an index as a list of its sitemaps and a urlset as a table (URL, lastmod,
alternates by language, images, videos, news), readable on a phone.

Each file names it with ``<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>``
(relative, so it works on any host). Search engines ignore the instruction. XSLT 1.0,
no script, no network: browsers that still run XSLT show the table, others the XML.
For a view that needs no XSLT at all, output.html writes static HTML (htmlview.py).
"""

from __future__ import annotations

STYLESHEET = b"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by sitemap-ext (output.xsl): shows these sitemaps to people in a browser.
     Search engines read the XML and ignore this stylesheet. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:xhtml="http://www.w3.org/1999/xhtml"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
    xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
    exclude-result-prefixes="sm xhtml image video news">
  <xsl:output method="html" encoding="UTF-8" indent="no"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex"/>
        <title>
          <xsl:choose>
            <xsl:when test="sm:sitemapindex">Sitemap index</xsl:when>
            <xsl:otherwise>Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <style>
          body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem;
                 color: #1d2330; background: #fff; }
          h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
          p.about { color: #5a6273; margin: 0 0 1rem; }
          table { border-collapse: collapse; width: 100%; }
          th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid #e3e6ec; }
          th { background: #f4f6f9; font-weight: 600; position: sticky; top: 0; }
          td { overflow-wrap: anywhere; }
          a { color: #1a56db; text-decoration: none; }
          a:hover { text-decoration: underline; }
          ul { list-style: none; margin: 0; padding: 0; }
          .code { display: inline-block; min-width: 5.6em; font: 12px ui-monospace, monospace; color: #5a6273; }
          .n { color: #5a6273; width: 3em; }
          @media (max-width: 640px) {
            body { margin: .75rem; }
            thead { display: none; }
            tr, td { display: block; }
            tr { border-bottom: 2px solid #e3e6ec; padding: .4rem 0; }
            td { border: 0; padding: .15rem 0; }
            td[data-label]::before { content: attr(data-label) ": "; color: #5a6273; }
          }
        </style>
      </head>
      <body>
        <xsl:apply-templates select="sm:sitemapindex | sm:urlset"/>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="sm:sitemapindex">
    <h1>Sitemap index</h1>
    <p class="about">An XML sitemap index, for search engines; this view is for people. It lists
      <xsl:value-of select="count(sm:sitemap)"/> sitemaps.</p>
    <table id="sitemaps">
      <thead><tr><th class="n">#</th><th>Sitemap</th><th>Last modified</th></tr></thead>
      <tbody>
        <xsl:for-each select="sm:sitemap">
          <tr class="sitemap">
            <td class="n"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a></td>
            <td class="lastmod" data-label="Last modified"><xsl:value-of select="sm:lastmod"/></td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <xsl:template match="sm:urlset">
    <h1>Sitemap</h1>
    <p class="about">An XML sitemap, for search engines; this view is for people. It lists
      <xsl:value-of select="count(sm:url)"/> URLs.</p>
    <table id="urls">
      <thead><tr><th class="n">#</th><th>URL</th><th>Last modified</th><th>Alternates</th><th>Media</th></tr></thead>
      <tbody>
        <xsl:for-each select="sm:url">
          <tr class="url">
            <td class="n"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a></td>
            <td class="lastmod" data-label="Last modified"><xsl:value-of select="sm:lastmod"/></td>
            <td class="alternates">
              <xsl:if test="xhtml:link[@hreflang]">
                <ul>
                  <xsl:for-each select="xhtml:link[@hreflang]">
                    <li><span class="code"><xsl:value-of select="@hreflang"/></span>
                      <a href="{@href}"><xsl:value-of select="@href"/></a></li>
                  </xsl:for-each>
                </ul>
              </xsl:if>
            </td>
            <td class="media">
              <ul>
                <xsl:for-each select="image:image">
                  <li class="image">image: <a href="{image:loc}"><xsl:value-of select="image:loc"/></a></li>
                </xsl:for-each>
                <xsl:for-each select="video:video">
                  <li class="video">video: <xsl:value-of select="video:title"/></li>
                </xsl:for-each>
                <xsl:for-each select="news:news">
                  <li class="news">news: <xsl:value-of select="news:title"/>
                    (<xsl:value-of select="news:publication_date"/>)</li>
                </xsl:for-each>
              </ul>
            </td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>
</xsl:stylesheet>
"""

__all__ = ["STYLESHEET"]
