"""Node patterns of a MATCH that look nodes up by one key of the input row find them in one scan of the node
table (plan/rules/key_lookups.py, sqlgen/lookup_scans.py, ADR-0107): a load batch's `MATCH (a:Person {id:
r.src}), (b:Person {id: r.dst}) CREATE (a)-[:KNOWS]->(b)`. Each statement is checked against its twin whose
lookup values are computed (`r.src + 0`), which the rule leaves alone, and against the answer itself."""

from __future__ import annotations

import random

import pytest

import engine

LOAD = ("UNWIND $rows AS r MATCH (a:Person {id: r.src}), (b:Person {id: r.dst})"
        " CREATE (a)-[:KNOWS {since: r.since}]->(b)")
TWIN = LOAD.replace("r.src}", "r.src + 0}").replace("r.dst}", "r.dst + 0}")
KNOWS = ("MATCH (a)-[k:KNOWS]->(b) RETURN a.id AS a, a.name AS name, b.id AS b, k.since AS since"
         " ORDER BY a, name, b, since")


def people(db, ids, label="Person"):
    db.execute(f"UNWIND $ids AS i CREATE (:{label} {{id: i, name: '{label} ' + toString(i)}})", {"ids": ids})


def expected(rows, ids):
    """The (a, name, b, since) rows the load creates: one per pair of people holding the row's ids."""
    names = {}
    for number, i in enumerate(ids):
        names.setdefault(i, []).append(number)
    return sorted((r["src"], f"Person {r['src']}", r["dst"], r["since"])
                  for r in rows if r["src"] is not None and r["dst"] is not None
                  for _ in names.get(r["src"], ()) for _ in names.get(r["dst"], ()))


@pytest.mark.parametrize("size", [50, 3000])  # the JSON route and the Arrow one (ADR-0097)
def test_a_load_batch_matches_as_its_twin_does(size):
    generator = random.Random(size)
    ids = [*range(200), 7, 7, 42]  # ids 7 and 42 held by two people each
    rows = [{"src": generator.choice([*range(210), None]), "dst": generator.randrange(215),
             "since": generator.randrange(2000, 2025)} for _ in range(size)]
    rows += [{"src": 7, "dst": 7, "since": 1999}, {"src": 300, "dst": 1, "since": 1998}]  # a loop, a missing end
    answers = []
    for statement in (LOAD, TWIN):
        with engine.connect(":memory:") as db:
            people(db, ids)
            people(db, [1, 2, 3, 300], label="City")  # same ids, other label: never a Person's end
            result = db.execute(statement, {"rows": rows})
            answers.append((result.counters["relationships_created"], db.execute(KNOWS).rows))
    assert answers[0] == answers[1]
    assert answers[0][1] == expected(rows, ids)
    assert answers[0][0] == len(answers[0][1])


def test_the_plan_shows_the_shared_scan():
    with engine.connect(":memory:") as db:
        people(db, [1, 2])
        notes = [row[5] for row in db.execute("EXPLAIN " + LOAD, {"rows": [{"src": 1, "dst": 2, "since": 1}]}).rows]
        assert "one node scan for 2 lookups by id" in ", ".join(notes)
        for statement in (TWIN, "MATCH (a:Person {id: 1}), (b:Person {id: a.id}) RETURN b",
                          "MATCH (a:Person {id: 1}), (b:Person {id: $b}) RETURN b",
                          "WITH $b AS k UNWIND [1, 2] AS i MATCH (a:Person {id: k}), (b:Person {id: k}) RETURN b",
                          "UNWIND $rows AS r OPTIONAL MATCH (b:Person {id: r.a}), (c:Person {id: r.b}) RETURN c",
                          "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (a:Person {id: r.b}) RETURN a"):
            explained = db.execute("EXPLAIN " + statement, {"b": 1, "rows": [{"a": 1, "b": 2}]})
            assert "node scan" not in ", ".join(row[5] for row in explained.rows)


@pytest.mark.parametrize(("statement", "params", "rows"), [
    # two labels, one key: each pattern keeps its label test
    ("UNWIND $rows AS r MATCH (a:Person {id: r.p}), (c:City {id: r.c}) RETURN a.name AS a, c.name AS c",
     {"rows": [{"p": 1, "c": 1}, {"p": 2, "c": 9}, {"p": 3, "c": 2}]},
     [("Person 1", "City 1"), ("Person 3", "City 2")]),
    # a lookup of two patterns beside one by a parameter; a pattern with no label finds either
    ("UNWIND $rows AS r MATCH (a:Person {id: r.p}), (b:Person {id: $b}), (c {id: r.c})"
     " RETURN a.name AS a, b.name AS b, c.name AS c", {"b": 3, "rows": [{"p": 1, "c": 2}]},
     [("Person 1", "Person 3", "City 2"), ("Person 1", "Person 3", "Person 2")]),
    # a string value against the integer column: no node, as `=` says
    ("UNWIND $rows AS r MATCH (a:Person {id: r.p}), (b:Person {id: r.q}) RETURN a.name AS a",
     {"rows": [{"p": 1, "q": "2"}]}, []),
    # keys of two names: each pattern by the one it shares
    ("UNWIND $rows AS x MATCH (a:Person {id: x.i, name: x.n}), (b:Person {id: x.j}), (c {name: x.c}),"
     " (d {name: x.d}) RETURN a.id AS a, b.id AS b, c.id AS c, d.id AS d",
     {"rows": [{"i": 1, "n": "Person 1", "c": "City 1", "d": "City 2", "j": 2}]}, [(1, 2, 1, 2)]),
    # rows a write settled first, then looked up
    ("UNWIND $rows AS r CREATE (:Tmp) WITH r MATCH (a:Person {id: r.p}), (b:Person {id: r.q})"
     " RETURN a.id AS a, b.id AS b ORDER BY a", {"rows": [{"p": 2, "q": 1}, {"p": 1, "q": 2}]}, [(1, 2), (2, 1)]),
])
def test_lookups_answer_what_the_patterns_say(statement, params, rows):
    with engine.connect(":memory:") as db:
        people(db, [1, 2, 3])
        people(db, [1, 2], label="City")
        assert sorted(db.execute(statement, params).rows) == sorted(rows)
        assert "node scan" in ", ".join(row[5] for row in db.execute("EXPLAIN " + statement, params).rows)


def test_a_column_of_mixed_types_is_looked_up_as_before():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {k: 1, n: 'one'}), (:P {k: '1', n: 'text'}), (:P {k: 1.0, n: 'float'})")
        result = db.execute("UNWIND $rows AS r MATCH (a:P {k: r.a}), (b:P {k: r.b}) RETURN a.n AS a, b.n AS b",
                            {"rows": [{"a": 1, "b": "1"}]})
        assert sorted(result.rows) == [("float", "text"), ("one", "text")]
