"""Connections: one DuckDB database (in memory or a single file) holding named property graphs (ADR-0068),
a connection on one of them at a time."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import os
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import duckdb

from engine.compile import bind
from engine.errors import CypherError, DatabaseLocked, DatabaseNotFound, UnsupportedFeature
from engine.execute import macros, normal_forms, runtime_catalog, statement_cache
from engine.execute.bound_cache import BoundStatements
from engine.execute.executor import Executor
from engine.execute.profile import Profile, profiled_rows
from engine.execute.results import Result, Window, empty_counters
from engine.execute.schema_info import describe_schema
from engine.execute.statement_cache import StatementCache
from engine.execute.transaction import ExplicitTransaction
from engine.host import allow_import, host
from engine.limits import (
    COMPILE_RECURSION,
    DEFAULT_MAX_WALK_ROWS,
    IMPORT_VARIABLE,
    LIST_VARIABLE,
    TEXT_VARIABLE,
    WALK_VARIABLE,
    WRITE_WAIT,
    Limits,
    checked_timeout,
    deep_compile,
    list_cap,
    parameter_nested_too_deeply,
    text_cap,
)
from engine.plan.describe import EXPLAIN_COLUMNS, plan_lines, schema_line
from engine.plugins import compiler as _plugins  # noqa: F401 - registers the feature packages
from engine.procedures import ProcedureRegistry
from engine.quoting import sql_identifier, sql_string
from engine.semantic import parameter_reads
from engine.semantic.bound import BoundQuery, BSchemaCommand
from engine.semantic.unknown import WithUnknowns
from engine.sharing import holder
from engine.sharing.client import SharedConnection
from engine.span import Span
from engine.sqlgen import runtime
from engine.storage import graphs, id_counters, write_lock
from engine.storage.open_errors import open_error
from engine.storage.schema import GraphStore
from engine.syntax.ast import (
    CreateConstraint,
    CreateIndex,
    DatabaseCommand,
    DropConstraint,
    DropIndex,
    Statement,
)
from engine.syntax.parser import parse, parse_script
from engine.syntax.prefix import plan_prefix, without_query_options
from engine.types import typed_parameters
from engine.values import DateTime


@functools.lru_cache(maxsize=256)
def _parsed(statement: str) -> Statement:
    """`parse`, remembered: an agent or a page sends the same few statements again and again, and the tree is
    immutable (frozen dataclasses of tuples), so one parse serves every bind. Errors are raised again."""
    return parse(statement)


@functools.lru_cache(maxsize=256)
def _prefixed(sent: str) -> tuple[str, str | None, str]:
    """The statement without its `CYPHER ...` options, its EXPLAIN or PROFILE (or None), and the statement with
    that word blanked too (prefix.py), remembered by the text as sent, as `_parsed` is."""
    statement = without_query_options(sent)
    return (statement, *plan_prefix(statement))


@functools.lru_cache(maxsize=256)
def _parsed_script(text: str) -> tuple[tuple[Statement, Span], ...]:
    return tuple(parse_script(text))


T = TypeVar("T")

MAX_SQL_DEPTH = 4000
"""DuckDB's `max_expression_depth` (1,000 by default): a 400-term `+` is deeper than that in SQL, while the
compiler takes chains of about 2,000 terms (engine.limits.COMPILE_RECURSION)."""

CHECKPOINT_WRITES = 500_000
"""An in-memory graph is checkpointed once its statements have made this many changes (the sum of their
update counters) since the last checkpoint. DuckDB compresses row groups only when it fully checkpoints, and
the in-memory host turns DuckDB's own automatic checkpoint off (it only vacuums; a file's is kept): scans over
uncompressed row groups cost up to a third more. On the social graph (100k nodes, 1M relationships)
shortest paths between 100 pairs took 142 ms before the checkpoint and 115 ms after it; the checkpoint
itself 0.09 s."""

CHECKPOINT_BEFORE_READ = 50_000
"""A read that finds this many changes of an in-memory graph not checkpointed checkpoints it first: a bulk
load's last batches would stay uncompressed otherwise (up to CHECKPOINT_WRITES changes), and every later
scan would read them so. After the benchmark's agent-memory load at 100k (200,000 changes pending, 0.12 s
to checkpoint), `chains_1_5` took 13.8 ms instead of 17.7 (ADR-0045)."""


def _bounded_depth(method: Callable[..., T]) -> Callable[..., T]:
    """`method` (which takes a statement and its parameters) with parameters nested too deeply refused and
    deep expression trees compiled under a higher recursion limit (engine.limits); a tree deeper still is
    an UnsupportedFeature, never a RecursionError."""
    @functools.wraps(method)
    def bounded(self: Connection, text: str, params: Mapping[str, Any] | None = None, *args: Any,
                **kwargs: Any) -> T:
        params, too_deep = typed_parameters(params)
        if too_deep is not None:
            raise parameter_nested_too_deeply(too_deep).with_source(text)
        try:
            with deep_compile():
                return method(self, text, params, *args, **kwargs)
        except RecursionError:
            raise UnsupportedFeature("an expression nested or chained too deeply to compile (more than about "
                                     f"{COMPILE_RECURSION // 4} levels); split it, or pass the values as a list "
                                     "parameter", Span(1, 1, 0, len(text)),
                                     detail="ExpressionTooDeep").with_source(text) from None
    return bounded


def _fails_its_transaction(method: Callable[..., T]) -> Callable[..., T]:
    """`method` (which runs statements) with a failure at any stage (parsing, binding, running) ending an
    open explicit transaction, rolled back, as Neo4j ends a transaction whose statement failed (ADR-0078)."""
    @functools.wraps(method)
    def failing(self: Connection, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except BaseException:
            self.rollback()
            raise
    return failing


def _timed(result: Result, started: float, binding: float) -> Result:
    """`result` with the statement's total time (since `started`) and its parsing and binding time."""
    result.timings.update(bind=binding, total=time.perf_counter() - started)
    return result


