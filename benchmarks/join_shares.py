"""The join across files in shares of the URL keys against one index, in one process.

    python benchmarks/join_shares.py OUT --shares 1 2 4

OUT is a folder of sitemaps (as `benchmarks/check_dask.py --keep` leaves W(N) built in
its --dir). Its files are checked once (with --jobs 2) and the cluster logs the check
adds are kept; then the CPU seconds of one index (each log added, every rule across
files judged) and of the steps of `rules/cluster_shards.py` for each number of shares
(`in_shares`: split, what each share asks, the lists' first entries, the second round,
each share judged, the merge), with the findings of both compared.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time

from sitemap_ext.checker.given import check
from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector
from sitemap_ext.rules.cluster_log import ClusterLog
from sitemap_ext.rules.cluster_shards import in_shares, merge_shares
from sitemap_ext.rules.cluster_store import ClusterStore
from sitemap_ext.rules.clusters import ClusterIndex


def _logs(folder: str) -> list[ClusterLog]:
    added: list[ClusterLog] = []
    real = ClusterStore.add

    def add(store: ClusterStore, display: str | None, log: ClusterLog) -> None:
        added.append(pickle.loads(pickle.dumps(log)).of_file(display) if display is not None else log)
        real(store, display, log)

    ClusterStore.add = add  # type: ignore[method-assign]
    try:
        check([folder], now="2026-11-29T00:00:00Z", jobs=2)
    finally:
        ClusterStore.add = real  # type: ignore[method-assign]
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--shares", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args(argv)
    logs = _logs(args.out)
    entries = sum(len(log.keys) for log in logs)
    start = time.process_time()
    one = Collector(REGISTRY)
    index = ClusterIndex(one)
    for log in logs:
        index.add(None, log)
    index.finish()
    alone = time.process_time() - start
    print(f"{entries:,} entries: one index {alone:.1f} s CPU", flush=True)
    for shares in args.shares:
        start = time.process_time()
        many = Collector(REGISTRY)
        merge_shares(many, in_shares(logs, shares, {"registry": REGISTRY}))
        spent = time.process_time() - start
        same = [(d.code, d.file, d.line, d.url, d.message) for d in many.diagnostics] == \
            [(d.code, d.file, d.line, d.url, d.message) for d in one.diagnostics]
        print(f"{shares:>3} shares {spent:.1f} s CPU ({spent / alone:.1f}x), the same findings: {same}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
