"""Hand-written DuckDB SQL for every workload, over the engine's own tables: the physical-limit baseline.

The tables are the engine's (`nodes(id, labels, p0, ...)`, `rels(id, type, src, dst, p0, ...)`); a property's
column is looked up in the catalog table `graph_property_keys`, so `{n_key}` in a statement below is the
column holding the node property `key` and `{r_since}` the relationship property `since`. Datetimes are the
engine's STRUCT (`e` epoch seconds, `n` nanoseconds, `o` offset, `z` zone; ADR-0014). Rows arrive as JSON,
the same way the engine receives parameters. The SQL uses what a person writing it would know of the data:
SUPERSEDES chains have no cycles, so the recursive walks need no trail bookkeeping; a datetime is null when
its `e` is, which DuckDB tests reading that one field rather than the whole STRUCT.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import duckdb

from engine.storage.schema import GraphStore
from engine.types import parse_type_name

AT = "struct_pack(e := epoch(CAST(replace({v}, 'Z', '') AS TIMESTAMP))::BIGINT, n := 0::BIGINT, o := 0::BIGINT," \
     " z := '')"

NODE_PROPERTIES = {
    "agent": {"id": "STRING", "startedAt": "ZONED DATETIME", "key": "STRING", "name": "STRING", "kind": "STRING",
              "seq": "INTEGER", "text": "STRING", "at": "ZONED DATETIME", "slot": "STRING",
              "supersededAt": "ZONED DATETIME", "rationale": "STRING", "embedding": "LIST<FLOAT>"},
    "social": {"id": "INTEGER", "name": "STRING", "age": "INTEGER", "city": "STRING"},
}
REL_PROPERTIES = {"agent": {}, "social": {"since": "INTEGER"}}


HAND_INDEX = 0
"""The `idx` of the hand-built postings (the engine numbers its indexes from 1; no catalog row is needed,
since only this SQL reads them)."""


class Columns(dict):
    """`n_<key>` / `r_<key>` -> the column name, from the catalog."""

    def __init__(self, duck: duckdb.DuckDBPyConnection) -> None:
        super().__init__()
        for entity, key, col in duck.execute("SELECT entity, key, col FROM graph_property_keys").fetchall():
            self[("n_" if entity == "node" else "r_") + key] = col

    def __missing__(self, name: str) -> str:
        return "NULL"


HAND_CHECKPOINT_ROWS = 100_000


class HandSql:
    """Bulk load, reads and the remember statements written by hand against one engine database."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.duck = store.connection
        self.cols = Columns(self.duck)

    @classmethod
    def in_memory(cls, memory_limit: str) -> HandSql:
        """An in-memory database in the engine's layout (its tables and catalog, `GraphStore`), configured as
        the engine configures its own: the memory limit, external access off."""
        duck = duckdb.connect(":memory:", config={"memory_limit": memory_limit})
        duck.execute("SET enable_external_access = false")
        return cls(GraphStore(duck))

    messages_indexed = False
    """Whether message texts have postings (index_messages ran): new messages then get theirs too."""

    def index_messages(self, first: int | None = None) -> None:
        """The full-text postings of message texts, in the engine's tables (`ft_fields`, `ft_postings`,
        ADR-0017), for the messages from node id `first` on (None: all). The texts are ASCII words and
        spaces, which the standard analyzer cuts at the spaces and lower-cases, as the pattern below does;
        they are 8 words long, below 24, where Lucene's one-byte norm is the length itself."""
        scope = "" if first is None else f" AND id >= {int(first)}"
        tokens = (f"(SELECT id, regexp_extract_all(lower({{n_text}}), '[0-9a-z]+') AS toks FROM nodes"
                  f" WHERE list_contains(labels, 'Message') AND {{n_text}} IS NOT NULL{scope})")
        self.run(f"INSERT INTO ft_fields SELECT {HAND_INDEX}, id, 'text', len(toks), len(toks) FROM {tokens}"
                 f" WHERE len(toks) > 0")
        order = " ORDER BY term" if first is None else ""
        self.run(f"INSERT INTO ft_postings (idx, id, field, term, tf, positions, norm) SELECT {HAND_INDEX}, id,"
                 f" 'text', term, count(*), list(pos ORDER BY pos), any_value(len(toks))"
                 f" FROM (SELECT id, toks, unnest(toks) AS term, (generate_subscripts(toks, 1) - 1)::INTEGER AS pos"
                 f" FROM {tokens}) GROUP BY id, term{order}")
        self.messages_indexed = True

    def sql(self, text: str) -> str:
        return text.format_map(self.cols)

    def run(self, text: str, values: list[Any] | None = None) -> list[tuple]:
        return self.duck.execute(self.sql(text), values or []).fetchall()

    # -- loading ----------------------------------------------------------------------------------------

    def create_columns(self, kind: str) -> None:
        for key, type_text in NODE_PROPERTIES[kind].items():
            self.store.ensure_property_column("node", key, parse_type_name(type_text))
        for key, type_text in REL_PROPERTIES[kind].items():
            self.store.ensure_property_column("relationship", key, parse_type_name(type_text))
        self.cols = Columns(self.duck)

    def _ids(self, entity: str, count: int) -> int:
        return self.store.allocate_ids(entity, count)

    def _rows(self, struct: str) -> str:
        return (f"(SELECT unnest(l) AS r, generate_subscripts(l, 1) AS i"
                f" FROM (SELECT CAST(CAST($1 AS JSON) AS {struct}[]) AS l))")

    loaded_since_checkpoint = 0

    def load(self, step: str, rows: list[dict[str, Any]]) -> None:
        """One batch of one load step, as one transaction; every HAND_CHECKPOINT_ROWS rows, a checkpoint,
        which compresses the new row groups as the engine's checkpoints of an in-memory graph do
        (`engine.connection.CHECKPOINT_WRITES`, counted there in changes: a row and its properties)."""
        self.duck.execute("BEGIN")
        try:
            LOADERS[step.split(":")[0]](self, step, rows)
            self.duck.execute("COMMIT")
        except BaseException:
            self.duck.execute("ROLLBACK")
            raise
        self.loaded_since_checkpoint += len(rows)
        if self.loaded_since_checkpoint >= HAND_CHECKPOINT_ROWS:
            self.duck.execute("CHECKPOINT")
            self.loaded_since_checkpoint = 0

    def _insert_nodes(self, label: str, rows: list[dict], struct: str, values: dict[str, str]) -> int:
        first = self._ids("node", len(rows))
        names = ", ".join(self.cols["n_" + k] for k in values)
        exprs = ", ".join(values.values())
        self.run(f"INSERT INTO nodes (id, labels, {names}) SELECT {first} + i - 1, ['{label}'], {exprs}"
                 f" FROM {self._rows(struct)}", [json.dumps(rows)])
        return first

    def _insert_rels(self, rel_type: str, select: str, values: list[Any], count_sql: str,
                     extra: dict[str, str] | None = None) -> None:
        """`select` yields (src, dst[, extra...]); ids are allocated after counting its rows."""
        (count,) = self.duck.execute(self.sql(count_sql), values).fetchone()
        if not count:
            return
        first = self._ids("relationship", count)
        names = "".join(", " + self.cols["r_" + k] for k in (extra or {}))
        exprs = "".join(", " + v for v in (extra or {}).values())
        self.run(f"INSERT INTO rels (id, type, src, dst{names}) SELECT {first} + row_number() OVER () - 1,"
                 f" '{rel_type}', q.src, q.dst{exprs} FROM ({select}) AS q", values)


