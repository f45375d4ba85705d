// sitemap.js (npm "sitemap" 9.0.1) on the same workload, with its streaming index
// writer: node sitemapjs.js CSV OUTDIR [gzip]
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const { SitemapAndIndexStream, SitemapStream } = require("sitemap");
const { createGzip } = require("zlib");

const [csvPath, out, gzip] = process.argv.slice(2);
const locales = ["en", "de", "fr", "es", "ja"];
const base = "https://shop.example.com";
fs.mkdirSync(out, { recursive: true });

const index = new SitemapAndIndexStream({
  limit: 50000,
  getSitemapStream: (i) => {
    const sm = new SitemapStream({ hostname: base });
    const name = `sitemap-${i}.xml${gzip ? ".gz" : ""}`;
    const ws = fs.createWriteStream(path.join(out, name));
    if (gzip) sm.pipe(createGzip()).pipe(ws); else sm.pipe(ws);
    return [`${base}/${name}`, sm, ws];
  },
});
index.pipe(fs.createWriteStream(path.join(out, "sitemap.xml")));

const rl = readline.createInterface({ input: fs.createReadStream(csvPath) });
let first = true;
(async () => {
  for await (const line of rl) {
    if (first) { first = false; continue; }
    const [p, lastmod, image] = line.split(",");
    const links = locales.map((l) => ({ lang: l, url: `${base}/${l}${p}` }));
    links.push({ lang: "x-default", url: `${base}/en${p}` });
    for (const l of locales) {
      const ok = index.write({ url: `${base}/${l}${p}`, lastmod, links, img: [{ url: image }] });
      if (!ok) await new Promise((r) => index.once("drain", r));
    }
  }
  index.end();
})();
