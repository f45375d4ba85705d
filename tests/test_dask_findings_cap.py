"""A partitioned build's partitions send at most the findings of each code that the
client keeps (``max_per_code``), and count the rest: the client's merge in partition
order then gives exactly the findings, counts, ``suppressed`` and ``ignored`` of the
one-machine build. Once-keyed findings (a fact said once per run) are kept by every
partition, past the limit, so the merge counts each once over the build.

Most tests run the client's steps by hand (``open_build``, ``build_partition``,
``finish_build``: what a PySpark job does), without Dask; one runs the Dask build on
an in-process cluster."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

from sitemap_ext import build  # noqa: E402
from sitemap_ext.codes import REGISTRY  # noqa: E402
from sitemap_ext.dask_build import driver  # noqa: E402
from sitemap_ext.dask_build.partition import PartitionBuilt, build_partition  # noqa: E402
from sitemap_ext.dask_build.steps import finish_build, open_build  # noqa: E402
from sitemap_ext.diagnostics import Collector  # noqa: E402

NOW = "2026-11-29T00:00:00Z"
SITE = "site:\n  base_url: https://e.com/\nlocales:\n  en: /en/\n  de: /de/\n"
# Each row: a bad lastmod (D101, an error) and no x-default (H112, an info); the
# columns url:en_US and url:de_DE are L101 once each over the run (once-keyed).
BAD = "2026-13-01"


def rows(part: int, bad: int, good: int = 1, underscores: bool = False) -> Any:
    """Partition ``part``'s frame: ``bad`` rows with a bad lastmod, ``good`` rows without."""
    made = []
    for k in range(bad + good):
        row = {"path": f"/p{part}-{k}", "lastmod": BAD if k < bad else f"2026-{part:02d}-{k + 1:02d}"}
        if underscores:
            row |= {"url:en_US": f"https://e.com/en/p{part}-{k}", "url:de_DE": f"https://e.com/de/p{part}-{k}"}
        made.append(row)
    return pd.DataFrame(made)


def said(collector: Collector) -> list[tuple[Any, ...]]:
    """Each finding kept (code, severity, place, URL, message), by code, each code's in
    their order (one machine judges some codes as its files fill: codes interleave otherwise)."""
    made = [(d.code, d.severity.value, d.file, d.line, d.url, d.message) for d in collector.diagnostics]
    return sorted(made, key=lambda found: found[0])


def tallies(collector: Collector) -> tuple[Counter[str], Counter[str], Counter[str]]:
    return +collector.counts, +collector.suppressed, +collector.ignored


def by_steps(tmp: Path, frames: list[Any], limit: int | None, collector: Collector | None = None
             ) -> tuple[Any, list[PartitionBuilt]]:
    """The client's steps by hand: each frame a partition, built here; the result and
    what each partition sent."""
    options: dict[str, Any] = {"collector": collector} if collector is not None else {"max_per_code": limit}
    opened = open_build(str(tmp / "site.yaml"), str(tmp / "steps"), frames=True, now=NOW, **options)
    assert opened.site is not None
    try:
        sent = [build_partition(opened.site, frame, number, str(Path(opened.folder) / f"p{number}"),
                                out_dir=opened.result.out_dir, settings=opened.settings)
                for number, frame in enumerate(frames, 1)]
        return finish_build(opened, sent), sent
    finally:
        opened.close()


def one_machine(tmp: Path, frames: list[Any], limit: int | None, collector: Collector | None = None) -> Any:
    options: dict[str, Any] = {"collector": collector} if collector is not None else {"max_per_code": limit}
    return build(str(tmp / "site.yaml"), str(tmp / "one"), pages=frames, now=NOW, **options)


def per_code(built: PartitionBuilt, once: bool) -> Counter[str]:
    """How many findings of each code a partition sent (once-keyed or not)."""
    return Counter(d.code for d in built.diagnostics if (d.once is not None) == once)


