"""The catalog's end-label counts stay exact under every write, and the label tests they make redundant
are left out without changing an answer (ADR-0092), as are the uniqueness checks no self-loop can fail
(ADR-0098)."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys

import pytest

import engine
from engine.errors import CypherError
from engine.execute import end_labels
from engine.storage import end_labels as store_end_labels
from engine.storage.end_labels import SUMMED, contributions

LABELS = ["A", "B", "C"]
TYPES = ["R", "S"]


def stored(db: engine.Connection) -> list[tuple[str, str, str, int]]:
    """The counts the table holds (zero rows say nothing)."""
    return sorted(db._duck.execute(f"SELECT * FROM {SUMMED}").fetchall())


def counts(db: engine.Connection) -> list[tuple[str, str, str, int]]:
    """The counts the writers kept: the table's, with what the relationships the store says they miss add
    (ADR-0111)."""
    return sorted((*key, n) for key, n in db._store.end_label_counts().items())


def recount(db: engine.Connection) -> list[tuple[str, str, str, int]]:
    """The same counts, counted afresh over the whole graph."""
    return sorted(db._duck.execute(contributions("true")).fetchall())


def node_joins(db: engine.Connection, query: str) -> int:
    return sum(sql.count("nodes AS n") for sql, _ in db.explain(query)[1])


def random_write(rng: random.Random) -> str:
    """One write statement of a random kind, over random labels and types; some of them fail."""
    a, b, c = (rng.choice(LABELS) for _ in range(3))
    t, u = rng.choice(TYPES), rng.choice(TYPES)
    k = rng.randrange(4)
    return rng.choice([
        f"CREATE (:{a} {{k: {k}}})-[:{t}]->(:{b})",
        f"CREATE (x:{a})-[:{t}]->(x)",
        f"MATCH (x:{a}), (y:{b}) WITH x, y LIMIT 3 CREATE (x)-[:{t}]->(y)",
        f"UNWIND range(1, {k + 2}) AS i MATCH (x:{a}) WHERE id(x) % 5 = i CREATE (x)-[:{t}]->(:{b}:{c})",
        f"MERGE (x:{a} {{k: {k}}})-[:{t}]->(y:{b})",
        f"MATCH (x:{a}) MERGE (x)-[:{t}]->(:{b} {{k: {k}}})",
        f"MATCH (x:{a}) WHERE id(x) % 3 = {k % 3} SET x:{b}",
        f"MATCH (x:{a}) WHERE id(x) % 2 = {k % 2} REMOVE x:{a}",
        f"MATCH (x:{a}) SET x:{b}:{c} REMOVE x:{a}",
        f"MATCH (x:{a}) SET x = {{k: {k}}}",
        f"MATCH (x:{a})-[r:{t}]->() WHERE id(r) % 3 = {k % 3} DELETE r",
        f"MATCH (x:{a}) WHERE id(x) % 4 = {k} DETACH DELETE x",
        f"MATCH (x:{a})-[r]-() WITH x, r LIMIT 2 DELETE x DELETE r",
        f"MATCH (x:{a}) WHERE id(x) % 4 = {k} DELETE x",  # fails where x has relationships
        f"MATCH (x:{a}) SET x:{b} WITH x CREATE (x)-[:{u}]->(:{c}) WITH x RETURN 1 / (id(x) % 2)",
        f"UNWIND range(0, {k + 1}) AS i CALL (i) {{ CREATE (:{a} {{i: i}})-[:{t}]->(:{b}) }} IN TRANSACTIONS OF 1 ROW",
        f"UNWIND [1, 0, 2] AS i CALL (i) {{ MATCH (x:{a}) SET x:{c} CREATE (x)-[:{u}]->(:{b} {{v: 1 / i}}) }}"
        " IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE",
        f"CREATE (x:{a})-[:{t}]->(:{b}) WITH x REMOVE x:{a} SET x:{c} WITH x RETURN 1 / 0",
        # the MATCH carries its nodes' labels, which the CREATE counts its new relationships' ends by
        f"UNWIND [{{s: {k}, d: {k + 1}}}, {{s: {k + 2}, d: {k}}}] AS r MATCH (x:{a}), (y:{b})"
        f" WHERE id(x) % 4 = r.s % 4 AND id(y) % 3 = r.d % 3 CREATE (x)-[:{t}]->(y)",
        f"MATCH (x:{a})-[:{t}]->(y) WITH x, y LIMIT 3 CREATE (y)<-[:{u}]-(x)-[:{t}]->(:{c})<-[:{u}]-(y)",
        f"MATCH (x:{a}) WITH x LIMIT 2 CREATE (x)-[:{t}]->(x)-[:$('{u}')]->(:$('{c}'))",
        f"CREATE (:{a}) WITH 1 AS one MATCH (x:{a}), (y) WITH x, y LIMIT 4 CREATE (x)-[:{t}]->(y)",
        f"MATCH (x:{a}), (y:{b}) WITH x, y LIMIT 2 REMOVE x:{a} SET y:{c} CREATE (x)-[:{u}]->(y)",
        # a last MERGE that can match nothing, created by one INSERT from the next free id (ADR-0116)
        f"UNWIND range(0, {k}) AS i CREATE (m:{a} {{i: i}}) WITH m, i MATCH (y:{b}) WHERE id(y) % 3 = i % 3"
        f" MERGE (m)-[:{t} {{w: i % 2}}]->(y)",
        f"CREATE (m:{a}) WITH m MATCH (y:{b}) WITH m, y LIMIT 3 MERGE (m)<-[:{u}]-(y)",
    ])


READS = [
    ("MATCH (x:{a})-[:{t}]->(y:{b}) RETURN count(*)", "MATCH (x)-[:{t}]->(y) WHERE x:{a} AND y:{b} RETURN count(*)"),
    ("MATCH (x:{a})<-[:{t}]-(:{b})-[:{u}]->(z:{a}) RETURN count(*)",
     "MATCH (x)<-[:{t}]-(y)-[:{u}]->(z) WHERE x:{a} AND y:{b} AND z:{a} RETURN count(*)"),
    ("MATCH (x:{a})-[:{t}*1..3]->(y:{b}) RETURN count(*)",
     "MATCH (x)-[:{t}*1..3]->(y) WHERE x:{a} AND y:{b} RETURN count(*)"),
    ("MATCH (x:{a}:{b})-[:{t}|{u}]-(y:{a}) RETURN id(x) AS x, id(y) AS y ORDER BY x, y",
     "MATCH (x)-[:{t}|{u}]-(y) WHERE x:{a} AND x:{b} AND y:{a} RETURN id(x) AS x, id(y) AS y ORDER BY x, y"),
    # consecutive hops of one direction, whose uniqueness check a type without self-loops leaves out (ADR-0098),
    # beside forms the rule leaves alone
    ("MATCH (x)-[:{t}]->()-[:{u}]->(z) RETURN count(*)", "MATCH (x)-[:{t}]->(y), (y)-[:{u}]->(z) RETURN count(*)"),
    ("MATCH (x)<-[:{t}*1..3]-(z) RETURN count(*)", "MATCH (x) (()<-[:{t}]-()){{1,3}} (z) RETURN count(*)"),
]


def check_reads(db: engine.Connection, rng: random.Random) -> None:
    """Each label-tested read answers as the same read testing its labels in WHERE (which no fact drops)."""
    names = {"a": rng.choice(LABELS), "b": rng.choice(LABELS), "t": rng.choice(TYPES), "u": rng.choice(TYPES)}
    for tested, where in READS:
        assert db.execute(tested.format(**names)).rows == db.execute(where.format(**names)).rows, tested


@pytest.mark.parametrize("seed", range(6))
def test_the_counts_equal_a_full_recount_after_random_writes(seed: int) -> None:
    rng = random.Random(seed)
    with engine.connect(":memory:") as db:
        failed = 0
        for _ in range(40):
            statement = random_write(rng)
            try:
                db.execute(statement)
            except CypherError:
                failed += 1
            assert counts(db) == recount(db), statement
            check_reads(db, rng)
        assert failed  # rolled-back statements were among them


def test_folding_the_change_rows_keeps_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(end_labels, "COMPACT_AFTER", 5)
    rng = random.Random(7)
    with engine.connect(":memory:") as db:
        for _ in range(15):
            with contextlib.suppress(CypherError):
                db.execute(random_write(rng))
            assert counts(db) == recount(db)
            (rows,) = db._duck.execute("SELECT count(*) FROM graph_end_labels").fetchone()
            assert rows <= 5 + len(counts(db)) + 40


def test_an_explicit_transaction_rolled_back_restores_the_counts() -> None:
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:A)-[:R]->(:A)")
        before = counts(db)
        db.begin()
        db.execute("MATCH (x:A) REMOVE x:A SET x:B CREATE (x)-[:R]->(:C)")
        assert counts(db) == recount(db)
        assert db.execute("MATCH (x:A)-[:R]->(y:A) RETURN count(*)").rows == [(0,)]
        db.rollback()
        assert counts(db) == before == recount(db)
        assert db.execute("MATCH (x:A)-[:R]->(y:A) RETURN count(*)").rows == [(1,)]


def test_a_graph_made_before_the_counts_is_counted_when_opened(tmp_path) -> None:
    path = str(tmp_path / "g.duckdb")
    with engine.connect(path) as db:
        db.execute("UNWIND range(1, 5) AS i CREATE (:A {i: i})-[:R]->(:B)")
        db._duck.execute("DROP TABLE graph_end_labels")
        db._duck.execute("DELETE FROM graph_meta WHERE key = 'end_labels'")
    with engine.connect(path) as db:
        assert counts(db) == recount(db) == [("R", "dst", "B", 5), ("R", "rel", "", 5), ("R", "src", "A", 5)]


def test_tests_every_end_carries_are_left_out_with_their_joins() -> None:
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 4) AS i CREATE (:N {i: i})-[:R]->(:N {i: -i})")
        query = "MATCH (a:N)-[:R]->(:N)<-[:R]-(c:N) RETURN count(*) AS paths"
        assert node_joins(db, query) == 0
        assert db.execute(query).rows == [(0,)]
        db.execute("MATCH (n:N {i: 1}) CREATE (n)-[:R]->(:M)")
        assert node_joins(db, query) == 1  # only the end nodes of R carry N no more: the middle node's test
        assert db.execute(query).rows == [(0,)]
        db.execute("MATCH (m:M) SET m:N")
        assert node_joins(db, query) == 0
        assert db.execute("MATCH (a:N)-[:R]->(b:N) RETURN count(*)").rows == [(5,)]


def test_a_kept_read_compiled_before_a_write_tests_labels_again() -> None:
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:N)-[:R]->(:N)")
        query = "MATCH (a:N)-[:R]->(b:N) RETURN count(*) AS n"
        assert db.execute(query).rows == [(1,)]
        assert db.execute(query).rows == [(1,)]
        db.execute("CREATE (:N)-[:R]->(:M)")
        assert db.execute(query).rows == [(1,)]


def test_counts_answer_no_label_test_while_another_connection_shares_the_file(tmp_path) -> None:
    """Another connection of the process could commit between a clause's reading of the counts and its SELECT:
    while one is open on the same file, every label test stays."""
    path = str(tmp_path / "g.rl")
    query = "MATCH (a:N)-[:R]->(b:N) RETURN count(*) AS n"
    with engine.connect(path) as db:
        db.execute("UNWIND range(1, 3) AS i CREATE (:N)-[:R]->(:N)")
        assert node_joins(db, query) == 0
        with engine.connect(path) as other:
            assert node_joins(db, query) == 2
            other.execute("CREATE (:M)-[:R]->(:N)")
            assert db.execute(query).rows == [(3,)]
            other.execute("MATCH (m:M) DETACH DELETE m")
        assert node_joins(db, query) == 0
        assert db.execute(query).rows == [(3,)]


@pytest.mark.parametrize("seed", range(3))
def test_the_counts_the_store_holds_equal_the_table_after_random_writes(seed: int) -> None:
    """Writes fold their change rows into the counts the store holds (ADR-0096): what it holds after each
    statement is what reading the table afresh gives."""
    rng = random.Random(100 + seed)
    with engine.connect(":memory:") as db:
        for _ in range(30):
            with contextlib.suppress(CypherError):
                db.execute(random_write(rng))
            held = db._store.end_labels()
            assert held == store_end_labels.of_counts({(t, side, label): n for t, side, label, n in counts(db)})


def test_a_read_after_creates_in_the_same_statement_sees_them_counted() -> None:
    """Relationships a statement creates are counted before a later clause of it plans a label test: the
    second CREATE makes a start node without `:A`, so the MATCH must still test `:A`."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:A)-[:R]->(:B)")
        rows = db.execute("CREATE (:C)-[:R]->(:B) WITH 1 AS x CREATE (:A)-[:R]->(:B)"
                          " WITH 1 AS y MATCH (a:A)-[:R]->(b) RETURN count(*) AS n").rows
        assert rows == [(2,)]
        assert counts(db) == recount(db)


