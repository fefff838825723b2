"""The TCK's .feature files → scenarios, through gherkin-official's parser and pickle compiler.

Pickles are Gherkin's own expansion: Background steps are prepended and each Examples row of a Scenario
Outline becomes one scenario with its `<placeholders>` filled in. A scenario's id is the key the TCK's
index uses, `clauses/match/Match1.feature::[1] Name`; an outline row's id is the outline's name as written
(placeholders unfilled, so ids stay put when example values change) plus `#<n>`, 0-based over its rows.
Parsing all 220 files takes about a second, so it happens once per process (`load_features` is cached).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler

Table = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Step:
    text: str
    line: int
    docstring: str | None = None
    table: Table | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    feature: str  # path under the features folder, with forward slashes
    name: str  # the id's part after `::`, unique within the feature
    path: Path
    line: int  # the Scenario line, or the Examples row for an outline
    steps: tuple[Step, ...]
    tags: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """The feature's folder under the features root, e.g. `clauses/match`."""
        return self.feature.rpartition("/")[0]


def _ast_children(children: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Backgrounds, scenarios and rules' children, flattened."""
    for child in children:
        if "rule" in child:
            yield from _ast_children(child["rule"]["children"])
        else:
            yield child.get("background") or child.get("scenario") or {}


def _step_lines(document: dict[str, Any]) -> dict[str, int]:
    """AST node id → line, for steps and Examples rows (pickles keep only the ids)."""
    lines: dict[str, int] = {}
    for node in _ast_children(document["feature"]["children"]):
        for step in node.get("steps", []):
            lines[step["id"]] = step["location"]["line"]
        for examples in node.get("examples", []):
            for row in examples.get("tableBody", []):
                lines[row["id"]] = row["location"]["line"]
    return lines


def _outline_names(document: dict[str, Any]) -> dict[str, str]:
    """Scenario Outline AST id → its name as written, `<placeholders>` and all."""
    return {node["id"]: node["name"] for node in _ast_children(document["feature"]["children"])
            if node.get("examples")}


def _step(pickle_step: dict[str, Any], lines: dict[str, int]) -> Step:
    argument = pickle_step.get("argument", {})
    docstring = argument.get("docString", {}).get("content")
    rows = argument.get("dataTable", {}).get("rows")
    table = tuple(tuple(cell["value"] for cell in row["cells"]) for row in rows) if rows is not None else None
    return Step(pickle_step["text"], lines.get(pickle_step["astNodeIds"][0], 0), docstring, table)


def parse_feature(path: Path, root: Path) -> list[Scenario]:
    """All scenarios of one feature file, outlines expanded."""
    feature = path.relative_to(root).as_posix()
    document = Parser().parse(path.read_text(encoding="utf-8"))
    document["uri"] = feature
    lines = _step_lines(document)
    outlines = _outline_names(document)
    example_counts: dict[str, int] = {}
    scenarios = []
    for pickle in Compiler().compile(document):
        scenario_id = pickle["astNodeIds"][0]
        name = pickle["name"]
        if scenario_id in outlines:
            index = example_counts.get(scenario_id, 0)
            example_counts[scenario_id] = index + 1
            name = f"{outlines[scenario_id]}#{index}"
        scenarios.append(Scenario(
            id=f"{feature}::{name}",
            feature=feature,
            name=name,
            path=path,
            line=pickle["location"]["line"],
            steps=tuple(_step(step, lines) for step in pickle["steps"]),
            tags=tuple(tag["name"] for tag in pickle["tags"]),
        ))
    return scenarios


@functools.cache
def load_features(root: Path) -> dict[str, tuple[Scenario, ...]]:
    """Feature path (relative, sorted) → its scenarios, for every .feature file under `root`."""
    return {
        path.relative_to(root).as_posix(): tuple(parse_feature(path, root))
        for path in sorted(root.rglob("*.feature"))
    }
