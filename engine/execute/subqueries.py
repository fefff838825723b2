"""CALL subqueries that write, and CALL { } IN TRANSACTIONS (ADR-0016).

A read-only CALL subquery is one correlated SELECT (a LATERAL join, `QueryCompiler.call_subquery`). One that
writes runs clause by clause like a top-level query, set-based over every outer row at once: its binding
table carries the outer row's `__ord` in a hidden key column, write clauses run over the whole table, and
each read clause runs once per outer row as a LATERAL join over the outer table, so that ORDER BY, LIMIT,
DISTINCT, aggregation and UNION inside the subquery stay per outer row. The rows it returns are joined back
to their outer rows.

Neo4j runs the subquery once per outer row, each run seeing the writes of the runs before it. Set-based
execution gives the same result unless one run can read what another writes; `footprint` says, from the
bound clauses alone, whether the subquery may read anything it writes (labels, relationship types,
property keys), and if it may, the subquery runs once per outer row instead (the manual's incremental
update and linked-list examples need this).

IN TRANSACTIONS runs the subquery over batches of outer rows, each batch committed on its own, with the
manual's ON ERROR CONTINUE / BREAK / FAIL and REPORT STATUS.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any

import duckdb

from engine import types as t
from engine.errors import CypherArgumentError, CypherError, ProcedureError
from engine.execute import end_labels
from engine.execute.duckdb_errors import translate
from engine.execute.procedure_arguments import read_argument_values
from engine.execute.statement_run import StatementRun
from engine.plan.plan import Step
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.generator import QueryCompiler, union_select
from engine.sqlgen.relation import Relation
from engine.syntax import ast
from engine.types import Kind, sql_type

if TYPE_CHECKING:
    from engine.execute.executor import Executor

ReadClause = Callable[["StatementRun", b.BoundClause, Relation], Relation]

_KEYS = itertools.count()
_TRANSACTION_IDS = itertools.count(1)
DEFAULT_BATCH_SIZE = 1000


def run_call_subquery(executor: Executor, run: StatementRun, clause: b.BCallSubquery,
                      outer: Relation) -> tuple[Relation, Counter[str]]:
    """The binding table after `clause` over the outer table `outer`, and the writes' counters."""
    call = CallRun(executor, run, clause)
    if clause.transactions is not None:
        if executor.transaction.open:  # its batches commit: not inside a transaction the client ends
            raise CypherError("A query with 'CALL { ... } IN TRANSACTIONS' can only be executed in an implicit "
                              "transaction, but tried to execute in an explicit transaction", clause.span,
                              detail="ForbiddenDueToTransactionType")
        return call.in_transactions(outer)
    inner, counters = call.over(outer)
    return call.join_back(outer, inner), counters


