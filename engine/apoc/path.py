"""APOC Core's path expanders: `apoc.path.expand`, `apoc.path.expandConfig`, `apoc.path.subgraphNodes`,
`apoc.path.subgraphAll` and `apoc.path.spanningTree` (ADR-0063).

APOC walks from the start node with Neo4j's traversal framework: breadth first, each path judged by
evaluators that include it in the results or not, and let it grow or prune it. Here a call is bound as the
MATCH those evaluators stand for (a procedure macro, ADR-0060), so it is set-based:
- the relationship filter (`KNOWS`, `FOLLOWS>`, `<FOLLOWS`, `>`, `<`, `|`-separated) is each hop's type and
  direction: the relationship pattern's, or an inline WHERE of the quantified path pattern when they mix;
- the label filter (`+` allowlist, `-` denylist, `/` termination, `>` end node) and the node lists
  (`endNodes`, `terminatorNodes`, `allowlistNodes` / `whitelistNodes`, `denylistNodes` / `blacklistNodes`) are
  predicates on nodes: what lets a path grow past a node on each hop's far node, what lets a path end at a
  node on its last node (a separate last hop), and the start node's own before the MATCH (it is judged only
  with `filterStartNode`). Which applies is APOC's evaluators' (`LabelMatcherGroup`, `NodeEvaluators`),
  below `minLevel` too;
- the uniqueness is the path mode: RELATIONSHIP_PATH (expand's) is Cypher's trail, NODE_PATH is ACYCLIC,
  NONE is REPEATABLE ELEMENTS (bounded), and NODE_GLOBAL (a node visited once, the subgraph and spanning
  tree procedures') is `ANY SHORTEST ACYCLIC` to each node: whether a node lets a path grow depends on the
  node alone, so breadth first visits each node first by a shortest path whose inner nodes all let it grow;
- the start node may be a node, a node id or a list of them, as the node lists; all are compared by id;
- `limit` keeps the first paths in breadth-first order: ORDER BY length, as APOC's rows come (the order
  within one length is Neo4j's storage order, which APOC does not specify).

Where APOC's documentation and code disagree the engine follows the code, which gives APOC's results: an
end-label node lets a path grow past it whether or not the allowlist has its label (the documentation says
only if it has).

The filters, levels, uniqueness, limit and flags decide the pattern, so they must be known when the statement
compiles: literals or parameters. What depends on the order a traversal takes, or would need a pattern per
depth, is refused with UnsupportedFeature naming the config key: sequences (a comma in a filter, `sequence`,
`beginSequenceAtStart: false`), the uniqueness kinds NODE_LEVEL, NODE_RECENT, RELATIONSHIP_GLOBAL,
RELATIONSHIP_LEVEL and RELATIONSHIP_RECENT, `bfs: false` where depth first finds other rows, NODE_GLOBAL with
a minLevel of 2 or more and a termination filter, a `*` label other than alone in the allowlist (APOC's code
ignores it, its docs call it every label), and filter entries that match the same relationship (APOC expands
it once per entry).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import CypherTypeError, ParameterMissing, ProcedureError, UnsupportedFeature
from engine.semantic import parameter_reads
from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro
from engine.semantic.unknown import UNKNOWN
from engine.span import Span
from engine.syntax import ast

_UNIQUENESS = ("RELATIONSHIP_PATH", "NODE_PATH", "NODE_GLOBAL", "NONE", "NODE_LEVEL", "NODE_RECENT",
               "RELATIONSHIP_GLOBAL", "RELATIONSHIP_LEVEL", "RELATIONSHIP_RECENT")
"""Neo4j's uniqueness kinds, which APOC accepts by name in any case."""

_NODE_LISTS = ("endNodes", "terminatorNodes", "allowlistNodes", "whitelistNodes", "denylistNodes",
               "blacklistNodes")
"""The config keys whose values are lists of nodes: read off the row, as the call's arguments."""


# -- the filters --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Hop:
    """One entry of a relationship filter: a type (None: any) and a direction from the node expanded."""

    type: str | None
    direction: str
    """'out', 'in' or 'both'."""
    text: str


