"""Hostile text is data: stored and returned verbatim, and never changes the SQL that runs.

Parameters, string literals, property keys, labels and relationship types are filled with quotes,
backticks, semicolons, comment markers, NUL and non-ASCII text. Each statement's SQL (from
`Connection.explain`) must be the SQL of the same statement with a plain placeholder, up to where
the engine writes a name as a quoted SQL literal of its own. And the DuckDB connection under the
engine has external access off: no SQL, let alone Cypher, can read or write a file or a network.
"""

from __future__ import annotations

import re

import duckdb
import pytest

import engine
from tests.reliability.corpus import HOSTILE, cypher_name, cypher_string
from tests.reliability.graph_state import graph_state

NAMES = [text for text in HOSTILE if text]  # a Cypher name cannot be empty
PLACEHOLDER = "zqplaceholder"


def sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


TEMP_TABLE = re.compile(r"_cypher_t\d+")


def sql_of(db: engine.Connection, statement: str, params: dict | None = None) -> list[str]:
    """The SQL the statement runs, its temporary tables numbered from 0 (the engine numbers them per
    process)."""
    _, trace = db.explain(statement, params)
    numbers: dict[str, str] = {}
    return [TEMP_TABLE.sub(lambda m: numbers.setdefault(m[0], f"_t{len(numbers)}"), sql) for sql, _ in trace]


def same_sql(hostile_sql: list[str], plain_sql: list[str], text: str) -> bool:
    """The SQL of the hostile statement is the placeholder's, with at most the text in a quoted literal."""
    normalized = [sql.replace(sql_literal(text), sql_literal(PLACEHOLDER)) for sql in hostile_sql]
    return normalized == plain_sql


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        yield connection


@pytest.mark.parametrize("text", HOSTILE, ids=repr)
def test_a_parameter_is_stored_and_returned_verbatim(db, text):
    db.execute("CREATE (:T {v: $v, list: [$v, $v]})", {"v": text})
    rows = db.execute("MATCH (n:T {v: $v}) RETURN n.v AS v, n.list AS list, {inner: $v}.inner AS inner",
                      {"v": text}).fetchall()
    assert rows == [(text, [text, text], text)]
    assert db.execute("MATCH (n:T) WHERE n.v STARTS WITH $v RETURN count(*)", {"v": text}).fetchall() == [(1,)]


@pytest.mark.parametrize("text", HOSTILE, ids=repr)
def test_a_parameter_never_changes_the_sql(text):
    """Each value runs on a graph whose one node it matches: the engine skips the SQL of a write that has no
    rows (ADR-0085), so the two runs must match as many rows for their SQL to be comparable."""
    statement = "MATCH (n:T) WHERE n.v = $v OR n.v CONTAINS $v SET n.w = $v RETURN n.v + $v AS x"
    sql = []
    for value in (text, PLACEHOLDER):
        with engine.connect(":memory:") as db:
            db.execute("CREATE (:T {v: $v})", {"v": value})
            sql.append(sql_of(db, statement, {"v": value}))
    assert sql[0] == sql[1]


@pytest.mark.parametrize("text", HOSTILE, ids=repr)
def test_a_string_literal_is_stored_verbatim_and_bound(db, text):
    literal = cypher_string(text)
    db.execute(f"CREATE (:T {{v: {literal}}})")
    assert db.execute(f"MATCH (n:T) WHERE n.v = {literal} RETURN n.v").fetchall() == [(text,)]
    statement = "MATCH (n:T) WHERE n.v = {} RETURN {} AS x"
    hostile = sql_of(db, statement.format(literal, literal))
    plain = sql_of(db, statement.format(cypher_string(PLACEHOLDER), cypher_string(PLACEHOLDER)))
    assert same_sql(hostile, plain, text)


@pytest.mark.parametrize("text", NAMES, ids=repr)
def test_names_are_stored_verbatim(db, text):
    name = cypher_name(text)
    db.execute(f"CREATE (a:{name} {{{name}: 1}})-[:{name} {{{name}: 2}}]->(b:Other)")
    rows = db.execute(f"MATCH (a:{name})-[r:{name}]->() RETURN labels(a), keys(a), type(r), keys(r), "
                      f"a.{name}, r[{cypher_string(text)}]").fetchall()
    assert rows == [([text], [text], text, [text], 1, 2)]
    schema = db.schema()
    assert text in schema["labels"] and text in schema["relationship_types"]


