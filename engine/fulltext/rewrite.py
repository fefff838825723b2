"""Lucene's `Query.rewrite` for the query trees the parser builds, repeated until nothing changes as
`IndexSearcher.rewrite` repeats it (ADR-0086).

The rewrites matter for scores because a BooleanQuery rounds its sum to a float: a pure-OR group among
a parent's optional clauses is flattened into the parent (one double sum, one rounding), and repeated
optional or required clauses become one clause whose boost is the sum of theirs. BooleanQuery.rewrite's
steps, in its order (Lucene 8.7 through 10.x; Lucene 9 is Neo4j 5's):

1. no clauses, or only prohibited ones: matches nothing;
2. one optional or required clause: that clause's query;
3. each clause rewritten once; a clause that matches nothing is dropped (optional, prohibited) or makes
   the whole query match nothing (required);
4. repeated optional clauses, then repeated required ones, merged: their boosts (1 when unboosted)
   multiplied out, summed in a double, the sum a float boost on one clause;
5. an optional clause that is an unboosted BooleanQuery of optional clauses only: its clauses join the
   parent's.

A BoostQuery rewrites its query; a boost of 1 disappears and nested boosts multiply (as floats). Other
steps of Lucene's (FILTER clauses, minimum-should-match, prohibited duplicates) change no score here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from engine.fulltext.query import BooleanQuery, BoostQuery, Occur, Query
from engine.values import float32

Clauses = tuple[tuple[Occur, Query], ...]


def rewrite(query: Query | None) -> Query | None:
    """The query Lucene scores for `query` (None: nothing matches)."""
    while query is not None:
        rewritten = _rewrite_once(query)
        if rewritten is query:
            break
        query = rewritten
    return query


def _rewrite_once(query: Query) -> Query | None:
    """One rewrite step; the same object when the query is already rewritten."""
    if isinstance(query, BoostQuery):
        return _rewrite_boost(query)
    if isinstance(query, BooleanQuery):
        return _rewrite_boolean(query)
    return query


def _rewrite_boost(query: BoostQuery) -> Query | None:
    inner = _rewrite_once(query.query)
    if inner is None or query.boost == 1.0:
        return inner
    if isinstance(inner, BoostQuery):
        return BoostQuery(inner.query, float32(query.boost * inner.boost))
    return query if inner is query.query else BoostQuery(inner, query.boost)


def _rewrite_boolean(query: BooleanQuery) -> Query | None:
    clauses = query.clauses
    if all(occur == "must_not" for occur, _ in clauses):
        return None
    if len(clauses) == 1:
        return clauses[0][1]
    rewritten = _rewrite_clauses(clauses)
    if rewritten is not clauses:
        return None if rewritten is None else BooleanQuery(rewritten)
    for step in (_merge_repeated("should"), _merge_repeated("must"), _flatten_disjunctions):
        changed = step(clauses)
        if changed is not clauses:
            return BooleanQuery(changed)
    return query


def _rewrite_clauses(clauses: Clauses) -> Clauses | None:
    """Step 3: each clause rewritten once (`clauses` itself when none changed, None when a required clause
    matches nothing)."""
    kept: list[tuple[Occur, Query]] = []
    changed = False
    for occur, clause in clauses:
        rewritten = _rewrite_once(clause)
        changed = changed or rewritten is not clause
        if rewritten is None:
            if occur == "must":
                return None
            continue
        kept.append((occur, rewritten))
    return tuple(kept) if changed else clauses


def _merge_repeated(occur: Occur) -> Callable[[Clauses], Clauses]:
    """Step 4 for one occur: BooleanQuery's "deduplicate clauses by summing up their boosts"."""

    def merge(clauses: Clauses) -> Clauses:
        boosts: dict[Hashable, tuple[Query, float]] = {}
        count = 0
        for clause_occur, clause in clauses:
            if clause_occur != occur:
                continue
            count += 1
            boost = 1.0
            while isinstance(clause, BoostQuery):
                boost *= clause.boost
                clause = clause.query
            key = _key(clause)
            previous = boosts.get(key, (clause, 0.0))[1]
            boosts[key] = (clause, previous + boost)
        if len(boosts) == count:
            return clauses
        merged = [(occur, inner if float32(total) == 1.0 else BoostQuery(inner, float32(total)))
                  for inner, total in boosts.values()]
        return tuple(merged) + tuple((o, q) for o, q in clauses if o != occur)

    return merge


def _flatten_disjunctions(clauses: Clauses) -> Clauses:
    """Step 5: optional pure-OR groups join their parent's optional clauses."""
    flat: list[tuple[Occur, Query]] = []
    changed = False
    for occur, clause in clauses:
        if occur == "should" and isinstance(clause, BooleanQuery) \
                and all(inner == "should" for inner, _ in clause.clauses):
            flat.extend(clause.clauses)
            changed = True
        else:
            flat.append((occur, clause))
    return tuple(flat) if changed else clauses


def _key(query: Query) -> Hashable:
    """Lucene's query equality: a BooleanQuery's optional and required clauses compare as multisets, its
    prohibited ones as a set; a boost is part of the query it wraps."""
    if isinstance(query, BooleanQuery):
        keys = [(occur, _key(clause)) for occur, clause in query.clauses]
        counted = sorted((k for k in keys if k[0] != "must_not"), key=repr)
        return "bool", tuple(counted), tuple(sorted({k for k in keys if k[0] == "must_not"}, key=repr))
    if isinstance(query, BoostQuery):
        return "boost", query.boost, _key(query.query)
    return query
