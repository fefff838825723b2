"""The graph's tables in DuckDB, and the catalog of property columns, ids, indexes and constraints.

Layout (ADR-0003): one row per node in `nodes(id, labels, p0, p1, ...)` and per relationship in
`rels(id, type, src, dst, p0, ...)`. Every property key gets a column of its own, named by the catalog
(`p<N>`), so no user text ever becomes an identifier. A column is typed (BIGINT, VARCHAR, ...) while all
its values share one type and becomes a VARIANT when types mix (ADR-0009). Labels are a list in the order they were
added. Ids are dense from 0 in creation order and never reused; the next ids are held in the process and stored
in `graph_meta` (id_counters.py, ADR-0103).

This is the only module that knows the layout; other stages ask it for table and column names.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import duckdb

from engine.quoting import sql_identifier
from engine.storage import end_labels, graphs, id_counters
from engine.storage.encoding import tag_key
from engine.types import (
    ANY,
    TEMPORAL_KINDS,
    CypherType,
    Kind,
    parse_type_name,
    sql_type,
    type_name,
    widened_column_type,
)

Entity = Literal["node", "relationship"]

TAGGED_KINDS = TEMPORAL_KINDS | {Kind.POINT}
"""Column kinds whose STRUCTs travel in a VARIANT under their reserved key (ADR-0014, ADR-0065)."""


def to_variant(column: str, column_type: CypherType) -> str:
    """A typed column's values as VARIANTs: scalars and lists of them cast, temporal and point STRUCTs under
    their reserved key (ADR-0014, ADR-0065)."""
    element = column_type.element
    if column_type.kind is Kind.LIST and element is not None and element.kind in TAGGED_KINDS:
        return f"list_transform({column}, lambda x: {_tagged('x', element.kind)})::VARIANT"
    if column_type.kind in TAGGED_KINDS:
        return _tagged(column, column_type.kind)
    return f"{column}::VARIANT"


def _tagged(value: str, kind: Kind) -> str:
    key = sql_identifier(tag_key(kind.value))
    return f"CASE WHEN {value} IS NULL THEN NULL ELSE struct_pack({key} := {value})::VARIANT END"


ENTITY_TABLES: dict[str, str] = {"node": "nodes", "relationship": "rels"}

_BOOTSTRAP = (
    "CREATE TABLE IF NOT EXISTS graph_meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nodes (id BIGINT PRIMARY KEY, labels VARCHAR[] NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rels (id BIGINT PRIMARY KEY, type VARCHAR NOT NULL,"
    " src BIGINT NOT NULL, dst BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS graph_property_keys (entity VARCHAR NOT NULL, key VARCHAR NOT NULL,"
    " col VARCHAR NOT NULL, type VARCHAR NOT NULL, PRIMARY KEY (entity, key))",
    "CREATE TABLE IF NOT EXISTS graph_indexes (name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL,"
    " entity VARCHAR NOT NULL, labels VARCHAR[] NOT NULL, properties VARCHAR[] NOT NULL,"
    " options VARCHAR, owned_by VARCHAR)",
    "CREATE TABLE IF NOT EXISTS graph_constraints (name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL,"
    " entity VARCHAR NOT NULL, label VARCHAR NOT NULL, properties VARCHAR[] NOT NULL,"
    " property_type VARCHAR)",
    "INSERT INTO graph_meta VALUES ('format_version', 1), ('next_node_id', 0), ('next_rel_id', 0),"
    " ('next_schema_id', 1) ON CONFLICT DO NOTHING",
    # the time of the last write (ADR-0068), 0 until the first: present from the start, so a write sets it
    # with an UPDATE, a third of what an upsert costs DuckDB (ADR-0085)
    "INSERT INTO graph_meta VALUES ('last_write', 0) ON CONFLICT DO NOTHING",
    # schema objects have ids, as SHOW INDEXES / CONSTRAINTS list them (added after the first files)
    "ALTER TABLE graph_indexes ADD COLUMN IF NOT EXISTS id BIGINT",
    "ALTER TABLE graph_constraints ADD COLUMN IF NOT EXISTS id BIGINT",
    # full-text indexes (ADR-0017): one row per indexed element and field, and its postings
    "CREATE TABLE IF NOT EXISTS ft_fields (idx BIGINT NOT NULL, id BIGINT NOT NULL, field VARCHAR NOT NULL,"
    " length INTEGER NOT NULL, norm INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ft_postings (idx BIGINT NOT NULL, id BIGINT NOT NULL, field VARCHAR NOT NULL,"
    " term VARCHAR NOT NULL, tf INTEGER NOT NULL, positions INTEGER[] NOT NULL)",
    # a posting carries its field's norm, so a term scores without joining ft_fields (ADR-0049); files made
    # before have it filled in from ft_fields once
    "ALTER TABLE ft_postings ADD COLUMN IF NOT EXISTS norm INTEGER",
    "UPDATE ft_postings SET norm = f.norm FROM ft_fields AS f WHERE ft_postings.norm IS NULL"
    " AND f.idx = ft_postings.idx AND f.id = ft_postings.id AND f.field = ft_postings.field",
    # per relationship type, the labels its ends carry, counted (ADR-0092)
    end_labels.CREATE,
)

DEFAULT_LOOKUP_INDEXES = (("index_343aff4e", "node"), ("index_f7700477", "relationship"))
"""The two token lookup indexes a new Neo4j database has, with the names Neo4j gives them."""

NEXT_ID_KEYS: dict[str, str] = {"node": "next_node_id", "relationship": "next_rel_id"}

_SHARERS: dict[str, weakref.WeakSet[GraphStore]] = {}
"""Per database, the stores of this process open on it. Where there are several, another connection can commit
between a clause's reading of the end-label counts and its SELECT, so the counts answer no label test
(`end_labels`, ADR-0092): a plan made from them could leave out a test the SELECT's newer rows need."""