def _load_sessions(h: HandSql, step: str, rows: list[dict]) -> None:
    h._insert_nodes("Session", rows, 'STRUCT("id" VARCHAR, "startedAt" VARCHAR)',
                    {"id": "r.id", "startedAt": AT.format(v="r.startedAt")})


def _load_entities(h: HandSql, step: str, rows: list[dict]) -> None:
    # MERGE: only keys not stored yet, the first row of a key giving its name and kind
    struct = 'STRUCT("key" VARCHAR, "name" VARCHAR, "kind" VARCHAR)'
    fresh = (f"SELECT r.key AS key, arg_min(r.name, i) AS name, arg_min(r.kind, i) AS kind, min(i) AS o"
             f" FROM {h._rows(struct)} WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE"
             f" list_contains(n.labels, 'Entity') AND n.{{n_key}} = r.key) GROUP BY r.key")
    (count,) = h.duck.execute(h.sql(f"SELECT count(*) FROM ({fresh})"), [json.dumps(rows)]).fetchone()
    first = h._ids("node", count)
    h.run(f"INSERT INTO nodes (id, labels, {{n_key}}, {{n_name}}, {{n_kind}}) SELECT {first} + row_number()"
          f" OVER (ORDER BY o) - 1, ['Entity'], key, name, kind FROM ({fresh})", [json.dumps(rows)])


