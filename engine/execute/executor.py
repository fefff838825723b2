"""Runs a bound statement clause by clause, inside one transaction, as its plan says (ADR-0002, ADR-0057).

Consecutive read clauses compile into one SELECT (`Step.fused`, ADR-0029), materialized as a temporary
table only where a clause that is not a plain read needs one: a write (through `Writer`), a CALL that
runs per row, a step that may walk levels on a large store. Before a read compiles, what the data decides
is set on its step (prepare.py); a level walk the SQL asks for runs, and the clause compiles again over
its table (level_walks.py). After the last clause the rows are fetched in `__ord` order and decoded. Any
error rolls the whole statement back.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import duckdb

from engine.errors import (
    ConstraintViolation,
    CypherError,
    ReadOnlyViolation,
    StatementInterrupted,
    StatementTimeout,
    UnsupportedFeature,
)
from engine.execute import end_labels
from engine.execute.constraints import check_constraints
from engine.execute.decode import Decoder, result_columns
from engine.execute.duckdb_errors import STORAGE_FAILURE, out_of_memory, translate
from engine.execute.level_walks import worth_walking_levels
from engine.execute.parsed_sql import ParsedSql
from engine.execute.prepare import prepare_step, run_level_walks
from engine.execute.procedure_arguments import read_argument_values
from engine.execute.profile import Profile
from engine.execute.results import Result, Window, empty_counters
from engine.execute.schema_commands import run_schema_command
from engine.execute.set_in_place import rows_in_place
from engine.execute.statement_cache import CompiledRead, compiled_read
from engine.execute.statement_run import Chain, StatementRun
from engine.execute.subqueries import ReadClause, run_call_subquery
from engine.execute.transaction import ExplicitTransaction
from engine.execute.write_alone import may_write_alone
from engine.execute.write_support import volatile
from engine.execute.writes import Writer
from engine.limits import StatementTimer
from engine.plan.build import plan_single_query
from engine.plan.plan import Step
from engine.plan.rules.fuse_reads import READ_CLAUSES, runs_clause_by_clause
from engine.plan.rules.property_reads import Reads
from engine.semantic import bound as b
from engine.sqlgen.context import Parameters
from engine.sqlgen.generator import QueryCompiler, union_select
from engine.sqlgen.relation import SEED_ROW, Relation
from engine.storage.schema import GraphStore
from engine.types import Kind

WRITE_HANDLERS = {
    b.BCreate: Writer.create,
    b.BMerge: Writer.merge,
    b.BSet: Writer.set_clause,
    b.BDelete: Writer.delete,
}

class UnfusedRetry(Exception):
    """A fused SELECT raised an error: the statement is re-run clause by clause, which names the clause."""


class OptimizerRetry(Exception):
    """DuckDB failed inside one of its optimizer rules (`OPTIMIZER_FAULTS`): the statement runs again with it off."""

    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule


OPTIMIZER_FAULTS: dict[str, str] = {"Binding rewrite lost projected child binding": "deliminator"}
"""Internal errors DuckDB raises from an optimizer rule on plans the engine makes, by a fragment of their
message, and the rule (`duckdb_optimizers()`): a LATERAL join around a variable-length walk inside an
OPTIONAL MATCH of a CALL subquery made the delim-join eliminator lose a column (DuckDB 2.0.1)."""


def _optimizer_fault(error: BaseException) -> str | None:
    if not isinstance(error, duckdb.InternalException):
        return None
    return next((rule for fragment, rule in OPTIMIZER_FAULTS.items() if fragment in str(error)), None)


class Executor:
    def __init__(self, connection: duckdb.DuckDBPyConnection, store: GraphStore,
                 transaction: ExplicitTransaction | None = None) -> None:
        self.connection = connection
        self.store = store
        self.transaction = transaction or ExplicitTransaction(connection)
        """The connection's explicit transaction (transaction.py): while open, statements run inside it."""
        self._optimizers_off: tuple[str, ...] = ()
        self._trace: list[tuple[str, list[Any]]] | None = None
        self._timeout: float | None = None
        self._profile: Profile | None = None
        self._window: Window | None = None
        self.parsed = ParsedSql(connection)
        """The SQL texts this connection sent more than once, kept parsed (parsed_sql.py, ADR-0109)."""
        self.compiled: CompiledRead | None = None
        """What the last `run` compiled, when it was a read whose SQL was one SELECT (statement_cache.py)."""

    def run(self, statement: b.BoundQuery | b.BSchemaCommand, text: str, *, read_only: bool = False,
            trace: list[tuple[str, list[Any]]] | None = None, timeout: float | None = None,
            profile: Profile | None = None, window: Window | None = None) -> Result:
        """Run a bound statement. With `trace`, every SQL statement is recorded there and the
        transaction is rolled back whatever happens (for `python -m engine explain`). With `timeout`,
        a statement still running after that many seconds is interrupted and rolled back. With `window`,
        only those rows of the result are fetched (`final_select`)."""
        self._trace = trace
        self._timeout = timeout
        self._profile = profile
        self._window = window
        self.compiled = None
        with self._profiling(profile is not None):
            return self._run(statement, text, read_only)

    @contextlib.contextmanager
    def _profiling(self, on: bool) -> Iterator[None]:
        """DuckDB's profiler on for a PROFILE's run (its operators and rows, read after each SQL statement)."""
        if not on:
            yield
            return
        self.connection.execute("PRAGMA enable_profiling = 'no_output'")
        try:
            yield
        finally:
            self.connection.execute("PRAGMA disable_profiling")

    def _run(self, statement: b.BoundQuery | b.BSchemaCommand, text: str, read_only: bool) -> Result:
        if isinstance(statement, b.BSchemaCommand):
            if read_only and statement.statement.__class__.__name__.startswith(("Create", "Drop")):
                raise ReadOnlyViolation("schema commands write: use a writing call")
            return self._in_transaction(lambda run: run_schema_command(run, statement), text, read_only)
        if read_only and statement.updating:
            raise ReadOnlyViolation("this statement writes to the graph (it has an updating clause); "
                                    "use a writing call for it", detail="WriteInReadOnlyCall")
        try:
            return self._run_statement(statement, text, read_only)
        except OptimizerRetry as retry:
            self.compiled = None  # a read kept for reuse would run with the rule on again
            with self._optimizer_off(retry.rule):
                return self._run_statement(statement, text, read_only)

    def _run_statement(self, statement: b.BoundQuery, text: str, read_only: bool) -> Result:
        writes = statement.updating
        alone = writes and not read_only and may_write_alone(statement, self.store.catalog)
        try:
            return self._in_transaction(lambda run: self._run_query(run, statement, self._window), text, read_only,
                                        writes=writes, alone=alone)
        except UnfusedRetry:
            self.compiled = None
            return self._in_transaction(lambda run: self._run_query(run, statement, self._window), text, read_only,
                                        fuse=False, writes=writes)

    @contextlib.contextmanager
    def _optimizer_off(self, rule: str) -> Iterator[None]:
        """DuckDB's optimizer rule `rule` off for one statement (the rules the engine turns off for good: none)."""
        self._optimizers_off = (*self._optimizers_off, rule)
        self.connection.execute(f"SET disabled_optimizers = '{','.join(self._optimizers_off)}'")
        try:
            yield
        finally:
            self._optimizers_off = self._optimizers_off[:-1]
            self.connection.execute(f"SET disabled_optimizers = '{','.join(self._optimizers_off)}'")

    def run_compiled(self, compiled: CompiledRead, values: list[Any], text: str, *, read_only: bool = False,
                     timeout: float | None = None, window: Window | None = None) -> Result | None:
        """Run a read compiled before (statement_cache.py) with `values` bound (and only `window`'s rows
        fetched); None when its SELECT raised an error that the clauses run one at a time must locate (the
        caller compiles it afresh)."""
        self._trace = None
        self._timeout = timeout
        self._profile = None
        self.compiled = None

        def body(run: StatementRun) -> Result:
            run.span, run.in_chain = compiled.span, compiled.fused
            result = Result(list(compiled.columns), [], empty_counters(), compiled.ordered,
                            repeatable=compiled.repeatable)
            windowed = window_values(window, values)
            raw = run.fetch_rows(compiled.statement(self.connection, windowed=window is not None), windowed)
            result.rows = Decoder(self.connection, self.store.catalog).decode_results(
                split_window(result, raw, window), list(compiled.types))
            return result

        try:
            return self._in_transaction(body, text, read_only, writes=False)
        except (UnfusedRetry, OptimizerRetry):
            return None

    def _in_transaction(self, body: Any, text: str, read_only: bool = False, *, fuse: bool = True,
                        writes: bool = True, alone: bool = False) -> Result:
        """Run `body` in one transaction: committed, or rolled back on error. A read-only run always
        rolls back, so even a write the compiler missed cannot persist. The timer is stopped before
        COMMIT or ROLLBACK, so an interrupt never lands on either. An error raised by the SQL of several
        fused read clauses (not a timeout, an interrupt or a memory limit) raises UnfusedRetry. Without
        `writes` (a statement with no updating clause) no full-text bookkeeping is kept."""
        explicit = self.transaction.open and self._trace is None
        alone = alone and fuse and self._trace is None and self._profile is None and not explicit
        deferred = (not writes or alone) and self._trace is None and not explicit
        if not deferred and not explicit:
            self.connection.execute("BEGIN TRANSACTION")
        timer = StatementTimer(self._timeout, self.connection.interrupt)
        run = StatementRun(self.connection, self.store, timer, writes=writes, deferred=deferred,
                           parsed=self.parsed)
        run.trace = self._trace
        run.fuse = fuse
        run.alone = alone
        self.store.before_schema_write = run.begin if alone else None
        if self._profile is not None:
            self._profile.steps.clear()  # a run again clause by clause starts the steps afresh
            run.profile = self._profile
        run.run_query = self._run_query
        read_only = read_only or run.trace is not None
        try:
            with timer:
                result = body(run)
                end_labels.settle(run, count_all=explicit)
                run.changes.sync(final=True)
                if run.deleted_nodes:
                    self.check_no_dangling(run)
                if self.store.catalog.constraints and _wrote(getattr(result, "counters", {})):
                    self._check_constraints(run, existence=True)
                run.drop_tables()
                run.release_arrow()
                if not read_only and (run.begun or run.wrote_alone):
                    self._note_write(run, getattr(result, "contains_updates", False), commits=not explicit)
            if timer.expired:  # it fired after the last SQL statement had started
                raise StatementTimeout(timer.seconds or 0, run.span)
            if explicit:  # it ends with the transaction
                self.transaction.touched(self.store)
            elif run.begun:
                started = time.perf_counter()
                self.connection.execute("ROLLBACK" if read_only else "COMMIT")
                run.sql_seconds += time.perf_counter() - started
                if read_only:
                    self.store.rolled_back()
                else:
                    self.store.committed()
            elif run.wrote_alone:  # committed by DuckDB with its one SQL statement
                self.store.committed()
            if read_only and writes and not explicit:  # an explained write may have added a column the
                self.store.reload()                        # rollback took away
        except BaseException as error:
            timer.stop()
            if explicit:  # no savepoint undoes one statement: the transaction ends, rolled back
                self.transaction.touched(self.store)
                self.transaction.rollback()
            elif run.begun:
                with contextlib.suppress(duckdb.TransactionException):  # a failed COMMIT has ended it already
                    self.connection.execute("ROLLBACK")
                self.store.rolled_back()
                self.store.reload()
            elif alone:  # its write, alone, failed: DuckDB undid it; the ids it took are given back
                self.store.rolled_back()
            with contextlib.suppress(duckdb.Error):  # a result still reading one is gone with the transaction
                run.release_arrow()
            if run.tables and not explicit:  # those of batches IN TRANSACTIONS committed: the next run's names
                with contextlib.suppress(duckdb.Error):
                    run.drop_tables()
            if isinstance(error, duckdb.InterruptException):
                interrupted = (StatementTimeout(timer.seconds or 0, run.span) if timer.expired
                               else StatementInterrupted(span=run.span))
                raise interrupted.with_source(text) from None
            rule = _optimizer_fault(error)
            if rule is not None and rule not in self._optimizers_off:
                raise OptimizerRetry(rule) from error
            if (run.in_chain and isinstance(error, duckdb.Error) and not out_of_memory(error)
                    and not STORAGE_FAILURE.search(str(error))):
                raise UnfusedRetry from error
            if isinstance(error, duckdb.Error):
                raise translate(error, run.span).with_source(text) from error
            if isinstance(error, CypherError):
                if error.span is None:
                    error.span = run.span
                raise error.with_source(text) from None
            raise
        finally:
            self.store.before_schema_write = None
        result.statement = text
        result.timings["sql"] = run.sql_seconds
        return result

    def _note_write(self, run: StatementRun, changed: bool, *, commits: bool) -> None:
        """Tell the store what the statement's transaction wrote, before it commits: the time of a change
        (`lastWrite`, ADR-0068), deletions (the id counters are then stored with them, ADR-0103); and, when
        the statement's own COMMIT follows (`commits`, not an explicit transaction's), store the counters if
        that is due."""
        if changed:
            self.store.record_write()
        if run.deleted_any:
            self.store.deleting()
        if commits:
            self.store.before_commit()

    def _run_query(self, run: StatementRun, query: b.BoundQuery, window: Window | None = None) -> Result:
        """The statement's clauses, then its result rows (only `window`'s, when given)."""
        counters: Counter[str] = Counter()
        pending: Chain | None = None
        if len(query.parts) > 1:
            relations = []
            for part in query.parts:
                relation, part_counters = self.run_single(run, part)
                counters += part_counters
                relations.append(relation)
            relation = Relation(f"({union_select(query, relations)})", list(query.output))
        else:
            relation, counters, pending = self._run_clauses(run, query.parts[0], final=True)
            if pending is not None:
                run.enter(pending)
        if not query.columns or not query.output:
            if pending is not None:  # reads that end in FINISH still run: an error they raise is raised
                run.settle(relation, pending)
            result = Result(list(query.columns), [], ordered=query.ordered)
        else:
            result = self._fetch_result(run, query, relation, pending, window)
        result.counters = empty_counters()
        result.counters.update(counters)
        return result

    def _fetch_result(self, run: StatementRun, query: b.BoundQuery, relation: Relation, pending: Chain | None,
                      window: Window | None) -> Result:
        """The result's rows, fetched in order (a window's, unless PROFILE counts every row) and decoded; a read
        whose rows are this one SELECT is kept compiled for reuse (ADR-0044)."""
        output = query.output
        values = pending.parameters.values if pending is not None else []
        sql = final_select(output, relation)
        # a read that ran no SQL before this SELECT, and a fused one: compiled anew, the same SQL (ADR-0044)
        one_select = pending is not None and not run.begun and run.fuse and not query.updating
        result = Result(list(query.columns), [], ordered=query.ordered, repeatable=one_select and not volatile(sql))
        window = window if run.profile is None else None
        started = time.perf_counter()
        raw = run.fetch_rows(sql if window is None else final_select(output, relation, len(values)),
                             window_values(window, values))
        types = [v.type for v in output]
        result.rows = Decoder(self.connection, self.store.catalog).decode_results(
            split_window(result, raw, window), types)
        if run.profile is not None:
            run.profile.finished(len(result.rows), time.perf_counter() - started)
        if one_select:
            assert pending is not None
            self.compiled = compiled_read(sql, final_select(output, relation, len(values)), values,
                                          pending.parameters.slots, types, query.columns, query.ordered,
                                          pending.span, pending.clauses > 1, result.repeatable)
        return result

    def run_single(self, run: StatementRun, query: b.BoundSingleQuery, relation: Relation | None = None,
                    read: ReadClause | None = None) -> tuple[Relation, Counter[str]]:
        """Run one single query's clauses in order, ending in a binding table. `relation` is the table its
        first clause reads (one empty row by default); `read` runs a read clause over a binding table (a
        writing CALL subquery runs its read clauses once per outer row, ADR-0016)."""
        relation, counters, pending = self._run_clauses(run, query, relation, read)
        return run.settle(relation, pending), counters

    def _run_clauses(self, run: StatementRun, query: b.BoundSingleQuery, relation: Relation | None = None,
                     read: ReadClause | None = None, *,
                     final: bool = False) -> tuple[Relation, Counter[str], Chain | None]:
        """Run the clauses; consecutive read clauses (by default) fuse into one SELECT, materialized only
        where a clause that is not a plain read needs a table (ADR-0029). Returns the last relation, the
        counters, and the chain of fused clauses whose SELECT the relation is, when it is not a table yet.
        With `final`, the query is the statement's: its last clause's rows go straight to the result."""
        counters: Counter[str] = Counter()
        seeded = relation is None
        relation = relation or Relation(SEED_ROW, [], constant_order=True)
        plan = plan_single_query(query, fuse=read is None and run.fuse, final=final)
        pending: Chain | None = None
        writer = Writer(run)
        planned = list(plan)
        steps = list(planned)
        profile = run.profile if final else None
        while steps:
            step = steps.pop(0)
            clause = step.clause
            run.span = clause.span
            if profile is not None:
                profile.next_step(run, relation)
            if step.fused and pending is not None and step.may_walk_levels and worth_walking_levels(run):
                relation, pending = self._settle(run, relation, pending, profile)
            if step.fused:
                if pending is None:
                    pending = Chain(Parameters(), clause.span)
                else:
                    pending.add(clause.span)
                relation = self.compile_read(run, step, relation, pending.parameters, plan.reads)
                continue
            in_place = None if not (seeded and final and profile is None and pending is not None) else rows_in_place(
                self.store.catalog, planned, relation, pending, volatile(relation.sql))
            if in_place is None and pending is not None and final and not steps and profile is None and (
                    isinstance(clause, b.BMerge) and step.unmatched):  # may be read once, by one INSERT (ADR-0116)
                in_place = replace(relation, values=tuple(pending.parameters.values))
            if in_place is not None:  # an error its SQL raises is located by running the clauses one at a time
                relation, pending, run.in_chain = in_place, None, True
            fresh = [c for c in relation.carried if c.column == "labels"] if pending is not None else []
            relation, pending = self._settle(run, relation, pending, profile)
            if isinstance(clause, b.BCreate) and fresh:  # read just now: the CREATE counts its ends' labels off them
                relation = replace(relation, carried=fresh)
            if isinstance(clause, b.BCreate) and steps and isinstance(steps[0].clause, b.BCreate):
                clause = self._merge_creates(run, clause, steps, relation)
            if isinstance(clause, b.BCallSubquery) and runs_clause_by_clause(clause):
                relation, call_counters = run_call_subquery(self, run, clause, relation)
                counters += call_counters
                run.changes.mark_written()
                continue
            if isinstance(clause, (*READ_CLAUSES, b.BCallSubquery)):
                relation = (read or self.read_clause)(run, clause, relation)
                continue
            if isinstance(clause, b.BForeach):
                counters += self._run_foreach(run, writer, clause, relation)
                run.changes.mark_written()
                continue
            handler = WRITE_HANDLERS.get(type(clause))
            if handler is None:
                raise UnsupportedFeature(f"{type(clause).__name__[1:]} here", clause.span)
            if in_place is None and not isinstance(clause, b.BMerge | b.BCreate):
                run.begin()  # a write that is more than one UPDATE or INSERT: never alone (write_alone.py)
            writer.rows_read_after = bool(steps) or not final or profile is not None  # a profile counts them
            writer.unmatched = step.unmatched
            written = handler(writer, clause, relation)
            run.in_chain = False
            relation = written.relation
            counters += written.counters
            run.changes.mark_written()
            if self.store.catalog.constraints and _wrote(written.counters):
                self._check_constraints(run)
        if profile is not None:
            profile.close(run, relation)
        return relation, counters, pending

    @staticmethod
    def _settle(run: StatementRun, relation: Relation, pending: Chain | None,
                profile: Profile | None) -> tuple[Relation, None]:
        """The rows of the chain of fused clauses before, run now into a table (a profile counts them)."""
        if profile is not None and pending is not None:
            return profile.settled(run, relation, pending), None
        return run.settle(relation, pending), None

    def compile_read(self, run: StatementRun, step: Step, relation: Relation, parameters: Parameters,
                     reads: Reads | None = None) -> Relation:
        """A read clause's SELECT over `relation`, its values added to `parameters`, as its plan step says
        (after bringing maintained indexes up to date with the writes before it, when it queries one);
        `reads` is what later clauses read off the variables a MATCH binds (property_reads.py). What the step
        needs from the data is prepared first (prepare.py); a level walk the SQL asks for runs after, and
        the clause compiles again to join the paths it found."""
        prepare_step(run, step)
        mark = len(parameters.values)
        queries = self._read_compiler(run, step, relation, parameters, reads)
        compiled = queries.read_clause(step, relation)
        if queries.level_walk_requests and run_level_walks(run, step, queries.level_walk_requests):
            parameters.truncate(mark)
            queries = self._read_compiler(run, step, relation, parameters, reads)
            compiled = queries.read_clause(step, relation)
        if queries.reads_fulltext:
            run.changes.sync()
        return compiled

    def _read_compiler(self, run: StatementRun, step: Step, relation: Relation, parameters: Parameters,
                       reads: Reads | None) -> QueryCompiler:
        queries = QueryCompiler(self.store.catalog, parameters)
        if reads is not None:
            queries.reads = reads
        queries.aliases = run.aliases
        queries.tombstones = run.deleted_any
        read_argument_values(run, queries, step.clause, relation)
        return queries

    def read_clause(self, run: StatementRun, clause: b.BoundClause, relation: Relation) -> Relation:
        """A read clause's SELECT over `relation`, materialized as the next binding table."""
        chain = Chain(Parameters(), clause.span)
        return run.settle(self.compile_read(run, Step(clause), relation, chain.parameters), chain)

    def _run_foreach(self, run: StatementRun, writer: Writer, clause: b.BForeach,
                     relation: Relation) -> Counter[str]:
        """The inner updates run once, set-based, over every (row, element) pair, as if after an UNWIND;
        the rows after FOREACH are the rows before it."""
        parameters = Parameters()
        queries = QueryCompiler(self.store.catalog, parameters)
        queries.aliases = run.aliases
        unwound = queries.read_clause(Step(b.BUnwind(clause.source, clause.variable, span=clause.span)), relation)
        inner = run.settle(unwound, Chain(parameters, clause.span))
        counters: Counter[str] = Counter()
        for inner_clause in clause.clauses:
            run.span = inner_clause.span
            if isinstance(inner_clause, b.BForeach):
                counters += self._run_foreach(run, writer, inner_clause, inner)
                continue
            if isinstance(inner_clause, b.BSet) and len(clause.clauses) > 1:
                _check_no_sequential_sets(run, writer, inner_clause, inner)
            written = WRITE_HANDLERS[type(inner_clause)](writer, inner_clause, inner)
            inner = written.relation
            counters += written.counters
        return counters

    def _merge_creates(self, run: StatementRun, first: b.BCreate, rest: list[Step],
                       relation: Relation) -> b.BCreate:
        """Consecutive CREATE clauses over at most one row create the same elements with the same ids
        as one CREATE of all their paths; run them as one batch (a script of hundreds of CREATEs is
        common). With more rows the ids would interleave differently, so they stay separate."""
        (rows,) = (1,) if relation.sql == SEED_ROW else run.fetchone(f"SELECT count(*) FROM {relation.sql}")
        if rows > 1:
            return first
        paths = list(first.paths)
        while rest and isinstance(rest[0].clause, b.BCreate):
            paths.extend(rest.pop(0).clause.paths)
        return b.BCreate(paths, span=first.span)

    def _check_constraints(self, run: StatementRun, *, existence: bool = False) -> None:
        """Uniqueness after a clause that wrote; with `existence`, every constraint, before the commit."""
        check_constraints(run.connection, self.store.catalog, run.span, existence=existence,
                          writes=run.changes.writes)

    def check_no_dangling(self, run: StatementRun) -> None:
        row = run.connection.execute(
            "SELECT src, dst FROM rels WHERE src NOT IN (SELECT id FROM nodes) OR dst NOT IN (SELECT id FROM nodes)"
            " LIMIT 1").fetchone()
        if row is not None:
            raise ConstraintViolation(
                "cannot delete a node that still has relationships; delete them first or use DETACH DELETE",
                run.span, detail="DeleteConnectedNode")


