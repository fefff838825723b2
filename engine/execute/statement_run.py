"""One statement's execution state (`StatementRun`): its DuckDB connection inside its transaction, the temporary
tables it made, its change log, where its errors point; and `Chain`, read clauses fused into one SELECT."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import duckdb

from engine import types as t
from engine.errors import StatementTimeout
from engine.execute.changes import StatementChanges
from engine.execute.parsed_sql import ParsedSql
from engine.execute.profile import Profile
from engine.execute.results import Result
from engine.limits import StatementTimer
from engine.semantic import bound as b
from engine.span import Span
from engine.sqlgen.arrow_rows import ArrowRows
from engine.sqlgen.context import Parameters
from engine.sqlgen.relation import Relation
from engine.storage.schema import GraphStore

_TABLE_NAMES = itertools.count()
T = TypeVar("T")


class StatementRun:
    """One statement's execution state: temp tables made so far, whether anything was deleted, and what
full-text indexes have yet to see."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, store: GraphStore,
                 timer: StatementTimer | None = None, *, writes: bool = True, deferred: bool = False,
                 parsed: ParsedSql | None = None) -> None:
        self._connection = connection
        self._parsed = parsed
        """The connection's SQL texts sent again, kept parsed (parsed_sql.py)."""
        self.alone = False
        """Whether the statement's one write may run in a transaction of its own (`fetch_alone`): the executor
        sets it where the statement is that write and its transaction is deferred."""
        self.wrote_alone = False
        """Whether a write ran so, and changed rows: it is committed, and the statement ran no SQL before it."""
        self.begun = not deferred
        """Whether the statement's transaction is open. A read defers it (`Executor._in_transaction`): one
        that turns out to be a single SELECT runs it on its own, which is as atomic, and saves the
        BEGIN and the COMMIT (a millisecond of a 10 ms lookup)."""
        self.store = store
        self.timer = timer
        self.tables: list[str] = []
        self._table_names = itertools.count(1)
        """Numbers the statement's tables (`materialize`) afresh in every run, so a statement run again sends the
        same SQL texts, whose parse is then kept (parsed_sql.py); `tables` are gone before the next run."""
        self.row_counts: dict[str, int] = {}
        """How many rows each table of `tables` holds (DuckDB's CREATE TABLE AS returns it)."""
        self.dense: set[str] = set()
        """The tables of `tables` whose `__ord` numbers their rows 1..n (what `settle` makes)."""
        self.projections: set[str] = set()
        """SELECTs of columns of a table of `tables` (`projection`)."""
        self.aliases = [0]
        self.deleted_nodes = False
        self.deleted_any = False
        self.span: Span | None = None
        self.trace: list[tuple[str, list[Any]]] | None = None
        self.sql_seconds = 0.0
        """Time spent inside DuckDB running this statement's SQL and fetching its rows."""
        self.changes = StatementChanges(self, writes=writes)
        self.writes = writes
        """Whether the statement has an updating clause (a read one never writes, not even the end-label counts)."""
        self.fuse = True
        """Whether consecutive read clauses run as one SELECT (ADR-0029); off for the re-run that locates
        an error raised inside such a SELECT."""
        self.in_chain = False
        """Whether the SQL running now is several fused read clauses (`span` covers them all)."""
        self.profile: Profile | None = None
        """The rows and time of each step, for PROFILE (profile.py); None when not profiling."""
        self.arrow_names: list[str] = []
        """Names under which this statement's ArrowRows values are registered on the connection (`bound`)."""
        self.run_query: Callable[[StatementRun, b.BoundQuery], Result] | None = None
        """Runs a bound query as part of this statement (the executor's): SHOW ... WHERE runs one."""
        self._virtual_ids = {"node": 0, "relationship": 0}
        """How many virtual nodes and relationships this statement has made (`virtual_ids`)."""

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The DuckDB connection, inside the statement's transaction (opened now if it was deferred)."""
        if not self.begun:
            if self.wrote_alone:  # the write committed on its own: nothing may follow it (ADR-0110)
                raise AssertionError("SQL after a statement's write that ran in a transaction of its own")
            self._connection.execute("BEGIN TRANSACTION")
            self.begun = True
        return self._connection

    def begin(self) -> None:
        """Open the statement's transaction now, if it was deferred."""
        _ = self.connection

    def fetch_alone(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...]:
        """`fetchone` of a write that is the whole statement's (`alone`, ADR-0110): with no transaction open yet,
        it runs in DuckDB's own, which is as atomic, and saves the BEGIN and the COMMIT. Its row's first
        column is the count of rows it changed: with none, the statement may still open its transaction."""
        if not self.alone or self.begun:
            return self.fetchone(sql, parameters)
        ran = self._run_sql(sql, parameters, last=True)
        row = self._profiled(ran, ran.fetchone())
        assert row is not None
        self.wrote_alone = bool(row[0])
        return row

    def _run_sql(self, sql: str | duckdb.Statement, parameters: Sequence[Any], *,
                 last: bool = False) -> duckdb.DuckDBPyConnection:
        """Run one SQL statement of this Cypher statement; `last`: nothing runs after it, so a deferred
        transaction need not open for it."""
        if self.timer is not None and self.timer.expired:  # it fired between two SQL statements
            raise StatementTimeout(self.timer.seconds or 0, self.span)
        if self.trace is not None:
            self.trace.append((sql, list(parameters)))
        connection = self._connection if last and not self.begun else self.connection
        if self._parsed is not None and isinstance(sql, str):
            sql = self._parsed.statement(sql)
        started = time.perf_counter()
        try:
            return connection.execute(sql, self.bound(parameters))
        finally:
            self.sql_seconds += time.perf_counter() - started

    def bound(self, parameters: Sequence[Any]) -> list[Any]:
        """The values DuckDB binds for `parameters`: an ArrowRows (engine/sqlgen/arrow_rows.py) is registered
        on the connection under a fresh name, which its SQL reads by (`query_table`), until `release_arrow`:
        not at once, as DuckDB may still stream a result reading it."""
        values = list(parameters)
        for position, value in enumerate(values):
            if isinstance(value, ArrowRows):
                name = f"_cypher_arrow{next(_TABLE_NAMES)}"
                self._connection.register(name, value.table)
                self.arrow_names.append(name)
                values[position] = name
        return values

    def release_arrow(self) -> None:
        """Unregister the statement's ArrowRows, once its results are fetched or it failed."""
        for name in self.arrow_names:
            self._connection.unregister(name)
        self.arrow_names.clear()

    def fetch_rows(self, sql: str | duckdb.Statement, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of the statement's last SQL statement (its result)."""
        ran = self._run_sql(sql, parameters, last=True)
        started = time.perf_counter()
        try:
            return self._profiled(ran, ran.fetchall())
        finally:
            self.sql_seconds += time.perf_counter() - started

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        ran = self._run_sql(sql, parameters)
        self._profiled(ran, None)

    def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        ran = self._run_sql(sql, parameters)
        return self._profiled(ran, ran.fetchall())

    def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...]:
        ran = self._run_sql(sql, parameters)
        row = self._profiled(ran, ran.fetchone())
        assert row is not None
        return row

    def _profiled(self, ran: duckdb.DuckDBPyConnection, fetched: T) -> T:
        """`fetched`, the rows of the SQL statement that just ran; under PROFILE, its operators kept first."""
        if self.profile is not None:
            self.profile.ran(ran)
        return fetched

    def materialize(self, select: str, variables: list[Any], parameters: Sequence[Any] = (), *,
                    dense: bool = False) -> Relation:
        """A temp table of the rows of `select` (a parenthesised SELECT or a table's name); `dense`: its `__ord`
        is 1..n (see `dense`)."""
        name = f"_cypher_t{next(self._table_names)}"
        (self.row_counts[name],) = self.fetchone(f"CREATE TEMP TABLE {name} AS SELECT * FROM {select}", parameters)
        self.tables.append(name)
        if dense:
            self.dense.add(name)
        return Relation(name, list(variables), table=True)

    def projection(self, table: Relation, select: str) -> Relation:
        """`select`, every row of the statement's table `table` with some of its columns left out, known to the
        writers as stored rows (`stored`) holding as many rows, numbered as densely: a writer reading them several
        times reads the table, never a copy of it."""
        self.projections.add(select)
        self.row_counts[select] = self.row_counts[table.sql]
        if table.sql in self.dense:
            self.dense.add(select)
        return Relation(select, table.variables)

    def stored(self, relation: Relation) -> bool:
        """Whether `relation` is a table this statement stored, or a projection of one (not a SELECT that would
        run again per read)."""
        return relation.sql in self.tables or relation.sql in self.projections

    def settle(self, relation: Relation, pending: Chain | None) -> Relation:
        """A binding table for `relation`: the fused SELECT of the read clauses since the last one
        materialized (None when `relation` is a table already), with `__ord` renumbered densely from 1, as
        writers and per-row subqueries number rows with it."""
        if pending is None:
            return relation
        span = self.span
        self.enter(pending)
        table = self.materialize(f"(SELECT * REPLACE (row_number() OVER (ORDER BY {relation.order}) AS __ord)"
                                 f" FROM {relation.sql})", relation.variables, pending.parameters.values, dense=True)
        self.span, self.in_chain = span, False
        return table

    def enter(self, chain: Chain) -> None:
        """Errors from here on are the chain's: its clauses' span."""
        self.span, self.in_chain = chain.span, chain.clauses > 1

    def virtual_ids(self, entity: str, count: int) -> list[int]:
        """`count` new ids for virtual nodes or relationships (`entity`), -1, -2, ... as Neo4j numbers them:
        negative, never a stored element's, and unique within the statement, so that the elements of one
        result stay apart however many procedures made them (ADR-0071)."""
        first = self._virtual_ids[entity]
        self._virtual_ids[entity] = first + count
        return [-(first + n) for n in range(1, count + 1)]

    def virtual_graph(self, nodes: list[Any], relationships: list[Any]) -> str:
        """The rows relation of a procedure yielding one virtual graph (`nodes`, `relationships`: payloads of
        `storage.encoding.virtual_node` / `virtual_relationship`), bound as two lists in one row."""
        bound = Parameters()
        columns = (f"{bound.bind(nodes, t.ANY_LIST)} AS nodes,"
                   f" {bound.bind(relationships, t.ANY_LIST)} AS relationships")
        return self.materialize(f"(SELECT {columns}, 1 AS __i)", [], bound.values).sql

    def drop_tables(self) -> None:
        if self.tables:  # one call: a round trip per table costs more than the DROPs themselves
            self.connection.execute("; ".join(f"DROP TABLE IF EXISTS {name}" for name in self.tables))
        self.tables.clear()
        self.row_counts.clear()
        self.dense.clear()
        self.projections.clear()


@dataclass
class Chain:
    """Read clauses fused into one SELECT that has not run yet: its parameter values and its clauses' span."""

    parameters: Parameters
    span: Span
    clauses: int = 1

    def add(self, span: Span) -> None:
        self.span = self.span.cover(span)
        self.clauses += 1


