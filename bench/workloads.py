"""The workloads: each one's Cypher as our engine runs it, every peer's rewrite beside it, and what a peer lacks.

A workload's `cypher` is the statement our engine runs (the seed page's text where the seed has one).
`rewrites` maps a system to the statement it runs instead, only where that system's dialect differs; the
comment on each rewrite says why. `unsupported` names what a system cannot run at all. The hand-written
DuckDB SQL for the same workload lives in `bench/handsql.py`, under the same name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# -- shared fragments -------------------------------------------------------------------------------------

FIND_ENTITY = """MATCH (e:Entity) WHERE toLower($question) CONTAINS e.key
WITH e ORDER BY size(e.key) DESC LIMIT 1"""
FIND_ENTITY_KUZU = """MATCH (e:Entity) WHERE lower($question) CONTAINS e.key
WITH e ORDER BY size(e.key) DESC LIMIT 1"""


def _kuzu(text: str) -> str:
    """Kuzu wants SKIP or LIMIT after a WITH's ORDER BY (SKIP 0 keeps the order for the collect after it),
    and its collect() over no rows is NULL where Cypher's is []."""
    lines = [line + " SKIP 0" if line.startswith("WITH") and " ORDER BY " in line and "LIMIT" not in line
             else line for line in text.split("\n")]
    return re.sub(r"collect\((.*?)\) AS (\w+)", r"coalesce(collect(\1), []) AS \2", "\n".join(lines), flags=re.S)


@dataclass
class Workload:
    name: str
    dataset: str  # "agent" or "social"
    title: str
    cypher: str
    rewrites: dict[str, str] = field(default_factory=dict)
    unsupported: dict[str, str] = field(default_factory=dict)
    params: tuple[str, ...] = ()
    """Names of the dataset parameters the statement reads."""
    unordered: tuple[int, ...] = ()
    """Result columns holding lists whose order the statement leaves open (compared as sorted)."""
    sort_rows: bool = False
    """The statement leaves row order open: rows are compared sorted."""
    scores: tuple[int, ...] = ()
    """Result columns holding a system's own relevance score: compared between ours and the hand SQL, left
    out when a peer's answer is checked (its scoring differs), so peers are checked on the rest."""

    def statement(self, system: str) -> str:
        return self.rewrites.get(system, self.cypher)


# -- agent memory: the seed's reads ---------------------------------------------------------------------

RECALL = Workload(
    "recall", "agent", "seed `recall`",
    f"""{FIND_ENTITY}
MATCH (e)<-[:ABOUT]-(x:Fact|Decision)-[:FROM]->(:Message)-[:IN_SESSION]->(s:Session)
WHERE x.supersededAt IS NULL
RETURN labels(x)[0] AS kind, x.text AS memory, x.rationale AS because, s.id AS session,
       COLLECT {{ MATCH (x)-[:SUPERSEDES]->{{1,5}}(old)
                 RETURN old.text ORDER BY old.seq DESC }} AS replaced
ORDER BY x.seq, memory""",
    rewrites={
        # no label disjunction, no COLLECT {} subquery, no quantified path pattern: the label test moves to
        # WHERE, the subquery becomes OPTIONAL MATCH + an ordered collect, {1,5} becomes *1..5
        "falkordb": f"""{FIND_ENTITY}
MATCH (e)<-[:ABOUT]-(x)-[:FROM]->(:Message)-[:IN_SESSION]->(s:Session)
WHERE (x:Fact OR x:Decision) AND x.supersededAt IS NULL
OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old)
WITH x, s, old ORDER BY old.seq DESC
WITH x, s, collect(old.text) AS replaced
RETURN labels(x)[0] AS kind, x.text AS memory, x.rationale AS because, s.id AS session, replaced
ORDER BY x.seq, memory""",
        # no COLLECT {} subquery, no quantified path pattern
        "graphqlite": f"""{FIND_ENTITY}
MATCH (e)<-[:ABOUT]-(x:Fact|Decision)-[:FROM]->(:Message)-[:IN_SESSION]->(s:Session)
WHERE x.supersededAt IS NULL
OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old)
WITH x, s, old ORDER BY old.seq DESC
WITH x, s, collect(old.text) AS replaced
RETURN labels(x)[0] AS kind, x.text AS memory, x.rationale AS because, s.id AS session, replaced
ORDER BY x.seq, memory""",
        # label(x), lower(), a union of node tables as (x:Fact:Decision), no COLLECT {} subquery
        "kuzu": _kuzu(f"""{FIND_ENTITY_KUZU}
MATCH (e)<-[:ABOUT]-(x:Fact:Decision)-[:`FROM`]->(:Message)-[:IN_SESSION]->(s:Session)
WHERE x.supersededAt IS NULL
OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old)
WITH x, s, old ORDER BY old.seq DESC
WITH x, s, collect(old.text) AS replaced
RETURN label(x) AS kind, x.text AS memory, x.rationale AS because, s.id AS session, replaced
ORDER BY x.seq, memory"""),
    },
    params=("question",))

