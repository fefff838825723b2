"""Index kinds the feature packages provide (full-text, vector), registered by the composition root
(engine/plugins), so that the schema commands and the change log import none of them.

Each entry says what differs from a plain index: how it is created (a vector index parses its own OPTIONS),
how it is filled when created and kept current as statements write (full-text postings, ADR-0017), what
dropping it removes, and how SHOW INDEXES describes it. A missing hook means the plain behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.semantic import bound as b
from engine.storage.schema import IndexInfo

if TYPE_CHECKING:
    from engine.execute.changes import Scope
    from engine.execute.results import Result
    from engine.execute.statement_run import StatementRun


@dataclass(frozen=True)
class IndexKind:
    provider: str
    """The index provider SHOW INDEXES names (`fulltext-1.0`, `vector-2.0`)."""
    create: Callable[[StatementRun, b.BSchemaCommand], Result] | None = None
    """The whole CREATE INDEX, for a kind with options of its own."""
    refresh: Callable[[StatementRun, IndexInfo, Scope | None], None] | None = None
    """Re-index the elements a scope names (None: all); set for kinds kept current within the statement."""
    drop: Callable[[StatementRun, IndexInfo], None] | None = None
    """Remove what the index keeps beside its catalog row."""
    create_statement: Callable[[IndexInfo], str] | None = None
    config: Callable[[IndexInfo], dict[str, Any]] | None = None
    analyzers: tuple[str, ...] = ()
    """The analyzers an index of the kind may name in `fulltext.analyzer`."""


INDEX_KINDS: dict[str, IndexKind] = {}


def register_index_kind(name: str, kind: IndexKind) -> None:
    INDEX_KINDS[name] = kind


def maintained(indexes: Any, entity: str | None = None) -> list[IndexInfo]:
    """The indexes among `indexes` (a catalog's) kept current by their kind's `refresh`, of `entity` or all."""
    return [index for index in indexes.values()
            if (kind := INDEX_KINDS.get(index.kind)) is not None and kind.refresh is not None
            and (entity is None or index.entity == entity)]