def _relationship_filter(text: str, procedure: str, span: Span) -> tuple[_Hop, ...]:
    """The entries of a relationship filter, as APOC's `RelationshipTypeAndDirections.parse` reads them (an
    entry's type is not trimmed: `KNOWS |X` names the type `KNOWS `). No entry: every relationship, both ways."""
    text = text.strip()
    if not text:
        return ()
    if "," in text:
        raise UnsupportedFeature(f"{procedure} with a sequence of relationship filters (a comma in "
                                 f"relationshipFilter {text!r})", span)
    entries = text.split("|")
    while entries and not entries[-1]:  # Java's split drops trailing empty strings
        entries.pop()
    hops = []
    for entry in entries:
        direction = "in" if "<" in entry else "out" if ">" in entry else "both"
        if "`" in entry:
            first, last = entry.index("`"), entry.rindex("`")
            if first == last:
                raise ProcedureError(f"Failed to invoke procedure `{procedure}`: unclosed backtick in the "
                                     f"relationshipFilter entry {entry!r}", span, detail="ProcedureCallFailed")
            name = entry[first + 1:last]
        else:
            name = re.sub("[<>:]", "", entry)
        hops.append(_Hop(name if name.strip() else None, direction, entry))
    return tuple(hops)


def _check_overlap(hops: tuple[_Hop, ...], procedure: str, span: Span) -> None:
    """Refuse entries that can match one relationship: APOC expands it once per entry, so its paths come twice
    (a loop is both outgoing and incoming), where a pattern matches it once."""
    for i, first in enumerate(hops):
        for second in hops[i + 1:]:
            if first.type is None or second.type is None or first.type == second.type:
                raise UnsupportedFeature(f"{procedure} with relationshipFilter entries {first.text!r} and "
                                         f"{second.text!r} that match the same relationships (APOC expands such "
                                         "a relationship once per entry)", span)


@dataclass(frozen=True)
class _Labels:
    """A label filter: each list holds label sets, a node matching one when it has all of its labels."""

    allow: tuple[tuple[str, ...], ...]
    deny: tuple[tuple[str, ...], ...]
    end: tuple[tuple[str, ...], ...]
    terminate: tuple[tuple[str, ...], ...]
    end_nodes_only: bool
    """Whether `>` or `/` appears: then only end and termination nodes end returned paths."""


def _label_filter(text: str, procedure: str, span: Span) -> _Labels | None:
    """A label filter as APOC's `LabelMatcherGroup` reads it (entries are not trimmed; `:` joins labels a node
    must all have, `\\:` is a colon in a label)."""
    text = text.strip()
    if not text:
        return None
    if "," in text:
        raise UnsupportedFeature(f"{procedure} with a sequence of label filters (a comma in labelFilter "
                                 f"{text!r})", span)
    lists: dict[str, list[tuple[str, ...]]] = {"+": [], "-": [], ">": [], "/": []}
    end_nodes_only = star = False
    for entry in text.split("|"):
        if not entry:
            continue
        operator, label = (entry[0], entry[1:]) if entry[0] in "+-/>" else ("+", entry)
        end_nodes_only = end_nodes_only or operator in "/>"
        if label == "*":
            if operator != "+":
                raise UnsupportedFeature(f"{procedure} with the labelFilter entry {entry!r} (APOC's `*` only "
                                         "stands for every label alone in the allowlist)", span)
            star = True
            continue
        if not label:
            raise ProcedureError(f"Failed to invoke procedure `{procedure}`: the labelFilter entry {entry!r} "
                                 "names no label", span, detail="ProcedureCallFailed")
        label = label[1:] if label.startswith(":") else label
        parts = re.split(r"(?<!\\):", label)
        while len(parts) > 1 and not parts[-1]:  # Java's split drops trailing empty strings
            parts.pop()
        names = (label,) if len(parts) == 1 else tuple(parts)
        lists[operator].append(tuple(name.replace("\\:", ":") for name in names))
    if star and lists["+"]:
        raise UnsupportedFeature(f"{procedure} with `*` and other labels in the allowlist of labelFilter "
                                 f"{text!r} (APOC's code keeps only the others, its docs every label)", span)
    return _Labels(tuple(lists["+"]), tuple(lists["-"]), tuple(lists[">"]), tuple(lists["/"]), end_nodes_only)


# -- Cypher text --------------------------------------------------------------------------------------------

def _name(identifier: str) -> str:
    return "`" + identifier.replace("`", "``") + "`"


def _and(*parts: str) -> str:
    kept = [part for part in parts if part != "true"]
    if "false" in kept:
        return "false"
    return " AND ".join(f"({part})" for part in kept) if len(kept) > 1 else (kept[0] if kept else "true")