def test_a_partition_sends_at_most_the_clients_limit_per_code_and_counts_the_rest(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(SITE)
    result, sent = by_steps(tmp_path, [rows(1, 10), rows(2, 2), rows(3, 7)], 3)
    assert [per_code(one, once=False) for one in sent] == [Counter({"D101": 3, "H112": 3}),
                                                           Counter({"D101": 2, "H112": 3}),
                                                           Counter({"D101": 3, "H112": 3})]
    assert [+one.suppressed for one in sent] == [Counter({"D101": 7, "H112": 8}), Counter(),
                                                 Counter({"D101": 4, "H112": 5})]
    one = one_machine(tmp_path, [rows(1, 10), rows(2, 2), rows(3, 7)], 3)
    assert said(result.collector) == said(one.collector)
    assert [(d.file, d.line) for d in result.collector.diagnostics if d.code == "D101"] == \
        [("<partition 1>", 1), ("<partition 1>", 2), ("<partition 1>", 3)]
    assert tallies(result.collector) == tallies(one.collector)
    assert result.collector.counts["D101"] == 19 and result.collector.suppressed["D101"] == 16


def test_without_a_limit_a_partition_sends_every_finding(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(SITE)
    result, sent = by_steps(tmp_path, [rows(1, 5), rows(2, 4)], None)
    assert [per_code(one, once=False)["D101"] for one in sent] == [5, 4]
    assert not any(one.suppressed for one in sent)
    assert said(result.collector) == said(one_machine(tmp_path, [rows(1, 5), rows(2, 4)], None).collector)


def test_once_keyed_findings_are_kept_past_the_limit_and_counted_once_over_the_build(tmp_path: Path) -> None:
    """url:en_US and url:de_DE are L101 once each over the run. With a limit of 1, a
    partition that counted the second as suppressed would count it again after the
    partition that said it first: the merge would count 4 where one machine counts 2."""
    (tmp_path / "site.yaml").write_text(SITE)
    frames = [rows(1, 2, underscores=True), rows(2, 3, underscores=True), rows(3, 0, underscores=True)]
    result, sent = by_steps(tmp_path, frames, 1)
    assert [per_code(one, once=True) for one in sent] == [Counter({"L101": 2})] * 3
    assert [per_code(one, once=False)["D101"] for one in sent] == [1, 1, 0]
    assert not any(one.suppressed["L101"] for one in sent)
    one = one_machine(tmp_path, frames, 1)
    assert said(result.collector) == said(one.collector)
    assert tallies(result.collector) == tallies(one.collector)
    assert (result.collector.counts["L101"], result.collector.suppressed["L101"]) == (2, 1)


def test_a_client_that_keeps_every_error_gets_every_error_from_its_partitions(tmp_path: Path) -> None:
    """``errors_kept`` (a collector that keeps every error past its limit): the
    partitions keep every error too, and bound the rest."""
    (tmp_path / "site.yaml").write_text(SITE)
    frames = [rows(1, 4), rows(2, 3)]
    result, sent = by_steps(tmp_path, frames, None, Collector(REGISTRY, limit=2, errors_kept=True))
    assert [per_code(one, once=False) for one in sent] == [Counter({"D101": 4, "H112": 2}),
                                                           Counter({"D101": 3, "H112": 2})]
    one = one_machine(tmp_path, frames, None, Collector(REGISTRY, limit=2, errors_kept=True))
    assert said(result.collector) == said(one.collector)
    assert tallies(result.collector) == tallies(one.collector)
    assert result.collector.counts["D101"] == 7 and not result.collector.suppressed["D101"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 4), bad=st.lists(st.integers(0, 6), min_size=1, max_size=3),
       underscores=st.lists(st.booleans(), min_size=3, max_size=3))
def test_any_limit_and_bad_rows_merge_to_what_one_machine_finds(tmp_path_factory: pytest.TempPathFactory,
                                                                limit: int, bad: list[int],
                                                                underscores: list[bool]) -> None:
    tmp = tmp_path_factory.mktemp("cap")
    (tmp / "site.yaml").write_text(SITE)
    frames = [rows(part, n, underscores=flag) for part, (n, flag) in enumerate(zip(bad, underscores, strict=False), 1)]
    result, sent = by_steps(tmp, frames, limit)
    one = one_machine(tmp, frames, limit)
    assert said(result.collector) == said(one.collector)
    assert tallies(result.collector) == tallies(one.collector)
    for built in sent:
        assert all(n <= limit for n in per_code(built, once=False).values())
        assert sum(per_code(built, once=True).values()) <= 2  # (two once-keys in all)


def test_on_dask_partitions_send_at_most_the_limit_and_the_client_finds_what_one_machine_finds(
        tmp_path: Path, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "site.yaml").write_text(SITE)
    pieces = [rows(1, 6, underscores=True), rows(2, 5, underscores=True), rows(3, 4)]
    ddf = dd.from_pandas(pd.concat(pieces, ignore_index=True), npartitions=3, sort=False)
    pieces = [ddf.get_partition(k).compute() for k in range(ddf.npartitions)]
    sent: list[PartitionBuilt] = []

    def kept(*args: Any, **kwargs: Any) -> PartitionBuilt:
        built = build_partition(*args, **kwargs)
        sent.append(built)
        return built
    monkeypatch.setattr(driver, "build_partition", kept)  # (the cluster runs in this process)
    many = build(str(tmp_path / "site.yaml"), str(tmp_path / "dask"), pages=ddf, client=client, now=NOW,
                 max_per_code=3)
    one = one_machine(tmp_path, pieces, 3)
    assert sorted(said(many.collector)) == sorted(said(one.collector))
    assert tallies(many.collector) == tallies(one.collector)
    assert many.collector.counts["D101"] == 15 and many.collector.suppressed["D101"] == 12
    assert len(sent) == 3
    for built in sent:
        assert all(n <= 3 for n in per_code(built, once=False).values())
        assert sum(per_code(built, once=True).values()) <= 2
