"""Every statement of the Threadline catalogue (the FalkorDB queries of
`shared/seeds/threadline-design.txt`, copied here verbatim) parses, binds and runs on the engine: the
index statements, the derived-edge statements, the tool queries and the memory and coordination writes,
over a small graph built to give each of them rows. A few answers are checked by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import engine
from engine.compile import bind
from engine.syntax.parser import parse

INDEXES = [
    'CREATE INDEX FOR (e:Entity) ON (e.key)',
    'CREATE INDEX FOR (c:Chunk) ON (c.key)',
    'CREATE INDEX FOR (p:Person) ON (p.login)',
    'CREATE INDEX FOR (t:Thread) ON (t.number, t.createdAt, t.state)',
    'CREATE INDEX FOR (d:Directory) ON (d.path)',
    'CREATE INDEX FOR (f:File) ON (f.path)',
    "CALL db.idx.fulltext.createNodeIndex('Entity', 'title', 'name', 'path', 'login', 'tag')",
    'CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) OPTIONS {dimension:256, '
    "similarityFunction:'cosine'}",
]

CATALOGUE = {
    'KNOWS (authored)': (
        'MATCH (p:Person)-[:AUTHORED]->(pr:PullRequest)-[:TOUCHED]->(:File)-[:IN_DIR*1..6]->(d:Directory) '
        'WHERE p.isBot = false AND pr.mergedAt IS NOT NULL WITH p, d, count(DISTINCT pr) AS authored, '
        'max(pr.mergedAt) AS last MERGE (p)-[k:KNOWS]->(d) SET k.authored = authored, k.authoredLastAt = '
        'last'),
    'KNOWS (reviewed)': (
        'MATCH '
        '(p:Person)-[rv:REVIEWED]->(pr:PullRequest)-[:TOUCHED]->(:File)-[:IN_DIR*1..6]->(d:Directory) '
        'WHERE p.isBot = false WITH p, d, count(DISTINCT pr) AS reviewed, max(rv.at) AS last MERGE '
        '(p)-[k:KNOWS]->(d) SET k.reviewed = reviewed, k.reviewedLastAt = last'),
    'KNOWS (lastAt)': (
        'MATCH (:Person)-[k:KNOWS]->(:Directory) SET k.authored = coalesce(k.authored, 0), k.reviewed = '
        'coalesce(k.reviewed, 0), k.lastAt = CASE WHEN coalesce(k.authoredLastAt, 0) >= '
        'coalesce(k.reviewedLastAt, 0) THEN k.authoredLastAt ELSE k.reviewedLastAt END'),
    'REVIEWS_FOR': (
        'MATCH (r:Person)-[rv:REVIEWED]->(pr:PullRequest)<-[:AUTHORED]-(a:Person) WHERE r.isBot = false '
        'AND a.isBot = false AND id(r) <> id(a) WITH r, a, count(rv) AS n MERGE (r)-[e:REVIEWS_FOR]->(a) '
        'SET e.count = n'),
    'CONTRIBUTES_TO (authored)': (
        'MATCH (p:Person)-[:AUTHORED]->(t:Thread)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false WITH p, r, '
        'sum(CASE WHEN t:PullRequest THEN 1 ELSE 0 END) AS prs, sum(CASE WHEN t:Issue THEN 1 ELSE 0 END) '
        'AS issues MERGE (p)-[c:CONTRIBUTES_TO]->(r) SET c.prs = prs, c.issues = issues'),
    'CONTRIBUTES_TO (reviews)': (
        'MATCH (p:Person)-[rv:REVIEWED]->(:PullRequest)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false WITH '
        'p, r, count(rv) AS n MERGE (p)-[c:CONTRIBUTES_TO]->(r) SET c.reviews = n, c.prs = '
        'coalesce(c.prs, 0), c.issues = coalesce(c.issues, 0)'),
    'HAS_CONTRIBUTOR': (
        'MATCH (p:Person)-[c:CONTRIBUTES_TO]->(r:Repo) WHERE coalesce(c.prs, 0) + coalesce(c.reviews, 0) '
        '>= 3 MERGE (r)-[h:HAS_CONTRIBUTOR]->(p) SET h.weight = coalesce(c.prs, 0) + coalesce(c.reviews, '
        '0)'),
    'CO_CHANGES': (
        'MATCH (pr:PullRequest)-[:TOUCHED]->(:File)-[:IN_DIR]->(d:Directory) WITH pr, collect(DISTINCT d) '
        'AS ds WHERE size(ds) > 1 AND size(ds) <= 25 UNWIND ds AS d1 UNWIND ds AS d2 WITH d1, d2, pr '
        'WHERE id(d1) < id(d2) WITH d1, d2, count(DISTINCT pr) AS n WHERE n >= 3 MERGE '
        '(d1)-[c:CO_CHANGES]->(d2) SET c.count = n'),
    'vectorEntry': (
        "CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($vec)) YIELD node, score MATCH "
        '(node)-[:PART_OF]->(n:Entity) RETURN n.key AS key, labels(n) AS labels, coalesce(n.title, '
        'n.name, n.tag, n.login, n.path, n.key) AS name, n.repo AS repo, 1 - min(score) AS similarity '
        'ORDER BY similarity DESC LIMIT $limit'),
    'fulltextEntry': (
        "CALL db.idx.fulltext.queryNodes('Entity', $text) YIELD node, score WITH node AS n, score WHERE "
        'NOT n:Label RETURN n.key AS key, labels(n) AS labels, coalesce(n.title, n.name, n.tag, n.login, '
        'n.path, n.key) AS name, n.repo AS repo, score ORDER BY score DESC LIMIT $limit'),
    'byKeys': (
        'MATCH (n:Entity) WHERE n.key IN $keys RETURN n.key AS key, labels(n) AS labels, '
        'coalesce(n.title, n.name, n.tag, n.login, n.path, n.key) AS name, n.repo AS repo'),
    'threadByNumber': (
        'MATCH (n:Thread {number: $number})-[:IN_REPO]->(r:Repo) WHERE $repo IS NULL OR toLower(r.name) = '
        'toLower($repo) RETURN n.key AS key, labels(n) AS labels, n.title AS name, r.fullName AS repo, '
        'n.state AS state'),
    'conceptMatch': (
        'MATCH (n:Concept) WHERE toLower(n.name) CONTAINS toLower($text) OR toLower(n.aliases) CONTAINS '
        'toLower($text) RETURN n.key AS key, labels(n) AS labels, n.name AS name, null AS repo LIMIT 3'),
    'details': (
        'MATCH (n:Entity {key: $key}) OPTIONAL MATCH (n)-[r]-(m:Entity) WITH n, type(r) AS rel, count(m) '
        'AS c RETURN n.key AS key, labels(n) AS labels, properties(n) AS props, collect({rel: rel, count: '
        'c}) AS degree'),
    'expand': (
        'MATCH (s:Entity {key: $key})-[r]-(n:Entity) WHERE (size($types) = 0 OR type(r) IN $types) AND '
        'coalesce(n.isBot, false) = false RETURN type(r) AS rel, id(startNode(r)) = id(s) AS outgoing, '
        'n.key AS key, labels(n) AS labels, coalesce(n.title, n.name, n.tag, n.login, n.path, n.key) AS '
        'name, coalesce(n.mergedAt, n.createdAt, n.publishedAt, n.lastSeenAt, 0) AS at ORDER BY at DESC '
        'LIMIT $limit'),
    'whoKnowsArea': (
        "MATCH (d:Directory) WHERE d.depth > 0 AND NOT d.path STARTS WITH '.' AND toLower(d.path) "
        'CONTAINS toLower($term) AND ($repo IS NULL OR toLower(d.repo) ENDS WITH toLower($repo)) WITH d '
        'ORDER BY d.depth ASC LIMIT 4 MATCH (p:Person)-[k:KNOWS]->(d) WITH p, d, k, (2 * k.authored + '
        'k.reviewed) AS weight, ($now - k.lastAt) / 86400.0 AS ageDays RETURN p.key AS key, p.login AS '
        'person, d.key AS area, d.path AS path, k.authored AS authored, k.reviewed AS reviewed, '
        'toInteger(ageDays) AS daysSinceLast, weight * exp(-ageDays / 180.0) AS score ORDER BY score DESC '
        'LIMIT 10'),
    'whoKnowsConcept': (
        'MATCH (c:Concept {key: $concept})<-[:MENTIONS]-(pr:PullRequest) WHERE pr.mergedAt IS NOT NULL '
        'AND ($repo IS NULL OR toLower(pr.repo) ENDS WITH toLower($repo)) MATCH '
        '(p:Person)-[r:AUTHORED|REVIEWED]->(pr) WHERE p.isBot = false WITH p, c, count(DISTINCT pr) AS '
        "prs, sum(CASE WHEN type(r) = 'AUTHORED' THEN 2 ELSE 1 END) AS weight, max(pr.mergedAt) AS last, "
        'collect(DISTINCT pr.key)[0..3] AS sample RETURN p.key AS key, p.login AS person, c.key AS area, '
        'prs, toInteger(($now - last) / 86400) AS daysSinceLast, weight * exp(-(($now - last) / 86400.0) '
        '/ 180.0) AS score, sample ORDER BY score DESC LIMIT 10'),
    'declaredOwners': (
        'MATCH (p:Person)-[o:DECLARED_OWNER]->(x:Entity) WHERE x.key IN $areas RETURN p.key AS key, '
        'p.login AS person, x.key AS area, o.pattern AS pattern'),
    'traceIssue': (
        'MATCH (i:Issue {key: $key}) OPTIONAL MATCH (fix:PullRequest)-[c:CLOSES]->(i) OPTIONAL MATCH '
        '(fix)-[:SHIPPED_IN]->(rel:Release) OPTIONAL MATCH (author:Person)-[:AUTHORED]->(fix) OPTIONAL '
        'MATCH (opener:Person)-[:AUTHORED]->(i) RETURN i.key AS issue, i.title AS title, i.state AS '
        'state, opener.login AS openedBy, fix.key AS fix, fix.title AS fixTitle, fix.mergedAt AS '
        'mergedAt, c.source AS linkSource, author.login AS fixAuthor, rel.key AS release, rel.tag AS tag, '
        'rel.publishedAt AS releasedAt'),
    'tracePr': (
        'MATCH (pr:PullRequest {key: $key}) OPTIONAL MATCH (pr)-[c:CLOSES]->(i:Issue) OPTIONAL MATCH '
        '(pr)-[s:SHIPPED_IN]->(rel:Release) OPTIONAL MATCH (author:Person)-[:AUTHORED]->(pr) OPTIONAL '
        'MATCH (rv:Person)-[r:REVIEWED]->(pr) RETURN pr.key AS pr, pr.title AS title, pr.state AS state, '
        'pr.mergedAt AS mergedAt, author.login AS author, collect(DISTINCT i.key) AS closes, '
        'collect(DISTINCT rel.key) AS releases, collect(DISTINCT rel.tag) AS tags, collect(DISTINCT '
        's.source) AS shipSource, collect(DISTINCT {login: rv.login, state: r.state}) AS reviewers'),
    'references': (
        'MATCH (t:Thread {key: $key})-[r:REFERENCES|CLOSES]-(o:Thread) RETURN type(r) AS rel, '
        'id(startNode(r)) = id(t) AS outgoing, o.key AS key, o.title AS name, o.repo AS repo, o.state AS '
        'state, coalesce(r.crossRepo, o.repo <> t.repo) AS crossRepo ORDER BY crossRepo DESC LIMIT 25'),
    'connect': (
        'MATCH (a:Entity {key: $a}), (b:Entity {key: $b}) WITH a, b MATCH p = '
        'allShortestPaths((a)-[:REFERENCES|CLOSES|AUTHORED|REVIEWED|TOUCHED|SHIPPED_IN|COMMENTED_ON|MENTIONS*..6]-(b)) '
        'RETURN [n IN nodes(p) | n.key] AS keys, [r IN relationships(p) | type(r)] AS rels LIMIT 3'),
    'impactOpenPrs': (
        "MATCH (d:Directory) WHERE d.depth > 0 AND NOT d.path STARTS WITH '.' AND toLower(d.path) "
        'CONTAINS toLower($term) AND ($repo IS NULL OR toLower(d.repo) ENDS WITH toLower($repo)) WITH d '
        'ORDER BY d.depth ASC LIMIT 3 MATCH (d)<-[:IN_DIR*1..6]-(f:File)<-[t:TOUCHED]-(pr:PullRequest) '
        "WHERE pr.state = 'OPEN' RETURN pr.key AS key, pr.title AS name, d.key AS areaKey, d.path AS "
        'area, count(DISTINCT f) AS files, pr.createdAt AS createdAt ORDER BY files DESC LIMIT 15'),
    'impactOpenIssues': (
        "MATCH (d:Directory) WHERE d.depth > 0 AND NOT d.path STARTS WITH '.' AND toLower(d.path) "
        'CONTAINS toLower($term) AND ($repo IS NULL OR toLower(d.repo) ENDS WITH toLower($repo)) WITH d '
        'ORDER BY d.depth ASC LIMIT 3 MATCH '
        '(d)<-[:IN_DIR*1..6]-(:File)<-[:TOUCHED]-(pr:PullRequest)-[:CLOSES|REFERENCES]-(i:Issue) WHERE '
        "i.state = 'OPEN' RETURN i.key AS key, i.title AS name, d.key AS areaKey, d.path AS area, "
        'count(DISTINCT pr) AS viaPrs ORDER BY viaPrs DESC LIMIT 10'),
    'coChanges': (
        "MATCH (d:Directory) WHERE d.depth > 0 AND NOT d.path STARTS WITH '.' AND toLower(d.path) "
        'CONTAINS toLower($term) AND ($repo IS NULL OR toLower(d.repo) ENDS WITH toLower($repo)) WITH d '
        'ORDER BY d.depth ASC LIMIT 3 MATCH (d)-[c:CO_CHANGES]-(o:Directory) RETURN o.key AS key, o.path '
        'AS name, d.key AS areaKey, o.repo AS repo, c.count AS together ORDER BY together DESC LIMIT 8'),
    'activity.AUTHORED': (
        'MATCH (p:Person)-[e:AUTHORED]->(t:Thread)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false AND ($repo '
        'IS NULL OR toLower(r.name) = toLower($repo)) AND t.createdAt >= $since AND t.createdAt < $until '
        "AND ($kind IS NULL OR ($kind = 'pr' AND t:PullRequest) OR ($kind = 'issue' AND t:Issue)) RETURN "
        'p.key AS key, p.login AS person, count(DISTINCT t) AS n, collect(t.key)[0..3] AS sample ORDER BY '
        'n DESC LIMIT $limit'),
    'activity.REVIEWED': (
        'MATCH (p:Person)-[e:REVIEWED]->(t:PullRequest)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false AND '
        '($repo IS NULL OR toLower(r.name) = toLower($repo)) AND t.createdAt >= $since AND t.createdAt < '
        '$until RETURN p.key AS key, p.login AS person, count(DISTINCT t) AS n, collect(t.key)[0..3] AS '
        'sample ORDER BY n DESC LIMIT $limit'),
    'activity.MERGED': (
        'MATCH (p:Person)-[e:MERGED]->(t:PullRequest)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false AND '
        '($repo IS NULL OR toLower(r.name) = toLower($repo)) AND t.mergedAt >= $since AND t.mergedAt < '
        '$until RETURN p.key AS key, p.login AS person, count(DISTINCT t) AS n, collect(t.key)[0..3] AS '
        'sample ORDER BY n DESC LIMIT $limit'),
    'activity.COMMENTED_ON': (
        'MATCH (p:Person)-[e:COMMENTED_ON]->(t:Thread)-[:IN_REPO]->(r:Repo) WHERE p.isBot = false AND '
        '($repo IS NULL OR toLower(r.name) = toLower($repo)) AND t.createdAt >= $since AND t.createdAt < '
        '$until RETURN p.key AS key, p.login AS person, sum(e.count) AS n, collect(t.key)[0..3] AS sample '
        'ORDER BY n DESC LIMIT $limit'),
    'activityInArea': (
        'MATCH (d:Directory) WHERE toLower(d.path) = toLower($area) AND ($repo IS NULL OR toLower(d.repo) '
        'ENDS WITH toLower($repo)) MATCH '
        '(d)<-[:IN_DIR*1..6]-(:File)<-[:TOUCHED]-(t:PullRequest)<-[e:AUTHORED|REVIEWED]-(p:Person) WHERE '
        'p.isBot = false AND t.mergedAt IS NOT NULL AND type(e) = $rel AND t.createdAt >= $since AND '
        't.createdAt < $until RETURN p.key AS key, p.login AS person, d.key AS area, count(DISTINCT t) AS '
        'n, collect(DISTINCT t.key)[0..3] AS sample ORDER BY n DESC LIMIT $limit'),
    'pageRankReviewers': (
        "CALL algo.pageRank('Person', 'REVIEWS_FOR') YIELD node, score WHERE node.isBot = false RETURN "
        'node.key AS key, node.login AS person, score ORDER BY score DESC LIMIT 10'),
    'betweennessBridges': (
        "CALL algo.betweenness({nodeLabels: ['Person', 'Repo'], relationshipTypes: ['CONTRIBUTES_TO', "
        "'HAS_CONTRIBUTOR']}) YIELD node, score WITH node, score WHERE node:Person MATCH "
        '(node)-[c:CONTRIBUTES_TO]->(r:Repo) RETURN node.key AS key, node.login AS person, score, '
        'collect(r.name) AS repos ORDER BY score DESC LIMIT 10'),
    'subsystems': (
        "CALL algo.labelPropagation({nodeLabels: ['Directory'], relationshipTypes: ['CO_CHANGES']}) YIELD "
        'node, communityId WITH communityId, collect(node) AS dirs WHERE size(dirs) >= 2 RETURN '
        "communityId, [d IN dirs | d.key][0..8] AS keys, [d IN dirs | d.repo + ':' + d.path][0..8] AS "
        'paths, size(dirs) AS size ORDER BY size DESC LIMIT 8'),
    'verifyPath': (
        'MATCH (a:Entity {key: $entry}), (b:Entity {key: $cited}) WITH a, b MATCH p = '
        'allShortestPaths((a)-[:AUTHORED|REVIEWED|MERGED|COMMENTED_ON|ASSIGNED_TO|TOUCHED|IN_DIR|CLOSES|REFERENCES|SHIPPED_IN|MENTIONS|DOCUMENTS|KNOWS|REVIEWS_FOR|CO_CHANGES|DECLARED_OWNER*..4]-(b)) '  # noqa: E501
        'RETURN length(p) AS hops, [n IN nodes(p) | n.key] AS keys, [r IN relationships(p) | type(r)] AS '
        'rels LIMIT 1'),
    'neighbourhood': (
        'MATCH (s:Entity {key: $key})-[r1]-(n1:Entity) WITH s, r1, n1 LIMIT 40 OPTIONAL MATCH '
        '(n1)-[r2]-(n2:Entity) WHERE n2 <> s WITH s, r1, n1, collect({r: type(r2), k: n2.key, out: '
        'id(startNode(r2)) = id(n1)})[0..4] AS hop2 RETURN n1.key AS key, type(r1) AS rel, '
        'id(startNode(r1)) = id(s) AS outgoing, hop2'),
    'triageIssue': (
        'MATCH (i:Issue {key: $key}) OPTIONAL MATCH (i)-[:HAS_LABEL]->(l:Label) OPTIONAL MATCH '
        '(c:Chunk)-[:PART_OF]->(i) WITH i, collect(DISTINCT l.name) AS labels, collect(c)[0] AS c RETURN '
        'i.key AS key, i.title AS title, i.state AS state, i.summary AS summary, labels, c.embedding AS e'),
    'triageSimilar': (
        "CALL db.idx.vector.queryNodes('Chunk', 'embedding', 24, vecf32($vec)) YIELD node, score MATCH "
        '(node)-[:PART_OF]->(t:Thread) WHERE t.key <> $key RETURN t.key AS key, t.title AS name, t.state '
        'AS state, 1 - min(score) AS similarity ORDER BY similarity DESC LIMIT 6'),
    'triageOwners': (
        'MATCH (t:Thread) WHERE t.key IN $similar OPTIONAL MATCH (fix:PullRequest)-[:CLOSES]->(t) WITH '
        'CASE WHEN fix IS NOT NULL THEN fix WHEN t:PullRequest THEN t ELSE null END AS p WITH p WHERE p '
        'IS NOT NULL MATCH (p)-[:TOUCHED]->(:File)-[:IN_DIR]->(d:Directory) WITH d, count(DISTINCT p) AS '
        'n ORDER BY n DESC LIMIT 3 MATCH (person:Person)-[k:KNOWS]->(d) WHERE person.isBot = false RETURN '
        'person.key AS key, person.login AS person, d.key AS area, d.path AS path, k.authored AS '
        'authored, k.reviewed AS reviewed ORDER BY k.authored * 2 + k.reviewed DESC LIMIT 6'),
    'triageLabels': (
        'MATCH (t:Thread)-[:HAS_LABEL]->(l:Label) WHERE t.key IN $similar RETURN l.name AS label, '
        'count(t) AS n ORDER BY n DESC LIMIT 4'),
    'vectorRag': (
        "CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($vec)) YIELD node, score MATCH "
        '(node)-[:PART_OF]->(n:Entity) RETURN node.key AS chunk, node.text AS text, n.key AS key, '
        'coalesce(n.title, n.name, n.tag, n.login, n.path, n.key) AS name, n.author AS author, n.state AS '
        'state, n.createdAt AS createdAt, 1 - score AS score ORDER BY score DESC'),
    'writeTurn': (
        'MERGE (s:Session {id: $sid}) ON CREATE SET s.startedAt = $now CREATE (t:Turn {id: $tid, '
        'question: $q, answer: $a, at: $now, verified: $verified, total: $total, mode: $mode, traceId: '
        '$traceId}) MERGE (s)-[:HAS_TURN]->(t) WITH s, t OPTIONAL MATCH (s)-[:HAS_TURN]->(prev:Turn) '
        'WHERE prev.id <> t.id WITH t, prev ORDER BY prev.at DESC LIMIT 1 FOREACH (_ IN CASE WHEN prev IS '
        'NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(t)) WITH t UNWIND $calls AS c CREATE '
        '(tc:ToolCall {tool: c.tool, step: c.step, ms: c.ms, rows: c.rows, cypher: c.cypher}) MERGE '
        '(t)-[:RAN]->(tc) FOREACH (k IN c.refs | MERGE (r:Ref {key: k}) MERGE (tc)-[:TOUCHED_REF]->(r))'),
    'writeFact': (
        'MATCH (t:Turn {id: $tid}) MERGE (f:Fact {text: $text}) ON CREATE SET f.kind = $kind, f.at = '
        '$now, f.confidence = 1.0 MERGE (f)-[:LEARNED_FROM]->(t) WITH f UNWIND $refs AS k MERGE (r:Ref '
        '{key: k}) MERGE (f)-[:ABOUT]->(r)'),
    'readFacts': (
        'MATCH (f:Fact) RETURN f.text AS text, f.kind AS kind, f.at AS at ORDER BY f.at DESC LIMIT 12'),
    'previousTurn': (
        'MATCH (:Session {id: $sid})-[:HAS_TURN]->(t:Turn) OPTIONAL MATCH '
        '(t)-[:RAN]->(:ToolCall)-[:TOUCHED_REF]->(r:Ref) WITH t, collect(DISTINCT r.key)[0..10] AS refs '
        'RETURN t.question AS question, t.at AS at, refs ORDER BY at DESC LIMIT 1'),
    'history': (
        'MATCH (s:Session)-[:HAS_TURN]->(t:Turn) OPTIONAL MATCH (t)-[:RAN]->(tc:ToolCall) WITH s, t, '
        'count(tc) AS calls RETURN s.id AS session, t.id AS id, t.question AS question, t.at AS at, '
        't.verified AS verified, t.total AS total, t.traceId AS traceId, calls ORDER BY at DESC LIMIT 20'),
    'recallPlaybook': (
        "CALL db.idx.vector.queryNodes('Playbook', 'embedding', 3, vecf32($vec)) YIELD node, score WITH "
        'node, 1 - score AS similarity WHERE similarity > 0.86 AND node.successes >= 1 RETURN '
        'node.questionType AS questionType, node.toolSequence AS toolSequence, node.successes AS '
        'successes, similarity ORDER BY similarity DESC LIMIT 1'),
    'writePlaybook': (
        'MERGE (p:Playbook {questionType: $qt, toolSequence: $seq}) ON CREATE SET p.uses = 0, p.successes '
        '= 0, p.embedding = vecf32($vec), p.example = $q, p.createdAt = $now SET p.uses = p.uses + 1, '
        'p.successes = p.successes + $ok, p.lastAt = $now'),
    'writeCoordination': (
        "MERGE (inv:Agent {name: 'investigator'}) MERGE (ver:Agent {name: 'verifier'}) CREATE (task:Task "
        '{id: $traceId, question: $q, status: $status, at: $now}) CREATE (inv)-[:WORKED_ON]->(task) WITH '
        'inv, ver, task UNWIND $claims AS c CREATE (cl:Claim {key: c.key, ok: c.ok, hops: c.hops, '
        'observed: c.observed}) CREATE (inv)-[:POSTED]->(cl)-[:FOR]->(task) CREATE (cl)-[:CHECKED_BY '
        "{verdict: CASE WHEN c.ok THEN 'verified' ELSE 'rejected' END, pathLength: c.hops}]->(ver)"),
    'writeHandoff': (
        "MATCH (task:Task {id: $traceId}) CREATE (task)-[:HANDED_OFF {from: 'verifier', to: "
        "'investigator', reason: $reason, at: $now}]->(task)"),
    'saveTrace': (
        'CREATE (t:Trace {id: $id, question: $q, mode: $mode, at: $now, showcase: $showcase, verified: '
        '$verified, total: $total, json: $json})'),
    'getTrace': (
        'MATCH (t:Trace {id: $id}) RETURN t.json AS json'),
    'listShowcase': (
        'MATCH (t:Trace) WHERE t.showcase = true RETURN t.id AS id, t.question AS question, t.mode AS '
        'mode, t.verified AS verified, t.total AS total, t.at AS at ORDER BY t.id ASC'),
}

NOW = 1_764_547_200
DAY = 86_400


def _vector(seed: int) -> list[float]:
    return np.random.default_rng(seed).normal(size=256).round(4).tolist()


PARAMS = {
    "k": 8, "vec": _vector(1), "limit": 10, "text": "vector", "keys": ["issue:o/r#1", "person:ann"],
    "number": 1, "repo": None, "key": "issue:o/r#1", "types": [], "term": "index", "now": NOW,
    "concept": "concept:vector-index", "areas": ["dir:o/r:src/index"], "a": "person:ann", "b": "issue:o/r#1",
    "since": 0, "until": NOW, "kind": None, "area": "src/index", "rel": "AUTHORED", "entry": "person:ann",
    "cited": "release:o/r@v1", "similar": ["issue:o/r#1", "pr:o/r#2"], "sid": "s1", "tid": "t2", "q": "who?",
    "a_": None, "verified": True, "total": 3, "mode": "agent", "traceId": "tr1",
    "calls": [{"tool": "expand", "step": 1, "ms": 12, "rows": 3, "cypher": "MATCH ...", "refs": ["issue:o/r#1"]}],
    "refs": ["issue:o/r#1"], "qt": "who_knows", "seq": ["find_entities", "who_knows"], "ok": 1, "status": "done",
    "claims": [{"key": "issue:o/r#1", "ok": True, "hops": 2, "observed": True}], "reason": "not reachable",
    "id": "tr1", "showcase": True, "json": "{}",
}

GRAPH = """
CREATE (repo:Entity:Repo {key: 'repo:o/r', name: 'r', fullName: 'o/r', language: 'C', stars: 10}),
  (ann:Entity:Person {key: 'person:ann', login: 'ann', isBot: false}),
  (bob:Entity:Person {key: 'person:bob', login: 'bob', isBot: false}),
  (bot:Entity:Person {key: 'person:bot', login: 'bot', isBot: true}),
  (i1:Entity:Thread:Issue {key: 'issue:o/r#1', number: 1, title: 'Vector index crash', state: 'OPEN',
     createdAt: $now - 40 * $day, repo: 'o/r', summary: 'crash'}),
  (p2:Entity:Thread:PullRequest {key: 'pr:o/r#2', number: 2, title: 'Fix vector index', state: 'MERGED',
     createdAt: $now - 30 * $day, mergedAt: $now - 20 * $day, repo: 'o/r'}),
  (p3:Entity:Thread:PullRequest {key: 'pr:o/r#3', number: 3, title: 'Index docs', state: 'OPEN',
     createdAt: $now - 5 * $day, repo: 'o/r'}),
  (root:Entity:Directory {key: 'dir:o/r:src', path: 'src', depth: 1, repo: 'o/r'}),
  (idx:Entity:Directory {key: 'dir:o/r:src/index', path: 'src/index', depth: 2, repo: 'o/r'}),
  (util:Entity:Directory {key: 'dir:o/r:src/util', path: 'src/util', depth: 2, repo: 'o/r'}),
  (f1:Entity:File {key: 'file:o/r:src/index/x.c', path: 'src/index/x.c', ext: 'c', depth: 3}),
  (f2:Entity:File {key: 'file:o/r:src/util/y.c', path: 'src/util/y.c', ext: 'c', depth: 3}),
  (rel:Entity:Release {key: 'release:o/r@v1', tag: 'v1', publishedAt: $now - 10 * $day}),
  (bug:Entity:Label {key: 'label:o/r:bug', name: 'bug'}),
  (concept:Entity:Concept {key: 'concept:vector-index', name: 'vector index', aliases: 'hnsw, knn'}),
  (c1:Chunk {key: 'chunk:issue:o/r#1:0', text: 'crash in the vector index', kind: 'body', embedding: vecf32($v1)}),
  (c2:Chunk {key: 'chunk:pr:o/r#2:0', text: 'fix the vector index', kind: 'body', embedding: vecf32($v2)}),
  (c1)-[:PART_OF]->(i1), (c2)-[:PART_OF]->(p2),
  (i1)-[:IN_REPO]->(repo), (p2)-[:IN_REPO]->(repo), (p3)-[:IN_REPO]->(repo),
  (ann)-[:AUTHORED]->(p2), (bob)-[:AUTHORED]->(i1), (ann)-[:AUTHORED]->(p3), (bot)-[:AUTHORED]->(p3),
  (bob)-[:REVIEWED {state: 'APPROVED', at: $now - 21 * $day}]->(p2), (bob)-[:MERGED]->(p2),
  (ann)-[:COMMENTED_ON {count: 2}]->(i1),
  (p2)-[:CLOSES {source: 'closingReference'}]->(i1), (p3)-[:REFERENCES {crossRepo: false, source: 'body'}]->(i1),
  (p2)-[:SHIPPED_IN {source: 'notes'}]->(rel),
  (p2)-[:TOUCHED {additions: 10, deletions: 2}]->(f1), (p2)-[:TOUCHED {additions: 1, deletions: 0}]->(f2),
  (p3)-[:TOUCHED {additions: 5, deletions: 5}]->(f1),
  (f1)-[:IN_DIR]->(idx), (f2)-[:IN_DIR]->(util), (idx)-[:IN_DIR]->(root), (util)-[:IN_DIR]->(root),
  (i1)-[:HAS_LABEL]->(bug), (p2)-[:MENTIONS]->(concept), (i1)-[:MENTIONS]->(concept),
  (bob)-[:DECLARED_OWNER {pattern: 'src/index/'}]->(idx)
