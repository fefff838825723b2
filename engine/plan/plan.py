"""A statement's plan: one step per clause, with what the rules decided about it (ADR-0057).

The engine runs a statement clause by clause, each clause's SQL compiled against the catalog as the clause
before it left it (ADR-0002). What can be decided before any clause runs is decided here, over the bound
clauses, by the rules in `plan/rules/` (each reads the clauses and sets one property of their steps); SQL
generation reads the step it compiles instead of flags set on it from outside.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields

from engine.plan.rules.key_lookups import KeyLookup
from engine.plan.rules.property_reads import Reads
from engine.semantic import bound as b


@dataclass
class Step:
    """One clause and what the rules decided about it."""

    clause: b.BoundClause
    fused: bool = False
    """It compiles into one SELECT with the read clauses before it (fuse_reads.py, ADR-0029)."""
    ordered: bool = True
    """The order of its output rows is read after it (order_demand.py); when not, it numbers rows with a
    constant."""
    distinct_input: frozenset[int] | None = None
    """The variables (by id) read from here on, when nothing after it counts rows: it may match over the
    distinct input rows of those (multiplicity.py, ADR-0048)."""
    final: bool = False
    """Its rows are the statement's result."""
    unmatched: bool = False
    """A MERGE whose pattern can match nothing: it joins a node the statement created to a relationship of a
    type never created at it (fresh_nodes.py)."""
    may_walk_levels: bool = False
    """It may run a level walk, which reads its input rows as a table (level_walks.py): when the store is
    large enough for one, the rows before it are settled even if it is `fused`."""
    key_lookups: tuple[KeyLookup, ...] = ()
    """Node patterns of a MATCH that find their nodes in one scan of the node table (key_lookups.py, ADR-0107)."""
    relationships: bool = True
    """Its clause holds a relationship pattern (in a quantified group too): the rules of what the data decides
    look at those only (execute/prepare.py). True where not decided (a step made outside a plan)."""
    # What the data as it stands when the clause runs decides (ADR-0002), set by the executor just before
    # the clause compiles:
    single_path_walks: frozenset[int] = frozenset()
    """The walks under the clause (variable-length relationships and quantified groups, by id) that hold at
    most one partial path per start, so need no cap (walk_branching.py)."""
    implied_labels: dict[int, frozenset[str]] = field(default_factory=dict)
    """Per node pattern under the clause (by id), the labels every relationship reaching it carries at that
    end, whose test it leaves out (end_labels.py, ADR-0092)."""
    loop_free: frozenset[int] = frozenset()
    """The relationship patterns under the clause (by id) whose types have no self-loop, so two consecutive
    ones of one direction are never the same relationship (end_labels.py, ADR-0098)."""
    prepared: dict[int, str] = field(default_factory=dict)
    """Per procedure call (by id) that ran SQL before compiling (`Procedure.prepare`), its rows relation."""
    level_walks: dict[int, str] = field(default_factory=dict)
    """Per variable-length relationship (by id) whose level walk the executor ran, the table of paths it
    found (execute/level_walks.py)."""

    @property
    def kind(self) -> str:
        return type(self.clause).__name__.removeprefix("B")

    def again(self) -> Step:
        """A new step with what the rules decided of this one, for another run of its clause: what the data
        decides (the fields from `single_path_walks` on, `DATA_DECIDED`) is decided anew."""
        return Step(**{f.name: getattr(self, f.name) for f in fields(self) if f.name not in DATA_DECIDED})


DATA_DECIDED = frozenset(("single_path_walks", "implied_labels", "loop_free", "prepared", "level_walks"))
"""The fields of `Step` the executor sets as each run's clause compiles; every other field is the rules'."""


NO_READS = Reads({}, frozenset(), None)
"""What a query reads off MATCH variables when nothing is known: nothing carried, any variable read as a value."""


@dataclass
class QueryPlan:
    """The plan of one single query (a UNION has one per part)."""

    steps: list[Step]
    reads: Reads | None = None
    """What later clauses read off the variables MATCH clauses bind (property_reads.py, ADR-0029); None
    when no MATCH carries anything, or fusion is off."""
    _by_clause: dict[int, Step] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_clause = {id(step.clause): step for step in self.steps}

    def step(self, clause: b.BoundClause) -> Step:
        return self._by_clause[id(clause)]

    def step_by_id(self, clause_id: int) -> Step:
        """The step of the clause whose `id()` a rule reported."""
        return self._by_clause[clause_id]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)
