"""Which fields of a record parameter a statement can read: all its SQL needs to convert (ADR-0114).

`UNWIND $messages AS msg MATCH (m:Message {seq: msg.seq}) ...` reads one field of each message, yet the SQL
converting `$messages` from JSON builds every field of the whole nested type. Here a parameter's value is
followed through the few ways a value passes on unchanged, each decided by the bound tree and its types:

- `x.key` on a record of that field: the field, read as its own type;
- `UNWIND x AS y` on a list: its elements, as `y`;
- `WITH x AS y` (or `WITH x`, `WITH *`) in a WITH that neither aggregates nor keeps distinct rows: `y`.

What each such value is read for is the union of what each of its uses reads. Any other use reads the value
whole: returned or projected by a RETURN, compared, grouped, sorted, stored, given to any function or
operator, put in a list or map, indexed, imported by a subquery, a variable held anywhere else in the tree,
a node held in two places, a read as another type. A record nothing is known to read below keeps its whole
type, so every level either reads some fields or is whole. `BParameter.reads` is set to the narrower type
where there is one: what `sqlgen` converts the value to (context.binding).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, fields

from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.types import ANY, CypherType, Kind, list_of

_HOLDS_VARIABLE = {b.BVariable: "variable", b.BUnwind: "variable", b.BProjectionItem: "variable"}
"""Where a variable may be held without being read whole: read (BVariable) or defined (UNWIND, a WITH item)."""


def has_record(cypher_type: CypherType) -> bool:
    """Whether a value of `cypher_type` holds records: the types a narrower conversion can serve."""
    if cypher_type.kind is Kind.LIST:
        return has_record(cypher_type.element or ANY)
    return cypher_type.is_record


def narrow_parameters(root: b.BoundQuery) -> None:
    """Set `reads` on each parameter node of `root` whose uses read only some fields of its records."""
    flow = _Flow()
    flow.visit(root)
    for parameter in flow.parameters:
        try:
            demand = flow.demand(parameter)
        except RecursionError:  # thousands of WITHs passing it on: left whole
            continue
        reads = parameter.type if demand is None else _narrowed(parameter.type, demand)
        parameter.reads = None if reads == parameter.type else reads


_LEAF_NAMES = frozenset({"Span", "CypherType", "Kind", "Procedure", "str", "int", "float", "bool", "None", "ast",
                         "LabelExpression", "list", "tuple"})
"""Names in a field's annotation that hold neither a bound node nor a variable (as `bound._LEAF_NAMES`, but
variables are looked for too)."""

_SCANNED: dict[type, tuple[str, ...]] = {}


def _scanned(cls: type) -> tuple[str, ...]:
    """The fields of a class of bound nodes that may hold a bound node, or a variable held otherwise than as
    `_HOLDS_VARIABLE` names."""
    names = _SCANNED.get(cls)
    if names is None:
        allowed = _HOLDS_VARIABLE.get(cls)
        names = _SCANNED[cls] = tuple(
            f.name for f in fields(cls)
            if f.name != allowed and not set(re.findall(r"[A-Za-z_]\w*", str(f.type))) <= _LEAF_NAMES)
    return names


@dataclass
class _Flow:
    """The tree's facts the rules read: how many places hold each node, the role of each node in the one
    that holds it, each variable's reads, and the variables held anywhere else."""

    parameters: list[b.BParameter] = field(default_factory=list)
    holders: Counter[int] = field(default_factory=Counter)
    roles: dict[int, tuple[str, object]] = field(default_factory=dict)
    uses: dict[int, list[b.BVariable]] = field(default_factory=dict)
    held_elsewhere: set[int] = field(default_factory=set)
    memo: dict[int, CypherType | None] = field(default_factory=dict)

    def visit(self, root: object) -> None:
        """Every bound node under `root` once, each place holding one counted."""
        stack, seen = [root], {id(root)}
        while stack:
            node = stack.pop()
            if isinstance(node, b.BParameter):
                if has_record(node.type):
                    self.parameters.append(node)
                continue
            if isinstance(node, b.BVariable):
                self.uses.setdefault(id(node.variable), []).append(node)
            elif isinstance(node, b.BProperty):
                self.roles[id(node.subject)] = ("field", node)
            elif isinstance(node, b.BUnwind):
                self.roles[id(node.expression)] = ("unwind", node.variable)
            elif isinstance(node, b.BProjection) and not (node.is_return or node.distinct or node.aggregating):
                for item in node.items:
                    self.roles[id(item.expression)] = ("alias", item.variable)
            if not isinstance(node, b.BLiteral):
                for name in _scanned(type(node)):
                    self._held(getattr(node, name), stack, seen)

    def _held(self, value: object, stack: list[object], seen: set[int]) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                self._held(item, stack, seen)
        elif isinstance(value, Variable):
            self.held_elsewhere.add(id(value))
        elif type(value).__module__ == b.__name__:
            self.holders[id(value)] += 1
            if id(value) not in seen:
                seen.add(id(value))
                stack.append(value)

    def demand(self, expression: b.BoundExpression) -> CypherType | None:
        """What of `expression`'s value its one holder reads: its type whole, a narrower type of the same
        shape (records of fewer fields), or None for nothing (a field its record lacks reads as null)."""
        whole = expression.type
        role = self.roles.get(id(expression))
        if role is None or self.holders[id(expression)] != 1:
            return whole
        kind, target = role
        if kind == "field":
            assert isinstance(target, b.BProperty)
            if not whole.is_record:
                return whole
            field_type = whole.field(target.key)
            if field_type is None:
                return None
            if target.type != field_type:
                return whole
            inner = self.demand(target)
            return None if inner is None else CypherType(Kind.MAP, fields=((target.key, inner),))
        assert isinstance(target, Variable)
        if kind == "unwind":
            if whole.kind is not Kind.LIST or target.type != (whole.element or ANY):
                return whole
            return list_of(self._variable(target), null_free=whole.null_free)
        return self._variable(target) if target.type == whole else whole

    def _variable(self, variable: Variable) -> CypherType:
        """What the statement reads of `variable`'s values: the union of its uses, whole if it is held
        anywhere else or nothing is known to read it."""
        key = id(variable)
        if key not in self.memo:
            demand: CypherType | None = None
            if key in self.held_elsewhere:
                demand = variable.type
            for use in self.uses.get(key, ()):
                if demand == variable.type:
                    break
                read = self.demand(use) if use.type == variable.type else variable.type
                demand = _union(variable.type, demand, read)
            self.memo[key] = demand
        known = self.memo[key]
        return variable.type if known is None else known


