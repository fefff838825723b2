"""Functions and operators the openCypher TCK does not pin down, as Neo4j 5 computes them (Cypher manual:
Functions, Aggregating functions, Mathematical operators, List concatenation): each a case the engine got
wrong or failed on with an internal error."""

from __future__ import annotations

import math
import sys

import duckdb
import pytest

import engine
from engine import errors
from engine.execute.duckdb_errors import translate


def _rows(query: str, *setup: str, params: dict | None = None) -> list[tuple]:
    with engine.connect(":memory:") as db:
        for statement in setup:
            db.execute(statement)
        return db.execute(query, params or {}).fetchall()


def _error(query: str, *setup: str) -> engine.CypherError:
    with engine.connect(":memory:") as db:
        for statement in setup:
            db.execute(statement)
        with pytest.raises(engine.CypherError) as raised:
            db.execute(query).fetchall()
    return raised.value


# -- a function's static type and its SQL agree ------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("RETURN 'x' + reverse('ab') AS c", [("xba",)]),
    ("RETURN reverse('abc') AS c ORDER BY c", [("cba",)]),
    ("UNWIND ['ab', 'cd'] AS s RETURN reverse(s) AS c ORDER BY c DESC", [("dc",), ("ba",)]),
    ("UNWIND [[1, 2]] AS l RETURN reverse(l) + [0] AS c ORDER BY c", [([2, 1, 0],)]),
    ("UNWIND ['ab', [1, 2]] AS v RETURN reverse(v) AS c ORDER BY c", [([2, 1],), ("ba",)]),
])
def test_reverse_of_a_string_is_a_string_to_what_uses_it(query: str, expected: list[tuple]) -> None:
    assert _rows(query) == expected


def test_reverse_of_a_string_property_sorts() -> None:
    assert _rows("MATCH (n:S) RETURN reverse(n.s) AS c ORDER BY c", "CREATE (:S {s: 'ab'}), (:S {s: 'ba'})") == [
        ("ab",), ("ba",)]


# -- an error branch in SQL is never a Cypher error unless it fires -------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("UNWIND ['abc'] AS s RETURN reverse(left(s, 2)) AS c ORDER BY c", [("ba",)]),
    ("UNWIND ['abc'] AS s WITH s WHERE reverse(left(s, 2)) = 'ba' RETURN s", [("abc",)]),
    ("UNWIND [7] AS x RETURN reverse(toString(x / 2)) AS c ORDER BY c", [("3",)]),
    ("UNWIND [7] AS x RETURN reverse(toString(x % 2)) + 'x' AS c", [("1x",)]),
])
def test_functions_around_an_error_branch(query: str, expected: list[tuple]) -> None:
    assert _rows(query) == expected


def test_sql_text_quoted_in_a_duckdb_error_is_not_taken_for_a_raised_error() -> None:
    """A binder error quotes the line it failed on, and that line may hold an error('CYPHER|...') branch."""
    quoted = duckdb.BinderException(
        "Binder Error: No function matches the given name and argument types 'variant_typeof(VARCHAR)'.\n\n"
        "LINE 1: ...) < 0 THEN error('CYPHER|ArgumentError|NegativeIntegerArgument|' || 'the length given...")
    error = translate(quoted, None)
    assert (error.kind, error.detail) == ("Error", "Internal")
    raised = translate(duckdb.InvalidInputException(
        "Invalid Input Error: CYPHER|ArithmeticError|DivisionByZero|/ by zero"), None)
    assert (type(raised), raised.detail, raised.message) == (errors.CypherArithmeticError, "DivisionByZero",
                                                             "/ by zero")


# -- null + list is null ----------------------------------------------------------------------------------


def test_null_list_plus_a_list_is_null() -> None:
    setup = "CREATE (:B {l: [1]}), (:B)"
    assert _rows("MATCH (n:B) RETURN n.l + [9] AS x ORDER BY x", setup) == [([1, 9],), (None,)]
    assert _rows("MATCH (n:B) RETURN [9] + n.l AS x ORDER BY x", setup) == [([9, 1],), (None,)]
    assert _rows("MATCH (n:B) RETURN n.l || [9] AS x ORDER BY x", setup) == [([1, 9],), (None,)]
    assert _rows("MATCH (n:B) UNWIND n.l + [9] AS x RETURN x", setup) == [(1,), (9,)]
    assert _rows("MATCH (n:B) RETURN n.l + 2 AS x, 2 + n.l AS y ORDER BY x", setup) == [([1, 2], [2, 1]), (None, None)]
    assert _rows("RETURN [1] + 2, 2 + [1], null + [1], [1] + null, [1] || null, null || [1]") == [
        ([1, 2], [2, 1], None, None, None, None)]


# -- % is Java's remainder --------------------------------------------------------------------------------

REMAINDERS = [("-7.5", "2", -1.5), ("-7", "2.0", -1.0), ("7.5", "-2", 1.5), ("-7", "2", -1), ("7", "-2", 1),
              ("7.5", "2", 1.5), ("1", "0.0", math.nan), ("0.0", "0", math.nan)]


