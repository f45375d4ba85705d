"""Benchmark: our build and check against baselines timed in the same run.

    python benchmarks/run.py                 # W(200,000): 1,000,000 URLs, 3 runs each
    python benchmarks/run.py --rows 50000 --repeat 5 --gzip --no-node

Contenders, each a separate process writing into a fresh, empty folder:
  baseline     benchmarks/baseline.py, a bare f-string writer with no checks
  sitemap.js   npm "sitemap" 9.0.1 with its streaming index writer (when node is
               there; installed into benchmarks/work/node on first use)
  build        sitemap-ext build (every rule on)
  build --jobs 2  the same, its source split over two worker processes
  check        sitemap-ext check of the build's output (every file, clusters), with
               its default --jobs (2 where there are two cores: a worker reads
               later files ahead)
  check --jobs 1  the same in one process
  --gzip adds: build --gzip, and what gzip itself costs on that output (the build's
               deflate: ISA-L with the `fast` extra, else zlib; the same level, one core)
Prints the median wall time, the ratio to the baseline (check: to the build),
the peak resident memory of the largest process, and the peak proportional set
size of all the command's processes together (sampled; shared pages counted
once). Compare ratios, not seconds: they are taken in one run on one machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
import zlib
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "work")
sys.path.insert(0, HERE)

import workload  # noqa: E402

SITEMAP_JS = "sitemap@9.0.1"


def _tree(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            children = [int(child) for child in handle.read().split()]
    except OSError:
        return [pid]
    return [pid] + [found for child in children for found in _tree(child)]


def _pss(pid: int) -> int:
    """Proportional set size (KiB) of a process and its descendants: shared pages
    counted once in all. 0 where /proc cannot tell."""
    total = 0
    for member in _tree(pid):
        try:
            with open(f"/proc/{member}/smaps_rollup") as handle:
                total += sum(int(line.split()[1]) for line in handle if line.startswith("Pss:"))
        except OSError:
            pass
    return total


def measured(command: list[str], cwd: str = WORK) -> tuple[float, float, float, float]:
    """(wall seconds, CPU seconds of it and its children, peak RSS in MiB of its largest
    process, peak PSS in MiB of all its processes together, sampled 20 times a second)
    of one command; RuntimeError with the end of its stderr when it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_pss = [0]
    finished = threading.Event()

    def sample() -> None:
        while not finished.wait(0.05):
            peak_pss[0] = max(peak_pss[0], _pss(process.pid))
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    finished.set()
    sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise RuntimeError(errors.strip()[-2000:])
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, peak_pss[0] / 1024


def timed(command: list[str], cwd: str = WORK) -> tuple[float, float, float]:
    """(wall seconds, peak RSS in MiB of its largest process, peak PSS in MiB of all its
    processes together) of one command (``measured``); it stops the run if the command fails."""
    try:
        wall, _, largest, together = measured(command, cwd)
    except RuntimeError as exc:
        raise SystemExit(f"{' '.join(command)} failed:\n{exc}") from None
    return wall, largest, together


SCRATCH = WORK  # where outputs go; main() may point it at memory