NEARBY = Workload(
    "nearby", "agent", "seed `nearby`",
    f"""{FIND_ENTITY}
MATCH (e)<-[:ABOUT]-(x)-[:ABOUT]->(o:Entity)
WHERE x.supersededAt IS NULL AND o <> e
MATCH (o)<-[:ABOUT]-(f:Fact)
WHERE f.supersededAt IS NULL AND NOT (f)-[:ABOUT]->(e)
RETURN DISTINCT o.name AS via, f.text AS fact
ORDER BY via, fact""",
    rewrites={
        # a pattern predicate is written as an EXISTS subquery; nodes compare by id
        "kuzu": f"""{FIND_ENTITY_KUZU}
MATCH (e)<-[:ABOUT]-(x)-[:ABOUT]->(o:Entity)
WHERE x.supersededAt IS NULL AND id(o) <> id(e)
MATCH (o)<-[:ABOUT]-(f:Fact)
WHERE f.supersededAt IS NULL AND NOT EXISTS {{ MATCH (f)-[:ABOUT]->(e) }}
RETURN DISTINCT o.name AS via, f.text AS fact
ORDER BY via, fact""",
    },
    params=("question",))

AS_OF = Workload(
    "as_of", "agent", "seed `as-of`",
    f"""{FIND_ENTITY}
WITH e, datetime($asOf) AS t
MATCH (e)<-[:ABOUT]-(x:Fact|Decision)
WHERE x.at <= t AND (x.supersededAt IS NULL OR x.supersededAt > t)
RETURN labels(x)[0] AS kind, x.text AS memory, x.at AS since
ORDER BY x.seq, memory""",
    rewrites={
        # no datetime(): times are stored as ISO-8601 UTC strings, which order as the instants do
        "falkordb": f"""{FIND_ENTITY}
WITH e, $asOf AS t
MATCH (e)<-[:ABOUT]-(x)
WHERE (x:Fact OR x:Decision) AND x.at <= t AND (x.supersededAt IS NULL OR x.supersededAt > t)
RETURN labels(x)[0] AS kind, x.text AS memory, x.at AS since
ORDER BY x.seq, memory""",
        # timestamp() for datetime(), label(x), a union of node tables
        "kuzu": f"""{FIND_ENTITY_KUZU}
WITH e, timestamp($asOf) AS t
MATCH (e)<-[:ABOUT]-(x:Fact:Decision)
WHERE x.at <= t AND (x.supersededAt IS NULL OR x.supersededAt > t)
RETURN label(x) AS kind, x.text AS memory, x.at AS since
ORDER BY x.seq, memory""",
    },
    params=("question", "asOf"))