def _load_messages(h: HandSql, step: str, rows: list[dict]) -> None:
    struct = 'STRUCT("seq" BIGINT, "text" VARCHAR, "at" VARCHAR, "session" VARCHAR)'
    first = h._insert_nodes("Message", rows, struct,
                            {"seq": "r.seq", "text": "r.text", "at": AT.format(v="r.at")})
    if h.messages_indexed:
        h.index_messages(first)
    select = (f"SELECT {first} + u.i - 1 AS src, s.id AS dst FROM {h._rows(struct)} AS u JOIN nodes s"
              f" ON list_contains(s.labels, 'Session') AND s.{{n_id}} = u.r.session")
    h._insert_rels("IN_SESSION", select, [json.dumps(rows)], f"SELECT count(*) FROM ({select})")


def _load_mentions(h: HandSql, step: str, rows: list[dict]) -> None:
    struct = 'STRUCT("seq" BIGINT, "key" VARCHAR)'
    select = (f"SELECT m.id AS src, e.id AS dst FROM {h._rows(struct)} AS u"
              f" JOIN nodes m ON list_contains(m.labels, 'Message') AND m.{{n_seq}} = u.r.seq"
              f" JOIN nodes e ON list_contains(e.labels, 'Entity') AND e.{{n_key}} = u.r.key")
    h._insert_rels("MENTIONS", select, [json.dumps(rows)], f"SELECT count(*) FROM ({select})")


def _load_items(h: HandSql, step: str, rows: list[dict]) -> None:
    label = "Fact" if step.startswith("facts") else "Decision"
    struct = ('STRUCT("text" VARCHAR, "slot" VARCHAR, "seq" BIGINT, "at" VARCHAR, "supersededAt" VARCHAR,'
              ' "about" VARCHAR[]' + (', "rationale" VARCHAR)' if label == "Decision" else ")"))
    values = {"text": "r.text", "slot": "r.slot", "seq": "r.seq", "at": AT.format(v="r.at"),
              "supersededAt": f"CASE WHEN r.supersededAt IS NULL THEN NULL ELSE {AT.format(v='r.supersededAt')} END"}
    if label == "Decision":
        values["rationale"] = "r.rationale"
    node_struct = struct
    if any(row.get("embedding") is not None for row in rows):
        # a fact with its embedding (the generator gives every loaded fact one, `remember` none)
        node_struct = struct[:-1] + ', "embedding" DOUBLE[])'
        values["embedding"] = "r.embedding"
    first = h._insert_nodes(label, rows, node_struct, values)
    # the relationships read the rows again, without the vectors
    data = [json.dumps([{k: v for k, v in row.items() if k != "embedding"} for row in rows])]
    select = (f"SELECT {first} + u.i - 1 AS src, m.id AS dst FROM {h._rows(struct)} AS u"
              f" JOIN nodes m ON list_contains(m.labels, 'Message') AND m.{{n_seq}} = u.r.seq")
    h._insert_rels("FROM", select, data, f"SELECT count(*) FROM ({select})")
    select = (f"SELECT {first} + u.i - 1 AS src, e.id AS dst FROM {h._rows(struct)} AS u,"
              f" unnest(u.r.about) AS a(k) JOIN nodes e ON list_contains(e.labels, 'Entity') AND e.{{n_key}} = a.k")
    h._insert_rels("ABOUT", select, data, f"SELECT count(*) FROM ({select})")


def _load_supersedes(h: HandSql, step: str, rows: list[dict]) -> None:
    label = step.split(":")[1]
    struct = 'STRUCT("label" VARCHAR, "slot" VARCHAR, "new" BIGINT, "old" BIGINT)'
    select = (f"SELECT a.id AS src, b.id AS dst FROM {h._rows(struct)} AS u"
              f" JOIN nodes a ON list_contains(a.labels, '{label}') AND a.{{n_seq}} = u.r.new"
              f" AND a.{{n_slot}} = u.r.slot"
              f" JOIN nodes b ON list_contains(b.labels, '{label}') AND b.{{n_seq}} = u.r.old"
              f" AND b.{{n_slot}} = u.r.slot")
    h._insert_rels("SUPERSEDES", select, [json.dumps(rows)], f"SELECT count(*) FROM ({select})")