@pytest.mark.parametrize(("dividend", "divisor", "expected"), REMAINDERS)
def test_remainder_takes_the_sign_of_the_dividend(dividend: str, divisor: str, expected: float) -> None:
    literal = _rows(f"RETURN {dividend} % {divisor} AS r")
    dynamic = _rows(f"UNWIND [[{dividend}, {divisor}, 'x']] AS p RETURN p[0] % p[1] AS r")
    for ((value,),) in (literal, dynamic):
        assert type(value) is type(expected)
        assert value == expected or (math.isnan(expected) and math.isnan(value))


def test_integer_remainder_by_zero_is_an_error() -> None:
    for query in ("RETURN 0 % 0", "UNWIND [[0, 0, 'x']] AS p RETURN p[0] % p[1]", "UNWIND [5] AS x RETURN x % 0"):
        error = _error(query)
        assert (type(error), error.detail) == (errors.CypherArithmeticError, "DivisionByZero")


# -- aggregates over no rows, and over mixed numbers --------------------------------------------------------

FLOATS = "CREATE (:X {f: 1.5, i: 1, s: 'a'}), (:X {f: 2.5, i: 2, s: 'b'})"


def test_sum_over_no_rows_is_the_integer_zero() -> None:
    rows = _rows("MATCH (n:X) WHERE n.f > 100 RETURN sum(n.f) AS f, sum(n.i) AS i, sum(null) AS z", FLOATS)
    assert rows == [(0, 0, 0)]
    assert all(type(value) is int for value in rows[0])
    assert _rows("MATCH (n:X) RETURN sum(n.f) + 1 AS f, sum(n.i) AS i", FLOATS) == [(5.0, 3)]


def test_sum_over_integers_and_floats() -> None:
    mixed = _rows("UNWIND [1, 2.5, 3] AS x RETURN sum(x) AS s")
    assert mixed == [(6.5,)] and type(mixed[0][0]) is float
    integers = _rows("UNWIND [1, 'x', 2] AS x WITH x WHERE x <> 'x' RETURN sum(x) AS s")
    assert integers == [(3,)] and type(integers[0][0]) is int
    assert _rows("UNWIND [1, 2.5, null] AS x RETURN sum(DISTINCT x) AS s") == [(3.5,)]


def test_avg_min_max_over_no_rows_are_null() -> None:
    assert _rows("MATCH (n:X) WHERE n.f > 100 RETURN avg(n.f), avg(n.i), min(n.f), max(n.s), min(n), max(n)",
                 FLOATS) == [(None,) * 6]
    assert _rows("UNWIND [1, 'x'] AS v WITH v WHERE v = 2 RETURN avg(v), min(v), max(v), percentileDisc(v, 0.5)"
                 ) == [(None,) * 4]


def test_percentile_disc_of_values_known_at_run_time_keeps_integers_integers() -> None:
    rows = _rows("UNWIND [1, 'x', 3, 2] AS v WITH v WHERE v <> 'x' "
                 "RETURN percentileDisc(v, 0.5) AS p, percentileDisc(v, 0.0) AS q")
    assert rows == [(2, 1)]
    assert all(type(value) is int for value in rows[0])
    assert _rows("UNWIND [1, 'x', 2.5] AS v WITH v WHERE v <> 'x' RETURN percentileDisc(v, 1.0) AS p") == [(2.5,)]


# -- min() and max() take and return any value ------------------------------------------------------------


def test_min_of_stored_strings_compiles_whatever_the_column_type() -> None:
    assert _rows("MATCH (n) WITH min(n.s) AS m RETURN CASE WHEN false THEN m * 2 END AS c",
                 "CREATE (:X {s: 'a'})") == [(None,)]
    assert _rows("WITH max('a') AS m RETURN CASE WHEN false THEN m * 2 END AS c") == [(None,)]
    error = _error("MATCH (n) WITH min(n.s) AS m RETURN m * 2 AS c", "CREATE (:X {s: 'a'})")
    assert (type(error), error.detail) == (engine.CypherTypeError, "InvalidArgumentType")


def test_min_and_max_of_nodes_relationships_and_paths() -> None:
    setup = "CREATE (a:X {k: 1})-[:R {k: 1}]->(b:X {k: 2})-[:R {k: 2}]->(c:X {k: 3})"
    assert _rows("MATCH (n:X) RETURN min(n).k, max(n).k", setup) == [(1, 3)]
    assert _rows("MATCH ()-[r]->() RETURN min(r).k, max(r).k", setup) == [(1, 2)]
    assert _rows("MATCH p = (:X)-->() RETURN length(min(p)), length(max(p))", setup) == [(1, 1)]


