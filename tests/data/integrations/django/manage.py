#!/usr/bin/env python
"""A small Django project with i18n_patterns in three languages and
django.contrib.sitemaps classes; tests/test_integration_django.py runs
`python manage.py sitemap_ext_build OUT --now ...` on it."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trails.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