def _load_people(h: HandSql, step: str, rows: list[dict]) -> None:
    h._insert_nodes("Person", rows, 'STRUCT("id" BIGINT, "name" VARCHAR, "age" BIGINT, "city" VARCHAR)',
                    {"id": "r.id", "name": "r.name", "age": "r.age", "city": "r.city"})


def _load_knows(h: HandSql, step: str, rows: list[dict]) -> None:
    struct = 'STRUCT("src" BIGINT, "dst" BIGINT, "since" BIGINT)'
    select = (f"SELECT a.id AS src, b.id AS dst, u.r.since AS since FROM {h._rows(struct)} AS u"
              f" JOIN nodes a ON list_contains(a.labels, 'Person') AND a.{{n_id}} = u.r.src"
              f" JOIN nodes b ON list_contains(b.labels, 'Person') AND b.{{n_id}} = u.r.dst")
    h._insert_rels("KNOWS", select, [json.dumps(rows)], f"SELECT count(*) FROM ({select})",
                   {"since": "q.since"})


LOADERS: dict[str, Callable[[HandSql, str, list[dict]], None]] = {
    "sessions": _load_sessions, "entities": _load_entities, "messages": _load_messages,
    "mentions": _load_mentions, "facts": _load_items, "decisions": _load_items,
    "supersedes": _load_supersedes, "people": _load_people, "knows": _load_knows,
}

# -- reads ----------------------------------------------------------------------------------------------

ENTITY = """e AS (SELECT id, {n_name} AS name, {n_kind} AS kind FROM nodes
  WHERE list_contains(labels, 'Entity') AND contains(lower($question), {n_key})
  ORDER BY length({n_key}) DESC LIMIT 1)"""
ITEM = "(list_contains({x}.labels, 'Fact') OR list_contains({x}.labels, 'Decision'))"
CHAINS = """ch(start, node, depth) AS (
  SELECT id, id, 0 FROM {starts}
  UNION ALL SELECT ch.start, r.dst, ch.depth + 1 FROM ch JOIN rels r ON r.src = ch.node AND r.type = 'SUPERSEDES'
  WHERE ch.depth < 5)"""
REPLACED = """replaced AS (SELECT ch.start, list(o.{n_text} ORDER BY o.{n_seq} DESC) AS texts
  FROM ch JOIN nodes o ON o.id = ch.node WHERE ch.depth > 0 GROUP BY ch.start)"""

