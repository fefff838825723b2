"""A cell names the graph it runs on with `graph=NAME` (ADR-0068): Threadline's page writes a visitor's memory
graph and the shared blackboard beside the company brain, in one database."""

from __future__ import annotations

from runner.page import parse_page
from runner.run import PASSED, UNRECORDED, run_page

PAGE = """# Graphs

```cypher cell=brain
CREATE (:Repo {name: 'brain'})
```

```cypher cell=graphs
CREATE DATABASE tl_mem_ada;
CREATE DATABASE tl_shared
```

```cypher cell=remember graph=tl_mem_ada
CREATE (:Turn {text: 'hello'})
```

```cypher cell=recall graph=tl_mem_ada
MATCH (n) RETURN labels(n) AS labels
```

```table
| labels   |
|----------|
| ["Turn"] |
1 row
```

```cypher cell=shared graph=tl_shared
MATCH (n) RETURN count(n) AS n
```

```table
| n |
|---|
| 0 |
1 row
```

```cypher cell=default
MATCH (n) RETURN labels(n) AS labels
```

```table
| labels   |
|----------|
| ["Repo"] |
1 row
```
"""


def test_cells_run_on_the_graph_they_name():
    page = parse_page(PAGE)
    assert [cell.graph for cell in page.cells] == [None, None, "tl_mem_ada", "tl_mem_ada", "tl_shared", None]
    outcome = run_page(page)
    assert not outcome.errors
    statuses = {item.cell.name: item.status for item in outcome.cells}
    assert statuses == {"brain": UNRECORDED, "graphs": UNRECORDED, "remember": UNRECORDED, "recall": PASSED,
                        "shared": PASSED, "default": PASSED}, [(item.cell.name, item.failure) for item in outcome.cells]


def test_a_cell_on_a_graph_the_database_lacks_fails_naming_it():
    outcome = run_page(parse_page("```cypher cell=x graph=tl_nobody\nRETURN 1 AS one\n```\n"))
    (item,) = outcome.cells
    assert item.status != PASSED
    assert "no graph named 'tl_nobody'" in str(item.error)