def test_a_few_new_relationships_wait_for_a_read_and_the_write_after_it_stores_them() -> None:
    """A small CREATE leaves its relationships out of the table (ADR-0111); a read that tests labels works out
    what they add without writing; the next write stores that, and the table alone is exact again."""
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 3) AS i CREATE (:N {i: i})-[:R]->(:N)")
        db.execute("MATCH (n:N {i: 1}) CREATE (n)-[:R]->(:M)")
        assert stored(db) == [] and db._store.uncounted_relationships() == ((0, 4),)
        assert counts(db) == recount(db)
        query = "MATCH (a:N)-[:R]->(b:N) RETURN count(*) AS n"
        assert db.execute(query).rows == [(3,)]
        assert node_joins(db, query) == 1  # the end's test stays: an R ends at an M
        assert stored(db) == []  # the read wrote nothing
        db.execute("CREATE (:X) WITH 1 AS one CREATE (:Y)")
        assert stored(db) == recount(db) and db._store.uncounted_relationships() == ()
        db.execute("MATCH (m:M) DETACH DELETE m")  # a delete counts before it takes away
        db.execute("CREATE (:N)-[:R]->(:N)")
        assert counts(db) == recount(db) and node_joins(db, query) == 0
        assert db.execute(query).rows == [(4,)]