class CallRun:
    """One CALL subquery clause of a running statement."""

    def __init__(self, executor: Executor, run: StatementRun, clause: b.BCallSubquery) -> None:
        self.executor = executor
        self.run = run
        self.clause = clause
        self.key = Variable("\x00outer row", t.INTEGER, f"__outer{next(_KEYS)}", anonymous=True)
        self.per_row = conflicts(clause.query)

    # -- one pass over a set of outer rows ---------------------------------------------------------------

    def over(self, outer: Relation) -> tuple[Relation, Counter[str]]:
        """The subquery's rows for every row of `outer` (the key column says whose), set-based; or one
        outer row at a time when a run could read what another writes."""
        if not self.per_row:
            return self._set_based(outer)
        (count,) = self.run.fetchone(f"SELECT count(*) FROM {outer.sql}")
        ords = [row[0] for row in self.run.connection.execute(
            f"SELECT __ord FROM {outer.sql} ORDER BY __ord").fetchall()] if count else []
        counters: Counter[str] = Counter()
        results: list[Relation] = []
        for ord_value in ords:
            single = self.run.materialize(f"(SELECT * FROM {outer.sql} WHERE __ord = $1)", outer.variables,
                                          [ord_value])
            result, row_counters = self._set_based(single)
            counters += row_counters
            results.append(result)
        if not results:
            return self._set_based(self.run.materialize(f"(SELECT * FROM {outer.sql} WHERE false)",
                                                        outer.variables))
        return self._concatenate(results), counters

    def _set_based(self, outer: Relation) -> tuple[Relation, Counter[str]]:
        imports = list(self.clause.imports)
        seed = self.run.materialize(
            f"(SELECT {_columns(['__ord AS ' + self.key.column] + [v.column for v in imports])}"
            f"__ord FROM {outer.sql})", [self.key, *imports])
        read = self._reader(outer, imports)
        counters: Counter[str] = Counter()
        relations = []
        for part in self.clause.query.parts:
            relation, part_counters = self.executor.run_single(self.run, part, seed, read)
            counters += part_counters
            relations.append(relation)
        query = self.clause.query
        if len(query.parts) == 1:
            return relations[0], counters
        union = union_select(query, relations, partition=self.key.column)
        return self.run.materialize(f"({union})", [self.key, *query.output]), counters

    def _reader(self, outer: Relation, pinned: list[Variable]) -> ReadClause:
        """How a read clause runs inside the subquery: once per outer row, as a LATERAL join of the outer
        table with the clause's SELECT over that row's part of the binding table. The key column and the
        imported variables (which the subquery sees in every clause) are put back on every row."""
        key = self.key

        def read(run: StatementRun, clause: b.BoundClause, relation: Relation) -> Relation:
            parameters = Parameters()
            queries = QueryCompiler(self.executor.store.catalog, parameters)
            queries.aliases = run.aliases
            queries.tombstones = run.deleted_any
            row = queries.alias("o")
            variables = [v for v in relation.variables if v is not key]
            part = Relation(f"(SELECT * FROM {relation.sql} WHERE {key.column} = {row}.__ord)", variables)
            read_argument_values(run, queries, clause, Relation(relation.sql, variables, table=relation.table))
            produced = queries.read_clause(Step(clause), part)
            if queries.reads_fulltext:
                run.changes.sync()
            sub = queries.alias("s")
            missing = [v for v in pinned if all(v is not w for w in produced.variables)]
            columns = [f"{row}.__ord AS {key.column}", *(f"{row}.{v.column}" for v in missing),
                       *(f"{sub}.{v.column}" for v in produced.variables)]
            select = (f"(SELECT {_columns(columns)}row_number() OVER (ORDER BY {row}.__ord, {sub}.__ord) AS __ord"
                      f" FROM {outer.sql} AS {row} CROSS JOIN LATERAL {produced.sql} AS {sub})")
            return run.materialize(select, [key, *missing, *produced.variables], parameters.values)

        return read

    def _concatenate(self, results: list[Relation]) -> Relation:
        columns = ", ".join([self.key.column, *(v.column for v in self.clause.returns), "__ord"])
        union = " UNION ALL ".join(f"SELECT {columns} FROM {r.sql}" for r in results)
        return self.run.materialize(f"({union})", [self.key, *self.clause.returns])

    # -- the rows after the CALL ---------------------------------------------------------------------------

    def join_back(self, outer: Relation, inner: Relation, extra: list[Variable] | None = None) -> Relation:
        """Each outer row with each of its subquery rows (OPTIONAL CALL: or nulls when it has none); a unit
        subquery leaves the outer rows as they were."""
        returns = [*self.clause.returns, *(extra or [])]
        if not returns:
            return outer
        join = "LEFT JOIN" if self.clause.optional else "JOIN"
        columns = [f"o.{v.column}" for v in outer.variables] + [f"i.{v.column}" for v in returns]
        select = (f"(SELECT {_columns(columns)}row_number() OVER (ORDER BY o.__ord, i.__ord) AS __ord"
                  f" FROM {outer.sql} AS o {join} {inner.sql} AS i ON i.{self.key.column} = o.__ord)")
        return self.run.materialize(select, [*outer.variables, *returns])

    # -- IN TRANSACTIONS ---------------------------------------------------------------------------------

    def in_transactions(self, outer: Relation) -> tuple[Relation, Counter[str]]:
        """Batches of outer rows, each run and committed as its own transaction (the manual's "CALL
        subqueries in transactions"). A failed batch is rolled back; ON ERROR FAIL then fails the statement
        (what earlier batches committed stays), CONTINUE gives that batch's rows nulls and goes on, BREAK
        gives nulls to it and every later batch."""
        options = self.clause.transactions
        assert options is not None
        if options.repeat is not None:
            return self.repeated(outer, options.repeat)
        size = self._batch_size(options)
        ords = [row[0] for row in self.run.connection.execute(
            f"SELECT __ord FROM {outer.sql} ORDER BY __ord").fetchall()]
        batches = [ords[i:i + size] for i in range(0, len(ords), size)]
        report = options.report
        extra = [report] if report is not None else []
        counters: Counter[str] = Counter()
        results: list[Relation] = []
        committed = 0
        failed = False
        self._commit()

        def batch_rows(batch: list[int]) -> Relation:
            return self.run.materialize(f"(SELECT * FROM {outer.sql} WHERE __ord BETWEEN $1 AND $2)",
                                        outer.variables, [batch[0], batch[-1]])

        for batch in batches:
            rows = batch_rows(batch)
            if failed:  # after ON ERROR BREAK
                results.append(self._null_rows(rows, report, Status(False, False, None, None)))
                continue
            transaction = f"transaction-{next(_TRANSACTION_IDS)}"
            state = self.run.deleted_nodes, self.run.deleted_any
            # A batch's result tables are made before its commit, and a failed batch's after its rollback
            # and then committed: temporary tables go with a rolled-back transaction.
            try:
                inner, batch_counters = self.over(rows)
                if self.run.deleted_nodes:
                    self.executor.check_no_dangling(self.run)
                status = Status(True, True, transaction, None)
                if self.clause.returns:
                    result = self._with_status(inner, report, status)
                else:  # a unit subquery: its outer rows go on, each with the batch's status
                    result = self._null_rows(rows, report, status)
                self._commit()
            except (CypherError, duckdb.Error) as error:
                cypher_error = self._as_cypher_error(error)
                self._rollback(state)
                if options.on_error == "fail":
                    cypher_error.message = f"{cypher_error.message} (Transactions committed: {committed})"
                    cypher_error.args = (cypher_error.message,)
                    raise cypher_error from error
                failed = options.on_error == "break"
                status = Status(True, False, transaction, cypher_error.message)
                results.append(self._null_rows(batch_rows(batch), report, status))
                self._commit()
                continue
            committed += 1
            counters += batch_counters
            results.append(result)
        if not results:
            empty = self.run.materialize(f"(SELECT * FROM {outer.sql} WHERE false)", outer.variables)
            results.append(self._null_rows(empty, report, Status(False, False, None, None)))
        inner = self._concatenate_with(results, extra)
        return self.join_back(outer, inner, extra), counters

    def repeated(self, outer: Relation, repeat: Variable) -> tuple[Relation, Counter[str]]:
        """The subquery over all the outer rows, again and again, each run a transaction of its own, until the
        `repeat` values of a run sum to 0 or null (`apoc.periodic.commit`). A run that fails is rolled back,
        its status reported, and ends the runs (ON ERROR BREAK). A run that counts more but wrote nothing
        would be repeated as it is forever, as would one still counting after MAX_RUNS runs: each is an error,
        the runs before it committed."""
        options = self.clause.transactions
        assert options is not None
        report = options.report
        extra = [report] if report is not None else []
        counters: Counter[str] = Counter()
        results: list[Relation] = []
        self._commit()
        for runs in range(MAX_RUNS + 1):
            transaction = f"transaction-{next(_TRANSACTION_IDS)}"
            state = self.run.deleted_nodes, self.run.deleted_any
            try:
                inner, run_counters = self.over(outer)
                if self.run.deleted_nodes:
                    self.executor.check_no_dangling(self.run)
                (count,) = self.run.fetchone(f"SELECT sum(TRY_CAST({repeat.column} AS BIGINT)) FROM {inner.sql}")
                if count and (runs == MAX_RUNS or not any(run_counters.values())):
                    raise _endless(runs, self.run.span, wrote=bool(any(run_counters.values())))
                results.append(self._with_status(inner, report, Status(True, True, transaction, None)))
                self._commit()
            except (CypherError, duckdb.Error) as error:
                cypher_error = self._as_cypher_error(error)
                self._rollback(state)
                if cypher_error.detail == ENDLESS:
                    raise cypher_error from error
                results.append(self._null_rows(outer, report, Status(True, False, transaction, cypher_error.message)))
                self._commit()
                break
            counters += run_counters
            if not count:
                break
        inner = self._concatenate_with(results, extra)
        return self.join_back(outer, inner, extra), counters

    def _batch_size(self, options: b.BTransactions) -> int:
        """OF n ROWS: a positive integer, from an expression without variables (a literal, a parameter, or
        arithmetic on them, computed here)."""
        expression = options.batch_size
        if expression is None:
            return DEFAULT_BATCH_SIZE
        if isinstance(expression, b.BLiteral | b.BParameter):
            value = expression.value
        else:
            parameters = Parameters()
            queries = QueryCompiler(self.executor.store.catalog, parameters)
            compiler = ExpressionCompiler(queries.context_for(Relation("(SELECT 1)", []), queries.alias()), queries)
            (value,) = self.run.fetchone(f"SELECT {compiler.compile(expression)}", parameters.values)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise CypherArgumentError(f"Invalid input. '{value}' is not a valid value. Must be a positive integer.",
                                      expression.span, detail="InvalidArgumentValue")
        return value

    def _commit(self) -> None:
        """End the transaction so far (the statement's reads, or a batch) and start the next one. Under
        `explain` (a traced run that is rolled back) nothing is committed."""
        if self.run.trace is not None:
            return
        end_labels.settle(self.run, count_all=False)
        self.run.changes.sync()
        if self.run.deleted_any:
            self.executor.store.deleting()
        self.executor.store.before_commit()
        self.run.connection.execute("COMMIT")
        self.executor.store.committed()
        self.run.connection.execute("BEGIN TRANSACTION")

    def _rollback(self, state: tuple[bool, bool]) -> None:
        if self.run.trace is not None:
            return
        self.run.connection.execute("ROLLBACK")
        self.executor.store.rolled_back()
        self.run.connection.execute("BEGIN TRANSACTION")
        self.executor.store.reload()
        self.run.deleted_nodes, self.run.deleted_any = state
        self.run.changes.begin()

    def _as_cypher_error(self, error: Exception) -> CypherError:
        if isinstance(error, CypherError):
            if error.span is None:
                error.span = self.run.span
            return error
        assert isinstance(error, duckdb.Error)
        return translate(error, self.run.span)

    def _null_rows(self, rows: Relation, report: Variable | None, status: Status) -> Relation:
        """One row per outer row of a batch that did not run or failed: its returned variables null."""
        parameters = Parameters()
        columns = [f"__ord AS {self.key.column}"]
        columns += [f"NULL::{sql_type(v.type)} AS {v.column}" for v in self.clause.returns]
        if report is not None:
            columns.append(f"{parameters.bind(status.value(), report.type)} AS {report.column}")
        select = f"(SELECT {_columns(columns)}1::BIGINT AS __ord FROM {rows.sql})"
        return self.run.materialize(select, [self.key, *self.clause.returns, *([report] if report else [])],
                                    parameters.values)

    def _with_status(self, inner: Relation, report: Variable | None, status: Status) -> Relation:
        if report is None:
            return inner
        parameters = Parameters()
        value = parameters.bind(status.value(), report.type)
        return self.run.materialize(f"(SELECT *, {value} AS {report.column} FROM {inner.sql})",
                                    [*inner.variables, report], parameters.values)

    def _concatenate_with(self, results: list[Relation], extra: list[Variable]) -> Relation:
        names = [self.key.column, *(v.column for v in [*self.clause.returns, *extra]), "__ord"]
        union = " UNION ALL ".join(f"SELECT {', '.join(names)} FROM {r.sql}" for r in results)
        return self.run.materialize(f"({union})", [self.key, *self.clause.returns, *extra])