READ_SQL: dict[str, str] = {
    "recall": f"""WITH RECURSIVE {ENTITY},
x AS (SELECT x.id, x.labels[1] AS kind, x.{{n_text}} AS memory, x.{{n_rationale}} AS because, s.{{n_id}} AS session,
        x.{{n_seq}} AS seq
  FROM e JOIN rels a ON a.dst = e.id AND a.type = 'ABOUT'
  JOIN nodes x ON x.id = a.src AND {ITEM.format(x="x")} AND x.{{n_supersededAt}}.e IS NULL
  JOIN rels f ON f.src = x.id AND f.type = 'FROM'
  JOIN nodes m ON m.id = f.dst AND list_contains(m.labels, 'Message')
  JOIN rels i ON i.src = m.id AND i.type = 'IN_SESSION'
  JOIN nodes s ON s.id = i.dst AND list_contains(s.labels, 'Session')),
{CHAINS.format(starts="(SELECT DISTINCT id FROM x)")},
{REPLACED}
SELECT kind, memory, because, session, coalesce(replaced.texts, []) FROM x LEFT JOIN replaced ON replaced.start = x.id
ORDER BY seq, memory""",
    "nearby": f"""WITH {ENTITY},
o AS (SELECT DISTINCT o.id, o.{{n_name}} AS name FROM e
  JOIN rels a ON a.dst = e.id AND a.type = 'ABOUT'
  JOIN nodes x ON x.id = a.src AND x.{{n_supersededAt}}.e IS NULL
  JOIN rels b ON b.src = x.id AND b.type = 'ABOUT' AND b.id <> a.id
  JOIN nodes o ON o.id = b.dst AND list_contains(o.labels, 'Entity') AND o.id <> e.id)
SELECT DISTINCT o.name AS via, f.{{n_text}} AS fact FROM o
  JOIN rels c ON c.dst = o.id AND c.type = 'ABOUT'
  JOIN nodes f ON f.id = c.src AND list_contains(f.labels, 'Fact') AND f.{{n_supersededAt}}.e IS NULL
WHERE NOT EXISTS (SELECT 1 FROM rels d, e WHERE d.src = f.id AND d.dst = e.id AND d.type = 'ABOUT')
ORDER BY via, fact""",
    "as_of": f"""WITH {ENTITY}
SELECT x.labels[1] AS kind, x.{{n_text}} AS memory, to_timestamp(x.{{n_at}}.e) AS since FROM e
  JOIN rels a ON a.dst = e.id AND a.type = 'ABOUT'
  JOIN nodes x ON x.id = a.src AND {ITEM.format(x="x")}
WHERE x.{{n_at}}.e <= epoch(CAST(replace($asOf, 'Z', '') AS TIMESTAMP))
  AND (x.{{n_supersededAt}}.e IS NULL OR x.{{n_supersededAt}}.e > epoch(CAST(replace($asOf, 'Z', '') AS TIMESTAMP)))
ORDER BY x.{{n_seq}}, memory""",
    "recall_tool": f"""WITH RECURSIVE {ENTITY},
items AS (SELECT x.id, x.labels[1] AS label, x.{{n_text}} AS text, x.{{n_rationale}} AS rationale,
        x.{{n_seq}} AS seq, x.{{n_supersededAt}}.e IS NULL AS current
  FROM e JOIN rels a ON a.dst = e.id AND a.type = 'ABOUT' JOIN nodes x ON x.id = a.src),
sess AS (SELECT it.id, s.{{n_id}} AS session FROM items it
  JOIN rels f ON f.src = it.id AND f.type = 'FROM'
  JOIN nodes m ON m.id = f.dst AND list_contains(m.labels, 'Message')
  JOIN rels i ON i.src = m.id AND i.type = 'IN_SESSION'
  JOIN nodes s ON s.id = i.dst),
{CHAINS.format(starts="(SELECT id FROM items WHERE label = 'Decision' AND current)")},
{REPLACED},
near AS (SELECT DISTINCT o.{{n_name}} AS entity, f.{{n_text}} AS fact FROM e
  JOIN rels a ON a.dst = e.id AND a.type = 'ABOUT'
  JOIN nodes x ON x.id = a.src AND x.{{n_supersededAt}}.e IS NULL
  JOIN rels b ON b.src = x.id AND b.type = 'ABOUT' AND b.id <> a.id
  JOIN nodes o ON o.id = b.dst AND list_contains(o.labels, 'Entity') AND o.id <> e.id
  JOIN rels c ON c.dst = o.id AND c.type = 'ABOUT'
  JOIN nodes f ON f.id = c.src AND list_contains(f.labels, 'Fact') AND f.{{n_supersededAt}}.e IS NULL
  WHERE NOT EXISTS (SELECT 1 FROM rels d WHERE d.src = f.id AND d.dst = e.id AND d.type = 'ABOUT'))
SELECT e.name, e.kind,
  coalesce((SELECT list({{{{'fact': it.text, 'session': s.session}}}} ORDER BY it.seq, it.text) FROM items it
            JOIN sess s ON s.id = it.id WHERE it.label = 'Fact' AND it.current), []),
  coalesce((SELECT list({{{{'decision': it.text, 'rationale': it.rationale, 'session': s.session,
                        'replaced': coalesce(r.texts, [])}}}} ORDER BY it.seq, it.text) FROM items it
            JOIN sess s ON s.id = it.id LEFT JOIN replaced r ON r.start = it.id
            WHERE it.label = 'Decision' AND it.current), []),
  coalesce((SELECT list(it.text ORDER BY it.seq, it.text) FROM items it
            WHERE it.label = 'Fact' AND NOT it.current), []),
  coalesce((SELECT list({{{{'entity': entity, 'fact': fact}}}}) FROM near), [])
FROM e""",
    "slots": """SELECT DISTINCT {n_slot} AS slot FROM nodes
WHERE (list_contains(labels, 'Fact') OR list_contains(labels, 'Decision')) AND {n_slot} <> ''
  AND {n_supersededAt}.e IS NULL ORDER BY slot""",
    "chains_1_5": f"""WITH RECURSIVE starts AS (SELECT x.id FROM (SELECT unnest(CAST(CAST($items AS JSON)
    AS STRUCT("seq" BIGINT, "text" VARCHAR)[])) AS it) AS u
  JOIN nodes x ON list_contains(x.labels, 'Fact') AND x.{{n_seq}} = u.it.seq AND x.{{n_text}} = u.it.text),
{CHAINS.format(starts="starts")}
SELECT count(*), sum(o.{{n_seq}}) FROM ch JOIN nodes o ON o.id = ch.node WHERE ch.depth > 0""",
    "top_entities": """SELECT e.{n_name} AS entity, count(*) AS facts FROM rels a
  JOIN nodes f ON f.id = a.src AND list_contains(f.labels, 'Fact') AND f.{n_supersededAt}.e IS NULL
  JOIN nodes e ON e.id = a.dst AND list_contains(e.labels, 'Entity')
WHERE a.type = 'ABOUT' GROUP BY ALL ORDER BY facts DESC, entity LIMIT 10""",
    "two_hop": """WITH a AS (SELECT n.id FROM (SELECT unnest(CAST($ids AS BIGINT[])) AS pid) AS u
  JOIN nodes n ON list_contains(n.labels, 'Person') AND n.{n_id} = u.pid)
SELECT count(*), count(DISTINCT r2.dst) FROM a
  JOIN rels r1 ON r1.src = a.id AND r1.type = 'KNOWS'
  JOIN rels r2 ON r2.src = r1.dst AND r2.type = 'KNOWS' AND r2.id <> r1.id""",
    # frontier at a time, keeping each path's relationships so none repeats (trail semantics)
    "var_1_3": """WITH RECURSIVE a AS (SELECT n.id FROM (SELECT unnest(CAST($ids AS BIGINT[])) AS pid) AS u
  JOIN nodes n ON list_contains(n.labels, 'Person') AND n.{n_id} = u.pid),
w(node, rels) AS (SELECT id, []::BIGINT[] FROM a
  UNION ALL SELECT r.dst, list_append(w.rels, r.id) FROM w JOIN rels r ON r.src = w.node AND r.type = 'KNOWS'
  WHERE len(w.rels) < 3 AND NOT list_contains(w.rels, r.id))
SELECT count(*), count(DISTINCT node) FROM w WHERE len(rels) >= 1""",
    "top_followed": """SELECT p.{n_id} AS id, count(*) AS followers FROM rels r
  JOIN nodes p ON p.id = r.dst AND list_contains(p.labels, 'Person')
WHERE r.type = 'KNOWS' GROUP BY ALL ORDER BY followers DESC, id LIMIT 10""",
    "city_counts": """SELECT b.{n_city} AS city, count(*) AS n FROM rels r
  JOIN nodes a ON a.id = r.src AND list_contains(a.labels, 'Person') AND a.{n_age} < 30
  JOIN nodes b ON b.id = r.dst AND list_contains(b.labels, 'Person')
WHERE r.type = 'KNOWS' GROUP BY ALL ORDER BY n DESC, city LIMIT 5""",
}
READ_SQL["qpp_1_3"] = READ_SQL["var_1_3"]

