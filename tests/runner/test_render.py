"""The `table` and `gram` renderers against the recorded blocks of the agent-memory page, byte for byte.

The results are built by hand from engine values, the way the engine returns them.
"""

from __future__ import annotations

import pytest

import engine
from runner.check.compare import TableShape
from runner.render import block_kind_for, render_gram, render_table
from runner.render.values import format_value
from runner.result import CellResult
from tests.runner.helpers import agent_memory_page, recorded_text
from tests.runner.literals import parse_literal

PAGE = agent_memory_page()
ORDERS = engine.Node(5, ("Entity",), {"key": "orders service", "kind": "service", "name": "orders service"})


def at(day: int, hour: int, minute: int) -> engine.DateTime:
    return engine.DateTime(2026, 3, day, hour, minute)


def test_labels_table():
    result = CellResult(["label", "nodes"],
                        [("Decision", 1), ("Entity", 8), ("Fact", 6), ("Message", 4), ("Session", 1)],
                        ordered=True)
    assert render_table(result) == recorded_text(PAGE, "labels")


def test_footer_alone_when_there_are_no_rows():
    result = CellResult([], [], {"constraints_added": 2})
    assert render_table(result) == recorded_text(PAGE, "schema") == "(no rows) · constraints added: 2\n"


def test_footer_with_counters_in_order_and_only_nonzero():
    counters = dict.fromkeys(engine.COUNTER_NAMES, 0)
    counters.update(labels_added=20, nodes_created=20, properties_set=67, relationships_created=39)
    result = CellResult(["seq", "entities", "facts", "decisions"],
                        [(1, 3, 2, 0), (2, 2, 0, 1), (3, 4, 2, 0), (4, 3, 2, 0)], counters, ordered=True)
    assert render_table(result) == recorded_text(PAGE, "session-1")


def test_no_rows_and_no_counters():
    assert render_table(CellResult(["x"], [])) == "(no rows)\n"


def test_datetimes_are_quoted_utc_with_seconds():
    rows = [("Fact", "Alice owns the orders service.", at(2, 9, 0)),
            ("Fact", "The orders service is built for the checkout team.", at(2, 9, 0)),
            ("Decision", "Use Postgres as the orders service database", at(2, 9, 4)),
            ("Fact", "The billing service consumes OrderPlaced events from the orders service.",
             at(2, 9, 11)),
            ("Fact", "The orders service publishes OrderPlaced events to Kafka.", at(2, 9, 11))]
    result = CellResult(["kind", "memory", "since"], rows, ordered=True)
    assert render_table(result) == recorded_text(PAGE, "as-of")


def test_the_widest_table_is_written_in_full():
    """The recall-tool row is 779 characters wide and is not clipped: every line ends in `|`."""
    facts = [{"fact": "The orders service is built for the checkout team.", "session": "session-1"},
             {"fact": "The billing service consumes OrderPlaced events from the orders service.",
              "session": "session-1"},
             {"fact": "The orders service publishes OrderPlaced events to Kafka.", "session": "session-1"},
             {"fact": "Carol owns the orders service.", "session": "session-2"}]
    decisions = [{"session": "session-2", "replaced": ["Use Postgres as the orders service database"],
                  "rationale": "Postgres failover was too slow in the multi-region test",
                  "decision": "Use CockroachDB as the orders service database"}]
    nearby = [{"fact": "Bob is on call for the billing service.", "entity": "billing service"},
              {"entity": "checkout team", "fact": "Bob is on the checkout team."}]
    result = CellResult(["entity", "kind", "facts", "decisions", "history", "nearby"],
                        [("orders service", "service", facts, decisions, ["Alice owns the orders service."],
                          nearby)])
    text = render_table(result)
    assert text == recorded_text(PAGE, "recall-tool")
    assert [len(line) for line in text.splitlines()[:3]] == [779, 779, 779]


@pytest.mark.parametrize("cell", [cell.name for cell in PAGE.cells if cell.recorded.kind == "table"])
def test_every_recorded_table_round_trips(cell):
    """Read each recorded table's values back into Python values; rendering them gives the block again."""
    shape = TableShape.from_text(recorded_text(PAGE, cell))
    rows = [tuple(parse_literal(text, datetimes=True) for text in row) for row in shape.rows]
    result = CellResult(shape.columns or [], rows, shape.counters)
    assert render_table(result) == recorded_text(PAGE, cell)


def chains_result() -> CellResult:
    postgres = engine.Node(19, ("Decision",), {
        "text": "Use Postgres as the orders service database", "seq": 2, "at": at(2, 9, 4),
        "rationale": "the team already runs Postgres in production", "slot": "orders service/database",
        "supersededAt": at(16, 14, 2)})
    cockroach = engine.Node(26, ("Decision",), {
        "text": "Use CockroachDB as the orders service database", "seq": 5, "at": at(16, 14, 2),
        "rationale": "Postgres failover was too slow in the multi-region test",
        "slot": "orders service/database"})
    owner = "orders service/owner"
    alice = engine.Node(14, ("Fact",), {"text": "Alice owns the orders service.", "slot": owner,
                                        "seq": 1, "at": at(2, 9, 0), "supersededAt": at(16, 14, 7)})
    carol = engine.Node(25, ("Fact",), {"text": "Carol owns the orders service.", "slot": owner,
                                        "seq": 6, "at": at(16, 14, 7)})
    first = engine.Path((ORDERS, cockroach, postgres), (engine.Relationship(51, "ABOUT", 26, 5),
                                                        engine.Relationship(53, "SUPERSEDES", 26, 19)))
    second = engine.Path((ORDERS, carol, alice), (engine.Relationship(48, "ABOUT", 25, 5),
                                                  engine.Relationship(54, "SUPERSEDES", 25, 14)))
    return CellResult(["path"], [(first,), (second,)])


