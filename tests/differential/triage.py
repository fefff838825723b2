"""The triage file: each known deviation of an oracle from Neo4j's semantics, and the rule that decides it.

`triage.yaml` lists rules. A rule names the oracle, the deviation, the Neo4j rule that decides the case
(with where the Cypher Manual says so), and when it applies: the ways of disagreeing it explains
(`outcomes`), features of the query (`features`: any one of them), a regular expression over the query
text (`query`), and one over the error or the difference (`message`); `confirmed_by` names another
oracle that must have agreed with ours on the same case (for deviations in rows, so that a rule never
hides a wrong answer of ours that only that oracle would have caught). Every condition given must hold.
A disagreement no rule explains fails the run; the run's summary counts how often each rule was used,
so a rule nothing uses any more shows up as unused and can go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from tests.differential.compare import OUTCOMES, Disagreement
from tests.differential.queries import Case

TRIAGE_FILE = Path(__file__).with_name("triage.yaml")

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["rules"],
    "additionalProperties": False,
    "properties": {"rules": {"type": "array", "items": {
        "type": "object",
        "required": ["id", "oracle", "deviation", "neo4j", "outcomes"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "oracle": {"enum": ["arcadedb", "falkordb"]},
            "deviation": {"type": "string", "minLength": 10},
            "neo4j": {"type": "string", "minLength": 10},
            "outcomes": {"type": "array", "minItems": 1, "items": {"enum": list(OUTCOMES)}},
            "features": {"type": "array", "minItems": 1, "items": {"type": "string"}},
            "query": {"type": "string"},
            "message": {"type": "string"},
            "confirmed_by": {"enum": ["arcadedb", "falkordb"]},
        },
    }}},
}


@dataclass(frozen=True)
class Rule:
    id: str
    oracle: str
    deviation: str
    neo4j: str
    outcomes: frozenset[str]
    features: frozenset[str] = frozenset()
    query: re.Pattern[str] | None = None
    message: re.Pattern[str] | None = None
    confirmed_by: str | None = None

    def explains(self, oracle: str, case: Case, disagreement: Disagreement, agreed: frozenset[str]) -> bool:
        """Whether this rule explains `oracle`'s disagreement on `case`; `agreed`: the oracles that agreed."""
        return (oracle == self.oracle and disagreement.outcome in self.outcomes
                and (self.confirmed_by is None or self.confirmed_by in agreed)
                and (not self.features or bool(self.features & case.features))
                and (self.query is None or self.query.search(case.text) is not None)
                and (self.message is None or self.message.search(disagreement.detail) is not None))


def load_rules(path: Path = TRIAGE_FILE) -> list[Rule]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    rules = []
    for entry in document["rules"]:
        rules.append(Rule(entry["id"], entry["oracle"], entry["deviation"], entry["neo4j"],
                          frozenset(entry["outcomes"]), frozenset(entry.get("features", ())),
                          re.compile(entry["query"]) if "query" in entry else None,
                          re.compile(entry["message"], re.DOTALL) if "message" in entry else None,
                          entry.get("confirmed_by")))
    ids = [rule.id for rule in rules]
    duplicates = {rule_id for rule_id in ids if ids.count(rule_id) > 1}
    if duplicates:
        raise ValueError(f"triage rules named twice: {sorted(duplicates)}")
    return rules


def explain(rules: list[Rule], oracle: str, case: Case, disagreement: Disagreement,
            agreed: frozenset[str] = frozenset()) -> Rule | None:
    """The first rule that explains this disagreement, or None."""
    return next((rule for rule in rules if rule.explains(oracle, case, disagreement, agreed)), None)
