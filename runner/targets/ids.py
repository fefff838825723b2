"""A target's element ids renamed to the recording's: ids are compared up to a consistent renaming.

The engine numbers nodes and relationships densely from 0 in creation order (the spec's "Internal ids");
another database numbers its own way, so `n5` in a recording and node 17 of FalkorDB may be the same node.
For each cell, `Renaming.align` looks for a renaming of the target's ids that makes the cell's rows equal
to the recorded ones, and that agrees with the renaming the page's earlier cells fixed: a node that was
`n5` in one cell is `n5` in every later one, and two elements of the target are never renamed to the same
id. Only ids are renamed; labels, properties, ends and every other value must still be equal, and the cell
is then compared exactly as on the engine (`runner.check`), so a result that no renaming explains differs.

How the renaming is found: each result row is rendered with every id replaced by a placeholder, which
turns it into a pattern with one slot per id. A recorded row matches when the pattern matches its text
and the slots' ids agree with the renaming so far. Rows are matched in order when the cell's last
statement ends in ORDER BY, and otherwise by a search over the recorded rows of the same shape (with the
ids blanked), first greedily, then exhaustively within a budget (ADR-0080). Ids the search could not place
are given numbers above any recorded one, so a diff never shows a target id that looks like a recorded one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from runner.check.compare import SHAPE_READERS, UnreadableBlock
from runner.page.model import RecordedBlock
from runner.result import CellResult

NODE, RELATIONSHIP = "n", "r"
PLACEHOLDER_BASE = {NODE: 7 * 10**18, RELATIONSHIP: 8 * 10**18}
"""Placeholder id = base + the target's id: 19 digits, a number no page records."""
PLACEHOLDER = re.compile(r"(?<=[(\[])([nr])([78]\d{18})")
ID_TOKEN = re.compile(r"(?<=[(\[])([nr])(\d+)")
"""An id as gram writes it: `(n5` opening a node, `[r48` opening a relationship."""
DELETIONS = {NODE: "nodes_deleted", RELATIONSHIP: "relationships_deleted"}
SEARCH_STEPS = 20_000
SEARCH_ROWS = 500
"""The search recurses once per result row with ids; past this many rows only the greedy pass runs."""
SEPARATOR = "\x1f"

Key = tuple[str, int]


@dataclass(frozen=True)
class Template:
    """A result row as a pattern: its text with a capturing slot for each id, and whose id each slot is."""

    pattern: re.Pattern[str] | None
    slots: tuple[Key, ...]
    skeleton: str


