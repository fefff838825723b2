"""The executor's change log: what one statement has written, for the indexes kept current within it and for
the constraint checks.

A statement's writers report the ids they update or delete (`touch`) and the sets of elements they create
or update (`wrote`); elements it creates are the ids from the statement's first id on. Before a read clause
that queries a maintained index after a write, before a batch commit, and before the statement commits,
`sync` has each maintained index (engine/execute/index_kinds.py: full-text, ADR-0017) refresh exactly those
ids. Other reads never see the index tables, so they need no sync: a statement that writes and reads
ordinarily refreshes once, at its end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.execute.constraints import StatementWrites, Write
from engine.execute.index_kinds import INDEX_KINDS, maintained
from engine.storage.schema import NEXT_ID_KEYS

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

TOUCHED = "_cypher_ft_touched"


@dataclass(frozen=True)
class Scope:
    """The elements of one entity kind a refresh re-indexes: those created since `first_id` (new ids only
    grow, and none of them has postings yet) and, where `touched`, the ids the statement's writers reported."""

    first_id: int
    touched: bool

    def where(self, entity: str, parameters: list[Any]) -> str:
        """The condition on `e` (the first part alone lets DuckDB skip every row group of older ids)."""
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
        none of the bookkeeping (four SQL statements a statement once any maintained index exists)."""
        self.first_ids: dict[str, int] | None = None
        self.dirty = False
        self.touched: set[str] = set()
        """The entity kinds with ids in the touched table since the last sync."""
        self.writes = StatementWrites()
        self.begin()

    def wrote(self, entity: str, *, labels: Iterable[str] | None = None, keys: Iterable[str] | None = None,
              created: bool = False) -> None:
        """Writers call this for every set of elements they create or update (not for deletes, which cannot
        break a constraint); see `constraints.Write`."""
        self.writes.add(Write(entity, None if labels is None else frozenset(labels),
                              None if keys is None else frozenset(keys), created))

    def begin(self) -> None:
        """Remember where new ids start (again after a batch commit or rollback)."""
        self.dirty = False
        self.touched = set()
        if not self.active or not maintained(self.run.store.catalog.indexes):
            self.first_ids = None
            return
        rows = dict(self.run.connection.execute("SELECT key, value FROM graph_meta WHERE key IN (?, ?)",
                                                list(NEXT_ID_KEYS.values())).fetchall())
        self.first_ids = {entity: int(rows[key]) for entity, key in NEXT_ID_KEYS.items()}

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
        if self.first_ids is None:
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
        if self.first_ids is not None:
            self.dirty = True

    def sync(self, *, final: bool = False) -> None:
        """Bring every maintained index up to date with the writes so far, then start counting afresh
        (unless `final`: the statement is about to commit)."""
        if self.first_ids is None or not self.dirty:
            return
        for index in maintained(self.run.store.catalog.indexes):
            refresh = INDEX_KINDS[index.kind].refresh
            assert refresh is not None
            refresh(self.run, index, Scope(self.first_ids[index.entity], index.entity in self.touched))
        if self.touched:
            self.run.execute(f"DELETE FROM {TOUCHED}")
        if not final:
            self.begin()