_RECALL_TOOL_PORTABLE = """MATCH (e:Entity) WHERE {lower}($question) CONTAINS e.key
WITH e ORDER BY size(e.key) DESC LIMIT 1
OPTIONAL MATCH (e)<-[:ABOUT]-(f:Fact)-[:{FROM}]->(:Message)-[:IN_SESSION]->(s:Session) WHERE f.supersededAt IS NULL
WITH e, f, s ORDER BY f.seq, f.text
WITH e, collect(CASE WHEN f IS NULL THEN NULL ELSE {{fact: f.text, session: s.id}} END) AS facts
OPTIONAL MATCH (e)<-[:ABOUT]-(d:Decision)-[:{FROM}]->(:Message)-[:IN_SESSION]->(s2:Session)
WHERE d.supersededAt IS NULL
OPTIONAL MATCH (d)-[:SUPERSEDES*1..5]->(old)
WITH e, facts, d, s2, old ORDER BY old.seq DESC
WITH e, facts, d, s2, collect(old.text) AS replaced
WITH e, facts, d, s2, replaced ORDER BY d.seq, d.text
WITH e, facts, collect(CASE WHEN d IS NULL THEN NULL ELSE
  {{decision: d.text, rationale: d.rationale, session: s2.id, replaced: replaced}} END) AS decisions
OPTIONAL MATCH (e)<-[:ABOUT]-(h:Fact) WHERE h.supersededAt IS NOT NULL
WITH e, facts, decisions, h ORDER BY h.seq, h.text
WITH e, facts, decisions, collect(h.text) AS history
OPTIONAL MATCH (e)<-[:ABOUT]-(x)-[:ABOUT]->(o:Entity) WHERE x.supersededAt IS NULL AND {neq}
OPTIONAL MATCH (o)<-[:ABOUT]-(f2:Fact) WHERE f2.supersededAt IS NULL AND {not_about}
WITH e, facts, decisions, history,
  collect(DISTINCT CASE WHEN f2 IS NULL THEN NULL ELSE {{entity: o.name, fact: f2.text}} END) AS nearby
RETURN e.name AS entity, e.kind AS kind, facts, decisions, history, nearby"""

RECALL_TOOL = Workload(
    "recall_tool", "agent", "seed `recall-tool`",
    f"""{FIND_ENTITY}
RETURN e.name AS entity, e.kind AS kind,
  COLLECT {{ MATCH (e)<-[:ABOUT]-(f:Fact) WHERE f.supersededAt IS NULL
            MATCH (f)-[:FROM]->(:Message)-[:IN_SESSION]->(s)
            RETURN {{fact: f.text, session: s.id}} ORDER BY f.seq, f.text }} AS facts,
  COLLECT {{ MATCH (e)<-[:ABOUT]-(d:Decision) WHERE d.supersededAt IS NULL
            MATCH (d)-[:FROM]->(:Message)-[:IN_SESSION]->(s)
            RETURN {{decision: d.text, rationale: d.rationale, session: s.id,
                    replaced: COLLECT {{ MATCH (d)-[:SUPERSEDES]->{{1,5}}(old)
                                        RETURN old.text ORDER BY old.seq DESC }}}}
            ORDER BY d.seq, d.text }} AS decisions,
  COLLECT {{ MATCH (e)<-[:ABOUT]-(f:Fact) WHERE f.supersededAt IS NOT NULL
            RETURN f.text ORDER BY f.seq, f.text }} AS history,
  COLLECT {{ MATCH (e)<-[:ABOUT]-(x)-[:ABOUT]->(o:Entity)
            WHERE x.supersededAt IS NULL AND o <> e
            MATCH (o)<-[:ABOUT]-(f2:Fact) WHERE f2.supersededAt IS NULL
              AND NOT (f2)-[:ABOUT]->(e)
            RETURN DISTINCT {{entity: o.name, fact: f2.text}} }} AS nearby""",
    rewrites={
        # a pattern predicate inside COLLECT {} is refused ("pattern expressions are not allowed in RETURN
        # projections"): the same test as an EXISTS subquery
        "arcadedb": "",  # filled in below, from the statement itself
        # no COLLECT {} subqueries: each becomes OPTIONAL MATCH + an ordered collect, one after another
        "falkordb": _RECALL_TOOL_PORTABLE.format(lower="toLower", FROM="FROM", neq="o <> e",
                                                 not_about="NOT (f2)-[:ABOUT]->(e)"),
        "graphqlite": _RECALL_TOOL_PORTABLE.format(lower="toLower", FROM="FROM", neq="o <> e",
                                                   not_about="NOT (f2)-[:ABOUT]->(e)"),
        "kuzu": _kuzu(_RECALL_TOOL_PORTABLE.format(lower="lower", FROM="`FROM`", neq="id(o) <> id(e)",
                                                   not_about="NOT EXISTS { MATCH (f2)-[:ABOUT]->(e) }")),
    },
    params=("question",), unordered=(5,))

