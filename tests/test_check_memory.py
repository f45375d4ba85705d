"""What the main process of a check keeps: the cluster index, not the files' results."""

from __future__ import annotations

import gc
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.checker import run
from sitemap_ext.rules.cluster_log import ClusterLog

SM = "http://www.sitemaps.org/schemas/sitemap/0.9"


def test_each_file_s_cluster_log_is_let_go_once_it_is_in_the_index(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With worker processes, a file's results come back through a future; once they
    are merged, nothing may hold them (their cluster log keeps every URL uncompressed):
    when the cluster rules start, no ClusterLog is alive in the main process."""
    for number in range(4):
        rows = "".join(f"<url><loc>https://e.com/{number}/{i}</loc></url>\n" for i in range(50))
        (tmp_path / f"sitemap-{number}.xml").write_text(f'<urlset xmlns="{SM}">\n{rows}</urlset>\n', encoding="utf-8")
    alive: list[int] = []
    judge = run.Run._judge_together

    def counted(self: run.Run) -> None:
        gc.collect()
        alive.append(sum(isinstance(thing, ClusterLog) for thing in gc.get_objects()))
        judge(self)

    monkeypatch.setattr(run.Run, "_judge_together", counted)
    result = check([str(tmp_path)], jobs=2)
    assert result.ok and alive == [0]


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                    reason="the heap setting is glibc's (mallopt); elsewhere the command line leaves the heap alone")
def test_the_command_line_fixes_glibcs_mmap_threshold_and_the_library_does_not() -> None:
    """Large freed blocks (a file's cluster log) go back to the system: the threshold
    stays fixed at 128 KiB after a block of 8 MiB is freed. Seen from /proc: an 8 MiB
    allocation after the first one freed is a mapping of its own again."""
    probe = (
        "import ctypes, sys\n"
        "from sitemap_ext.cli import heap\n"
        "if sys.argv[1] == 'cli': assert heap.give_back_large_blocks()\n"
        "libc = ctypes.CDLL(None)\n"
        "libc.malloc.restype = ctypes.c_void_p\n"
        "libc.free.argtypes = (ctypes.c_void_p,)\n"
        "libc.free(libc.malloc(8 << 20))\n"  # glibc raises its threshold to 8 MiB here, unless it is fixed
        "block = libc.malloc(4 << 20)\n"
        "maps = open('/proc/self/maps').read().splitlines()\n"
        "print(any(int(b, 16) <= block < int(e, 16) and '[heap]' in line\n"
        "          for line in maps for b, e in [line.split()[0].split('-')]))\n"
    )
    on_heap = {mode: subprocess.run([sys.executable, "-c", probe, mode], capture_output=True, text=True,
                                    check=True).stdout.strip() for mode in ("cli", "library")}
    assert on_heap == {"cli": "False", "library": "True"}
    # A user who tunes malloc through the environment keeps that tuning.
    tuned = subprocess.run([sys.executable, "-c", "from sitemap_ext.cli import heap\n"
                            "print(heap.give_back_large_blocks())"], capture_output=True, text=True, check=True,
                           env={**os.environ, "MALLOC_MMAP_THRESHOLD_": "1048576"})
    assert tuned.stdout.strip() == "False"
