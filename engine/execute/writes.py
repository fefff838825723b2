"""Updating clauses, each set-based over the whole binding table of the clause before it.

A write clause runs a few SQL statements: INSERTs of every new node and relationship at once (ids from
the catalog's counters, in row order), UPDATEs that take the last row's value per entity, DELETEs of id
sets. Counters are counted in SQL too. MERGE groups the rows that found no match by everything the
pattern depends on, creates one pattern per group for its first row, and lets the group's later rows
match what that row created, which is Neo4j's row-by-row outcome (ADR-0006).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import types as t
from engine.errors import CypherSyntaxError, CypherTypeError, UnsupportedFeature
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import DELETED_TABLES, ExpressionCompiler, entity_id_of, to_variant
from engine.sqlgen.generator import QueryCompiler
from engine.sqlgen.keys import group_key_parts
from engine.sqlgen.relation import Relation
from engine.sqlgen.runtime import error_sql
from engine.storage.schema import ENTITY_TABLES
from engine.syntax import ast
from engine.types import CypherType, Kind, is_storable, is_variant, sql_type

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun


@dataclass
class WriteResult:
    relation: Relation
    counters: Counter[str] = field(default_factory=Counter)


def label_names(expression: ast.LabelExpression | None, span: Any) -> list[str]:
    """The labels a node pattern to be created names: `:A:B` or `:A&B`, never `|` or `!`."""
    if expression is None:
        return []
    if isinstance(expression, ast.LabelName):
        return [expression.name]
    if isinstance(expression, ast.LabelAnd):
        return label_names(expression.left, span) + label_names(expression.right, span)
    raise CypherSyntaxError("label expressions with |, ! or % cannot be used to create nodes", span,
                            detail="InvalidLabelExpression")


@dataclass(frozen=True)
class NewId:
    """The id of an element a CREATE makes on each input row: the block of ids the statement allocated
    (`base`), `per_row` of them for each row in `__rank` order, this element the `index`-th of its row's."""

    base: int
    per_row: int
    index: int

    def sql(self, rank: str = "__rank") -> str:
        """The id on the row whose rank (1, 2, ...) the SQL `rank` reads."""
        return f"({self.base} + ({rank} - 1) * {self.per_row} + {self.index})"


