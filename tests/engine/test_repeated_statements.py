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