def final_select(output: list[Any], relation: Relation, windowed: int | None = None) -> str:
    """The SELECT of a statement's result rows, in their order. `windowed` (the number of values bound
    before): only the rows of a window, its size and offset the last two values (`window_values`), and for
    each row its group among rows tied in that order (DuckDB's rank() over the same keys, so ties are
    DuckDB's, never a guess made in Python)."""
    columns, order = result_columns(output), relation.order
    if windowed is None:  # one row needs no sort (ADR-0098)
        return f"SELECT {columns} FROM {relation.sql}" + ("" if relation.one_row else f" ORDER BY {order}")
    return (f"SELECT {columns}, rank() OVER (ORDER BY {order}) AS __tie FROM (SELECT * FROM {relation.sql}"
            f" ORDER BY {order} LIMIT ${windowed + 1}::BIGINT + 1 OFFSET ${windowed + 2}::BIGINT) ORDER BY {order}")


def window_values(window: Window | None, values: list[Any]) -> list[Any]:
    """The values the result's SELECT binds: `values`, and a window's size and offset after them."""
    return values if window is None else [*values, window.size, window.offset]


def split_window(result: Result, raw: list[tuple[Any, ...]], window: Window | None) -> list[tuple[Any, ...]]:
    """The rows of a windowed SELECT without their tie groups (set on `result`, with `more` when the row past
    the window came too); `raw` as it is without a window."""
    if window is None:
        return raw
    result.ties = [row[-1] for row in raw]
    result.more = len(raw) > window.size
    return [row[:-1] for row in raw[:window.size]]


