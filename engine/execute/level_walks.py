"""Level walks: the breadth-first search of a selective path between two bound nodes, one level per SQL
statement over every (start, end) pair of a top-level MATCH at once (ADR-0035).

SQL generation asks for one (`sqlgen.walks.LevelWalk`) where the MATCH's rows are settled and the hop keeps
one path per node; the executor runs it here, before the MATCH's SELECT, and compiles the MATCH again over
the table of paths it found. A recursive CTE keyed per node costs DuckDB twice what these INSERTs do.
"""

from __future__ import annotations

import itertools
from typing import Any

from engine.execute.statement_run import StatementRun
from engine.sqlgen.walks import Hop, LevelWalk

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


def run_level_walk(run: StatementRun, request: LevelWalk) -> str | None:
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
    hop, step_values = request.hop, list(request.step_values)
    start, target, closed, any_path = request.start, request.target, request.closed, request.any_path
    (relationships,) = run.fetchone("SELECT count(*) FROM rels", [])
    if relationships < LEVEL_WALK_RELATIONSHIPS:
        return None
    pairs, walk, found = (f"_cypher_walk{next(_LEVEL_TABLES)}" for _ in range(3))
    (pair_count,) = run.fetchone(
        f"CREATE TEMP TABLE {pairs} AS SELECT row_number() OVER () AS pair, s, t FROM (SELECT DISTINCT {start} AS s,"
        f" {target} AS t FROM {request.source} AS {request.alias} WHERE {start} IS NOT NULL AND {target} IS NOT NULL)",
        [])
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


def _paths_of_lengths(run: StatementRun, found: str, pairs: str, hop: Hop, lengths: str) -> str:
    """The table of paths found, from `lengths` (a SELECT of pair, length): lists of NULLs as long as the
    paths, for a walk whose paths are read only by their length."""
    run.fetchone(f"CREATE TEMP TABLE {found} AS SELECT p.s, p.t, p.t AS finish,"
                 f" list_resize([]::BIGINT[], m.length) AS rels, list_resize([p.s], m.length + 1) AS nodes"
                 f" FROM ({lengths}) AS m JOIN {pairs} AS p ON p.pair = m.pair{_zero_length(pairs, hop)}", [])
    run.tables.append(found)
    return found


def _lengths_from_both_ends(hop: Hop, run: StatementRun, pairs: str, found: str,
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


def worth_walking_levels(run: StatementRun) -> bool:
    """Whether the store is large enough for a level walk (`LEVEL_WALK_RELATIONSHIPS`): only then does a step
    that may run one have its input rows settled first (plan/rules/level_walks.py)."""
    (relationships,) = run.fetchone("SELECT count(*) FROM rels", [])
    return relationships >= LEVEL_WALK_RELATIONSHIPS
