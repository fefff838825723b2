"""DELETE and DETACH DELETE: id sets of every row at once, the deleted elements kept as tombstones
for the statement's later reads."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.execute import end_labels
from engine.execute.write_support import WriterBase, WriteResult
from engine.semantic import bound as b
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import DELETED_TABLES
from engine.sqlgen.relation import Relation
from engine.sqlgen.runtime import error_sql
from engine.types import Kind


class DeleteWriter(WriterBase):
    """The DELETE part of the writer."""

    # -- DELETE -------------------------------------------------------------------------------------

    def delete(self, clause: b.BDelete, relation: Relation) -> WriteResult:
        table = self.stored_rows(relation)
        parameters = Parameters()
        node_sets: list[str] = []
        rel_sets: list[str] = []
        for expression in clause.expressions:
            bound_before = len(parameters.values)
            _, compiler, alias, _ = self.compiler(table, parameters)
            kind = expression.type.kind
            value = compiler.compile(expression)
            source = f"FROM {table.sql} AS {alias}{compiler.context.join_text()}"
            if kind is Kind.NODE:
                node_sets.append(f"SELECT {value} AS id {source}")
            elif kind is Kind.RELATIONSHIP:
                rel_sets.append(f"SELECT {value} AS id {source}")
            elif kind is Kind.PATH:
                node_sets.append(f"SELECT unnest(({value}).nodes) AS id {source}")
                rel_sets.append(f"SELECT unnest(({value}).rels) AS id {source}")
            elif kind is Kind.NULL:
                parameters.truncate(bound_before)
                continue
            else:
                variant = compiler.variant(expression)
                # a value of a type only known at run time (or read off data): one that is no node,
                # relationship, path or list of them is a type error on the row that brings it
                undeletable = error_sql("TypeError", "InvalidArgumentType", "'DELETE expects a node, relationship"
                                        f" or path, got ' || cy_type_name({variant})")
                node_sets.append(f"SELECT CASE WHEN cy_kind({variant}) = 7 THEN cy_node_id({variant})"
                                 f" WHEN cy_kind({variant}) NOT IN (0, 5, 8, 9) THEN {undeletable} END AS id"
                                 f" {source}")
                rel_sets.append(f"SELECT CASE WHEN cy_kind({variant}) = 8 THEN cy_rel_id({variant}) END AS id"
                                f" {source}")
        counters: Counter[str] = Counter()
        nodes, rels = self._id_sets(node_sets, rel_sets, parameters.values)
        if clause.detach and nodes is not None:
            attached = f"SELECT id FROM {nodes.sql}"
            extra = self.run.materialize(
                f"(SELECT id FROM rels WHERE src IN ({attached}) OR dst IN ({attached}))", [])
            rels = extra if rels is None else self.run.materialize(
                f"(SELECT id FROM {rels.sql} UNION SELECT id FROM {extra.sql})", [])
        self._keep_tombstones(nodes, rels)
        if rels is not None:
            end_labels.relationships_removing(self.run, rels.sql)
            (count,) = self.run.fetchone(f"SELECT count(*) FROM rels WHERE id IN (SELECT id FROM {rels.sql})")
            self.run.execute(f"DELETE FROM rels WHERE id IN (SELECT id FROM {rels.sql})")
            self.run.changes.touch("relationship", rels.sql)
            counters["relationships_deleted"] += count
        if nodes is not None:
            if not clause.detach:  # a detached node has no relationship left
                end_labels.nodes_removing(self.run, nodes.sql)
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

    def _id_sets(self, node_sets: list[str], rel_sets: list[str],
                 values: list[Any]) -> tuple[Relation | None, Relation | None]:
        """The ids of the nodes and of the relationships the SELECTs give, stored in one table (one SQL
        statement, the SELECTs numbering their placeholders in one list `values`)."""
        if not node_sets and not rel_sets:
            return None, None
        union = " UNION ALL ".join([*(f"SELECT true AS node, id FROM ({sql})" for sql in node_sets),
                                    *(f"SELECT false AS node, id FROM ({sql})" for sql in rel_sets)])
        ids = self.run.materialize(f"(SELECT DISTINCT node, id FROM ({union}) WHERE id IS NOT NULL)", [], values)
        nodes = Relation(f"(SELECT id FROM {ids.sql} WHERE node)", []) if node_sets else None
        rels = Relation(f"(SELECT id FROM {ids.sql} WHERE NOT node)", []) if rel_sets else None
        return nodes, rels
