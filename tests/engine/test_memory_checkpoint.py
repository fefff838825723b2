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


@pytest.mark.parametrize("batches", [15, 17])
def test_an_in_memory_graph_is_compressed_once_it_has_changed_enough(monkeypatch: pytest.MonkeyPatch,
                                                                     batches: int) -> None:
    """Batches of 10,000 rows, as a bulk load makes them: each commit appends row groups DuckDB leaves
    uncompressed until a checkpoint. At 17 batches DuckDB's own automatic checkpoint (vacuum only) used to
    leave them uncompressed through the engine's full one: the host turns DuckDB's off."""
    monkeypatch.setattr(connection, "CHECKPOINT_WRITES", batches * 30_000)
    create = "UNWIND range($first, $first + 9999) AS i CREATE (:N {i: i})"  # 30,000 changes: nodes, labels, properties
    with engine.connect(":memory:") as db:
        for batch in range(batches - 1):
            db.execute(create, {"first": batch * 10_000})
        assert uncompressed_segments(db, "nodes") > 0
        db.execute(create, {"first": (batches - 1) * 10_000})  # the change that reaches CHECKPOINT_WRITES
        assert uncompressed_segments(db, "nodes") == 0
        total = batches * 10_000
        assert db.execute("MATCH (n:N) RETURN count(*) AS n, sum(n.i) AS s").fetchall() == [
            (total, total * (total - 1) // 2)]
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