def _or(*parts: str) -> str:
    kept = [part for part in parts if part != "false"]
    if "true" in kept:
        return "true"
    return " OR ".join(f"({part})" for part in kept) if len(kept) > 1 else (kept[0] if kept else "false")


def _not(part: str) -> str:
    return {"true": "false", "false": "true"}.get(part, f"NOT ({part})")


def _has(node: str, label_sets: tuple[tuple[str, ...], ...]) -> str:
    """Whether `node` has every label of one of the sets."""
    return _or(*(_and(*(f"{node}:{_name(label)}" for label in labels)) for labels in label_sets))


def _hop(hops: tuple[_Hop, ...], near: str, relationship: str, far: str) -> tuple[str, str]:
    """The relationship pattern of one hop from `near` to `far` and the predicate it needs besides."""
    if not hops:
        return f"({near})-[{relationship}]-({far})", "true"
    types = "" if any(hop.type is None for hop in hops) else \
        ":" + "|".join(dict.fromkeys(_name(hop.type) for hop in hops if hop.type is not None))
    directions = {hop.direction for hop in hops}
    if len(directions) == 1:  # an entry of any type stands for all of that direction
        left, right = {"out": ("-", "->"), "in": ("<-", "-"), "both": ("-", "-")}[directions.pop()]
        return f"({near}){left}[{relationship}{types}]{right}({far})", "true"
    way = {"out": f"startNode({relationship}) = {near}", "in": f"endNode({relationship}) = {near}",
           "both": "true"}
    return f"({near})-[{relationship}{types}]-({far})", _or(*(
        _and(f"{relationship}:{_name(hop.type)}" if hop.type is not None else "true", way[hop.direction])
        for hop in hops))


@dataclass(frozen=True)
class _Nodes:
    """The node predicates of one call: its label filter and which node lists it has (bound in the body as
    lists of node ids: `__term`, `__stop` (the end and terminator nodes), `__allow` (with the end and
    terminator nodes, when not empty), `__deny`)."""

    labels: _Labels | None
    lists: frozenset[str]
    """Which of 'stop', 'term', 'allow', 'deny' the call has."""

    @property
    def terminates(self) -> bool:
        """Whether a node may stop a path (a termination label or terminator nodes)."""
        return bool(self.labels is not None and self.labels.terminate) or "term" in self.lists

    def _nodes_ok(self, node: str) -> str:
        return _and(f"NOT id({node}) IN `__deny`" if "deny" in self.lists else "true",
                    f"size(`__allow`) = 0 OR id({node}) IN `__allow`" if "allow" in self.lists else "true")

    def ends(self, node: str) -> str:
        """Whether a path may end at `node` at a depth of at least minLevel (the evaluators include it)."""
        labels = self.labels
        label_ok = "true" if labels is None else _and(_not(_has(node, labels.deny)), _or(
            _has(node, labels.terminate), _has(node, labels.end),
            "false" if labels.end_nodes_only else _allowed(node, labels)))
        return _and(label_ok, self._nodes_ok(node),
                    f"size(`__stop`) = 0 OR id({node}) IN `__stop`" if "stop" in self.lists else "true")

    def grows(self, node: str, below: bool) -> str:
        """Whether a path may grow past `node` (the evaluators continue), below minLevel or not."""
        labels = self.labels
        label_ok = "true" if labels is None else _and(_not(_has(node, labels.deny)), _or(
            _has(node, labels.terminate), _has(node, labels.end), _allowed(node, labels)) if below else _and(
            _not(_has(node, labels.terminate)), _or(_has(node, labels.end), _allowed(node, labels))))
        return _and(label_ok, self._nodes_ok(node),
                    "true" if below or "term" not in self.lists else f"NOT id({node}) IN `__term`")

    def start_ends(self, filter_start: bool, min_level: int) -> str:
        """Whether the path of the start node alone is returned."""
        if min_level > 0:
            return "false"
        if filter_start:
            return self.ends("`__s`")
        return _and("false" if self.labels is not None and self.labels.end_nodes_only else "true",
                    "size(`__stop`) = 0" if "stop" in self.lists else "true")

    def start_grows(self, filter_start: bool, min_level: int) -> str:
        return self.grows("`__s`", below=min_level > 0) if filter_start else "true"


def _allowed(node: str, labels: _Labels) -> str:
    return _has(node, labels.allow) if labels.allow else "true"


