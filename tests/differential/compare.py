"""Whether two engines agree on a case, and if not, how they differ.

Rows are compared as multisets, except that where ORDER BY fixes a sequence (`Case.order`) the
sequence of the ordering columns must be the same too; columns whose lists have no fixed order
(`Case.multisets`) have their lists sorted first. Two errors agree whatever their messages (engines
word errors differently; the error cells of the conformance pages check ours). A write must also leave
the same graph and, where the oracle reports them, the same counters.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tests.differential.oracles import Outcome
from tests.differential.queries import Case
from tests.differential.values import Canonical

OUTCOMES = ("oracle-error", "ours-error", "rows", "order", "graph", "counters")
"""The ways two engines disagree; a triage rule names the ones it explains."""


@dataclass(frozen=True)
class Disagreement:
    outcome: str
    detail: str


def normalised(case: Case, rows: list[tuple[Canonical, ...]]) -> list[tuple[Canonical, ...]]:
    if not case.multisets:
        return rows
    return [tuple(_sorted_list(value) if index in case.multisets else value for index, value in enumerate(row))
            for row in rows]


def _sorted_list(value: Canonical) -> Canonical:
    if isinstance(value, tuple) and value and value[0] == "list":
        return ("list", tuple(sorted(value[1], key=repr)))
    return value


def compare(case: Case, ours: Outcome, theirs: Outcome) -> Disagreement | None:
    if ours.error is not None or theirs.error is not None:
        if ours.error is not None and theirs.error is not None:
            return None
        if ours.error is not None:
            return Disagreement("ours-error", ours.error)
        return Disagreement("oracle-error", theirs.error or "")
    ours_rows, their_rows = normalised(case, ours.rows or []), normalised(case, theirs.rows or [])
    if Counter(map(repr, ours_rows)) != Counter(map(repr, their_rows)):
        return Disagreement("rows", _row_difference(ours_rows, their_rows))
    if case.order:
        ours_keys = [tuple(_order_key(row[i]) for i in case.order) for row in ours_rows]
        their_keys = [tuple(_order_key(row[i]) for i in case.order) for row in their_rows]
        if ours_keys != their_keys:
            return Disagreement("order", f"ours {ours_keys[:6]!r}\ntheirs {their_keys[:6]!r}")
    if case.kind == "write":
        if ours.graph != theirs.graph:
            return Disagreement("graph", _graph_difference(ours.graph, theirs.graph))
        if theirs.counters is not None and ours.counters != theirs.counters:
            ours_counters = ours.counters or {}
            differing = [f"{name}: ours {ours_counters.get(name)}, theirs {count}"
                         for name, count in theirs.counters.items() if ours_counters.get(name) != count]
            return Disagreement("counters", "\n".join(differing))
    return None


def _order_key(value: Canonical) -> Canonical:
    """A value as ORDER BY sees it: 1 and 1.0 are ties, so rows holding either may come in any order."""
    if isinstance(value, tuple) and value and value[0] in ("int", "float") and isinstance(value[1], int | float):
        return ("number", float(value[1]))
    return value


def _row_difference(ours: list[tuple[Canonical, ...]], theirs: list[tuple[Canonical, ...]]) -> str:
    mine, other = Counter(map(repr, ours)), Counter(map(repr, theirs))
    only_ours = list((mine - other).elements())[:5]
    only_theirs = list((other - mine).elements())[:5]
    return (f"{len(ours)} rows against {len(theirs)}\nonly ours: " + "; ".join(only_ours)
            + "\nonly theirs: " + "; ".join(only_theirs))


def _graph_difference(ours: Canonical, theirs: Canonical) -> str:
    lines = []
    for part, mine, other in (("nodes", ours[0], theirs[0]), ("relationships", ours[1], theirs[1])):
        a, b = Counter(map(repr, mine)), Counter(map(repr, other))
        if a != b:
            lines.append(f"{part}: only ours " + "; ".join(list((a - b).elements())[:4]))
            lines.append(f"{part}: only theirs " + "; ".join(list((b - a).elements())[:4]))
    return "\n".join(lines)
