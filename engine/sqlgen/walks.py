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

`level_walk` is the same breadth-first search as `frontier_walk` with one path per node, run one level
per SQL statement over all (start, end) pairs of a top-level MATCH at once, into a table the MATCH then
joins (ADR-0035). A recursive CTE keyed per node costs DuckDB twice what these INSERTs do.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

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


_LEVEL_TABLES = itertools.count()
LEVEL_WALK_LEVELS = 32
"""The most levels a level walk runs: a deeper one (a long chain) gives way to the recursive walk, which
costs less per level than a statement does, and whose read-back is not one join per level."""
LEVEL_WALK_RELATIONSHIPS = 100_000
LEVEL_WALK_PAIRS = 50
LEVEL_WALK_ANY_PAIRS = 1_000_000
"""A level walk runs in a graph of LEVEL_WALK_RELATIONSHIPS relationships or more, for LEVEL_WALK_PAIRS
(start, end) pairs or more, or for any number from LEVEL_WALK_ANY_PAIRS relationships. Each of its
statements costs DuckDB about 3 ms however little it reads, which one recursive walk saves on small graphs
and few pairs. Measured on the social graph's shape (10 relationships per node, paths of 3 to 5 hops),
levels against recursion: at 100k relationships 100 pairs 84 against 104 ms, 10 pairs 43 against 32; at
300k 100 pairs 76 against 99, 10 pairs 43 against 36; at 1M 100 pairs 95 against 163, 1 pair 46 against 52."""
_TIE_KEY = "w.rank::HUGEINT * 9223372036854775808 + (9223372036854775807 - r.id)"
"""A level walk's candidate path in the tie order, as one number: its parent's rank, then the relationship
it adds, descending (ids are below 2^63); the relationship's id is read back from it."""
_VIA = "(9223372036854775807 - ({} % 9223372036854775808))::BIGINT"


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


class StatementRunner(Protocol):
    """What a level walk needs of the statement's run (`executor.StatementRun`)."""

    tables: list[str]

    def fetchone(self, sql: str, parameters: list[Any]) -> tuple[Any, ...]: ...


@dataclass
class LevelSource:
    """The rows a top-level MATCH extends, readable on their own: their SELECT, the alias the MATCH reads
    them by, the parameter values that SELECT binds, and the statement's run to execute SQL in."""

    sql: str
    alias: str
    values: list[Any]
    run: StatementRunner

    def reads(self, *columns: str) -> bool:
        """Whether every one of `columns` is a column of these rows (not of something the MATCH joins)."""
        return all(re.fullmatch(rf"{self.alias}\.\w+", column) for column in columns)


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


