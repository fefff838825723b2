"""Sharding a docs site over CI runners with pytest-split (ADR-0069): durations recorded, each page run on
exactly one shard, whole and in page order; other tests split by pytest-split as it does."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import pytest

import runner.run  # noqa: F401  pytester's in-process runs restore sys.modules, and duckdb must load only once

pytest_plugins = ["pytester"]

PAGES = 60
SHARDS = 3
INI = """\
[pytest]
addopts = -p no:cacheprovider -p no:randomly
cookbook_snapshots =
filterwarnings = ignore::pytest.PytestAssertRewriteWarning
"""


def page(cells: int) -> str:
    """A page whose every cell counts what the cells before it made: it passes only when they ran first."""
    parts = ["# A synthetic page\n"]
    for index in range(cells):
        parts.append(f"\n```cypher cell=c{index}\nMATCH (s:Step) WITH count(s) AS made CREATE (:Step) "
                     f"RETURN made\n```\n\n```table\n| made |\n|------|\n| {index}    |\n"
                     "1 row · nodes created: 1, labels added: 1\n```\n")
    return "".join(parts)


@pytest.fixture
def site(pytester: pytest.Pytester) -> dict[str, list[str]]:
    """60 pages of 1 to 5 cells (so that shard boundaries fall inside pages unless pages are kept whole),
    and a Python test file: test node id → its file's ids in order."""
    pytester.makefile(".ini", pytest=INI)
    folder = pytester.mkdir("cookbook")
    expected: dict[str, list[str]] = {}
    for number in range(PAGES):
        cells = 1 + number * 7 % 5
        (folder / f"p{number:02}.md").write_text(page(cells))
        expected[f"cookbook/p{number:02}.md"] = [f"cookbook/p{number:02}.md::c{index}" for index in range(cells)]
    pytester.makepyfile(test_other="".join(f"def test_{index}():\n    pass\n" for index in range(7)))
    expected["test_other.py"] = [f"test_other.py::test_{index}" for index in range(7)]
    return expected


def ran(pytester: pytest.Pytester, *arguments: str) -> list[str]:
    """Run pytest; the node ids it ran, in order, each of which must have passed."""
    report = pytester.path / "report.xml"
    result = pytester.runpytest(f"--junitxml={report}", "-o", "junit_family=xunit1", *arguments)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    ids = []
    for case in ElementTree.parse(report).iter("testcase"):
        assert not [child for child in case if child.tag in ("failure", "error", "skipped")], case.get("name")
        ids.append(f"{case.get('file')}::{case.get('name')}")
    return ids


@pytest.mark.parametrize("algorithm", ["duration_based_chunks", "least_duration"])
def test_a_60_page_site_over_3_shards_runs_each_page_once_and_whole(pytester, site, algorithm):
    durations = pytester.path / ".test_durations"
    everything = ran(pytester, "--store-durations", f"--durations-path={durations}")
    assert sorted(everything) == sorted(id for ids in site.values() for id in ids)
    recorded = json.loads(durations.read_text())
    assert set(everything) <= set(recorded)  # every cell's duration, for the next split

    shards = [ran(pytester, "--splits", str(SHARDS), "--group", str(group), f"--durations-path={durations}",
                  f"--splitting-algorithm={algorithm}") for group in range(1, SHARDS + 1)]
    every = [id for shard in shards for id in shard]
    assert sorted(every) == sorted(everything), "each test runs on exactly one shard"
    for file, ids in site.items():
        if not file.endswith(".md"):
            continue  # other tests are split one by one, as pytest-split does
        holding = [index for index, shard in enumerate(shards) if any(id.startswith(f"{file}::") for id in shard)]
        assert len(holding) == 1, f"{file} is on shards {holding}"
        assert [id for id in shards[holding[0]] if id.startswith(f"{file}::")] == ids  # whole, in page order
    assert all(any(".md::" in id for id in shard) for shard in shards)  # balanced by duration, so not evenly


def test_a_shard_says_which_pages_it_runs_and_k_still_selects(pytester, site):
    result = pytester.runpytest("--splits", "3", "--group", "2", "--durations-path=none.json")
    result.stdout.fnmatch_lines(["[[]cookbook[]] group 2/3: * of 60 pages, each whole (estimated duration: *s)"])
    shards = [ran(pytester, "--splits", "3", "--group", str(group), "--durations-path=none.json", "-k", "not c4")
              for group in (1, 2, 3)]
    every = sorted(id for shard in shards for id in shard)
    assert every == sorted(id for ids in site.values() for id in ids if not id.endswith("::c4"))


def test_without_splits_every_page_runs(pytester, site):
    assert len(ran(pytester)) == sum(len(ids) for ids in site.values())