"""

PLAYBOOK_INDEX = ("CREATE VECTOR INDEX FOR (p:Playbook) ON (p.embedding) OPTIONS {dimension: 256, "
                  "similarityFunction: 'cosine'}")
"""The shared graph's own vector index (the design names it, not its statement)."""


def _connect() -> engine.Connection:
    return engine.connect(":memory:")


@pytest.fixture(scope="module")
def db():
    """The small graph with the indexes and the derived edges, as the loader leaves it."""
    with _connect() as connection:
        for statement in (*INDEXES, PLAYBOOK_INDEX):
            connection.execute(statement)
        connection.execute(GRAPH, {"now": NOW, "day": DAY, "v1": _vector(1), "v2": _vector(2)})
        for name in DERIVED:
            connection.execute(CATALOGUE[name], PARAMS)
        yield connection


DERIVED = ("KNOWS (authored)", "KNOWS (reviewed)", "KNOWS (lastAt)", "REVIEWS_FOR", "CONTRIBUTES_TO (authored)",
           "CONTRIBUTES_TO (reviews)", "HAS_CONTRIBUTOR", "CO_CHANGES")
WRITES = ("writeTurn", "writeFact", "writePlaybook", "writeCoordination", "writeHandoff", "saveTrace")


@pytest.mark.parametrize("statement", [*INDEXES, *CATALOGUE.values()], ids=[*(f"index{i}" for i in range(len(INDEXES))),
                                                                            *CATALOGUE])
