"""Procedures callable with `CALL name(args) YIELD ...`: signatures and the per-connection registry.

A procedure is a signature and a way to produce rows. Table-backed procedures (what the TCK declares with
"there exists a procedure") hold their rows: a call returns the rows whose inputs equal its arguments, in
table order. Built-in procedures produce their rows in SQL: `sql` from the arguments' SQL, `build` from a
`ProcedureBuild` (the bound arguments and their compiler) for procedures that need constant arguments (a
label, an index name: vector search, `engine/vector`; the catalog: `engine/apoc`, `engine/dbms`), or
`prepare`, run by the executor before the call compiles, for a graph library's answer materialized first
(graph algorithms, `engine/algorithms`). Either way the call runs set-based, once for all input rows, as a
lateral join.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import types as t
from engine.errors import CypherSyntaxError
from engine.types import CypherType, Kind

# Declared type names -> static types. NUMBER accepts integers and floats; `?` (nullable) is implied.
SIGNATURE_TYPES: dict[str, CypherType] = {
    "INTEGER": t.INTEGER, "FLOAT": t.FLOAT, "NUMBER": t.ANY, "STRING": t.STRING, "BOOLEAN": t.BOOLEAN,
    "ANY": t.ANY, "NODE": t.NODE, "RELATIONSHIP": t.RELATIONSHIP, "PATH": t.PATH, "MAP": t.MAP,
    "LIST OF ANY": t.ANY_LIST, "LIST OF STRING": t.list_of(t.STRING),
    # the meta-graph procedures' virtual elements travel as VARIANTs (ADR-0071)
    "LIST OF NODE": t.ANY_LIST, "LIST OF RELATIONSHIP": t.ANY_LIST,
}

# Which argument kinds each declared input accepts (null always; ANY is checked at run time).
ACCEPTS: dict[str, set[Kind]] = {
    "INTEGER": {Kind.INTEGER}, "FLOAT": {Kind.FLOAT, Kind.INTEGER}, "NUMBER": {Kind.INTEGER, Kind.FLOAT},
    "STRING": {Kind.STRING}, "BOOLEAN": {Kind.BOOLEAN}, "NODE": {Kind.NODE}, "RELATIONSHIP": {Kind.RELATIONSHIP},
    "PATH": {Kind.PATH}, "MAP": {Kind.MAP},
}


@dataclass(frozen=True)
class ProcedureField:
    name: str
    type_name: str

    @property
    def type(self) -> CypherType:
        return SIGNATURE_TYPES.get(self.type_name, t.ANY)

    def accepts(self, argument: CypherType) -> bool:
        allowed = ACCEPTS.get(self.type_name)
        return allowed is None or argument.kind in allowed | {Kind.NULL, Kind.ANY} or (
            self.type_name == "MAP" and argument.is_record)


@dataclass(frozen=True)
class Procedure:
    name: str
    inputs: tuple[ProcedureField, ...]
    outputs: tuple[ProcedureField, ...]
    rows: tuple[Mapping[str, Any], ...] = ()
    sql: Callable[..., str] | None = None
    compile: Callable[..., str] | None = None
    """Built-in procedures whose SQL depends on their argument values (full-text queries): called with the
    query compiler, the bound arguments and the call's span; returns the rows relation (outputs and `__i`)."""
    required_inputs: int | None = None
    """How many inputs must be given (the rest have defaults); None: all."""
    build: Callable[[ProcedureBuild], str] | None = None
    """SQL of a relation with one column per output and `__i`, the row order, from a `ProcedureBuild` (vector
    search)."""
    prepare: Callable[[ProcedurePreparation], str] | None = None
    """For a procedure that must run SQL before its rows can be read (graph algorithms, computed over the
    subgraph they read): run by the executor before the call compiles, it returns the rows relation
    (outputs and `__i`), usually over a temporary table it made."""
    mode: str = "READ"
    """Neo4j's mode, as SHOW PROCEDURES lists it: every built-in procedure reads, a few are declared SCHEMA
    (APOC's `apoc.schema.nodes`) though they only read the catalog."""
    writes: bool = False
    """Whether a call changes the store or its catalog (`apoc.schema.assert`): the statement is then a write,
    which a read-only call refuses."""

    @property
    def built_in(self) -> bool:
        return any(way is not None for way in (self.sql, self.compile, self.build, self.prepare))

    def output(self, name: str) -> ProcedureField | None:
        return next((field for field in self.outputs if field.name == name), None)


