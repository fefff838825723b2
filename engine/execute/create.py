"""CREATE: every new node and relationship of every row inserted at once, ids in row order."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine import types as t
from engine.errors import CypherTypeError, UnsupportedFeature
from engine.execute import end_labels
from engine.execute.write_support import (
    NewId,
    WriterBase,
    WriteResult,
    is_stored,
    known_present,
    label_names,
    stored_value,
)
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.context import Parameters
from engine.sqlgen.dynamic_labels import label_list_sql, single_type_sql
from engine.sqlgen.expressions import ExpressionCompiler, entity_id_of
from engine.sqlgen.generator import QueryCompiler
from engine.sqlgen.relation import SEED_ROW, Relation
from engine.sqlgen.runtime import error_sql
from engine.syntax import ast
from engine.types import Kind, is_storable, sql_type

COUNTED_AT_ONCE = 1_000
"""Relationships one INSERT creates from which they are counted at once, off the labels the rows hold (a load
batch's, ADR-0097); fewer are left for `end_labels.flush` to count with others (ADR-0111)."""

INSERT_INTO = {"node": "INSERT INTO nodes (id, labels", "relationship": "INSERT INTO rels (id, type, src, dst"}
"""The head of the INSERT of new elements of each entity, before their property columns."""


class CreateWriter(WriterBase):
    """The CREATE part of the writer."""


    def create(self, clause: b.BCreate, relation: Relation) -> WriteResult:
        return self.create_paths(clause.paths, relation)

    def create_paths(self, paths: list[b.BoundPath], relation: Relation, *, ranked_rows: int | None = None,
                     distinct: frozenset[str] = frozenset(), absent: Relation | None = None) -> WriteResult:
        """The paths created once per row of `relation`. With `ranked_rows`, `relation` already has
        `__rank`, 1 to `ranked_rows` in row order; `distinct`: the keys a MERGE found the new nodes' values
        of unique (`constraints.Write.distinct`). `absent`: a scan of `nodes` (`Relation.scan`) that the one node
        of one row whose values read nothing of it is inserted only where it finds nothing, tested by the
        INSERT itself (ADR-0113); where it found a node, nothing is created, counted or allocated."""
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
        if new_nodes and rows:
            self.run.changes.allocated("node", node_base)
        if new_rels and rows:
            self.run.changes.allocated("relationship", rel_base)
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
                counters += self._insert_elements(new_nodes, hops, ranked, id_sql, node_base, rows, absent)
            if absent is not None and not counters["nodes_created"]:  # found: its id is the next one's again
                self.store.give_back_ids("node", node_base, rows * len(new_nodes))
                return WriteResult(Relation(SEED_ROW, relation.variables), counters)
            self._record_created([*new_nodes, *new_rels], distinct)
            if new_rels:
                self._count_ends(hops, relation, ranked, id_sql, rel_base, rows * len(new_rels))
        return WriteResult(self._created_rows(paths, relation, ranked, new_nodes, new_rels, id_sql), counters)

    def create_uncounted(self, paths: list[b.BoundPath], ranked: Relation) -> WriteResult:
        """`create_paths` of relationships between bound nodes over `ranked`, a SELECT with `__rank` whose rows
        are not counted first (ADR-0116): one INSERT numbering them from the next free id, which takes as many
        ids as it inserted (nothing else allocates in between: the statement's writes run one after another)."""
        new_rels = [rel for path in paths for rel in path.relationships]
        assert all(not node.is_new for path in paths for node in path.nodes) and new_rels, "relationships alone"
        first = self.store.allocate_ids("relationship", 0)  # the next free id; none taken yet
        self.run.changes.allocated("relationship", first)
        id_sql = {id(rel.variable): NewId(first, len(new_rels), index) for index, rel in enumerate(new_rels)}
        assert not any(b.reads_any(rel.properties, set(id_sql)) for rel in new_rels), "no value reads a new element"
        hops = [(rel, path.nodes[index], path.nodes[index + 1])
                for path in paths for index, rel in enumerate(path.relationships)]
        counters = self._insert_elements([], hops, ranked, id_sql, first, None)
        created = counters["relationships_created"]
        if created:
            taken = self.store.allocate_ids("relationship", created)
            assert taken == first, "ids taken by the INSERT"
            self._record_created(new_rels)
            # counted later, by their ends (ADR-0111): the rows, read again now, may read what was just inserted
            end_labels.relationships_added(self.run, first, first + created)
        return WriteResult(self._created_rows(paths, ranked, ranked, [], new_rels, id_sql), counters)

    def _created_rows(self, paths: list[b.BoundPath], relation: Relation, ranked: Relation,
                      new_nodes: list[b.BoundNode], new_rels: list[b.BoundRelationship],
                      id_sql: dict[int, NewId]) -> Relation:
        """The rows after CREATE: `relation`'s with the variables and paths it binds, read off `ranked`."""
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
        return Relation(f"(SELECT {', '.join([*columns, 'q.__ord'])} FROM {ranked.sql} AS q)",
                        relation.variables + new_variables, values=ranked.values)

    def _record_created(self, elements: list[b.BoundNode | b.BoundRelationship],
                        distinct: frozenset[str] = frozenset()) -> None:
        """Tell the constraint checks what the new elements are: their labels (type) and property keys, and
        of nodes the keys whose values a MERGE found unique."""
        for element in elements:
            entries = self._property_entries(element.properties)
            keys = [key for key, value in entries if value.type.kind is not Kind.NULL]
            known = None if element.dynamic else label_names(
                element.labels if isinstance(element, b.BoundNode) else element.types, element.span)
            node = isinstance(element, b.BoundNode)
            self.run.changes.wrote("node" if node else "relationship", labels=known, keys=keys, created=True,
                                   distinct=distinct if node else frozenset())

    def _count_ends(self, hops: list[tuple[b.BoundRelationship, b.BoundNode, b.BoundNode]], relation: Relation,
                    ranked: Relation, id_sql: dict[int, NewId], first: int, count: int) -> None:
        """Add the new relationships to the end-label counts: off the labels of their end nodes that the rows
        hold (new nodes' from the statement, bound ones' carried by the MATCH that just bound them), where
        they are a load batch's; else they are left out, to be counted with others by joining their ends to
        the node table (`end_labels.flush`: a scan of every node's labels, most of a load batch's count among
        a million nodes, ADR-0097; a few relationships' count is one SQL statement, ADR-0111)."""
        carried = {id(c.variable): c.name for c in relation.carried if c.column == "labels"}
        if count < COUNTED_AT_ONCE or not all(
                node.is_new or id(node.variable) in carried for _, left, right in hops for node in (left, right)):
            end_labels.relationships_added(self.run, first, first + count)
            return
        _, compiler, alias, parameters = self.compiler(ranked)
        rank = f"{alias}.__rank"

        def labels(node: b.BoundNode) -> str:
            if node.is_new:
                return _labels_sql(node, compiler, parameters)
            return f"{alias}.{carried[id(node.variable)]}"

        selects = []
        for rel, left, right in hops:
            start, end = (right, left) if rel.direction == "left" else (left, right)
            selects.append(f"SELECT {_type_sql(rel, compiler, parameters)} AS type,"
                           f" {self._endpoint_sql(start, id_sql, alias, rank)} AS src,"
                           f" {self._endpoint_sql(end, id_sql, alias, rank)} AS dst,"
                           f" {labels(start)} AS src_labels, {labels(end)} AS dst_labels"
                           f" FROM {ranked.sql} AS {alias}{compiler.context.join_text()}")
        end_labels.relationships_ending(self.run, " UNION ALL ".join(selects), parameters.values)

    def _ranked(self, relation: Relation) -> tuple[Relation, int]:
        """The rows with `__rank`, their 1-based position in `__ord` order (new ids are numbered by it),
        and how many they are. A table of this statement whose `__ord` is already 1..n (what a clause
        before leaves) is used as it is, and so is the statement's seed row (one row, ranked 1 in the SQL);
        anything else is numbered into a new table."""
        if relation.sql == SEED_ROW:
            return Relation("(SELECT 1::BIGINT AS __ord, 1::BIGINT AS __rank)", relation.variables), 1
        if relation.sql in self.run.dense:
            rows = self.run.row_counts[relation.sql]
            return Relation(f"(SELECT *, __ord AS __rank FROM {relation.sql})", relation.variables), rows
        if is_stored(self.run, relation):
            rows, distinct, first, last = self.run.fetchone(
                f"SELECT count(*), count(DISTINCT __ord), min(__ord), max(__ord) FROM {relation.sql}")
            if rows == 0 or (rows == distinct == last and first == 1):
                return Relation(f"(SELECT *, __ord AS __rank FROM {relation.sql})", relation.variables), rows
        ranked = self.run.materialize(f"(SELECT *, row_number() OVER (ORDER BY __ord) AS __rank FROM {relation.sql})",
                                      relation.variables)
        return ranked, self.run.row_counts[ranked.sql]

    def _endpoint_sql(self, node: b.BoundNode, id_sql: dict[int, NewId], alias: str,
                      rank: str | Parameters = "__rank", parameters: Parameters | None = None) -> str:
        """The id of a relationship's end node: one this CREATE makes (numbered by `rank`, or the first
        row's, bound to `rank` when it is the parameters), or a bound variable's node (a variable not typed
        as a node is checked on each row: a value that is no node is a type error)."""
        if id(node.variable) in id_sql:
            return _new_id(id_sql[id(node.variable)], rank, parameters)
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

    def _insert_elements(self, nodes: list[b.BoundNode],
                         hops: list[tuple[b.BoundRelationship, b.BoundNode, b.BoundNode]], ranked: Relation,
                         id_sql: dict[int, NewId], base: int, rows: int | None,
                         absent: Relation | None = None) -> Counter[str]:
        """All the nodes and relationships a CREATE makes, for every row (`rows`: how many, None where not
        counted), in one SQL statement: an INSERT into each table, each one SELECT (`_element_rows`), both in one
        statement where there are both (ADR-0116); counted from what they insert. `absent`: see `create_paths`."""
        assert absent is None or not ranked.values, "an INSERT-if-absent reads one constant row"
        parameters = Parameters(list(ranked.values if absent is None else absent.values))  # the SQL's first
        inserts: list[_Insert] = []
        node_entries = [self._property_entries(node.properties) for node in nodes]
        hop_entries = [self._property_entries(rel.properties) for rel, _, _ in hops]
        self._ensure_columns("node", node_entries)
        self._ensure_columns("relationship", hop_entries)
        for entity, elements, entries in (("node", nodes, node_entries), ("relationship", hops, hop_entries)):
            if elements:
                select, columns = self._element_rows(elements, entries, ranked, id_sql, parameters, entity, rows,
                                                     absent)
                insert = f"{INSERT_INTO[entity]}{''.join(', ' + c for c in columns)}) {select}"
                inserts.append(_Insert(insert, columns, entries, None if rows is None else rows * len(elements)))
        counts = self._insert_counting(inserts, parameters.values)
        counters: Counter[str] = Counter()
        counters["properties_set"] = sum(stored for _, stored in counts)
        if hops:
            counters["relationships_created"] = counts[-1][0]
        if nodes and counts[0][0]:
            counters["nodes_created"] = counts[0][0]
            if any(node.dynamic for node in nodes):
                (added,) = self.run.fetchone(f"SELECT coalesce(sum(len(labels)), 0) FROM nodes WHERE id >= {base}"
                                            f" AND id < {base + counts[0][0]}")
                counters["labels_added"] = int(added)
            else:
                counters["labels_added"] = counts[0][0] // len(nodes) * sum(
                    len(label_names(node.labels, node.span)) for node in nodes)
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
                      entity: str, rows: int | None, absent: Relation | None = None) -> tuple[str, list[str]]:
        """One SELECT yielding a row per (input row, element): each input row unnests a list holding one
        struct per element of the pattern. (A UNION ALL of one SELECT per element took DuckDB seconds
        to plan for a script of hundreds of CREATEs.) Over one row whose values nothing reads (`_row_free`),
        a VALUES list of the elements, which DuckDB plans in two thirds of the time (ADR-0104); with `absent`
        (one such element), a SELECT of its values where that scan finds no row (`create_paths`, ADR-0113)."""
        catalog = self.store.catalog
        keys = sorted({key for element_entries in entries for key, value in element_entries
                       if value.type.kind is not Kind.NULL})
        columns = [catalog.columns[entity][key] for key in keys]
        queries = QueryCompiler(catalog, parameters)
        queries.aliases = self.run.aliases
        alias = queries.alias()
        compiler = ExpressionCompiler(queries.context_for(ranked, alias), queries)
        constant = rows == 1 and _row_free(elements, entries, id_sql)
        rank: str | Parameters = parameters if constant else f"{alias}.__rank"
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
                head = [_new_id(id_sql[id(element.variable)], rank, parameters),
                        _labels_sql(element, compiler, parameters)]
            else:
                rel, left, right = element
                start = self._endpoint_sql(left, id_sql, alias, rank, parameters)
                end = self._endpoint_sql(right, id_sql, alias, rank, parameters)
                if rel.direction == "left":
                    start, end = end, start
                missing = error_sql("SemanticError", "CreateRelationshipWithNullNode",
                                    "'failed to create a relationship: a node is null'")
                head = [_new_id(id_sql[id(rel.variable)], rank, parameters), _type_sql(rel, compiler, parameters),
                        f"coalesce({start}, {missing})", f"coalesce({end}, {missing})"]
            if constant:  # the row's values
                structs.append(", ".join([*head, *stored]))
                continue
            structs.append("struct_pack(" + ", ".join(f"c{i} := {sql}" for i, sql in enumerate([*head, *stored]))
                           + ")")
        if absent is not None:
            assert constant and len(structs) == 1 and absent.scan is not None, "an INSERT-if-absent of one element"
            # the count of the scan's rows, kept where it is 0: planned a tenth faster than WHERE NOT EXISTS
            return (f"SELECT {structs[0]} FROM nodes AS {absent.scan.alias} WHERE {absent.scan.condition}"
                    " HAVING count(*) = 0"), columns
        if constant:
            return "VALUES " + ", ".join(f"({row})" for row in structs), columns
        # max_depth 2: the element structs become columns, STRUCT-typed values (temporal) stay whole.
        select = (f"SELECT unnest([{', '.join(structs)}], max_depth := 2) FROM {ranked.sql} AS {alias}"
                  f"{compiler.context.join_text()}")
        return select, columns

    def _insert_counting(self, inserts: list[_Insert], values: list[Any]) -> list[tuple[int, int]]:
        """Run the INSERTs in one SQL statement and return, of each, how many elements it inserted (fewer than
        its `count` only where a MERGE inserts a node if absent) and the properties it stored. One INSERT alone
        whose values are literals or parameters that are not null (stored as given, or refused) is counted from
        its own row; else each returns its rows to a count around them."""
        if len(inserts) == 1:
            (insert,) = inserts
            stored = [{key: value for key, value in element if value.type.kind is not Kind.NULL}
                      for element in insert.entries]
            if not insert.columns or insert.count == 0 or all(
                    known_present(value) for element in stored for value in element.values()):
                (inserted,) = self.run.fetch_alone(insert.sql, values)  # its one row: the count (write_alone.py)
                return [(inserted, inserted // len(stored) * sum(len(element) for element in stored))]
        ctes = ", ".join(f"i{index} AS ({insert.sql} RETURNING {insert.present()} AS n)"
                         for index, insert in enumerate(inserts))
        counts = ", ".join(f"(SELECT count(*) FROM i{index}), (SELECT coalesce(sum(n), 0) FROM i{index})"
                           for index in range(len(inserts)))
        row = self.run.fetchone(f"WITH {ctes} SELECT {counts}", values)
        return [(int(row[2 * index]), int(row[2 * index + 1])) for index in range(len(inserts))]

    def _insert_node(self, node: b.BoundNode, ranked: Relation, id_sql: dict[int, NewId]) -> Counter[str]:
        _, compiler, alias, parameters = self.compiler(ranked)
        for variable_id, new_id in id_sql.items():
            compiler.context.variables[variable_id] = new_id.sql(f"{alias}.__rank")
        values = self._property_values(compiler, "node", self._property_entries(node.properties))
        columns = [column for column, _ in values]
        own_id = id_sql[id(node.variable)].sql(f"{alias}.__rank")
        select = ", ".join([own_id, _labels_sql(node, compiler, parameters), *[sql for _, sql in values]])
        self.run.execute(
            f"INSERT INTO nodes (id, labels{''.join(', ' + c for c in columns)}) SELECT {select}"
            f" FROM {ranked.sql} AS {alias}{compiler.context.join_text()}", parameters.values)
        counters: Counter[str] = Counter()
        (count,) = self.run.fetchone(f"SELECT count(*) FROM {ranked.sql}")
        counters["nodes_created"] += count
        (added,) = self.run.fetchone(f"SELECT coalesce(sum(len(labels)), 0) FROM nodes WHERE id IN"
                                    f" (SELECT {own_id} FROM {ranked.sql} AS {alias})")
        counters["labels_added"] += int(added)
        if columns:
            (props,) = self.run.fetchone(
                f"SELECT coalesce(sum({' + '.join(f'({c} IS NOT NULL)::INTEGER' for c in columns)}), 0)"
                f" FROM nodes WHERE id IN (SELECT {own_id} FROM {ranked.sql} AS {alias})")
            counters["properties_set"] += props
        return counters

    def _insert_relationship(self, rel: b.BoundRelationship, left: b.BoundNode, right: b.BoundNode,
                             ranked: Relation, id_sql: dict[int, NewId]) -> Counter[str]:
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
        type_sql = _type_sql(rel, compiler, parameters)
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


@dataclass(frozen=True)
class _Insert:
    """One INSERT of a CREATE's elements of one table: the statement, the property columns it stores, the
    property entries of each element, and how many elements it inserts at most (None: not counted)."""

    sql: str
    columns: list[str]
    entries: list[list[tuple[str, b.BoundExpression]]]
    count: int | None

    def present(self) -> str:
        """Of an inserted row, how many of its property columns hold a value."""
        return " + ".join(f"({column} IS NOT NULL)::INTEGER" for column in self.columns) or "0"


def _new_id(new_id: NewId, rank: str | Parameters, parameters: Parameters | None = None) -> str:
    """A new element's id on the row `rank` reads, or the one row's bound to `rank` when it is the parameters;
    with `parameters`, its block's first id bound there (`NewId.sql`)."""
    return new_id.bound(rank) if isinstance(rank, Parameters) else new_id.sql(rank, parameters)


def _row_free(elements: list[Any], entries: list[list[tuple[str, b.BoundExpression]]],
              id_sql: dict[int, NewId]) -> bool:
    """Whether the elements' columns read nothing of the row they are made on: every property value a literal
    or parameter, labels and types the statement's own, and a relationship's ends nodes it makes."""
    for element, element_entries in zip(elements, entries, strict=True):
        rel, ends = (element[0], element[1:]) if isinstance(element, tuple) else (element, ())
        if rel.dynamic or any(id(node.variable) not in id_sql for node in ends):
            return False
        if not all(isinstance(value, b.BLiteral | b.BParameter) for _, value in element_entries):
            return False
    return True


def _labels_sql(node: b.BoundNode, compiler: ExpressionCompiler, parameters: Parameters) -> str:
    """The VARCHAR[] of labels a new node gets: those the statement names, then those its row names
    (`$(row.type)`), each once, in that order."""
    named = "[" + ", ".join(parameters.text(label) for label in label_names(node.labels, node.span)) + "]::VARCHAR[]"
    if not node.dynamic:
        return named
    read = [label_list_sql(compiler.variant(expression)) for expression in node.dynamic]
    return f"list_distinct_ordered(flatten([{', '.join([named, *read])}]))"


def _type_sql(rel: b.BoundRelationship, compiler: ExpressionCompiler, parameters: Parameters) -> str:
    """A new relationship's type: the one the statement names, or the one its row names (`$(row.type)`)."""
    if rel.dynamic:
        return single_type_sql(compiler.variant(rel.dynamic[0]))
    assert isinstance(rel.types, ast.LabelName)
    return parameters.text(rel.types.name)