def test_every_statement_parses_and_binds(statement: str) -> None:
    with _connect() as db:
        bind(parse(statement), PARAMS, db._store.catalog, db.procedures)


@pytest.mark.parametrize("name", [name for name in CATALOGUE if name not in DERIVED and name not in WRITES])
def test_every_query_runs(db, name: str) -> None:
    db.execute(CATALOGUE[name], PARAMS, read_only=True)


def test_the_writes_run_in_order() -> None:
    with _connect() as db:
        db.execute(PLAYBOOK_INDEX)
        db.execute(CATALOGUE["writeTurn"], {**PARAMS, "tid": "t1", "now": NOW - 60})
        db.execute(CATALOGUE["writeTurn"], PARAMS)
        for name in WRITES[1:]:
            db.execute(CATALOGUE[name], PARAMS)
        assert db.execute("MATCH (:Turn {id: 't1'})-[:NEXT]->(t:Turn) RETURN t.id").fetchall() == [("t2",)]
        assert db.execute(CATALOGUE["previousTurn"], PARAMS).fetchall() == [("who?", NOW, ["issue:o/r#1"])]
        assert db.execute(CATALOGUE["readFacts"], PARAMS).fetchall() == [("vector", None, NOW)]
        playbook = db.execute(CATALOGUE["recallPlaybook"], PARAMS).fetchall()
        assert playbook == [("who_knows", ["find_entities", "who_knows"], 1, pytest.approx(1.0))]
        assert db.execute(CATALOGUE["getTrace"], PARAMS).fetchall() == [("{}",)]
        assert db.execute("MATCH (t:Task)-[h:HANDED_OFF]->(t) RETURN h.reason").fetchall() == [("not reachable",)]