def level_walk(hop: Hop, source: LevelSource, step_values: list[Any], *, start: str, target: str,
               closed: bool, any_path: bool = False) -> str | None:
    """Breadth first from the start to the end node of every row of `source` with both, finding what
    `frontier_walk` with one path per node finds, one level per INSERT. A level's row is a node first
    reached at it by one pair's walk, with the node it was reached from (`prev`) and its place in the
    walk's tie order (`rels` descending) as a number, `key`: its parent's rank in the level before, then
    the relationship it was reached by, descending (`_TIE_KEY`, from which that relationship is read
    back). So no path list is built or compared until the paths found are read back. A pair is done at
    the level that reaches its end node; the walk stops at the level that reaches nothing new. Returns
    the table of the paths found, (s, t, finish, rels, nodes), for the MATCH to join; the step binds
    `step_values`. Returns None where the walk is too small to repay a statement per level (having run
    two cheap statements, `LEVEL_WALK_PAIRS`) or too deep (`LEVEL_WALK_LEVELS`): a recursive walk does it
    then. With `any_path` (nothing reads the path found but for its length) the frontier is not ranked, no
    level keeps a parent or key and no path is read back: a path found is as long as the level its end node
    is reached at, its lists NULLs of that length; a walk that is not closed then searches from both ends
    (`_lengths_from_both_ends`, ADR-0042)."""
    run = source.run
    (relationships,) = run.fetchone("SELECT count(*) FROM rels", [])
    if relationships < LEVEL_WALK_RELATIONSHIPS:
        return None
    pairs, walk, found = (f"_cypher_walk{next(_LEVEL_TABLES)}" for _ in range(3))
    (pair_count,) = run.fetchone(
        f"CREATE TEMP TABLE {pairs} AS SELECT row_number() OVER () AS pair, s, t FROM (SELECT DISTINCT {start} AS s,"
        f" {target} AS t FROM {source.sql} AS {source.alias} WHERE {start} IS NOT NULL AND {target} IS NOT NULL)",
        source.values)
    run.tables.append(pairs)
    if pair_count < LEVEL_WALK_PAIRS and relationships < LEVEL_WALK_ANY_PAIRS:
        return None
    if any_path and not closed:
        return _lengths_from_both_ends(hop, run, pairs, found, step_values)
    run.fetchone(f"CREATE TEMP TABLE {walk} AS SELECT pair, s AS finish, NULL::BIGINT AS prev, 0::HUGEINT AS key,"
                 f" 0 AS level FROM {pairs}", [])
    run.tables.append(walk)
    # the start node is reached at level 0; only a closed walk may reach it again
    seen = "v.level > 0 AND " if closed else ""
    kept = "NULL::BIGINT, 0::HUGEINT" if any_path else f"arg_min(w.finish, {_TIE_KEY}), min({_TIE_KEY})"
    level = 1
    while hop.high is None or level <= hop.high:
        if level > LEVEL_WALK_LEVELS:
            return None
        # the frontier ranked by key: the order of its paths within each pair (the last level is never
        # ranked; nor is any level when any path will do), without the pairs whose end node it holds
        ranked = "" if any_path else ", row_number() OVER (ORDER BY key) AS rank"
        frontier = (f"SELECT *{ranked} FROM {walk} AS f WHERE f.level = {level - 1}"
                    + (f" AND f.pair NOT IN (SELECT x.pair FROM {walk} AS x JOIN {pairs} AS p ON p.pair = x.pair"
                       f" AND p.t = x.finish WHERE x.level = {level - 1})" if level > 1 else ""))
        (count,) = run.fetchone(
            f"INSERT INTO {walk} SELECT w.pair, r.{hop.far}, {kept}, {level}"
            f" FROM ({frontier}) AS w JOIN {hop.source} AS r ON r.{hop.near} = w.finish"
            f" WHERE NOT EXISTS (SELECT 1 FROM {walk} AS v WHERE {seen}v.pair = w.pair AND v.finish = r.{hop.far})"
            f"{hop.step_filter} GROUP BY w.pair, r.{hop.far}", step_values)
        if count == 0:
            break
        level += 1
    if any_path:
        return _paths_of_lengths(run, found, pairs, hop, f"SELECT l.pair, l.level AS length FROM {walk} AS l"
                                 f" JOIN {pairs} AS p ON p.pair = l.pair AND p.t = l.finish"
                                 f" WHERE l.level >= {max(hop.low, 1)}")
    # each path found, read back from its end node one level at a time: one join per level, deepest first,
    # each reading only that level's rows (DuckDB pushes the paths' nodes into the scan)
    paths = (f"SELECT l.pair, l.finish AS node, l.level, []::BIGINT[] AS rels, []::BIGINT[] AS nodes FROM {walk} AS l"
             f" JOIN {pairs} AS p ON p.pair = l.pair AND p.t = l.finish WHERE l.level >= {max(hop.low, 1)}")
    for back in range(level - 1, 0, -1):
        paths = (f"SELECT b.pair, coalesce(l.prev, b.node) AS node, coalesce(l.level - 1, b.level) AS level,"
                 f" CASE WHEN l.pair IS NULL THEN b.rels ELSE list_prepend({_VIA.format('l.key')}, b.rels) END AS rels,"
                 f" CASE WHEN l.pair IS NULL THEN b.nodes ELSE list_prepend(l.finish, b.nodes) END AS nodes"
                 f" FROM ({paths}) AS b LEFT JOIN (SELECT * FROM {walk} WHERE level = {back}) AS l"
                 f" ON b.level = {back} AND l.pair = b.pair AND l.finish = b.node")
    run.fetchone(f"CREATE TEMP TABLE {found} AS SELECT p.s, p.t, p.t AS finish, b.rels, list_prepend(p.s, b.nodes)"
                 f" AS nodes FROM ({paths}) AS b JOIN {pairs} AS p ON p.pair = b.pair{_zero_length(pairs, hop)}", [])
    run.tables.append(found)
    return found


