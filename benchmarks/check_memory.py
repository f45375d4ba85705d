"""The check's memory as the sitemaps grow: W(N) for each N given, built, then checked.

    python benchmarks/check_memory.py --rows 200000 1000000      # 1M and 5M entries
    python benchmarks/check_memory.py --rows 200000 --memory-budget 64M 256M

For each N, W(N) (benchmarks/workload.py: 5N <url> entries, 6 alternates and an image
each) is built into --dir (in memory by default), then `sitemap-ext check OUT --quiet
--jobs J` runs, once with all in memory and once for each --memory-budget given (the
cluster index spilling past it to TMPDIR): the wall and CPU time (of every process),
the peak resident set of its largest process (the main one, which holds the cluster
index: ru_maxrss from wait4) and the peak proportional set size of all its processes
together (sampled 20 times a second). The last column is the growth of the largest
process per URL entry from the size before (rows without a budget only).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run import measured  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--memory-budget", nargs="*", default=[], metavar="SIZE",
                        help="a row per budget besides the one without (512M, 2G)")
    parser.add_argument("--dir", default="/dev/shm/sitemap-ext-memory" if os.path.isdir("/dev/shm")
                        else os.path.join(HERE, "work", "memory"))
    parser.add_argument("--budgets-only", action="store_true",
                        help="no row without a budget (at 10^8 alternates it takes as long again)")
    parser.add_argument("--keep", action="store_true", help="keep each W(N) built, for another run")
    args = parser.parse_args(argv)
    print(f"{'entries':>11} {'budget':>7} {'check s':>8} {'CPU s':>7} {'largest MiB':>12} {'all MiB':>8} "
          f"{'growth B/URL':>13}")
    before: tuple[int, float] | None = None
    for rows in sorted(args.rows):
        folder, out = workload.built(args.dir, rows, args.keep)
        entries = rows * 5
        for budget in [*([] if args.budgets_only else [None]), *args.memory_budget]:
            flags = [] if budget is None else ["--memory-budget", budget]
            try:
                wall, cpu, largest, together = measured([sys.executable, "-m", "sitemap_ext", "check", out,
                                                         "--quiet", "--jobs", str(args.jobs), *flags], cwd=folder)
            except RuntimeError as exc:  # (a budget too small: said, and the next one tried)
                print(f"{entries:>11,} {budget or '-':>7} {exc}", flush=True)
                continue
            growth = ""
            if budget is None:
                growth = "" if before is None else f"{(largest - before[1]) * 2**20 / (entries - before[0]):.0f}"
                before = (entries, largest)
            print(f"{entries:>11,} {budget or '-':>7} {wall:>8.1f} {cpu:>7.1f} {largest:>12.0f} {together:>8.0f} "
                  f"{growth:>13}", flush=True)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