class Writer:
    """Runs the updating clauses of one statement."""

    def __init__(self, run: StatementRun) -> None:
        self.run = run

    @property
    def store(self) -> Any:
        return self.run.store

    def compiler(self, relation: Relation) -> tuple[QueryCompiler, ExpressionCompiler, str, Parameters]:
        parameters = Parameters()
        queries = QueryCompiler(self.store.catalog, parameters)
        queries.aliases = self.run.aliases
        queries.tombstones = self.run.deleted_any
        alias = queries.alias()
        context = queries.context_for(relation, alias)
        return queries, ExpressionCompiler(context, queries), alias, parameters

    # -- CREATE -------------------------------------------------------------------------------------

    def create(self, clause: b.BCreate, relation: Relation) -> WriteResult:
        return self.create_paths(clause.paths, relation)

    def create_paths(self, paths: list[b.BoundPath], relation: Relation, *,
                     ranked_rows: int | None = None) -> WriteResult:
        """The paths created once per row of `relation`. With `ranked_rows`, `relation` already has
        `__rank`, 1 to `ranked_rows` in row order."""
        if ranked_rows is None:
            ranked, rows = self._ranked(relation)
        else:
            ranked, rows = relation, ranked_rows
        new_nodes: list[b.BoundNode] = []
        seen: set[int] = set()
        for path in paths:
            for node in path.nodes:
                if node.is_new and id(node.variable) not in seen:
                    seen.add(id(node.variable))
                    new_nodes.append(node)
        new_rels = [rel for path in paths for rel in path.relationships]
        counters: Counter[str] = Counter()
        node_base = self.store.allocate_ids("node", rows * len(new_nodes)) if new_nodes and rows else 0
        rel_base = self.store.allocate_ids("relationship", rows * len(new_rels)) if new_rels and rows else 0
        id_sql: dict[int, NewId] = {}
        for index, node in enumerate(new_nodes):
            id_sql[id(node.variable)] = NewId(node_base, len(new_nodes), index)
        for index, rel in enumerate(new_rels):
            id_sql[id(rel.variable)] = NewId(rel_base, len(new_rels), index)
        if rows:
            hops = [(rel, path.nodes[index], path.nodes[index + 1])
                    for path in paths for index, rel in enumerate(path.relationships)]
            new_ids = set(id_sql)
            if any(b.reads_any(element.properties, new_ids) for element in [*new_nodes, *new_rels]):
                # A property reads an element this CREATE makes: insert one element at a time, in order.
                for node in new_nodes:
                    counters += self._insert_node(node, ranked, id_sql)
                for rel, left, right in hops:
                    counters += self._insert_relationship(rel, left, right, ranked, id_sql)
            else:
                counters += self._insert_nodes(new_nodes, ranked, id_sql, node_base, rows)
                counters += self._insert_relationships(hops, ranked, id_sql, rel_base, rows)
            self._record_created([*new_nodes, *new_rels])
        columns = [f"q.{v.column}" for v in relation.variables]
        new_variables: list[Variable] = []
        for node in new_nodes:
            if not node.variable.anonymous:
                columns.append(f"{id_sql[id(node.variable)].sql()} AS {node.variable.column}")
                new_variables.append(node.variable)
        for rel in new_rels:
            if not rel.variable.anonymous:
                columns.append(f"{id_sql[id(rel.variable)].sql()} AS {rel.variable.column}")
                new_variables.append(rel.variable)
        for path in paths:
            if path.variable is not None:
                node_ids = ", ".join(self._endpoint_sql(node, id_sql, "q") for node in path.nodes)
                rel_ids = ", ".join(id_sql[id(rel.variable)].sql() for rel in path.relationships)
                columns.append(f"struct_pack(nodes := [{node_ids}], rels := [{rel_ids}]::BIGINT[])"
                               f" AS {path.variable.column}")
                new_variables.append(path.variable)
        # a projection of a stored table: the next clause reads it, nothing is copied
        output = Relation(f"(SELECT {', '.join([*columns, 'q.__ord'])} FROM {ranked.sql} AS q)",
                          relation.variables + new_variables)
        return WriteResult(output, counters)

    def _record_created(self, elements: list[b.BoundNode | b.BoundRelationship]) -> None:
        """Tell the constraint checks what the new elements are: their labels (type) and property keys."""
        for element in elements:
            entries = self._property_entries(element.properties)
            keys = [key for key, value in entries if value.type.kind is not Kind.NULL]
            if isinstance(element, b.BoundNode):
                self.run.changes.wrote("node", labels=label_names(element.labels, element.span), keys=keys,
                                        created=True)
            else:
                assert isinstance(element.types, ast.LabelName)
                self.run.changes.wrote("relationship", labels=[element.types.name], keys=keys, created=True)

    def _stored_rows(self, relation: Relation) -> Relation:
        """`relation` as a table, which a clause reading its rows several times needs (copied only if it is
        a SELECT)."""
        return relation if _stored(self.run, relation) else self.run.materialize(relation.sql, relation.variables)

    def _ranked(self, relation: Relation) -> tuple[Relation, int]:
        """The rows with `__rank`, their 1-based position in `__ord` order (new ids are numbered by it),
        and how many they are. A table of this statement whose `__ord` is already 1..n (what a clause
        before leaves) is used as it is; anything else is numbered into a new table."""
        if relation.sql in self.run.dense:
            rows = self.run.row_counts[relation.sql]
            return Relation(f"(SELECT *, __ord AS __rank FROM {relation.sql})", relation.variables), rows
        if _stored(self.run, relation):
            rows, distinct, first, last = self.run.fetchone(
                f"SELECT count(*), count(DISTINCT __ord), min(__ord), max(__ord) FROM {relation.sql}")
            if rows == 0 or (rows == distinct == last and first == 1):
                return Relation(f"(SELECT *, __ord AS __rank FROM {relation.sql})", relation.variables), rows
        ranked = self.run.materialize(f"(SELECT *, row_number() OVER (ORDER BY __ord) AS __rank FROM {relation.sql})",
                                      relation.variables)
        return ranked, self.run.row_counts[ranked.sql]

    def _endpoint_sql(self, node: b.BoundNode, id_sql: dict[int, NewId], alias: str, rank: str = "__rank") -> str:
        """The id of a relationship's end node: one this CREATE makes (numbered by `rank`), or a bound
        variable's node (a variable not typed as a node is checked on each row: a value that is no node is a
        type error)."""
        if id(node.variable) in id_sql:
            return id_sql[id(node.variable)].sql(rank)
        return entity_id_of(f"{alias}.{node.variable.column}", node.variable.type, "node")

    def _property_entries(self, properties: b.BoundExpression | None) -> list[tuple[str, b.BoundExpression]]:
        if properties is None:
            return []
        if isinstance(properties, b.BMap):
            return list(properties.entries)
        if properties.type.is_record:
            return [(key, b.BProperty(properties, key, type=value_type, span=properties.span))
                    for key, value_type in properties.type.fields or ()]
        if properties.type.kind is Kind.NULL:
            return []
        raise UnsupportedFeature("creating properties from a map whose keys are only known at run time",
                                 properties.span)

    def _property_values(self, compiler: ExpressionCompiler, entity: str,
                         entries: list[tuple[str, b.BoundExpression]]) -> list[tuple[str, str]]:
        """(column, SQL) for each property to store; null values are skipped, as CREATE skips them."""
        values = []
        for key, value in entries:
            if value.type.kind is Kind.NULL:
                continue
            if is_storable(value.type) is False:
                raise CypherTypeError(f"property values can only be of primitive types or arrays thereof "
                                      f"(`{key}` is {value.type!r})", value.span, detail="InvalidPropertyType")
            column = self.store.ensure_property_column(entity, key, value.type)
            column_type = self.store.catalog.column_type(entity, key)
            values.append((column, stored_value(compiler.compile(value), value.type, column_type)))
        return values

    def _insert_nodes(self, nodes: list[b.BoundNode], ranked: Relation, id_sql: dict[int, NewId], base: int,
                      rows: int) -> Counter[str]:
        """All the nodes a CREATE makes, for every row, in one INSERT (a UNION ALL of one SELECT per
        node pattern); properties counted from the inserted rows."""
        counters: Counter[str] = Counter()
        if not nodes:
            return counters
        entries = [self._property_entries(node.properties) for node in nodes]
        self._ensure_columns("node", entries)
        parameters = Parameters()
        select, columns = self._element_rows(nodes, entries, ranked, id_sql, parameters, "node")
        self.run.execute(f"INSERT INTO nodes (id, labels{''.join(', ' + c for c in columns)}) {select}",
                         parameters.values)
        counters["nodes_created"] += rows * len(nodes)
        counters["labels_added"] += rows * sum(len(label_names(node.labels, node.span)) for node in nodes)
        counters["properties_set"] += self._count_properties("nodes", columns, base, rows * len(nodes))
        return counters

    def _insert_relationships(self, hops: list[tuple[b.BoundRelationship, b.BoundNode, b.BoundNode]],
                              ranked: Relation, id_sql: dict[int, NewId], base: int, rows: int) -> Counter[str]:
        counters: Counter[str] = Counter()
        if not hops:
            return counters
        entries = [self._property_entries(rel.properties) for rel, _, _ in hops]
        self._ensure_columns("relationship", entries)
        parameters = Parameters()
        select, columns = self._element_rows(hops, entries, ranked, id_sql, parameters, "relationship")
        self.run.execute(f"INSERT INTO rels (id, type, src, dst{''.join(', ' + c for c in columns)}) {select}",
                         parameters.values)
        counters["relationships_created"] += rows * len(hops)
        counters["properties_set"] += self._count_properties("rels", columns, base, rows * len(hops))
        return counters

    def _ensure_columns(self, entity: str, entries: list[list[tuple[str, b.BoundExpression]]]) -> None:
        """Make every column first, so that no later element widens a column an earlier SELECT typed."""
        for element_entries in entries:
            for key, value in element_entries:
                if value.type.kind is not Kind.NULL:
                    if is_storable(value.type) is False:
                        raise CypherTypeError(f"property values can only be of primitive types or arrays thereof "
                                              f"(`{key}` is {value.type!r})", value.span,
                                              detail="InvalidPropertyType")
                    self.store.ensure_property_column(entity, key, value.type)

    def _element_rows(self, elements: list[Any], entries: list[list[tuple[str, b.BoundExpression]]],
                      ranked: Relation, id_sql: dict[int, NewId], parameters: Parameters,
                      entity: str) -> tuple[str, list[str]]:
        """One SELECT yielding a row per (input row, element): each input row unnests a list holding one
        struct per element of the pattern. (A UNION ALL of one SELECT per element took DuckDB seconds
        to plan for a script of hundreds of CREATEs.)"""
        catalog = self.store.catalog
        keys = sorted({key for element_entries in entries for key, value in element_entries
                       if value.type.kind is not Kind.NULL})
        columns = [catalog.columns[entity][key] for key in keys]
        queries = QueryCompiler(catalog, parameters)
        queries.aliases = self.run.aliases
        alias = queries.alias()
        compiler = ExpressionCompiler(queries.context_for(ranked, alias), queries)
        rank = f"{alias}.__rank"
        structs = []
        for element, element_entries in zip(elements, entries, strict=True):
            values = {key: value for key, value in element_entries if value.type.kind is not Kind.NULL}
            stored = []
            for key in keys:
                column_type = catalog.column_type(entity, key) or t.ANY
                if key in values:
                    stored.append(stored_value(compiler.compile(values[key]), values[key].type, column_type))
                else:
                    stored.append(f"NULL::{sql_type(column_type)}")
            if entity == "node":
                labels = label_names(element.labels, element.span)
                label_sql = "[" + ", ".join(parameters.text(label) for label in labels) + "]::VARCHAR[]"
                head = [id_sql[id(element.variable)].sql(rank), label_sql]
            else:
                rel, left, right = element
                assert isinstance(rel.types, ast.LabelName)
                start = self._endpoint_sql(left, id_sql, alias, rank)
                end = self._endpoint_sql(right, id_sql, alias, rank)
                if rel.direction == "left":
                    start, end = end, start
                missing = error_sql("SemanticError", "CreateRelationshipWithNullNode",
                                    "'failed to create a relationship: a node is null'")
                head = [id_sql[id(rel.variable)].sql(rank), parameters.text(rel.types.name),
                        f"coalesce({start}, {missing})", f"coalesce({end}, {missing})"]
            structs.append("struct_pack(" + ", ".join(f"c{i} := {sql}" for i, sql in enumerate([*head, *stored]))
                           + ")")
        # max_depth 2: the element structs become columns, STRUCT-typed values (temporal) stay whole.
        select = (f"SELECT unnest([{', '.join(structs)}], max_depth := 2) FROM {ranked.sql} AS {alias}"
                  f"{compiler.context.join_text()}")
        return select, columns

    def _count_properties(self, table: str, columns: list[str], first_id: int, count: int) -> int:
        if not columns or not count:
            return 0
        present = " + ".join(f"({column} IS NOT NULL)::INTEGER" for column in columns)
        (total,) = self.run.fetchone(
            f"SELECT coalesce(sum({present}), 0) FROM {table} WHERE id >= {first_id} AND id < {first_id + count}")
        return int(total)

    def _insert_node(self, node: b.BoundNode, ranked: Relation, id_sql: dict[int, NewId]) -> Counter[str]:
        labels = label_names(node.labels, node.span)
        _, compiler, alias, parameters = self.compiler(ranked)
        for variable_id, new_id in id_sql.items():
            compiler.context.variables[variable_id] = new_id.sql(f"{alias}.__rank")
        values = self._property_values(compiler, "node", self._property_entries(node.properties))
        columns = [column for column, _ in values]
        label_sql = "[" + ", ".join(parameters.text(label) for label in labels) + "]::VARCHAR[]"
        own_id = id_sql[id(node.variable)].sql(f"{alias}.__rank")
        select = ", ".join([own_id, label_sql, *[sql for _, sql in values]])
        self.run.execute(
            f"INSERT INTO nodes (id, labels{''.join(', ' + c for c in columns)}) SELECT {select}"
            f" FROM {ranked.sql} AS {alias}{compiler.context.join_text()}", parameters.values)
        counters: Counter[str] = Counter()
        (count,) = self.run.fetchone(f"SELECT count(*) FROM {ranked.sql}")
        counters["nodes_created"] += count
        counters["labels_added"] += count * len(labels)
        if columns:
            (props,) = self.run.fetchone(
                f"SELECT coalesce(sum({' + '.join(f'({c} IS NOT NULL)::INTEGER' for c in columns)}), 0)"
                f" FROM nodes WHERE id IN (SELECT {own_id} FROM {ranked.sql} AS {alias})")
            counters["properties_set"] += props
        return counters

    def _insert_relationship(self, rel: b.BoundRelationship, left: b.BoundNode, right: b.BoundNode,
                             ranked: Relation, id_sql: dict[int, NewId]) -> Counter[str]:
        assert isinstance(rel.types, ast.LabelName)
        _, compiler, alias, parameters = self.compiler(ranked)
        for variable_id, new_id in id_sql.items():
            compiler.context.variables[variable_id] = new_id.sql(f"{alias}.__rank")
        values = self._property_values(compiler, "relationship", self._property_entries(rel.properties))
        columns = [column for column, _ in values]
        start = self._endpoint_sql(left, id_sql, alias, f"{alias}.__rank")
        end = self._endpoint_sql(right, id_sql, alias, f"{alias}.__rank")
        if rel.direction == "left":
            start, end = end, start
        own_id = id_sql[id(rel.variable)].sql(f"{alias}.__rank")
        missing = ("error('CYPHER|SemanticError|CreateRelationshipWithNullNode|"
                   "failed to create a relationship: a node is null')")
        type_sql = parameters.text(rel.types.name)
        select = ", ".join([own_id, type_sql, f"coalesce({start}, {missing})", f"coalesce({end}, {missing})",
                            *[sql for _, sql in values]])
        self.run.execute(
            f"INSERT INTO rels (id, type, src, dst{''.join(', ' + c for c in columns)}) SELECT {select}"
            f" FROM {ranked.sql} AS {alias}{compiler.context.join_text()}", parameters.values)
        counters: Counter[str] = Counter()
        (count,) = self.run.fetchone(f"SELECT count(*) FROM {ranked.sql}")
        counters["relationships_created"] += count
        if columns:
            (props,) = self.run.fetchone(
                f"SELECT coalesce(sum({' + '.join(f'({c} IS NOT NULL)::INTEGER' for c in columns)}), 0)"
                f" FROM rels WHERE id IN (SELECT {own_id} FROM {ranked.sql} AS {alias})")
            counters["properties_set"] += props
        return counters

    # -- MERGE --------------------------------------------------------------------------------------

    def merge(self, clause: b.BMerge, relation: Relation) -> WriteResult:
        path = clause.path
        self._check_merge_sets(clause)
        table = self._stored_rows(relation)
        queries, compiler, alias, parameters = self.compiler(table)
        match_sql, _ = queries.pattern_rows([path], table, compiler, alias)
        matched = self.run.materialize(f"({match_sql})", [], parameters.values)
        unmatched = Relation(f"(SELECT * FROM {table.sql} WHERE __ord NOT IN (SELECT __parent FROM {matched.sql}))",
                             relation.variables)
        keyed, key_names = self._keyed_rows(path, unmatched)
        # one row per pattern to create: its key, its first row, and its rank among them (new ids follow it)
        group = ", ".join(key_names)
        representatives = self.run.materialize(
            f"(SELECT {group + ', ' if group else ''}min(__ord) AS __rep,"
            f" row_number() OVER (ORDER BY min(__ord)) AS __rank FROM {keyed.sql}"
            f"{' GROUP BY ' + group if group else ''} HAVING count(*) > 0)", [])
        creating = self.run.row_counts[representatives.sql]
        created = self.create_paths(
            [path], Relation(f"(SELECT t.*, r.__rank FROM {table.sql} AS t JOIN {representatives.sql} AS r"
                             f" ON t.__ord = r.__rep)", relation.variables), ranked_rows=creating)
        counters: Counter[str] = Counter(created.counters)
        new_variables = [v for v in created.relation.variables if all(v is not w for w in relation.variables)]
        old = [v.column for v in relation.variables]
        new = [v.column for v in new_variables]
        matched_rows = (f"SELECT {_columns('t', old)}{_columns('m', new)}false AS __created, t.__ord AS __o1,"
                        f" m.__k AS __o2 FROM {table.sql} AS t JOIN {matched.sql} AS m ON m.__parent = t.__ord")
        join_keys = " AND ".join(f"u.{k} IS NOT DISTINCT FROM r.{k}" for k in key_names) or "true"
        created_rows = (f"SELECT {_columns('u', old)}{_columns('c', new)}u.__ord = r.__rep AS __created,"
                        f" u.__ord AS __o1, 0 AS __o2 FROM {keyed.sql} AS u JOIN {representatives.sql} AS r"
                        f" ON {join_keys} JOIN {created.relation.sql} AS c ON c.__ord = r.__rep")
        combined_sql = (f"(SELECT * EXCLUDE (__o1, __o2), row_number() OVER (ORDER BY __o1, __o2) AS __ord FROM"
                        f" ({matched_rows} UNION ALL {created_rows}))")
        if not (clause.on_create or clause.on_match):  # read once, by the next clause: not stored
            return WriteResult(Relation(f"(SELECT * EXCLUDE (__created) FROM {combined_sql})",
                                        relation.variables + new_variables), counters)
        combined = self.run.materialize(combined_sql, relation.variables + new_variables, dense=True)
        for items, created_flag in ((clause.on_create, "true"), (clause.on_match, "false")):
            if items:
                subset = Relation(f"(SELECT * FROM {combined.sql} WHERE __created = {created_flag})",
                                  combined.variables)
                counters += self.set_items(items, subset).counters
        return WriteResult(Relation(f"(SELECT * EXCLUDE (__created) FROM {combined.sql})", combined.variables),
                           counters)

    def _check_merge_sets(self, clause: b.BMerge) -> None:
        """Refuse ON MATCH SET of a property the pattern matches on: later rows would see earlier rows'
        writes, which set-based matching cannot reproduce."""
        matched_keys: set[tuple[int, str]] = set()
        for element in [*clause.path.nodes, *clause.path.relationships]:
            if isinstance(element.properties, b.BMap):
                for key, _ in element.properties.entries:
                    matched_keys.add((id(element.variable), key))
        for item in clause.on_match:
            if isinstance(item.target, b.BVariable) and isinstance(item.key, str) and (
                    id(item.target.variable), item.key) in matched_keys:
                raise UnsupportedFeature("ON MATCH SET of a property the MERGE pattern matches on", item.span)

    def _keyed_rows(self, path: b.BoundPath, unmatched: Relation) -> tuple[Relation, list[str]]:
        """The unmatched rows with one key column per thing the created pattern depends on: the bound
        variables it connects and its property values. Rows with equal keys create one pattern."""
        _, compiler, alias, parameters = self.compiler(unmatched)
        keys: list[str] = []
        property_keys: list[tuple[str, str]] = []
        elements: list[b.BoundNode | b.BoundRelationship] = [*path.nodes, *path.relationships]
        seen: set[int] = set()
        for element in elements:
            if not element.is_new and id(element.variable) not in seen:
                seen.add(id(element.variable))
                reference = b.BVariable(element.variable, type=element.variable.type, span=element.span)
                keys.append(f"{compiler.compile(reference)} AS k{len(keys)}")
        key_of: dict[str, Callable[[str], str]] = {}
        for element in elements:
            for key, value in self._property_entries(element.properties):
                name = f"k{len(keys)}"
                sql, key_of[name] = group_key_parts(compiler.compile(value), value.type)
                keys.append(f"{sql} AS {name}")
                property_keys.append((key, f"{name} IS NULL"))
        columns = "".join(f", {key}" for key in keys)
        where = ""
        if property_keys:
            # a row that would create a pattern with a null property fails the statement
            nulls = " OR ".join(condition for _, condition in property_keys)
            names = ", ".join(key for key, _ in property_keys)
            refused = error_sql("SemanticError", "MergeReadOwnWrites", parameters.text(
                f"cannot merge a pattern with a null property value ({names})"))
            where = f" WHERE CASE WHEN {nulls} THEN {refused} ELSE true END"
        # a property value's key is taken above the SELECT that computes it (`group_key_parts`)
        key_columns = "".join(f", {key(name)} AS {name}" for name, key in key_of.items())
        keyed = self.run.materialize(
            f"(SELECT * REPLACE ({key_columns[2:]}) FROM (SELECT {alias}.*{columns} FROM {unmatched.sql} AS {alias}"
            f"{compiler.context.join_text()}){where})" if key_of else
            f"(SELECT {alias}.*{columns} FROM {unmatched.sql} AS {alias}{compiler.context.join_text()}{where})",
            unmatched.variables, parameters.values)
        return keyed, [f"k{i}" for i in range(len(keys))]

    # -- SET / REMOVE --------------------------------------------------------------------------------

    def set_clause(self, clause: b.BSet, relation: Relation) -> WriteResult:
        table = self._stored_rows(relation)
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
        are always storable (`_property_groups`): one table of the targets and values, one count, one
        UPDATE, where an item at a time would take three statements each."""
        target = items[0].target
        entity = "node" if target.type.kind is Kind.NODE else "relationship"
        table = ENTITY_TABLES[entity]
        catalog = self.store.catalog
        columns = [self.store.ensure_property_column(entity, item.key, item.value.type) for item in items]
        column_types = [catalog.column_type(entity, item.key) or t.ANY for item in items]
        _, compiler, alias, parameters = self.compiler(relation)
        target_sql = compiler.entity_id(target, entity)
        values = [stored_value(compiler.compile(item.value), item.value.type, column_type, check=False)
                  for item, column_type in zip(items, column_types, strict=True)]
        names = [f"v{i}" for i in range(len(items))]
        rows = self._per_target(
            f"(SELECT {target_sql} AS id, {''.join(f'{v} AS {name}, ' for v, name in zip(values, names, strict=True))}"
            f"{alias}.__ord AS __ord FROM {relation.sql} AS {alias}{compiler.context.join_text()}"
            f" WHERE ({target_sql}) IS NOT NULL)", names, parameters.values)
        count = self._properties_set(rows, table, columns, names)
        assignments = ", ".join(f"{column} = {stored_value(f's.v{i}', column_type, column_type)}"
                                for i, (column, column_type) in enumerate(zip(columns, column_types, strict=True)))
        self.run.execute(f"UPDATE {table} SET {assignments} FROM {rows.sql} AS s WHERE {table}.id = s.id")
        self.run.changes.touch(entity, rows.sql, keys=[item.key for item in items])
        self.run.changes.wrote(entity, keys=[item.key for item in items])
        return Counter({"properties_set": count})

    def _per_target(self, rows_sql: str, names: list[str], parameters: Sequence[Any] = ()) -> Relation:
        """A table of one row per target (`id`) of the assignments in `rows_sql` (columns `id`, `names` and
        `__ord`): each value is its last row's (Neo4j writes row by row, so the last write wins, null or
        not), with `<name>__set`, how many of its rows set a value, and `<name>__removes`, whether any sets
        null. One grouping here serves both the counters and the UPDATE."""
        columns = ", ".join(f"arg_max_null({name}, __ord) AS {name}, count({name}) AS {name}__set,"
                            f" bool_or({name} IS NULL) AS {name}__removes" for name in names)
        return self.run.materialize(f"(SELECT id, {columns} FROM {rows_sql} GROUP BY id)", [], parameters)

    def _properties_set(self, rows: Relation, table: str, columns: list[str], names: list[str]) -> int:
        """Neo4j's propertiesSet for `_per_target` rows about to be written to `columns`: every value set,
        plus one per target that loses a property it has (setting null where there is no value counts 0)."""
        counts = " + ".join(f"coalesce(sum(s.{name}__set), 0) + count(*) FILTER (WHERE s.{name}__removes"
                            f" AND e.{column} IS NOT NULL)" for name, column in zip(names, columns, strict=True))
        (count,) = self.run.fetchone(f"SELECT {counts} FROM {rows.sql} AS s JOIN {table} AS e ON e.id = s.id")
        return count

    def _rounds(self, items: list[b.BoundSetItem], relation: Relation) -> list[Relation] | None:
        """Neo4j runs SET row by row, so `SET n.hits = n.hits + 1` over three rows of one node adds 3.
        One pass over all rows would read the old value in every row. When a value reads the graph and
        some target recurs, round k holds the k-th row of each target (so rounds are as many as a target
        recurs, not as many as there are rows); with targets of several variables, a row is a round.
        None when one pass gives the same result."""
        written = _written_keys(items)
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
        return (f"CASE WHEN cy_kind({value}) = {code} THEN variant_extract({value}, "
                f"'\x01{'node' if entity == 'node' else 'rel'}')::BIGINT"
                f" WHEN cy_kind({value}) IN (0, 7, 8) THEN NULL ELSE error('CYPHER|TypeError|InvalidArgumentType|"
                f"expected a node or relationship') END")

    def _set_property(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        if not isinstance(item.key, str):
            raise UnsupportedFeature("SET with a computed property key", item.span)
        counters: Counter[str] = Counter()
        for entity in _target_entities(item):
            counters += self._set_property_for(entity, item, relation)
        return counters

    def _remove_property(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        if not isinstance(item.key, str):
            raise UnsupportedFeature("REMOVE with a computed property key", item.span)
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
            self.run.changes.touch(entity, rows.sql, keys=[item.key])
            self.run.changes.wrote(entity, keys=[item.key])
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
                raise UnsupportedFeature("SET += / = with a map whose keys are only known at run time", item.span)
            entries: list[tuple[str, b.BoundExpression]] = []  # null is the empty map: = removes all, += none
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
        for target_entity, rows_sql, values in self.targets(item, relation, item.value, {entity: column_type}):
            if target_entity != entity:
                continue
            if skip_null:
                rows_sql = f"(SELECT * FROM {rows_sql} WHERE v IS NOT NULL)"
            rows = self._per_target(rows_sql, ["v"], values)
            table = "nodes" if entity == "node" else "rels"
            count = self._properties_set(rows, table, [column], ["v"])
            # `s.v` is already in the column's representation (converted by `_targets`).
            checked = stored_value("s.v", column_type or t.ANY, column_type or t.ANY)
            self.run.execute(f"UPDATE {table} SET {column} = {checked} FROM {rows.sql} AS s WHERE {table}.id = s.id")
            self.run.changes.touch(entity, rows.sql, keys=[item.key])
            self.run.changes.wrote(entity, keys=[item.key])
            counters["properties_set"] += count
        return counters

    def _set_labels(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        return self._change_labels(item, relation, add=True)

    def _remove_labels(self, item: b.BoundSetItem, relation: Relation) -> Counter[str]:
        return self._change_labels(item, relation, add=False)

    def _change_labels(self, item: b.BoundSetItem, relation: Relation, *, add: bool) -> Counter[str]:
        """SET n:A / REMOVE n:A. A label counts once per node it is really added to (appended, so labels
        keep the order they were added in) or removed from."""
        counters: Counter[str] = Counter()
        for entity, rows_sql, values in self.targets(item, relation):
            if entity != "node":
                continue
            rows = self.run.materialize(rows_sql, [], values)
            parameters = Parameters()
            labels = "[" + ", ".join(parameters.text(label) for label in item.labels) + "]::VARCHAR[]"
            changes = "NOT list_contains(n.labels, x.l)" if add else "list_contains(n.labels, x.l)"
            (count,) = self.run.fetchone(
                f"SELECT count(*) FROM nodes AS n, (SELECT DISTINCT unnest({labels}) AS l) AS x"
                f" WHERE n.id IN (SELECT id FROM {rows.sql}) AND {changes}", parameters.values)
            new_labels = (f"list_concat(labels, list_filter(list_distinct_ordered({labels}),"
                          f" lambda l: NOT list_contains(labels, l)))" if add else
                          f"list_filter(labels, lambda l: NOT list_contains({labels}, l))")
            self.run.execute(f"UPDATE nodes SET labels = {new_labels} WHERE id IN (SELECT id FROM {rows.sql})",
                             parameters.values)
            self.run.changes.touch("node", rows.sql, labels=item.labels)
            if add:
                self.run.changes.wrote("node", labels=item.labels)
            counters["labels_added" if add else "labels_removed"] += count
        return counters

    # -- DELETE -------------------------------------------------------------------------------------

    def delete(self, clause: b.BDelete, relation: Relation) -> WriteResult:
        table = self._stored_rows(relation)
        node_sets, rel_sets = [], []
        for expression in clause.expressions:
            _, compiler, alias, parameters = self.compiler(table)
            kind = expression.type.kind
            value = compiler.compile(expression)
            source = f"FROM {table.sql} AS {alias}{compiler.context.join_text()}"
            if kind is Kind.NODE:
                node_sets.append((f"SELECT {value} AS id {source}", parameters.values))
            elif kind is Kind.RELATIONSHIP:
                rel_sets.append((f"SELECT {value} AS id {source}", parameters.values))
            elif kind is Kind.PATH:
                node_sets.append((f"SELECT unnest(({value}).nodes) AS id {source}", parameters.values))
                rel_sets.append((f"SELECT unnest(({value}).rels) AS id {source}", parameters.values))
            elif kind is Kind.NULL:
                continue
            else:
                variant = compiler.variant(expression)
                # a value of a type only known at run time (or read off data): one that is no node,
                # relationship, path or list of them is a type error on the row that brings it
                undeletable = error_sql("TypeError", "InvalidArgumentType", "'DELETE expects a node, relationship"
                                        f" or path, got ' || cy_type_name({variant})")
                node_sets.append((f"SELECT CASE WHEN cy_kind({variant}) = 7 THEN cy_node_id({variant})"
                                  f" WHEN cy_kind({variant}) NOT IN (0, 5, 8, 9) THEN {undeletable} END AS id"
                                  f" {source}", parameters.values))
                rel_sets.append((f"SELECT CASE WHEN cy_kind({variant}) = 8 THEN cy_rel_id({variant}) END AS id"
                                 f" {source}", parameters.values))
        counters: Counter[str] = Counter()
        nodes = self._id_set(node_sets, "nodes")
        rels = self._id_set(rel_sets, "rels")
        if clause.detach and nodes is not None:
            attached = f"SELECT id FROM {nodes.sql}"
            extra = self.run.materialize(
                f"(SELECT id FROM rels WHERE src IN ({attached}) OR dst IN ({attached}))", [])
            rels = extra if rels is None else self.run.materialize(
                f"(SELECT id FROM {rels.sql} UNION SELECT id FROM {extra.sql})", [])
        self._keep_tombstones(nodes, rels)
        if rels is not None:
            (count,) = self.run.fetchone(f"SELECT count(*) FROM rels WHERE id IN (SELECT id FROM {rels.sql})")
            self.run.execute(f"DELETE FROM rels WHERE id IN (SELECT id FROM {rels.sql})")
            self.run.changes.touch("relationship", rels.sql)
            counters["relationships_deleted"] += count
        if nodes is not None:
            (count,) = self.run.fetchone(f"SELECT count(*) FROM nodes WHERE id IN (SELECT id FROM {nodes.sql})")
            self.run.execute(f"DELETE FROM nodes WHERE id IN (SELECT id FROM {nodes.sql})")
            self.run.changes.touch("node", nodes.sql)
            counters["nodes_deleted"] += count
            self.run.deleted_nodes = True
        return WriteResult(table, counters)

    def _keep_tombstones(self, nodes: Relation | None, rels: Relation | None) -> None:
        """Remember what this DELETE removes (ids, and relationship types, which stay readable)."""
        if not self.run.deleted_any:
            self.run.execute(f"CREATE TEMP TABLE {DELETED_TABLES['node']} (id BIGINT)")
            self.run.execute(f"CREATE TEMP TABLE {DELETED_TABLES['relationship']} (id BIGINT, type VARCHAR)")
            self.run.tables.extend(DELETED_TABLES.values())
            self.run.deleted_any = True
        if nodes is not None:
            self.run.execute(f"INSERT INTO {DELETED_TABLES['node']} SELECT id FROM nodes"
                             f" WHERE id IN (SELECT id FROM {nodes.sql})")
        if rels is not None:
            self.run.execute(f"INSERT INTO {DELETED_TABLES['relationship']} SELECT id, type FROM rels"
                             f" WHERE id IN (SELECT id FROM {rels.sql})")

    def _id_set(self, selects: list[tuple[str, list[Any]]], table: str) -> Relation | None:
        if not selects:
            return None
        values: list[Any] = []
        parts = []
        for sql, parameters in selects:
            parts.append(_renumber(sql, len(values)))
            values.extend(parameters)
        union = " UNION ".join(f"({part})" for part in parts)
        return self.run.materialize(f"(SELECT DISTINCT id FROM ({union}) WHERE id IS NOT NULL)", [], values)


def _stored(run: StatementRun, relation: Relation) -> bool:
    """Whether `relation` is a table this statement stored (not a SELECT that would run again per read)."""
    return relation.sql in run.tables


def _may_hold_element(value_type: CypherType) -> bool:
    """Whether a value of this type may be or contain a node, relationship or path (a list of strings or a
    map of known keys holding none, the rows of `UNWIND $rows`, cannot)."""
    if value_type.kind is Kind.LIST:
        return _may_hold_element(value_type.element or t.ANY)
    if value_type.is_record:
        return any(_may_hold_element(field) for _, field in value_type.fields or ())
    return value_type.kind in (Kind.NODE, Kind.RELATIONSHIP, Kind.PATH, Kind.ANY, Kind.MAP)


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
        return _may_hold_element(expression.variable.type)
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


def stored_value(sql: str, value_type: CypherType, column_type: CypherType, *, check: bool = True) -> str:
    """SQL of a value as a column of `column_type` stores it, refusing what properties may not hold
    (maps, graph elements, lists with nulls or mixed types). `check=False` converts only."""
    if is_variant(column_type):
        variant = to_variant(sql, value_type)
        return f"cy_property({variant})" if check else variant
    if check and column_type.kind is Kind.LIST:
        return (f"CASE WHEN list_count({sql}) < len({sql}) THEN "
                + error_sql("TypeError", "InvalidPropertyType",
                            "'lists stored as properties may only hold non-null values'")
                + f" ELSE {sql} END")
    return sql


def _columns(alias: str, columns: list[str]) -> str:
    return "".join(f"{alias}.{column}, " for column in columns)


def _renumber(sql: str, offset: int) -> str:
    """Shift `$n` placeholders by `offset` so several generated SELECTs can share one parameter list."""
    if not offset:
        return sql
    return re.sub(r"\$(\d+)", lambda m: f"${int(m.group(1)) + offset}", sql)


SetHandler = Callable[[Writer, b.BoundSetItem, Relation], Counter[str]]
SET_ITEMS: dict[str, SetHandler] = {
    "property": Writer._set_property,
    "remove_property": Writer._remove_property,
    "all": Writer._set_map,
    "merge": Writer._set_map,
    "labels": Writer._set_labels,
    "remove_labels": Writer._remove_labels,
}