class Renaming:
    """The renaming of one page's target ids to its recorded ids, built cell by cell."""

    def __init__(self) -> None:
        self.forward: dict[Key, int] = {}
        self.taken: set[Key] = set()
        self.highest = {NODE: -1, RELATIONSHIP: -1}

    def align(self, recorded: RecordedBlock | None, result: CellResult) -> CellResult:
        """`result` with the target's ids renamed: to the recorded ones where a consistent renaming makes
        rows equal, to new numbers elsewhere. A cell that deleted nodes (or relationships) starts the
        renaming of their kind over: a database may give a deleted element's id to a new one (FalkorDB
        does), which no renaming fixed before the delete could follow."""
        for kind, counter in DELETIONS.items():
            if result.counters.get(counter):
                self.forget(kind)
        if recorded is not None and recorded.kind in SHAPE_READERS:
            self._match(recorded, result)
        fresh: dict[Key, int] = {}
        next_fresh = {kind: highest + 1 for kind, highest in self.highest.items()}

        def rename(kind: str, target: int) -> int:
            key = (kind, target)
            if key in self.forward:
                return self.forward[key]
            if key not in fresh:
                fresh[key] = next_fresh[kind]
                next_fresh[kind] += 1
            return fresh[key]
        return _renamed(result, rename)

    def forget(self, kind: str) -> None:
        """Drop the renaming of one kind of element."""
        self.forward = {key: number for key, number in self.forward.items() if key[0] != kind}
        self.taken = {key for key in self.taken if key[0] != kind}

    # -- finding the renaming -------------------------------------------------------------------------

    def _match(self, recorded: RecordedBlock, result: CellResult) -> None:
        reader = SHAPE_READERS[recorded.kind]
        try:
            expected = [SEPARATOR.join(row) for row in reader.from_text(recorded.text).rows]
        except UnreadableBlock:
            return
        for text in expected:
            for kind, number in ID_TOKEN.findall(text):
                self.highest[kind] = max(self.highest[kind], int(number))
        placeholders = _renamed(result, lambda kind, target: PLACEHOLDER_BASE[kind] + target)
        templates = [_template(SEPARATOR.join(row)) for row in reader.from_result(placeholders).rows]
        if result.ordered:
            for template, text in zip(templates, expected, strict=False):
                self._try(template, text)
            return
        self._unordered(templates, expected)

    def _unordered(self, templates: list[Template], expected: list[str]) -> None:
        """Give each result row with ids a recorded row of the same shape, all consistently: greedily, and
        when that leaves a row unmatched, by a bounded search that undoes choices."""
        rows = [index for index, template in enumerate(templates) if template.slots]
        by_skeleton: dict[str, list[int]] = defaultdict(list)
        for index, text in enumerate(expected):
            by_skeleton[ID_TOKEN.sub(r"\1#", text)].append(index)
        candidates = {row: by_skeleton.get(templates[row].skeleton, []) for row in rows}
        saved = (dict(self.forward), set(self.taken))
        used: set[int] = set()
        if all(self._greedy(templates[row], candidates[row], expected, used) for row in rows):
            return
        if len(rows) > SEARCH_ROWS:  # deeper than the search may recurse: the greedy renaming stands
            return
        greedy = (dict(self.forward), set(self.taken))
        self.forward, self.taken = dict(saved[0]), set(saved[1])
        order = sorted(rows, key=lambda row: len(candidates[row]))
        budget = [SEARCH_STEPS]
        if not self._search(order, 0, templates, candidates, expected, set(), budget):
            self.forward, self.taken = greedy  # the partial renaming still shows the diff at its smallest

    def _greedy(self, template: Template, candidates: list[int], expected: list[str], used: set[int]) -> bool:
        for index in candidates:
            if index not in used and self._try(template, expected[index]):
                used.add(index)
                return True
        return False

    def _search(self, order: list[int], position: int, templates: list[Template], candidates: dict[int, list[int]],
                expected: list[str], used: set[int], budget: list[int]) -> bool:
        if position == len(order):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        template = templates[order[position]]
        for index in candidates[order[position]]:
            if index in used:
                continue
            added = self._try(template, expected[index])
            if added is None:
                continue
            used.add(index)
            if self._search(order, position + 1, templates, candidates, expected, used, budget):
                return True
            used.discard(index)
            for key in added:
                self.taken.discard((key[0], self.forward.pop(key)))
        return False

    def _try(self, template: Template, text: str) -> list[Key] | None:
        """Extend the renaming so that the row matches `text`: the keys added, or None (nothing added)
        when no consistent extension does."""
        if template.pattern is None:
            return []
        match = template.pattern.fullmatch(text)
        if match is None:
            return None
        added: dict[Key, int] = {}
        taken: set[Key] = set()
        for key, captured in zip(template.slots, match.groups(), strict=True):
            number = int(captured)
            known = self.forward.get(key, added.get(key))
            if known is not None:
                if known != number:
                    return None
                continue
            if (key[0], number) in self.taken or (key[0], number) in taken:
                return None
            added[key] = number
            taken.add((key[0], number))
        self.forward.update(added)
        self.taken |= taken
        return list(added)


def _template(text: str) -> Template:
    slots: list[Key] = []
    parts: list[str] = []
    position = 0
    for match in PLACEHOLDER.finditer(text):
        kind = match[1]
        parts.append(re.escape(text[position:match.start()]) + re.escape(kind) + r"(\d+)")
        slots.append((kind, int(match[2]) - PLACEHOLDER_BASE[kind]))
        position = match.end()
    parts.append(re.escape(text[position:]))
    skeleton = ID_TOKEN.sub(r"\1#", text)
    return Template(re.compile("".join(parts)) if slots else None, tuple(slots), skeleton)


def _renamed(result: CellResult, rename: Callable[[str, int], int]) -> CellResult:
    rows = [tuple(rename_ids(value, rename) for value in row) for row in result.rows]
    return CellResult(list(result.columns), rows, dict(result.counters), result.ordered)


def rename_ids(value: Any, rename: Callable[[str, int], int]) -> Any:
    """`value` with each node and relationship id `i` of kind `k` ("n" or "r") replaced by `rename(k, i)`."""
    if isinstance(value, engine.Node):
        return engine.Node(rename(NODE, value.id), value.labels, rename_ids(value.properties, rename))
    if isinstance(value, engine.Relationship):
        return engine.Relationship(rename(RELATIONSHIP, value.id), value.type, rename(NODE, value.start),
                                   rename(NODE, value.end), rename_ids(value.properties, rename))
    if isinstance(value, engine.Path):
        return engine.Path(tuple(rename_ids(node, rename) for node in value.nodes),
                           tuple(rename_ids(relationship, rename) for relationship in value.relationships))
    if isinstance(value, list | tuple):
        return [rename_ids(item, rename) for item in value]
    if isinstance(value, dict):
        return {key: rename_ids(item, rename) for key, item in value.items()}
    return value
