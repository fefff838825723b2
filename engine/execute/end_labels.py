"""Keeping the end-label counts (engine/storage/end_labels.py, ADR-0092) exact under every write.

The writers call these at the few places the counts change: a relationship created (after its INSERT; counted
when the counts are next needed, `flush`, so that a statement creating several sets of them counts them once) or
deleted (before its DELETE), a label added to or removed from nodes (before the UPDATE, with the (node,
label) pairs that really change), a node deleted while relationships still hold it (its labels leave their
ends). Each is one set-based SQL statement in the statement's transaction, so a rollback, of a statement or
of a batch of CALL IN TRANSACTIONS, undoes it with the data; after it the store reads the counts again.
The rows each one inserts come back (RETURNING) and the store folds them into the counts it holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.storage import end_labels

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun


def relationships_added(run: StatementRun, first: int, last: int) -> None:
    """The relationships of ids `first` to `last` - 1 were just inserted: counted by `flush`, with any others
    the statement creates before the counts are next read or changed otherwise, in one statement."""
    run.created_relationships.append((first, last))


def relationships_ending(run: StatementRun, ends: str, values: list[Any]) -> None:
    """Count the relationships just inserted whose (type, src, dst, src_labels, dst_labels) rows the SELECT
    `ends` yields, one per relationship: their ends' labels are known, so nothing waits for `flush`."""
    _run(run, end_labels.add_ends(ends), values)


def flush(run: StatementRun) -> None:
    """Count the relationships created since the last flush: before anything reads the counts (a clause's
    plan, execute/prepare.py), before any other change to them, and before the statement (or a batch of
    it) commits. The labels of their ends are read as they are then: any label change since has not been
    counted at their ends (`labels_changing` flushes first)."""
    if run.created_relationships:
        ranges = " OR ".join(f"(r.id >= {int(first)} AND r.id < {int(last)})"
                             for first, last in run.created_relationships)
        run.created_relationships.clear()
        _run(run, end_labels.add(ranges, 1))


def discard(run: StatementRun) -> None:
    """The writes since the last flush were rolled back (a batch of CALL IN TRANSACTIONS): nothing to count."""
    run.created_relationships.clear()


def relationships_removing(run: StatementRun, ids: str) -> None:
    """Take away the relationships whose ids the subquery or table `ids` holds, about to be deleted."""
    flush(run)
    _run(run, end_labels.add(f"r.id IN (SELECT id FROM {ids})", -1))


def labels_changing(run: StatementRun, pairs: str, *, added: bool, values: list[Any] | None = None) -> None:
    """The (id, l) `pairs` are labels about to be added to (or removed from) nodes that lack (carry) them."""
    flush(run)
    _run(run, end_labels.labels_moved(pairs, 1 if added else -1), values)


def nodes_removing(run: StatementRun, ids: str) -> None:
    """The nodes whose ids `ids` holds are about to be deleted: any relationship still holding one (deleted
    later in the statement, or the statement fails) loses that end's labels."""
    labels_changing(run, "(SELECT id, unnest(list_distinct(labels)) AS l FROM nodes"
                         f" WHERE id IN (SELECT id FROM {ids}))", added=False)


COMPACT_AFTER = 10_000
"""Change rows a store writes before it folds the table's rows into one per count (`compact`)."""


def _run(run: StatementRun, sql: str, values: list[Any] | None = None) -> None:
    rows = run.fetchall(sql + end_labels.DELTA, values or [])
    run.store.end_labels_added(rows)
    run.store.end_label_rows += len(rows)
    if run.store.end_label_rows > COMPACT_AFTER:
        compact(run)


def compact(run: StatementRun) -> None:
    """Replace the change rows by their sums, in the statement's transaction (three SQL statements)."""
    summed = run.materialize(end_labels.SUMMED, [])
    run.execute(f"DELETE FROM {end_labels.TABLE}")
    run.execute(f"INSERT INTO {end_labels.TABLE} SELECT type, side, label, n FROM {summed.sql}")
    run.store.end_label_rows = 0
