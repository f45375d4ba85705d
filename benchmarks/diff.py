"""sitemap-ext diff on two builds of W(N): time and peak memory.

OLD is W(N) (5 locales, N rows: 5N URLs); NEW is the same site with every 20th row
gone, every 10th row's lastmod moved, and N/20 new rows: the shape of a large
deploy. Both are built, then ``/usr/bin/time -v sitemap-ext diff OLD NEW`` runs
(its maximum resident set size is the largest process's, the main one here).

    python benchmarks/diff.py --rows 200000
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

import workload

HERE = os.path.dirname(os.path.abspath(__file__))


def planted(source: str, target: str, rows: int) -> None:
    """NEW's CSV: OLD's rows with every 20th gone and every 10th moved, and rows/20 new ones."""
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(source, "products.csv"), encoding="utf-8") as old, \
            open(os.path.join(target, "products.csv"), "w", encoding="utf-8", newline="") as new:
        new.write(old.readline())
        for number, line in enumerate(old):
            if number % 20 == 7:
                continue
            if number % 10 == 3:
                path, _, image = line.rstrip("\n").split(",")
                line = f"{path},2026-11-20,{image}\n"
            new.write(line)
        for number in range(rows // 20):
            new.write(f"/products/new-{number},2026-11-20,https://cdn.example.com/img/new-{number}.jpg\n")
    shutil.copy(os.path.join(source, "site.yaml"), os.path.join(target, "site.yaml"))


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--rows", type=int, default=200_000)
    args.add_argument("--scratch", default="/dev/shm/sitemap-ext-diff" if os.path.isdir("/dev/shm") else None)
    opts = args.parse_args(argv)
    scratch = opts.scratch or os.path.join(HERE, "work", "diff")
    shutil.rmtree(scratch, ignore_errors=True)
    old_site = workload.make(os.path.join(scratch, "old-site"), opts.rows)
    planted(os.path.dirname(old_site), os.path.join(scratch, "new-site"), opts.rows)
    for side in ("old", "new"):
        subprocess.run([sys.executable, "-m", "sitemap_ext", "build", os.path.join(scratch, f"{side}-site", "site.yaml"),
                        "-o", os.path.join(scratch, side), "--quiet", "--now", "2026-11-21T00:00:00Z"], check=True)
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "sitemap_ext", "diff", os.path.join(scratch, "old"),
               os.path.join(scratch, "new"), "--format", "json", "-o", os.path.join(scratch, "diff.json"), "--quiet",
               "--now", "2026-11-21T00:00:00Z"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = re.search(r"Elapsed \(wall clock\) time .*: (\S+)", done.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    print(f"rows {opts.rows:,} ({opts.rows * 5:,} URLs in OLD), exit {done.returncode}: "
          f"wall {wall.group(1) if wall else '?'}, peak {int(peak.group(1)) // 1024 if peak else '?'} MiB")
    with open(os.path.join(scratch, "diff.json"), encoding="utf-8") as report:
        tail = report.read()[-400:]
    print(tail[tail.index('"summary"'):].strip())
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
