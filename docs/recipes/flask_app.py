"""Recipe: a Flask view that serves a checked sitemap from a database.

    FLASK_APP=docs/recipes/flask_app.py flask run

``render()`` builds the sitemap in memory with every rule; a page that breaks one
is reported in the log, and an error serves 500 rather than a sitemap search
engines would reject. (A large site builds to files at deploy time instead, and the
web server serves those.)
"""

from __future__ import annotations

from flask import Flask, Response

from sitemap_ext import Alternate, Locale, Page, Site, render

app = Flask(__name__)
SITE = Site(base_url="https://www.example.com/", x_default="en",
            locales=(Locale(code="en", prefix="/en/"), Locale(code="fr", prefix="/fr/")))
ARTICLES = [  # stands for a query: (English slug, French slug, last change)
    ("about", "a-propos", "2026-11-02"),
    ("contact", "contact", "2026-10-15"),
]


def pages():
    for english, french, updated in ARTICLES:
        yield Page(alternates=(Alternate(code="en", url=f"/en/{english}"), Alternate(code="fr", url=f"/fr/{french}")),
                   lastmod=updated)


@app.route("/sitemap.xml")
def sitemap() -> Response:
    rendered = render(SITE, pages())
    for finding in rendered.collector.sorted():
        app.logger.warning("%s %s:%s %s", finding.code, finding.file, finding.line, finding.message)
    if not rendered.ok:
        return Response("the sitemap has errors; see the log", status=500, mimetype="text/plain")
    return Response(rendered.sitemap, mimetype="application/xml")
