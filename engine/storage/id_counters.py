"""The next node id, the next relationship id and the last write of a graph, held in the process (ADR-0103).

One process holds a database file (ADR-0055: the others are its clients) and every statement of it that
writes takes the file's write lock (write_lock.py), so the counters can live in memory: one `Counters` per
graph of a file, shared by every store of the process open on it (`share`), read from `graph_meta` when the
first opens it. A CREATE takes its ids without a SQL statement and a write notes its time without one.

Ids stay dense and in creation order: a transaction's first allocation keeps the counters as they were
(`take`), and its rollback puts them back (`settle`). Writers take turns under the write lock, and a
transaction settles before its lock is let go, so no other allocation comes in between.

What survives the process is what `graph_meta` holds, written by `persist` in a committing transaction that
deletes elements or finds the stored values `PERSIST_EVERY` seconds old, and when the last store closes.
When the first store opens, the next id is the larger of the stored one and the largest id in the table
plus one: every id handed out is in the table, or was deleted by a transaction that stored a counter past
it, so a crash never makes an id be given twice. It can lose the last write's time since it was stored (the
graph then says it was last written up to PERSIST_EVERY seconds earlier). An in-memory graph does not survive
its process: its counters are its store's alone and never written back.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

import duckdb

from engine.quoting import sql_identifier
from engine.storage.end_labels import Uncounted

PERSIST_EVERY = 1.0
"""Seconds a file's stored counters and last write may lag behind a committing write before it stores them
(one UPDATE of graph_meta, 0.7 ms of CPU on a file, in that write's transaction): at most one write a second pays it."""

_READ = ("SELECT (SELECT value FROM graph_meta WHERE key = 'next_node_id'),"
         " (SELECT value FROM graph_meta WHERE key = 'next_rel_id'),"
         " (SELECT value FROM graph_meta WHERE key = 'last_write'),"
         " (SELECT coalesce(max(id) + 1, 0) FROM nodes), (SELECT coalesce(max(id) + 1, 0) FROM rels),"
         " current_database(), current_schema()")

_WRITE = ("UPDATE {table} SET value = CASE key WHEN 'next_node_id' THEN $1 WHEN 'next_rel_id' THEN $2"
          " ELSE $3 END WHERE key IN ('next_node_id', 'next_rel_id', 'last_write')")
"""Named in full: a connection's search path moves between its graphs (ADR-0068), and a store may store its
counters while it is on another (at close, at an explicit transaction's commit)."""


def now_micros() -> int:
    return time.time_ns() // 1000


@dataclass
class Counters:
    """One graph's next ids (by entity) and last write (microseconds since the epoch, 0: never)."""

    next_ids: dict[str, int]
    last_write: int
    durable: bool
    """Whether `graph_meta` is where they survive the process (a file's graph); an in-memory one's never are."""
    table: str
    """The graph's graph_meta, named with its database and schema."""
    stored: tuple[int, int, int] = (0, 0, 0)
    """What graph_meta holds (next node id, next relationship id, last write), as last committed."""
    stored_at: float = field(default_factory=time.monotonic)
    _undo: dict[str, int] | None = None
    _owner: object | None = None
    """The store whose open transaction took ids, and the counters before it did (`take`, `settle`)."""
    uncounted: Uncounted = field(default_factory=Uncounted)
    """The graph's committed relationships not yet in its end-label counts (ADR-0111): held here, as they live
    and end with the same stores as the ids."""

    def take(self, owner: object, entity: str, count: int) -> int:
        """Reserve `count` consecutive ids of `entity` for `owner`'s transaction; the first."""
        if self._owner is not owner:
            self._undo, self._owner = dict(self.next_ids), owner
        first = self.next_ids[entity]
        self.next_ids[entity] = first + count
        return first

    def give_back(self, entity: str, first: int, count: int) -> None:
        """The last `count` ids of `entity` taken, from `first` on, were not used (an INSERT that found its
        element there already, ADR-0113): the next allocation takes them again, so ids stay dense."""
        if self.next_ids[entity] == first + count:
            self.next_ids[entity] = first

    def values(self, wrote: bool) -> tuple[int, int, int]:
        """What graph_meta should hold once the transaction commits (`wrote`: it writes now)."""
        return self.next_ids["node"], self.next_ids["relationship"], now_micros() if wrote else self.last_write

    def due(self, *, wrote: bool, deleting: bool) -> bool:
        """Whether a committing transaction stores the counters: it deletes elements (a crash must not give
        their ids again), or it writes and the stored ones are PERSIST_EVERY seconds old."""
        return self.durable and (deleting or (wrote and time.monotonic() - self.stored_at >= PERSIST_EVERY))

    def settle(self, owner: object, *, committed: bool, wrote: bool, stored: tuple[int, int, int] | None) -> None:
        """`owner`'s transaction ended: its ids kept or given back, its write's time noted, what it stored
        now stored."""
        if self._owner is owner:
            if not committed and self._undo is not None:
                self.next_ids.update(self._undo)
            self._undo = self._owner = None
        if not committed:
            return
        if wrote:
            self.last_write = max(self.last_write, now_micros())
        if stored is not None:
            self.stored, self.stored_at = stored, time.monotonic()


def read(connection: duckdb.DuckDBPyConnection, *, durable: bool) -> Counters:
    """The counters of the graph the connection's search path is on: the stored ones, ahead of every id."""
    *stored, database, schema = connection.execute(_READ).fetchone() or (0, 0, 0, 0, 0, "", "")
    nodes, rels, written, top_node, top_rel = (int(value or 0) for value in stored)
    counters = Counters({"node": max(nodes, top_node), "relationship": max(rels, top_rel)}, written, durable,
                        f"{sql_identifier(database)}.{sql_identifier(schema)}.graph_meta", (nodes, rels, written))
    if durable and counters.values(wrote=False) != counters.stored:  # a crash left them behind
        persist(connection, counters, counters.values(wrote=False))
        counters.stored = counters.values(wrote=False)
    return counters


def persist(connection: duckdb.DuckDBPyConnection, counters: Counters, values: tuple[int, int, int]) -> None:
    """Write `values` to the graph's graph_meta, in the connection's transaction (they are stored once it commits)."""
    connection.execute(_WRITE.format(table=counters.table), list(values))


_HELD: dict[str, tuple[Counters, weakref.WeakSet[object]]] = {}
"""Per graph of a file (the stores' key), its counters and the stores of this process open on it."""
_GUARD = threading.Lock()


def share(key: str, owner: object, opened: Callable[[], Counters]) -> Counters:
    """The counters of the graph `key` for a store opening it (`owner`): those of the stores of this process
    open on it, else `opened()`'s (no store open means none holds counters newer than the stored ones)."""
    with _GUARD:
        held = _HELD.get(key)
        if held is None or not held[1]:
            held = _HELD[key] = (opened(), weakref.WeakSet())
        held[1].add(owner)
        return held[0]


def release(key: str, owner: object, closing: Callable[[Counters], None]) -> None:
    """A store of the graph `key` closes; the last one runs `closing` (which stores them) before they go."""
    with _GUARD:
        held = _HELD.get(key)
        if held is None or owner not in held[1]:
            return
        held[1].discard(owner)
        if not held[1]:
            del _HELD[key]
            closing(held[0])


def live(key: str) -> Counters | None:
    """The counters of the graph `key` while a store of this process has it open."""
    held = _HELD.get(key)
    return held[0] if held is not None and held[1] else None
