"""The check's memory as the sitemaps grow: W(N) for each N given, built, then checked.

    python benchmarks/check_memory.py --rows 200000 1000000      # 1M and 5M entries

For each N, W(N) (benchmarks/workload.py: 5N <url> entries, 6 alternates and an image
each) is built into --dir (in memory by default), then `sitemap-ext check OUT --quiet
--jobs J` runs under benchmarks/run.py's sampler: the peak resident set of its largest
process (the main one, which holds the cluster index) and the peak proportional set
size of all its processes together. The last column is the growth of the largest
process per URL entry from the size before.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run import timed  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default="/dev/shm/sitemap-ext-memory" if os.path.isdir("/dev/shm")
                        else os.path.join(HERE, "work", "memory"))
    args = parser.parse_args(argv)
    print(f"{'entries':>11} {'check s':>8} {'largest MiB':>12} {'all MiB':>8} {'growth B/URL':>13}")
    before: tuple[int, float] | None = None
    for rows in sorted(args.rows):
        folder = os.path.join(args.dir, f"w-{rows}")
        site = workload.make(folder, rows)
        out = os.path.join(folder, "out")
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "sitemap_ext", "build", site, "-o", out, "--quiet"], check=True)
        wall, largest, together = timed([sys.executable, "-m", "sitemap_ext", "check", out, "--quiet",
                                         "--jobs", str(args.jobs)], cwd=folder)
        entries = rows * 5
        growth = "" if before is None else f"{(largest - before[1]) * 2**20 / (entries - before[0]):.0f}"
        print(f"{entries:>11,} {wall:>8.1f} {largest:>12.0f} {together:>8.0f} {growth:>13}", flush=True)
        before = (entries, largest)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