# Lucene's BM25 (k1 = 1.2, b = 0.75) over the hand-built postings of message texts, in 32-bit floats where
# Lucene rounds (ADR-0017), so the scores are the engine's to the bit; the query's terms cut as the texts
# were (HandSql.index_messages), each an optional clause: a message's score sums its matching terms'.
READ_SQL["fulltext_topk"] = f"""WITH
terms AS (SELECT DISTINCT unnest(regexp_extract_all(lower($fulltext), '[0-9a-z]+')) AS term),
stats AS (SELECT count(*) AS n, sum(length) AS total FROM ft_fields
  WHERE idx = {HAND_INDEX} AND field = 'text' AND length > 0),
weights AS (SELECT t.term, ln(1::DOUBLE + (any_value(s.n) - count(p.id) + 0.5::DOUBLE)
    / (count(p.id) + 0.5::DOUBLE))::FLOAT AS weight, (any_value(s.total) / any_value(s.n)::DOUBLE)::FLOAT AS avgdl
  FROM terms t CROSS JOIN stats s
  LEFT JOIN ft_postings p ON p.idx = {HAND_INDEX} AND p.field = 'text' AND p.term = t.term GROUP BY t.term),
scores AS (SELECT p.id, sum((w.weight - w.weight / (1::FLOAT + p.tf::FLOAT * (1::FLOAT / (1.2::FLOAT
    * ((1::FLOAT - 0.75::FLOAT) + 0.75::FLOAT * p.norm::FLOAT / w.avgdl)))))::DOUBLE)::FLOAT AS score
  FROM weights w JOIN ft_postings p ON p.idx = {HAND_INDEX} AND p.field = 'text' AND p.term = w.term GROUP BY p.id)
SELECT m.{{n_seq}} AS seq, s.score::DOUBLE AS score FROM scores s JOIN nodes m ON m.id = s.id
ORDER BY s.score DESC, seq LIMIT 10"""