# -- the config ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Config:
    min_level: int
    max_level: int
    relationships: tuple[_Hop, ...]
    labels: _Labels | None
    uniqueness: str
    bfs: bool
    filter_start: bool
    limit: int
    optional: bool
    node_lists: dict[str, ast.Expression]


class _Reader:
    """Reads a call's config: the values the pattern depends on must be literals or parameters."""

    def __init__(self, procedure: str, params: Mapping[str, Any], span: Span) -> None:
        self.procedure = procedure
        self.params = params
        self.span = span

    def entries(self, config: ast.Expression) -> dict[str, ast.Expression | _Given]:
        """The config's keys and their values: expressions of a map literal, or a parameter map's values."""
        if isinstance(config, ast.MapLiteral):
            return dict(config.entries)
        if isinstance(config, ast.Literal) and config.value is None:
            return {}
        if isinstance(config, ast.Parameter):
            value = self._parameter(config)
            if value is None:
                return {}
            if not isinstance(value, dict):
                raise CypherTypeError(f"{self.procedure}'s config must be a map, got {type(value).__name__}",
                                      config.span, detail="InvalidArgumentType")
            return {key: _Given(item, config, key) for key, item in value.items()}
        raise UnsupportedFeature(f"{self.procedure} whose config is not a map literal or a parameter (the engine "
                                 "compiles the traversal with the statement)", config.span)

    def _parameter(self, parameter: ast.Parameter) -> Any:
        if parameter.name not in self.params:
            raise ParameterMissing(f"expected a value for parameter ${parameter.name}", parameter.span,
                                   detail="MissingParameter")
        value = self.params[parameter.name]
        if value is UNKNOWN:
            raise UnsupportedFeature(f"{self.procedure} whose traversal depends on the parameter "
                                     f"${parameter.name}, which EXPLAIN was not given", parameter.span)
        parameter_reads.inspected(parameter.name)
        return value

    def constant(self, value: ast.Expression | _Given | None, key: str, kind: type, default: Any) -> Any:
        """The value of one key: a literal, a parameter or a negated number, of `kind` (null: `default`)."""
        if value is None:
            return default
        if isinstance(value, _Given | ast.Literal):
            found = value.value
        elif isinstance(value, ast.Parameter):
            found = self._parameter(value)
        elif isinstance(value, ast.UnaryOp) and value.op == "-" and isinstance(value.operand, ast.Literal) \
                and isinstance(value.operand.value, int | float) and not isinstance(value.operand.value, bool):
            found = -value.operand.value
        else:
            raise UnsupportedFeature(f"{self.procedure} whose {key} is not a literal or a parameter (the engine "
                                     "compiles the traversal with the statement)", value.span)
        if found is None:
            return default
        if not isinstance(found, kind) or (kind is int and isinstance(found, bool)):
            names = "INTEGER" if kind is int else "BOOLEAN" if kind is bool else "STRING"
            raise CypherTypeError(f"{self.procedure}: {key} must be {names}, got {found!r}", self.span,
                                  detail="InvalidArgumentType")
        return found

    def expression(self, value: ast.Expression | _Given) -> ast.Expression:
        """A runtime value of the config: its expression, or a parameter map's entry."""
        if isinstance(value, _Given):
            return ast.Subscript(value.parameter, ast.Literal(value.key, span=self.span), span=self.span)
        return value


@dataclass(frozen=True)
class _Given:
    """The value of one key of a config given as a parameter map."""

    value: Any
    parameter: ast.Parameter
    key: str


