"""The build on a local Dask cluster of 1 and 2 workers: throughput, worker and client
peak memory, the ratio of 2 workers to 1, and the per-URL CPU cost that carries to a
real cluster.

    python benchmarks/dask_build.py [--urls 1000000 5000000] [--part-rows 20000] [--folder /tmp/dask-bench]

W(N) (benchmarks/workload.py: 5 locales, one image a row, 5 URLs a row) is written as a
folder of CSV parts of ``--part-rows`` rows (a part a partition), built with gzip on.
Each configuration runs in a process of its own (its peak memory is its own); a worker
is a process (``LocalCluster(processes=True)``, one thread). Cluster start-up is timed
apart from the build. The machine's load average before each run is printed: other
work on the cores lowers what a second worker can add.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workload

URLS_PER_ROW = 5


def make_parts(folder: str, urls: int, part_rows: int) -> str:
    """W(urls / 5) as a folder of CSV parts, and its site.yaml (gzip on); the YAML's path."""
    rows = urls // URLS_PER_ROW
    source = os.path.join(folder, f"w{rows}")
    workload.make(source, rows)
    parts = os.path.join(source, f"parts-{part_rows}")
    if not os.path.isdir(parts):
        os.makedirs(parts + ".tmp", exist_ok=True)
        with open(os.path.join(source, "products.csv"), encoding="utf-8") as whole:
            header = whole.readline()
            number, out = 0, None
            for k, line in enumerate(whole):
                if k % part_rows == 0:
                    if out is not None:
                        out.close()
                    out = open(os.path.join(parts + ".tmp", f"part-{number:05d}.csv"), "w", encoding="utf-8")  # noqa: SIM115
                    out.write(header)
                    number += 1
                assert out is not None
                out.write(line)
            if out is not None:
                out.close()
        os.replace(parts + ".tmp", parts)
    site = os.path.join(source, f"site-parts-{part_rows}.yaml")
    with open(site, "w", encoding="utf-8") as out:
        out.write(workload.SITE.replace("file: products.csv", f"file: parts-{part_rows}/")
                  + "  gzip: true\n")
    return site


def _cpu_and_peak() -> tuple[float, int]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def one(site: str, workers: int, out: str) -> dict[str, Any]:
    """One configuration, in this process: 0 workers is the one-machine build (one process)."""
    from sitemap_ext import build

    shutil.rmtree(out, ignore_errors=True)
    load = os.getloadavg()[0]
    if workers == 0:
        started = time.perf_counter()
        result = build(site, out, now="2026-11-29T00:00:00Z", jobs=1, max_per_code=1)
        seconds = time.perf_counter() - started
        cpu, peak = _cpu_and_peak()
        return {"workers": 0, "urls": result.urls, "seconds": seconds, "start": 0.0, "worker_peak": [],
                "worker_cpu": cpu, "client_peak": peak, "load": load, "ok": result.ok}
    from distributed import Client, LocalCluster

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                           memory_limit=0)
    client = Client(cluster)
    start = time.perf_counter() - started
    try:
        started = time.perf_counter()
        result = build(site, out, now="2026-11-29T00:00:00Z", client=client, max_per_code=1)
        seconds = time.perf_counter() - started
        measured = client.run(_cpu_and_peak)
    finally:
        client.close()
        cluster.close()
    _, client_peak = _cpu_and_peak()
    return {"workers": workers, "urls": result.urls, "seconds": seconds, "start": start,
            "worker_peak": [peak for _, peak in measured.values()],
            "worker_cpu": sum(cpu for cpu, _ in measured.values()), "client_peak": client_peak, "load": load,
            "ok": result.ok}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--part-rows", type=int, default=20_000)
    parser.add_argument("--folder", default="/tmp/sitemap-ext-dask-bench")
    parser.add_argument("--one", nargs=3, metavar=("SITE", "WORKERS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.one[2])))
        return
    print("URLs        workers  build s  URLs/s     start s  worker peak MiB  client peak MiB  CPU us/URL  load")
    for urls in args.urls:
        site = make_parts(args.folder, urls, args.part_rows)
        rates: dict[int, float] = {}
        for workers in args.workers:
            done = subprocess.run([sys.executable, __file__, "--one", site, str(workers),
                                   os.path.join(args.folder, "out")], capture_output=True, text=True, check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            rates[workers] = row["urls"] / row["seconds"]
            peaks = "/".join(f"{peak / 2**20:.0f}" for peak in row["worker_peak"]) or "-"
            print(f"{row['urls']:<11,} {workers or 'one':<8} {row['seconds']:<8.1f} {rates[workers]:<10,.0f} "
                  f"{row['start']:<8.1f} {peaks:<16} {row['client_peak'] / 2**20:<16.0f} "
                  f"{row['worker_cpu'] / row['urls'] * 1e6:<11.1f} {row['load']:.2f}")
        if 1 in rates and 2 in rates:
            print(f"2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
