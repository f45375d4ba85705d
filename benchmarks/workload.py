"""W(N): 5 locales (/en /de /fr /es /ja, x-default en) and a CSV of N rows path,lastmod,image.

W(200,000) is 1,000,000 <url> entries with 6 alternates and 1 image each.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

SITE = """\
site:
  base_url: https://shop.example.com/
locales:
  en: /en/
  de: /de/
  fr: /fr/
  es: /es/
  ja: /ja/
x_default: en
sources:
  - file: products.csv
output:
  html: false  # the sitemaps only: the HTML views (on by default since 0.4) are not measured
"""


def make(folder: str, rows: int, seed: int = 5) -> str:
    """Write site.yaml and products.csv into folder (kept if already there); the YAML's path."""
    os.makedirs(folder, exist_ok=True)
    site = os.path.join(folder, "site.yaml")
    csv_path = os.path.join(folder, "products.csv")
    marker = os.path.join(folder, f".rows-{rows}")
    if os.path.exists(marker):
        return site
    rng = random.Random(seed)
    words = ["alpine", "basic", "cedar", "delta", "ember", "fjord", "glacier", "harbor", "island", "juniper"]
    with open(csv_path, "w", encoding="utf-8", newline="") as out:
        out.write("path,lastmod,image\n")
        for i in range(rows):
            slug = f"{rng.choice(words)}-{rng.choice(words)}-{i}"
            lastmod = f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"
            out.write(f"/products/{slug},{lastmod},https://cdn.example.com/img/{i}.jpg\n")
    with open(site, "w", encoding="utf-8") as out:
        out.write(SITE)
    for name in os.listdir(folder):
        if name.startswith(".rows-"):
            os.remove(os.path.join(folder, name))
    open(marker, "w").close()
    return site


def built(directory: str, rows: int, keep: bool = False) -> tuple[str, str]:
    """W(rows) made in ``directory``/w-ROWS and built into its ``out`` folder (built again
    unless ``keep`` and already there): the folder and the output."""
    folder = os.path.join(directory, f"w-{rows}")
    site = make(folder, rows)
    out = os.path.join(folder, "out")
    if not keep or not os.path.isdir(out):
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "sitemap_ext", "build", site, "-o", out, "--quiet"], check=True)
    return folder, out
