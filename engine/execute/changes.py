"""The executor's change log: what one statement has written, for the indexes kept current within it and for
the constraint checks.

A statement's writers report the ids they update or delete (`touch`) and the sets of elements they create
or update (`wrote`); elements it creates are the ids from the statement's first id on. Before a read clause
that queries a maintained index after a write, before a batch commit, and before the statement commits,
`sync` has each maintained index (engine/execute/index_kinds.py: full-text, ADR-0017) refresh exactly those
ids, and of the new elements only those of an index whose labels (types) they carry. Other reads never see
the index tables, so they need no sync: a statement that writes and reads ordinarily refreshes once, at
its end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.execute.constraints import StatementWrites, Write
from engine.execute.index_kinds import INDEX_KINDS, maintained
from engine.storage.schema import IndexInfo

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

TOUCHED = "_cypher_ft_touched"


@dataclass(frozen=True)
class Scope:
    """The elements of one entity kind a refresh re-indexes: those created since `first_id` (new ids only
    grow, and none of them has postings yet; None: none created) and, where `touched`, the ids the
    statement's writers reported."""

    first_id: int | None
    touched: bool

    def where(self, entity: str, parameters: list[Any]) -> str:
        """The condition on `e` (the first part alone lets DuckDB skip every row group of older ids)."""
        if self.first_id is None:
            return f" AND e.id IN {touched_ids(entity, parameters)}"
        parameters.append(self.first_id)
        created = f"e.id >= ${len(parameters)}"
        if not self.touched:
            return f" AND {created}"
        return f" AND ({created} OR e.id IN {touched_ids(entity, parameters)})"


def touched_ids(entity: str, parameters: list[Any]) -> str:
    """The subquery of the touched ids of `entity`, its name bound as the next of `parameters`."""
    parameters.append(entity)
    return f"(SELECT id FROM {TOUCHED} WHERE entity = ${len(parameters)})"


class StatementChanges:
    """The elements one statement has written since its maintained indexes were last brought up to date,
    and what it has written for constraint checks (`writes`)."""

    def __init__(self, run: StatementRun, *, writes: bool = True) -> None:
        self.run = run
        self.active = writes
        """False for a statement with no updating clause: it cannot change what an index holds, so it runs
        none of the bookkeeping."""
        self.tracking = False
        """Whether the statement keeps maintained indexes current: it writes, and the graph has some."""
        self.first_ids: dict[str, int] = {}
        """Per entity kind, the first id the statement created since the last sync (`allocated`): none
        created, none there; ids only grow, so the first allocation is the lowest."""
        self.created_labels: dict[str, frozenset[str] | None] = {}
        """Per entity kind, the labels (relationship types) of the elements created since the last sync (None:
        not known): an index of other labels has nothing new to index."""
        self.dirty = False
        self.touched: set[str] = set()
        """The entity kinds with ids in the touched table since the last sync."""
        self.writes = StatementWrites()
        self.begin()

    def wrote(self, entity: str, *, labels: Iterable[str] | None = None, keys: Iterable[str] | None = None,
              created: bool = False, distinct: frozenset[str] = frozenset()) -> None:
        """Writers call this for every set of elements they create or update (not for deletes, which cannot
        break a constraint); see `constraints.Write`."""
        known = None if labels is None else frozenset(labels)
        self.writes.add(Write(entity, known, None if keys is None else frozenset(keys), created, distinct))
        if created and self.tracking:
            before = self.created_labels.get(entity, frozenset())
            self.created_labels[entity] = None if before is None or known is None else before | known

    def allocated(self, entity: str, first: int) -> None:
        """A writer took new ids of `entity` from `first` on (storage's `allocate_ids`)."""
        if self.tracking:
            self.first_ids.setdefault(entity, first)

    def begin(self) -> None:
        """Start afresh (again after a sync, a batch commit or rollback): nothing written since. No SQL: new
        ids are known from the writers' allocations."""
        self.dirty = False
        self.touched = set()
        self.first_ids = {}
        self.created_labels = {}
        self.tracking = self.active and bool(maintained(self.run.store.catalog.indexes))

    def touch(self, entity: str, ids: str, *, keys: Iterable[str] | None = None,
              labels: Iterable[str] | None = None) -> None:
        """Writers call this with the ids (a table or subquery with an `id` column) of elements they update or
        delete. `keys`: the properties written, `labels`: the labels changed; when none of the entity's
        maintained indexes reads them, nothing is recorded. The table of touched ids is made on the first
        touch and emptied by `sync`, so it is empty whenever a transaction begins."""
        if not self.records(entity, keys=keys, labels=labels):
            return
        if not self.touched:
            self.run.execute(f"CREATE TEMP TABLE IF NOT EXISTS {TOUCHED} (entity VARCHAR, id BIGINT)")
            if TOUCHED not in self.run.tables:
                self.run.tables.append(TOUCHED)
        self.dirty = True
        self.touched.add(entity)
        self.run.execute(f"INSERT INTO {TOUCHED} SELECT ?, id FROM {ids}", [entity])

    def records(self, entity: str, *, keys: Iterable[str] | None = None, labels: Iterable[str] | None = None) -> bool:
        """Whether `touch` with these keys or labels records anything: a maintained index of the entity reads
        them. A writer that knows it does not can skip making the table of ids it would pass."""
        if not self.tracking:
            return False
        indexes = maintained(self.run.store.catalog.indexes, entity)
        if keys is not None:
            wanted = set(keys)
            indexes = [index for index in indexes if wanted & set(index.properties)]
        if labels is not None:
            wanted = set(labels)
            indexes = [index for index in indexes if wanted & set(index.labels)]
        return bool(indexes)

    def mark_written(self) -> None:
        """A write clause ran: it may have created elements."""
        if self.tracking:
            self.dirty = True

    def sync(self, *, final: bool = False) -> None:
        """Bring every maintained index up to date with the writes so far, then start counting afresh
        (unless `final`: the statement is about to commit)."""
        if not self.tracking or not self.dirty:
            return
        for index in maintained(self.run.store.catalog.indexes):
            created, touched = self._created_for(index), index.entity in self.touched
            if created is None and not touched:
                continue  # nothing it indexes was written
            refresh = INDEX_KINDS[index.kind].refresh
            assert refresh is not None
            refresh(self.run, index, Scope(created, touched))
        if self.touched:
            self.run.execute(f"DELETE FROM {TOUCHED}")
        if not final:
            self.begin()

    def _created_for(self, index: IndexInfo) -> int | None:
        """The first id of the elements created since the last sync that `index` may hold (None: none)."""
        first = self.first_ids.get(index.entity)
        if first is None or index.entity not in self.created_labels:
            return None
        labels = self.created_labels[index.entity]
        return first if labels is None or not labels.isdisjoint(index.labels) else None
