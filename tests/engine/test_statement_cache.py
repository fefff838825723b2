"""A read sent again runs the SELECT compiled for its text (engine/execute/statement_cache.py, ADR-0044).

Every answer and every error must be what a fresh compile gives: the tests run each statement with many
parameter values, alike and of other types, on a connection that keeps compiled reads and on one that
keeps none, and compare. Then they check what must make a kept read be compiled again: a write, a
changed catalog, a procedure's new rows, another connection's new relationships.
"""

from __future__ import annotations

import pytest

import engine

GRAPH = """
CREATE (ann:Person {name: 'Ann', age: 30, score: 1.5, born: datetime('1994-03-01T10:00Z'), tags: ['a', 'b']}),
       (bob:Person {name: 'Bob', age: 42, score: 2.0, born: datetime('1982-07-15T08:30+02:00'), tags: ['b']}),
       (cat:Person:Admin {name: 'Cat', age: 25, score: 0.5, born: datetime('1999-12-31T23:59:59.5Z'), tags: []}),
       (dan:Person {name: 'Dan', born: datetime('2001-01-01T00:00Z')}),
       (oslo:City {name: 'Oslo'}),
       (ann)-[:KNOWS {since: 2001}]->(bob), (bob)-[:KNOWS {since: 2010}]->(cat), (cat)-[:KNOWS {since: 2015}]->(ann),
       (ann)-[:KNOWS {since: 1999}]->(dan), (ann)-[:LIVES_IN]->(oslo), (bob)-[:LIVES_IN]->(oslo)
"""

AT = ["2000-01-01T00:00Z", "1990-06-01T12:00+02:00", "1995-01-01", "1994-03-01T10:00:00.000000001Z",
      "2001-01-01T00:00:00.5Z", "bad", "1994-03-01T11:00+01:00[Europe/Oslo]", None, 1]