RECALL_TOOL.rewrites["arcadedb"] = RECALL_TOOL.cypher.replace("NOT (f2)-[:ABOUT]->(e)",
                                                             "NOT EXISTS { (f2)-[:ABOUT]->(e) }")

SLOTS = Workload(
    "slots", "agent", "seed `slots` (DISTINCT + ORDER BY)",
    """MATCH (x:Fact|Decision)
WHERE x.slot <> '' AND x.supersededAt IS NULL
RETURN DISTINCT x.slot AS slot
ORDER BY slot""",
    rewrites={
        # no label disjunction
        "falkordb": """MATCH (x)
WHERE (x:Fact OR x:Decision) AND x.slot <> '' AND x.supersededAt IS NULL
RETURN DISTINCT x.slot AS slot
ORDER BY slot""",
        "kuzu": """MATCH (x:Fact:Decision)
WHERE x.slot <> '' AND x.supersededAt IS NULL
RETURN DISTINCT x.slot AS slot
ORDER BY slot""",
    })

CHAINS = Workload(
    "chains_1_5", "agent", "`-[:SUPERSEDES]->{1,5}` from 100 facts",
    """UNWIND $items AS it
MATCH (x:Fact {seq: it.seq}) WHERE x.text = it.text
MATCH (x)-[:SUPERSEDES]->{1,5}(old)
RETURN count(*) AS paths, sum(old.seq) AS seqs""",
    rewrites={
        # no quantified path patterns: the same single-relationship repetition as *1..5
        "falkordb": """UNWIND $items AS it
MATCH (x:Fact {seq: it.seq}) WHERE x.text = it.text
MATCH (x)-[:SUPERSEDES*1..5]->(old)
RETURN count(*) AS paths, sum(old.seq) AS seqs""",
        # and a property map whose value comes from the UNWIND row is a scan per row: the test moves to WHERE
        "graphqlite": """UNWIND $items AS it
MATCH (x:Fact) WHERE x.seq = it.seq AND x.text = it.text
MATCH (x)-[:SUPERSEDES*1..5]->(old)
RETURN count(*) AS paths, sum(old.seq) AS seqs""",
        "kuzu": """UNWIND $items AS it
MATCH (x:Fact {seq: it.seq}) WHERE x.text = it.text
MATCH (x)-[:SUPERSEDES*1..5]->(old)
RETURN count(*) AS paths, sum(old.seq) AS seqs""",
    },
    params=("items",))

TOP_ENTITIES = Workload(
    "top_entities", "agent", "entities by current facts (aggregate, ORDER BY, LIMIT)",
    """MATCH (e:Entity)<-[:ABOUT]-(f:Fact)
WHERE f.supersededAt IS NULL
RETURN e.name AS entity, count(*) AS facts
ORDER BY facts DESC, entity LIMIT 10""")

