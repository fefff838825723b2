"""Keeping full-text postings current (ADR-0017), set-based: each refresh deletes the postings of a set of
element ids and re-inserts them, tokenized in SQL, from the elements as they are now.

Tables (engine/storage/schema.py): `ft_fields(idx, id, field, length, norm)`, one row per indexed element
and property holding text (`length` = its number of tokens, `norm` = that length as Lucene's one-byte norm
keeps it), and `ft_postings(idx, id, field, term, tf, positions, norm)`, the field's norm repeated on each
of its postings. `idx` is the index's schema id; `field` is the property key.

A statement's writers report the ids they update or delete (`StatementChanges.touch`); elements it
creates are the ids from the statement's first id on. Before a read clause that queries a full-text index
after a write, before a batch commit, and before the statement commits, `sync` refreshes exactly those ids
in every full-text index of their entity kind. Other reads never see the index tables, so they need no
sync: a statement that writes and reads ordinarily refreshes once, at its end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.execute.constraints import StatementWrites, Write
from engine.storage.schema import ENTITY_TABLES, NEXT_ID_KEYS, IndexInfo
from engine.types import CypherType, Kind

if TYPE_CHECKING:
    from engine.execute.executor import StatementRun

TOUCHED = "_cypher_ft_touched"


def fulltext_indexes(run: StatementRun, entity: str | None = None) -> list[IndexInfo]:
    return [index for index in run.store.catalog.indexes.values()
            if index.kind == "fulltext" and (entity is None or index.entity == entity)]


def _texts_sql(column: str, column_type: CypherType | None) -> str | None:
    """The strings a property column holds for a full-text index, as a VARCHAR[] (NULL: nothing to index):
    a string, or the strings of a list of strings. Other values are not indexed, as in Neo4j."""
    if column_type is None:
        return None
    if column_type.kind is Kind.STRING:
        return f"CASE WHEN {column} IS NULL THEN NULL ELSE [{column}] END"
    if column_type.kind is Kind.LIST and column_type.element is not None and column_type.element.kind is Kind.STRING:
        return column
    if column_type.kind is Kind.ANY:
        items = f"{column}::VARIANT[]"
        return (f"CASE WHEN variant_typeof({column}) = 'VARCHAR' THEN [{column}::VARCHAR]"
                f" WHEN variant_typeof({column}) LIKE 'ARRAY%' AND len(list_filter({items},"
                f" lambda x: variant_typeof(x) <> 'VARCHAR')) = 0"
                f" THEN list_transform({items}, lambda x: x::VARCHAR) END")
    return None


def _member_sql(index: IndexInfo, parameters: list[Any]) -> str:
    """Whether row `e` belongs to the index: it has one of its labels (its relationship types)."""
    parameters.append(list(index.labels))
    if index.entity == "node":
        return f"list_has_any(e.labels, ${len(parameters)}::VARCHAR[])"
    return f"list_contains(${len(parameters)}::VARCHAR[], e.type)"


def refresh(run: StatementRun, index: IndexInfo, scope: Scope | None) -> None:
    """Re-index the elements `scope` names (None: every element)."""
    catalog = run.store.catalog
    if scope is None or scope.touched:  # new ids have no postings to delete
        values: list[Any] = [index.id]
        where = "" if scope is None else f" AND id IN {_touched_ids(index.entity, values)}"
        for table in ("ft_postings", "ft_fields"):
            run.execute(f"DELETE FROM {table} WHERE idx = $1{where}", values)
    parameters: list[Any] = []
    selects = []
    for key in index.properties:
        column = catalog.column(index.entity, key)
        texts = _texts_sql(f"e.{column}", catalog.column_type(index.entity, key)) if column else None
        if texts is None:
            continue
        parameters.append(key)
        field = f"${len(parameters)}::VARCHAR"
        where = _member_sql(index, parameters) + (scope.where(index.entity, parameters) if scope else "")
        selects.append(f"SELECT e.id, {field} AS field, {texts} AS texts FROM {ENTITY_TABLES[index.entity]} AS e"
                       f" WHERE {where}")
    if not selects:
        return
    # ASCII texts are cut without the full analyzer's pattern (analyzer.ASCII_TOKEN_PATTERN), the rest with
    # it, in a statement of its own that runs only when such texts are there.
    tokens = run.materialize(
        f"(SELECT id, field, texts, ft_ascii_tokens(texts) AS toks"
        f" FROM ({' UNION ALL '.join(selects)}) WHERE texts IS NOT NULL)", [], parameters)
    if not run.row_counts[tokens.sql]:
        return
    (complex_texts,) = run.fetchone(f"SELECT count(*) FROM {tokens.sql} WHERE toks IS NULL")
    if complex_texts:
        run.execute(f"UPDATE {tokens.sql} SET toks = ft_value_tokens(texts) WHERE toks IS NULL")
    run.execute(f"INSERT INTO ft_fields SELECT $1, id, field, len(toks), ft_norm_length(len(toks)) FROM {tokens.sql}",
                [index.id])
    # a whole index is written in term order: a term's postings then sit in few row groups, which DuckDB
    # skips by their min and max (ADR-0049); later refreshes append
    order = " ORDER BY term" if scope is None else ""
    run.execute(
        f"INSERT INTO ft_postings (idx, id, field, term, tf, positions, norm) SELECT $1, id, field, term,"
        f" count(*)::INTEGER, list(pos ORDER BY pos), any_value(norm)"
        f" FROM (SELECT id, field, ft_norm_length(len(toks)) AS norm, unnest(toks) AS term,"
        f" (generate_subscripts(toks, 1) - 1)::INTEGER AS pos FROM {tokens.sql}) GROUP BY id, field, term{order}",
        [index.id])


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
        return f" AND ({created} OR e.id IN {_touched_ids(entity, parameters)})"


def _touched_ids(entity: str, parameters: list[Any]) -> str:
    """The subquery of the touched ids of `entity`, its name bound as the next of `parameters`."""
    parameters.append(entity)
    return f"(SELECT id FROM {TOUCHED} WHERE entity = ${len(parameters)})"


def drop(run: StatementRun, index: IndexInfo) -> None:
    for table in ("ft_postings", "ft_fields"):
        run.execute(f"DELETE FROM {table} WHERE idx = $1", [index.id])


class StatementChanges:
    """The elements one statement has written since full-text indexes were last brought up to date, and
    what it has written for constraint checks (`writes`)."""

    def __init__(self, run: StatementRun, *, writes: bool = True) -> None:
        self.run = run
        self.active = writes
        """False for a statement with no updating clause: it cannot change what an index holds, so it runs
        none of the bookkeeping (four SQL statements a statement once any full-text index exists)."""
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
        if not self.active or not fulltext_indexes(self.run):
            self.first_ids = None
            return
        rows = dict(self.run.connection.execute("SELECT key, value FROM graph_meta WHERE key IN (?, ?)",
                                                list(NEXT_ID_KEYS.values())).fetchall())
        self.first_ids = {entity: int(rows[key]) for entity, key in NEXT_ID_KEYS.items()}

    def touch(self, entity: str, ids: str, *, keys: Iterable[str] | None = None,
              labels: Iterable[str] | None = None) -> None:
        """Writers call this with the ids (a table or subquery with an `id` column) of elements they update or
        delete. `keys`: the properties written, `labels`: the labels changed; when none of the entity's
        full-text indexes reads them, nothing is recorded. The table of touched ids is made on the first
        touch and emptied by `sync`, so it is empty whenever a transaction begins."""
        if self.first_ids is None:
            return
        indexes = fulltext_indexes(self.run, entity)
        if keys is not None:
            wanted = set(keys)
            indexes = [index for index in indexes if wanted & set(index.properties)]
        if labels is not None:
            wanted = set(labels)
            indexes = [index for index in indexes if wanted & set(index.labels)]
        if not indexes:
            return
        if not self.touched:
            self.run.execute(f"CREATE TEMP TABLE IF NOT EXISTS {TOUCHED} (entity VARCHAR, id BIGINT)")
            if TOUCHED not in self.run.tables:
                self.run.tables.append(TOUCHED)
        self.dirty = True
        self.touched.add(entity)
        self.run.execute(f"INSERT INTO {TOUCHED} SELECT ?, id FROM {ids}", [entity])

    def mark_written(self) -> None:
        """A write clause ran: it may have created elements."""
        if self.first_ids is not None:
            self.dirty = True

    def sync(self, *, final: bool = False) -> None:
        """Bring every full-text index up to date with the writes so far, then start counting afresh
        (unless `final`: the statement is about to commit)."""
        if self.first_ids is None or not self.dirty:
            return
        for index in fulltext_indexes(self.run):
            refresh(self.run, index, Scope(self.first_ids[index.entity], index.entity in self.touched))
        if self.touched:
            self.run.execute(f"DELETE FROM {TOUCHED}")
        if not final:
            self.begin()