def _read_config(reader: _Reader, entries: Mapping[str, ast.Expression | _Given], *,
                 node_global: bool) -> _Config:
    """The config of one call (`node_global`: the subgraph and spanning tree procedures, which set it)."""
    procedure, span = reader.procedure, reader.span
    if reader.constant(entries.get("sequence"), "sequence", str, ""):
        raise UnsupportedFeature(f"{procedure} with a sequence (config key `sequence`)", span)
    if not reader.constant(entries.get("beginSequenceAtStart"), "beginSequenceAtStart", bool, True):
        raise UnsupportedFeature(f"{procedure} with beginSequenceAtStart: false (sequences)", span)
    given_uniqueness = reader.constant(entries.get("uniqueness"), "uniqueness", str, "RELATIONSHIP_PATH")
    uniqueness = "NODE_GLOBAL" if node_global else given_uniqueness.upper()
    if uniqueness not in _UNIQUENESS:
        raise ProcedureError(f"Failed to invoke procedure `{procedure}`: Invalid uniqueness: '{given_uniqueness}'. "
                             f"Must be one of: {', '.join(_UNIQUENESS)}.", span, detail="ProcedureCallFailed")
    if uniqueness not in ("RELATIONSHIP_PATH", "NODE_PATH", "NODE_GLOBAL", "NONE"):
        raise UnsupportedFeature(f"{procedure} with uniqueness {uniqueness} (it depends on the order of the "
                                 "traversal)", span)
    given = {key: value for key, value in entries.items() if key in _NODE_LISTS}
    return _Config(
        min_level=reader.constant(entries.get("minLevel"), "minLevel", int, -1),
        max_level=reader.constant(entries.get("maxLevel"), "maxLevel", int, -1),
        relationships=_relationship_filter(
            reader.constant(entries.get("relationshipFilter"), "relationshipFilter", str, ""), procedure, span),
        labels=_label_filter(reader.constant(entries.get("labelFilter"), "labelFilter", str, ""), procedure, span),
        uniqueness=uniqueness,
        bfs=reader.constant(entries.get("bfs"), "bfs", bool, True),
        filter_start=reader.constant(entries.get("filterStartNode"), "filterStartNode", bool, False),
        limit=reader.constant(entries.get("limit"), "limit", int, -1),
        optional=reader.constant(entries.get("optional"), "optional", bool, False),
        node_lists={key: reader.expression(value) for key, value in given.items()})


# -- the bodies ---------------------------------------------------------------------------------------------

def _id_list(argument: str) -> str:
    """The ids of a list of nodes or node ids (APOC takes either) an argument gives; null is none. Another value
    is a type error (`id()`'s). `toInteger` types the list, which a walk compares ids with at every hop."""
    return (f"[`__v` IN coalesce({argument}, []) |"
            " toInteger(CASE WHEN `__v` IS :: INTEGER THEN `__v` ELSE id(`__v`) END)]")


def _prelude(arguments: Mapping[str, str]) -> str:
    """The WITH binding the start nodes' ids (`__start_ids`) and the node lists as lists of ids (the names
    `_Nodes` reads), from the arguments (`__aN`) giving each config key; then each start node as `__s`, matched
    by its id so that it is typed as a node (a walk from a value of unknown type cannot be seeded per start)."""
    starts = _id_list("CASE WHEN valueType(__a0) STARTS WITH 'LIST' THEN __a0 ELSE [__a0] END")
    items = [f"[`__v` IN {starts} WHERE `__v` IS NOT NULL] AS `__start_ids`"]

    def first_of(primary: str, deprecated: str) -> str | None:
        """APOC takes the allowlist (denylist) if it is not empty, else the whitelist (blacklist)."""
        found = [_id_list(arguments[key]) for key in (primary, deprecated) if key in arguments]
        if len(found) == 2:
            return f"CASE WHEN size({found[0]}) > 0 THEN {found[0]} ELSE {found[1]} END"
        return found[0] if found else None

    end = _id_list(arguments["endNodes"]) if "endNodes" in arguments else "[]"
    term = _id_list(arguments["terminatorNodes"]) if "terminatorNodes" in arguments else "[]"
    if "endNodes" in arguments or "terminatorNodes" in arguments:
        items += [f"{term} AS `__term`", f"{end} + {term} AS `__stop`"]
    allow = first_of("allowlistNodes", "whitelistNodes")
    if allow is not None:
        items.append(f"CASE WHEN size({allow}) > 0 THEN {allow} + {end} + {term} ELSE [] END AS `__allow`")
    deny = first_of("denylistNodes", "blacklistNodes")
    if deny is not None:
        items.append(f"{deny} AS `__deny`")
    return ("WITH *, " + ", ".join(items) + " UNWIND `__start_ids` AS `__v` MATCH (`__s`) WHERE id(`__s`) = `__v` ")


def _quantifier(low: int, high: int | None) -> str:
    return f"{{{low},}}" if high is None else f"{{{low},{high}}}"


def _group(config: _Config, index: int, condition: Callable[[str, str], str], low: int, high: int | None) -> str:
    """A quantified path pattern of one hop (`__x<index>` to `__y<index>`) that `condition(near, far)` holds on."""
    near, far = f"`__x{index}`", f"`__y{index}`"
    pattern, hop = _hop(config.relationships, near, f"`__r{index}`", far)
    return f"({pattern} WHERE {_and(hop, condition(near, far))}){_quantifier(low, high)}"


