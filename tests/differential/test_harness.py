"""The differential harness itself: its comparison, its triage file, its pattern reversal, its seeds."""

from __future__ import annotations

import random

import pytest

from tests.differential.compare import compare
from tests.differential.graphs import generate_graph
from tests.differential.metamorphic import reverse_pattern
from tests.differential.oracles import Ours, Outcome
from tests.differential.queries import Case
from tests.differential.run import cases_for
from tests.differential.triage import explain, load_rules


def rows(*values):
    return [tuple(values)]


def test_integers_and_floats_differ_and_rows_are_multisets():
    read = Case("RETURN 1")
    assert compare(read, Outcome(rows=rows(("int", 1))), Outcome(rows=rows(("float", 1.0)))) is not None
    assert compare(read, Outcome(rows=[(("int", 1),), (("int", 2),)]),
                   Outcome(rows=[(("int", 2),), (("int", 1),)])) is None
    assert compare(read, Outcome(rows=[(("int", 1),)] * 2), Outcome(rows=[(("int", 1),)])).outcome == "rows"


def test_order_counts_only_where_order_by_fixes_it():
    unordered = Case("RETURN 1")
    ordered = Case("RETURN 1", order=(0,))
    first = Outcome(rows=[(("int", 1),), (("int", 2),)])
    second = Outcome(rows=[(("int", 2),), (("int", 1),)])
    assert compare(unordered, first, second) is None
    assert compare(ordered, first, second).outcome == "order"


def test_collected_lists_compare_as_multisets():
    collected = Case("RETURN collect(1)", multisets=frozenset({0}))
    first = Outcome(rows=rows(("list", (("int", 1), ("int", 2)))))
    second = Outcome(rows=rows(("list", (("int", 2), ("int", 1)))))
    assert compare(collected, first, second) is None
    assert compare(Case("RETURN [1, 2]"), first, second) is not None


def test_two_errors_agree_and_one_does_not():
    read = Case("RETURN 1/0")
    assert compare(read, Outcome(error="ArithmeticError"), Outcome(error="/ by zero")) is None
    assert compare(read, Outcome(error="ArithmeticError"), Outcome(rows=[])).outcome == "ours-error"


def test_writes_compare_graphs_and_counters():
    write = Case("CREATE ()", kind="write")
    graph = ((("node", (), ("map", ())),), ())
    same = Outcome(rows=[], graph=graph, counters={"nodes_created": 1})
    assert compare(write, same, Outcome(rows=[], graph=graph, counters={"nodes_created": 1})) is None
    assert compare(write, same, Outcome(rows=[], graph=((), ()), counters=None)).outcome == "graph"
    assert compare(write, same, Outcome(rows=[], graph=graph, counters={"nodes_created": 2})).outcome == "counters"


def test_triage_rules_load_and_match_only_their_oracle():
    rules = load_rules()
    assert rules, "the triage file has rules"
    rule = next(rule for rule in rules if rule.id == "falkordb-no-regex")
    case = Case("MATCH (n) WHERE n.b =~ 'a.*' RETURN n", features=frozenset({"op:=~"}))
    disagreement = compare(case, Outcome(rows=[]), Outcome(error="FalkorDB does not currently support =~"))
    assert explain(rules, "falkordb", case, disagreement) is rule
    assert explain(rules, "arcadedb", case, disagreement) is None


def test_rules_needing_another_oracle_apply_only_when_it_agreed():
    rules = load_rules()
    rule = next(rule for rule in rules if rule.confirmed_by)
    assert not rule.explains(rule.oracle, Case("RETURN 1"), compare(
        Case("RETURN 1"), Outcome(rows=[]), Outcome(rows=rows(("int", 1)))), frozenset())


@pytest.mark.parametrize(("pattern", "reversed_"), [
    ("(a)-[r:R]->(b)", "(b)<-[r:R]-(a)"),
    ("(a:A)<-[:S*1..2]-(b)--(c)", "(c)--(b)-[:S*1..2]->(a:A)"),
    ("(a)-->(b)<--(c)", "(c)-->(b)<--(a)"),
    ("(a)--(b)", "(b)--(a)"),
])
def test_reverse_pattern(pattern, reversed_):
    assert reverse_pattern(pattern) == reversed_


def test_a_case_is_made_again_from_its_seed():
    first_graph, first_cases = cases_for("7", 3, 5)
    second_graph, second_cases = cases_for("7", 3, 5)
    assert first_graph.create_statement() == second_graph.create_statement()
    assert [case.text for case in first_cases] == [case.text for case in second_cases]


def test_generated_graphs_load_into_ours():
    ours = Ours()
    try:
        for index in range(20):
            graph = generate_graph(random.Random(index))
            ours.load(graph)
            outcome = ours.read("MATCH (n) RETURN count(n) AS c")
            assert outcome.rows == [(("int", len(graph.nodes)),)]
    finally:
        ours.close()


def test_integers_and_floats_that_are_equal_are_ties_in_order():
    ordered = Case("RETURN 1", order=(0,))
    first = Outcome(rows=[(("int", 0),), (("float", 0.0),)])
    second = Outcome(rows=[(("float", 0.0),), (("int", 0),)])
    assert compare(ordered, first, second) is None