# -- agent memory: full-text and vector top-k ------------------------------------------------------------
# Scores are each engine's own: BM25 as Lucene computes it (ours, ArcadeDB's Lucene index), Kuzu's BM25,
# RediSearch's TF-IDF (FalkorDB), which also divides a message's score by the distance between the query's
# words in it; cosine similarity or distance, in 64-bit or 32-bit floats. So a score column (`scores`) is
# compared between ours and the hand-written SQL, which compute the same thing the same way, and left out
# when a peer's answer is checked: peers are checked on the ranked ids alone. The data makes that ranking
# the same under every such scoring (datasets._search_terms and _embeddings; tests/bench checks it).

FULLTEXT_TOPK = Workload(
    "fulltext_topk", "agent", "full-text top 10 messages for two words (BM25, ORDER BY score, LIMIT)",
    """CALL db.index.fulltext.queryNodes('message_text', $fulltext) YIELD node, score
RETURN node.seq AS seq, score
ORDER BY score DESC, seq LIMIT 10""",
    rewrites={
        # FalkorDB's procedure finds the index by its label and reads RediSearch's syntax, whose terms are
        # ANDed: `rare|common` is the either-word query Lucene writes `rare common`
        "falkordb": """CALL db.idx.fulltext.queryNodes('Message', $fulltext_any) YIELD node, score
RETURN node.seq AS seq, score
ORDER BY score DESC, seq LIMIT 10""",
        # Kuzu's FTS extension: a table function, OR of the terms by default (conjunctive := false)
        "kuzu": """CALL QUERY_FTS_INDEX('Message', 'message_text', $fulltext)
RETURN node.seq AS seq, score
ORDER BY score DESC, seq LIMIT 10""",
        # Neo4j's procedure, the index named as ArcadeDB's SQL names it
        "arcadedb": """CALL db.index.fulltext.queryNodes('Message[text]', $fulltext) YIELD node, score
RETURN node.seq AS seq, score
ORDER BY score DESC, seq LIMIT 10""",
    },
    unsupported={"graphqlite": "no full-text index or search procedure (db.index.fulltext.queryNodes:"
                               " ProcedureNotFound); a CONTAINS scan would not rank"},
    params=("fulltext", "fulltext_any"), scores=(1,))

VECTOR_TOPK = Workload(
    "vector_topk", "agent", "vector top 10 facts nearest to a 64-dimension vector (cosine)",
    """CALL db.index.vector.queryNodes('fact_embedding', 10, $vector) YIELD node, score
RETURN node.text AS fact, score
ORDER BY score DESC, fact""",
    rewrites={
        # FalkorDB's procedure names the label and property; its score is the cosine distance, nearest first
        "falkordb": """CALL db.idx.vector.queryNodes('Fact', 'embedding', 10, vecf32($vector)) YIELD node, score
RETURN node.text AS fact, score
ORDER BY score, fact""",
        # Kuzu's VECTOR extension: a table function yielding the cosine distance
        "kuzu": """CALL QUERY_VECTOR_INDEX('Fact', 'fact_embedding', $vector, 10)
RETURN node.text AS fact, distance AS score
ORDER BY score, fact""",
        "arcadedb": """CALL db.index.vector.queryNodes('Fact[embedding]', 10, $vector) YIELD node, score
RETURN node.text AS fact, score
ORDER BY score DESC, fact""",
    },
    unsupported={"graphqlite": "no vector index, type or distance function; the cosine written in Cypher (reduce()"
                               " over each fact's 64 elements) answers right but took 45 s over agent-1k's 766 facts"},
    params=("vector",), scores=(1,))

# -- social graph ---------------------------------------------------------------------------------------