def _high(config: _Config) -> int | None:
    """The most hops of a path (None: no maxLevel, -1). APOC prunes every path longer than a maxLevel below -1,
    so then only the start node's own is left."""
    return None if config.max_level == -1 else max(config.max_level, 0)


def _alone(config: _Config, nodes: _Nodes, end: str = "") -> str:
    """The branch returning the path of the start node alone, when the evaluators include it."""
    return (f"WITH * WHERE {nodes.start_ends(config.filter_start, config.min_level)} "
            f"MATCH `__p` = (`__s`) RETURN `__p`{end}")


def _path_branches(config: _Config, nodes: _Nodes) -> list[str]:
    """The branches giving `__p`, each path from `__s` a RELATIONSHIP_PATH, NODE_PATH or NONE traversal returns:
    the start node alone, and the longer paths, whose inner nodes let them grow and whose last node ends them
    (a separate last hop)."""
    high = _high(config)
    low = max(config.min_level, 1)
    branches = [_alone(config, nodes)]
    if high is not None and high < low:
        return branches
    groups = []
    if nodes.terminates and config.min_level >= 2:  # below minLevel a terminator lets a path grow
        groups.append(_group(config, 1, lambda near, far: nodes.grows(far, below=True),
                             config.min_level - 1, config.min_level - 1))
        rest = None if high is None else high - config.min_level
        if rest is None or rest > 0:
            groups.append(_group(config, 2, lambda near, far: nodes.grows(far, below=False), 0, rest))
    elif high is None or high > 1:
        groups.append(_group(config, 1, lambda near, far: nodes.grows(far, below=False), low - 1,
                             None if high is None else high - 1))
    last, hop = _hop(config.relationships, "`__m`" if groups else "`__s`", "`__rl`", "`__e`")
    pattern = f"(`__s`){''.join(groups)}{last}" if groups else last
    match = {"NODE_PATH": "MATCH `__p` = ACYCLIC ", "NONE": "MATCH REPEATABLE ELEMENTS `__p` = "}.get(
        config.uniqueness, "MATCH `__p` = ")
    branches.append(f"WITH * WHERE {nodes.start_grows(config.filter_start, config.min_level)} "
                    f"{match}{pattern} WHERE {_and(hop, nodes.ends('`__e`'))} RETURN `__p`")
    return branches


def _global_branches(config: _Config, nodes: _Nodes) -> list[str]:
    """The branches giving `__e` and `__p` for a NODE_GLOBAL traversal: the start node alone, and a shortest path
    to each other node whose inner nodes let it grow and which ends it (each start node is visited at depth
    0, so no path passes through another)."""
    high = _high(config)
    branches = [_alone(config, nodes, ", `__s` AS `__e`")]
    if high is not None and high < 1:
        return branches
    group = _group(config, 1, lambda near, far: _or(f"{near} = `__s`", _and(
        f"NOT id({near}) IN `__start_ids`", nodes.grows(near, below=False))), 1, high)
    at_least = f" AND length(`__p`) >= {config.min_level}" if config.min_level >= 2 else ""
    branches.append(f"WITH * WHERE {nodes.start_grows(config.filter_start, config.min_level)} "
                    f"MATCH `__p` = ANY SHORTEST ACYCLIC (`__s`){group}(`__e`) "
                    f"WHERE {_and('NOT id(`__e`) IN `__start_ids`', nodes.ends('`__e`'))}{at_least} "
                    "RETURN `__p`, `__e`")
    return branches


def _union(branches: list[str]) -> str:
    return "CALL (*) { " + " UNION ALL ".join(branches) + " } "


def _limited(config: _Config, order: str) -> str:
    """The ORDER BY (breadth first: by length) and LIMIT ending the WITH that binds the outputs."""
    text = f" ORDER BY {order}" if config.bfs else ""
    return text + (f" LIMIT {config.limit}" if config.limit >= 0 else "")