@dataclass(frozen=True)
class ProcedureBuild:
    """What a `build` procedure compiles from: its bound arguments and the `ExpressionCompiler` of the row it
    is called from (the arguments' SQL may read that row)."""

    procedure: Procedure
    arguments: tuple[Any, ...]
    compiler: Any
    span: Any


@dataclass(frozen=True)
class ProcedurePreparation:
    """What a `prepare` procedure runs with: its bound arguments (literals or parameters) and the statement's
    run (`execute.statement_run.StatementRun`), whose SQL it may execute and whose temporary tables it may
    add to."""

    procedure: Procedure
    arguments: tuple[Any, ...]
    run: Any
    span: Any


_SIGNATURE = re.compile(r"^\s*(?P<name>[\w.]+)\s*\((?P<inputs>[^)]*)\)\s*::\s*\((?P<outputs>[^)]*)\)\s*:?\s*$")


def _fields(text: str) -> tuple[ProcedureField, ...]:
    fields = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, _, type_name = (piece.strip() for piece in part.partition("::"))
        fields.append(ProcedureField(name, type_name.rstrip("?").strip().upper()))
    return tuple(fields)


def parse_signature(signature: str) -> tuple[str, tuple[ProcedureField, ...], tuple[ProcedureField, ...]]:
    """`ns.name(in :: TYPE?, ...) :: (out :: TYPE?, ...)` -> name, inputs, outputs."""
    match = _SIGNATURE.match(signature)
    if match is None:
        raise ValueError(f"not a procedure signature: {signature!r}")
    return match["name"], _fields(match["inputs"]), _fields(match["outputs"])


@dataclass
class ProcedureRegistry:
    procedures: dict[str, Procedure] = field(default_factory=dict)

    def register(self, procedure: Procedure) -> None:
        self.procedures[procedure.name] = procedure

    def register_table(self, signature: str, rows: Sequence[Mapping[str, Any]]) -> None:
        name, inputs, outputs = parse_signature(signature)
        self.register(Procedure(name, inputs, outputs, tuple(dict(row) for row in rows)))

    def lookup(self, name: str) -> Procedure | None:
        return self.procedures.get(name) or BUILT_IN.get(name)

    def names(self) -> list[str]:
        """Every procedure a call may name: this registry's and the built-in ones."""
        return [*self.procedures, *BUILT_IN]


BUILT_IN: dict[str, Procedure] = {}
"""The procedures every connection has (vector search, graph algorithms, full-text queries), registered by the
feature packages through the composition root (engine/features.py)."""


def register_built_in(procedures: Iterable[Procedure]) -> None:
    BUILT_IN.update({procedure.name: procedure for procedure in procedures})


def check_arguments(procedure: Procedure, argument_types: Sequence[CypherType], span: Any) -> None:
    required = len(procedure.inputs) if procedure.required_inputs is None else procedure.required_inputs
    if not required <= len(argument_types) <= len(procedure.inputs):
        expected = str(required) if required == len(procedure.inputs) else f"{required} to {len(procedure.inputs)}"
        raise CypherSyntaxError(
            f"procedure {procedure.name} takes {expected} argument(s), got {len(argument_types)}",
            span, detail="InvalidNumberOfArguments")
    for declared, given in zip(procedure.inputs, argument_types, strict=False):
        if not declared.accepts(given):
            raise CypherSyntaxError(
                f"procedure {procedure.name}: argument `{declared.name}` must be {declared.type_name}, "
                f"got {given!r}", span, detail="InvalidArgumentType")
