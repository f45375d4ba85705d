"""The findings on a site description's shape, each code made here only.

A description (its YAML, its CSV and JSON Lines sources, an extension's mapping in a
page) is read by several rooms: the YAML reader, the loader, the sources, the page
normaliser and the image, video and news modules. Each reports the shape it finds
wrong through these functions, with its own words for what is wrong; the code is
decided here. ``report`` is any reporter of the form ``report(code, message, where,
**extra)``: a ``Collector``'s, or an extension's ``MediaContext.report``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Report = Callable[..., Any]


def unreadable(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C101: the text cannot be read (not UTF-8, YAML syntax, a value YAML cannot make)."""
    report("C101", message, where, **extra)


def wrong_shape(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C103: a value of the wrong type or form (a list where a mapping belongs, say)."""
    report("C103", message, where, **extra)


def missing(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C104: a required key is not given."""
    report("C104", message, where, **extra)


def given_twice(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C107: a key, or a locale, given twice."""
    report("C107", message, where, **extra)


def mixed_forms(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C111: a page given both ways at once (loc beside path or urls)."""
    report("C111", message, where, **extra)


def out_of_range(report: Report, message: str, where: Any, **extra: Any) -> None:
    """C109: a value of the right type outside the values allowed."""
    report("C109", message, where, **extra)