# the cosine similarity as Neo4j scores it, (1 + cos) / 2, over every fact's stored list: exact, as ours
READ_SQL["vector_topk"] = """SELECT {n_text} AS fact,
  1 - list_cosine_distance({n_embedding}, CAST($vector AS DOUBLE[])) / 2 AS score
FROM nodes WHERE list_contains(labels, 'Fact') AND {n_embedding} IS NOT NULL
ORDER BY score DESC, fact LIMIT 10"""

JSON_PARAMS = {"items", "pairs"}


def read(h: HandSql, name: str, params: dict[str, Any]) -> list[tuple]:
    if name == "shortest_path":
        return shortest_paths(h, params["pairs"])
    values = {k: (json.dumps(v) if k in JSON_PARAMS else v) for k, v in params.items()}
    sql = h.sql(READ_SQL[name])
    used = {k: v for k, v in values.items() if f"${k}" in sql}
    return h.duck.execute(sql, used).fetchall()


def shortest_paths(h: HandSql, pairs: list[list[int]], max_hops: int = 6) -> list[tuple]:
    """Breadth-first search from all 100 sources at once, one SQL statement per level; a pair leaves the
    frontier when its target is reached."""
    d = h.duck
    d.execute("BEGIN")
    try:
        d.execute(h.sql("""CREATE OR REPLACE TEMP TABLE sp_pairs AS SELECT u.i AS pair, a.id AS src, b.id AS dst
            FROM (SELECT unnest(l) AS p, generate_subscripts(l, 1) AS i FROM (SELECT CAST($1 AS BIGINT[][]) AS l)) AS u
            JOIN nodes a ON list_contains(a.labels, 'Person') AND a.{n_id} = u.p[1]
            JOIN nodes b ON list_contains(b.labels, 'Person') AND b.{n_id} = u.p[2]"""), [pairs])
        d.execute("CREATE OR REPLACE TEMP TABLE sp_seen AS SELECT pair, src AS node FROM sp_pairs")
        d.execute("CREATE OR REPLACE TEMP TABLE sp_frontier AS SELECT pair, src AS node FROM sp_pairs")
        d.execute("CREATE OR REPLACE TEMP TABLE sp_found (pair BIGINT, hops BIGINT)")
        for hop in range(1, max_hops + 1):
            d.execute("""CREATE OR REPLACE TEMP TABLE sp_next AS SELECT DISTINCT f.pair, r.dst AS node
                FROM sp_frontier f JOIN rels r ON r.src = f.node AND r.type = 'KNOWS'
                WHERE NOT EXISTS (SELECT 1 FROM sp_seen s WHERE s.pair = f.pair AND s.node = r.dst)""")
            d.execute(f"INSERT INTO sp_found SELECT n.pair, {hop} FROM sp_next n JOIN sp_pairs p"
                      f" ON p.pair = n.pair AND p.dst = n.node")
            d.execute("""CREATE OR REPLACE TEMP TABLE sp_frontier AS SELECT n.* FROM sp_next n
                WHERE n.pair NOT IN (SELECT pair FROM sp_found)""")
            if d.execute("SELECT count(*) FROM sp_frontier").fetchone()[0] == 0:
                break
            d.execute("INSERT INTO sp_seen SELECT * FROM sp_frontier")
        result = d.execute("SELECT count(*), sum(hops) FROM sp_found").fetchall()
    finally:
        d.execute("ROLLBACK")
    return result


