"""Which write statements may run their one write in DuckDB's own transaction (ADR-0110).

BEGIN and COMMIT cost a small write a fifth of its time in DuckDB (0.27-0.30 of 1.0 ms), and a single SQL
statement is atomic by itself. A statement may run its write so when it is `MATCH (x ...) SET x.key = v` or a
lone `MERGE`, whose in-place forms (set_in_place.py, merge.py `_set_in_place`) are one UPDATE (or one INSERT
of its node where none matches, after a run that created: ADR-0113), or a lone
`CREATE` of nodes with no dynamic labels, one INSERT (create.py `_insert_counting`), and nothing runs after
that write: no constraint to check, no index to keep (the catalog holds neither). Its transaction
is then deferred: any other SQL it runs through the statement's connection opens it first, as does any
change to the tables' columns (`GraphStore.before_schema_write`); only the UPDATE itself, run while none is
open, runs alone (`StatementRun.fetch_alone`).
"""

from __future__ import annotations

from engine.execute.index_kinds import maintained
from engine.semantic import bound as b
from engine.storage.schema import Catalog

SHAPES = ((b.BMatch, b.BSet), (b.BMerge,), (b.BCreate,))
"""The clause sequences whose write may be one UPDATE or INSERT."""


def may_write_alone(statement: b.BoundQuery, catalog: Catalog) -> bool:
    """Whether `statement` may run its one write in DuckDB's own transaction (see the module)."""
    if len(statement.parts) != 1 or catalog.constraints or maintained(catalog.indexes):
        return False
    clauses = statement.parts[0].clauses
    if tuple(type(clause) for clause in clauses) not in SHAPES:
        return False
    return not isinstance(clauses[0], b.BCreate) or _nodes_only(clauses[0])


def _nodes_only(clause: b.BCreate) -> bool:
    """A CREATE of nodes alone, each with the labels the statement names: one INSERT, nothing read after it."""
    return all(not path.relationships and not any(node.dynamic for node in path.nodes) for path in clause.paths)
