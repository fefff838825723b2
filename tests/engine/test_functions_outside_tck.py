"""Functions and operators the openCypher TCK does not pin down, as Neo4j 5 computes them (Cypher manual:
Functions, Aggregating functions, Mathematical operators, List concatenation): each a case the engine got
wrong or failed on with an internal error."""

from __future__ import annotations

import math

import duckdb
import pytest

import engine
from engine import errors
from engine.execute.executor import translate


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