MAX_RUNS = 10_000
"""The most runs of a repeated subquery (`apoc.periodic.commit`): APOC would go on while the count is above 0."""
ENDLESS = "EndlessRepetition"


def _endless(runs: int, span: Any, *, wrote: bool) -> CypherError:
    """The error of a repeated statement that would never count 0."""
    reason = (f"still counts more after {runs:,} runs" if wrote
              else "counted more but wrote nothing, so it would count the same again")
    return ProcedureError(f"apoc.periodic.commit stopped: its statement {reason}, and APOC would run it forever;"
                          f" make it change what it counts (Transactions committed: {runs})", span, detail=ENDLESS)


@dataclass(frozen=True)
class Status:
    """A batch's REPORT STATUS value."""

    started: bool
    committed: bool
    transaction_id: str | None
    error_message: str | None

    def value(self) -> dict[str, Any]:
        return {"started": self.started, "committed": self.committed, "transactionId": self.transaction_id,
                "errorMessage": self.error_message}


def _columns(columns: list[str]) -> str:
    return "".join(f"{column}, " for column in columns)


# ------------------------------------------------------------------------------------------------------
# Footprints: what a subquery's clauses may read and write


@dataclass(frozen=True)
class Token:
    """A part of the graph a clause reads or writes: ('label', name), ('type', name), ('key', name), with
    '*' for any name; ('all', '*') is everything (DELETE)."""

    kind: str
    name: str

    def meets(self, other: Token) -> bool:
        if self.kind == "all" or other.kind == "all":
            return True
        return self.kind == other.kind and (self.name == other.name or "*" in (self.name, other.name))


