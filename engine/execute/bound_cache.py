"""Bound statements kept by text, so a statement sent again skips binding (ADR-0105).

An agent or a page sends the same few writes again and again with other parameters; ADR-0044 keeps the
compiled SQL of a read, but a write's SQL is made clause by clause as it runs, so the most a write can skip
is its bind. The bound tree depends on the statement's text and on only three other things, each noted as
the bind runs and compared when the text is sent again:
- the parameters: each one's type, and the values the binder looked at (parameter_reads.py), as the compiled
  reads compare them (statement_cache.py); a statement calling a procedure, or one a macro expands, is not
  kept (a procedure's rows, a macro's clauses are fixed by what the registry and the values were);
- the catalog: the binder sees it through one function, the type of a property column (`compile.bind`), and
  every answer it got is noted; a column added or widened since changes an answer, and the text binds anew;
- nothing else: indexes, constraints, labels and the end-label facts are read when the statement runs.
The kept tree is run again with each parameter node's value set to the new one (`BParameter.given`, all of
them, wherever the tree holds one); planning and SQL generation run afresh on it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.compile import Bound, bind
from engine.execute.statement_cache import DEFAULT_SIZE, same_value, too_large
from engine.procedures import ProcedureRegistry
from engine.semantic import bound as b
from engine.semantic import parameter_reads
from engine.semantic.scope import Variable
from engine.storage.schema import Catalog
from engine.syntax import ast
from engine.types import CypherType, parameter_type


@dataclass(frozen=True)
class _Kept:
    bound: b.BoundQuery
    parameters: tuple[b.BParameter, ...]
    """Every parameter node the tree holds (through its variables too: `Variable.unwound`, `constant`)."""
    reads: parameter_reads.ParameterReads
    inspected: tuple[tuple[str, Any], ...]
    columns: tuple[tuple[str, str, CypherType | None], ...]
    """(entity, key, type) of every property column type the bind read."""


class _ColumnReads:
    """The catalog as the binder sees it (`column_type`), each answer noted."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.read: dict[tuple[str, str], CypherType | None] = {}

    def column_type(self, entity: str, key: str) -> CypherType | None:
        found = self.read[(entity, key)] = self.catalog.column_type(entity, key)
        return found


class BoundStatements:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, _Kept] = OrderedDict()
        self.hits = 0
        """Statements that ran a bound tree kept here."""

    def bind(self, text: str, statement: ast.Statement, params: Mapping[str, Any] | None, catalog: Catalog,
             procedures: ProcedureRegistry) -> Bound:
        """`statement` (parsed from `text`) bound: the tree kept for `text` when it serves these parameters
        and this catalog, else bound now (and kept when it may be)."""
        params = params or {}
        kept = self._entries.get(text)
        if kept is not None and _serves(kept, params, catalog):
            for node in kept.parameters:
                node.given = params[node.name]
            parameter_reads.add(kept.reads)
            self._entries.move_to_end(text)
            self.hits += 1
            return kept.bound
        columns = _ColumnReads(catalog)
        with parameter_reads.recording() as reads:
            bound = bind(statement, params, columns, procedures)
        parameter_reads.add(reads)
        if self.size > 0 and isinstance(bound, b.BoundQuery) and _may_keep(statement, reads, params):
            self._keep(text, _Kept(bound, _parameter_nodes(bound), reads,
                                   tuple((name, params[name]) for name in sorted(reads.inspected)),
                                   tuple((entity, key, found) for (entity, key), found in columns.read.items())))
        return bound

    def ran(self, text: str, bound: Bound) -> None:
        """The statement `text` has run with `bound`: a kept tree lets go of its parameters' values (a batch
        of rows a load sent must not stay in memory until the text comes again)."""
        kept = self._entries.get(text)
        if kept is not None and kept.bound is bound:
            for node in kept.parameters:
                node.given = None

    def _keep(self, text: str, kept: _Kept) -> None:
        self._entries[text] = kept
        self._entries.move_to_end(text)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


def _serves(kept: _Kept, params: Mapping[str, Any], catalog: Catalog) -> bool:
    """Whether binding again would give the kept tree: the same parameter types and looked-at values, the
    same column types."""
    try:
        return (all(name in params and parameter_type(params, name) == cypher_type
                    for name, cypher_type in kept.reads.types.items())
                and all(name in params and same_value(params[name], value) for name, value in kept.inspected)
                and all(catalog.column_type(entity, key) == found for entity, key, found in kept.columns))
    except (TypeError, ValueError):  # a value the binder refuses: binding it raises the error
        return False


def _may_keep(statement: ast.Statement, reads: parameter_reads.ParameterReads, params: Mapping[str, Any]) -> bool:
    """Not a statement that calls a procedure or a procedure macro (SEARCH is one), nor one whose looked-at
    values are too large to keep and compare."""
    if reads.calls_procedure or any(isinstance(node, ast.CallProcedure | ast.Search) for node in ast.walk(statement)):
        return False
    return not any(too_large(params[name]) for name in reads.inspected)


def _parameter_nodes(root: object) -> tuple[b.BParameter, ...]:
    """Every BParameter reachable from `root` through bound nodes, variables, lists, tuples and dicts."""
    found: list[b.BParameter] = []
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, b.BParameter):
            found.append(node)
        elif isinstance(node, list | tuple):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif type(node).__module__ == b.__name__ or isinstance(node, Variable):
            stack.extend(vars(node).values())
    return tuple(found)
