"""bench/bulk_load.py loads what it says: the Person rows of `social_scaled`, and KNOWS rows between them with
no self loops (on a small graph; the bench times the batches, this checks the rows and that they load)."""

from __future__ import annotations

import engine
from bench.bulk_load import knows, people
from bench.systems import LOAD


def test_knows_rows_join_existing_people_without_self_loops() -> None:
    rows = list(knows(500, 100))
    assert len(rows) == 500
    assert all(0 <= row["src"] < 100 and 0 <= row["dst"] < 100 and row["src"] != row["dst"] for row in rows)


def test_a_person_and_a_knows_batch_load_every_row() -> None:
    db = engine.connect(":memory:")
    db.execute(LOAD["people"], {"rows": list(people(200))})
    db.execute(LOAD["knows"], {"rows": list(knows(300, 200))})
    assert db.execute("MATCH (p:Person) RETURN count(p)").fetchall() == [(200,)]
    assert db.execute("MATCH (:Person)-[k:KNOWS]->(:Person) RETURN count(k)").fetchall() == [(300,)]
    db.close()