@pytest.mark.parametrize("text", NAMES, ids=repr)
def test_names_never_change_the_sql(text):
    """A label, type or key is a bound value or a catalog column (`p<N>`), never SQL text: the SQL of
    the hostile statement is that of the placeholder one, property columns numbered in order."""
    statement = ("MATCH (a:{n})-[r:{n}]->(b) WHERE a.{n} = 1 SET b:{n}, b.{n} = r.{n} "
                 "RETURN a.{n} AS x, labels(b) AS l")
    traces = []
    for value in (text, PLACEHOLDER):
        with engine.connect(":memory:") as db:
            db.execute("CREATE (a:{n} {{{n}: 1}})-[:{n} {{{n}: 2}}]->(:B)".format(n=cypher_name(value)))
            traces.append(sql_of(db, statement.format(n=cypher_name(value))))
    hostile, plain = traces
    assert same_sql(hostile, plain, text)


def test_hostile_text_leaves_the_tables_as_they_are(db):
    """A value that looks like SQL is stored as data: the tables and their columns stay the engine's."""
    db.execute("CREATE (:T {v: 1})")
    before = {table: columns for table, (columns, _) in graph_state(db).items()}
    for text in HOSTILE:
        db.execute("MATCH (n:T) SET n.v = $v", {"v": text})
        db.execute(f"MATCH (n:T) SET n.v = {cypher_string(text)}")
    after = {table: columns for table, (columns, _) in graph_state(db).items()}
    assert after == before
    assert db.execute("MATCH (n) RETURN count(n)").fetchall() == [(1,)]


EXTERNAL = [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM read_json_auto('/etc/os-release')",
    "SELECT * FROM glob('/*')",
    "COPY (SELECT 1) TO '{tmp}/out.csv'",
    "COPY nodes TO '{tmp}/nodes.parquet' (FORMAT parquet)",
    "EXPORT DATABASE '{tmp}/dump'",
    "ATTACH '{tmp}/other.db' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SELECT * FROM read_csv('https://example.com/x.csv')",
    "SET enable_external_access = true",
]


@pytest.mark.parametrize("path", [":memory:", "file"])
def test_the_engines_duckdb_connection_cannot_reach_files_or_networks(tmp_path, path):
    target = str(tmp_path / "graph.rl") if path == "file" else ":memory:"
    with engine.connect(target) as connection:
        for sql in EXTERNAL:
            with pytest.raises(duckdb.Error) as raised:
                connection._duck.execute(sql.format(tmp=tmp_path))
            assert isinstance(raised.value, duckdb.PermissionException | duckdb.InvalidInputException), sql
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["graph.rl"], ["graph.rl", "graph.rl.wal"])


CYPHER_REACHING_OUT = [
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "LOAD CSV WITH HEADERS FROM 'https://example.com/x.csv' AS row RETURN row",
    "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value",
    "CALL db.io.read('/etc/passwd')",
    "RETURN read_text('/etc/passwd') AS x",
    "RETURN `read_csv`('/etc/passwd') AS x",
    "MATCH (n) RETURN n.`'); COPY nodes TO '/tmp/x.csv'; --` AS x",
]


@pytest.mark.parametrize("statement", CYPHER_REACHING_OUT)
def test_no_cypher_reaches_a_file(db, statement):
    db.execute("CREATE (:T)")
    before = graph_state(db)
    try:
        rows = db.execute(statement).fetchall()
    except engine.CypherError as error:
        assert error.kind in ("SyntaxError", "UnsupportedFeature", "ProcedureError", "ExternalResourceError"), \
            str(error)
    else:
        assert rows == [(None,)]  # a property key that does not exist, read as such
    assert graph_state(db) == before


READERS = {
    "LOAD CSV": ("LOAD CSV FROM '{url}' AS row RETURN row", "public\n", ["public"]),
    "apoc.load.json": ("CALL apoc.load.json('{url}') YIELD value RETURN value", '{"p": "public"}\n',
                       {"p": "public"}),
}
"""The readers of files, with what each makes of a file holding `public`."""


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("url", ["file:///../outside.csv", "file:///sub/../../outside.csv", "file:///..",
                                 "https://example.com/x.csv", "file://localhost/etc/passwd"])
def test_file_readers_read_nothing_outside_their_import_directory(tmp_path, url, reader):
    """LOAD CSV and apoc.load.json read the import directory only: a url climbing out of it, or of another
    scheme, is refused before DuckDB opens anything (and DuckDB is allowed that directory alone)."""
    statement, text, value = READERS[reader]
    imports = tmp_path / "imports"
    (imports / "sub").mkdir(parents=True)
    (tmp_path / "outside.csv").write_text(text.replace("public", "secret"))
    (imports / "inside.csv").write_text(text)
    with engine.connect(":memory:", import_dir=str(imports)) as db:
        assert db.execute(statement.format(url="file:///inside.csv")).fetchall() == [(value,)]
        with pytest.raises(engine.ExternalResourceError):
            db.execute(statement.format(url=url))