_CATALOG_COMMITS: dict[str, int] = {}
"""Per database, how many write transactions connections of this process committed to it: a store whose
catalog was loaded at another count re-reads it (`current`), as another connection to the same file may
have added a property column (issue 32, item 5)."""

_RELATIONSHIP_CHANGES: dict[str, int] = {}
"""Per database (a file, or one store's own graph), how often this process created relationships in it or
committed them: a store's statistics are valid while the count is the one they were made at."""


@dataclass(frozen=True)
class IndexInfo:
    """An index. `kind` is range, text, point or lookup; a lookup index has no labels or properties.
    `owned_by` names the constraint a uniqueness or key constraint's backing index belongs to."""

    name: str
    kind: str
    entity: str
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    options: str | None = None
    owned_by: str | None = None
    id: int = 0


@dataclass(frozen=True)
class ConstraintInfo:
    """A constraint. `kind` is unique, node_key (a key, on relationships too) or not_null."""

    name: str
    kind: str
    entity: str
    label: str
    properties: tuple[str, ...]
    property_type: str | None = None
    id: int = 0


@dataclass
class Catalog:
    """What the compiler needs to know of the stored graph: property columns, indexes, constraints."""

    columns: dict[str, dict[str, str]] = field(default_factory=lambda: {"node": {}, "relationship": {}})
    types: dict[str, dict[str, CypherType]] = field(default_factory=lambda: {"node": {}, "relationship": {}})
    indexes: dict[str, IndexInfo] = field(default_factory=dict)
    constraints: dict[str, ConstraintInfo] = field(default_factory=dict)

    def column(self, entity: str, key: str) -> str | None:
        return self.columns[entity].get(key)

    def column_type(self, entity: str, key: str) -> CypherType | None:
        """The type of the values in `key`'s column (ANY: a VARIANT column), None if no column yet."""
        return self.types[entity].get(key)


