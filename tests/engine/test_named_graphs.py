"""Several named graphs in one database (ADR-0068): CREATE/DROP/SHOW DATABASE, `engine.connect(graph=)`,
`USE name` per statement, and isolation: nothing a statement on one graph does is visible in another
(nodes, ids, property columns, indexes, constraints, counters, last writes), in memory, in a file, after
reopening it and from another process."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time

import duckdb
import pytest

import engine
from tests.runner.helpers import ROOT


def names(connection) -> list[str]:
    return [row[0] for row in connection.execute("SHOW DATABASES").rows]


# -- the commands ----------------------------------------------------------------------------------------


def test_a_new_database_has_the_default_graph_only():
    with engine.connect() as db:
        result = db.execute("SHOW DATABASES")
        assert result.columns == ["name", "type", "access", "currentStatus", "default", "home", "lastWrite"]
        assert [row[:6] for row in result.rows] == [("neo4j", "standard", "read-write", "online", True, True)]
        assert db.graph == "neo4j"


def test_create_database_makes_an_empty_graph_with_the_default_lookup_indexes():
    with engine.connect() as db:
        db.execute("CREATE (:Person {name: 'Ada'})")
        created = db.execute("CREATE DATABASE tl_shared")
        assert created.counters["system_updates"] == 1
        assert names(db) == ["neo4j", "tl_shared"]
        row = db.execute("SHOW DATABASE tl_shared").rows
        assert [r[:6] for r in row] == [("tl_shared", "standard", "read-write", "online", False, False)]
        assert db.execute("USE tl_shared MATCH (n) RETURN count(n) AS n").rows == [(0,)]
        indexes = db.execute("USE tl_shared SHOW INDEXES YIELD name, type RETURN name, type ORDER BY name")
        assert indexes.rows == [("index_343aff4e", "LOOKUP"), ("index_f7700477", "LOOKUP")]


def test_create_database_if_not_exists_and_an_existing_name():
    with engine.connect() as db:
        db.execute("CREATE DATABASE memory")
        assert db.execute("CREATE DATABASE memory IF NOT EXISTS").counters["system_updates"] == 0
        assert db.execute("CREATE DATABASE neo4j IF NOT EXISTS").counters["system_updates"] == 0
        with pytest.raises(engine.DatabaseExists, match=r"'memory' exists already \(line 1, column 1\)"):
            db.execute("CREATE DATABASE Memory")  # names are compared in lower case, as Neo4j's
        assert names(db) == ["neo4j", "memory"]


def test_drop_database_removes_the_graph_and_everything_in_it():
    with engine.connect() as db:
        db.execute("CREATE DATABASE tl_mem_ada")
        db.execute("USE tl_mem_ada CREATE (:Turn {text: 'hello'})")
        assert db.execute("DROP DATABASE tl_mem_ada").counters["system_updates"] == 1
        assert names(db) == ["neo4j"]
        assert db.execute("DROP DATABASE tl_mem_ada IF EXISTS").counters["system_updates"] == 0
        with pytest.raises(engine.DatabaseNotFound, match="no graph named 'tl_mem_ada'"):
            db.execute("DROP DATABASE tl_mem_ada")
        with pytest.raises(engine.DatabaseNotFound):
            db.execute("USE tl_mem_ada MATCH (n) RETURN n")
        db.execute("CREATE DATABASE tl_mem_ada")  # made again, it is empty
        assert db.execute("USE tl_mem_ada MATCH (n) RETURN count(n)").rows == [(0,)]


def test_the_default_graph_and_the_connections_own_cannot_be_dropped(tmp_path):
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        with pytest.raises(engine.CypherError, match="default graph 'neo4j' cannot be dropped"):
            db.execute("DROP DATABASE neo4j")
        db.execute("CREATE DATABASE mine")
    with engine.connect(path, graph="mine") as mine:
        with pytest.raises(engine.CypherError, match="this connection is on it"):
            mine.execute("DROP DATABASE mine")
        mine.execute("CREATE (:X)")
        assert names(mine) == ["neo4j", "mine"]


def test_graph_names_are_checked_strictly():
    with engine.connect() as db:
        with pytest.raises(engine.CypherError, match="invalid graph name '9lives'"):
            db.execute("CREATE DATABASE `9lives`")
        with pytest.raises(engine.CypherError, match="invalid graph name 'a b'"):
            db.execute("CREATE DATABASE `a b`")
        with pytest.raises(engine.CypherError, match="invalid graph name"):
            db.execute("CREATE DATABASE `x\"; DROP TABLE nodes; --`")
        with pytest.raises(engine.CypherError, match="'system' is reserved"):
            db.execute("CREATE DATABASE system")
        with pytest.raises(engine.UnsupportedFeature, match="dotted name"):
            db.execute("CREATE DATABASE a.b")
        with pytest.raises(engine.UnsupportedFeature, match="dotted name"):
            db.execute("USE a.b MATCH (n) RETURN n")
        with pytest.raises(engine.UnsupportedFeature, match="a database name given as a parameter"):
            db.execute("CREATE DATABASE $name", {"name": "x"})
        with pytest.raises(engine.UnsupportedFeature, match=r"CREATE DATABASE \.\.\. OPTIONS"):
            db.execute("CREATE DATABASE x OPTIONS {}")
        with pytest.raises(engine.UnsupportedFeature, match="YIELD, WHERE and RETURN"):
            db.execute("SHOW DATABASES YIELD name")
        with pytest.raises(engine.UnsupportedFeature, match="CREATE COMPOSITE DATABASE"):
            db.execute("CREATE COMPOSITE DATABASE c")
        assert names(db) == ["neo4j"]


def test_database_commands_in_a_read_only_statement_or_a_script():
    with engine.connect() as db:
        with pytest.raises(engine.CypherError, match="CREATE DATABASE in a read-only statement"):
            db.execute("CREATE DATABASE x", read_only=True)
        assert db.execute("SHOW DATABASES", read_only=True).rows[0][0] == "neo4j"
        results = db.execute_script("CREATE DATABASE a; USE a CREATE (:N {v: 1}); USE a MATCH (n:N) RETURN n.v;"
                                    " MATCH (n:N) RETURN n.v")
        assert [result.rows for result in results[2:]] == [[(1,)], []]
        with pytest.raises(engine.UnsupportedFeature, match="EXPLAIN of a database command"):
            db.execute("EXPLAIN CREATE DATABASE b")


# -- USE -----------------------------------------------------------------------------------------------


def test_use_runs_one_statement_on_the_named_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE brain")
        db.execute("USE brain CREATE (:Repo {name: 'rl'})")
        assert db.execute("MATCH (n) RETURN count(n)").rows == [(0,)]
        assert db.execute("USE brain MATCH (r:Repo) RETURN r.name").rows == [("rl",)]
        assert db.execute("USE neo4j MATCH (n) RETURN count(n)").rows == [(0,)]
        assert db.execute("USE BRAIN MATCH (r:Repo) RETURN r.name").rows == [("rl",)]
        profiled = db.execute("PROFILE USE brain MATCH (r:Repo) RETURN r.name AS name")
        assert profiled.rows == [("rl",)]


def test_use_in_every_part_must_name_the_same_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE a")
        db.execute("CREATE DATABASE b")
        db.execute("USE a CREATE (:N {v: 'a'})")
        rows = db.execute("USE a MATCH (n:N) RETURN n.v AS v UNION USE a MATCH (n:N) RETURN n.v AS v").rows
        assert rows == [("a",)]
        with pytest.raises(engine.UnsupportedFeature, match=r"USE b in a statement on a .* \(line 1, column 39\)"):
            db.execute("USE a MATCH (n) RETURN n.v AS v UNION USE b MATCH (n) RETURN n.v AS v")
        for command in ("USE a CREATE DATABASE c", "USE a SHOW DATABASES", "USE a DROP DATABASE b"):
            with pytest.raises(engine.UnsupportedFeature, match=r"USE before a database command"):
                db.execute(command)
        assert names(db) == ["neo4j", "a", "b"]


def test_use_before_a_schema_command():
    with engine.connect() as db:
        db.execute("CREATE DATABASE a")
        assert db.execute("USE a CREATE INDEX v FOR (n:N) ON (n.v)").counters["indexes_added"] == 1
        assert db.execute("USE a SHOW INDEXES YIELD name WHERE name = 'v' RETURN name").rows == [("v",)]
        assert db.execute("SHOW INDEXES YIELD name WHERE name = 'v' RETURN name").rows == []
        db.execute("CREATE INDEX v FOR (n:N) ON (n.v)")  # the same name on the default graph
        assert db.execute("USE a DROP INDEX v").counters["indexes_removed"] == 1
        assert db.execute("SHOW INDEXES YIELD name WHERE name = 'v' RETURN name").rows == [("v",)]


def test_the_same_text_compiled_on_one_graph_is_not_reused_on_another():
    """Each graph keeps its own compiled reads: a property column of one graph is unknown in another."""
    with engine.connect() as db:
        db.execute("CREATE DATABASE other")
        db.execute("CREATE (:P {name: 'default', age: 3})")
        db.execute("USE other CREATE (:P {age: 'seven', name: 'other'})")  # columns in another order and type
        query = "MATCH (p:P) RETURN p.name AS name, p.age AS age"
        assert db.execute(query).rows == [("default", 3)]
        assert db.execute(query).rows == [("default", 3)]
        assert db.execute(f"USE other {query}").rows == [("other", "seven")]
        assert db.execute(f"USE other {query}").rows == [("other", "seven")]
        assert db.execute(query).rows == [("default", 3)]


# -- isolation -----------------------------------------------------------------------------------------


def test_ids_are_per_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE other")
        db.execute("UNWIND range(1, 5) AS i CREATE (:A)-[:R]->(:B)")
        first = db.execute("USE other CREATE (a:A)-[r:R]->(b:B) RETURN id(a), id(r), id(b)").rows
        assert first == [(0, 0, 1)]
        assert db.execute("CREATE (a:A) RETURN id(a)").rows == [(10,)]


def test_indexes_and_constraints_are_per_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE other")
        db.execute("CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE")
        db.execute("CREATE INDEX age FOR (p:Person) ON (p.age)")
        db.execute("CREATE (:Person {name: 'Ada'})")
        with pytest.raises(engine.ConstraintViolation):
            db.execute("CREATE (:Person {name: 'Ada'})")
        # the other graph has neither, and takes the same names and the same values
        assert db.execute("USE other SHOW CONSTRAINTS").rows == []
        assert [row for row in db.execute("USE other SHOW INDEXES YIELD name RETURN name").rows] == [
            ("index_343aff4e",), ("index_f7700477",)]
        db.execute("USE other CREATE (:Person {name: 'Ada'}), (:Person {name: 'Ada'})")
        assert db.execute("USE other MATCH (p:Person) RETURN count(p)").rows == [(2,)]


def test_constraints_created_on_a_graph_opened_by_name_stay_there(tmp_path):
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE other")
    with engine.connect(path, graph="other") as other:
        assert other.graph == "other"
        other.execute("CREATE CONSTRAINT key FOR (n:Key) REQUIRE n.k IS UNIQUE")
        other.execute("CREATE (:Key {k: 1})")
        with pytest.raises(engine.ConstraintViolation):
            other.execute("CREATE (:Key {k: 1})")
        assert other.execute("USE neo4j SHOW CONSTRAINTS").rows == []
    with engine.connect(path) as db:
        db.execute("CREATE (:Key {k: 1}), (:Key {k: 1})")
        assert db.execute("SHOW CONSTRAINTS YIELD name RETURN name").rows == []
        assert db.execute("USE other SHOW CONSTRAINTS YIELD name RETURN name").rows == [("key",)]


def test_two_connections_of_a_process_on_two_graphs_of_a_file(tmp_path):
    """Each keeps its own catalog: a property column one adds is never believed to exist in the other."""
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE other")
        with engine.connect(path, graph="other") as other:
            other.execute("CREATE (:N {only_here: 1})")
            db.execute("CREATE (:N {elsewhere: 'x'})")
            assert other.execute("MATCH (n:N) RETURN n.only_here, n.elsewhere").rows == [(1, None)]
            assert db.execute("MATCH (n:N) RETURN n.only_here, n.elsewhere").rows == [(None, "x")]
            other.execute("MATCH (n:N) SET n.elsewhere = 2")
            assert db.execute("MATCH (n:N) RETURN n.only_here, n.elsewhere").rows == [(None, "x")]
            assert other.execute("MATCH (n:N) RETURN n.only_here, n.elsewhere").rows == [(1, 2)]


def test_counters_and_last_write_are_per_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE quiet")
        db.execute("CREATE DATABASE busy")
        before = {row[0]: row[6] for row in db.execute("SHOW DATABASES").rows}
        counters = db.execute("USE busy CREATE (:N)-[:R]->(:N)").counters
        assert (counters["nodes_created"], counters["relationships_created"]) == (2, 1)
        after = {row[0]: row[6] for row in db.execute("SHOW DATABASES").rows}
        assert after["quiet"] == before["quiet"]
        assert after["busy"] != before["busy"]
        assert isinstance(after["busy"], engine.DateTime)
        assert db.execute("USE quiet MATCH (n) RETURN count(n)").rows == [(0,)]
        assert {row[0]: row[6] for row in db.execute("SHOW DATABASES").rows}["quiet"] == before["quiet"]
        # a statement that fails is rolled back with its last write
        with pytest.raises(engine.ConstraintViolation):
            db.execute("USE busy MATCH (n:N) WITH n LIMIT 1 CREATE (n)-[:R]->(n) DELETE n")
        assert {row[0]: row[6] for row in db.execute("SHOW DATABASES").rows}["busy"] == after["busy"]


def test_graphs_lists_them_for_pruning():
    with engine.connect() as db:
        db.execute("CREATE DATABASE tl_mem_a")
        db.execute("CREATE DATABASE tl_mem_b")
        db.execute("USE tl_mem_b CREATE (:Turn)")
        listed = db.graphs()
        assert [graph["name"] for graph in listed] == ["neo4j", "tl_mem_a", "tl_mem_b"]
        assert listed[0]["default"] and not listed[1]["default"]
        idle = [graph["name"] for graph in listed if graph["name"].startswith("tl_mem_")
                and graph["last_write"] < listed[2]["last_write"]]
        assert idle == ["tl_mem_a"]
        for name in idle:
            db.execute(f"DROP DATABASE {name}")
        assert names(db) == ["neo4j", "tl_mem_b"]


def test_drop_idle_graphs_prunes_in_one_call():
    """Threadline's daily job: the memory graphs not written for a while go, in one call; the default graph,
    the connection's own and the other names stay."""
    with engine.connect() as db:
        for name in ("tl_mem_a", "tl_mem_b", "tl_shared"):
            db.execute(f"CREATE DATABASE {name}")
        db.execute("USE tl_mem_b CREATE (:Turn)")
        assert db.drop_idle_graphs(datetime.timedelta(days=1)) == []
        assert sorted(db.drop_idle_graphs(datetime.timedelta(0), prefix="tl_mem_")) == ["tl_mem_a", "tl_mem_b"]
        assert names(db) == ["neo4j", "tl_shared"]


