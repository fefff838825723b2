"""The graph the client tests read the schema of, and the engine connection holding it.

The tests need the `clients` extra (`pip install -e '.[test,clients]'`): each module skips when its client
package is not installed, and only then. The graph has what a schema reader must report: a node with two
labels, properties of most types (lists and temporal values too), relationships with and without
properties, a uniqueness constraint and a range index, and the labels the clients leave out of a schema
(neo4j-graphrag's `__Entity__` and `__KGBuilder__`, Bloom's `_Bloom_Perspective_`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine
from tests.clients.bolt_server import start, stop

MOVIES = """
CREATE (keanu:Person {name: 'Keanu Reeves', born: 1964, height: 1.86, alive: true, birthday: date('1964-09-02'),
                      aliases: ['Neo', 'John Wick']})
CREATE (carrie:Person:Actor {name: 'Carrie-Anne Moss', born: 1967})
CREATE (matrix:Movie {title: 'The Matrix', released: 1999, tagline: 'Welcome to the Real World'})
CREATE (speed:Movie {title: 'Speed', released: 1994})
CREATE (keanu)-[:ACTED_IN {roles: ['Neo'], premiere: datetime('1999-03-31T20:00:00Z')}]->(matrix)
CREATE (keanu)-[:ACTED_IN {roles: ['Jack Traven']}]->(speed)
CREATE (carrie)-[:ACTED_IN {roles: ['Trinity']}]->(matrix)
CREATE (keanu)-[:KNOWS]->(carrie)
CREATE (:Person:__Entity__ {name: 'Lana Wachowski', id: 'lana'})
CREATE (:__KGBuilder__ {id: 'chunk-1'})
CREATE (:_Bloom_Perspective_ {data: 'layout'})
"""
SCHEMA = (
    "CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE",
    "CREATE INDEX movie_released FOR (m:Movie) ON (m.released)",
)

NODE_PROPS = {
    "Actor": {("born", "INTEGER"), ("name", "STRING")},
    "Movie": {("released", "INTEGER"), ("tagline", "STRING"), ("title", "STRING")},
    "Person": {("aliases", "LIST"), ("alive", "BOOLEAN"), ("birthday", "DATE"), ("born", "INTEGER"),
               ("height", "FLOAT"), ("id", "STRING"), ("name", "STRING")},
}
"""Per label, the properties its nodes hold with APOC's type names; `__Entity__`, `__KGBuilder__` and Bloom's
label are left out by the package's own statements (their `$EXCLUDED_LABELS`), and Lana, a `Person` and an
`__Entity__`, gives Person its `id`."""
REL_PROPS = {"ACTED_IN": {("premiere", "DATE_TIME"), ("roles", "LIST")}}
PATTERNS = {("Actor", "ACTED_IN", "Movie"), ("Person", "ACTED_IN", "Movie"), ("Person", "KNOWS", "Actor"),
            ("Person", "KNOWS", "Person")}
"""Every (start label, type, end label) a relationship has, each label of a two-label node on its own."""


def open_movies(database: str = ":memory:") -> engine.Connection:
    """An engine holding the movies graph and its constraint and index (a new in-memory one unless told)."""
    db = engine.connect(database)
    db.execute(MOVIES)
    for statement in SCHEMA:
        db.execute(statement)
    return db


@pytest.fixture
def movies() -> Iterator[engine.Connection]:
    with open_movies() as db:
        yield db


@pytest.fixture(scope="module")
def movies_over_bolt(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`cookbook serve --bolt` on a file holding the movies graph, and its `bolt://` address; each module
    that asks gets a server and a file of its own."""
    database = tmp_path_factory.mktemp("movies") / "movies.rl"
    open_movies(str(database)).close()
    server, url = start(database)
    yield url
    stop(server)