def _union(whole: CypherType, first: CypherType | None, second: CypherType | None) -> CypherType | None:
    """What two reads of a value of type `whole` read together."""
    if first is None:
        return second
    if second is None or first == second:
        return first
    if first == whole or second == whole:
        return whole
    if whole.kind is Kind.LIST and first.kind is Kind.LIST and second.kind is Kind.LIST:
        element = _union(whole.element or ANY, first.element, second.element)
        return list_of(element or whole.element or ANY, null_free=whole.null_free)
    if whole.is_record and first.is_record and second.is_record:
        ones, others = dict(first.fields or ()), dict(second.fields or ())
        fields = tuple((key, _union(field_type, ones.get(key), others.get(key)))
                       for key, field_type in whole.fields or () if key in ones or key in others)
        return CypherType(Kind.MAP, fields=tuple((key, read) for key, read in fields if read is not None))
    return whole


def _narrowed(whole: CypherType, demand: CypherType) -> CypherType:
    """The type holding what `demand` reads of a value of type `whole`: a record of the fields read, in the
    order `whole` has them; a level of which no field is read, whole."""
    if whole.kind is Kind.LIST and demand.kind is Kind.LIST:
        return list_of(_narrowed(whole.element or ANY, demand.element or ANY), null_free=whole.null_free)
    if whole.is_record and demand.is_record and demand != whole:
        reads = dict(demand.fields or ())
        fields = tuple((key, _narrowed(field_type, reads[key])) for key, field_type in whole.fields or ()
                       if key in reads)
        return CypherType(Kind.MAP, fields=fields) if fields else whole
    return whole