def _sliced(result: Result, window: Window | None) -> Result:
    """`result` cut to `window` where its rows came whole (a plan's, a database command's): the same answer
    as a windowed fetch, without ties (no later window resumes it exactly)."""
    if window is not None:
        result.more = len(result.rows) > window.offset + window.size
        result.rows = result.rows[window.offset:window.offset + window.size]
        result.repeatable = False
    return result


def _reads_only(statement: BoundQuery | BSchemaCommand) -> bool:
    return isinstance(statement, BoundQuery) and not statement.updating


SCHEMA_WRITES = (CreateIndex, DropIndex, CreateConstraint, DropConstraint)


def _query_type(statement: BoundQuery | BSchemaCommand) -> str:
    """Neo4j's query type (`Result.query_type`) from the statement itself, not from what it changed: a write
    that matched nothing is still `w`, and EXPLAIN reports it without running it."""
    if isinstance(statement, BSchemaCommand):
        return "s" if isinstance(statement.statement, SCHEMA_WRITES) else "r"
    if not statement.updating:
        return "r"
    return "rw" if statement.columns else "w"


def _typed(result: Result, statement: BoundQuery | BSchemaCommand) -> Result:
    result.query_type = _query_type(statement)
    return result


def _open_file(path: str, memory_limit: str, import_dir: str | None) -> duckdb.DuckDBPyConnection:
    """A single-file database with the runtime macros, under the memory limit and with external access off
    (ADR-0022): no statement can read or write a file, load an extension or reach a network. The database
    file and the macros' cache file (ADR-0031) are opened before that applies; when the cache cannot be had
    the macros are made as TEMP ones, which never reach the user's file."""
    try:
        duck = duckdb.connect(path, config={"memory_limit": memory_limit})
    except duckdb.Error as error:
        raise open_error(path, error) from None
    try:
        if runtime_catalog.attach(duck):
            (database,) = duck.execute("SELECT current_database()").fetchone() or ("",)
            duck.execute(f"SET search_path = {sql_string(f'{sql_identifier(database)}.main,{runtime_catalog.SCHEMA}')}")
        else:
            macros.install(duck)
        normal_forms.register(duck)
        allow_import(duck, import_dir)
        duck.execute("SET enable_external_access = false")
    except BaseException:
        duck.close()
        raise
    return duck