# -- the seed's remember statements, by hand --------------------------------------------------------------

SUPERSEDE = """CREATE OR REPLACE TEMP TABLE hand_pick AS
SELECT n.id AS src, any_value(n.{n_at}) AS at, arg_max(o.id, o.{n_seq}) AS dst
FROM nodes n JOIN nodes o ON o.labels = n.labels AND o.{n_slot} = n.{n_slot} AND o.{n_seq} < n.{n_seq}
WHERE (list_contains(n.labels, 'Fact') OR list_contains(n.labels, 'Decision')) AND n.{n_slot} <> ''
  AND n.{n_seq} IN (SELECT unnest(CAST($1 AS BIGINT[])))
GROUP BY n.id"""

REPORT = """SELECT m.{n_seq} AS seq,
  (SELECT count(*) FROM rels r WHERE r.src = m.id AND r.type = 'MENTIONS') AS entities,
  (SELECT count(*) FROM rels r JOIN nodes f ON f.id = r.src AND list_contains(f.labels, 'Fact')
    WHERE r.dst = m.id AND r.type = 'FROM') AS facts,
  (SELECT count(*) FROM rels r JOIN nodes d ON d.id = r.src AND list_contains(d.labels, 'Decision')
    WHERE r.dst = m.id AND r.type = 'FROM') AS decisions
FROM nodes m WHERE list_contains(m.labels, 'Message') AND m.{n_seq} IN (SELECT unnest(CAST($1 AS BIGINT[])))
ORDER BY seq"""


def remember(h: HandSql, session: dict[str, Any]) -> list[tuple]:
    """The five statements of one session as one transaction. The nested parameters are flattened in
    Python into the bulk loaders' row shapes (microseconds for 50 messages), then the loaders' SQL runs."""
    messages = session["messages"]
    seqs = [m["seq"] for m in messages]
    mentions = [{"seq": m["seq"], "key": e["name"].lower()} for m in messages for e in m["entities"]]
    entities = [{"key": e["name"].lower(), "name": e["name"], "kind": e["kind"]} for m in messages
                for e in m["entities"]]
    items: dict[str, list[dict[str, Any]]] = {"facts": [], "decisions": []}
    for step, field in (("facts", "facts"), ("decisions", "decisions")):
        for m in messages:
            for it in m[field]:
                row = {"text": it["text"], "slot": it["slot"], "seq": m["seq"], "at": m["at"], "supersededAt": None,
                       "about": [name.lower() for name in it["about"]]}
                if step == "decisions":
                    row["rationale"] = it["rationale"]
                items[step].append(row)
    d = h.duck
    d.execute("BEGIN")
    try:
        (exists,) = d.execute(h.sql("SELECT count(*) FROM nodes WHERE list_contains(labels, 'Session')"
                                    " AND {n_id} = $1"), [session["session"]]).fetchone()
        if not exists:
            _load_sessions(h, "sessions", [{"id": session["session"], "startedAt": session["startedAt"]}])
        _load_messages(h, "messages", [{"seq": m["seq"], "text": m["text"], "at": m["at"],
                                        "session": session["session"]} for m in messages])
        _load_entities(h, "entities", entities)
        _load_mentions(h, "mentions", [dict(t) for t in dict.fromkeys(tuple(r.items()) for r in mentions)])
        for step, rows in items.items():
            if rows:
                _load_items(h, step, rows)
        d.execute(h.sql(SUPERSEDE), [seqs])
        d.execute(h.sql("UPDATE nodes SET {n_supersededAt} = p.at FROM hand_pick p WHERE nodes.id = p.dst"))
        h._insert_rels("SUPERSEDES", "SELECT src, dst FROM hand_pick", [], "SELECT count(*) FROM hand_pick")
        d.execute("DROP TABLE hand_pick")
        rows = d.execute(h.sql(REPORT), [seqs]).fetchall()
        d.execute("COMMIT")
    except BaseException:
        d.execute("ROLLBACK")
        raise
    return rows