@dataclass
class Footprint:
    reads: set[Token]
    writes: set[Token]
    merge_reads: set[Token]
    """Reads of a MERGE pattern: MERGE already sees, row by row, what its own earlier rows created."""


def conflicts(query: b.BoundQuery) -> bool:
    """True when one run of the subquery (for one outer row) may read what another run writes, so that
    running a clause for every outer row before the next clause could differ from Neo4j's run per row."""
    prints = [clause_footprint(clause, fresh) for part in query.parts
              for clause, fresh in _with_fresh_variables(part.clauses)]
    if not any(p.writes for p in prints):
        return False
    for i, reader in enumerate(prints):
        for j, writer in enumerate(prints):
            reads = reader.reads if i == j else reader.reads | reader.merge_reads
            if any(r.meets(w) for r in reads for w in writer.writes):
                return True
    return False


def _with_fresh_variables(clauses: list[b.BoundClause]) -> Iterator[tuple[b.BoundClause, set[int]]]:
    """Each clause with the variables bound, before it, to elements this subquery created: their
    properties and labels only the run that created them can reach, except through a pattern, whose
    reads are counted anyway."""
    fresh: set[int] = set()
    for clause in clauses:
        yield clause, set(fresh)
        if isinstance(clause, b.BCreate):
            for path in clause.paths:
                fresh.update(id(node.variable) for node in path.nodes if node.is_new)
                fresh.update(id(rel.variable) for rel in path.relationships)
        elif isinstance(clause, b.BProjection):
            for item in clause.items:
                if isinstance(item.expression, b.BVariable) and id(item.expression.variable) in fresh:
                    fresh.add(id(item.variable))