@dataclasses.dataclass
class _Graph:
    """What a connection keeps of one graph it has used: its store, executor and compiled reads."""

    schema: str
    search_path: str
    store: GraphStore
    executor: Executor
    statements: StatementCache
    bound: BoundStatements


DATABASE_COLUMNS = ("name", "type", "access", "currentStatus", "default", "home", "lastWrite")
"""SHOW DATABASES' columns: Neo4j's that have a meaning for a graph of one database, and its last write."""


class Connection:
    """An open graph database, on one of its graphs (`graph`). Use `engine.connect()` to make one; close it or
    use it as a context manager."""

    def __init__(self, path: str = ":memory:", limits: Limits | None = None, *,
                 statement_cache_size: int = statement_cache.DEFAULT_SIZE, import_dir: str | None = None,
                 graph: str = graphs.DEFAULT_GRAPH) -> None:
        self.path = path
        self.limits = limits or Limits()
        self._attached: str | None = None
        self.import_dir = None if import_dir is None else os.path.realpath(import_dir)
        if path == ":memory:":
            self._duck, self._attached = host(self.limits.memory, self.import_dir).open()
        else:
            self._duck = _open_file(path, self.limits.memory, self.import_dir)
        self._duck.execute(f"SET TimeZone = 'UTC'; SET max_expression_depth = {MAX_SQL_DEPTH};"
                           f" {runtime.session_sql()};"
                           f" SET VARIABLE {WALK_VARIABLE} = {int(self.limits.max_walk_rows)};"
                           f" SET VARIABLE {LIST_VARIABLE} = {list_cap(self.limits.memory)};"
                           f" SET VARIABLE {TEXT_VARIABLE} = {text_cap(self.limits.memory)}")
        self._duck.execute(f"SET VARIABLE {IMPORT_VARIABLE} = ?::VARCHAR", [self.import_dir])
        (self._database, current_path) = self._duck.execute(
            "SELECT current_database(), current_setting('search_path')").fetchone() or ("", "")
        self._macros_path = ",".join(entry for entry in str(current_path).split(",")[1:] if entry)
        """The search path's entries after the graph's schema: where the runtime macros are."""
        self._file = None if self._attached else os.path.realpath(path)
        self._statement_cache_size = statement_cache_size
        self.procedures = ProcedureRegistry()
        self._releases: list[Callable[[], None]] = []
        self._graphs: dict[str, _Graph] = {}
        self._transaction = ExplicitTransaction(self._duck)
        try:
            graphs.ensure_registry(self._duck, self._database)
            self.graph = graphs.checked_name(graph)
            self._activate(self.graph)
        except BaseException:
            self._duck.close()
            raise
        self._changes = 0
        """Changes made to an in-memory graph since its last checkpoint (`_after`)."""

    # -- graphs (ADR-0068) ----------------------------------------------------------------------------

    def _graph_path(self, schema: str) -> str:
        first = f"{sql_identifier(self._database)}.{schema}"
        return first if not self._macros_path else f"{first},{self._macros_path}"

    def _activate(self, name: str, span: Span | None = None) -> None:
        """Point the connection at the graph `name`: its search path, store, executor and compiled reads
        (made the first time, the schema looked up in the registry)."""
        kept = self._graphs.get(name)
        if kept is None:
            schema = graphs.schema_of(self._duck, self._database, name, span)
            search_path = self._graph_path(schema)
            self._duck.execute(f"SET search_path = {sql_string(search_path)}")
            store = GraphStore(self._duck, shared_as=self._graph_key(schema))
            kept = _Graph(schema, search_path, store, Executor(self._duck, store, self._transaction),
                          StatementCache(self._statement_cache_size), BoundStatements(self._statement_cache_size))
            self._graphs[name] = kept
        elif kept.store.key not in graphs.DROPPED:  # a dropped one's statements are refused (`_present`)
            self._duck.execute(f"SET search_path = {sql_string(kept.search_path)}")
        self._active = name
        self._store, self._executor, self._statements = kept.store, kept.executor, kept.statements
        self._bound = kept.bound

    def _graph_key(self, schema: str) -> str | None:
        """What names the graph in `schema` among the process's connections to the file (None: in memory)."""
        if self._file is None:
            return None
        return self._file if schema == graphs.DEFAULT_SCHEMA else f"{self._file}#{schema}"

    def _last_write(self, entry: graphs.GraphEntry) -> int | None:
        """The graph's last write as the process holds it, for this connection's own graphs and the file's
        graphs any connection of the process has open; else as graph_meta stored it (ADR-0103)."""
        kept = self._graphs.get(entry.name)
        if kept is not None and kept.schema == entry.schema:
            held: int | None = kept.store.last_write
        else:
            key = self._graph_key(entry.schema)
            counters = None if key is None else id_counters.live(key)
            held = None if counters is None else counters.last_write
        return graphs.last_write(self._duck, self._database, entry, held)

    def _present(self, span: Span | None = None) -> None:
        """DatabaseNotFound if another connection dropped the graph this one is on (graphs.DROPPED)."""
        if self._store.key in graphs.DROPPED:
            raise DatabaseNotFound(f"the graph {self._active!r} was dropped", span, detail="DatabaseNotFound")

    @contextlib.contextmanager
    def _using(self, statement: Statement | None, graph: str | None = None) -> Any:
        """Run what the block runs on the graph `statement`'s USE names, or else `graph` (a call's), then return
        to the one before. A USE naming another graph than the call's is refused: one statement, one graph."""
        name = None if statement is None else statement.graph
        if graph is not None:
            sent_to = graphs.checked_name(graph)
            if name is not None and name != sent_to:
                raise UnsupportedFeature(f"USE {name} in a statement sent to the graph {sent_to}",
                                         None if statement is None else statement.span)
            name = sent_to
        if name is None or name == self._active:
            self._present(None if statement is None else statement.span)
            yield
            return
        before = self._active
        try:
            self._activate(name, statement.span if statement is not None else None)
            self._present(statement.span if statement is not None else None)
            yield
        finally:
            self._activate(before)

    def _target(self, text: str) -> Statement | None:
        """The statement `text` parses to, None when it does not parse (the caller's parse raises that)."""
        try:
            return _parsed(text)
        except CypherError:
            return None

    def _administer(self, command: DatabaseCommand, text: str, read_only: bool) -> Result:
        """CREATE DATABASE, DROP DATABASE, SHOW DATABASE(S): run on the database, outside any graph."""
        try:
            if command.action == "show":
                return self._show_databases(command.name)
            if read_only:
                raise CypherError(f"{command.action.upper()} DATABASE in a read-only statement", command.span,
                                  detail="ForbiddenDueToTransactionType")
            with self._writing_file():
                if command.action == "create":
                    return self._create_database(command)
                return self._drop_database(command)
        except CypherError as error:
            raise error.with_source(text) from None

    def _writing_file(self) -> contextlib.AbstractContextManager[None]:
        if self._file is None:
            return contextlib.nullcontext()
        return write_lock.writing(self._file, self.limits.write_wait)

    def _create_database(self, command: DatabaseCommand) -> Result:
        assert command.name is not None
        self._duck.execute("BEGIN TRANSACTION")
        try:
            schema = graphs.create(self._duck, self._database, command.name, command.if_exists, command.span)
            if schema is not None:  # its tables and default indexes, as a new file's
                self._duck.execute(f"SET search_path = {sql_string(self._graph_path(schema))}")
                GraphStore(self._duck)
            self._duck.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                self._duck.execute("ROLLBACK")
            raise
        finally:
            self._activate(self._active)  # the search path back on the connection's graph
        return Result([], [], counters={**empty_counters(), "system_updates": 0 if schema is None else 1},
                      query_type="w")

    def _drop_database(self, command: DatabaseCommand) -> Result:
        assert command.name is not None
        if command.name != graphs.DEFAULT_GRAPH and command.name in (self._active, self.graph):
            raise CypherError(f"DROP DATABASE {command.name}: this connection is on it (connect to another "
                              "graph to drop it)", command.span, detail="DatabaseDropFailed")
        self._duck.execute("BEGIN TRANSACTION")
        try:
            schema = graphs.drop(self._duck, self._database, command.name, command.if_exists, command.span)
            self._duck.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                self._duck.execute("ROLLBACK")
            raise
        if schema is not None and self._file is not None:
            graphs.DROPPED.add(f"{self._file}#{schema}")
        self._graphs.pop(command.name, None)
        return Result([], [], counters={**empty_counters(), "system_updates": 0 if schema is None else 1},
                      query_type="w")

    def _show_databases(self, name: str | None) -> Result:
        rows = []
        for entry in graphs.entries(self._duck, self._database):
            if name is not None and entry.name != name:
                continue
            written = self._last_write(entry)
            default = entry.name == graphs.DEFAULT_GRAPH
            rows.append((entry.name, "standard", "read-write", "online", default, default,
                         None if written is None else _utc(written)))
        return Result(list(DATABASE_COLUMNS), rows)

    def graphs(self) -> list[dict[str, Any]]:
        """The graphs of the database, the default first: `name`, `default` and `last_write` (a UTC
        `datetime.datetime`, None for a default graph not written since last writes are kept). What pruning
        idle graphs reads, in one call; `DROP DATABASE name` is the other."""
        listed = []
        for entry in graphs.entries(self._duck, self._database):
            written = self._last_write(entry)
            listed.append({"name": entry.name, "default": entry.name == graphs.DEFAULT_GRAPH,
                           "last_write": None if written is None else datetime.datetime.fromtimestamp(
                               written / 1_000_000, tz=datetime.UTC)})
        return listed

    def drop_idle_graphs(self, idle_for: datetime.timedelta, prefix: str = "") -> list[str]:
        """Drop the graphs (names starting with `prefix`) not written for `idle_for`, and name them: pruning
        idle graphs in one call (ADR-0068). The default graph and the connection's own are never dropped."""
        dropped = [name for name in graphs.idle(self.graphs(), idle_for, prefix) if name != self.graph]
        for name in dropped:
            self.execute(f"DROP DATABASE `{name}` IF EXISTS")
        return dropped

    # -- statements ------------------------------------------------------------------------------------

    @_fails_its_transaction
    @_bounded_depth
    def execute(self, statement: str, params: Mapping[str, Any] | None = None, *,
                read_only: bool = False, timeout: float | None = None, graph: str | None = None,
                window: Window | None = None) -> Result:
        """Run exactly one Cypher statement as one transaction. `timeout` (seconds) overrides the
        connection's for this statement: past it the statement is stopped, rolled back, and
        StatementTimeout raised. `graph` runs it on that graph of the database, as `USE graph` would
        (ADR-0068): an MCP tool call or a page cell scoped to a graph. `window`: fetch only those rows of
        the result (`Result.more`, `Result.resumable_at` say what follows; ADR-0088)."""
        statement, mode, text = _prefixed(statement)
        target = self._target(text)
        if isinstance(target, DatabaseCommand):
            if self._transaction.open:
                raise UnsupportedFeature(f"{target.action.upper()} DATABASE inside an explicit transaction",
                                         target.span, detail="ForbiddenDueToTransactionType").with_source(statement)
            if mode is not None:
                raise UnsupportedFeature(f"{mode} of a database command", target.span).with_source(statement)
            return _sliced(self._administer(target, statement, read_only), window)
        with self._using(target, graph):
            return self._execute_here(statement, mode, text, params, read_only=read_only, timeout=timeout,
                                      window=window)

    def _execute_here(self, statement: str, mode: str | None, text: str, params: Mapping[str, Any] | None, *,
                      read_only: bool, timeout: float | None, window: Window | None = None) -> Result:
        timeout = self._timeout(timeout)
        if mode is not None:
            return _sliced(self._planned(mode, statement, text, params, read_only=read_only, timeout=timeout), window)
        started = time.perf_counter()
        self._store.current()
        version = self._store.version
        kept = None if self._transaction.open else self._statements.lookup(statement, params, version)
        if kept is not None:
            self._before_read()
            result = self._executor.run_compiled(*kept, statement, read_only=read_only, timeout=timeout,
                                                 window=window)
            if result is not None:
                return _timed(result, started, 0.0)
        with parameter_reads.recording() as reads:
            tree = self._kept_or_bound(statement, params)
            binding = time.perf_counter() - started
            try:
                if _reads_only(tree):
                    self._before_read()
                with self._writing(tree):
                    bound = self._rebound(tree, _parsed(statement), params, statement)
                    result = _typed(self._after(self._executor.run(bound, statement, read_only=read_only,
                                                                   timeout=timeout, window=window)), bound)
            finally:
                self._bound.ran(statement, tree)
        if self._store.version == version and not self._transaction.open:
            self._statements.remember(statement, params, reads, self._executor.compiled, version)
        return _timed(result, started, binding)

    def _planned(self, mode: str, statement: str, text: str, params: Mapping[str, Any] | None, *, read_only: bool,
                 timeout: float | None) -> Result:
        """EXPLAIN (the plan, nothing run) or PROFILE (run, with each step's rows and time) of `text`, the
        statement with its prefix blanked; errors point into `statement`, as sent."""
        self._store.current()
        try:
            parsed = _parsed(text)
        except CypherError as error:
            error.source = statement  # the text as sent, its prefix shown
            raise
        bound = self._bind(parsed, WithUnknowns(params) if mode == "EXPLAIN" else params, statement)
        lines = plan_lines(bound, text, self._store) if isinstance(bound, BoundQuery) else [schema_line(bound, text)]
        if mode == "EXPLAIN":
            plan = [line.as_row() for line in lines]
            return _typed(Result(list(EXPLAIN_COLUMNS), [tuple(row.values()) for row in plan], plan=plan), bound)
        profile = Profile()
        if _reads_only(bound):
            self._before_read()
        with self._writing(bound):
            bound = self._rebound(bound, parsed, params, statement)
            result = _typed(self._after(self._executor.run(bound, statement, read_only=read_only, timeout=timeout,
                                                           profile=profile)), bound)
        result.plan = profiled_rows(lines, profile)
        return result

    @_fails_its_transaction
    @_bounded_depth
    def execute_script(self, text: str, params: Mapping[str, Any] | None = None, *,
                       read_only: bool = False, timeout: float | None = None,
                       graph: str | None = None, window: Window | None = None) -> list[Result]:
        """Run `;`-separated statements in order, each its own transaction (and with its own `timeout`);
        error positions are relative to `text`. `graph`: each runs on that graph, as `execute`'s. `window`:
        of the last statement's rows, fetch only those (as `execute`'s)."""
        results = []
        statements = _parsed_script(text)
        for number, (statement, span) in enumerate(statements, 1):
            last = window if number == len(statements) else None
            if isinstance(statement, DatabaseCommand):
                result = _sliced(self._administer(statement, text, read_only), last)
                result.statement = text[span.start:span.end]
                results.append(result)
                continue
            with self._using(statement, graph):
                started = time.perf_counter()
                self._store.current()
                bound = self._bind(statement, params, text)
                binding = time.perf_counter() - started
                if _reads_only(bound):
                    self._before_read()
                with self._writing(bound):
                    bound = self._rebound(bound, statement, params, text)
                    result = _typed(self._after(self._executor.run(bound, text, read_only=read_only,
                                                                   timeout=self._timeout(timeout), window=last)),
                                    bound)
            result.statement = text[span.start:span.end]
            results.append(_timed(result, started, binding))
        return results

    @_bounded_depth
    def explain(self, statement: str,
                params: Mapping[str, Any] | None = None) -> tuple[Any, list[tuple[str, list[Any]]]]:
        """The bound statement and every SQL statement it runs (up to an error, if one is raised),
        from a run that is rolled back."""
        parsed = _parsed(statement)
        if isinstance(parsed, DatabaseCommand):
            raise UnsupportedFeature("EXPLAIN of a database command", parsed.span).with_source(statement)
        with self._using(parsed):
            self._store.current()
            bound = bind(parsed, params, self._store.catalog, self.procedures)
            trace: list[tuple[str, list[Any]]] = []
            with self._writing(bound), contextlib.suppress(CypherError):  # a write takes ids, given back after
                self._executor.run(bound, statement, trace=trace)
        return bound, trace

    def statement_cache_info(self) -> dict[str, int]:
        """How many statements ran from a compiled read kept for their text (`hits`), how many reads are
        kept, and how many may be (ADR-0044); how many ran a bound statement kept for their text
        (`bound_hits`, ADR-0105)."""
        return {**self._statements.info(), "bound_hits": self._bound.hits}

    def _bind(self, statement: Statement, params: Mapping[str, Any] | None, text: str) -> BoundQuery | BSchemaCommand:
        try:
            return bind(statement, params, self._store.catalog, self.procedures)
        except CypherError as error:
            raise error.with_source(text) from None

    def _kept_or_bound(self, text: str, params: Mapping[str, Any] | None) -> BoundQuery | BSchemaCommand:
        """`_bind` of `text`, or the tree bound for it before when that serves (bound_cache.py, ADR-0105)."""
        try:
            return self._bound.bind(text, _parsed(text), params, self._store.catalog, self.procedures)
        except CypherError as error:
            raise error.with_source(text) from None

    def _rebound(self, bound: BoundQuery | BSchemaCommand, statement: Statement, params: Mapping[str, Any] | None,
                 text: str) -> BoundQuery | BSchemaCommand:
        """`bound`, bound again when another connection's write changed the catalog while this one waited
        for the write lock: compiled against the old one, it would add a property column a second time."""
        if _reads_only(bound) or not self._store.current():
            return bound
        return self._bind(statement, params, text)

    def _writing(self, bound: BoundQuery | BSchemaCommand) -> contextlib.AbstractContextManager[None]:
        """The file's write lock for a statement that writes (write_lock.py); nothing for a read, or for an
        in-memory graph, which only this connection uses."""
        if _reads_only(bound):
            return contextlib.nullcontext()
        if self._transaction.open:  # held until the transaction ends
            self._transaction.hold_write_lock(self._writing_file)
            return contextlib.nullcontext()
        return self._writing_file()

    def _after(self, result: Result) -> Result:
        """Count an in-memory graph's changes, and checkpoint it every CHECKPOINT_WRITES of them."""
        if self._attached is not None and result.contains_updates:
            self._changes += sum(result.counters.values())
            if self._changes >= CHECKPOINT_WRITES and not self._transaction.open:  # else at its commit
                self._checkpoint()
        return result

    def _before_read(self) -> None:
        """Checkpoint an in-memory graph before a read when CHECKPOINT_BEFORE_READ of its changes are not."""
        if self._attached is not None and self._changes >= CHECKPOINT_BEFORE_READ and not self._transaction.open:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """A checkpoint that cannot run now (another graph of the process is writing) waits for the next
        statement."""
        with contextlib.suppress(duckdb.Error):
            self._duck.execute(f"CHECKPOINT {self._attached}")
            self._changes = 0

    # -- explicit transactions (ADR-0078) -------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        """Whether an explicit transaction is open (`begin`); a failed statement ends it, rolled back."""
        return self._transaction.open

    def begin(self) -> None:
        """Open an explicit transaction: the statements that follow run in it until `commit()` or `rollback()`,
        their changes seen by this connection alone. A statement that fails rolls it back and ends it (as
        Neo4j does); CREATE/DROP DATABASE and CALL { } IN TRANSACTIONS are refused inside it."""
        if self._transaction.open:
            raise UnsupportedFeature("a transaction inside a transaction: commit or roll back the open one first",
                                     detail="ForbiddenDueToTransactionType")
        self._transaction.begin()

    def commit(self) -> None:
        """Commit the explicit transaction (nothing when none is open: a failed statement ended it)."""
        if self._transaction.open:
            self._transaction.commit()
            if self._attached is not None and self._changes >= CHECKPOINT_WRITES:
                self._checkpoint()

    def rollback(self) -> None:
        """Undo and end the explicit transaction (nothing when none is open)."""
        if self._transaction.open:
            self._transaction.rollback()

    def _timeout(self, timeout: float | None) -> float | None:
        return self.limits.timeout if timeout is None else checked_timeout(timeout)

    def interrupt(self) -> None:
        """Stop the statement running on this connection (from another thread): it is rolled back and
        raises StatementInterrupted. Does nothing when no statement runs."""
        self._duck.interrupt()

    def schema(self, graph: str | None = None) -> dict[str, Any]:
        """Labels, relationship types, property keys per label and per type, indexes and constraints (of
        `graph`, default the connection's)."""
        with self._using(None, graph):
            self._store.current()
            return describe_schema(self._duck, self._store.catalog)

    def register_procedure(self, signature: str, rows: list[Mapping[str, Any]]) -> None:
        """Make a table-backed procedure callable: `CALL name(args)` returns, in order, the rows of `rows`
        whose input fields equal the arguments. `signature` is `ns.name(in :: TYPE?, ...) :: (out :: TYPE?, ...)`."""
        self.procedures.register_table(signature, rows)

    def on_close(self, release: Callable[[], None]) -> None:
        """Call `release` when this connection closes, before its database is let go."""
        self._releases.append(release)

    def close(self) -> None:
        with contextlib.suppress(duckdb.Error):  # an open transaction's ids are given back before they are stored
            self.rollback()
        while self._releases:
            self._releases.pop()()
        for graph in self._graphs.values():
            graph.store.close()
        if self._attached is not None:
            self._duck.execute("USE memory")
            self._duck.execute(f"DETACH {self._attached}")
            self._attached = None
        self._duck.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _utc(micros: int) -> DateTime:
    """A time recorded in microseconds since the epoch, as the engine's DATETIME value (UTC)."""
    moment = datetime.datetime.fromtimestamp(micros // 1_000_000, tz=datetime.UTC)
    return DateTime(moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
                    micros % 1_000_000 * 1000)


def connect(path: str = ":memory:", *, timeout: float | None = None, memory_limit: str | None = None,
            max_walk_rows: int | None = None, write_wait: float = WRITE_WAIT,
            statement_cache_size: int = statement_cache.DEFAULT_SIZE,
            import_dir: str | None = None, graph: str = graphs.DEFAULT_GRAPH) -> Connection | SharedConnection:
    """Open the graph `graph` (default `neo4j`) of the database in `path` (created if missing), or of a fresh
    in-memory database for ':memory:'. A graph other than the default must have been made with CREATE
    DATABASE (DatabaseNotFound otherwise); `USE name` runs one statement on another graph (ADR-0068).

    `timeout`: seconds a statement may run before it is stopped and rolled back (default: no limit).
    `memory_limit`: DuckDB's memory limit, e.g. '2GB' (default: half the machine's memory, at most 4 GiB;
    for ':memory:' it is shared by the in-memory graphs of a process with the same limit).
    `max_walk_rows`: the most partial paths one step of a variable-length pattern may hold (default
    1,000,000, or CYPHER_MAX_WALK_ROWS). See docs/adr/0022-limits-and-isolation.md.
    `statement_cache_size`: how many compiled reads to keep for statements sent again (0: none; ADR-0044).
    `write_wait`: seconds a write waits while another connection writes to the same file, before it fails
    with DatabaseBusy having done nothing (default 30).
    `import_dir`: the folder LOAD CSV reads `file:///` urls from (default: none, LOAD CSV refused), as Neo4j's
    `server.directories.import`; a file another process holds is read with that process's (none).

    A file another process holds is used through that process (a SharedConnection, ADR-0055); a process
    that holds a file serves the others that open it."""
    limits = Limits(timeout=timeout, memory_limit=memory_limit, write_wait=write_wait,
                    max_walk_rows=DEFAULT_MAX_WALK_ROWS if max_walk_rows is None else max_walk_rows)
    if path == ":memory:":
        return Connection(path, limits, statement_cache_size=statement_cache_size, import_dir=import_dir,
                          graph=graph)

    def open_here() -> Connection:
        """The file opened in this process, which then serves it to the others (sessions have no timeout of
        their own: each statement brings its client's)."""
        connection = Connection(path, limits, statement_cache_size=statement_cache_size, import_dir=import_dir,
                                graph=graph)
        sessions = dataclasses.replace(limits, timeout=None)
        connection.on_close(holder.hold(os.path.realpath(path), lambda graph=graphs.DEFAULT_GRAPH: Connection(
            path, sessions, statement_cache_size=statement_cache_size, graph=graph)))
        return connection

    try:
        return open_here()
    except DatabaseLocked:
        return SharedConnection(path, limits, open_here, graph=graphs.checked_name(graph))
