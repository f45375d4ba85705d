"""Benchmark: the XML reader alone (``read/xml.read_xml``) against a bare parse, per layout.

    python benchmarks/read_xml.py --rows 20000 --repeat 5
    python benchmarks/read_xml.py --rows 20000 --before /tmp/before/.venv/bin/python

W(rows) (benchmarks/workload.py) is built by sitemap-ext and rewritten into the layouts
of benchmarks/check_layouts.py (ours, indented, minified, scattered; 40-locales, the
same number of entries over 40 locales, unless --no-forty). For each layout, one core,
the CPU seconds (time.process_time in a child process, the files' reading included,
the imports not) of:

  floor    check_layouts.FLOOR's parse: an lxml XMLPullParser handing over each <url>,
           cleared (no value read)
  reader   read_xml on each file, every record made and dropped

each the best of --repeat, and the reader's ratio to the floor. With --before PYTHON
(the python of another install, e.g. a checkout of main in its own environment), that
install's reader is timed beside it, in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_layouts  # noqa: E402
import workload  # noqa: E402

# check_layouts.FLOOR without its process pool: its imports and parse(path), timed here.
FLOOR = check_layouts.FLOOR.split("folder, jobs")[0] + r"""
import time
folder = sys.argv[1]
paths = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".xml"))
start = time.process_time()
count = sum(parse(path) for path in paths)
print(time.process_time() - start, count)
"""

READER = r"""
import os, sys, time
from sitemap_ext.read.record import FileFacts
from sitemap_ext.read.sniff import open_bytes
from sitemap_ext.read.xml import read_xml

def ignore(*args, **kwargs):
    return None

folder = sys.argv[1]
paths = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".xml"))
start = time.process_time()
count = 0
for path in paths:
    for _ in read_xml(open_bytes(path, ignore), FileFacts(path), ignore):
        count += 1
print(time.process_time() - start, count)
"""


def cpu(python: str, code: str, folder: str, repeat: int) -> float:
    """The least CPU seconds of ``repeat`` runs of code (a child process each)."""
    best = float("inf")
    for _ in range(repeat):
        done = subprocess.run([python, "-c", code, folder], check=True, capture_output=True, text=True,
                              cwd=tempfile.gettempdir())  # (not this checkout: the install's own package)
        best = min(best, float(done.stdout.split()[0]))
    return best


def layouts(scratch: str, rows: int, forty: bool) -> dict[str, str]:
    """W(rows) built, and rewritten in each layout: {layout: folder}."""
    site = workload.make(os.path.join(scratch, "site"), rows)
    ours = os.path.join(scratch, "ours")
    subprocess.run([sys.executable, "-m", "sitemap_ext", "build", site, "-o", ours, "--quiet"], check=True)
    folders = {"ours": ours}
    for name, change in (("indented", check_layouts.indented), ("minified", check_layouts.minified),
                         ("scattered", check_layouts.scattered)):
        folders[name] = os.path.join(scratch, name)
        check_layouts.rewrite(ours, folders[name], change)
    if forty:
        folders["40-locales"] = os.path.join(scratch, "forty")
        subprocess.run([sys.executable, "-m", "sitemap_ext", "build", check_layouts.forty_locales(
            os.path.join(scratch, "forty-site"), rows), "-o", folders["40-locales"], "--quiet"], check=True)
    return folders


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--rows", type=int, default=20_000)
    args.add_argument("--repeat", type=int, default=5)
    args.add_argument("--before", metavar="PYTHON", help="also time the reader of another install, in the same run")
    args.add_argument("--no-forty", action="store_true", help="leave out the 40-locale layout")
    args.add_argument("--scratch", default="/dev/shm/sitemap-ext-read-xml" if os.path.isdir("/dev/shm") else None)
    opts = args.parse_args(argv)
    scratch = opts.scratch or os.path.join(HERE, "work", "read-xml")
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        folders = layouts(scratch, opts.rows, not opts.no_forty)
        print(f"{'layout':<10} {'MB':>6} {'floor s':>8}" + (f" {'before s':>8} {'ratio':>6}" if opts.before else "")
              + f" {'reader s':>8} {'ratio':>6}", flush=True)
        for name, folder in folders.items():
            size = sum(os.path.getsize(os.path.join(folder, n)) for n in os.listdir(folder) if n.endswith(".xml"))
            floor = cpu(sys.executable, FLOOR, folder, opts.repeat)
            row = f"{name:<10} {size / 1e6:6.1f} {floor:8.2f}"
            for python in (opts.before, sys.executable) if opts.before else (sys.executable,):
                reader = cpu(python, READER, folder, opts.repeat)
                row += f" {reader:8.2f} {reader / floor:6.2f}"
            print(row, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