def clause_footprint(clause: b.BoundClause, fresh: set[int] | None = None) -> Footprint:
    footprint = Footprint(set(), set(), set())
    _visit(clause, footprint, fresh or set())
    return footprint


GRAPH_READING_FUNCTIONS = {"labels": Token("label", "*"), "keys": Token("key", "*"),
                           "properties": Token("key", "*")}


def _visit(node: Any, footprint: Footprint, fresh: set[int]) -> None:
    """Collect the reads and writes of a bound clause, expression or query, recursively."""
    if isinstance(node, b.BMatch):
        for path in node.paths:
            _pattern_reads(path, footprint.reads, fresh)
        _visit(node.where, footprint, fresh)
        return
    if isinstance(node, b.BMerge):
        _pattern_reads(node.path, footprint.merge_reads, fresh)
        _creation_writes([node.path], footprint.writes)
        for item in [*node.on_create, *node.on_match]:
            _visit(item, footprint, fresh)
        return
    if isinstance(node, b.BCreate):
        _creation_writes(node.paths, footprint.writes)
        for path in node.paths:
            for element in [*path.nodes, *path.relationships]:
                _visit(getattr(element, "properties", None), footprint, fresh)
        return
    if isinstance(node, b.BDelete):
        footprint.writes.add(Token("all", "*"))
        return
    if isinstance(node, b.BoundSetItem):
        footprint.writes.update(_set_writes(node))
        _visit(node.value, footprint, fresh)
        if node.kind != "labels" and node.kind != "remove_labels":
            _visit(node.target, footprint, fresh)
        return
    if isinstance(node, b.BCallProcedure):
        if node.procedure.sql is not None or node.procedure.compile is not None:
            footprint.reads.add(Token("all", "*"))
        for argument in node.arguments:
            _visit(argument, footprint, fresh)
        _visit(node.where, footprint, fresh)
        return
    if isinstance(node, b.BProperty):
        if _graph_element(node.subject) and not _is_fresh(node.subject, fresh):
            footprint.reads.add(Token("key", node.key))
        _visit(node.subject, footprint, fresh)
        return
    if isinstance(node, b.BIndex):
        if _graph_element(node.subject) and not _is_fresh(node.subject, fresh):
            key = node.index.value if isinstance(node.index, b.BLiteral) and isinstance(node.index.value, str) else "*"
            footprint.reads.add(Token("key", key))
    elif isinstance(node, b.BEntityProperties):
        if not _is_fresh(node.subject, fresh):
            footprint.reads.add(Token("key", "*"))
    elif isinstance(node, b.BHasLabels):
        if not _is_fresh(node.subject, fresh):
            kind = "type" if node.subject.type.kind is Kind.RELATIONSHIP else "label"
            footprint.reads.update(Token(kind, name) for name in _label_names(node.labels))
            if node.subject.type.kind not in (Kind.NODE, Kind.RELATIONSHIP):
                footprint.reads.add(Token("label", "*"))
    elif isinstance(node, b.BHasDynamicLabels):
        if not _is_fresh(node.subject, fresh):
            footprint.reads.add(Token("type" if node.subject.type.kind is Kind.RELATIONSHIP else "label", "*"))
    elif isinstance(node, b.BFunction) and node.name in GRAPH_READING_FUNCTIONS and not (
            node.arguments and _is_fresh(node.arguments[0], fresh)):
        footprint.reads.add(GRAPH_READING_FUNCTIONS[node.name])
    if isinstance(node, b.BoundQuery):
        for part in node.parts:
            for clause, inner_fresh in _with_fresh_variables(part.clauses):
                _visit(clause, footprint, fresh | inner_fresh)
        return
    if isinstance(node, list | tuple):
        for item in node:
            _visit(item, footprint, fresh)
        return
    if not is_dataclass(node) or isinstance(node, Variable | ast.SyntaxNode | t.CypherType):
        return
    for field in fields(node):
        if field.name not in ("span", "type"):
            _visit(getattr(node, field.name), footprint, fresh)