def test_relationships_left_out_are_stored_when_the_file_closes(tmp_path) -> None:
    path = str(tmp_path / "g.duckdb")
    with engine.connect(path) as db:
        db.execute("CREATE (:A)-[:R]->(:B)")
        assert stored(db) == []
    with engine.connect(path) as db:
        assert stored(db) == recount(db) == [("R", "dst", "B", 1), ("R", "rel", "", 1), ("R", "src", "A", 1)]


def test_a_process_that_ended_with_relationships_left_out_has_them_counted_at_the_next_opening(tmp_path) -> None:
    path = str(tmp_path / "g.duckdb")
    code = ("import os, sys, engine\n"
            "db = engine.connect(sys.argv[1])\n"
            "db.execute('CREATE (:A)-[:R]->(:B)')\n"
            "db.execute('MATCH (a:A) CREATE (a)-[:R]->(:C)')\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, path], check=True)
    with engine.connect(path) as db:
        assert stored(db) == recount(db)
        assert db._store.uncounted_relationships() == ()
        assert db.execute("MATCH (a:A)-[:R]->(b:B) RETURN count(*)").rows == [(1,)]


def test_a_read_the_stored_counts_answer_no_works_nothing_out() -> None:
    """Relationships added never make a label carried at every end: where the stored counts say an end's label is
    not, a read asks nothing of the relationships they miss (ADR-0111), and still answers right."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:N)-[:R]->(:M) WITH 1 AS one MATCH (a)-[:R]->(b:N) RETURN count(*)")  # counted
        db.execute("UNWIND range(1, 3) AS i CREATE (:N)-[:R]->(:N)")
        assert db._store.uncounted_relationships()
        assert db.execute("MATCH (a)-[:R]->(b:N) RETURN count(*) AS n").rows == [(3,)]
        assert db._store.overlay() is None
        assert db.execute("MATCH (a:N)-[:R]->(b) RETURN count(*) AS n").rows == [(4,)]  # src: every R's is N
        assert db._store.overlay() is not None
        assert node_joins(db, "MATCH (a:N)-[:R]->(b) RETURN count(*) AS n") == 0


def test_a_named_graph_s_relationships_left_out_are_stored_when_the_file_closes(tmp_path) -> None:
    """The close names the graph's tables in full: the connection's search path may be on another graph."""
    path = str(tmp_path / "g.duckdb")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE other")
        db.execute("USE other CREATE (:A)-[:R]->(:B)")
        db.execute("CREATE (:C)-[:S]->(:C)")
    with engine.connect(path, graph="other") as db:
        assert stored(db) == recount(db) == [("R", "dst", "B", 1), ("R", "rel", "", 1), ("R", "src", "A", 1)]
    with engine.connect(path) as db:
        assert stored(db) == recount(db) == [("S", "dst", "C", 1), ("S", "rel", "", 1), ("S", "src", "C", 1)]


def test_a_merge_at_once_of_many_relationships_keeps_the_counts() -> None:
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(0, 2) AS k CREATE (:B {k: k})")
        result = db.execute("UNWIND range(1, 1500) AS i CREATE (m:A {i: i}) WITH m, i MATCH (y:B {k: i % 3})"
                            " MERGE (m)-[:R]->(y)")
        assert result.counters["relationships_created"] == 1500
        assert counts(db) == recount(db)
        assert db.execute("MATCH (:A)-[:R]->(:B) RETURN count(*)").fetchall() == [(1500,)]
