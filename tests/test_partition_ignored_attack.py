"""A Dask build's partitions and a policy that hides a once-keyed finding: each partition
counts it as ignored, so the build counts it once per partition where one machine counts
it once (``Collector.report`` looks at the once key before the policy, and each partition
has once keys of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pandas")
pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

from sitemap_ext.codes import REGISTRY
from sitemap_ext.diagnostics import Collector
from sitemap_ext.rules.config import Policy

from .test_dask_findings_cap import SITE, by_steps, one_machine, rows, tallies


@pytest.mark.parametrize("policy", [Policy(ignore=("L101",)), Policy(per_path=(("*", ("L101",)),))])
def test_a_once_keyed_finding_the_policy_hides_is_ignored_once_over_the_partitions(policy: Policy,
                                                                                  tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(SITE)
    frames = [rows(1, 2, underscores=True), rows(2, 3, underscores=True), rows(3, 0, underscores=True)]
    result, _ = by_steps(tmp_path, frames, 1, Collector(REGISTRY, limit=1, policy=policy))
    one = one_machine(tmp_path, frames, 1, Collector(REGISTRY, limit=1, policy=policy))
    assert one.collector.ignored["L101"] == 2  # (url:en_US and url:de_DE, once each over the run)
    assert tallies(result.collector) == tallies(one.collector)