def _pattern_reads(path: b.BoundPath, reads: set[Token], fresh: set[int]) -> None:
    """What matching a pattern reads: the labels and types it names (any, when it names none) and the
    keys of its property maps; inline predicates are expressions like any other."""
    footprint = Footprint(reads, set(), set())
    for node in path.nodes:
        if id(node.variable) not in fresh:
            names = _label_names(node.labels)
            reads.update(Token("label", name) for name in names)
            if not names and node.is_new:
                reads.add(Token("label", "*"))
            reads.update(_map_keys(node.properties, "key"))
        _visit(node.where, footprint, fresh)
        _visit(node.properties, footprint, fresh)
    for link in path.relationships:
        if isinstance(link, b.BoundGroup):
            inner = b.BoundPath(link.nodes, list(link.relationships), None, None, link.span)
            _pattern_reads(inner, reads, fresh)
            _visit(link.where, footprint, fresh)
            continue
        names = _label_names(link.types)
        reads.update(Token("type", name) for name in names)
        if not names:
            reads.add(Token("type", "*"))
        reads.update(_map_keys(link.properties, "key"))
        _visit(link.where, footprint, fresh)
        _visit(link.properties, footprint, fresh)
    _visit(path.where, footprint, fresh)


def _creation_writes(paths: list[b.BoundPath], writes: set[Token]) -> None:
    for path in paths:
        for node in path.nodes:
            if node.is_new:
                writes.add(Token("label", ""))  # a new node, whatever its labels: unlabelled patterns see it
                writes.update(Token("label", name) for name in _label_names(node.labels))
                writes.update({Token("label", "*")} if node.dynamic else set())
                writes.update(_map_keys(node.properties, "key"))
        for link in path.relationships:
            if isinstance(link, b.BoundRelationship):
                writes.update(Token("type", name) for name in _label_names(link.types))
                writes.update({Token("type", "*")} if link.dynamic else set())
                writes.update(_map_keys(link.properties, "key"))


