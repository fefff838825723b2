"""An unaliased variable written with backticks projects under its name, as Neo4j names it: `WITH `x``
keeps `x` in scope (before, the projected variable was spelled with the backticks, and a later `x` was
not defined), and `RETURN `x y`` names its column `x y`. LLM-written Cypher quotes names this way, and
APOC's own Cypher (apoc.schema.properties.distinctCount, engine/apoc/schema.py) does too."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect() as connection:
        yield connection


@pytest.mark.parametrize(("query", "columns", "rows"), [
    ("WITH 1 AS `x` WITH `x` RETURN x", ["x"], [(1,)]),
    ("WITH 1 AS `x y` WITH `x y` RETURN `x y`", ["x y"], [(1,)]),
    ("UNWIND [1, 1, 2] AS x WITH `x`, count(*) AS c RETURN x, c ORDER BY x", ["x", "c"], [(1, 2), (2, 1)]),
    ("WITH 1 AS x RETURN `x`", ["x"], [(1,)]),
    ("WITH 1 AS x, 2 AS y WITH `x`, y RETURN *", ["x", "y"], [(1, 2)]),
    ("WITH {a: 1} AS m RETURN `m`.a", ["`m`.a"], [(1,)]),  # not a variable: its text, as written
])
def test_backticked_variable_projects_under_its_name(db, query, columns, rows) -> None:
    result = db.execute(query)
    assert result.columns == columns
    assert result.rows == rows