def _check(config: _Config, procedure: str, span: Span, *, paths_of_a_tree: bool) -> None:
    """Refuse what depends on the order of the traversal: depth first with a limit (which paths come first),
    and for NODE_GLOBAL with a maxLevel or a tree's paths (depth first visits nodes by longer paths)."""
    if config.limit < -1:
        raise ProcedureError(f"Failed to invoke procedure `{procedure}`: limit must be -1 or more, got "
                             f"{config.limit}", span, detail="ProcedureCallFailed")
    if config.bfs:
        return
    if config.limit >= 0:
        raise UnsupportedFeature(f"{procedure} with bfs: false and a limit (which paths depth first finds "
                                 "first depends on Neo4j's storage order)", span)
    if config.uniqueness == "NODE_GLOBAL" and (paths_of_a_tree or _high(config) is not None):
        raise UnsupportedFeature(f"{procedure} with bfs: false (depth first, each node is visited once by the "
                                 "first path it finds, not a shortest one)", span)


def _nodes(config: _Config, procedure: str, span: Span) -> _Nodes:
    """The node predicates of a call, refusing what its uniqueness cannot give."""
    given = config.node_lists.keys()
    lists = {"stop", "term"} if {"endNodes", "terminatorNodes"} & given else set()
    if {"allowlistNodes", "whitelistNodes"} & given:
        lists.add("allow")
    if {"denylistNodes", "blacklistNodes"} & given:
        lists.add("deny")
    nodes = _Nodes(config.labels, frozenset(lists))
    if config.uniqueness == "NODE_GLOBAL":
        if config.min_level >= 2 and nodes.terminates:
            raise UnsupportedFeature(f"{procedure} with uniqueness NODE_GLOBAL, a minLevel of 2 or more and a "
                                     "termination filter (below minLevel a terminator lets a path grow)", span)
    else:
        _check_overlap(config.relationships, procedure, span)
        if config.uniqueness == "NONE" and _high(config) is None:
            raise UnsupportedFeature(f"{procedure} with uniqueness NONE and no maxLevel (the paths never end)",
                                     span)
    return nodes


def _expansion(procedure: str, call: ast.CallProcedure, start: ast.Expression, config: _Config
               ) -> tuple[str, tuple[ast.Expression, ...], _Nodes]:
    """The prelude binding the start nodes and node lists, and the arguments its `__aN` stand for."""
    arguments: dict[str, str] = {}
    expressions: list[ast.Expression] = [start]
    for key in _NODE_LISTS:
        if key in config.node_lists:
            arguments[key] = f"__a{len(expressions)}"
            expressions.append(config.node_lists[key])
    return _prelude(arguments), tuple(expressions), _nodes(config, procedure, call.span)


def _optional(config: _Config, core: str, outputs: tuple[str, ...]) -> str:
    """`core` (which binds the outputs), yielding one row of nulls when it has none if the config asks so."""
    if not config.optional:
        return core
    return f"OPTIONAL CALL (*) {{ {core} RETURN {', '.join(f'`__out_{name}`' for name in outputs)} }}"


_PATH = (("path", "PATH"),)


def _macro(name: str, inputs: tuple[tuple[str, str], ...], outputs: tuple[tuple[str, str], ...],
           body: Callable[[ast.CallProcedure, _Reader], tuple[str, tuple[ast.Expression, ...]]]) -> ProcedureMacro:
    """A READ procedure whose body is made from its call and parameters."""

    def expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
        text, arguments = body(call, _Reader(name, params, call.span))
        return subquery_macro(name, inputs, outputs, "READ", text).expand(replace(call, arguments=arguments),
                                                                          standalone, params)

    return ProcedureMacro(name, inputs, outputs, "READ", expand)


def _paths_body(config: _Config, procedure: str, call: ast.CallProcedure, start: ast.Expression
                ) -> tuple[str, tuple[ast.Expression, ...]]:
    """The body of expand / expandConfig: each returned path as `__out_path`."""
    prelude, arguments, nodes = _expansion(procedure, call, start, config)
    _check(config, procedure, call.span, paths_of_a_tree=True)
    if config.uniqueness == "NODE_GLOBAL":
        core = (prelude + _union(_global_branches(config, nodes)) + "WITH `__e`, `__p` ORDER BY length(`__p`) "
                "WITH `__e`, head(collect(`__p`)) AS `__p` ")
    else:
        core = prelude + _union(_path_branches(config, nodes))
    core += "WITH `__p` AS `__out_path`" + _limited(config, "length(`__out_path`)")
    return _optional(config, core, ("path",)), arguments


