"""`db.schema.visualization()`: the schema as virtual nodes and relationships (ADR-0071), as Neo4j 5 builds it.

A virtual node per label in use, `{name, indexes, constraints}`: the property keys of each index on the label
that no constraint owns (`"a,b"` for a composite one), and each constraint on it as Neo4j describes it
(`Constraint( id=4, name='person_name', type='UNIQUENESS', schema=(:Person {name}), ownedIndex=3 )`). A virtual
relationship `{name}` of each type from every label some relationship of the type leaves to every label some
enters: Neo4j reads these pairs off its count store, so they may join labels no relationship joins, and the
engine gives the same pairs. Neo4j lists both in hash order; the engine by name, then start, type and end.
"""

from __future__ import annotations

from typing import Any

from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.storage.encoding import virtual_node, virtual_relationship
from engine.storage.schema import Catalog, ConstraintInfo

LABELS = "SELECT DISTINCT l FROM nodes, unnest(labels) AS u(l) ORDER BY l"
ENDS = ("SELECT DISTINCT side, l, r.type FROM rels AS r, (VALUES ('start'), ('end')) AS s(side)"
        " JOIN nodes AS n ON true, unnest(n.labels) AS u(l)"
        " WHERE n.id = CASE side WHEN 'start' THEN r.src ELSE r.dst END ORDER BY ALL")
"""Per relationship type, the labels of the nodes its relationships leave (`start`) and enter (`end`)."""

CONSTRAINT_TYPES = {"unique": "UNIQUENESS", "node_key": "NODE KEY", "not_null": "NODE PROPERTY EXISTENCE"}
"""The engine's node constraint kinds → the type Neo4j's description of a constraint names."""


def describe_constraint(constraint: ConstraintInfo, catalog: Catalog) -> str:
    """Neo4j's description of a node constraint (`ConstraintDescriptor.userDescription`)."""
    kind = "NODE PROPERTY TYPE" if constraint.property_type else CONSTRAINT_TYPES[constraint.kind]
    parts = [f"id={constraint.id}", f"name='{constraint.name}'", f"type='{kind}'",
             f"schema=(:{constraint.label} {{{', '.join(constraint.properties)}}})"]
    owned = [index.id for index in catalog.indexes.values() if index.owned_by == constraint.name]
    parts += [f"ownedIndex={owned[0]}"] if owned else []
    parts += [f"propertyType={constraint.property_type}"] if constraint.property_type else []
    return f"Constraint( {', '.join(parts)} )"


def _label_properties(label: str, catalog: Catalog) -> dict[str, Any]:
    indexes = [",".join(index.properties) for index in sorted(catalog.indexes.values(), key=lambda i: i.id)
               if index.entity == "node" and label in index.labels and index.owned_by is None]
    constraints = [describe_constraint(constraint, catalog)
                   for constraint in sorted(catalog.constraints.values(), key=lambda c: c.id)
                   if constraint.entity == "node" and constraint.label == label]
    return {"name": label, "indexes": indexes, "constraints": constraints}


def _visualization(preparation: ProcedurePreparation) -> str:
    run = preparation.run
    catalog: Catalog = run.store.catalog
    labels = [label for (label,) in run.fetchall(LABELS)]
    nodes = {label: virtual_node(node_id, [label], _label_properties(label, catalog))
             for label, node_id in zip(labels, run.virtual_ids("node", len(labels)), strict=True)}
    ends: dict[tuple[str, str], list[str]] = {}
    for side, label, rel_type in run.fetchall(ENDS):
        ends.setdefault((side, rel_type), []).append(label)
    pairs = sorted((start, rel_type, end) for (side, rel_type), starts in ends.items() if side == "start"
                   for start in starts for end in ends.get(("end", rel_type), []))
    rels = [virtual_relationship(rel_id, rel_type, nodes[start], nodes[end], {"name": rel_type})
            for (start, rel_type, end), rel_id in zip(pairs, run.virtual_ids("relationship", len(pairs)),
                                                      strict=True)]
    return run.virtual_graph(list(nodes.values()), rels)


PROCEDURES = (
    Procedure("db.schema.visualization", (),
              (ProcedureField("nodes", "LIST OF NODE"), ProcedureField("relationships", "LIST OF RELATIONSHIP")),
              prepare=_visualization),
)