@pytest.mark.parametrize(("values", "least", "greatest"), [
    # Cypher manual, min() and max(): strings order before numbers, lists before strings
    ("[1, 'a', null, 0.2, 'b', '1', '99']", "1", 1),
    ("['d', [1, 2], ['a', 'c', 23]]", ["a", "c", 23], "d"),
    ("[[1, 'a', 89], [1, 2]]", [1, "a", 89], [1, 2]),
    ("[{a: 1}, [1], 'x', true, 2]", {"a": 1}, 2),
])
def test_min_and_max_over_mixed_types_follow_the_cross_type_order(values: str, least: object,
                                                                  greatest: object) -> None:
    assert _rows(f"UNWIND {values} AS v RETURN min(v), max(v)") == [(least, greatest)]


def test_min_and_max_over_nodes_and_other_values() -> None:
    rows = _rows("MATCH (n:X) UNWIND [n, n.k, [n.k]] AS v RETURN min(v) AS a, max(v) AS b", "CREATE (:X {k: 5})")
    node, number = rows[0]
    assert isinstance(node, engine.Node) and number == 5


# -- aggregates refuse arguments of the wrong type ----------------------------------------------------------


@pytest.mark.parametrize("query", [
    "RETURN stDev([1, 2, 3])", "RETURN stDevP('a')", "RETURN avg(true)", "RETURN sum({a: 1})",
    "RETURN percentileCont([1], 0.5)", "RETURN percentileDisc('a', 0.5)", "RETURN percentileCont(1, 'a')",
    "MATCH (n) RETURN avg(n)",
])
def test_an_aggregate_of_a_type_the_text_fixes_fails_at_compile_time(query: str) -> None:
    error = _error(query)
    assert (error.kind, error.detail) == ("SyntaxError", "InvalidArgumentType")
    name = query.split("RETURN ")[1].split("(")[0]
    assert f"{name}()" in error.message


@pytest.mark.parametrize(("query", "name"), [
    ("MATCH (n:L) RETURN stDev(n.l)", "stDev"), ("MATCH (n:L) RETURN stDevP(n.l)", "stDevP"),
    ("MATCH (n:L) RETURN avg(n.l)", "avg"), ("MATCH (n:L) RETURN sum(n.s)", "sum"),
    ("MATCH (n:L) RETURN percentileCont(n.l, 0.5)", "percentileCont"),
    ("MATCH (n:L) RETURN percentileDisc(n.s, 0.5)", "percentileDisc"),
    ("UNWIND [1, 'a'] AS v RETURN sum(v)", "sum"), ("UNWIND [1, [2]] AS v RETURN avg(v)", "avg"),
    ("UNWIND [1, true] AS v RETURN stDev(v)", "stDev"),
])
def test_an_aggregate_of_values_of_the_wrong_type_fails_at_run_time(query: str, name: str) -> None:
    error = _error(query, "CREATE (:L {l: [1, 2], s: 'a'})")
    assert (type(error), error.detail) == (engine.CypherTypeError, "InvalidArgumentType")
    assert f"{name}()" in error.message


def test_aggregates_of_stored_lists_over_no_rows() -> None:
    assert _rows("MATCH (n:L) WHERE n.s = 'z' RETURN stDev(n.l), avg(n.l), sum(n.l), percentileDisc(n.l, 0.5)",
                 "CREATE (:L {l: [1, 2], s: 'a'})") == [(0.0, None, 0, None)]


# -- toUpper() and toLower() map as Java does -------------------------------------------------------------


def test_to_upper_and_to_lower_use_full_case_mapping() -> None:
    assert _rows("RETURN toUpper('straße'), toUpper('ﬁne'), upper('ŉ'), toLower('İ'), lower('ABC'), toUpper(null)"
                 ) == [("STRASSE", "FINE", "ʼN", "i̇", "abc", None)]
    assert _rows("UNWIND ['straße', ['ﬀ', 1][0]] AS s RETURN toUpper(s)") == [("STRASSE",), ("FF",)]


@pytest.mark.parametrize(("text", "lower"), [
    ("ΟΔΟΣ", "οδος"), ("ΣΑΣ ΣΑΣ", "σας σας"), ("Σ", "σ"), ("ΑΣΣ", "ασς"), ("ΑΣ.Β", "ασ.β"), ("ΑΣ'", "ας'"),
    ("ΑΣ1", "ας1"), ("ΑΣ́Β", "ασ́β"), ("ΑΣ́", "ας́"),
])
def test_to_lower_writes_a_final_sigma_at_a_word_end(text: str, lower: str) -> None:
    assert _rows("RETURN toLower($s)", params={"s": text}) == [(lower,)]
    assert lower == text.lower()  # Python's Final_Sigma, which Java's String.toLowerCase also applies


def test_every_multi_character_case_mapping() -> None:
    characters = [chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF]
    special = [c for c in characters if len(c.upper()) > 1 or len(c.lower()) > 1]
    rows = _rows("UNWIND $c AS c RETURN toUpper(c), toLower(c)", params={"c": special})
    assert rows == [(c.upper(), c.lower()) for c in special]