CASES: list[tuple[str, list[dict]]] = [
    ("MATCH (p:Person) WHERE p.age > $age RETURN p.name AS n ORDER BY n",
     [{"age": v} for v in (20, 30, 41, 30.5, None, "x", 100, 24)]),
    ("MATCH (p:Person {name: $name}) RETURN p.age AS a",
     [{"name": v} for v in ("Ann", "Bob", "Zed", None, 3, "Cat")]),
    ("MATCH (p:Person) RETURN p.name AS n ORDER BY n LIMIT $n",
     [{"n": v} for v in (1, 2, 0, -1, 2.5, None, True, 3)]),
    ("MATCH (p:Person) RETURN p.name AS n ORDER BY n SKIP $n LIMIT 2", [{"n": v} for v in (0, 1, 5, -2, 2)]),
    ("MATCH (p:Person) WHERE p.born < datetime($at) RETURN p.name AS n ORDER BY n", [{"at": v} for v in AT]),
    ("WITH datetime($at) AS t MATCH (p:Person) WHERE p.born <= t RETURN p.name AS n, t AS t ORDER BY n",
     [{"at": v} for v in AT]),
    ("MATCH (p:Person) WHERE p.born >= date($d) RETURN p.name AS n ORDER BY n",
     [{"d": v} for v in ("1990-01-01", "1999-12-31", "2020-13-01", "2000-02-29", "1999-02-29")]),
    ("UNWIND $xs AS x RETURN x * 2 AS y",
     [{"xs": v} for v in ([1, 2, 3], (5, 6), [4], [], [1.5, 2], ["a"], None, [7])]),
    ("RETURN $m.k AS v, $m['k'] AS w", [{"m": v} for v in ({"k": 1}, {"k": "s"}, {"k": None}, {"j": 1}, {}, 3)]),
    ("WITH {a: 1, b: 2} AS m RETURN m[$key] AS v", [{"key": v} for v in ("a", "b", "c", 1, None)]),
    ("MATCH (p:Person) RETURN labels(p)[$i] AS l, p.name AS n ORDER BY n", [{"i": v} for v in (0, -1, 5, 1)]),
    ("MATCH (p:Person) WHERE p.name IN $names RETURN count(*) AS c",
     [{"names": v} for v in (["Ann"], ["Ann", "Bob"], [], [1], None, ["Dan", "Zed"])]),
    ("MATCH (p:Person)-[k:KNOWS]->(q) WHERE k.since >= $since RETURN p.name AS a, q.name AS b ORDER BY a, b",
     [{"since": v} for v in (2000, 2010, 1999.0, 2016, 1999)]),
    ("MATCH (p:Person) RETURN p.name AS n,"
     " COLLECT { MATCH (p)-[:KNOWS]->(q) WHERE q.age > $age RETURN q.name ORDER BY q.name } AS friends ORDER BY n",
     [{"age": v} for v in (10, 30, 100, None)]),
    ("MATCH (p:Person) WHERE p.name STARTS WITH $prefix RETURN p.name AS n ORDER BY n",
     [{"prefix": v} for v in ("A", "B", "", None, "Ca")]),
    ("UNWIND [1, 2, 3, 4] AS x RETURN percentileCont(x, $p) AS v", [{"p": v} for v in (0.5, 0.9, 1.5, 0, 1)]),
    ("MATCH (p:Person) RETURN p.name AS n, CASE WHEN p.age > $age THEN 'old' ELSE 'young' END AS band ORDER BY n",
     [{"age": v} for v in (26, 40, None)]),
    ("RETURN $x AS x", [{"x": v} for v in (1, 1.0, True, "1", [1], {"a": 1}, None, [1, "a"], float("inf"), 2**70,
                                           2**71, -0.0, 2)]),
    ("MATCH (p:Person) WHERE p[$key] = $value RETURN p.name AS n ORDER BY n",
     [{"key": "name", "value": "Ann"}, {"key": "age", "value": 42}, {"key": "nope", "value": 1},
      {"key": "name", "value": "Bob"}]),
    ("MATCH (p:Person) WHERE exists { (p)-[:KNOWS]->(:Person {name: $name}) } RETURN p.name AS n ORDER BY n",
     [{"name": v} for v in ("Bob", "Ann", "Zed")]),
    ("UNWIND $rows AS r RETURN datetime(r.at) AS at",
     [{"rows": [{"at": "2020-01-01T00:00Z"}]}, {"rows": [{"at": "2021-01-01T00:00Z"}, {"at": "2022-06-01T00:00Z"}]},
      {"rows": [{"at": "nope"}]}]),
    ("RETURN range(1, $n) AS r", [{"n": v} for v in (3, 0, -1, 5)]),
    ("RETURN $a + $b AS c", [{"a": 1, "b": 2}, {"a": 1.5, "b": 2}, {"a": "a", "b": "b"}, {"a": [1], "b": 2},
                             {"a": 1}, {"a": 3, "b": 4}]),
    ("RETURN [x IN $xs WHERE x > $min | x * 10] AS v",
     [{"xs": [1, 2, 3], "min": 1}, {"xs": [5], "min": 9}, {"xs": [1.5, 2.5], "min": 2}]),
    ("MATCH (p:Person) WHERE $tag IN p.tags RETURN p.name AS n ORDER BY n", [{"tag": v} for v in ("a", "b", "c")]),
    ("RETURN duration($d) AS d", [{"d": v} for v in ("P1D", "PT2H", {"days": 3}, "nope")]),
    ("MATCH (a:Person {name: $a}), (b:Person {name: $b}) MATCH p = shortestPath((a)-[:KNOWS*]->(b))"
     " RETURN length(p) AS l", [{"a": "Ann", "b": "Cat"}, {"a": "Cat", "b": "Dan"}, {"a": "Dan", "b": "Ann"}]),
    ("MATCH (p:Person)-[:KNOWS]->{1,3}(q) WHERE p.name = $name RETURN q.name AS n, count(*) AS c ORDER BY n",
     [{"name": v} for v in ("Ann", "Dan", "Bob")]),
    ("MATCH (p:Person) RETURN p.name AS n, p.score * $f AS s ORDER BY s DESC, n", [{"f": v} for v in (2, 0.5, -1)]),
    ("MATCH (p:Person) WITH p ORDER BY p.name LIMIT $n RETURN collect(p.name) AS names",
     [{"n": v} for v in (1, 3, 0)]),
    # a config the path expanders compile into the pattern: only looked at, never bound (absent: a miss)
    ("MATCH (p:Person {name: 'Ann'}) CALL apoc.path.expandConfig(p, $config) YIELD path"
     " RETURN length(path) AS l, count(*) AS c ORDER BY l",
     [{"config": {"relationshipFilter": "KNOWS>", "maxLevel": 2}}, {"config": {"relationshipFilter": "KNOWS"}},
      {}, {"config": {"relationshipFilter": "LIVES_IN>", "minLevel": 1}}, {"config": None}, {"config": 3}]),
    ("MATCH (p:Person {name: 'Ann'}) CALL apoc.path.subgraphNodes(p, {maxLevel: $d}) YIELD node"
     " RETURN node.name AS n ORDER BY n", [{"d": v} for v in (1, 0, 2, "x")]),
    # key sets and units read off an UNWIND of a parameter: compiled one branch each, so looked at
    ("UNWIND $ms AS m RETURN date(m) AS d",
     [{"ms": [{"year": 1984, "month": 2}, {"year": 1984, "week": 2}]}, {"ms": [{"year": 1984, "ordinalDay": 40}]},
      {"ms": [{"year": 1984, "day": 3}]}, {"ms": [{"year": 1984, "month": 5}, "2020-01-01", None]}]),
    ("UNWIND $units AS u RETURN date.truncate(u, date('2017-11-11')) AS d",
     [{"units": v} for v in (["month"], ["year", "week"], ["hour"], ["fortnight"], [None], ["day"])]),
    ("RETURN date.truncate($unit, date('2017-11-11')) AS d", [{"unit": v} for v in ("month", "year", 3, "day")]),
]


def outcome(db: engine.Connection, statement: str, params: dict) -> tuple:
    try:
        result = db.execute(statement, params)
    except engine.CypherError as error:
        return "error", type(error).__name__, str(error)
    return "ok", result.columns, result.rows