def test_derived_edges(db) -> None:
    knows = db.execute("MATCH (p:Person)-[k:KNOWS]->(d:Directory) RETURN p.login, d.path, k.authored, k.reviewed,"
                       " k.lastAt ORDER BY p.login, d.path").fetchall()
    merged, reviewed = NOW - 20 * DAY, NOW - 21 * DAY
    assert knows == [("ann", "src", 1, 0, merged), ("ann", "src/index", 1, 0, merged),
                     ("ann", "src/util", 1, 0, merged), ("bob", "src", 0, 1, reviewed),
                     ("bob", "src/index", 0, 1, reviewed), ("bob", "src/util", 0, 1, reviewed)]
    assert db.execute("MATCH (a)-[e:REVIEWS_FOR]->(b) RETURN a.login, b.login, e.count").fetchall() == [
        ("bob", "ann", 1)]
    assert db.execute("MATCH (p)-[c:CONTRIBUTES_TO]->(r) RETURN p.login, c.prs, c.issues, c.reviews"
                      " ORDER BY p.login").fetchall() == [("ann", 2, 0, None), ("bob", 0, 1, 1)]


def test_who_knows_area_decays_with_age(db) -> None:
    rows = db.execute(CATALOGUE["whoKnowsArea"], PARAMS).fetchall()
    assert [(row[1], row[3]) for row in rows] == [("ann", "src/index"), ("bob", "src/index")]
    assert rows[0][7] == pytest.approx(2 * math.exp(-20 / 180))
    assert rows[0][6] == 20


