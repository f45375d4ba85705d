"""What the main process of a check keeps: the cluster index, not the files' results."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from sitemap_ext import check
from sitemap_ext.rules import run
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