TWO_HOP = Workload(
    "two_hop", "social", "2-hop count from 100 people",
    """UNWIND $ids AS id
MATCH (a:Person {id: id})-[:KNOWS]->()-[:KNOWS]->(c)
RETURN count(*) AS paths, count(DISTINCT c) AS reached""",
    rewrites={
        # GraphQLite scans per row for a property map whose value comes from the UNWIND row: WHERE instead
        "graphqlite": """UNWIND $ids AS id
MATCH (a:Person) WHERE a.id = id
MATCH (a)-[:KNOWS]->()-[:KNOWS]->(c)
RETURN count(*) AS paths, count(DISTINCT c) AS reached""",
    },
    params=("ids",))

VAR_1_3 = Workload(
    "var_1_3", "social", "`-[:KNOWS*1..3]->` from 100 people",
    """UNWIND $ids AS id
MATCH (a:Person {id: id})-[:KNOWS*1..3]->(b)
RETURN count(*) AS paths, count(DISTINCT b) AS reached""",
    rewrites={
        # Kuzu's default for recursive patterns is walk semantics; Cypher's is trail (no relationship twice)
        "kuzu": """UNWIND $ids AS id
MATCH (a:Person {id: id})-[:KNOWS* TRAIL 1..3]->(b)
RETURN count(*) AS paths, count(DISTINCT b) AS reached""",
        # the property map in WHERE (see two_hop)
        "graphqlite": """UNWIND $ids AS id
MATCH (a:Person) WHERE a.id = id
MATCH (a)-[:KNOWS*1..3]->(b)
RETURN count(*) AS paths, count(DISTINCT b) AS reached""",
    },
    params=("ids",))

QPP_1_3 = Workload(
    "qpp_1_3", "social", "`-[:KNOWS]->{1,3}` from 100 people",
    """UNWIND $ids AS id
MATCH (a:Person {id: id})-[:KNOWS]->{1,3}(b)
RETURN count(*) AS paths, count(DISTINCT b) AS reached""",
    rewrites={
        # no quantified path patterns: *1..3 is the same repetition
        "falkordb": VAR_1_3.cypher,
        "graphqlite": VAR_1_3.rewrites["graphqlite"],
        "kuzu": VAR_1_3.rewrites["kuzu"],
    },
    params=("ids",))

SHORTEST = Workload(
    "shortest_path", "social", "`shortestPath` between 100 pairs",
    """UNWIND $pairs AS pair
MATCH (a:Person {id: pair[0]}), (b:Person {id: pair[1]})
MATCH p = shortestPath((a)-[:KNOWS*..6]->(b))
RETURN count(p) AS found, sum(length(p)) AS hops""",
    rewrites={
        # shortestPath only in WITH or RETURN
        "falkordb": """UNWIND $pairs AS pair
MATCH (a:Person {id: pair[0]}), (b:Person {id: pair[1]})
WITH shortestPath((a)-[:KNOWS*1..6]->(b)) AS p
RETURN count(p) AS found, sum(length(p)) AS hops""",
        # the property maps in WHERE (see two_hop)
        "graphqlite": """UNWIND $pairs AS pair
MATCH (a:Person) WHERE a.id = pair[0]
MATCH (b:Person) WHERE b.id = pair[1]
MATCH p = shortestPath((a)-[:KNOWS*..6]->(b))
RETURN count(p) AS found, sum(length(p)) AS hops""",
        # Kuzu's own shortest-path syntax
        "kuzu": """UNWIND $pairs AS pair
MATCH (a:Person {id: pair[0]}), (b:Person {id: pair[1]})
MATCH p = (a)-[:KNOWS* SHORTEST 1..6]->(b)
RETURN count(p) AS found, sum(length(p)) AS hops""",
    },
    params=("pairs",))

TOP_FOLLOWED = Workload(
    "top_followed", "social", "most-followed people (aggregate, ORDER BY, LIMIT)",
    """MATCH (p:Person)<-[:KNOWS]-()
RETURN p.id AS id, count(*) AS followers
ORDER BY followers DESC, id LIMIT 10""")

