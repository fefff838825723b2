"""The Cypher 25 VECTOR type (docs/adr/0066-vectors-are-tagged-variants.md): the Python value, parameters,
the run-time paths of values whose type only the data decides, order and grouping, vector indexes over VECTOR
properties, and the text of a FLOAT32 coordinate. The manual's examples are the conformance page
tests/conformance/cypher25-vectors.md."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import engine
from engine.values import java_float_text


def error_of(db: engine.Connection, query: str, params: dict | None = None) -> tuple[str, str | None]:
    with pytest.raises(engine.CypherError) as raised:
        db.execute(query, params)
    return raised.value.kind, raised.value.detail


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        yield connection


def test_the_python_value() -> None:
    vector = engine.Vector("FLOAT32", (1.05, 2))
    assert vector.coordinates == (float(np.float32(1.05)), 2.0) and vector.dimension == 2
    assert str(vector) == "vector([1.05, 2.0], 2, FLOAT32 NOT NULL)"
    assert str(engine.Vector("INTEGER8", (1, -2))) == "vector([1, -2], 2, INTEGER8 NOT NULL)"
    for coordinate_type, coordinates in [("INTEGER8", (128,)), ("FLOAT32", (1e40,)), ("FLOAT", (float("nan"),)),
                                         ("INTEGER", ()), ("INT8", (1,))]:
        with pytest.raises(ValueError):
            engine.Vector(coordinate_type, coordinates)


@pytest.mark.parametrize("value", [0.1, 1e-5, 1e7, 123456789.0, 3.4e38, 1.4e-45, 16777216.0, 0.001, -2.5])
def test_a_float32_is_written_as_java_writes_a_float(value: float) -> None:
    """Java's Float.toString: the shortest digits of the 32-bit float, Java's notation (`1.4E-45` for the least
    subnormal, whose shortest digits are one)."""
    widened = struct.unpack("<f", struct.pack("<f", value))[0]
    expected = {0.1: "0.1", 1e-5: "1.0E-5", 1e7: "1.0E7", 123456789.0: "1.2345679E8", 3.4e38: "3.4E38",
                1.4e-45: "1.4E-45", 16777216.0: "1.6777216E7", 0.001: "0.001", -2.5: "-2.5"}[value]
    assert java_float_text(widened) == expected


def test_vectors_as_parameters_round_trip(db) -> None:
    vector = engine.Vector("INTEGER16", (1, 2, 3))
    floats = engine.Vector("FLOAT", (2.0, 0.5))
    rows = db.execute("RETURN $v AS v, $m.inner AS inner, $l[1] AS second, $v = vector([1, 2, 3], 3, INT16) AS same,"
                      " valueType($l[1]) AS type",
                      {"v": vector, "m": {"inner": floats}, "l": [vector, floats]}).rows
    assert rows == [(vector, floats, floats, True, "VECTOR<FLOAT NOT NULL>(2) NOT NULL")]


def test_stored_vectors_keep_their_coordinate_type(db) -> None:
    db.execute("CREATE (:D {v: vector([1, 2], 2, INTEGER8)}), (:D {v: vector([1, 2], 2, FLOAT32)}), (:D {v: [1, 2]})")
    rows = db.execute("MATCH (d:D) RETURN valueType(d.v) AS type ORDER BY type").rows
    assert rows == [("LIST<INTEGER NOT NULL> NOT NULL",), ("VECTOR<FLOAT32 NOT NULL>(2) NOT NULL",),
                    ("VECTOR<INTEGER8 NOT NULL>(2) NOT NULL",)]
    assert db.execute("MATCH (d:D) WHERE d.v = vector([1, 2], 2, INT8) RETURN count(d) AS c").rows == [(1,)]
    assert error_of(db, "MATCH (d:D) SET d.l = [d.v]") == ("TypeError", "InvalidPropertyType")


def test_values_known_only_at_run_time(db) -> None:
    """A vector inside a list of mixed values: its functions check it as they run."""
    row = db.execute("WITH [vector([3, 4], 2, INTEGER), 1] AS l RETURN size(l[0]) AS size,"
                     " vector_norm(l[0], EUCLIDEAN) AS norm, toFloatList(l[0]) AS floats,"
                     " l[0] IS :: VECTOR<INT>(2) AS typed, l[1] IS :: VECTOR AS notVector").rows
    assert row == [(2, 5.0, [3.0, 4.0], True, False)]
    assert error_of(db, "WITH [vector([1], 1, INTEGER), 1] AS l RETURN vector_dimension_count(l[1]) AS d") == (
        "TypeError", "InvalidArgumentType")
    assert error_of(db, "WITH [vector([1], 1, INTEGER), 1] AS l RETURN l[0][0] AS d")[0] == "TypeError"
    assert error_of(db, "WITH [vector([1], 1, INTEGER), 1] AS l RETURN l[0].c AS d")[0] == "TypeError"
    assert error_of(db, "RETURN vector($v, 2, FLOAT) AS v", {"v": "[1, x]"}) == ("TypeError", "InvalidArgumentValue")
    assert error_of(db, "RETURN vector([1], $d, FLOAT) AS v", {"d": 5000}) == ("ArgumentError", "NumberOutOfRange")


def test_comparison_order_and_grouping(db) -> None:
    """Vectors are equal or not, never less or greater; ORDER BY puts them after points and before strings,
    among themselves by coordinate type, dimension and coordinates; DISTINCT and grouping treat equal ones as one."""
    assert db.execute("RETURN vector([1], 1, INTEGER) < vector([2], 1, INTEGER) AS less").rows == [(None,)]
    rows = db.execute("UNWIND [vector([2], 1, INTEGER), 'a', vector([1, 0], 2, INTEGER), vector([1], 1, INTEGER),"
                      " vector([9], 1, INT8), 1] AS v RETURN v ORDER BY v").rows
    assert [str(v) for (v,) in rows] == [
        "vector([9], 1, INTEGER8 NOT NULL)", "vector([1], 1, INTEGER NOT NULL)", "vector([2], 1, INTEGER NOT NULL)",
        "vector([1, 0], 2, INTEGER NOT NULL)", "a", "1"]
    rows = db.execute("UNWIND [vector([2], 1, INTEGER), vector([2], 1, INTEGER), vector([2], 1, INT8)] AS v"
                      " RETURN v, count(*) AS c ORDER BY c").rows
    assert rows == [(engine.Vector("INTEGER8", (2,)), 1), (engine.Vector("INTEGER", (2,)), 2)]


def test_vector_indexes_read_vector_properties(db) -> None:
    db.execute("CREATE VECTOR INDEX idx FOR (n:D) ON n.e OPTIONS {indexConfig: {`vector.dimensions`: 2,"
               " `vector.similarity_function`: 'euclidean'}}")
    db.execute("CREATE (:D {id: 1, e: vector([1.0, 0.0], 2, FLOAT32)}), (:D {id: 2, e: vector([0, 3], 2, INTEGER8)}),"
               " (:D {id: 3, e: [1.0, 1.0]})")
    rows = db.execute("CALL db.index.vector.queryNodes('idx', 3, vector([1, 0], 2, FLOAT)) YIELD node, score"
                      " RETURN node.id AS id, score").rows
    assert rows == [(1, 1.0), (3, 0.5), (2, pytest.approx(1 / 11))]


def test_similarity_refuses_what_vector_2_0_cannot_index(db) -> None:
    """A zero vector has no direction: cosine similarity refuses it, as Neo4j's vector-2.0 provider does."""
    assert error_of(db, "RETURN vector.similarity.cosine([0.0, 0.0], [1.0, 0.0]) AS s") == (
        "ArgumentError", "InvalidArgumentValue")
    assert db.execute("RETURN vector.similarity.cosine(null, [1.0]) AS s").rows == [(None,)]


@pytest.mark.parametrize("text", ["VECTOR(0)", "VECTOR(4097)", "VECTOR<BOOLEAN>", "VECTOR<INT8>(x)"])
def test_invalid_vector_types(db, text: str) -> None:
    assert error_of(db, f"RETURN 1 IS :: {text} AS t")[0] == "SyntaxError"
