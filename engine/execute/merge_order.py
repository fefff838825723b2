"""Which way a lone MERGE of one node tries first (ADR-0113).

`MERGE (x:L {key: $v}) ON MATCH SET x.p = value` as its statement's last clause is one SQL statement either
way it is tried: the UPDATE of its ON MATCH SET by the pattern's own condition, followed by the INSERT of the
node where it updated nothing (merge.py `_set_in_place`, ADR-0104), or the INSERT of the node where that
condition finds no row, followed by the UPDATE where it inserted nothing. Both give the same graph, counters
and errors; the way that guesses right runs one statement, the other two. A MERGE kept with its bound tree
(ADR-0105) tries first the way its last run went, so a statement that keeps creating (a new key each time)
pays one INSERT, and one that keeps matching one UPDATE. A MERGE bound afresh tries the UPDATE first.
"""

from __future__ import annotations

import weakref

from engine.semantic import bound as b

_CREATED: weakref.WeakSet[b.BMerge] = weakref.WeakSet()
"""The MERGE clauses (of bound trees still kept) whose last run created its node. A hint, never an answer:
either order gives the same result, so a clause forgotten, or remembered by two threads at once, only costs
one SQL statement."""


def creates_first(clause: b.BMerge) -> bool:
    """Whether `clause` tries its INSERT-if-absent first: its last run created."""
    return clause in _CREATED


def went(clause: b.BMerge, *, created: bool) -> None:
    """Note how `clause`'s run went, for its next run."""
    if created:
        _CREATED.add(clause)
    else:
        _CREATED.discard(clause)
