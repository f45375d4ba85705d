"""The audit on a Dask cluster against the audit on one machine, as the sitemaps grow.

    python benchmarks/check_dask.py --rows 200000 --workers 2      # W: 1M entries, 6M alternates
    python benchmarks/check_dask.py --rows 200000 1000000 --workers 1 2

For each N, W(N) (benchmarks/workload.py: 5N <url> entries, 6 alternates and an image
each) is built into --dir, then checked twice: `sitemap-ext check OUT --jobs J` (one
machine: its pool reads the files, its main process holds the cluster index and judges
the rules across files), and `sitemap-ext check OUT --dask SCHEDULER` against a local
cluster of --workers worker processes (one thread each) that this script starts (and
restarts before each check, so each worker's peak is that check's). The check on Dask
runs the rules across files on the workers, in shares of the URL keys; its own process
is only the client. Columns: wall and CPU time of the check's command (the workers'
CPU is not in it), the peak resident set of the check's process (one machine: the main
process, which holds the index; on Dask: the client), and on Dask the largest worker's
peak resident set. The findings of both are compared (exit code and JSON report).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run import measured  # noqa: E402


def _peak_kib() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _report(command: list[str], cwd: str) -> tuple[int, Any]:
    done = subprocess.run([*command, "--format", "json", "--now", "2026-11-29T00:00:00Z"], cwd=cwd,
                          capture_output=True, text=True, check=False)
    return done.returncode, json.loads(done.stdout)


def _compare(found: tuple[int, Any], expected: tuple[int, Any]) -> None:
    """Says where the check on Dask reports otherwise than the one on one machine."""
    if found == expected:
        return
    print(f"the reports differ: exit {found[0]} and {expected[0]}", flush=True)
    for key in expected[1]:
        if found[1].get(key) != expected[1][key]:
            print(f"  {key}: {str(found[1].get(key))[:600]}\n  against {str(expected[1][key])[:600]}", flush=True)
    raise SystemExit(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000])
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--jobs", type=int, default=2, help="the one-machine check's processes")
    parser.add_argument("--dir", default="/dev/shm/sitemap-ext-dask-check" if os.path.isdir("/dev/shm")
                        else os.path.join(HERE, "work", "dask-check"))
    parser.add_argument("--keep", action="store_true", help="keep each W(N) built, for another run")
    parser.add_argument("--compare", action="store_true", help="also compare the two JSON reports (a third "
                        "and fourth run each, untimed)")
    args = parser.parse_args(argv)
    try:
        import distributed
    except ImportError:
        raise SystemExit("needs the dask extra: pip install 'sitemap-ext[dask]'") from None
    print(f"{'entries':>11} {'how':>12} {'check s':>8} {'CPU s':>7} {'check MiB':>10} {'worker MiB':>11}")
    for rows in sorted(args.rows):
        folder, out = workload.built(args.dir, rows, args.keep)
        entries = rows * 5
        one = [sys.executable, "-m", "sitemap_ext", "check", out, "--quiet", "--jobs", str(args.jobs)]
        wall, cpu, largest, _ = measured(one, cwd=folder)
        print(f"{entries:>11,} {f'--jobs {args.jobs}':>12} {wall:>8.1f} {cpu:>7.1f} {largest:>10.0f} {'-':>11}",
              flush=True)
        for workers in args.workers:
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0")
            try:
                with distributed.Client(cluster) as client:
                    client.restart()
                    dask = [sys.executable, "-m", "sitemap_ext", "check", out, "--quiet", "--dask",
                            cluster.scheduler_address]
                    wall, cpu, largest, _ = measured(dask, cwd=folder)
                    worker = max(client.run(_peak_kib).values()) / 1024
                    print(f"{entries:>11,} {f'{workers} workers':>12} {wall:>8.1f} {cpu:>7.1f} {largest:>10.0f} "
                          f"{worker:>11.0f}", flush=True)
                    if args.compare:
                        _compare(_report(dask, folder), _report(one, folder))
            finally:
                cluster.close()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
