"""Explicit transactions (`begin` / `commit` / `rollback`, ADR-0078): several statements, one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import engine


@pytest.fixture(params=["memory", "file"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[engine.Connection]:
    with engine.connect(":memory:" if request.param == "memory" else str(tmp_path / "g.rl")) as connection:
        yield connection


def count(db: engine.Connection, label: str) -> int:
    return db.execute(f"MATCH (n:{label}) RETURN count(n) AS n").rows[0][0]


def test_statements_of_a_transaction_see_each_other_and_commit_together(db: engine.Connection) -> None:
    db.begin()
    db.execute("CREATE (:A {x: 1})")
    assert db.execute("MATCH (a:A) SET a.y = 'new' RETURN a.x, a.y").rows == [(1, "new")]
    assert db.in_transaction
    db.commit()
    assert not db.in_transaction
    assert db.execute("MATCH (a:A) RETURN a.x, a.y").rows == [(1, "new")]


def test_a_rollback_undoes_every_statement_and_the_property_columns_they_added(db: engine.Connection) -> None:
    db.begin()
    db.execute("CREATE (:A {fresh: 1})")
    db.execute("CREATE INDEX a_fresh FOR (a:A) ON (a.fresh)")
    db.rollback()
    assert count(db, "A") == 0
    assert db.execute("SHOW INDEXES YIELD name WHERE name = 'a_fresh' RETURN name").rows == []
    db.execute("CREATE (:A {fresh: 'text'})")  # the column is made again, with another type
    assert db.execute("MATCH (a:A) RETURN a.fresh").rows == [("text",)]


def test_a_failing_statement_rolls_the_transaction_back_and_ends_it(db: engine.Connection) -> None:
    db.begin()
    db.execute("CREATE (:B)")
    with pytest.raises(engine.CypherError) as failure:
        db.execute("RETURN 1 / 0")
    assert failure.value.kind == "ArithmeticError"
    assert not db.in_transaction
    db.commit()  # nothing open: nothing happens
    assert count(db, "B") == 0


def test_a_statement_refused_before_it_runs_ends_the_transaction_too(db: engine.Connection) -> None:
    db.begin()
    db.execute("CREATE (:B)")
    with pytest.raises(engine.ParameterMissing):
        db.execute("RETURN $nothing")
    assert not db.in_transaction
    assert count(db, "B") == 0


def test_what_a_transaction_refuses(db: engine.Connection) -> None:
    db.begin()
    with pytest.raises(engine.UnsupportedFeature, match="transaction inside a transaction"):
        db.begin()
    with pytest.raises(engine.CypherError, match="IN TRANSACTIONS' can only be executed in an implicit"):
        db.execute("CALL { CREATE (:C) } IN TRANSACTIONS")
    assert not db.in_transaction
    db.begin()
    with pytest.raises(engine.UnsupportedFeature, match="CREATE DATABASE inside an explicit transaction"):
        db.execute("CREATE DATABASE other")
    db.rollback()
    assert count(db, "C") == 0


def test_another_connection_sees_a_file_transaction_only_once_committed(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.rl")
    with engine.connect(path) as first, engine.connect(path) as second:
        first.begin()
        first.execute("CREATE (:D {k: 1})")
        assert count(second, "D") == 0
        first.commit()
        assert second.execute("MATCH (d:D) RETURN d.k").rows == [(1,)]  # its new column known there too


def test_a_transaction_holds_the_files_write_lock_until_it_ends(tmp_path: Path) -> None:
    path = str(tmp_path / "locked.rl")
    with engine.connect(path) as first, engine.connect(path, write_wait=0.2) as second:
        first.begin()
        first.execute("CREATE (:E)")
        with pytest.raises(engine.DatabaseBusy):
            second.execute("CREATE (:F)")
        first.rollback()
        second.execute("CREATE (:F)")
        assert (count(second, "E"), count(second, "F")) == (0, 1)
