"""A stand-in for the Neo4j Python driver that runs each statement on the engine, so that the client packages'
own code (their statements and the code that parses what comes back) runs unchanged against it.

It keeps to what those packages call: `Driver.execute_query` (its `parameters_`, `database_`, `routing_`,
`result_transformer_`, and other keyword arguments taken as query parameters, as the driver takes them),
`Driver.session().run`, `verify_connectivity` and `close`, and the async `execute_query` of `AsyncDriver`.
Records are the driver's own `neo4j.Record`, and nodes, relationships, paths and temporal values are the
driver's types, so `Record.data()` and `record["key"]` behave as they do against a server.

The engine's errors are not translated into the driver's `ClientError`: the clients catch `ClientError` to
fall back to empty results (neo4j-graphrag does so for its constraint and index listing), and a statement the
engine refuses must fail the test, never pass unseen.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import neo4j
import neo4j.time
from neo4j import graph as neo4j_graph

import engine


@dataclass
class Summary:
    """The part of `neo4j.ResultSummary` the clients read: the statement sent, its parameters and counters."""

    query: str
    parameters: dict[str, Any]
    counters: dict[str, int]
    query_type: str


class _Hydration:
    """Builds the driver's graph objects from the engine's: one `neo4j.graph.Graph` per result, as the
    driver makes one per result (a node met twice is one object)."""

    def __init__(self) -> None:
        self.graph = neo4j_graph.Graph()
        self.nodes: dict[int, neo4j_graph.Node] = {}

    def node(self, node: engine.Node | int) -> neo4j_graph.Node:
        """The driver's node for an engine node, or for the id of a relationship's end (labels and properties
        filled in when the node itself comes, as the driver's hydration does)."""
        node_id = node if isinstance(node, int) else node.id
        found = self.nodes.get(node_id)
        if found is None:
            found = neo4j_graph.Node(self.graph, str(node_id), node_id)
            self.nodes[node_id] = found
        if isinstance(node, engine.Node):
            found._labels = found._labels.union(node.labels)
            found._properties.update(self.value(node.properties))
        return found

    def relationship(self, rel: engine.Relationship) -> neo4j_graph.Relationship:
        made = self.graph.relationship_type(rel.type)(self.graph, str(rel.id), rel.id, self.value(rel.properties))
        made._start_node, made._end_node = self.node(rel.start), self.node(rel.end)
        return made

    def value(self, value: Any) -> Any:
        """An engine value as the driver hydrates the same value off the wire."""
        if isinstance(value, engine.Node):
            return self.node(value)
        if isinstance(value, engine.Relationship):
            return self.relationship(value)
        if isinstance(value, engine.Path):
            for node in value.nodes:
                self.node(node)
            rels = [self.relationship(rel) for rel in value.relationships]
            return neo4j_graph.Path(self.node(value.nodes[0]), *rels)
        if isinstance(value, list | tuple):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        return _temporal(value)


def _zone(offset_seconds: int, zone: str | None) -> datetime.tzinfo:
    if zone is not None:
        return zoneinfo.ZoneInfo(zone)
    return datetime.timezone(datetime.timedelta(seconds=offset_seconds))


def _temporal(value: Any) -> Any:
    """The engine's temporal values as `neo4j.time` ones; anything else as it is."""
    if isinstance(value, engine.Date):
        return neo4j.time.Date(value.year, value.month, value.day)
    if isinstance(value, engine.LocalTime):
        return neo4j.time.Time(value.hour, value.minute, value.second, value.nanosecond)
    if isinstance(value, engine.Time):
        return neo4j.time.Time(value.hour, value.minute, value.second, value.nanosecond,
                               _zone(value.offset_seconds, None))
    if isinstance(value, engine.LocalDateTime):
        return neo4j.time.DateTime(value.year, value.month, value.day, value.hour, value.minute, value.second,
                                   value.nanosecond)
    if isinstance(value, engine.DateTime):
        local = neo4j.time.DateTime(value.year, value.month, value.day, value.hour, value.minute, value.second,
                                    value.nanosecond)
        zone = _zone(value.offset_seconds, value.zone)
        return zone.localize(local) if hasattr(zone, "localize") else local.replace(tzinfo=zone)
    if isinstance(value, engine.Duration):
        return neo4j.time.Duration(months=value.months, days=value.days, seconds=value.seconds,
                                   nanoseconds=value.nanoseconds)
    return value


@dataclass
class Result:
    """What `result_transformer_` and `Session.run` hand the client: the records, `data()`, `keys()`."""

    records: list[neo4j.Record]
    summary: Summary
    columns: list[str] = field(default_factory=list)

    def __iter__(self) -> Iterator[neo4j.Record]:
        return iter(self.records)

    def keys(self) -> list[str]:
        return list(self.columns)

    def data(self, *keys: str) -> list[dict[str, Any]]:
        return [record.data(*keys) for record in self.records]

    def consume(self) -> Summary:
        return self.summary

    def to_eager_result(self) -> neo4j.EagerResult:
        return neo4j.EagerResult(self.records, self.summary, self.keys())  # type: ignore[arg-type]


def _text(query: str | neo4j.Query) -> str:
    return query.text if isinstance(query, neo4j.Query) else str(query)


class EngineDriver:
    """A `neo4j.Driver` over an open engine connection. `statements` records every statement sent, with its
    parameters, so a test can show which of the client's statements ran."""

    def __init__(self, db: engine.Connection) -> None:
        self.db = db
        self.statements: list[tuple[str, dict[str, Any]]] = []

    def run(self, query: str | neo4j.Query, parameters: Mapping[str, Any] | None = None) -> Result:
        text, params = _text(query), dict(parameters or {})
        self.statements.append((text, params))
        result = self.db.execute(text, params)
        hydration = _Hydration()
        records = [neo4j.Record(dict(zip(result.columns, hydration.value(list(row)), strict=True)))
                   for row in result.rows]
        query_type = "rw" if result.contains_updates else "r"
        return Result(records, Summary(text, params, dict(result.counters), query_type), list(result.columns))

    def execute_query(self, query_: str | neo4j.Query, parameters_: Mapping[str, Any] | None = None,
                      routing_: Any = neo4j.RoutingControl.WRITE, database_: str | None = None,
                      result_transformer_: Callable[[Result], Any] = Result.to_eager_result, **kwargs: Any) -> Any:
        # the driver takes keyword arguments not ending in `_` as query parameters, over `parameters_`
        return result_transformer_(self.run(query_, {**(parameters_ or {}), **kwargs}))

    def session(self, **config: Any) -> Session:
        return Session(self)

    def verify_connectivity(self, **config: Any) -> None:
        self.db.execute("RETURN 1")

    def close(self) -> None:
        """The connection belongs to the test's fixture, which closes it."""


class Session:
    def __init__(self, driver: EngineDriver) -> None:
        self.driver = driver

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(self, query: str | neo4j.Query, parameters: Mapping[str, Any] | None = None, **kwargs: Any) -> Result:
        return self.driver.run(query, {**(parameters or {}), **kwargs})

    def close(self) -> None:
        return None


class AsyncResult(Result):
    """`neo4j.AsyncResult`: its `data()` is awaited."""

    async def data(self, *keys: str) -> list[dict[str, Any]]:  # type: ignore[override]
        return [record.data(*keys) for record in self.records]


class AsyncEngineDriver:
    """A `neo4j.AsyncDriver` over the same engine connection (mcp-neo4j-cypher's server holds one)."""

    def __init__(self, db: engine.Connection) -> None:
        self.sync = EngineDriver(db)

    @property
    def statements(self) -> list[tuple[str, dict[str, Any]]]:
        return self.sync.statements

    async def execute_query(self, query_: str | neo4j.Query, parameters_: Mapping[str, Any] | None = None,
                            routing_: Any = neo4j.RoutingControl.WRITE, database_: str | None = None,
                            result_transformer_: Callable[[AsyncResult], Any] | None = None, **kwargs: Any) -> Any:
        done = self.sync.run(query_, {**(parameters_ or {}), **kwargs})
        result = AsyncResult(done.records, done.summary, done.columns)
        if result_transformer_ is None:
            return result.to_eager_result()
        transformed = result_transformer_(result)
        return await transformed if hasattr(transformed, "__await__") else transformed
