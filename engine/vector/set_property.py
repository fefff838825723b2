"""Neo4j's `db.create.setNodeVectorProperty(node, key, vector)` and
`db.create.setRelationshipVectorProperty(relationship, key, vector)`, which LangChain's and neo4j-graphrag's
vector stores call to store an embedding: a WRITE procedure that yields nothing, bound as the SET it performs,
`SET node[key] = vecf32(vector)`. Neo4j stores the vector as 32-bit floats; `vecf32` rounds to the same
precision and refuses what is not a list of numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import CypherSyntaxError
from engine.semantic.procedure_macros import ProcedureMacro
from engine.syntax import ast


def _set_vector(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
    assert call.arguments is not None
    entity, key, vector = call.arguments
    if not isinstance(entity, ast.Variable):
        raise CypherSyntaxError(f"{call.name}() takes a variable as its first argument (the element it sets)",
                                entity.span, detail="InvalidArgumentType")
    value = ast.FunctionCall("vecf32", (vector,), False, span=vector.span)
    target = ast.Subscript(entity, key, span=call.span)
    return (ast.SetClause((ast.SetDynamicProperty(target, value, span=call.span),), span=call.span),)


def _macro(name: str, entity: tuple[str, str]) -> ProcedureMacro:
    return ProcedureMacro(name, (entity, ("key", "STRING"), ("vector", "LIST<FLOAT>")), (), "WRITE", _set_vector)


PROCEDURE_MACROS = (
    _macro("db.create.setNodeVectorProperty", ("node", "NODE")),
    _macro("db.create.setRelationshipVectorProperty", ("relationship", "RELATIONSHIP")),
)