CITY_COUNTS = Workload(
    "city_counts", "social", "whom the under-30s know, by city (filter, aggregate, ORDER BY, LIMIT)",
    """MATCH (a:Person)-[:KNOWS]->(b:Person)
WHERE a.age < 30
RETURN b.city AS city, count(*) AS n
ORDER BY n DESC, city LIMIT 5""")

READS = [RECALL, NEARBY, RECALL_TOOL, AS_OF, SLOTS, CHAINS, TOP_ENTITIES, FULLTEXT_TOPK, VECTOR_TOPK,
         TWO_HOP, VAR_1_3, QPP_1_3, SHORTEST, TOP_FOLLOWED, CITY_COUNTS]
READS_BY_NAME = {w.name: w for w in READS}

# -- the seed's remember statements (writes), per session ----------------------------------------------

REMEMBER = [
    """MERGE (s:Session {id: $session}) ON CREATE SET s.startedAt = datetime($startedAt)
WITH s
UNWIND $messages AS msg
CREATE (m:Message {seq: msg.seq, text: msg.text,
                   at: datetime(msg.at)})-[:IN_SESSION]->(s)
WITH m, msg
UNWIND msg.entities AS ent
MERGE (e:Entity {key: toLower(ent.name)})
  ON CREATE SET e.name = ent.name, e.kind = ent.kind
MERGE (m)-[:MENTIONS]->(e)""",
    """UNWIND $messages AS msg
MATCH (m:Message {seq: msg.seq})
UNWIND msg.facts AS f
CREATE (x:Fact {text: f.text, slot: f.slot, seq: m.seq, at: m.at})-[:FROM]->(m)
WITH x, f
UNWIND f.about AS name
MATCH (e:Entity {key: toLower(name)})
MERGE (x)-[:ABOUT]->(e)""",
    """UNWIND $messages AS msg
MATCH (m:Message {seq: msg.seq})
UNWIND msg.decisions AS d
CREATE (x:Decision {text: d.text, rationale: d.rationale, slot: d.slot,
                    seq: m.seq, at: m.at})-[:FROM]->(m)
WITH x, d
UNWIND d.about AS name
MATCH (e:Entity {key: toLower(name)})
MERGE (x)-[:ABOUT]->(e)""",
    """UNWIND $messages AS msg
MATCH (new:Fact|Decision {seq: msg.seq})
WHERE new.slot <> ''
CALL (new) {
  MATCH (old:Fact|Decision {slot: new.slot})
  WHERE old.seq < new.seq AND labels(old) = labels(new)
  RETURN old ORDER BY old.seq DESC LIMIT 1
}
SET old.supersededAt = new.at
CREATE (new)-[:SUPERSEDES]->(old)""",
    """UNWIND $messages AS msg
MATCH (m:Message {seq: msg.seq})
RETURN m.seq AS seq,
       COUNT { (m)-[:MENTIONS]->() } AS entities,
       COUNT { (:Fact)-[:FROM]->(m) } AS facts,
       COUNT { (:Decision)-[:FROM]->(m) } AS decisions
ORDER BY seq""",
]

# Statement 4 without CALL subqueries or label disjunction, once per label (a fact only supersedes a fact):
# the newest older item is the one in the slot with the largest older seq. The generator never puts two
# items of one label and slot in one message, so that item is unique, as the seed's LIMIT 1 picks it.
_SUPERSEDE_BY_MAX = """UNWIND $messages AS msg
MATCH (new:{label} {{seq: msg.seq}})
WHERE new.slot <> ''
MATCH (old:{label} {{slot: new.slot}})
WHERE old.seq < new.seq
WITH new, max(old.seq) AS prev
MATCH (old:{label} {{slot: new.slot, seq: prev}})
SET old.supersededAt = new.at
CREATE (new)-[:SUPERSEDES]->(old)"""