def test_chains_gram():
    assert render_gram(chains_result()) == recorded_text(PAGE, "chains")


def test_gram_is_chosen_only_for_graph_values():
    assert block_kind_for(chains_result()) == "gram"
    assert block_kind_for(CellResult(["n", "x"], [(ORDERS, 1)])) == "table"
    assert block_kind_for(CellResult(["n"], [])) == "table"


def test_gram_one_row_and_counters():
    node = engine.Node(0, ("A", "B"), {})
    result = CellResult(["n"], [(node,)], {"nodes_created": 1, "labels_added": 2})
    assert render_gram(result) == "// 1 row · nodes created: 1, labels added: 2\n(n0:A:B)\n"


def test_gram_several_columns_and_back_references():
    a, b = engine.Node(1, ("P",), {"name": "a"}), engine.Node(2, (), {"name": "b"})
    knows = engine.Relationship(7, "KNOWS", 1, 2, {"since": 2001})
    result = CellResult(["a", "r", "b"], [(a, knows, b), (b, knows, a)])
    assert render_gram(result) == (
        "// 2 rows\n"
        '(n1:P {name: "a"}), (n1)-[r7:KNOWS {since: 2001}]->(n2), (n2 {name: "b"})\n'
        "(n2), (n1)-[r7:KNOWS {since: 2001}]->(n2), (n1)\n")


def test_relationship_direction_follows_the_walk():
    a, b = engine.Node(1), engine.Node(2)
    backwards = engine.Path((a, b), (engine.Relationship(3, "R", 2, 1),))
    assert format_value(backwards) == "(n1)<-[r3:R]-(n2)"
    forwards = engine.Path((b, a), (engine.Relationship(3, "R", 2, 1),))
    assert format_value(forwards) == "(n2)-[r3:R]->(n1)"


@pytest.mark.parametrize(("value", "text"), [
    (None, "null"), (True, "true"), (False, "false"), (-3, "-3"),
    (2.0, "2.0"), (3.65, "3.65"), (1.9, "1.9"), (0.1 + 0.2, "0.30000000000000004"), (1e16, "1.0E16"),
    (2.5e-7, "2.5E-7"), (1e7, "1.0E7"), (123456789.0, "1.23456789E8"), (1234567.0, "1234567.0"), (0.001, "0.001"),
    (0.00012, "1.2E-4"), (-0.0, "-0.0"), (5e-324, "4.9E-324"),
    (float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity"),
    ("Fact", '"Fact"'), ('say "hi"\n', '"say \\"hi\\"\\n"'), ("§ “x”", '"§ “x”"'),
    ([1, "a", None], '[1, "a", null]'), ([], "[]"), ({}, "{}"),
    ({"session": "s1", "fact": "…"}, '{fact: "…", session: "s1"}'),
    ({"a b": 1, "_ok": 2, "x`y": 3}, "{_ok: 2, `a b`: 1, `x``y`: 3}"),
    (engine.DateTime(2026, 3, 2, 9, 0), '"2026-03-02T09:00:00Z"'),
    (engine.DateTime(2026, 3, 2, 9, 0, 5, 120_000_000), '"2026-03-02T09:00:05.12Z"'),
    (engine.DateTime(2026, 3, 2, 0, 30, offset_seconds=3600, zone="Europe/Paris"), '"2026-03-01T23:30:00Z"'),
    (engine.Date(2026, 3, 2), '"2026-03-02"'),
    (engine.LocalTime(9, 0), '"09:00:00"'),
    (engine.Time(9, 0, offset_seconds=-19800), '"09:00:00-05:30"'),
    (engine.LocalDateTime(2026, 3, 2, 9, 0), '"2026-03-02T09:00:00"'),
    (engine.Duration(months=14, days=3, seconds=3600), '"P1Y2M3DT1H"'),
    (engine.Vector("INTEGER", (1, 2, 3)), "vector([1, 2, 3], 3, INTEGER NOT NULL)"),
    (engine.Vector("FLOAT32", (1.05, 5)), "vector([1.05, 5.0], 2, FLOAT32 NOT NULL)"),
    (engine.Vector("FLOAT", (1e-5,)), "vector([1.0E-5], 1, FLOAT NOT NULL)"),
    (engine.Point(7203, 1, 2), "point({x: 1.0, y: 2.0, crs: 'cartesian'})"),
    (engine.Point(4979, 56.7, 12.78, 8), "point({x: 56.7, y: 12.78, z: 8.0, crs: 'wgs-84-3d'})"),
    (engine.Node(3, ("Person",), {"name": "Ada"}), '(n3:Person {name: "Ada"})'),
    (engine.Relationship(4, "KNOWS", 3, 5), "(n3)-[r4:KNOWS]->(n5)"),
])
def test_value_literals(value, text):
    assert format_value(value) == text


def test_a_value_of_an_unknown_type_is_an_error():
    with pytest.raises(TypeError, match="no rendering for a value of type set"):
        format_value({1, 2})


def test_widths_are_counted_in_characters():
    text = render_table(CellResult(["x"], [("é·…",)]))
    assert text.splitlines() == ['| x     |', '|-------|', '| "é·…" |', "1 row"]
