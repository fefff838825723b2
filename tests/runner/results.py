"""Hand-built results of the cells of fixtures/pages/small.md (and its CRLF twin), as the engine returns
them: for the comparator and update tests, which need results but not a database."""

from __future__ import annotations

import engine
from runner.result import CellResult

ADA = engine.Node(0, ("Person",), {"name": "Ada", "born": 1815})


def small_results() -> dict[str, CellResult]:
    """New objects on every call, so a test may change them."""
    ada = engine.Node(0, ("Person",), {"name": "Ada", "born": 1815})
    grace = engine.Node(1, ("Person",), {"name": "Grace", "born": 1906})
    alan = engine.Node(2, ("Person",), {"name": "Alan", "born": 1912})
    path = engine.Path((ada, grace, alan), (engine.Relationship(0, "KNOWS", 0, 1, {"since": 1950}),
                                             engine.Relationship(1, "KNOWS", 2, 1)))
    return {
        "people": CellResult([], [], {"nodes_created": 3, "properties_set": 6, "labels_added": 3}),
        "knows": CellResult([], [], {"relationships_created": 2, "properties_set": 1}),
        "by-birth": CellResult(["name", "born"], [("Ada", 1815), ("Grace", 1906), ("Alan", 1912)],
                               ordered=True),
        "names": CellResult(["name"], [("Ada",), ("Grace",), ("Alan",)]),
        "path": CellResult(["path"], [(path,)]),
        "when": CellResult(["at", "map"], [(engine.DateTime(2026, 3, 2, 9, 0), {"b": 2.0, "a": [1, "x"]})]),
    }
