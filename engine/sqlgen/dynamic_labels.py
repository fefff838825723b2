"""Labels and relationship types read off the row (Cypher 25's `$(row.type)`): each row's string or list of
strings as a DuckDB VARCHAR[], for SET and REMOVE, for what CREATE and MERGE make, and for the label tests of
MATCH and WHERE."""

from __future__ import annotations

from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let


def label_list_sql(value: str) -> str:
    """The VARCHAR[] of labels a VARIANT `value` names: a string is one label, a list of strings is each of
    them; anything else (null too) is a type error naming what it got. `value` is read several times: a
    column or a name `let` binds."""
    return let([value], lambda v: (
        f"CASE WHEN cy_kind({v}) = 5 THEN list_transform({v}::VARIANT[], lambda x: {_label('x')})"
        f" ELSE [{_label(v, f'WHEN cy_kind({v}) = 5 THEN NULL')}] END"))


def single_type_sql(value: str) -> str:
    """The one relationship type a VARIANT `value` names (a string, or a list of exactly one): what CREATE and
    MERGE give a relationship; more or fewer is a type error."""
    def one(v: str) -> str:
        refused = error_sql("TypeError", "InvalidArgumentType",
                            f"'a relationship to create needs exactly one type, got ' || cy_type_name({v})")
        return let([label_list_sql(v)], lambda names: f"CASE WHEN len({names}) = 1 THEN {names}[1] ELSE {refused} END")

    return let([value], one)


def has_labels_sql(labels: str, names: str, quantifier: str) -> str:
    """Whether a node's `labels` hold all (or, `quantifier` "any", one) of the VARCHAR[] `names`."""
    return f"list_has_any({labels}, {names})" if quantifier == "any" else f"list_has_all({labels}, {names})"


def has_type_sql(type_sql: str, names: str, quantifier: str) -> str:
    """Whether a relationship's type is one of `names` ("any") or every one of them (all: one type named,
    maybe repeated)."""
    if quantifier == "any":
        return f"list_contains({names}, {type_sql})"
    return f"list_has_all([{type_sql}], {names})"


def _label(x: str, lists: str = "") -> str:
    """`x` as a label name: a string; a list only where `lists` says what it stands for (DuckDB evaluates a
    CASE's every branch: the one for a single label must not refuse a list)."""
    refused = error_sql("TypeError", "InvalidArgumentType",
                        f"'a dynamic label must be a string or a list of strings, got ' || cy_type_name({x})")
    return f"CASE WHEN cy_kind({x}) = 4 THEN {x}::VARCHAR {lists} ELSE {refused} END"
