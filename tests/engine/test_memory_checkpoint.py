"""An in-memory graph is checkpointed as it grows (engine.connection.CHECKPOINT_WRITES): DuckDB compresses
row groups only at a checkpoint and never checkpoints an in-memory database by itself."""

from __future__ import annotations

import pytest

import engine
from engine import connection


def uncompressed_segments(db: engine.Connection, table: str) -> int:
    (count,) = db._duck.execute(f"SELECT count(*) FROM pragma_storage_info('{table}')"
                                " WHERE compression = 'Uncompressed'").fetchone()
    return count


def test_an_in_memory_graph_is_compressed_once_it_has_changed_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 10,000 rows, as a bulk load makes them: each commit appends row groups DuckDB leaves
    uncompressed until a checkpoint."""
    monkeypatch.setattr(connection, "CHECKPOINT_WRITES", 450_000)
    create = "UNWIND range($first, $first + 9999) AS i CREATE (:N {i: i})"  # 30,000 changes: nodes, labels, properties
    with engine.connect(":memory:") as db:
        for batch in range(14):
            db.execute(create, {"first": batch * 10_000})
        assert uncompressed_segments(db, "nodes") > 0
        db.execute(create, {"first": 140_000})  # the 450,000th change
        assert uncompressed_segments(db, "nodes") == 0
        assert db.execute("MATCH (n:N) RETURN count(*) AS n, sum(n.i) AS s").fetchall() == [(150000, 11249925000)]
        db.execute("MATCH (n:N) RETURN count(*) AS n")  # a read counts no change
        assert db._changes == 0


def test_a_read_after_a_load_compresses_what_the_load_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """A load that stops short of CHECKPOINT_WRITES leaves its last batches uncompressed: the first read
    that finds CHECKPOINT_BEFORE_READ changes pending checkpoints before it runs."""
    monkeypatch.setattr(connection, "CHECKPOINT_BEFORE_READ", 50_000)
    create = "UNWIND range($first, $first + 9999) AS i CREATE (:N {i: i})"  # 30,000 changes
    read = "MATCH (n:N) WHERE n.i >= $low RETURN count(*) AS n"
    with engine.connect(":memory:") as db:
        db.execute(create, {"first": 0})
        assert db.execute(read, {"low": 0}).fetchall() == [(10_000,)]  # 30,000 pending: under the mark
        assert uncompressed_segments(db, "nodes") > 0
        db.execute(create, {"first": 10_000})
        assert db.execute(read, {"low": 5_000}).fetchall() == [(15_000,)]  # 60,000: checkpointed first
        assert uncompressed_segments(db, "nodes") == 0
        db.execute(create, {"first": 20_000})
        db.execute(create, {"first": 30_000})
        assert uncompressed_segments(db, "nodes") > 0
        assert db.execute_script("MATCH (n:N) RETURN count(*) AS n")[0].fetchall() == [(40_000,)]
        assert uncompressed_segments(db, "nodes") == 0
