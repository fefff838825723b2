"""Keeping the end-label counts (engine/storage/end_labels.py, ADR-0092) exact under every write.

The writers call these at the few places the counts change: a relationship created (after its INSERT), deleted
(before its DELETE), a label added to or removed from nodes (before the UPDATE, with the (node, label) pairs
that really change), a node deleted while relationships still hold it (its labels leave their ends). Each is one
set-based SQL statement in the statement's transaction, so a rollback, of a statement or of a batch of CALL IN
TRANSACTIONS, undoes it with the data; the rows each one inserts come back (RETURNING) and the store folds them
into the counts it holds.

A created relationship is left out of the counts (ADR-0111) unless its ends' labels are at hand: the store holds
which are (`GraphStore.uncounted_relationships`), past the commit, and `flush` counts them all before anything
else changes the counts or a writing statement reads them. A read works out what they add without writing
(`GraphStore.end_labels`), and the next write stores that (`settle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.storage import end_labels

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

MOST_RANGES = 32
"""Separate id ranges the counts may miss before a write counts them all at its end (`settle`): each is a term of
the next count's condition."""
MOST_UNCOUNTED = 10_000
"""Relationships the counts may miss before a write counts them all at its end: what a read works out for them
(`GraphStore.end_labels`) stays a small join."""


def relationships_added(run: StatementRun, first: int, last: int) -> None:
    """The relationships of ids `first` to `last` - 1 were just inserted: left out of the counts until `flush`."""
    run.store.relationships_uncounted(first, last)


def relationships_ending(run: StatementRun, ends: str, values: list[Any]) -> None:
    """Count the relationships just inserted whose (type, src, dst, src_labels, dst_labels) rows the SELECT
    `ends` yields, one per relationship: their ends' labels are known, so nothing waits for `flush`."""
    _run(run, end_labels.add_ends(ends), values)


def flush(run: StatementRun) -> None:
    """Count every relationship the counts miss (`GraphStore.uncounted_relationships`), in the statement's
    transaction: before anything else changes the counts, and before a writing statement reads them (a clause's
    plan, execute/prepare.py). The labels of their ends are read as they are now: a label change counts at the
    ends of every relationship, so it flushes first. What a read worked out for them (`Overlay`), when it still
    holds, is stored as it is."""
    ranges = run.store.uncounted_relationships()
    if not ranges:
        return
    ranges = _store_overlay(run, ranges)
    if ranges:
        _run(run, end_labels.add(end_labels.ranges_where(ranges), 1))
        run.store.relationships_counted(ranges)


def settle(run: StatementRun, *, count_all: bool) -> None:
    """Before a writing statement (or a batch of it) commits: store what a read worked out for the relationships
    the counts miss (a small INSERT of its rows), and leave this statement's own out; or count them all, where
    `count_all` (an explicit transaction's statement), where other stores share the database (they read no
    counts, and count before they change them), or where they are spread over many id ranges. Nothing where
    the statement's transaction is not open: a read, or a write that ran alone (ADR-0110) and created no
    relationship."""
    if not run.writes or not run.begun:
        return
    ranges = run.store.uncounted_relationships()
    if count_all or run.store.shared or len(ranges) > MOST_RANGES \
            or sum(last - first for first, last in ranges) > MOST_UNCOUNTED:
        flush(run)
        return
    _store_overlay(run, ranges)


def _store_overlay(run: StatementRun, ranges: tuple[end_labels.Range, ...]) -> tuple[end_labels.Range, ...]:
    """Store what a read worked out for uncounted relationships (`Overlay`), where it still holds and they are
    all among `ranges` (a small INSERT of its rows, no join); the ranges left uncounted."""
    overlay = run.store.overlay()
    if overlay is None or end_labels.without(overlay.ranges, ranges):
        return ranges
    _run(run, end_labels.INSERT_ROWS, end_labels.row_lists(overlay.rows))
    run.store.relationships_counted(overlay.ranges)
    return end_labels.without(ranges, overlay.ranges)


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