def _zero_length(pairs: str, hop: Hop) -> str:
    """The zero-length path of each pair of one node, as a UNION ALL onto the paths found, where the hop
    admits length 0."""
    return f" UNION ALL SELECT s, t, t, []::BIGINT[], [s] FROM {pairs} WHERE s = t" if hop.low == 0 else ""


def _paths_of_lengths(run: StatementRunner, found: str, pairs: str, hop: Hop, lengths: str) -> str:
    """The table of paths found, from `lengths` (a SELECT of pair, length): lists of NULLs as long as the
    paths, for a walk whose paths are read only by their length."""
    run.fetchone(f"CREATE TEMP TABLE {found} AS SELECT p.s, p.t, p.t AS finish,"
                 f" list_resize([]::BIGINT[], m.length) AS rels, list_resize([p.s], m.length + 1) AS nodes"
                 f" FROM ({lengths}) AS m JOIN {pairs} AS p ON p.pair = m.pair{_zero_length(pairs, hop)}", [])
    run.tables.append(found)
    return found


def _lengths_from_both_ends(hop: Hop, run: StatementRunner, pairs: str, found: str,
                            step_values: list[Any]) -> str | None:
    """`level_walk` of paths read only by their length, never closed: breadth first from both ends of every
    pair at once, a level at a time on the side whose last level is smaller (the start's side takes the
    hop as it is, the end's side reversed). A pair is done at the first level that reaches a node the other
    side holds: both sides' levels until then reached no common node, so no shorter path exists, and every
    meeting node then is at the other side's last level. Per pair the frontier grows to the other side's
    half of the path, not all of it: a level holds about the square root of the nodes one side alone would
    reach. A pair of one node has only its zero-length path (`closed` is false), if `hop.low` admits it."""
    sides = {"start": (f"_cypher_walk{next(_LEVEL_TABLES)}", hop.near, hop.far),
             "end": (f"_cypher_walk{next(_LEVEL_TABLES)}", hop.far, hop.near)}
    met = f"_cypher_walk{next(_LEVEL_TABLES)}"
    sizes = {}
    for side, origin in (("start", "s"), ("end", "t")):
        table = sides[side][0]
        (sizes[side],) = run.fetchone(f"CREATE TEMP TABLE {table} AS SELECT pair, {origin} AS node, 0 AS level"
                                      f" FROM {pairs} WHERE s <> t", [])
        run.tables.append(table)
    run.fetchone(f"CREATE TEMP TABLE {met} AS SELECT pair, 0::BIGINT AS length FROM {pairs} WHERE false", [])
    run.tables.append(met)
    levels = {"start": 0, "end": 0}
    remaining = sizes["start"]
    while remaining and (hop.high is None or levels["start"] + levels["end"] < hop.high):
        if levels["start"] + levels["end"] >= LEVEL_WALK_LEVELS:
            return None
        side = "start" if sizes["start"] <= sizes["end"] else "end"
        other = "end" if side == "start" else "start"
        table, near, far = sides[side]
        level = levels[side] + 1
        (sizes[side],) = run.fetchone(
            f"INSERT INTO {table} SELECT DISTINCT w.pair, r.{far}, {level} FROM {table} AS w"
            f" JOIN {hop.source} AS r ON r.{near} = w.node WHERE w.level = {level - 1}"
            f" AND w.pair NOT IN (SELECT pair FROM {met})"
            f" AND NOT EXISTS (SELECT 1 FROM {table} AS v WHERE v.pair = w.pair AND v.node = r.{far})"
            f"{hop.step_filter}", step_values)
        if sizes[side] == 0:
            break
        levels[side] = level
        (joined,) = run.fetchone(
            f"INSERT INTO {met} SELECT n.pair, {level} + min(o.level) FROM {table} AS n"
            f" JOIN {sides[other][0]} AS o ON o.pair = n.pair AND o.node = n.node WHERE n.level = {level}"
            f" GROUP BY n.pair", [])
        remaining -= joined
    return _paths_of_lengths(run, found, pairs, hop, f"SELECT pair, length FROM {met}")