def _check_no_sequential_sets(run: StatementRun, writer: Writer, clause: b.BSet, relation: Relation) -> None:
    """FOREACH runs its updates once for every element in turn. A body of one SET is exact set-based (SET
    runs in rounds where it reads what it writes, ADR-0018); with more clauses, each clause runs over every
    (row, element) pair before the next, so a SET whose value reads the property it writes, on an element
    written more than once, could see the other clauses' writes in another order: it is refused rather
    than answered wrongly."""
    for item in clause.items:
        if item.kind not in ("property", "all", "merge") or not _reads_properties(item.value, item.key):
            continue
        for _, rows_sql, values in writer.targets(item, relation):
            (repeated,) = run.fetchone(f"SELECT count(*) - count(DISTINCT id) FROM {rows_sql}", values)
            if repeated:
                raise UnsupportedFeature("a SET inside FOREACH that reads the property it writes, on an element "
                                         "the FOREACH writes more than once", item.span)


def _reads_properties(expression: b.BoundExpression | None, key: object) -> bool:
    """Whether `expression` may read the property `key` of a node or relationship (any key when not a string)."""
    if expression is None:
        return False
    if isinstance(expression, b.BProperty) and expression.subject.type.kind not in (Kind.MAP, Kind.NULL) \
            and not expression.subject.type.is_record and (expression.key == key or not isinstance(key, str)):
        return True
    if isinstance(expression, b.BEntityProperties | b.BIndex):
        return True
    if isinstance(expression, b.BFunction) and expression.name in ("properties", "map_merge"):
        return True
    return any(_reads_properties(child, key) for child in b.children(expression))


def _wrote(counters: Any) -> bool:
    """Whether a write could break a constraint: something created, a property set or removed, a label added."""
    return any(counters.get(key) for key in ("nodes_created", "relationships_created", "properties_set",
                                             "labels_added"))


