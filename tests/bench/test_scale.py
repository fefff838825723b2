"""The scale series' pieces: its sizes on the command line, the generated graph, the columns the loaders
read, and the report's growth figures. Nothing here is timed."""

from __future__ import annotations

import numpy as np
import pytest

from bench import scale_report
from bench.__main__ import parse_sizes, select_datasets
from bench.datasets import Columns, social_scaled
from bench.run import scale_plan


def test_sizes_read_with_suffixes_and_agent_memory_stops_at_a_million() -> None:
    assert parse_sizes("10m,100k, 1m,2500") == [2_500, 100_000, 1_000_000, 10_000_000]
    with pytest.raises(SystemExit, match="not a size"):
        parse_sizes("ten")
    plan = scale_plan(parse_sizes("100k,1m,10m"))
    assert plan.agent_sizes == [100_000, 1_000_000]
    assert plan.social_scaled == [100_000, 1_000_000, 10_000_000]
    assert plan.own_workers and plan.load_budget == 600
    only_social = select_datasets(plan, "social")
    assert only_social.agent_sizes == [] and only_social.social_scaled == plan.social_scaled
    assert select_datasets(plan, "agent").social_scaled == []


def test_the_scaled_social_graph_has_the_model_s_shape() -> None:
    dataset = social_scaled(20_000)
    assert dataset.name == "social-20k-rels" and dataset.counts() == (2_000, 20_000)
    knows = dataset.tables["knows"]
    src, dst = knows.columns["src"], knows.columns["dst"]
    assert not (src == dst).any()
    assert len(np.unique(src * 2_000 + dst)) == 20_000
    in_degree, out_degree = np.bincount(dst, minlength=2_000), np.bincount(src, minlength=2_000)
    assert in_degree.max() > 5 * out_degree.max()  # in-degree Zipf-skewed, out-degree near uniform
    edges = set(zip(src.tolist(), dst.tolist(), strict=True))
    assert all(pair[0] != pair[1] for pair in dataset.params["pairs"])
    assert len(dataset.params["ids"]) == 100
    # the same graph on every run, row for row
    again = social_scaled(20_000)
    assert again.tables["knows"][:5] == knows[:5] and set(zip(*(again.tables["knows"].columns[k].tolist()
                                                                 for k in ("src", "dst")), strict=True)) == edges


def test_columns_read_as_row_dicts_of_plain_values() -> None:
    table = Columns({"id": np.arange(3), "name": ["a", "b", "c"]}, 3)
    assert table[1:] == [{"id": 1, "name": "b"}, {"id": 2, "name": "c"}]
    assert type(table[0]["id"]) is int and table[-1] == {"id": 2, "name": "c"}
    assert list(table) == table[0:3] and len(table) == 3
    assert Columns.of(table[0:2])[1] == {"id": 1, "name": "b"}


def _load(dataset: str, system: str, rels: int, seconds: float) -> dict:
    return {"dataset": dataset, "system": system, "status": "ok", "rels": rels, "rows": rels, "seconds": seconds,
            "rss_peak": 300 * scale_report.MIB, "rss_base": 100 * scale_report.MIB}


def _read(dataset: str, system: str, ms: float, cpu_ms: float | None = None) -> dict:
    return {"dataset": dataset, "workload": "two_hop", "system": system, "status": "ok", "median": ms / 1000,
            "times": [ms / 1000], "note": "", "cpu_median": cpu_ms / 1000 if cpu_ms else None}


def test_growth_is_the_log_log_slope_and_worse_than_linear_is_named() -> None:
    assert scale_report.slopes([(10, 1.0), (100, 10.0), (1000, 1000.0), (10_000, None)]) == [1.0, 2.0, None]
    sizes = {"social-10k-rels": 10_000, "social-100k-rels": 100_000, "social-1m-rels": 1_000_000}
    ours = {"social-10k-rels": 2.0, "social-100k-rels": 4.0, "social-1m-rels": 80.0}
    # the hand SQL's wall time grew with the machine's load; its CPU time, which the growth is read from, did not
    hand = {"social-10k-rels": (2.0, 3.0), "social-100k-rels": (2.0, 3.0), "social-1m-rels": (20.0, 3.0)}
    data = {"systems": ["ours", "handsql"],
            "loads": [_load(d, s, n, n / 1e5) for d, n in sizes.items() for s in ("ours", "handsql")],
            "records": [_read(d, "ours", ours[d]) for d in sizes] + [_read(d, "handsql", *hand[d]) for d in sizes]}
    assert scale_report.families(data) == {"social": list(sizes.items())}
    text = scale_report.markdown(data, None)
    assert "| `two_hop` | ours | 2.0 | 4.0 | 80.0 | 0.30, **1.30** (wall) |" in text
    assert "| `two_hop` | hand SQL | 2.0 / 3.0 | 2.0 / 3.0 | 20.0 / 3.0 | 0.00, 0.00 |" in text
    assert "| `two_hop` | ours/hand SQL | 1.0× | 2.0× | 4.0× | |" in text
    assert "| ours peak RSS | 300 MiB (before load 100) |" in text
    assert "Ours grows worse than linear on: social `two_hop`." in text
    # one size of a family is no series
    assert scale_report.markdown({**data, "loads": data["loads"][:2]}, None) == ""
