"""A record parameter's SQL converts only the fields the statement reads (parameter_fields.py, ADR-0114).

Each statement runs on many values twice: on a connection as the engine is, and on one where no parameter is
narrowed (the analysis turned off), and every answer, error and graph must be the same, numbers by their
type (1 is not 1.0) and floats by their sign. Each statement also says whether it may be narrowed at all: a
use that reads a value whole (returned, compared, grouped, given to a function, imported by a subquery ...)
must keep the whole type, and a value sent again of another type must bind through the right SQL.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

import engine
from engine.semantic import binder
from engine.values import Date, DateTime, Point
from tests.engine.exact_values import exact

ROWS = [
    {"a": 1, "b": "x", "l": [{"b": "p", "c": 1.5}, {"b": "q", "c": -0.0}], "n": {"c": 1, "d": "é"}, "z": [[1]]},
    {"a": 2, "b": "☃ 𝄞 'quoted' \"dq\" \\ back", "l": [], "n": {"c": None, "d": "x"}, "z": [[2, 3]]},
    {"a": None, "b": None, "l": [{"b": None, "c": 2.0}], "n": {"c": 3, "d": None}, "z": []},
    {"a": -(2**63), "b": "\u0000nul", "l": [{"b": "r", "c": 1e308}], "n": {"c": 2**63 - 1, "d": ""}, "z": [[]]},
]

VALUES: list[object] = [
    ROWS,
    ROWS[:1],
    [ROWS[0], None, ROWS[1]],  # a null row is still a row of UNWIND
    [],
    [{**row, "a": float(i) + 0.5} for i, row in enumerate(ROWS)],  # a as floats
    [{**row, "a": str(i)} for i, row in enumerate(ROWS)],  # a as strings
    [{**row, "a": True} for row in ROWS],
    [{**row, "l": [{"b": "s", "c": 1}]} for row in ROWS],  # c as integers
    [{**row, "l": None} for row in ROWS],
    [{**row, "z": [{"deep": [{"er": 1}]}]} for row in ROWS],  # an unread field of records
    [{**row, "at": Date(2026, 1, 2), "t": DateTime(2026, 1, 2, 3, 4, 5, 6, 3600, "Europe/Paris"),
      "p": Point(7203, 1.0, 2.0, None)} for row in ROWS],  # temporal and spatial fields
    [{"a": 1, "b": "x", "l": [{"b": "u", "c": 0.0}], "n": {"c": 1, "d": "y"}, "weird key \"'`": 1, "ÄÖ": [1.5]}],
    [{"a": 1, "b": "only"}, {"a": 2, "b": "shape", "extra": 1}],  # maps of two shapes: a plain map (VARIANT)
    [{"a": 1, "b": "x", "l": [{"b": "t", "c": 1.0}], "n": {"c": 1, "d": "y"}, "z": None}],  # null-typed field
    [1, 2],  # not maps at all
    "not a list",
]

CASES: list[tuple[str, bool]] = [
    # (statement, whether some parameter may be narrowed for ROWS)
    ("UNWIND $p AS x RETURN x.a AS a", True),
    ("UNWIND $p AS x UNWIND x.l AS y RETURN x.a AS a, y.b AS b", True),
    ("UNWIND $p AS x WITH x AS z RETURN z.a AS a", True),
    ("UNWIND $p AS x WITH x, x.a AS a RETURN x.b AS b, a", True),
    ("UNWIND $p AS x WITH * RETURN x.a AS a", True),
    ("UNWIND $p AS x WITH x WHERE x.a > 0 RETURN x.b AS b", True),
    ("UNWIND $p AS x WITH x ORDER BY x.b LIMIT 3 RETURN x.a AS a", True),
    ("UNWIND $p AS x RETURN x.a AS a ORDER BY x.b", True),
    ("UNWIND $p AS x UNWIND x.l AS y WITH y.c AS c, x RETURN c, x.n.d AS d", True),
    ("UNWIND $p AS x WITH x.l AS l UNWIND l AS y RETURN y.b AS b", True),
    ("UNWIND $p AS x RETURN x.n.c AS c", True),
    ("UNWIND $p AS x RETURN x {.a, .b} AS m", False),  # the map is null where x is: x is read whole
    ("UNWIND $p AS x RETURN x.missing AS m, x.a AS a", True),
    ("UNWIND $p AS x RETURN collect(x.a) AS c", True),
    ("UNWIND $p AS x RETURN x.a + 1 AS a", True),
    ("UNWIND $p AS x RETURN x.at AS at, x.t AS t, x.p AS p, x.a AS a", True),
    ("UNWIND $p AS x OPTIONAL MATCH (n:Nope) RETURN x.a AS a, n", True),
    ("UNWIND $p AS x UNWIND $p AS y RETURN x.a AS a, y", True),
    ("UNWIND $p AS x RETURN x.a AS v UNION ALL UNWIND $p AS x RETURN x.b AS v", True),
    ("UNWIND $p AS x CREATE (n:T {a: x.a, b: x.b}) WITH n, x UNWIND x.l AS y CREATE (n)-[:L {b: y.b}]->(:U)", True),
    ("UNWIND $p AS x MERGE (n:T {b: x.b}) ON CREATE SET n.a = x.a", True),
    ("WITH $p AS ps UNWIND ps AS x RETURN x.a AS a", True),
    ("WITH $p[0] AS r RETURN r.a AS a", False),
    ("UNWIND $p AS x RETURN x", False),
    ("RETURN $p AS p", False),
    ("UNWIND $p AS x WITH DISTINCT x RETURN x.a AS a", False),
    ("UNWIND $p AS x WITH x, count(*) AS c RETURN x.a AS a, c", False),
    ("UNWIND $p AS x RETURN count(DISTINCT x) AS c", False),
    ("UNWIND $p AS x RETURN x.a AS a ORDER BY x", False),
    ("UNWIND $p AS x RETURN keys(x) AS k", False),
    ("UNWIND $p AS x RETURN size(x.l) AS s, x.a AS a", True),  # l is whole, a read: still narrower
    ("UNWIND $p AS x RETURN x['a'] AS a", False),
    ("UNWIND $p AS x RETURN [x, 1] AS l", False),
    ("UNWIND $p AS x RETURN x = {a: x.a} AS e", False),
    ("UNWIND $p AS x RETURN x IS NULL AS n, x.a AS a", False),
    ("UNWIND $p AS x RETURN COUNT { UNWIND x.l AS y RETURN y } AS c", False),
    ("UNWIND $p AS x CALL (x) { RETURN x.a AS a } RETURN a", False),
    ("UNWIND $p AS x CALL { WITH x RETURN x.b AS b } RETURN b", False),
    ("UNWIND $p AS x FOREACH (y IN x.l | CREATE (:F {b: y.b})) RETURN x.a AS a", True),
    ("UNWIND $p AS x RETURN [y IN x.l | y.b] AS bs, x.a AS a", True),
    ("UNWIND $p AS x WITH x UNWIND [x] AS y RETURN y.a AS a", False),
    ("UNWIND $p AS x CREATE (:T {v: x.n})", True),
    ("UNWIND $p AS x RETURN x.`weird key \"'``` AS w, x.`ÄÖ` AS u, x.a AS a", True),
]
STATEMENTS = [statement for statement, _ in CASES]

DUMP = ("MATCH (n) RETURN labels(n) AS l, properties(n) AS p ORDER BY l, p.a, p.b, p.v"
        " UNION ALL MATCH ()-[r]->() RETURN [type(r)] AS l, properties(r) AS p")


@contextlib.contextmanager
def whole_types() -> Iterator[None]:
    """Bind with no parameter narrowed: the SQL converts every value to its whole type, as before."""
    narrow, binder.narrow_parameters = binder.narrow_parameters, lambda query: None
    try:
        yield
    finally:
        binder.narrow_parameters = narrow


def outcome(db: engine.Connection, statement: str, params: dict) -> tuple:
    try:
        result = db.execute(statement, params)
        return ("rows", result.columns, exact(result.rows), exact(db.execute(DUMP).rows))
    except engine.CypherError as error:
        return ("error", type(error).__name__, str(error))


def sql(db: engine.Connection, statement: str, params: dict) -> str:
    _, trace = db.explain(statement, params)
    return "\n".join(text for text, _ in trace)


def narrowed(db: engine.Connection, statement: str, params: dict) -> bool:
    return "from_json(" in sql(db, statement, params)


@pytest.mark.parametrize(("statement", "narrows"), CASES)
def test_reads_narrowed_as_the_whole_type_reads_them(statement, narrows):
    """Each statement on each value, on a connection that keeps compiled statements (each value binds into
    the SQL kept for the one before when it can) and on one with nothing narrowed that keeps none."""
    with engine.connect() as kept, engine.connect(statement_cache_size=0) as whole:
        for value in VALUES:
            params = {"p": value}
            with whole_types():
                expected = outcome(whole, statement, params)
            assert outcome(kept, statement, params) == expected, value
        assert narrowed(kept, statement, {"p": ROWS}) is narrows


def test_the_narrowed_type_is_the_fields_read():
    with engine.connect() as db:
        text = sql(db, "UNWIND $p AS x UNWIND x.l AS y RETURN x.n.d AS d, y.c AS c", {"p": ROWS})
        narrow = r'STRUCT(\"l\" STRUCT(\"c\" DOUBLE)[], \"n\" STRUCT(\"d\" VARCHAR))[]'
        assert f"""from_json($1, '"{narrow}"')""" in text


def test_a_record_parameter_reads_its_fields():
    record = {"a": 1, "b": [1.5], "c": {"d": "x", "e": [{"f": 1}]}}
    statement = "RETURN $r.a AS a, $r.c.d AS d"
    with engine.connect() as db:
        assert narrowed(db, statement, {"r": record})
        assert exact(db.execute(statement, {"r": record}).rows) == exact([(1, "x")])
        assert exact(db.execute(statement, {"r": {**record, "a": 2.0}}).rows) == exact([(2.0, "x")])
        assert exact(db.execute(statement, {"r": {"a": 3}}).rows) == exact([(3, None)])


def test_a_narrowed_statement_sent_again_with_values_of_other_types():
    """The statement kept for one type of value is not run with a value of another: the binding's SQL is
    compared, and the whole type decides the type of the value, not the narrower one."""
    statement = "UNWIND $p AS x RETURN x.a AS a"
    with engine.connect() as db:
        values = [ROWS, [{"a": 1, "b": 2}], [{"a": "s", "b": "x"}], [{"a": 1.5}], [{"b": 1, "a": 2}], ROWS]
        runs = [value for value in values for _ in range(2)]
        results = [exact(db.execute(statement, {"p": value}).rows) for value in runs]
        assert results == [exact([(row["a"],) for row in value]) for value in runs]
        assert db.statement_cache_info()["hits"] > 0
