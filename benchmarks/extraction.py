"""Benchmark: what pulling a sitemap's values into Python costs, before any rule runs.

    python benchmarks/extraction.py FILE.xml [FILE.xml ...] --repeat 5

Four ways to read the same files in one process, each timed in the same run, medians:
  parse      the check's floor: libxml2 builds each <url> (lxml XMLPullParser) and
             clears it; no value reaches Python
  children   the same, and each child's tag, text, attributes and line read in Python
             (what read/xml.py does, without the records)
  target     lxml with a parser target: no tree, each start, end and text handed to
             Python (no line numbers: lxml gives a target none)
  expat      the standard library's expat with the same handlers, and each element's
             line (CurrentLineNumber)
The ratios to `parse` bound what any check in Python can reach: every rule comes on
top of the cheapest of them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from xml.parsers import expat

from lxml import etree

LINK = "{http://www.w3.org/1999/xhtml}link"


def _chunks(path: str):  # type: ignore[no-untyped-def]
    with open(path, "rb") as handle:
        yield from iter(lambda: handle.read(1 << 16), b"")


def parse(path: str) -> int:
    parser = etree.XMLPullParser(events=("end",), tag=("{*}url",), resolve_entities=False, no_network=True)
    count = 0
    for chunk in _chunks(path):
        parser.feed(chunk)
        for _, element in parser.read_events():
            element.clear()
            count += 1
    return count


def children(path: str) -> int:
    parser = etree.XMLPullParser(events=("end",), tag=("{*}url",), resolve_entities=False, no_network=True)
    count = 0
    for chunk in _chunks(path):
        parser.feed(chunk)
        for _, element in parser.read_events():
            values = []
            for child in element:
                if child.tag == LINK:
                    get = child.get
                    values.append((get("rel"), get("hreflang"), get("href"), get("media"), child.sourceline))
                else:
                    values.append((child.tag, child.text, child.sourceline))
            element.clear()
            count += 1
    return count


class _Target:
    def __init__(self) -> None:
        self.count = 0
        self.values: list[object] = []
        self.text: list[str] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.values.append((tag, dict(attrib)) if attrib else tag)
        self.text = []

    def data(self, data: str) -> None:
        self.text.append(data)

    def end(self, tag: str) -> None:
        self.values.append("".join(self.text))
        if tag.endswith("}url"):
            self.count += 1
            self.values = []

    def close(self) -> int:
        return self.count


def target(path: str) -> int:
    parser = etree.XMLParser(target=_Target(), resolve_entities=False, no_network=True)
    for chunk in _chunks(path):
        parser.feed(chunk)
    return int(parser.close())


def with_expat(path: str) -> int:
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    values: list[object] = []
    text: list[str] = []
    count = 0

    def start(name: str, attrs: dict[str, str]) -> None:
        values.append((name, attrs, parser.CurrentLineNumber))
        text.clear()

    def end(name: str) -> None:
        nonlocal count
        values.append("".join(text))
        if name.endswith(" url"):
            count += 1
            values.clear()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text.append
    for chunk in _chunks(path):
        parser.Parse(chunk, False)
    parser.Parse(b"", True)
    return count


WAYS: dict[str, Callable[[str], int]] = {"parse": parse, "children": children, "target": target,
                                         "expat": with_expat}


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("files", nargs="+")
    args.add_argument("--repeat", type=int, default=5)
    opts = args.parse_args(argv)
    times: dict[str, list[float]] = {name: [] for name in WAYS}
    counts = {}
    for _ in range(opts.repeat):
        for name, way in WAYS.items():  # interleaved: a slow moment of the machine hits every way alike
            start = time.perf_counter()
            counts[name] = sum(way(path) for path in opts.files)
            times[name].append(time.perf_counter() - start)
    floor = statistics.median(times["parse"])
    print(f"{'way':<10} {'entries':>9} {'median s':>9} {'ratio':>6}")
    for name, found in times.items():
        print(f"{name:<10} {counts[name]:>9,} {statistics.median(found):9.2f} {statistics.median(found) / floor:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