def in_another_process(script: str, *arguments: str) -> str:
    """What `script` prints, run by a fresh Python process (a client of the file's holder); it must succeed."""
    done = subprocess.run([sys.executable, "-c", script, *arguments], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


PRUNE = """
import datetime, sys, engine
db = engine.connect(sys.argv[1])
print(db.holder_pid is not None, db.drop_idle_graphs(datetime.timedelta(0), prefix="tl_mem_"), flush=True)
db.close()
"""


def test_drop_idle_graphs_through_the_holder(tmp_path):
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE tl_mem_old")
        db.execute("CREATE DATABASE tl_shared")
        assert in_another_process(PRUNE, path).strip() == "True ['tl_mem_old']"
        assert names(db) == ["neo4j", "tl_shared"]


# -- files ---------------------------------------------------------------------------------------------


def test_graphs_survive_reopening_the_file(tmp_path):
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE (:Default)")
        db.execute("CREATE DATABASE tl_shared")
        db.execute("USE tl_shared CREATE (:Playbook {name: 'triage'})")
    with engine.connect(path, graph="tl_shared") as shared:
        assert shared.execute("MATCH (p:Playbook) RETURN p.name, id(p)").rows == [("triage", 0)]
        assert shared.execute("MATCH (d:Default) RETURN count(d)").rows == [(0,)]
        assert shared.execute("CREATE (p:Playbook) RETURN id(p)").rows == [(1,)]
        assert names(shared) == ["neo4j", "tl_shared"]
    with engine.connect(path) as db:
        assert db.execute("MATCH (n) RETURN labels(n)").rows == [(["Default"],)]
        db.execute("DROP DATABASE tl_shared")
    with engine.connect(path) as db:
        assert names(db) == ["neo4j"]
        with pytest.raises(engine.DatabaseNotFound):
            engine.connect(path, graph="tl_shared")


def test_connect_to_a_graph_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(engine.DatabaseNotFound, match="no graph named 'nope'"):
        engine.connect(graph="nope")
    with pytest.raises(engine.DatabaseNotFound):
        engine.connect(str(tmp_path / "new.rl"), graph="nope")
    with pytest.raises(engine.CypherError, match="invalid graph name"):
        engine.connect(graph="no way")


def test_a_file_made_before_named_graphs_opens_as_its_default_graph(tmp_path):
    """A file with one graph in `main` and no registry (as every file made before ADR-0068)."""
    path = str(tmp_path / "old.rl")
    with engine.connect(path) as db:
        db.execute("CREATE (:Old {v: 1})")
    raw = duckdb.connect(path)
    raw.execute("DROP TABLE graph_databases; DROP SEQUENCE graph_schema_numbers")
    raw.close()
    with engine.connect(path) as db:
        assert db.execute("MATCH (n:Old) RETURN n.v").rows == [(1,)]
        assert names(db) == ["neo4j"]
        db.execute("CREATE DATABASE new")
        assert names(db) == ["neo4j", "new"]


SESSION = """
import sys, engine
db = engine.connect(sys.argv[1], graph=sys.argv[2])
print(db.holder_pid is not None, db.execute("MATCH (n) RETURN labels(n)").rows,
      db.execute("CREATE (n:FromChild) RETURN id(n)").rows, flush=True)
try:
    engine.connect(sys.argv[1], graph="missing")
except engine.DatabaseNotFound as error:
    print("missing:", error.message, flush=True)
db.close()
"""


def test_another_process_opens_its_session_on_the_graph_it_names(tmp_path):
    """ADR-0055 with ADR-0068: the holder opens the client's session on the client's graph."""
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE (:Held)")
        db.execute("CREATE DATABASE visitor")
        db.execute("USE visitor CREATE (:Remembered)")
        first, second = in_another_process(SESSION, path, "visitor").splitlines()
        assert first == "True [(['Remembered'],)] [(1,)]"
        assert second.startswith("missing: no graph named 'missing'")
        assert db.execute("MATCH (n) RETURN labels(n)").rows == [(["Held"],)]
        assert db.execute("USE visitor MATCH (n:FromChild) RETURN id(n)").rows == [(1,)]


def test_a_connection_on_a_graph_another_connection_dropped_refuses_to_run(tmp_path):
    """DuckDB would resolve the dropped schema's tables to another schema of the search path: the reads would
    read, and the writes write, another graph."""
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE x")
        with engine.connect(path, graph="x") as on_x:
            on_x.execute("CREATE (:N)")
            db.execute("DROP DATABASE x")
            for statement in ("MATCH (n) RETURN n", "CREATE (:M)"):
                with pytest.raises(engine.DatabaseNotFound, match="the graph 'x' was dropped"):
                    on_x.execute(statement)
            with pytest.raises(engine.DatabaseNotFound):
                on_x.schema()
            assert on_x.execute("USE neo4j MATCH (n) RETURN count(n)").rows == [(0,)]
        db.execute("CREATE DATABASE x")  # a graph of the same name is another schema
        with engine.connect(path, graph="x") as on_x:
            assert on_x.execute("MATCH (n) RETURN count(n)").rows == [(0,)]
        assert db.execute("MATCH (n) RETURN count(n)").rows == [(0,)]


# -- full-text and vector indexes ----------------------------------------------------------------------


def test_full_text_indexes_and_their_results_are_per_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE other")
        for graph, words in (("neo4j", "zebra crossing"), ("other", "zebra stripes")):
            db.execute(f"USE {graph} CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.text]")
            db.execute(f"USE {graph} CREATE (:Doc {{text: $words}}), (:Doc {{text: 'nothing here'}})",
                       {"words": words})
        search = "CALL db.index.fulltext.queryNodes('docs', $q) YIELD node RETURN node.text AS text"
        assert db.execute(search, {"q": "zebra"}).rows == [("zebra crossing",)]
        assert db.execute(f"USE other {search}", {"q": "zebra"}).rows == [("zebra stripes",)]
        assert db.execute(search, {"q": "stripes"}).rows == []
        db.execute("USE other DROP INDEX docs")
        assert db.execute(search, {"q": "crossing"}).rows == [("zebra crossing",)]
        with pytest.raises(engine.CypherError, match="docs"):
            db.execute(f"USE other {search}", {"q": "zebra"})


def test_vector_indexes_and_their_results_are_per_graph():
    with engine.connect() as db:
        db.execute("CREATE DATABASE other")
        for graph, vectors in (("neo4j", [[1.0, 0.0], [0.0, 1.0]]), ("other", [[0.6, 0.8]])):
            db.execute(f"USE {graph} CREATE VECTOR INDEX emb FOR (c:Chunk) ON c.embedding OPTIONS "
                       "{indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'cosine'}}")
            db.execute(f"USE {graph} UNWIND range(0, size($vs) - 1) AS i"
                       " CREATE (:Chunk {i: i, embedding: vecf32($vs[i])})", {"vs": vectors})
        search = ("CALL db.index.vector.queryNodes('emb', 5, $q) YIELD node"
                  " RETURN node.i AS i, node.embedding[0] AS x")
        assert [row[0] for row in db.execute(search, {"q": [1.0, 0.0]}).rows] == [0, 1]
        rows = db.execute(f"USE other {search}", {"q": [1.0, 0.0]}).rows
        assert len(rows) == 1 and rows[0][0] == 0 and abs(rows[0][1] - 0.6) < 1e-6
        assert db.execute("USE other SHOW VECTOR INDEXES YIELD name RETURN name").rows == [("emb",)]
        db.execute("DROP INDEX emb")
        assert db.execute("SHOW VECTOR INDEXES YIELD name RETURN name").rows == []
        assert len(db.execute(f"USE other {search}", {"q": [1.0, 0.0]}).rows) == 1


# -- a call scoped to a graph ----------------------------------------------------------------------------


def test_a_call_names_the_graph_it_runs_on():
    """`execute(..., graph=)`: what an MCP tool call or a page cell scoped to a graph sends."""
    with engine.connect() as db:
        db.execute("CREATE DATABASE tl_mem_ada")
        db.execute("CREATE (:Turn {text: $t})", {"t": "hi"}, graph="tl_mem_ada")
        assert db.execute("MATCH (t:Turn) RETURN t.text", graph="tl_mem_ada").rows == [("hi",)]
        assert db.execute("MATCH (t:Turn) RETURN t.text").rows == []
        assert db.execute("USE tl_mem_ada MATCH (t:Turn) RETURN t.text", graph="TL_MEM_ADA").rows == [("hi",)]
        with pytest.raises(engine.UnsupportedFeature, match="USE neo4j in a statement sent to the graph tl_mem_ada"):
            db.execute("USE neo4j MATCH (n) RETURN n", graph="tl_mem_ada")
        results = db.execute_script("CREATE (:Fact); MATCH (n) RETURN count(n)", graph="tl_mem_ada")
        assert results[-1].rows == [(2,)]
        with pytest.raises(engine.DatabaseNotFound):
            db.execute("RETURN 1", graph="tl_mem_bob")
        with pytest.raises(engine.ReadOnlyViolation):
            db.execute("CREATE (:X)", graph="tl_mem_ada", read_only=True)
        assert db.execute("MATCH (n) RETURN count(n)", graph="tl_mem_ada").rows == [(2,)]


KILLED = """
import sys, engine
db = engine.connect(sys.argv[1])
db.execute("CREATE DATABASE tl_mem_ada")
db.execute("USE tl_mem_ada CREATE (:Turn {n: 1})")
db.execute("CREATE (:Repo)")
print("written", flush=True)
db.execute("USE tl_mem_ada UNWIND range(1, 100000000) AS i CREATE (:Turn {n: i})")
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_writer_killed_mid_statement_leaves_every_graph_whole(tmp_path):
    """Only the write-ahead log has the graphs and their committed writes; the statement running when the
    process dies leaves nothing, in its graph or another."""
    path = str(tmp_path / "graphs.rl")
    writer = subprocess.Popen([sys.executable, "-c", KILLED, path], cwd=ROOT, text=True, stdout=subprocess.PIPE)
    assert writer.stdout.readline() == "written\n"
    time.sleep(0.5)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=60)
    writer.stdout.close()
    with engine.connect(path) as db:
        assert names(db) == ["neo4j", "tl_mem_ada"]
        assert db.execute("MATCH (n) RETURN labels(n)").rows == [(["Repo"],)]
        assert db.execute("USE tl_mem_ada MATCH (t:Turn) RETURN t.n, id(t)").rows == [(1, 0)]
        assert db.execute("USE tl_mem_ada CREATE (t:Turn) RETURN id(t)").rows == [(1,)]


def test_a_named_graph_finds_the_runtime_macros_made_in_memory(tmp_path, monkeypatch):
    """When the macros' cache file cannot be had they are TEMP macros of the session (ADR-0031), which a
    named graph's search path must still reach."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = str(tmp_path / "graphs.rl")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE other")
        db.execute("USE other CREATE (:N {d: date('2026-12-05'), s: 'x'})")
        rows = db.execute("USE other MATCH (n:N) RETURN toString(n.d) + n.s AS t, n.d.year AS y").rows
        assert rows == [("2026-12-05x", 2026)]
    with engine.connect(path, graph="other") as other:
        assert other.execute("MATCH (n:N) RETURN n.d.month AS m").rows == [(12,)]
        same = "RETURN [1, 'a'] = [1.0, 'a'] AS same, toString(datetime('2026-03-02T09:00Z')) AS at"
        assert other.execute(same).rows == [(True, "2026-03-02T09:00:00Z")]
