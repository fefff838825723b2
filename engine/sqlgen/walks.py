"""Recursive walks: the SQL of a variable-length hop or quantified path pattern from one start node.

A walk is the body of a LATERAL join: its seed is the start node of the row being extended, so DuckDB
runs one recursive CTE for the distinct start nodes of all rows (ADR-0026). Each row of the CTE is a
partial path: the node reached (`finish`), the relationships so far (`rels`) and, when the pattern needs
them, the nodes so far, the iteration count and the group variables' lists.

`trail_walk` enumerates every path (what a pattern without a selective selector matches). `frontier_walk`
expands breadth first and keeps, per node, only the paths that first reach it: for `SHORTEST 1` / `ANY` /
`shortestPath()` the one the engine's tie order ranks first, for `ALL SHORTEST` / `allShortestPaths()`
all of that length. A trail walk, and a frontier walk keeping every tie, stop with WalkLimitExceeded when
one step of one start's walk holds more partial paths than the connection's cap (ADR-0022). A frontier
walk keeping one path per node needs no cap: a step holds at most one row per node of the graph, as a
plain MATCH does, and counting it cost a fifth of a shortest-path query.

A level walk (`LevelWalk`, run by `execute/level_walks.py`) is the same breadth-first search as
`frontier_walk` with one path per node, run one level per SQL statement over all (start, end) pairs of a
top-level MATCH at once, into a table the MATCH then joins (ADR-0035). SQL generation only describes it;
the executor runs it and compiles the MATCH again over the table it found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.limits import DEFAULT_MAX_WALK_ROWS, WALK_VARIABLE
from engine.sqlgen.runtime import error_sql

WALK_CAP = f"coalesce(getvariable('{WALK_VARIABLE}'), {DEFAULT_MAX_WALK_ROWS})"
"""The most partial paths one step of a walk may hold: beyond it the statement fails with
WalkLimitExceeded instead of exhausting memory. Read from the connection's session variable
(`engine.connect(max_walk_rows=)`, default CYPHER_MAX_WALK_ROWS or 1,000,000; ADR-0022)."""

TOO_MANY = error_sql("UnsupportedFeature", "WalkLimitExceeded",
                     f"'a variable-length pattern reached more than ' || {WALK_CAP} || ' partial paths in one "
                     "step (the connection''s max_walk_rows); give it an upper bound or a more selective "
                     "pattern'")


@dataclass
class Walk:
    """The parts of one walk; `step(frontier)` is the SELECT of the rows one hop (or iteration) beyond the
    rows of `frontier`, a FROM item aliased as the step expects."""

    cte: str
    columns: list[tuple[str, str]]
    """The CTE's columns and their SQL types, `finish` and `rels` first."""
    seed: str
    """The SELECT of the zero-length path at the start node."""
    step: Callable[[str], str]
    frontier_alias: str
    length: str
    """A row's length in the unit of the walk's lower bound: `len(rels)`, or the iteration count `i`."""
    low: int
    guarded: bool = True
    """Whether a step checks the cap on partial paths. A walk whose every step can take at most one
    relationship from the node it has reached (a chain: supersessions, versions, a linked list) holds at
    most one partial path per start, within any cap; its guard, a count per step, would cost a chain walk
    a sixth of its time."""

    @property
    def names(self) -> str:
        return ", ".join(name for name, _ in self.columns)


def trail_walk(walk: Walk) -> str:
    """Every partial path from the start node, of length `low` or more."""
    step = walk.step(f"{walk.cte} AS {walk.frontier_alias}")
    guard = f" UNION ALL {_guard(walk, walk.columns)}" if walk.guarded else ""
    return (f"(WITH RECURSIVE {walk.cte}({walk.names}) AS ({walk.seed} UNION ALL ({step}{guard}))"
            f" SELECT * FROM {walk.cte} WHERE {walk.length} >= {walk.low})")


