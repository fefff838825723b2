"""SET and REMOVE: properties and labels over every row at once, in rounds where a value reads what
the clause writes (ADR-0018)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine import types as t
from engine.errors import CypherTypeError
from engine.execute import end_labels
from engine.execute.write_support import (
    WriterBase,
    WriteResult,
    known_present,
    may_hold_element,
    stored_value,
    volatile,
)
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.span import Span
from engine.sqlgen.context import Parameters
from engine.sqlgen.dynamic_labels import label_list_sql
from engine.sqlgen.expressions import ExpressionCompiler, convert_from_variant, to_variant
from engine.sqlgen.relation import Relation
from engine.sqlgen.runtime import error_sql, not_stored
from engine.sqlgen.sql import let
from engine.storage.encoding import KIND_CODES
from engine.storage.schema import ENTITY_TABLES
from engine.types import CypherType, Kind, is_storable, sql_type

RUNTIME_TYPES: dict[int, CypherType] = {KIND_CODES["BOOLEAN"]: t.BOOLEAN, KIND_CODES["INTEGER"]: t.INTEGER,
                                          KIND_CODES["FLOAT"]: t.FLOAT, KIND_CODES["STRING"]: t.STRING}
"""The type a property column of values of one runtime kind (`cy_kind`) is made with; other kinds: ANY."""


class SetWriter(WriterBase):
    """The SET and REMOVE part of the writer."""

    # -- SET / REMOVE --------------------------------------------------------------------------------

    def set_clause(self, clause: b.BSet, relation: Relation) -> WriteResult:
        # rows that bind values are the read clauses' SELECT, for this SET to read once (set_in_place.py)
        table = relation if relation.values else self.stored_rows(relation)
        result = self.set_items(clause.items, table)
        return WriteResult(table, result.counters)

    def set_items(self, items: list[b.BoundSetItem], relation: Relation) -> WriteResult:
        """The items over every row at once; or, when a value reads the graph and a target recurs in
        several rows, in rounds that give each row the writes of the rows before it (`_rounds`)."""
        counters: Counter[str] = Counter()
        rounds = self._rounds(items, relation)
        for subset in rounds or [relation]:
            for group in _property_groups(items):
                if len(group) > 1:
                    counters += self._set_property_group(group, subset)
                    continue
                (item,) = group
                handler = SET_ITEMS[item.kind]
                counters += handler(self, item, subset)
        return WriteResult(relation, counters)

    def _set_property_group(self, items: list[b.BoundSetItem], relation: Relation) -> Counter[str]:
        """`SET n.a = x, n.b = y, ...` on one node or relationship variable, values that read no graph and
        are always storable (`_property_groups`): one count and one UPDATE of them all (`_write_per_target`),
        where an item at a time would take two statements each."""
        target = items[0].target
        entity = "node" if target.type.kind is Kind.NODE else "relationship"
        catalog = self.store.catalog
        columns = [self.store.ensure_property_column(entity, item.key, item.value.type) for item in items]
        column_types = [catalog.column_type(entity, item.key) or t.ANY for item in items]
        _, compiler, alias, parameters = self.compiler(relation)
        target_sql = compiler.entity_id(target, entity)
        values = [stored_value(compiler.compile(item.value), item.value.type, column_type, check=False)
                  for item, column_type in zip(items, column_types, strict=True)]
        names = [f"v{i}" for i in range(len(items))]
        if self._known_rows(relation) == 0:  # a MERGE's side known empty: nothing to write, no SQL (as one item)
            return Counter()
        assigned = "".join(f"{value} AS {name}, " for value, name in zip(values, names, strict=True))
        rows_sql = (f"(SELECT {target_sql} AS id, {assigned}{alias}.__ord AS __ord FROM {relation.sql} AS {alias}"
                    f"{compiler.context.join_text()} WHERE ({target_sql}) IS NOT NULL)")
        count = self._write_per_target(entity, rows_sql, parameters.values, [item.key for item in items],
                                       columns, column_types, names)
        return Counter({"properties_set": count})

    def _write_per_target(self, entity: str, rows_sql: str, values: Sequence[Any], keys: list[str],
                          columns: list[str], column_types: list[CypherType], names: list[str]) -> int:
        """Write the assignments of `rows_sql` (columns `id`, `names`, `__ord`; a target may recur) to `columns`
        of their targets, each target's last row's value (`_last_values_sql`); returns Neo4j's propertiesSet
        for them (`_properties_set`). Two SQL statements, the count and the UPDATE, each reading `rows_sql`;
        the rows are a table first only where an index needs the targets' ids or a value reads the clock or
        chance (computed once, so the count and the write see the same values)."""
        table = ENTITY_TABLES[entity]
        indexed = self.run.changes.records(entity, keys=keys)
        if indexed or volatile(rows_sql):
            rows_sql, values = self.run.materialize(rows_sql, [], values).sql, []
        count = self._properties_set(rows_sql, values, table, columns, names)
        assignments = ", ".join(f"{column} = {stored_value(f's.{name}', column_type, column_type)}"
                                for name, column, column_type in zip(names, columns, column_types, strict=True))
        self.run.execute(f"UPDATE {table} SET {assignments} FROM {_last_values_sql(rows_sql, names)} AS s"
                         f" WHERE {table}.id = s.id", values)
        if indexed:
            self.run.changes.touch(entity, f"(SELECT DISTINCT id FROM {rows_sql})", keys=keys)
        self.run.changes.wrote(entity, keys=keys)
        return count

    def _one_target(self, rows_sql: str, table: str, column: str, values: Sequence[Any]) -> tuple[Relation, int]:
        """`_write_per_target`'s grouping and count where each target is written once (one row, or rows that each
        hold another element: `Relation.unique`), in one SQL statement: a target counts 1 when it gets a value
        or loses one, and the table keeps it only then (writing null where there is none changes nothing), so
        the table's rows are the count (ADR-0085, ADR-0095)."""
        rows = self.run.materialize(f"(SELECT r.id, r.v FROM {rows_sql} AS r JOIN {table} AS e ON e.id = r.id"
                                    f" WHERE r.v IS NOT NULL OR e.{column} IS NOT NULL)", [], values)
        return rows, self.run.row_counts[rows.sql]

    def _update_one_target(self, rows_sql: str, table: str, column: str, checked: str, values: Sequence[Any]) -> int:
        """`_one_target` and the UPDATE in one SQL statement, where no index needs the table of the target: the
        UPDATE writes only a target that gains or loses a value, so the rows it reports updating are the count
        (ADR-0085)."""
        (updated,) = self.run.fetch_alone(
            f"UPDATE {table} SET {column} = {checked} FROM {rows_sql} AS s WHERE {table}.id = s.id"
            f" AND (s.v IS NOT NULL OR {table}.{column} IS NOT NULL)", values)
        return updated

    def _update_in_place(self, entity: str, item: b.BoundSetItem, relation: Relation, column: str,
                         column_type: CypherType) -> int | None:
        """`_update_one_target` where `relation` is a scan of `nodes` whose node the item writes (`Relation.scan`):
        the UPDATE filters the table by the scan's condition and computes the value off the row it writes, as
        DML written by hand would, rather than joining the scan's SELECT (ADR-0104). The rows it reports
        updating are the count, as there. None where it does not apply: no scan of the item's target, a
        value of no type (null) or one that reads the clock or chance (computed twice here) or another row."""
        scan = relation.scan
        assert item.value is not None
        if (scan is None or entity != "node" or _target_id(item) != id(scan.variable)
                or item.value.type.kind is Kind.NULL):
            return None
        compiler, parameters = self.scan_compiler(relation, scan)
        value = stored_value(compiler.compile(item.value), item.value.type, column_type, check=False)
        if compiler.context.joins or volatile(value):
            return None
        changes = "" if known_present(item.value) else \
            f" AND ({value} IS NOT NULL OR {scan.alias}.{column} IS NOT NULL)"  # gains or loses a value
        (updated,) = self.run.fetch_alone(
            f"UPDATE nodes AS {scan.alias} SET {column} = {stored_value(value, column_type, column_type)}"
            f" WHERE {scan.condition}{changes}", parameters.values)
        return updated

    def _properties_set(self, rows_sql: str, values: Sequence[Any], table: str, columns: list[str],
                        names: list[str]) -> int:
        """Neo4j's propertiesSet for the assignments of `rows_sql` (as `_write_per_target`'s) about to be written
        to `columns`: every value set, and every null that removes a property there at its row's turn. Where
        no target of a key has both rows setting a value and rows setting null, that is each value set plus one
        per target that only sets null and has the property, counted per target in one statement; where some
        does (rare), whether a null removes depends on the row before it (`_exact_properties_set`)."""
        terms = ", ".join(f"count({name}) AS {name}__set, bool_or({name} IS NULL) AS {name}__removes" for name in names)
        counts = " + ".join(f"coalesce(sum(s.{name}__set), 0) + count(*) FILTER (WHERE s.{name}__set = 0"
                            f" AND e.{column} IS NOT NULL)" for name, column in zip(names, columns, strict=True))
        mixed = " OR ".join(f"s.{name}__set > 0 AND s.{name}__removes" for name in names)
        (count, mixes) = self.run.fetchone(
            f"SELECT {counts}, coalesce(bool_or({mixed}), false) FROM (SELECT id, {terms} FROM {rows_sql} GROUP BY id)"
            f" AS s JOIN {table} AS e ON e.id = s.id", values)
        return self._exact_properties_set(rows_sql, values, table, columns, names) if mixes else count

    def _exact_properties_set(self, rows_sql: str, values: Sequence[Any], table: str, columns: list[str],
                              names: list[str]) -> int:
        """`_properties_set` row by row: a value counts, a null counts where the target's row before it set a
        value, or, on its first row, where the target has the property."""
        window = "OVER (PARTITION BY r.id ORDER BY r.__ord)"
        terms = " + ".join(f"(r.{name} IS NOT NULL OR coalesce(lag(r.{name} IS NOT NULL) {window},"
                           f" e.{column} IS NOT NULL))::INTEGER" for name, column in zip(names, columns, strict=True))
        (count,) = self.run.fetchone(f"SELECT coalesce(sum(c), 0) FROM (SELECT {terms} AS c FROM {rows_sql} AS r"
                                     f" JOIN {table} AS e ON e.id = r.id)", values)
        return count

    def _rounds(self, items: list[b.BoundSetItem], relation: Relation) -> list[Relation] | None:
        """Neo4j runs SET row by row, so `SET n.hits = n.hits + 1` over three rows of one node adds 3.
        One pass over all rows would read the old value in every row. When a value reads the graph and
        some target recurs, round k holds the k-th row of each target (so rounds are as many as a target
        recurs, not as many as there are rows); with targets of several variables, a row is a round.
        None when one pass gives the same result."""
        written = _written_keys(items)
        if self._at_most_one_row(relation) or all(_target_id(item) in relation.unique for item in items):
            return None  # a target recurs only over several rows, and never where each row holds another
        if not any(_reads_graph(item.value, written)
                   or (not isinstance(item.target, b.BVariable) and _reads_graph(item.target))
                   for item in items if item.kind in ("property", "all", "merge")):
            return None
        targets: list[str] = []
        for item in items:
            for entity, rows_sql, values in self.targets(item, relation):
                rows = self.run.materialize(rows_sql, [], values)
                targets.append(f"SELECT __ord, '{entity}' AS kind, id FROM {rows.sql}")
        union = " UNION ALL ".join(targets)
        (repeated,) = self.run.fetchone(
            f"SELECT count(DISTINCT (__ord, kind, id)) > count(DISTINCT (kind, id)) FROM ({union})")
        if not repeated:
            return None
        variables = {id(item.target.variable) if isinstance(item.target, b.BVariable) else id(item.target)
                     for item in items}
        partition = "PARTITION BY kind, id " if len(variables) == 1 else ""
        ranked = self.run.materialize(
            f"(SELECT __ord, max(__round) AS __round FROM (SELECT __ord, dense_rank() OVER ({partition}"
            f"ORDER BY __ord) AS __round FROM ({union})) GROUP BY __ord)", [])
        (last,) = self.run.fetchone(f"SELECT max(__round) FROM {ranked.sql}")
        return [Relation(f"(SELECT * FROM {relation.sql} WHERE __ord IN"
                         f" (SELECT __ord FROM {ranked.sql} WHERE __round = {round_number}))", relation.variables)
                for round_number in range(1, last + 1)]

    def _at_most_one_row(self, relation: Relation) -> bool:
        rows = self._known_rows(relation)
        return rows is not None and rows <= 1

    def _known_rows(self, relation: Relation) -> int | None:
        """How many rows `relation` holds, when known without counting (a table of this statement, counted as
        made, or a MERGE's side known empty)."""
        return relation.rows if relation.rows is not None else self.run.row_counts.get(relation.sql)

    def targets(self, item: b.BoundSetItem, relation: Relation, value: b.BoundExpression | None = None,
                 column_types: dict[str, CypherType | None] | None = None) -> list[tuple[str, str, list[Any]]]:
        """Per entity kind the target may be: (entity, SELECT of (id, v, __ord), its parameters), with the
        value `v` in the representation of that entity's column (`column_types`)."""
        results = []
        kinds = {Kind.NODE: ["node"], Kind.RELATIONSHIP: ["relationship"]}.get(
            item.target.type.kind, ["node", "relationship"])
        if item.target.type.kind not in (Kind.NODE, Kind.RELATIONSHIP, Kind.ANY, Kind.NULL) and not b.observed(
                item.target):  # a type read off data is checked on the rows that bring a value (`_typed_id`)
            raise CypherTypeError(f"type mismatch: expected a node or relationship but was {item.target.type!r}",
                                  item.span, detail="InvalidArgumentType")
        for entity in kinds:
            _, compiler, alias, parameters = self.compiler(relation)
            target = compiler.entity_id(item.target, entity) if item.target.type.kind in (
                Kind.NODE, Kind.RELATIONSHIP) else self._typed_id(compiler, item.target, entity)
            value_sql = "NULL::VARIANT"
            column_type = (column_types or {}).get(entity)
            if value is not None and value.type.kind is not Kind.NULL:
                value_sql = stored_value(compiler.compile(value), value.type, column_type or t.ANY, check=False)
            elif column_type is not None:
                value_sql = f"NULL::{sql_type(column_type)}"
            results.append((entity,
                            f"(SELECT {target} AS id, {value_sql} AS v, {alias}.__ord AS __ord FROM {relation.sql}"
                            f" AS {alias}{compiler.context.join_text()} WHERE ({target}) IS NOT NULL)",
                            parameters.values))
        return results

    def _check_targets(self, item: b.BoundSetItem, rows_sql: str, values: list[Any]) -> None:
        """Run the type check of targets (`_targets`) that nothing is written to: a value that is no node or
        relationship is still an error on its row."""
        if item.target.type.kind not in (Kind.NODE, Kind.RELATIONSHIP, Kind.NULL):
            self.run.fetchone(f"SELECT count(*) FROM {rows_sql}", values)

    @staticmethod
    def _typed_id(compiler: ExpressionCompiler, target: b.BoundExpression, entity: str) -> str:
        value = compiler.variant(target)
        code = 7 if entity == "node" else 8
        # a virtual node or relationship (ADR-0071) is not in the graph: setting it is refused, never skipped
        return (f"CASE WHEN cy_virtual({value}) IS NOT NULL THEN {not_stored(entity)}"
                f" WHEN cy_kind({value}) = {code} THEN variant_extract({value}, "
                f"'\x01{'node' if entity == 'node' else 'rel'}')::BIGINT"
                f" WHEN cy_kind({value}) IN (0, 7, 8) THEN NULL ELSE error('CYPHER|TypeError|InvalidArgumentType|"
                f"expected a node or relationship') END")

    def _set_property(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        if not isinstance(item.key, str):
            return self._set_computed_key(item, relation)
        counters: Counter[str] = Counter()
        for entity in _target_entities(item):
            counters += self._set_property_for(entity, item, relation)
        return counters

    def _remove_property(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        if not isinstance(item.key, str):
            return self._set_computed_key(item, relation)
        counters: Counter[str] = Counter()
        for entity, rows_sql, values in self.targets(item, relation):
            column = self.store.catalog.column(entity, item.key)
            if column is None:
                self._check_targets(item, rows_sql, values)
                continue
            rows = self.run.materialize(rows_sql, [], values)
            table = "nodes" if entity == "node" else "rels"
            (count,) = self.run.fetchone(
                f"SELECT count(*) FROM {table} WHERE {column} IS NOT NULL AND id IN (SELECT id FROM {rows.sql})")
            self.run.execute(f"UPDATE {table} SET {column} = NULL WHERE id IN (SELECT id FROM {rows.sql})")
            self._wrote_key(entity, rows.sql, item.key)
            counters["properties_set"] += count
        return counters

    def _set_map(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        assert item.value is not None
        value = item.value
        if isinstance(value, b.BFunction) and value.name == "properties" and value.arguments[0].type.kind in (
                Kind.NODE, Kind.RELATIONSHIP):
            value = value.arguments[0]  # `SET a = properties(b)` is `SET a = b`
        replace_all = item.kind == "all"
        counters: Counter[str] = Counter()
        if value.type.kind in (Kind.NODE, Kind.RELATIONSHIP):
            source = "node" if value.type.kind is Kind.NODE else "relationship"
            entries = [(key, b.BProperty(value, key, type=self.store.catalog.column_type(source, key) or t.ANY,
                                         span=value.span))
                       for key in self.store.catalog.columns[source]]
        elif not (value.type.is_record or isinstance(value, b.BMap)):
            if not self._null_map(value, relation):
                entries, relation, present = self._runtime_entries(
                    relation, lambda compiler: to_variant(compiler.compile(value), value.type), value.span)
                if not replace_all:  # += writes a key only from the rows whose map holds it
                    return self._set_entries(item, entries, present, relation)
            else:
                entries = []  # null is the empty map: = removes all, += none
        else:
            entries = self._property_entries(value)
        entries, relation = self._entries_read_first(entries, relation)
        for entity in _target_entities(item):
            table = "nodes" if entity == "node" else "rels"
            keys = {key for key, _ in entries}
            # Copying another element's properties with += leaves keys it lacks alone; a map's null removes.
            skip_null = not replace_all and value.type.kind in (Kind.NODE, Kind.RELATIONSHIP)
            for key, entry in entries:
                single = b.BoundSetItem("property", item.target, key, entry, (), item.span)
                counters += self._set_property_for(entity, single, relation, skip_null=skip_null)
            if replace_all:
                for key, column in list(self.store.catalog.columns[entity].items()):
                    if key in keys:
                        continue
                    _, compiler, alias, parameters = self.compiler(relation)
                    target = compiler.entity_id(item.target, entity) if item.target.type.kind in (
                        Kind.NODE, Kind.RELATIONSHIP) else self._typed_id(compiler, item.target, entity)
                    ids = (f"(SELECT {target} AS id FROM {relation.sql} AS {alias}{compiler.context.join_text()}"
                           f" WHERE ({target}) IS NOT NULL)")
                    ids_table = self.run.materialize(ids, [], parameters.values)
                    (count,) = self.run.fetchone(
                        f"SELECT count(*) FROM {table} WHERE {column} IS NOT NULL"
                        f" AND id IN (SELECT id FROM {ids_table.sql})")
                    self.run.execute(f"UPDATE {table} SET {column} = NULL WHERE id IN (SELECT id FROM {ids_table.sql})")
                    self.run.changes.touch(entity, ids_table.sql, keys=[key])
                    self.run.changes.wrote(entity, keys=[key])
                    counters["properties_set"] += count
        return counters

    def _set_computed_key(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        """`SET x[key] = value` and `REMOVE x[key]` with a key read off the row: `SET x += {key: value}` with
        the one-entry map built on each row (a null value, and REMOVE, remove the property). A key that is
        not a string is the TypeError of the key a parameter gives; a row whose target is null writes nothing
        and reads no key, as in Neo4j."""
        assert isinstance(item.key, b.BoundExpression)
        key_expression = item.key

        def one_entry(compiler: ExpressionCompiler) -> str:
            value = "NULL" if item.value is None else compiler.variant(item.value)

            def build(target: str, key: str, entry: str) -> str:
                not_a_string = error_sql("TypeError", "InvalidArgumentType",
                                         f"'a property key must be a String, got ' || cy_type_name({key})")
                return (f"CASE WHEN coalesce(cy_kind({target}), 0) = 0 THEN NULL WHEN cy_kind({key}) = 4"
                        f" THEN CAST(json_object({key}::VARCHAR, CAST({entry} AS JSON)) AS VARIANT)"
                        f" ELSE {not_a_string} END")
            return let([compiler.variant(item.target), compiler.variant(key_expression), value], build)

        entries, table, present = self._runtime_entries(relation, one_entry, item.span)
        return self._set_entries(item, entries, present, table)

    def _runtime_entries(self, relation: Relation, map_sql: Callable[[ExpressionCompiler], str], span: Span
                         ) -> tuple[list[tuple[str, b.BoundExpression]], Relation, dict[str, str]]:
        """The entries of maps whose keys are only known as the statement runs (`SET n += row` over rows of
        different keys; `map_sql` compiles a row's map as a VARIANT): every row's map computed into a table, the
        keys any of them holds read from it, then one column per key, typed as its values are (one type of
        Cypher's: that type, so a typed property column stays typed; else ANY), with a flag per key saying
        whether the row's map holds it. Returns the entries (a variable per key), the table, and per key the
        SQL of its flag."""
        _, compiler, alias, parameters = self.compiler(relation)
        mapped = map_sql(compiler)
        not_a_map = error_sql("TypeError", "InvalidArgumentType",
                              "'SET = / += expects a map, got ' || cy_type_name(__m)")
        element = error_sql("UnsupportedFeature", "Unsupported",
                            "'SET = / += with a node or relationship known only at run time'")
        holder = f"__map{next(_ENTRY_COLUMNS)}"
        table = self.run.materialize(
            f"(SELECT * EXCLUDE (__m), CASE WHEN cy_kind(__m) IN (0, 6) THEN __m WHEN cy_kind(__m) IN (7, 8)"
            f" THEN {element} ELSE {not_a_map} END AS {holder} FROM (SELECT {alias}.*, {mapped} AS __m"
            f" FROM {relation.sql} AS {alias}{compiler.context.join_text()}))", relation.variables,
            parameters.values)
        kinds = self.run.fetchall(
            f"SELECT k, list(DISTINCT cy_kind(cy_map_get(m, k))) FROM (SELECT {holder} AS m,"
            f" unnest(variant_keys({holder})) AS k FROM {table.sql} WHERE cy_kind({holder}) = 6) GROUP BY k"
            f" ORDER BY k")
        parameters = Parameters()
        entries, columns, present = [], [], {}
        for key, codes in kinds:
            found = [code for code in codes if code != KIND_CODES["NULL"]]
            entry_type = (t.NULL if not found else
                          RUNTIME_TYPES.get(found[0], t.ANY) if len(found) == 1 else t.ANY)
            entry = Variable(f"entry {key}", entry_type, f"__entry{next(_ENTRY_COLUMNS)}")
            # a key whose values are all null is read as NULL: binding its name for a read not written would
            # leave DuckDB one parameter too many
            read = convert_from_variant(f"cy_map_get({holder}, {parameters.text(key)})", entry_type) if found \
                else "NULL"
            columns.append(f"{read} AS {entry.column}")
            columns.append(f"coalesce(list_contains(variant_keys({holder}), {parameters.text(key)}), false)"
                           f" AS {entry.column}_has")
            present[key] = f"{entry.column}_has"
            entries.append((key, b.BVariable(entry, type=entry_type, span=span)))
        variables = [*relation.variables, *(entry.variable for _, entry in entries if isinstance(entry, b.BVariable))]
        if not entries:
            return [], table, {}
        table = self.run.materialize(f"(SELECT *, {', '.join(columns)} FROM {table.sql})", variables,
                                     parameters.values)
        return entries, table, present

    def _set_entries(self, item: b.BoundSetItem, entries: list[tuple[str, b.BoundExpression]],
                     present: dict[str, str], relation: Relation) -> Counter[str]:
        """`SET n += map` from `_runtime_entries`: each key set from the rows whose map holds it (the last such
        row per element wins, as row after row would leave it; a null value removes the property)."""
        counters: Counter[str] = Counter()
        for entity in _target_entities(item):
            for key, entry in entries:
                holding = Relation(f"(SELECT * FROM {relation.sql} WHERE {present[key]})", relation.variables)
                single = b.BoundSetItem("property", item.target, key, entry, (), item.span)
                counters += self._set_property_for(entity, single, holding)
        return counters

    def _null_map(self, value: b.BoundExpression, relation: Relation) -> bool:
        """Whether `SET x = value` / `+= value` sets no key on any row: the value is null, or of a type read off
        data that holds no map (then a non-null value on a row is the type error Neo4j raises at run time)."""
        if not b.never_a_map(value):
            return False
        if value.type.kind is Kind.NULL:
            return True
        _, compiler, alias, parameters = self.compiler(relation)
        checked = compiler.mismatch(value, "Map", "VARIANT")
        # in the SELECT list, computed on the rows alone (DuckDB may push a WHERE into a joined table's scan)
        self.run.fetchone(f"SELECT count({checked}) FROM {relation.sql} AS {alias}{compiler.context.join_text()}",
                          parameters.values)
        return True

    def _entries_read_first(self, entries: list[tuple[str, b.BoundExpression]], relation: Relation
                            ) -> tuple[list[tuple[str, b.BoundExpression]], Relation]:
        """A map is one value: `SET n += {a: n.b, b: n.a}` reads both entries before writing either key. Entries
        that read what the map writes are computed over all rows first, into a table the keys are written from."""
        written = {key for key, _ in entries}
        if not any(_reads_graph(entry, written) for _, entry in entries):
            return entries, relation
        _, compiler, alias, parameters = self.compiler(relation)
        holders = [Variable(f"entry {key}", entry.type, f"__entry{next(_ENTRY_COLUMNS)}") for key, entry in entries]
        values = ", ".join(f"{compiler.compile(entry)} AS {holder.column}"
                           for holder, (_, entry) in zip(holders, entries, strict=True))
        table = self.run.materialize(f"(SELECT {alias}.*, {values} FROM {relation.sql} AS {alias}"
                                     f"{compiler.context.join_text()})", [*relation.variables, *holders],
                                     parameters.values)
        return [(key, b.BVariable(holder, type=entry.type, span=entry.span))
                for holder, (key, entry) in zip(holders, entries, strict=True)], table

    def _set_property_for(self, entity: str, item: b.BoundSetItem, relation: Relation, *,
                          skip_null: bool = False) -> Counter[str]:
        """`SET x.key = value` for the targets that are of `entity` kind; setting null removes."""
        assert item.value is not None and isinstance(item.key, str)
        if is_storable(item.value.type) is False:
            raise CypherTypeError("property values can only be of primitive types or arrays thereof",
                                  item.value.span, detail="InvalidPropertyType")
        counters: Counter[str] = Counter()
        if item.value.type.kind is Kind.NULL:
            column = self.store.catalog.column(entity, item.key)
        else:
            column = self.store.ensure_property_column(entity, item.key, item.value.type)
        if column is None:
            for _, rows_sql, values in self.targets(item, relation):
                self._check_targets(item, rows_sql, values)
            return counters
        column_type = self.store.catalog.column_type(entity, item.key)
        once = self._at_most_one_row(relation) or _target_id(item) in relation.unique  # each target once
        unindexed = once and not self.run.changes.records(entity, keys=[item.key])
        updated = self._update_in_place(entity, item, relation, column, column_type or t.ANY) \
            if unindexed and not skip_null else None
        if updated is not None:
            self.run.changes.wrote(entity, keys=[item.key])
            return Counter({"properties_set": updated})
        for target_entity, rows_sql, values in self.targets(item, relation, item.value, {entity: column_type}):
            if target_entity != entity or self._known_rows(relation) == 0:  # no row: nothing to write
                continue
            if skip_null:
                rows_sql = f"(SELECT * FROM {rows_sql} WHERE v IS NOT NULL)"
            table = "nodes" if entity == "node" else "rels"
            # `s.v` is already in the column's representation (converted by `_targets`).
            checked = stored_value("s.v", column_type or t.ANY, column_type or t.ANY)
            if unindexed:
                counters["properties_set"] += self._update_one_target(rows_sql, table, column, checked, values)
                self.run.changes.wrote(entity, keys=[item.key])
                continue
            if not once:
                counters["properties_set"] += self._write_per_target(
                    entity, rows_sql, values, [item.key], [column], [column_type or t.ANY], ["v"])
                continue
            rows, count = self._one_target(rows_sql, table, column, values)
            self.run.execute(f"UPDATE {table} SET {column} = {checked} FROM {rows.sql} AS s WHERE {table}.id = s.id")
            self._wrote_key(entity, rows.sql, item.key)
            counters["properties_set"] += count
        return counters

    def _wrote_key(self, entity: str, rows_sql: str, key: str) -> None:
        """Tell the change log that `key` of the elements in `rows_sql` was written (indexes follow it)."""
        self.run.changes.touch(entity, rows_sql, keys=[key])
        self.run.changes.wrote(entity, keys=[key])

    def _set_labels(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        return self._change_labels(item, relation, add=True)

    def _remove_labels(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        return self._change_labels(item, relation, add=False)

    def _change_labels(self, item: b.BoundSetItem, relation: Relation, *, add: bool) -> Counter[str]:
        """SET n:A / REMOVE n:A. A label counts once per node it is really added to (appended, so labels
        keep the order they were added in) or removed from. The labels are the item's own, then those a
        dynamic part read off the row gives (`SET n:$(row.type)`: each row's string or list of strings)."""
        counters: Counter[str] = Counter()
        for entity, rows_sql, values in self.targets(item, relation, item.value):
            if entity != "node":
                continue
            rows = self.run.materialize(rows_sql, [], values)
            if item.labels:
                parameters = Parameters()
                labels = "[" + ", ".join(parameters.text(label) for label in item.labels) + "]::VARCHAR[]"
                pairs = f"(SELECT r.id, x.l, 0 AS __ord FROM {rows.sql} AS r, (SELECT unnest({labels}) AS l) AS x)"
                counters += self._apply_labels(pairs, parameters.values, add=add)
                self.run.changes.touch("node", rows.sql, labels=item.labels)
                if add:
                    self.run.changes.wrote("node", labels=item.labels)
            if item.value is not None:
                names = label_list_sql("v")
                pairs = (f"(SELECT id, unnest({names}) AS l, __ord FROM (SELECT id, v::VARIANT AS v, __ord"
                         f" FROM {rows.sql}))")
                counters += self._apply_labels(pairs, [], add=add)
                self.run.changes.touch("node", rows.sql)
                if add:
                    self.run.changes.wrote("node")
        return counters

    def _apply_labels(self, pairs_sql: str, values: list[Any], *, add: bool) -> Counter[str]:
        """Add or remove the labels of (id, l, __ord) `pairs_sql` to or from their nodes, in `__ord` order, each
        counted where it changes a node."""
        pairs = self.run.materialize(pairs_sql, [], values)
        changes = "NOT list_contains(n.labels, p.l)" if add else "list_contains(n.labels, p.l)"
        (count,) = self.run.fetchone(f"SELECT count(*) FROM (SELECT DISTINCT id, l FROM {pairs.sql}) AS p"
                                     f" JOIN nodes AS n ON n.id = p.id WHERE {changes}")
        end_labels.labels_changing(self.run, f"(SELECT DISTINCT p.id, p.l FROM {pairs.sql} AS p JOIN nodes AS n"
                                             f" ON n.id = p.id WHERE {changes})", added=add)
        per_node = f"(SELECT id, list(l ORDER BY __ord) AS ls FROM {pairs.sql} WHERE l IS NOT NULL GROUP BY id)"
        new_labels = ("list_concat(nodes.labels, list_filter(list_distinct_ordered(p.ls),"
                      " lambda l: NOT list_contains(nodes.labels, l)))" if add else
                      "list_filter(nodes.labels, lambda l: NOT list_contains(p.ls, l))")
        self.run.execute(f"UPDATE nodes SET labels = {new_labels} FROM {per_node} AS p WHERE nodes.id = p.id")
        return Counter({"labels_added" if add else "labels_removed": count})


_ENTRY_COLUMNS = itertools.count()
"""Names of the columns a SET's map entries are computed into (`_entries_read_first`)."""


def _reads_graph(expression: Any, written: set[str] | None = None) -> bool:
    """Whether `expression` may read a property, label or relationship that a write can change: it reads
    a variable that is or may hold a graph element, or runs a subquery. With `written`, the property keys
    the writes change, `n.key` of a node or relationship variable reads the graph only for those keys."""
    if isinstance(expression, b.BSubquery):
        return True
    if written is not None and isinstance(expression, b.BProperty) and isinstance(expression.subject, b.BVariable) \
            and expression.subject.type.kind in (Kind.NODE, Kind.RELATIONSHIP):
        return expression.key in written
    if isinstance(expression, b.BVariable):
        return may_hold_element(expression.variable.type)
    if not isinstance(expression, b.BoundExpression):
        return False
    return any(_reads_graph(child, written) for child in b.children(expression))


def _written_keys(items: list[b.BoundSetItem]) -> set[str] | None:
    """The property keys SET items write (None: any, for `=` and `+=` of a map)."""
    keys: set[str] = set()
    for item in items:
        if item.kind in ("all", "merge") or (item.kind in ("property", "remove_property")
                                             and not isinstance(item.key, str)):
            return None
        if item.kind in ("property", "remove_property"):
            keys.add(item.key)
    return keys


def _last_values_sql(rows_sql: str, names: list[str]) -> str:
    """One row per target (`id`) of the assignments in `rows_sql` (columns `id`, `names` and `__ord`), each value
    its last row's: Neo4j writes row by row, so the last write wins, null or not."""
    columns = ", ".join(f"arg_max_null({name}, __ord) AS {name}" for name in names)
    return f"(SELECT id, {columns} FROM {rows_sql} GROUP BY id)"


def _target_id(item: b.BoundSetItem) -> int | None:
    """The variable (by id) an item writes to, None where its target is an expression."""
    return id(item.target.variable) if isinstance(item.target, b.BVariable) else None


def _property_groups(items: list[b.BoundSetItem]) -> list[list[b.BoundSetItem]]:
    """The items in order, consecutive `_groupable` items on one variable with distinct keys grouped when
    none reads a key an earlier one of the group writes: a single UPDATE of them then gives what one item
    after another would."""
    groups: list[list[b.BoundSetItem]] = []
    for item in items:
        last = groups[-1] if groups else []
        if last and _groupable(item) and _groupable(last[0]) and last[0].target.variable is item.target.variable \
                and all(other.key != item.key for other in last) \
                and not _reads_graph(item.value, {other.key for other in last}):
            last.append(item)
        else:
            groups.append([item])
    return groups


def _groupable(item: b.BoundSetItem) -> bool:
    """`SET v.key = value` on a node or relationship variable, the value always storable (so no item's
    static error could come before an earlier item's run-time one). A group's items must also not read
    what an earlier item of it writes (`_property_groups`)."""
    return (item.kind == "property" and isinstance(item.key, str) and isinstance(item.target, b.BVariable)
            and item.target.type.kind in (Kind.NODE, Kind.RELATIONSHIP) and item.value is not None
            and item.value.type.kind is not Kind.NULL and is_storable(item.value.type) is True)


def _target_entities(item: b.BoundSetItem) -> list[str]:
    kind = item.target.type.kind
    return ["node"] if kind is Kind.NODE else ["relationship"] if kind is Kind.RELATIONSHIP else [
        "node", "relationship"]


SetHandler = Callable[[SetWriter, b.BoundSetItem, Relation], Counter[str]]
SET_ITEMS: dict[str, SetHandler] = {
    "property": SetWriter._set_property,
    "remove_property": SetWriter._remove_property,
    "all": SetWriter._set_map,
    "merge": SetWriter._set_map,
    "labels": SetWriter._set_labels,
    "remove_labels": SetWriter._remove_labels,
}