_SUPERSEDE_GRAPHQLITE = """UNWIND $messages AS msg
MATCH (new:{label}) WHERE new.seq = msg.seq AND new.slot <> ''
MATCH (old:{label}) WHERE old.slot = new.slot AND old.seq < new.seq
WITH new, max(old.seq) AS prev
MATCH (old:{label}) WHERE old.slot = new.slot AND old.seq = prev
SET old.supersededAt = new.at
CREATE (new)-[:SUPERSEDES]->(old)"""

# Statement 5 without COUNT {} subqueries
_REPORT_PORTABLE = """UNWIND $messages AS msg
MATCH (m:Message {{seq: msg.seq}})
OPTIONAL MATCH (m)-[:MENTIONS]->(me)
WITH m, count(me) AS entities
OPTIONAL MATCH (f:Fact)-[:{FROM}]->(m)
WITH m, entities, count(f) AS facts
OPTIONAL MATCH (d:Decision)-[:{FROM}]->(m)
WITH m, entities, facts, count(d) AS decisions
RETURN m.seq AS seq, entities, facts, decisions
ORDER BY seq"""


_KUZU_ITEM_STEPS = [
    """UNWIND $messages AS msg
MATCH (m:Message) WHERE m.seq = msg.seq
UNWIND msg.{field} AS f
CREATE (x:{label} {{text: f.text, slot: f.slot, seq: msg.seq, at: timestamp(msg.at){extra}}})-[:`FROM`]->(m)""",
    """UNWIND $messages AS msg
UNWIND msg.{field} AS f
UNWIND f.about AS name
MATCH (x:{label}) WHERE x.seq = msg.seq AND x.text = f.text
MATCH (e:Entity) WHERE e.key = lower(name)
MERGE (x)-[:ABOUT]->(e)""",
]


def remember_statements(system: str) -> list[str]:
    """The seed's five remember statements as `system` runs them."""
    if system in ("ours", "baseline", "arcadedb"):
        return list(REMEMBER)
    first, facts, decisions = REMEMBER[0], REMEMBER[1], REMEMBER[2]
    supersede = [_SUPERSEDE_BY_MAX.format(label=label) for label in ("Fact", "Decision")]
    report = _REPORT_PORTABLE.format(FROM="FROM")
    if system == "falkordb":
        # no datetime(): times stay ISO-8601 strings
        first = first.replace("datetime($startedAt)", "$startedAt").replace("datetime(msg.at)", "msg.at")
    if system == "graphqlite":
        # property maps valued from the UNWIND row move to WHERE (see two_hop); MERGE keeps its map
        def where(text: str) -> str:
            return (text.replace("MATCH (m:Message {seq: msg.seq})", "MATCH (m:Message) WHERE m.seq = msg.seq")
                    .replace("MATCH (e:Entity {key: toLower(name)})", "MATCH (e:Entity) WHERE e.key = toLower(name)")
                    )
        facts, decisions, report = where(facts), where(decisions), where(report)
        supersede = [_SUPERSEDE_GRAPHQLITE.format(label=label) for label in ("Fact", "Decision")]
    if system == "kuzu":
        first = first.replace("datetime(", "timestamp(").replace("toLower(", "lower(")
        # after a CREATE, WITH ... UNWIND ... MATCH fails ("Cannot evaluate expression with type VARIABLE"),
        # and a matched node's property cannot be a CREATE's value ("... type PROPERTY"): each item statement
        # becomes two, one creating the items from the message's own values, one linking them to entities
        report = _REPORT_PORTABLE.format(FROM="`FROM`").replace(
            "MATCH (m:Message {seq: msg.seq})", "MATCH (m:Message) WHERE m.seq = msg.seq")
        items = [step.format(label=label, field=field, extra=extra)
                 for label, field, extra in (("Fact", "facts", ""),
                                             ("Decision", "decisions", ", rationale: f.rationale"))
                 for step in _KUZU_ITEM_STEPS]
        return [first, *items, *supersede, report]
    return [first, facts, decisions, *supersede, report]