class GraphStore:
    """The tables of one graph in one DuckDB connection, and a cached copy of their catalog."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, read_only: bool = False,
                 shared_as: str | None = None) -> None:
        """`shared_as`: the database file, which other connections of this process may open too (their
        writes must reach this store's statistics); None for a graph only this store reads."""
        self.connection = connection
        self._shared_as = shared_as or f"graph-{id(self)}"
        _SHARERS.setdefault(self._shared_as, weakref.WeakSet()).add(self)
        self._relationships_pending = False
        if not read_only:
            connection.execute(";\n".join(_BOOTSTRAP))  # one call: each is a round trip otherwise
            self._first_opening()
        durable = shared_as is not None and not read_only
        self._counters = id_counters.share(shared_as, self, lambda: id_counters.read(connection, durable=True)) \
            if durable else id_counters.read(connection, durable=False)
        """The graph's next ids and last write, shared with the process's other stores of it (id_counters.py)."""
        self._durable = durable
        self._counted_here: tuple[end_labels.Range, ...] = ()
        self._added_here: tuple[end_labels.Range, ...] = ()
        """Of the relationships the end-label counts miss (`uncounted_relationships`, ADR-0111), those the open
        transaction counted, and those it created and left out: the graph's own become so when it commits."""
        self._end_labels_with: tuple[end_labels.Overlay, end_labels.EndLabels] | None = None
        """What the counts say with an overlay's rows added, and that overlay (`end_labels`)."""
        self._wrote = False
        """Whether the open transaction wrote (took ids, or a statement of it changed something)."""
        self._deleting = False
        """Whether the open transaction deleted elements: its commit stores the counters (ADR-0103)."""
        self._storing: tuple[int, int, int] | None = None
        """What the open transaction wrote to graph_meta's counters, if it did (`before_commit`)."""
        self.before_schema_write: Callable[[], None] | None = None
        """Called before a column is added or widened: a statement whose transaction is deferred opens it
        (engine/execute/write_alone.py)."""
        self.catalog = self._load_catalog()
        self._catalog_at = _CATALOG_COMMITS.get(self._shared_as, 0)
        self._fan_out: dict[tuple[frozenset[str] | None, str], int] = {}
        self._fan_out_at: int | None = None
        """`most_relationships_per_node`'s answers, and the `_RELATIONSHIP_CHANGES` count they were made at."""
        self._end_labels: end_labels.EndLabels | None = None if not read_only or self._has_end_labels() \
            else end_labels.UNKNOWN
        """What the end-label counts say as the open transaction sees them (None: not worked out yet)."""
        self._loops_counted = not read_only or self._has_meta("self_loops")
        """Whether the counts hold self-loops (a file counted before ADR-0098 and opened read-only has not)."""
        self._end_label_counts: end_labels.Counts | None = None
        """The counts themselves, read when first asked for (None: not yet, or to be read again); a write
        folds its changes in (`end_labels_added`) instead of having them read again."""
        self.end_label_rows = 0
        """Change rows of the counts this store wrote since it last folded them (execute/end_labels.py)."""
        self._transactions = 0
        """Statements that committed or rolled back here: all a compile reads of the store (the catalog, its
        statistics) is as it was while the count and `_RELATIONSHIP_CHANGES` are."""
        if not self._counters.uncounted.checked:
            self._counters.uncounted.checked = True
            self._check_end_labels(read_only)

    def _first_opening(self) -> None:
        """What a graph gets once, the first time it is opened for writing (one flag each in graph_meta): a new
        graph Neo4j's two token lookup indexes (dropping them later is allowed), a graph made before the
        end-label counts those counts (ADR-0092), and one counted before self-loops were its self-loops (ADR-0098)."""
        created = {key for (key,) in self.connection.execute(
            "INSERT INTO graph_meta VALUES ('default_indexes', 1), ('end_labels', 1), ('self_loops', 1)"
            " ON CONFLICT DO NOTHING RETURNING key").fetchall()}
        if "end_labels" in created:
            self.connection.execute(end_labels.COUNT_ALL)
        elif "self_loops" in created:
            self.connection.execute(end_labels.COUNT_LOOPS)
        if "default_indexes" in created:
            first = self.allocate_schema_ids(len(DEFAULT_LOOKUP_INDEXES))
            self._insert_indexes([IndexInfo(name, "lookup", entity, (), (), id=first + offset)
                                  for offset, (name, entity) in enumerate(DEFAULT_LOOKUP_INDEXES)])

    def _check_end_labels(self, read_only: bool) -> None:
        """The first opening in this process: counts a process left short (`end_labels.Uncounted`) are counted
        again, or, read-only, answer nothing."""
        if self._end_labels is end_labels.UNKNOWN:
            return
        (consistent,) = self.connection.execute(end_labels.CONSISTENT).fetchone() or (True,)
        if consistent:
            return
        if read_only:
            self._end_labels = end_labels.UNKNOWN
        else:
            self.connection.execute(";\n".join(end_labels.RECOUNT))

    def _has_end_labels(self) -> bool:
        """Whether a graph opened read-only has end-label counts (one made before them has not)."""
        (count,) = self.connection.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ?"
                                           " AND schema_name = current_schema()", [end_labels.TABLE]).fetchone() or (0,)
        return bool(count)

    def _has_meta(self, key: str) -> bool:
        """Whether a graph opened read-only has `key` in graph_meta (one made before it was added has not)."""
        (count,) = self.connection.execute("SELECT count(*) FROM graph_meta WHERE key = ?", [key]).fetchone() or (0,)
        return bool(count)

    # -- catalog -------------------------------------------------------------------------------

    def _load_catalog(self) -> Catalog:
        catalog = Catalog()
        for entity, key, col, type_text in self.connection.execute(
                "SELECT entity, key, col, type FROM graph_property_keys ORDER BY col").fetchall():
            catalog.columns[entity][key] = col
            catalog.types[entity][key] = parse_type_name(type_text)
        for row in self.connection.execute(
                "SELECT name, kind, entity, labels, properties, options, owned_by, coalesce(id, 0)"
                " FROM graph_indexes ORDER BY id").fetchall():
            catalog.indexes[row[0]] = IndexInfo(row[0], row[1], row[2], tuple(row[3]), tuple(row[4]),
                                                row[5], row[6], row[7])
        for row in self.connection.execute(
                "SELECT name, kind, entity, label, properties, property_type, coalesce(id, 0)"
                " FROM graph_constraints ORDER BY id").fetchall():
            catalog.constraints[row[0]] = ConstraintInfo(row[0], row[1], row[2], row[3], tuple(row[4]),
                                                         row[5], row[6])
        return catalog

    @property
    def version(self) -> tuple[int, int]:
        """Equal while what a compile reads of the store is the same (the statement cache's key)."""
        return self._transactions, _RELATIONSHIP_CHANGES.get(self._shared_as, 0)

    @property
    def key(self) -> str:
        """What names this graph among the process's connections: the file's real path, or a graph of one."""
        return self._shared_as

    def current(self) -> bool:
        """Re-read the catalog if another connection of this process committed to the database since it was
        read: its new property columns would be unknown here (reads of them null, a CREATE adding them
        again). Whether it did."""
        if _CATALOG_COMMITS.get(self._shared_as, 0) == self._catalog_at:
            return False
        self.reload()
        return True

    def reload(self) -> None:
        """Re-read the catalog, e.g. after a rolled-back statement undid a new column."""
        self._transactions += 1
        self._catalog_at = _CATALOG_COMMITS.get(self._shared_as, 0)
        self.catalog = self._load_catalog()
        self._fan_out.clear()  # a rolled-back statement's relationships may have been counted
        self.end_labels_changed()
        self._relationships_pending = False

    # -- statistics ----------------------------------------------------------------------------

    def relationships_changed(self) -> None:
        """Relationships were created here, or the transaction that created them committed (and every
        connection of the process now sees them): the statistics of every store of this database are
        stale."""
        _RELATIONSHIP_CHANGES[self._shared_as] = _RELATIONSHIP_CHANGES.get(self._shared_as, 0) + 1

    def committed(self) -> None:
        """The statement's transaction (or a batch of it) committed: its ids and its write's time kept."""
        self._settle(committed=True)
        if self._counted_here or self._added_here:
            uncounted = self._counters.uncounted
            uncounted.ranges = end_labels.joined(end_labels.without(uncounted.ranges, self._counted_here),
                                                 self._added_here)
            self._counted_here = self._added_here = ()
        self._transactions += 1
        self._catalog_at = _CATALOG_COMMITS[self._shared_as] = _CATALOG_COMMITS.get(self._shared_as, 0) + 1
        if self._relationships_pending:
            self.relationships_changed()
            self._relationships_pending = False

    def end_labels(self, *, complete: bool = True) -> end_labels.EndLabels:
        """Which labels every start and every end node of each relationship type carries, exactly as the
        statement's transaction stands (ADR-0092): read again after any write changed the counts. None hold
        while other stores of this process share the database (`_SHARERS`). Where the counts miss relationships
        (ADR-0111), what those add is worked out (one SELECT, once while the same are missed) unless not
        `complete`: then an answer that a label is not carried everywhere, or that a type has self-loops,
        still holds, as relationships added never make a label carried or a type loop-free."""
        if self.shared or self._end_labels is end_labels.UNKNOWN:
            return end_labels.UNKNOWN
        if self._end_labels is None:
            if self._end_label_counts is None:
                self._end_label_counts = end_labels.load(self.connection)
            self._end_labels = end_labels.of_counts(self._end_label_counts, loops_counted=self._loops_counted)
        ranges = self.uncounted_relationships()
        if not ranges or not complete:
            return self._end_labels
        if self._counted_here or self._added_here:  # a write counts them first (execute/end_labels.py `flush`)
            return end_labels.UNKNOWN
        overlay = self.overlay() or self._read_overlay(ranges)
        if self._end_labels_with is None or self._end_labels_with[0] is not overlay:
            counts = dict(self._end_label_counts or {})
            end_labels.add_rows(counts, overlay.rows)
            self._end_labels_with = overlay, end_labels.of_counts(counts, loops_counted=self._loops_counted)
        return self._end_labels_with[1]

    @property
    def shared(self) -> bool:
        """Whether other stores of this process are open on the database (`_SHARERS`)."""
        return len(_SHARERS.get(self._shared_as, ())) > 1

    def uncounted_relationships(self) -> tuple[end_labels.Range, ...]:
        """The relationships the end-label counts miss, as the open transaction sees them (ADR-0111)."""
        return end_labels.joined(end_labels.without(self._counters.uncounted.ranges, self._counted_here),
                                 self._added_here)

    def relationships_uncounted(self, first: int, last: int) -> None:
        """The open transaction created relationships `first` to `last` - 1 and left them out of the counts."""
        self._added_here = end_labels.joined(self._added_here, ((first, last),))

    def relationships_counted(self, ranges: tuple[end_labels.Range, ...]) -> None:
        """The open transaction counted the relationships of `ranges`."""
        self._counted_here = end_labels.joined(self._counted_here, ranges)
        self._added_here = end_labels.without(self._added_here, ranges)

    def overlay(self) -> end_labels.Overlay | None:
        """What a read worked out the graph's uncounted relationships add to the counts, while it still holds:
        the same relationships are uncounted (a write that could change what they add counts them first)."""
        uncounted = self._counters.uncounted
        overlay = uncounted.overlay
        return overlay if overlay is not None and overlay.ranges == uncounted.ranges else None

    def _read_overlay(self, ranges: tuple[end_labels.Range, ...]) -> end_labels.Overlay:
        overlay = end_labels.Overlay(ranges, end_labels.missed(self.connection, ranges))
        self._counters.uncounted.overlay = overlay
        return overlay

    def end_label_counts(self) -> end_labels.Counts:
        """The counts as the graph stands in the open transaction: the table's, with what the relationships
        they miss add (read now, for checks: `end_labels` is what a plan asks)."""
        counts = end_labels.load(self.connection)
        ranges = self.uncounted_relationships()
        if ranges:
            end_labels.add_rows(counts, end_labels.missed(self.connection, ranges))
        return counts

    def close(self) -> None:
        """Its connection closed: it no longer shares the database (`_SHARERS`); the last store of a file's graph
        in the process stores its counters (ADR-0103)."""
        _SHARERS.get(self._shared_as, weakref.WeakSet()).discard(self)
        if self._durable:
            id_counters.release(self._shared_as, self, self._store_at_close)

    def _store_at_close(self, counters: id_counters.Counters) -> None:
        if self._shared_as in graphs.DROPPED:
            return
        values = counters.values(wrote=False)
        with contextlib.suppress(duckdb.Error):  # a database failed beyond writing: the next opening recovers
            if values != counters.stored:
                id_counters.persist(self.connection, counters, values)
            if counters.uncounted.ranges:  # named in full, as the search path may be on another graph
                self.connection.execute(end_labels.add(end_labels.ranges_where(counters.uncounted.ranges), 1,
                                                       schema=counters.table.rsplit(".", 1)[0]))
                counters.uncounted.ranges = ()

    def end_labels_changed(self) -> None:
        """A write changed the end-label counts, or a rollback or another connection's commit may have."""
        if self._end_labels is not end_labels.UNKNOWN:
            self._end_labels = self._end_labels_with = None
            self._end_label_counts = None

    def end_labels_added(self, rows: list[tuple[str, str, str, int]]) -> None:
        """A write of the statement's transaction inserted these change rows into the counts."""
        if self._end_labels is end_labels.UNKNOWN:
            return
        self._end_labels = self._end_labels_with = None
        if self._end_label_counts is not None:
            end_labels.add_rows(self._end_label_counts, rows)

    def node_count(self, label: str | None = None) -> int:
        """How many nodes the store holds (with `label`): counted now, for a plan's estimates."""
        where, values = ("", []) if label is None else (" WHERE list_contains(labels, ?)", [label])
        (count,) = self.connection.execute(f"SELECT count(*) FROM nodes{where}", values).fetchone() or (0,)
        return int(count)

    def relationship_count(self, types: frozenset[str] | None = None) -> int:
        """How many relationships the store holds (of `types`; None: of any type): counted now."""
        names = sorted(types or ())
        where = "" if types is None else " WHERE " + (" OR ".join(["type = ?"] * len(names)) or "false")
        (count,) = self.connection.execute(f"SELECT count(*) FROM rels{where}", names).fetchone() or (0,)
        return int(count)

    def most_relationships_per_node(self, types: frozenset[str] | None, column: Literal["src", "dst"]) -> int:
        """The most relationships of `types` (None: of any type) one node has as their `column`: how far a
        walk over them can branch at a node. Remembered until this process creates a relationship in the
        database (`relationships_changed`) or a statement of this store rolls back; a deletion can only
        lower the true figure, so what is remembered stays an upper bound. Counted in the statement's
        transaction when it is open, else just before it opens: a relationship another connection commits
        in between can make it low for that one statement, which costs a walk its cap (walks.Walk.guarded),
        never an answer. Another process cannot write a database file this one has open."""
        at = _RELATIONSHIP_CHANGES.get(self._shared_as, 0)
        if at != self._fan_out_at:
            self._fan_out.clear()
            self._fan_out_at = at
        key = (types, column)
        if key not in self._fan_out:
            names = sorted(types or ())
            where = "" if types is None else " WHERE " + (" OR ".join(["type = ?"] * len(names)) or "false")
            (most,) = self.connection.execute(
                f"SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM rels{where} GROUP BY {column})",
                names).fetchone() or (0,)
            self._fan_out[key] = int(most)
        return self._fan_out[key]

    def ensure_property_column(self, entity: str, key: str, value_type: CypherType) -> str:
        """The column holding `key`, ready to store values of `value_type`: added on first use, widened to
        VARIANT when a value of another type arrives (ADR-0009)."""
        current = self.catalog.column_type(entity, key)
        target = widened_column_type(current, [value_type]) or ANY
        existing = self.catalog.column(entity, key)
        table = ENTITY_TABLES[entity]
        if (existing is None or target != current) and self.before_schema_write is not None:
            self.before_schema_write()  # a statement whose write may run alone opens its transaction first
        if existing is None:
            col = f"p{sum(len(cols) for cols in self.catalog.columns.values())}"
            self.connection.execute(f"ALTER TABLE {table} ADD COLUMN {col} {sql_type(target)}")
            self.connection.execute("INSERT INTO graph_property_keys VALUES (?, ?, ?, ?)",
                                    [entity, key, col, type_name(target)])
            self.catalog.columns[entity][key] = col
            self.catalog.types[entity][key] = target
            return col
        if target != current:
            assert current is not None
            self.connection.execute(f"ALTER TABLE {table} ALTER COLUMN {existing} TYPE VARIANT"
                                    f" USING {to_variant(existing, current)}")
            self.connection.execute("UPDATE graph_property_keys SET type = ? WHERE entity = ? AND key = ?",
                                    [type_name(target), entity, key])
            self.catalog.types[entity][key] = target
        return existing

    def record_write(self) -> None:
        """The statement changed the graph: its transaction's commit notes the time (ADR-0068's `lastWrite`)."""
        self._wrote = True

    def deleting(self) -> None:
        """The statement deleted elements: its transaction's commit stores the counters, so that no crash can
        give a deleted element's id again (ADR-0103)."""
        self._deleting = True

    def before_commit(self) -> None:
        """Store the counters and the last write in graph_meta, in the committing transaction, when it is due
        (`Counters.due`): one SQL statement, run now and then instead of with every write."""
        if self._counters.due(wrote=self._wrote, deleting=self._deleting):
            values = self._counters.values(wrote=self._wrote)
            id_counters.persist(self.connection, self._counters, values)
            self._storing = values

    def rolled_back(self) -> None:
        """The transaction (or a batch of CALL IN TRANSACTIONS) was rolled back: its ids are given back, and
        what it counted of the end labels or left out of them is as if it had never run."""
        self._settle(committed=False)
        self._counted_here = self._added_here = ()

    def _settle(self, *, committed: bool) -> None:
        self._counters.settle(self, committed=committed, wrote=self._wrote, stored=self._storing)
        self._wrote = self._deleting = False
        self._storing = None

    @property
    def last_write(self) -> int:
        """When the graph last committed a write, in microseconds since the epoch (0: never)."""
        return self._counters.last_write

    # -- ids -----------------------------------------------------------------------------------

    def allocate_ids(self, entity: str, count: int) -> int:
        """Reserve `count` consecutive ids, given back if the transaction rolls back; returns the first. No
        SQL: the process holds the counters (ADR-0103)."""
        if entity == "relationship":
            self.relationships_changed()
            self._relationships_pending = True
        self._wrote = True
        return self._counters.take(self, entity, count)

    def give_back_ids(self, entity: str, first: int, count: int) -> None:
        """Ids just allocated (`allocate_ids`) and not used: taken again by the next allocation."""
        self._counters.give_back(entity, first, count)

    # -- schema objects ------------------------------------------------------------------------

    def allocate_schema_id(self) -> int:
        """The next id of an index or constraint (one sequence for both, from 1, as Neo4j's schema rules)."""
        return self.allocate_schema_ids(1)

    def allocate_schema_ids(self, count: int) -> int:
        (after,) = self.connection.execute(
            "UPDATE graph_meta SET value = value + ? WHERE key = 'next_schema_id' RETURNING value", [count]).fetchone()
        return int(after) - count

    def _insert_index(self, index: IndexInfo) -> None:
        self._insert_indexes([index])

    def _insert_indexes(self, indexes: list[IndexInfo]) -> None:
        self.connection.execute(
            "INSERT INTO graph_indexes (name, kind, entity, labels, properties, options, owned_by, id) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(indexes)),
            [value for index in indexes for value in (index.name, index.kind, index.entity, list(index.labels),
                                                      list(index.properties), index.options, index.owned_by,
                                                      index.id)])

    def add_index(self, index: IndexInfo) -> None:
        self._insert_index(index)
        self.catalog.indexes[index.name] = index

    def drop_index(self, name: str) -> None:
        self.connection.execute("DELETE FROM graph_indexes WHERE name = ?", [name])
        self.catalog.indexes.pop(name, None)

    def add_constraint(self, constraint: ConstraintInfo) -> None:
        self.connection.execute(
            "INSERT INTO graph_constraints (name, kind, entity, label, properties, property_type, id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [constraint.name, constraint.kind, constraint.entity, constraint.label,
             list(constraint.properties), constraint.property_type, constraint.id])
        self.catalog.constraints[constraint.name] = constraint

    def drop_constraint(self, name: str) -> None:
        self.connection.execute("DELETE FROM graph_constraints WHERE name = ?", [name])
        self.catalog.constraints.pop(name, None)