def test_connect_and_verify_path(db) -> None:
    assert db.execute(CATALOGUE["connect"], PARAMS).fetchall() == [
        (["person:ann", "issue:o/r#1"], ["COMMENTED_ON"])]
    two_hops = db.execute(CATALOGUE["connect"], {**PARAMS, "b": "release:o/r@v1"}).fetchall()
    assert two_hops == [(["person:ann", "pr:o/r#2", "release:o/r@v1"], ["AUTHORED", "SHIPPED_IN"])]
    assert db.execute(CATALOGUE["verifyPath"], PARAMS).fetchall() == [
        (2, ["person:ann", "pr:o/r#2", "release:o/r@v1"], ["AUTHORED", "SHIPPED_IN"])]


def test_vector_entry_finds_the_nearest_chunks_thread(db) -> None:
    rows = db.execute(CATALOGUE["vectorEntry"], PARAMS).fetchall()
    assert rows[0][0] == "issue:o/r#1" and rows[0][4] == pytest.approx(1.0, abs=1e-6)
    similar = db.execute(CATALOGUE["triageSimilar"], {**PARAMS, "key": "issue:o/r#1"}).fetchall()
    assert [row[0] for row in similar] == ["pr:o/r#2"]


def test_rank_queries(db) -> None:
    assert [row[1] for row in db.execute(CATALOGUE["pageRankReviewers"], PARAMS).fetchall()] == ["ann", "bob"]
    bridges = db.execute(CATALOGUE["betweennessBridges"], PARAMS).fetchall()
    assert sorted((row[1], row[2]) for row in bridges) == [("ann", 0.0), ("bob", 0.0)]
    assert db.execute(CATALOGUE["subsystems"], PARAMS).fetchall() == []


def test_expand_and_neighbourhood_use_start_node(db) -> None:
    rows = db.execute(CATALOGUE["expand"], {**PARAMS, "key": "pr:o/r#2"}).fetchall()
    assert ("CLOSES", True, "issue:o/r#1") in [row[:3] for row in rows]
    assert ("AUTHORED", False, "person:ann") in [row[:3] for row in rows]
    hood = db.execute(CATALOGUE["neighbourhood"], {**PARAMS, "key": "release:o/r@v1"}).fetchall()
    assert [row[:3] for row in hood] == [("pr:o/r#2", "SHIPPED_IN", False)]
