"""Keeping full-text postings current (ADR-0017), set-based: each refresh deletes the postings of a set of
element ids and re-inserts them, tokenized in SQL, from the elements as they are now.

Tables (engine/storage/schema.py): `ft_fields(idx, id, field, length, norm)`, one row per indexed element
and property holding text (`length` = its number of tokens, `norm` = that length as Lucene's one-byte norm
keeps it), and `ft_postings(idx, id, field, term, tf, positions, norm)`, the field's norm repeated on each
of its postings. `idx` is the index's schema id; `field` is the property key.

The executor's change log (engine/execute/changes.py) says which elements a statement wrote; `refresh`
re-indexes exactly those, when the log syncs. The composition root (engine/plugins) registers `refresh`
and `drop` as the "fulltext" index kind (engine/execute/index_kinds.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.execute.changes import Scope, touched_ids
from engine.fulltext import analyzers
from engine.storage.schema import ENTITY_TABLES, IndexInfo
from engine.types import CypherType, Kind

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

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
        where = "" if scope is None else f" AND id IN {touched_ids(index.entity, values)}"
        for table in ("ft_postings", "ft_fields"):
            run.execute(f"DELETE FROM {table} WHERE idx = $1{where}", values)
    parameters: list[Any] = [index.id]  # $1 in the statements below
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
    chosen = analyzers.for_index(index)
    # The standard tokenizer cuts ASCII texts without its full pattern (analyzer.ASCII_TOKEN_PATTERN): its
    # compilation costs tens of milliseconds a statement. A first statement writes every text so cut unless
    # one is not ASCII (its tokens NULL); only then does a second cut them all with the full pattern.
    first = "ft_ascii_tokens(texts)" if chosen.tokenizer == analyzers.STANDARD \
        else f"ft_value_tokens_{chosen.tokenizer}(texts)"
    source = f"({' UNION ALL '.join(selects)})"
    # a whole index is written in term order: a term's postings then sit in few row groups, which DuckDB
    # skips by their min and max (ADR-0049); later refreshes append
    order = " ORDER BY term" if scope is None else ""
    uncut, _, _ = run.fetchone(_write_sql(source, first, chosen.filter, order), parameters)
    if uncut:
        run.execute(_write_sql(source, f"coalesce({first}, ft_value_tokens(texts))", chosen.filter, order),
                    parameters)


def _write_sql(source: str, tokens: str, token_filter: str | None, order: str) -> str:
    """One statement writing the `ft_fields` and `ft_postings` rows of the texts of `source` (rows `id`,
    `field`, `texts`) as `tokens` cuts them, all or none: none when a text's tokens are NULL. Its one row
    says how many are, then how many rows each table got. $1 is the index id, `source`'s parameters follow."""
    toks = f"ft_filter_{token_filter}({tokens})" if token_filter else tokens
    # a filter leaves NULL where it dropped a stop word: not a term, not counted in the field's length, but
    # its position taken
    length = "len(list_filter(toks, lambda t: t IS NOT NULL))" if token_filter else "len(toks)"
    return (
        f"WITH t AS MATERIALIZED (SELECT id, field, {toks} AS toks FROM {source} WHERE texts IS NOT NULL),"
        f" w AS (SELECT id, field, toks, {length} AS length FROM t"
        f" WHERE NOT EXISTS (SELECT 1 FROM t WHERE toks IS NULL)),"
        f" f AS (INSERT INTO ft_fields SELECT $1, id, field, length, ft_norm_length(length) FROM w RETURNING 1),"
        f" p AS (INSERT INTO ft_postings (idx, id, field, term, tf, positions, norm) SELECT $1, id, field, term,"
        f" count(*)::INTEGER, list(pos ORDER BY pos), any_value(norm)"
        f" FROM (SELECT id, field, ft_norm_length(length) AS norm, unnest(toks) AS term,"
        f" (generate_subscripts(toks, 1) - 1)::INTEGER AS pos FROM w) WHERE term IS NOT NULL"
        f" GROUP BY id, field, term{order} RETURNING 1)"
        f" SELECT (SELECT count(*) FROM t WHERE toks IS NULL), (SELECT count(*) FROM f), (SELECT count(*) FROM p)")


def drop(run: StatementRun, index: IndexInfo) -> None:
    for table in ("ft_postings", "ft_fields"):
        run.execute(f"DELETE FROM {table} WHERE idx = $1", [index.id])