def fresh(name: str) -> str:
    path = os.path.join(SCRATCH, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def node_ready() -> bool:
    if shutil.which("node") is None or shutil.which("npm") is None:
        return False
    prefix = os.path.join(WORK, "node")
    if not os.path.isdir(os.path.join(prefix, "node_modules", "sitemap")):
        result = subprocess.run(["npm", "install", "--silent", "--prefix", prefix, SITEMAP_JS],
                                capture_output=True, text=True)
        if result.returncode != 0:
            print(f"(sitemap.js skipped: npm install failed: {result.stderr.strip()[:200]})")
            return False
    return True


def gzip_cost(folder: str, deflate: str) -> tuple[float, float]:
    """Seconds the build's deflate (zlib at its level, or ISA-L's igzip with the `fast`
    extra) takes to gzip every .xml file of folder, in this process, and the size of
    the result as a share of the input."""
    from sitemap_ext.write.series import GZIP_LEVEL, ISAL_LEVEL

    if deflate == "isal":
        from isal import isal_zlib as module
        level = ISAL_LEVEL
    else:
        module, level = zlib, GZIP_LEVEL
    start = time.perf_counter()
    size = packed = 0
    for top, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".xml"):
                with open(os.path.join(top, name), "rb") as handle:
                    compressor = module.compressobj(level, zlib.DEFLATED, 31)
                    while True:
                        chunk = handle.read(1 << 20)
                        if not chunk:
                            break
                        size += len(chunk)
                        packed += len(compressor.compress(chunk))
                    packed += len(compressor.flush())
    return time.perf_counter() - start, packed / size if size else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000, help="N of W(N): rows of the CSV (5 URLs each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gzip", action="store_true", help="also measure --gzip and gzip's own cost")
    parser.add_argument("--no-node", action="store_true", help="skip sitemap.js")
    parser.add_argument("--scratch", default="/dev/shm" if os.path.isdir("/dev/shm") else WORK,
                        help="folder for the outputs (default: /dev/shm, in memory, so that disk write-back "
                        "does not add its noise to every contender's time)")
    args = parser.parse_args(argv)
    global SCRATCH
    SCRATCH = os.path.join(args.scratch, "sitemap-ext-bench")
    os.makedirs(SCRATCH, exist_ok=True)

    os.makedirs(WORK, exist_ok=True)
    site = workload.make(os.path.join(WORK, f"w{args.rows}"), args.rows)
    csv_path = os.path.join(os.path.dirname(site), "products.csv")
    python = sys.executable
    ours = [python, "-m", "sitemap_ext"]
    os.environ["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")
    os.environ["NODE_PATH"] = os.path.join(WORK, "node", "node_modules")  # where node_ready() installs sitemap
    # name -> (command for an output folder, the folder's name)
    contenders: dict[str, tuple[Callable[[str], list[str]], str]] = {
        "baseline": (lambda out: [python, os.path.join(HERE, "baseline.py"), csv_path, out], "out-baseline"),
        "build": (lambda out: ours + ["build", site, "--quiet", "--jobs", "1", "-o", out], "out-build"),
        "build --jobs 2": (lambda out: ours + ["build", site, "--quiet", "--jobs", "2", "-o", out], "out-build-j2"),
    }
    if args.gzip:
        contenders["build --gzip"] = (lambda out: ours + ["build", site, "--quiet", "--jobs", "1", "--gzip", "-o", out],
                                      "out-build-gz")
    if not args.no_node and node_ready():
        contenders["sitemap.js"] = (lambda out: ["node", os.path.join(HERE, "sitemapjs.js"), csv_path, out],
                                    "out-sitemapjs")

    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in contenders}
    results["check"] = []
    results["check --jobs 1"] = []
    gzip_runs: list[float] = []
    for round_number in range(args.repeat):
        for name, (command, out) in contenders.items():
            results[name].append(timed(command(fresh(out))))
        results["check"].append(timed(ours + ["check", os.path.join(SCRATCH, "out-build"), "--quiet"]))
        results["check --jobs 1"].append(timed(ours + ["check", os.path.join(SCRATCH, "out-build"), "--quiet",
                                                       "--jobs", "1"]))
        if args.gzip:
            from sitemap_ext.write.series import deflate_name
            seconds, share = gzip_cost(os.path.join(SCRATCH, "out-build"), deflate_name())
            gzip_runs.append(seconds)
        print(f"round {round_number + 1}/{args.repeat} done", file=sys.stderr)

    def median(name: str) -> float:
        return statistics.median(wall for wall, _, _ in results[name])

    base = median("baseline")
    print(f"\nW({args.rows:,}): {args.rows * 5:,} URL entries, {args.rows * 30:,} alternates, "
          f"{args.rows * 5:,} images; median of {args.repeat} runs, {os.cpu_count()} cores, outputs in "
          f"{args.scratch}\n")
    print(f"{'':16} {'median s':>9} {'ratio':>14} {'peak MiB':>9} {'all procs':>10}")
    for name in list(results):
        if not results[name]:
            continue
        wall = median(name)
        peak = max(memory for _, memory, _ in results[name])
        together = max(pss for _, _, pss in results[name])
        against = median("build") if name.startswith("check") else base
        label = "x build" if name.startswith("check") else "x base"
        print(f"{name:16} {wall:9.2f} {wall / against:6.2f} {label:7} {peak:9.0f} {together or float('nan'):10.0f}")
    if gzip_runs:
        added = median("build --gzip") - median("build")
        from sitemap_ext.write.series import deflate_name

        print(f"\n--gzip adds {added:.2f} s; gzip itself ({deflate_name()}, one core) takes "
              f"{statistics.median(gzip_runs):.2f} s on that output, to {share:.2%} of its size "
              "(SITEMAP_EXT_DEFLATE=zlib: zlib)")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
