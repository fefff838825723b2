"""Scalar functions: the cases the conformance page `tests/conformance/functions.md` found the engine getting
wrong (Cypher manual, Functions: Scalar functions, String functions, Mathematical functions - numeric)."""

from __future__ import annotations

import pytest

import engine


def _row(query: str) -> tuple:
    with engine.connect(":memory:") as db:
        return db.execute(query).fetchall()[0]


def _error(query: str) -> tuple[str, str | None]:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute(query)
    return raised.value.kind, raised.value.detail


def test_or_null_conversions_give_null_for_values_they_cannot_convert() -> None:
    assert _row("RETURN toIntegerOrNull(['A']), toFloatOrNull(true), toBooleanOrNull(1.5), "
                "toStringOrNull(['A']), toIntegerOrNull('42'), toBooleanOrNull(0)") == (
        None, None, None, None, 42, False)
    assert _row("RETURN [x IN [1, {}] | toIntegerOrNull(x)]") == ([1, None],)


def test_to_integer_converts_booleans() -> None:
    assert _row("RETURN toInteger(true), toInteger(false), [x IN [true, 2] | toInteger(x)]") == (1, 0, [1, 2])


@pytest.mark.parametrize(("query", "error"), [
    ("RETURN substring('hello', -1)", ("ArgumentError", "NegativeIntegerArgument")),
    ("RETURN substring('hello', 1, -1)", ("ArgumentError", "NegativeIntegerArgument")),
    ("RETURN substring('hello', null)", ("TypeError", "InvalidArgumentValue")),
    ("RETURN substring('hello', 1, null)", ("TypeError", "InvalidArgumentValue")),
    ("RETURN isEmpty(1)", ("SyntaxError", "InvalidArgumentType")),
    ("RETURN elementId(1)", ("SyntaxError", "InvalidArgumentType")),
    ("RETURN id('x')", ("SyntaxError", "InvalidArgumentType")),
    ("RETURN abs('x')", ("SyntaxError", "InvalidArgumentType")),
    ("RETURN trim(BOTH 'x' 'y')", ("SyntaxError", "UnexpectedSyntax")),
])
def test_invalid_arguments_raise(query: str, error: tuple[str, str]) -> None:
    assert _error(query) == error


def test_substring_of_null_is_null() -> None:
    assert _row("RETURN substring(null, 1), substring('hello', 1, 3), substring('hello', 2)") == (None, "ell", "llo")


def test_split_on_a_list_of_delimiters_and_on_null() -> None:
    assert _row("RETURN split('a,b;c', [',', ';']), split('a.b', ['.']), split('a,b', null)") == (
        ["a", "b", "c"], ["a", "b"], None)


def test_trim_with_a_specification() -> None:
    assert _row("RETURN trim(BOTH 'x' FROM 'xxhixx'), trim(LEADING 'x' FROM 'xxhixx'), "
                "trim(TRAILING 'x' FROM 'xxhixx'), trim('x' FROM 'xhix'), trim(BOTH FROM '  a  '), "
                "trim(null FROM 'a'), trim('  b ')") == ("hi", "hixx", "xxhi", "hi", "a", None, "b")


def test_is_normalized() -> None:
    assert _row("RETURN '\\u212B' IS NORMALIZED, '\\u00C5' IS NORMALIZED, '\\u212B' IS NOT NORMALIZED, "
                "'a' IS NFC NORMALIZED, null IS NORMALIZED, 1 IS NORMALIZED") == (False, True, True, True, None, None)