def frontier_walk(walk: Walk, *, every_tie: bool, start: str, target: str | None, closed: bool,
                  node_after: str | None = None) -> str:
    """Breadth first from the start node: a node enters the walk at the first step that reaches it, by the
    path that sorts first (`rels` descending, the order a walk's matches come in), or by all paths of that
    step when `every_tie`. Only the frontier is extended, so no node is expanded twice; with a `target`
    (the end node, when already bound) the walk stops at the step that reaches it and yields only the paths
    to it. The start node may be reached again (a closed path) when `closed`. Rows that first reach their
    node at the same step tie on length, which is all a selector of one path, or of one length group,
    compares before that order.

    With `node_after` (the column of a relationship a directed hop arrives at), the walk carries no node
    list: the selected paths' nodes are read back from their relationships."""
    reached = [*walk.columns, ("reached", "BIGINT")]
    names = f"{walk.names}, reached"
    frontier = walk.cte
    if target is not None:  # the target can only be among the rows of the step before
        frontier = (f"(SELECT * FROM {walk.cte} WHERE NOT EXISTS (SELECT 1 FROM {walk.cte} AS t"
                    f" WHERE t.reached = {target}))")
    step = walk.step(f"{frontier} AS {walk.frontier_alias}")
    conditions = [f"NOT EXISTS (SELECT 1 FROM recurring.{walk.cte} AS v WHERE v.reached = c.finish)"]
    if not closed:
        conditions.append(f"c.finish IS DISTINCT FROM {start}")
    first = "" if every_tie else " QUALIFY row_number() OVER (PARTITION BY c.finish ORDER BY c.rels DESC) = 1"
    key = "reached, rels" if every_tie else "reached"
    kept = [f"{walk.length} >= {walk.low}"] + ([f"finish = {target}"] if target is not None else [])
    columns = walk.names
    if node_after is not None:
        columns += (f", list_concat([{start}], (SELECT list(r.{node_after} ORDER BY u.i) FROM (SELECT unnest(rels)"
                    f" AS id, generate_subscripts(rels, 1) AS i) AS u JOIN rels AS r ON r.id = u.id)) AS nodes")
    guard = f" UNION ALL {_guard(walk, reached)}" if every_tie and walk.guarded else ""
    return (f"(WITH RECURSIVE {walk.cte}({names}) USING KEY ({key}) AS (SELECT *, NULL::BIGINT FROM ({walk.seed})"
            f" UNION (SELECT *, c.finish FROM ({step}) AS c WHERE {' AND '.join(conditions)}{first}{guard}))"
            f" SELECT {columns} FROM {walk.cte} WHERE {' AND '.join(kept)})")


def _guard(walk: Walk, columns: list[tuple[str, str]]) -> str:
    """A branch of the recursive step that yields no row, and fails once the frontier (the rows the step
    extends) holds more than the cap. Counting the frontier rather than the step's own rows needs no
    window over the step, which would keep DuckDB from seeding the LATERAL walk with filtered starts."""
    nulls = ", ".join(f"NULL::{sql_type}" for _, sql_type in columns)
    return (f"SELECT {nulls} FROM (SELECT count(*) AS n FROM {walk.cte})"
            f" WHERE NOT (CASE WHEN n > {WALK_CAP} THEN {TOO_MANY} ELSE true END)")




@dataclass
class Hop:
    """One variable-length hop of a level walk: the relationships it reads (a table or a SELECT), the
    columns it leaves from and arrives at, its step's extra conditions on `r` and its length bounds."""

    source: str
    near: str
    far: str
    step_filter: str
    low: int
    high: int | None


@dataclass(frozen=True)
class LevelWalk:
    """A level walk a MATCH asks for: breadth first along `hop` from `start` to `target` (columns of the
    settled rows `source`, read as `alias`) for every row with both; `step_values` are what the hop's
    step filter binds. `relationship` is the hop's key (its bound relationship's id) in the step's
    `level_walks` once the executor has run it."""

    relationship: int
    hop: Hop
    step_values: tuple[Any, ...]
    source: str
    alias: str
    start: str
    target: str
    closed: bool
    any_path: bool


@dataclass(frozen=True)
class LevelSource:
    """The settled rows (a table) a top-level MATCH extends, read by the MATCH as `alias`, and the variables
    (by id) they hold: what a level walk reads its (start, end) pairs from."""

    table: str
    alias: str
    variables: frozenset[int]

    def holds(self, *variables: object) -> bool:
        return all(id(variable) in self.variables for variable in variables)