@pytest.fixture(scope="module")
def pair():
    kept, fresh = engine.connect(), engine.connect(statement_cache_size=0)
    for db in (kept, fresh):
        db.execute(GRAPH)
    yield kept, fresh
    kept.close()
    fresh.close()


@pytest.mark.parametrize(("statement", "param_sets"), CASES, ids=[case[0][:60] for case in CASES])
def test_a_kept_read_answers_and_fails_as_a_fresh_compile(pair, statement, param_sets):
    kept, fresh = pair
    for params in param_sets + param_sets:  # the second pass meets every value after others were kept
        assert outcome(kept, statement, params) == outcome(fresh, statement, params), params
    assert fresh.statement_cache_info()["hits"] == 0


def test_reads_with_other_values_of_the_same_types_reuse_their_compile():
    with engine.connect() as db:
        db.execute(GRAPH)
        statements = [
            ("MATCH (p:Person) WHERE p.age > $age RETURN p.name AS n ORDER BY n", [{"age": 20}, {"age": 30}]),
            ("WITH datetime($at) AS t MATCH (p:Person) WHERE p.born <= t RETURN p.name AS n ORDER BY n",
             [{"at": "2000-01-01T00:00Z"}, {"at": "1990-06-01T12:00+02:00"}]),
            ("UNWIND $xs AS x RETURN x * 2 AS y", [{"xs": [1, 2]}, {"xs": [3]}]),
        ]
        for statement, (first, second) in statements:
            db.execute(statement, first)
            before = db.statement_cache_info()["hits"]
            db.execute(statement, second)
            assert db.statement_cache_info()["hits"] == before + 1, statement


def test_a_value_the_compile_looked_at_is_compiled_again_when_it_changes():
    """LIMIT's parameter is checked as the statement binds: a negative one must fail however often the
    statement ran before with a good one."""
    with engine.connect() as db:
        db.execute(GRAPH)
        limit = "MATCH (p:Person) RETURN p.name AS n ORDER BY n LIMIT $n"
        assert db.execute(limit, {"n": 1}).rows == [("Ann",)]
        assert db.execute(limit, {"n": 1}).rows == [("Ann",)]
        assert db.statement_cache_info()["hits"] == 1
        assert db.execute(limit, {"n": 2}).rows == [("Ann",), ("Bob",)]
        with pytest.raises(engine.CypherError, match="non-negative integer"):
            db.execute(limit, {"n": -1})


def test_a_write_makes_kept_reads_compile_again():
    with engine.connect() as db:
        db.execute(GRAPH)
        read = "MATCH (p:Person {name: $name}) RETURN p.nickname AS nick"
        assert db.execute(read, {"name": "Ann"}).rows == [(None,)]
        db.execute("MATCH (p:Person {name: 'Ann'}) SET p.nickname = 'Annie'")  # a new property column
        assert db.execute(read, {"name": "Ann"}).rows == [("Annie",)]
        db.execute("MATCH (p:Person {name: 'Ann'}) SET p.nickname = 7")  # the column widens to any type
        assert db.execute(read, {"name": "Ann"}).rows == [(7,)]


def test_a_procedure_call_is_compiled_every_time():
    """A registered procedure's rows are fixed when a call compiles: registering new rows must show."""
    with engine.connect() as db:
        db.register_procedure("test.colours() :: (name :: STRING)", [{"name": "red"}])
        call = "CALL test.colours() YIELD name RETURN name"
        assert db.execute(call).rows == [("red",)]
        db.register_procedure("test.colours() :: (name :: STRING)", [{"name": "blue"}])
        assert db.execute(call).rows == [("blue",)]
        assert db.statement_cache_info()["hits"] == 0


def test_relationships_another_connection_creates_reach_a_kept_read(tmp_path):
    """A walk over relationships that cannot branch compiles without the cap on partial paths (ADR-0039):
    once another connection of the process creates a branch in the same file, the kept read must compile
    again, with the cap."""
    path = str(tmp_path / "g.db")
    with engine.connect(path) as writer:
        writer.execute("CREATE (:N {i: 0})-[:NEXT]->(:N {i: 1})-[:NEXT]->(:N {i: 2})")
    with engine.connect(path) as writer, engine.connect(path, max_walk_rows=1) as reader:
        walk = "MATCH (a:N {i: $i})-[:NEXT*]->(b) RETURN b.i AS i ORDER BY i"
        assert reader.execute(walk, {"i": 0}).rows == [(1,), (2,)]
        assert reader.execute(walk, {"i": 0}).rows == [(1,), (2,)]
        assert reader.statement_cache_info()["hits"] == 1
        writer.execute("MATCH (a:N {i: 0}), (c:N {i: 2}) CREATE (a)-[:NEXT]->(c)")
        with pytest.raises(engine.CypherError, match="partial paths"):
            reader.execute(walk, {"i": 0})


def test_a_connection_with_no_cache_keeps_nothing():
    with engine.connect(statement_cache_size=0) as db:
        for _ in range(3):
            db.execute("RETURN $x AS x", {"x": 1})
        assert db.statement_cache_info() == {"hits": 0, "kept": 0, "size": 0, "bound_hits": 0}