def _expand(call: ast.CallProcedure, reader: _Reader) -> tuple[str, tuple[ast.Expression, ...]]:
    assert call.arguments is not None
    start, relationships, labels, low, high = call.arguments
    entries = {"relationshipFilter": relationships, "labelFilter": labels, "minLevel": low, "maxLevel": high}
    config = _read_config(reader, entries, node_global=False)
    return _paths_body(config, reader.procedure, call, start)


def _expand_config(call: ast.CallProcedure, reader: _Reader) -> tuple[str, tuple[ast.Expression, ...]]:
    assert call.arguments is not None
    start, config = call.arguments
    return _paths_body(_read_config(reader, reader.entries(config), node_global=False), reader.procedure, call,
                       start)


def _subgraph_config(call: ast.CallProcedure, reader: _Reader, short: str) -> _Config:
    """The config of a NODE_GLOBAL procedure, whose minLevel may only be 0 or 1 (APOC's check)."""
    assert call.arguments is not None
    entries = reader.entries(call.arguments[1])
    if "minLevel" in entries and reader.constant(entries["minLevel"], "minLevel", int, None) not in (0, 1):
        raise ProcedureError(f"Failed to invoke procedure `{reader.procedure}`: minLevel can only be 0 or 1 in "
                             f"{short}()", call.span, detail="ProcedureCallFailed")
    return _read_config(reader, entries, node_global=True)


def _subgraph_nodes(call: ast.CallProcedure, reader: _Reader) -> tuple[str, tuple[ast.Expression, ...]]:
    assert call.arguments is not None
    config = _subgraph_config(call, reader, "subgraphNodes")
    prelude, arguments, nodes = _expansion(reader.procedure, call, call.arguments[0], config)
    _check(config, reader.procedure, call.span, paths_of_a_tree=False)
    core = (prelude + _union(_global_branches(config, nodes)) + "WITH `__e`, min(length(`__p`)) AS `__d` "
            "WITH `__e` AS `__out_node`, `__d`" + _limited(config, "`__d`"))
    return _optional(config, core, ("node",)), arguments


def _subgraph_all(call: ast.CallProcedure, reader: _Reader) -> tuple[str, tuple[ast.Expression, ...]]:
    """The nodes as subgraphNodes finds them, and every relationship between two of them (APOC's
    `Cover.coverNodes`, whatever its type): one row, whatever was found."""
    assert call.arguments is not None
    config = replace(_subgraph_config(call, reader, "subgraphAll"), optional=False)
    prelude, arguments, nodes = _expansion(reader.procedure, call, call.arguments[0], config)
    _check(config, reader.procedure, call.span, paths_of_a_tree=False)
    core = (prelude + _union(_global_branches(config, nodes)) + "WITH `__e`, min(length(`__p`)) AS `__d` "
            "WITH `__e`, `__d`" + _limited(config, "`__d`") +
            " WITH collect(`__e`) AS `__out_nodes`, collect(id(`__e`)) AS `__ids` "
            "CALL (`__out_nodes`, `__ids`) { UNWIND `__out_nodes` AS `__a` MATCH (`__a`)-[`__r`]->(`__b`) "
            "WHERE id(`__b`) IN `__ids` RETURN collect(`__r`) AS `__out_relationships` } ")
    return core, arguments


def _spanning_tree(call: ast.CallProcedure, reader: _Reader) -> tuple[str, tuple[ast.Expression, ...]]:
    assert call.arguments is not None
    config = _subgraph_config(call, reader, "spanningTree")
    return _paths_body(config, reader.procedure, call, call.arguments[0])


_START = ("startNode", "ANY")
_CONFIG = ("config", "MAP")

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    _macro("apoc.path.expand", (_START, ("relFilter", "STRING"), ("labelFilter", "STRING"), ("minDepth", "INTEGER"),
                                ("maxDepth", "INTEGER")), _PATH, _expand),
    _macro("apoc.path.expandConfig", (_START, _CONFIG), _PATH, _expand_config),
    _macro("apoc.path.subgraphNodes", (_START, _CONFIG), (("node", "NODE"),), _subgraph_nodes),
    _macro("apoc.path.subgraphAll", (_START, _CONFIG), (("nodes", "LIST<NODE>"),
                                                        ("relationships", "LIST<RELATIONSHIP>")), _subgraph_all),
    _macro("apoc.path.spanningTree", (_START, _CONFIG), _PATH, _spanning_tree),
)