def _set_writes(item: b.BoundSetItem) -> set[Token]:
    if item.kind in ("labels", "remove_labels"):
        read_off_the_row = {Token("label", "*")} if item.value is not None else set()
        return {Token("label", name) for name in item.labels} | read_off_the_row
    if item.kind in ("property", "remove_property"):
        return {Token("key", item.key if isinstance(item.key, str) else "*")}
    if item.kind == "merge" and isinstance(item.value, b.BMap):
        return {Token("key", key) for key, _ in item.value.entries}
    return {Token("key", "*")}


def _map_keys(properties: b.BoundExpression | None, kind: str) -> set[Token]:
    if properties is None:
        return set()
    if isinstance(properties, b.BMap):
        return {Token(kind, key) for key, _ in properties.entries}
    return {Token(kind, "*")}


def _label_names(expression: ast.LabelExpression | None) -> set[str]:
    """Every label (or type) a label expression names; '*' for the wildcard `%`."""
    if expression is None:
        return set()
    names: set[str] = set()
    pending: list[ast.LabelExpression] = [expression]
    while pending:
        current = pending.pop()
        if isinstance(current, ast.LabelName):
            names.add(current.name)
        elif isinstance(current, ast.LabelOr | ast.LabelAnd):
            pending.extend([current.left, current.right])
        elif isinstance(current, ast.LabelNot):
            pending.append(current.operand)
        else:  # % or a label expression this analysis does not know: any label
            names.add("*")
    return names


def _graph_element(expression: b.BoundExpression) -> bool:
    """Whether a property lookup on this may read a node or relationship (maps are values)."""
    return expression.type.kind not in (Kind.MAP, *t.TEMPORAL_KINDS)


def _is_fresh(expression: b.BoundExpression, fresh: set[int]) -> bool:
    return isinstance(expression, b.BVariable) and id(expression.variable) in fresh
