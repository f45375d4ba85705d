"""The bare baseline: an f-string writer with no checks at all.

It renders each product's alternates once and shares them across its 5 entries,
splits at 50,000 URLs, and writes an index: what a hand-rolled script would do.
Usage: python baseline.py CSV OUTDIR
"""

from __future__ import annotations

import csv
import os
import sys

LOCALES = ("en", "de", "fr", "es", "ja")
BASE = "https://shop.example.com"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n')


def main(csv_path: str, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    files = []
    handle = None
    count = 0
    with open(csv_path, encoding="utf-8", newline="") as source:
        reader = csv.reader(source)
        next(reader)
        for path, lastmod, image in reader:
            urls = [f"{BASE}/{code}{path}" for code in LOCALES]
            alternates = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{url}"/>'
                                 for code, url in zip(LOCALES, urls))
            alternates += f'<xhtml:link rel="alternate" hreflang="x-default" href="{urls[0]}"/>'
            tail = (f"</loc><lastmod>{lastmod}</lastmod>{alternates}"
                    f"<image:image><image:loc>{image}</image:loc></image:image></url>\n")
            for url in urls:
                if handle is None or count == 50_000:
                    if handle is not None:
                        handle.write("</urlset>\n")
                        handle.close()
                    name = f"sitemap-{len(files) + 1}.xml"
                    files.append(name)
                    handle = open(os.path.join(out, name), "w", encoding="utf-8")
                    handle.write(HEAD)
                    count = 0
                handle.write(f"<url><loc>{url}{tail}")
                count += 1
    if handle is not None:
        handle.write("</urlset>\n")
        handle.close()
    with open(os.path.join(out, "sitemap.xml"), "w", encoding="utf-8") as index:
        index.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
        for name in files:
            index.write(f"<sitemap><loc>{BASE}/{name}</loc></sitemap>\n")
        index.write("</sitemapindex>\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
