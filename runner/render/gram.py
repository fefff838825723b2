"""CellResult → the text of a ```` ```gram ```` block (spec §4).

    // 2 rows
    (n5:Entity {key: "orders service"})<-[r51:ABOUT]-(n26:Decision {…})-[r53:SUPERSEDES]->(n19:Decision {…})
    (n5)<-[r48:ABOUT]-(n25:Fact {…})-[r54:SUPERSEDES]->(n14:Fact {…})

A node is written in full the first time the block shows it and as `(nID)` after that. Two things the
spec leaves open, decided here: the values of a row with several columns are joined by `, ` (gram's
separator between patterns), and a cell that changed the graph gets its counters on the first line as a
table footer has them (`// 1 row · nodes created: 1`), so a gram block loses nothing a table would show.
A value that is not a graph element (only possible when a recorded gram block is compared with a result
that changed shape) is written as its literal.
"""

from __future__ import annotations

from runner.render.table import counters_text
from runner.render.values import Seen, format_value, is_graph_value
from runner.result import CellResult


def render_gram(result: CellResult, *, expand: bool = False) -> str:
    """The block's content, each line ending in a newline.

    With `expand`, every node is written in full each time (no `(nID)` back-references): the form the
    comparator uses, since back-references depend on row order.
    """
    seen = Seen()
    lines = [header(len(result.rows), result.nonzero_counters())]
    for row in result.rows:
        if expand:
            seen = Seen()
        lines.append(", ".join(format_value(value, seen) for value in row))
    return "".join(line + "\n" for line in lines)


def header(count: int, counters: dict[str, int]) -> str:
    text = counters_text(counters)
    return f"// {count} row{'' if count == 1 else 's'}" + (f" · {text}" if text else "")


def prefers_gram(result: CellResult) -> bool:
    """A new recording is `gram` when every value of every row is a node, relationship or path."""
    return bool(result.rows) and all(is_graph_value(value) for row in result.rows for value in row)
