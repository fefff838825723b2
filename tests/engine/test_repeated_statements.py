"""A statement sent again is parsed once (connection.py keeps the trees): each send still binds its own
parameters and the catalog as it is then, and an error is raised every time."""

from __future__ import annotations

import pytest

import engine


def test_the_same_text_binds_each_sends_parameters_and_the_current_catalog():
    with engine.connect() as db:
        add = "RETURN $d + 1 AS v"
        assert db.execute(add, {"d": 1}).rows == [(2,)]
        assert db.execute(add, {"d": 0.5}).rows == [(1.5,)]
        assert db.execute(add, {"d": [7]}).rows == [([7, 1],)]
        read = "MATCH (a:A) RETURN a.v AS v ORDER BY v"
        assert db.execute(read).rows == []
        db.execute("CREATE (:A {v: 1})")
        assert db.execute(read).rows == [(1,)]
        db.execute("CREATE (:A {v: 'one'})")  # the column widens: the same text binds to the new type
        assert db.execute(read).rows == [("one",), (1,)]  # Cypher orders strings before numbers


def test_a_syntax_error_is_raised_every_time():
    with engine.connect() as db:
        for _ in range(2):
            with pytest.raises(engine.CypherSyntaxError):
                db.execute("MATCH (n RETURN n")
            with pytest.raises(engine.CypherSyntaxError):
                db.execute_script("RETURN 1 AS one; MATCH (n RETURN n")


class _Recording:
    """The engine's DuckDB connection, keeping the text of every statement sent through it."""

    def __init__(self, real):
        self._real, self.sent = real, []

    def execute(self, sql, *args):
        self.sent.append(sql)
        return self._real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._real, name)


def test_a_read_of_one_select_runs_without_a_transaction_and_a_write_in_one():
    """ADR-0033: a read that compiles to a single SELECT needs no BEGIN and COMMIT; anything more opens one."""
    with engine.connect() as db:
        db.execute("CREATE (:A {x: 1})-[:R]->(:B)")
        recording = _Recording(db._duck)
        db._executor.connection = recording
        assert db.execute("MATCH (a:A)-[:R]->(b) RETURN a.x AS x").rows == [(1,)]
        assert not any(sql.startswith(("BEGIN", "COMMIT")) for sql in recording.sent)
        db.execute("MATCH (a:A) SET a.x = 2 RETURN a.x AS x")
        assert recording.sent[-1] == "COMMIT" and any(str(sql).startswith("BEGIN") for sql in recording.sent)
        assert db.execute("MATCH (a:A) RETURN a.x AS x").rows == [(2,)]
