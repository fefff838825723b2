"""Build the data blocks of cookbook/03-team-knowledge-graph.md, deterministically.

The dataset is shaped like GitHub's: repositories, people (with bots), issues, pull requests with their
reviews and touched files, directories, releases, labels, concepts, docs, and chunks with embeddings.

- One repository, `teamgraph/cookbook`, is this repository's own history: every commit up to `PIN` becomes
  a merged pull request with the files it touched (`git log --numstat`). The history is read once into
  `team_graph_history.json`, next to this script, so the build needs no git and no full clone
  (`--refresh-history` reads it again, always up to `PIN`).
- The history has one author. The page needs a team, so each commit is attributed to one of a few invented
  people by the areas of the tree it touches (`AREAS`); a commit that no one's area covers at least half of
  stays with the real author, `maintainers`. Reviews, comments, issues, releases, the two other
  repositories and the bots are invented here, from fixed tables and a hash of fixed strings: no randomness
  and no clock.
- Embeddings are not a model's. Each is 16 numbers made from the text by feature hashing: every word adds
  ±1 to one of 16 dimensions chosen by its SHA-256, then the vector is scaled to length 1. Texts that share
  words point the same way, which is all the page's vector queries need.

`python cookbook/scripts/team_graph.py` rewrites the contents of the page's ```` ```json data=NAME ````
fences in place and leaves every other byte; `--check` exits 1 when a block differs instead.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAGE = HERE.parent / "03-team-knowledge-graph.md"
HISTORY = HERE / "team_graph_history.json"

PIN = "accac5d"  # the last commit read; the history file keeps its full id
OWNER = "teamgraph"
HOME = f"{OWNER}/cookbook"
DOCS = f"{OWNER}/docs-site"
BENCH = f"{OWNER}/vector-bench"
NOW = 1796169600  # 2026-12-02T00:00:00Z: "now" for every query that ages activity
DAY = 86400
DIMENSIONS = 16

REPOS = [
    {"fullName": HOME, "name": "cookbook", "language": "Python", "stars": 42},
    {"fullName": DOCS, "name": "docs-site", "language": "Markdown", "stars": 9},
    {"fullName": BENCH, "name": "vector-bench", "language": "Python", "stars": 17},
]

# Who works where in teamgraph/cookbook: path prefixes. A commit goes to the person covering most of its
# files when that is at least half of them; otherwise it stays with the real author.
AREAS = {
    "amara": ["engine/sqlgen/", "engine/execute/", "engine/plan/", "engine/storage/", "engine/procedures.py",
              "engine/connection.py"],
    "bodhi": ["engine/syntax/", "engine/semantic/", "engine/temporal/", "tests/engine/", "engine/compile.py",
              "engine/errors.py", "engine/values.py", "engine/sqlgen/temporal.py", "engine/sqlgen/runtime_temporal.py"],
    "chen": ["runner/", "tests/runner/"],
    "dagny": ["docs/", "cookbook/", "README.md", "mkdocs.yml"],
    "emeka": ["tests/tck/", "tests/conformance/", "snapshots/"],
}
REAL_AUTHOR = "maintainers"
OUTSIDERS = ["fern", "gus"]  # people seen only in the two invented repositories
BOTS = ["dependabot[bot]", "github-actions[bot]"]
CODEOWNERS = [("/engine/sqlgen/", "amara"), ("/engine/syntax/", "bodhi"), ("/runner/", "chen"),
              ("/docs/", "dagny"), ("/tests/tck/", "emeka")]

LABELS = {"bug": "d73a4a", "enhancement": "a2eeef", "documentation": "0075ca", "performance": "fbca04",
          "dependencies": "0366d6"}
LABEL_WORDS = [("documentation", r"\b(adr|adrs|readme|docs?|mkdocs|guide)\b"),
               ("performance", r"\b(faster|fast paths|exponential|hash join|nested loop|inlined|set-based)\b"),
               ("bug", r"\b(crash|instead of a silent|clean error|no overflow|fix|fixes)\b")]

# The fixed concept dictionary (no model): a text mentions a concept when it contains its name or an alias.
CONCEPTS = [
    ("vector-index", "vector index", "vector, embedding, vecf32, similarity, nearest"),
    ("full-text", "full-text search", "fulltext, full text, text search"),
    ("temporal", "temporal values", "temporal, datetime, time zone, duration"),
    ("tck", "openCypher TCK", "tck, scenario"),
    ("mcp", "MCP tools", "mcp, agent, serve"),
    ("snapshots", "page snapshots", "snapshot, regen"),
    ("parser", "Cypher parser", "parser, tokenizer, syntax tree"),
    ("paths", "shortest paths", "shortest, path mode, quantified path, variable-length"),
    ("subqueries", "subqueries", "subquery, call (x), count {, collect {"),
    ("writes", "write semantics", "foreach, set runs, merge, write semantics, create inserts"),
    ("preview", "docs preview", "mkdocs, preview"),
    ("algorithms", "graph algorithms", "pagerank, betweenness, label propagation, community"),
]

# Issues of teamgraph/cookbook, invented. `fix` names the commit (by the start of its subject) whose pull
# request closes the issue; `refs` names commits whose pull requests mention it; `open` issues have no fix.
HOME_ISSUES = [
    {"id": "deep-nesting", "title": "Deeply nested expressions crash the parser",
     "body": "A generated query with 5,000 nested parentheses ends the process with RecursionError instead "
             "of a syntax error. The tokenizer and the parser should refuse huge input cleanly.",
     "author": "emeka", "labels": ["bug"], "fix": "Huge input is a syntax error", "lead": 2},
    {"id": "macro-blowup", "title": "Compiling nested CASE expressions takes exponential time",
     "body": "Each level of a nested dynamic expression doubles the SQL the generator writes: twelve levels "
             "take a minute to compile. The heavy macro arguments should be evaluated once.",
     "author": "bodhi", "labels": ["bug", "performance"], "fix": "Evaluate heavy macro arguments once",
     "lead": 5},
    {"id": "db-open", "title": "The runner says nothing when the database file cannot be opened",
     "body": "cookbook run --db on a directory prints no error and every cell is skipped. It should say "
             "which file it could not open.",
     "author": "dagny", "labels": ["bug"], "fix": "Runner: show a database that cannot be opened", "lead": 1},
    {"id": "foreach", "title": "FOREACH runs its updates one row at a time",
     "body": "FOREACH over a list of 10k elements issues 10k statements. The inner updates could run "
             "set-based over every (row, element) pair.",
     "author": "amara", "labels": ["performance", "enhancement"], "fix": "FOREACH: the inner updates run",
     "lead": 8},
    {"id": "time-zones", "title": "Datetime properties lose their time zone when stored",
     "body": "A datetime with a named time zone comes back with an offset only after it is stored as a "
             "property. Temporal property columns should keep the zone.",
     "author": "chen", "labels": ["bug"], "fix": "Temporal property columns are typed", "lead": 3},
    {"id": "hash-join", "title": "UNWIND then MATCH on a property plans a nested loop join",
     "body": "Loading 100k relationships with UNWIND $rows MATCH (a {id: r.src}) takes minutes: DuckDB "
             "cannot see the equality behind the coalesce wrapper.",
     "author": "amara", "labels": ["performance"], "fix": "Pattern property equality without coalesce",
     "lead": 4},
    {"id": "error-cells", "title": "Pages cannot show the error a query is meant to raise",
     "body": "Conformance pages need cells that must fail, with the error kind and message recorded in the "
             "page, and a diff when another error or none is raised.",
     "author": "emeka", "labels": ["enhancement"], "fix": "Error cells: a cell marked", "lead": 6},
    {"id": "adr", "title": "Write down the engine's founding decisions",
     "body": "Why DuckDB, why one clause at a time, why MERGE is set-based: record each decision as an ADR "
             "with the measurements behind it.",
     "author": "maintainers", "labels": ["documentation"], "fix": "ADRs 0001-0007", "lead": 2},
    {"id": "vector", "title": "Vector indexes for the team graph page",
     "body": "The team graph page needs CREATE VECTOR INDEX, vecf32() and db.idx.vector.queryNodes so that "
             "similarity search finds the entry nodes of a question.",
     "author": "dagny", "labels": ["enhancement"], "open": True, "age": 6},
    {"id": "fulltext", "title": "Full-text search over entity titles and names",
     "body": "find_entities falls back to a full-text query over titles, names, paths, logins and tags: "
             "db.idx.fulltext.createNodeIndex and db.idx.fulltext.queryNodes.",
     "author": "chen", "labels": ["enhancement"], "open": True, "age": 5},
    {"id": "dup-paths", "title": "allShortestPaths returns duplicate rows over several relationship types",
     "body": "With a type disjunction in the pattern the same shortest path comes back twice when two "
             "relationship types connect the same pair of nodes.",
     "author": "emeka", "labels": ["bug"], "open": True, "age": 2,
     "refs": ["Conformance pages for shortest paths"]},
    {"id": "crlf", "title": "cookbook run --update turns CRLF pages into LF",
     "body": "A page checked out with Windows line endings comes back from --update with LF endings in the "
             "recorded blocks only, so the diff touches every block.",
     "author": "fern", "labels": ["bug"], "open": True, "age": 4},
]

# Open and closed-unmerged pull requests of teamgraph/cookbook, invented, over files of the real tree.
HOME_OPEN_PRS = [
    {"id": "open-vector", "title": "Vector indexes: CREATE VECTOR INDEX, vecf32() and queryNodes",
     "body": "Adds vector indexes with cosine and euclidean similarity and the procedure that queries them "
             "by nearest neighbours. Refs the team graph page.",
     "author": "amara", "files": ["engine/procedures.py", "engine/sqlgen/", "tests/engine/", "tests/conformance/"],
     "age": 1, "refs": ["vector"], "reviewers": [("bodhi", "COMMENTED")]},
    {"id": "open-update", "title": "Runner: --update keeps each block's line endings",
     "body": "Writes recorded blocks with the line ending of the fence they replace.",
     "author": "chen", "files": ["runner/update.py", "tests/runner/test_update.py"], "age": 2,
     "refs": ["crlf"], "reviewers": [("dagny", "CHANGES_REQUESTED")]},
    {"id": "open-algo", "title": "Graph algorithms: pageRank, betweenness and label propagation",
     "body": "algo.pageRank, algo.betweenness and algo.labelPropagation as procedures over a projected "
             "subgraph.",
     "author": "amara", "files": ["engine/procedures.py", "engine/execute/", "tests/engine/"], "age": 1,
     "reviewers": []},
    {"id": "open-paths", "title": "Shortest paths: one row per path over type disjunctions",
     "body": "allShortestPaths deduplicates paths that differ only in the order the types were tried.",
     "author": "emeka", "files": ["engine/plan/", "tests/conformance/"], "age": 1, "refs": ["dup-paths"],
     "reviewers": [("amara", "APPROVED")]},
    {"id": "closed-fts", "title": "Full-text search with DuckDB's fts extension",
     "body": "An experiment: the fts extension needs a rebuild after every write, so this is closed in "
             "favour of a separate branch.",
     "author": "chen", "files": ["engine/procedures.py", "engine/storage/"], "age": 3, "closed": True,
     "refs": ["fulltext"], "reviewers": [("amara", "CHANGES_REQUESTED")]},
]

# The two invented repositories: (title, author, files, days before NOW it was merged or opened, merged?,
# reviewers, labels, closes: the id of an issue of the same repository, refs: ids of issues anywhere).
DOCS_PRS = [
    ("Guides: first recipe page, step by step", "dagny", ["docs/guides/first-page.md", "mkdocs.yml"], 80,
     True, [("chen", "APPROVED")], ["documentation"], None, []),
    ("Reference: the info string of a cell", "chen", ["docs/reference/info-string.md"], 74, True,
     [("dagny", "APPROVED")], ["documentation"], "docs-info", []),
    ("Theme: dark palette and system fonts", "fern", ["theme/palette.css", "theme/main.html"], 66, True,
     [("dagny", "APPROVED")], [], None, []),
    ("Bump mkdocs-material from 9.5.3 to 9.6.1", "dependabot[bot]", ["requirements.txt"], 60, True,
     [("dagny", "APPROVED")], ["dependencies"], None, []),
    ("Guides: agent memory over MCP", "dagny", ["docs/guides/agent-memory.md", "docs/reference/mcp.md"], 45,
     True, [("chen", "APPROVED"), ("fern", "COMMENTED")], ["documentation"], None, []),
    ("Reference: recorded table and gram blocks", "fern", ["docs/reference/recorded-blocks.md"], 31, True,
     [("dagny", "CHANGES_REQUESTED"), ("dagny", "APPROVED")], ["documentation"], None, []),
    ("Guides: search the team graph with vector and full-text queries", "dagny",
     ["docs/guides/team-graph.md", "docs/reference/procedures.md"], 3, False, [("chen", "COMMENTED")],
     ["documentation"], None, ["vector", "fulltext"]),
]
DOCS_ISSUES = [
    {"id": "docs-info", "title": "Document every word an info string accepts", "author": "fern", "age": 78,
     "labels": ["documentation"]},
    {"id": "docs-search", "title": "Site search misses the reference pages", "author": "gus", "age": 20,
     "labels": ["bug"], "open": True},
]
BENCH_PRS = [
    ("Harness: recall@k and latency for cosine queries", "amara", ["bench/harness.py", "src/vbench/metrics.py"],
     120, True, [("gus", "APPROVED")], [], None, []),
    ("Datasets: 16-dimension hashed text vectors", "gus", ["bench/datasets/hashed.py", "src/vbench/embed.py"],
     101, True, [("amara", "APPROVED")], [], "bench-data", []),
    ("Bump numpy from 2.1.0 to 2.1.3", "dependabot[bot]", ["pyproject.toml"], 95, True, [("amara", "APPROVED")],
     ["dependencies"], None, []),
    ("Metrics: euclidean similarity next to cosine", "bodhi", ["src/vbench/metrics.py", "bench/harness.py"],
     70, True, [("amara", "APPROVED"), ("gus", "APPROVED")], ["enhancement"], None, []),
    ("Harness: run against the cookbook engine's vector index", "amara",
     ["bench/harness.py", "src/vbench/engines.py"], 12, True, [("gus", "APPROVED"), ("bodhi", "COMMENTED")],
     ["enhancement"], None, ["vector"]),
    ("Datasets: load chunk embeddings from a page's data block", "gus", ["bench/datasets/pages.py"], 2, False,
     [], ["enhancement"], None, []),
]
BENCH_ISSUES = [
    {"id": "bench-data", "title": "A small text dataset that needs no model download", "author": "amara",
     "age": 110, "labels": ["enhancement"]},
    {"id": "bench-recall", "title": "Recall drops for k above 50 with cosine queries", "author": "bodhi",
     "age": 9, "labels": ["bug"], "open": True},
]
# Releases: (repo, tag, the commit subject start or days before NOW, after which it was published).
HOME_RELEASES = [("v0.1.0", "Seed page passes"), ("v0.2.0", "CI runs the README's test command"),
                 ("v0.3.0", "Pattern property equality without coalesce")]
OTHER_RELEASES = [(DOCS, "v1.0.0", 50), (DOCS, "v1.1.0", 25), (BENCH, "v0.1.0", 90), (BENCH, "v0.2.0", 10)]


# ---------------------------------------------------------------------------------------------------------
# The history of this repository


def read_history(root: Path, pin: str) -> dict[str, Any]:
    """Every commit up to `pin`, oldest first, with the files it touched; and the ADRs' titles at `pin`."""
    full = _git(root, "rev-parse", pin).strip()
    log = _git(root, "log", "--reverse", "--no-renames", "--numstat", "--format=%x1e%H%x1f%at%x1f%an%x1f%s%x1f%b%x1f",
               full)
    commits = []
    for record in filter(str.strip, log.split("\x1e")):
        sha, at, name, subject, body, numstat = record.split("\x1f")
        files = []
        for line in filter(None, numstat.strip().splitlines()):
            added, deleted, path = line.split("\t")
            files.append([path, int(added) if added != "-" else 0, int(deleted) if deleted != "-" else 0])
        paragraph = " ".join(body.strip().split("\n\n")[0].split())
        commits.append({"sha": sha, "at": int(at), "login": _login(name), "subject": subject.strip(),
                        "body": paragraph[:600], "files": files})
    adrs = []
    for path in sorted(_git(root, "ls-tree", "--name-only", full, "docs/adr/").split()):
        first = _git(root, "show", f"{full}:{path}").splitlines()[0]
        adrs.append({"path": path, "title": first.lstrip("# ").strip()})
    return {"pin": full, "repo": HOME, "commits": commits, "adrs": adrs}


def _login(name: str) -> str:
    """A login from a git author name (the data model keeps no names): its last word, lowercased."""
    return re.sub(r"[^a-z0-9-]", "", name.split()[-1].lower()) if name.split() else "unknown"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def load_history(path: Path = HISTORY) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------------------
# Small deterministic helpers


def stable(*parts: object) -> int:
    """A number fixed by its parts: the first 8 hex digits of their SHA-256."""
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8], 16)


STOPWORDS = frozenset({"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "its", "no",
                       "not", "of", "on", "one", "or", "that", "the", "this", "to", "with"})


def embed(text: str) -> list[float]:
    """16 numbers from the text by feature hashing (see the module docstring), rounded to 4 places."""
    vector = [0.0] * DIMENSIONS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in STOPWORDS:
            continue
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % DIMENSIONS] += 1.0 if digest[1] & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [round(x / norm, 4) + 0.0 for x in vector]


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / ((math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))) or 1.0)


def concepts_in(text: str) -> list[str]:
    lowered = text.lower()
    found = []
    for key, name, aliases in CONCEPTS:
        words = [name.lower(), *(alias.strip() for alias in aliases.split(","))]
        if any(word and word in lowered for word in words):
            found.append(f"concept:{key}")
    return found


def labels_for(text: str) -> list[str]:
    return [label for label, pattern in LABEL_WORDS if re.search(pattern, text, re.IGNORECASE)]


def area_owner(path: str) -> str | None:
    """Whose area a path is in: the person with the longest prefix of it."""
    matches = [(len(prefix), login) for login, prefixes in AREAS.items() for prefix in prefixes
               if path.startswith(prefix)]
    return max(matches)[1] if matches else None


# ---------------------------------------------------------------------------------------------------------
# The graph


class Graph:
    """The dataset as plain records, before it is cut into the page's data blocks."""

    def __init__(self) -> None:
        self.people: dict[str, dict[str, Any]] = {}
        self.threads: list[dict[str, Any]] = []  # issues and pull requests, with `id` until numbered
        self.files: dict[tuple[str, str], dict[str, Any]] = {}
        self.dirs: dict[tuple[str, str], dict[str, Any]] = {}
        self.releases: list[dict[str, Any]] = []
        self.docs: list[dict[str, Any]] = []

    def thread(self, thread_id: str) -> dict[str, Any]:
        return next(t for t in self.threads if t["id"] == thread_id)

    def add_file(self, repo: str, path: str) -> str:
        key = f"file:{repo}:{path}"
        if (repo, path) not in self.files:
            directory = path.rsplit("/", 1)[0] if "/" in path else ""
            self.files[(repo, path)] = {"key": key, "repo": repo, "path": path,
                                        "ext": path.rsplit(".", 1)[1] if "." in path.rsplit("/", 1)[-1] else "",
                                        "depth": path.count("/"), "dir": self.add_dir(repo, directory)}
        return key

    def add_dir(self, repo: str, path: str) -> str:
        key = f"dir:{repo}:{path}" if path else f"dir:{repo}"
        if (repo, path) not in self.dirs:
            parent = None
            if path:
                parent = self.add_dir(repo, path.rsplit("/", 1)[0] if "/" in path else "")
            self.dirs[(repo, path)] = {"key": key, "repo": repo, "path": path,
                                       "depth": path.count("/") + 1 if path else 0, "parent": parent}
        return key


def build_graph(history: dict[str, Any]) -> Graph:
    graph = Graph()
    commits = history["commits"]
    for login in [REAL_AUTHOR, *AREAS, *OUTSIDERS]:
        graph.people[login] = {"login": login, "isBot": False}
    for login in BOTS:
        graph.people[login] = {"login": login, "isBot": True}

    def by_subject(start: str) -> dict[str, Any]:
        return next(c for c in commits if c["subject"].startswith(start))

    # Merged pull requests: this repository's commits.
    for commit in commits:
        paths = [path for path, _, _ in commit["files"]]
        owners = Counter(owner for owner in map(area_owner, paths) if owner)
        author = commit["login"]
        if owners:
            (best, count), = sorted(owners.items(), key=lambda item: (-item[1], stable(commit["sha"], item[0])))[:1]
            if 2 * count >= len(paths):
                author = best
        merged = commit["at"]
        created = merged - 1800 - stable("created", commit["sha"]) % 5400
        text = f"{commit['subject']} {commit['body']}"
        pr = {"id": commit["sha"], "kind": "PullRequest", "repo": HOME, "title": commit["subject"],
              "summary": commit["body"] or commit["subject"], "state": "MERGED", "createdAt": created,
              "closedAt": merged, "mergedAt": merged, "author": author, "mergedBy": REAL_AUTHOR,
              "labels": labels_for(text), "concepts": concepts_in(text),
              "touched": [[graph.add_file(HOME, path), added, deleted] for path, added, deleted in commit["files"]],
              "reviews": _reviews(commit["sha"], author, paths, merged), "closes": [], "refs": [],
              "comments": _comments(commit["sha"], author, paths)}
        graph.threads.append(pr)
    all_home_paths = sorted(path for repo, path in graph.files if repo == HOME)
    last = commits[-1]["at"]

    # Issues of this repository, and the pull requests that close or mention them.
    for spec in HOME_ISSUES:
        issue = {"id": spec["id"], "kind": "Issue", "repo": HOME, "title": spec["title"], "summary": spec["body"],
                 "author": spec["author"], "labels": spec["labels"],
                 "concepts": concepts_in(f"{spec['title']} {spec['body']}"), "closes": [], "refs": []}
        if spec.get("open"):
            issue.update(state="OPEN", createdAt=last - spec["age"] * DAY + stable("issue", spec["id"]) % 3600,
                         closedAt=None, assignee=_assignee(spec))
        else:
            fix = graph.thread(by_subject(spec["fix"])["sha"])
            fix["closes"].append([spec["id"], "fixes #N" if stable("src", spec["id"]) % 2 else "closingReference"])
            issue.update(state="CLOSED", createdAt=fix["createdAt"] - spec["lead"] * 3600, closedAt=fix["mergedAt"],
                         assignee=fix["author"])
        for start in spec.get("refs", []):
            graph.thread(by_subject(start)["sha"])["refs"].append([spec["id"], "body"])
        issue["comments"] = [[login, 1 + stable("c", spec["id"], login) % 3]
                             for login in sorted({issue["assignee"], REAL_AUTHOR} - {spec["author"]})]
        graph.threads.append(issue)
    for spec in HOME_OPEN_PRS:
        paths = []
        for pattern in spec["files"]:
            matches = [p for p in all_home_paths if p == pattern or (pattern.endswith("/") and p.startswith(pattern))]
            paths.extend(matches[:2])
        created = last - spec["age"] * DAY + stable("open", spec["id"]) % 7200
        text = f"{spec['title']} {spec['body']}"
        graph.threads.append({
            "id": spec["id"], "kind": "PullRequest", "repo": HOME, "title": spec["title"], "summary": spec["body"],
            "state": "CLOSED" if spec.get("closed") else "OPEN", "createdAt": created,
            "closedAt": created + DAY if spec.get("closed") else None, "mergedAt": None, "author": spec["author"],
            "mergedBy": None, "labels": labels_for(text), "concepts": concepts_in(text),
            "touched": [[graph.add_file(HOME, p), 10 + stable(spec["id"], p) % 90, stable(p, spec["id"]) % 20]
                        for p in paths],
            "reviews": [[login, state, created + 3600 * (i + 1)] for i, (login, state) in enumerate(spec["reviewers"])],
            "closes": [], "refs": [[ref, "body"] for ref in spec.get("refs", [])], "comments": []})

    # The two invented repositories.
    for repo, prs, issues in ((DOCS, DOCS_PRS, DOCS_ISSUES), (BENCH, BENCH_PRS, BENCH_ISSUES)):
        for spec in issues:
            created = NOW - spec["age"] * DAY - stable("issue", spec["id"]) % 7200
            graph.threads.append({
                "id": spec["id"], "kind": "Issue", "repo": repo, "title": spec["title"], "summary": spec["title"],
                "author": spec["author"], "labels": spec["labels"], "concepts": concepts_in(spec["title"]),
                "state": "OPEN" if spec.get("open") else "CLOSED", "createdAt": created, "closedAt": None,
                "assignee": None, "closes": [], "refs": [], "comments": []})
        for n, (title, author, paths, age, merged, reviewers, labels, closes, refs) in enumerate(prs):
            pr_id = f"{repo}#{n}"
            at = NOW - age * DAY + stable("at", pr_id) % 7200
            created = at - (2 + stable("len", pr_id) % 5) * 3600 if merged else at
            thread = {
                "id": pr_id, "kind": "PullRequest", "repo": repo, "title": title, "summary": title,
                "state": "MERGED" if merged else "OPEN", "createdAt": created, "closedAt": at if merged else None,
                "mergedAt": at if merged else None, "author": author,
                "mergedBy": ({DOCS: "dagny", BENCH: "amara"}[repo]) if merged else None,
                "labels": labels, "concepts": concepts_in(title),
                "touched": [[graph.add_file(repo, p), 5 + stable(pr_id, p) % 120, stable(p, pr_id) % 30]
                            for p in paths],
                "reviews": [[login, state, created + 1800 * (i + 1)] for i, (login, state) in enumerate(reviewers)],
                "closes": [[closes, "closingReference"]] if closes else [], "refs": [[r, "body"] for r in refs],
                "comments": [["github-actions[bot]", 1]] if stable("bot", pr_id) % 2 else []}
            graph.threads.append(thread)
            if closes:
                issue = graph.thread(closes)
                issue["closedAt"], issue["assignee"] = at, author

    # Numbers and keys: issues and pull requests share one sequence per repository, by creation time.
    for repo in (HOME, DOCS, BENCH):
        ordered = sorted((t for t in graph.threads if t["repo"] == repo), key=lambda t: (t["createdAt"], t["id"]))
        for number, thread in enumerate(ordered, start=1):
            thread["number"] = number
            thread["key"] = f"{'pr' if thread['kind'] == 'PullRequest' else 'issue'}:{repo}#{number}"
    graph.threads.sort(key=lambda t: (t["repo"] != HOME, t["repo"], t["number"]))

    # Releases: a pull request ships in the first release of its repository published after its merge.
    for tag, start in HOME_RELEASES:
        graph.releases.append({"repo": HOME, "tag": tag, "publishedAt": by_subject(start)["at"] + 600})
    for repo, tag, age in OTHER_RELEASES:
        graph.releases.append({"repo": repo, "tag": tag, "publishedAt": NOW - age * DAY + 43200})
    graph.releases.sort(key=lambda r: (r["repo"] != HOME, r["repo"], r["publishedAt"]))
    previous: dict[str, str] = {}
    for release in graph.releases:
        release["key"] = f"release:{release['repo']}@{release['tag']}"
        release["url"] = f"https://github.com/{release['repo']}/releases/tag/{release['tag']}"
        release["previous"] = previous.get(release["repo"])
        previous[release["repo"]] = release["key"]
        release["shipped"] = []
    for thread in graph.threads:
        if thread["kind"] != "PullRequest" or thread["mergedAt"] is None:
            continue
        after = [r for r in graph.releases if r["repo"] == thread["repo"] and r["publishedAt"] >= thread["mergedAt"]]
        if after:
            after[0]["shipped"].append(thread["key"])
    for release in graph.releases:
        titles = [graph_title(graph, key) for key in release["shipped"][:3]]
        release["notes"] = ("Highlights: " + "; ".join(titles)) if titles else "Maintenance release."
        release["sources"] = {key: "releaseNotes" if i < 3 else "firstReleaseAfterMerge"
                              for i, key in enumerate(release["shipped"])}

    # Docs: the ADRs at the pinned commit.
    for adr in history["adrs"]:
        slug = adr["path"].removeprefix("docs/").removesuffix(".md")
        graph.docs.append({"key": f"doc:cookbook:{slug}", "title": adr["title"], "path": adr["path"],
                           "url": f"https://github.com/{HOME}/blob/main/{adr['path']}",
                           "concepts": concepts_in(adr["title"])})

    # When each person was first and last seen.
    seen: dict[str, list[int]] = defaultdict(list)
    for thread in graph.threads:
        seen[thread["author"]].append(thread["createdAt"])
        if thread.get("mergedBy"):
            seen[thread["mergedBy"]].append(thread["mergedAt"])
        for login, _, at in thread.get("reviews", []):
            seen[login].append(at)
        for login, _ in thread["comments"]:
            seen[login].append(thread["createdAt"])
    for login, person in graph.people.items():
        person["firstSeenAt"], person["lastSeenAt"] = min(seen[login]), max(seen[login])
    return graph


def graph_title(graph: Graph, key: str) -> str:
    return next(t["title"] for t in graph.threads if t["key"] == key)


def _reviews(sha: str, author: str, paths: list[str], merged: int) -> list[list[Any]]:
    """One or two reviewers for a merged pull request: the real author (who merges everything) and, often,
    the person whose area the change touches most; the CI bot comments on some."""
    owners = Counter(owner for owner in map(area_owner, paths) if owner and owner != author)
    people = [] if author == REAL_AUTHOR else [REAL_AUTHOR]
    ranked = sorted(owners.items(), key=lambda item: (-item[1], item[0]))
    if ranked and (not people or stable("second", sha) % 3 != 0):
        people.append(ranked[0][0])
    if not people:
        people.append(sorted(AREAS, key=lambda login: stable("anyone", sha, login))[0])
    states = ["APPROVED"] * 8 + ["CHANGES_REQUESTED", "COMMENTED"]
    reviews = [[login, states[stable("state", sha, login) % len(states)], merged - 600 * (i + 1)]
               for i, login in enumerate(people)]
    if stable("bot-review", sha) % 4 == 0:
        reviews.append(["github-actions[bot]", "COMMENTED", merged - 300])
    return reviews


def _comments(sha: str, author: str, paths: list[str]) -> list[list[Any]]:
    comments = [["github-actions[bot]", 1]] if stable("bot", sha) % 3 == 0 else []
    owners = sorted({owner for owner in map(area_owner, paths) if owner and owner != author})
    if owners and stable("talk", sha) % 2 == 0:
        comments.append([owners[0], 1 + stable("count", sha) % 4])
    return comments


def _assignee(spec: dict[str, Any]) -> str:
    return {"vector": "amara", "fulltext": "chen", "dup-paths": "emeka", "crlf": "chen"}.get(spec["id"], REAL_AUTHOR)


# ---------------------------------------------------------------------------------------------------------
# The page's data blocks


def blocks(graph: Graph) -> dict[str, dict[str, Any]]:
    """Every data block of the page, by name, in page order."""
    keys = {t["id"]: t["key"] for t in graph.threads}
    chunks = []
    for owner in [*graph.threads, *graph.docs]:
        text = f"{owner['title']}. {owner.get('summary', '')}".strip(". ")[:600] if owner in graph.threads \
            else owner["title"]
        kind = {"PullRequest": "pr", "Issue": "issue"}.get(owner.get("kind", ""), "doc")
        chunks.append({"key": f"chunk:{owner['key']}:0", "owner": owner["key"], "kind": kind, "text": text,
                       "embedding": embed(text), "concepts": concepts_in(text)})
    used_labels = sorted({(t["repo"], label) for t in graph.threads for label in t["labels"]})
    out: dict[str, dict[str, Any]] = {}
    out["repos"] = {
        "repos": [{"key": f"repo:{r['fullName']}", **r, "url": f"https://github.com/{r['fullName']}"} for r in REPOS],
        "labels": [{"key": f"label:{repo}:{name}", "repo": repo, "name": name, "color": LABELS[name]}
                   for repo, name in used_labels],
        "releases": [{k: r[k] for k in ("key", "repo", "tag", "publishedAt", "url", "notes", "previous")}
                     for r in graph.releases],
    }
    out["people"] = {"people": [{"key": f"person:{login}", "login": login,
                                 "avatarUrl": f"https://avatars.example/{login.replace('[bot]', '-bot')}.png", **p}
                                for login, p in graph.people.items()]}
    out["tree"] = {"dirs": [d for _, d in sorted(graph.dirs.items())],
                   "files": [f for _, f in sorted(graph.files.items())],
                   "owners": [{"login": login, "dir": f"dir:{HOME}:{pattern.strip('/')}", "pattern": pattern}
                              for pattern, login in CODEOWNERS]}
    out["threads"] = {"threads": [{
        "key": t["key"], "kind": t["kind"], "repo": t["repo"], "number": t["number"], "title": t["title"],
        "state": t["state"], "createdAt": t["createdAt"], "closedAt": t["closedAt"], "mergedAt": t.get("mergedAt"),
        "author": t["author"], "summary": t["summary"][:600], "mergedBy": t.get("mergedBy"),
        "assignee": t.get("assignee"), "labels": [f"label:{t['repo']}:{name}" for name in t["labels"]]}
        for t in graph.threads]}
    out["links"] = {
        "touched": [{"pr": t["key"], "file": f, "additions": a, "deletions": d}
                    for t in graph.threads if t["kind"] == "PullRequest" for f, a, d in t["touched"]],
        "reviews": [{"pr": t["key"], "login": login, "state": state, "at": at}
                    for t in graph.threads if t["kind"] == "PullRequest" for login, state, at in t["reviews"]],
        "comments": [{"thread": t["key"], "login": login, "count": count}
                     for t in graph.threads for login, count in t["comments"]],
        "closes": [{"pr": t["key"], "issue": keys[issue], "source": source}
                   for t in graph.threads for issue, source in t["closes"]],
        "references": [{"from": t["key"], "to": keys[ref], "source": source,
                        "crossRepo": t["repo"] != graph.thread(ref)["repo"]}
                       for t in graph.threads for ref, source in t["refs"]],
        "shipped": [{"pr": pr, "release": r["key"], "source": r["sources"][pr]} for r in graph.releases
                    for pr in r["shipped"]],
    }
    out["concepts"] = {
        "concepts": [{"key": f"concept:{key}", "name": name, "aliases": aliases} for key, name, aliases in CONCEPTS],
        "docs": [{k: d[k] for k in ("key", "title", "path", "url")} for d in graph.docs],
        "mentions": [{"from": t["key"], "concept": c} for t in graph.threads for c in t["concepts"]],
        "documents": [{"doc": d["key"], "concept": c} for d in graph.docs for c in d["concepts"]],
    }
    out["chunks"] = {"chunks": [{k: c[k] for k in ("key", "owner", "kind", "text", "embedding")} for c in chunks],
                     "mentions": [{"chunk": c["key"], "concept": concept} for c in chunks for concept in c["concepts"]]}
    out.update(query_params(graph, chunks))
    out["tool-calls"] = tool_calls(out)
    return out


def by_title(graph: Graph, start: str) -> str:
    return next(t["key"] for t in graph.threads if t["title"].startswith(start))


def query_params(graph: Graph, chunks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The parameters of each catalogue query on the page: fixed questions, keys looked up in the data."""
    issue = by_title(graph, "Deeply nested expressions crash the parser")
    fix = next(t["key"] for t in graph.threads if ["deep-nesting", "fixes #N"] in t["closes"]
               or ["deep-nesting", "closingReference"] in t["closes"])
    vector_issue = by_title(graph, "Vector indexes for the team graph page")
    triage_vec = next(c["embedding"] for c in chunks if c["owner"] == vector_issue)
    question = "vector indexes and vecf32 similarity queries"
    day = 1796083200  # 2026-12-01T00:00:00Z; the `activity` window is the day before the day before
    params: dict[str, dict[str, Any]] = {
        "vectorEntry": {"question": question, "vec": embed(question), "k": 8, "limit": 5},
        "byKeys": {"keys": [issue, fix, "person:bodhi", f"dir:{HOME}:engine/syntax", "concept:parser"]},
        "threadByNumber": {"number": graph.thread("deep-nesting")["number"], "repo": "cookbook"},
        "conceptMatch": {"text": "embedding"},
        "details": {"key": fix},
        "expand": {"key": "person:bodhi", "types": ["AUTHORED", "REVIEWED"], "limit": 8},
        "whoKnowsArea": {"term": "temporal", "repo": None, "now": NOW},
        "whoKnowsConcept": {"concept": "concept:tck", "repo": "cookbook", "now": NOW},
        "declaredOwners": {"areas": [f"dir:{HOME}:engine/syntax", f"dir:{HOME}:engine/temporal", f"dir:{HOME}:runner"]},
        "traceIssue": {"key": issue},
        "tracePr": {"key": fix},
        "references": {"key": vector_issue},
        "connect": {"a": "person:gus", "b": issue},
        "impactOpenPrs": {"term": "conformance", "repo": None},
        "impactOpenIssues": {"term": "conformance", "repo": "cookbook"},
        "coChanges": {"term": "sqlgen", "repo": None},
        "activity": {"repo": "cookbook", "since": day - 2 * DAY, "until": day - DAY, "kind": "pr", "limit": 5},
        "activityAll": {"repo": None, "since": NOW - 180 * DAY, "until": NOW, "kind": None, "limit": 5},
        "activityInArea": {"area": "runner", "repo": "cookbook", "rel": "REVIEWED", "since": NOW - 30 * DAY,
                           "until": NOW, "limit": 5},
        "verifyPath": {"entry": "concept:temporal", "cited": "person:bodhi"},
        "neighbourhood": {"key": f"release:{HOME}@v0.1.0"},
        "triageIssue": {"key": vector_issue},
        "triageSimilar": {"key": vector_issue, "vec": triage_vec},
        "triageOwners": {"similar": similar_threads(graph, chunks, vector_issue, triage_vec)},
        "vectorRag": {"question": question, "vec": embed(question), "k": 5},
    }
    params["triageLabels"] = {"similar": params["triageOwners"]["similar"]}
    params.update(memory_params(graph, params))
    params["fulltextEntry"] = {"text": "vector", "limit": 5}
    return params


def tool_calls(params: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The page's session of typed tool calls: each of the application's tools once, with the arguments of
    the cell it runs (so each step's rows are that cell's), then a call its input schema refuses."""
    steps = [
        {"tool": "find_entities", "arguments": params["fulltextEntry"]},
        {"tool": "details", "arguments": params["details"]},
        {"tool": "expand", "arguments": params["expand"]},
        {"tool": "who_knows", "arguments": {"term": params["whoKnowsArea"]["term"]},
         "note": "repo and now take their defaults"},
        {"tool": "trace", "arguments": params["traceIssue"]},
        {"tool": "connect", "arguments": params["connect"]},
        {"tool": "impact", "arguments": {"term": params["impactOpenPrs"]["term"]}},
        {"tool": "activity", "arguments": params["activity"]},
        {"tool": "rank", "arguments": {}},
        {"tool": "draft_triage", "arguments": params["triageIssue"]},
        {"tool": "cypher_readonly",
         "arguments": {"statement": "MATCH (r:Repo) RETURN r.name AS repo, r.stars AS stars ORDER BY stars DESC"}},
        {"tool": "expand", "arguments": {"key": "person:bodhi", "limit": 0},
         "note": "refused before it runs: limit is at least 1"},
    ]
    return {"steps": steps}


def similar_threads(graph: Graph, chunks: list[dict[str, Any]], key: str, vec: list[float]) -> list[str]:
    """What triageSimilar returns: the six threads whose chunks are nearest to `vec`, the issue left out."""
    threads = {t["key"] for t in graph.threads}
    scored = sorted(((cosine(vec, c["embedding"]), c["owner"]) for c in chunks
                     if c["owner"] in threads and c["owner"] != key), key=lambda item: (-item[0], item[1]))
    return [owner for _, owner in scored[:6]]


def memory_params(graph: Graph, params: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A visitor's two turns, a fact, a playbook used twice, the agents' coordination and a saved trace."""
    fix = next(t for t in graph.threads if t["key"] == params["tracePr"]["key"])
    reviewers = " and ".join(login for login, state, _ in fix["reviews"] if state == "APPROVED")
    q1 = "Who knows the temporal code best?"
    q2 = "And who reviewed the fix for deeply nested expressions?"
    trace1, trace2 = "tr-0001", "tr-0002"
    area = "MATCH (d:Directory) WHERE d.depth > 0 …"  # the head of the who_knows query, as the tool logs it
    turn1 = {
        "sid": "s-visitor-1", "tid": "t-1", "q": q1, "now": NOW - 3600, "verified": 2, "total": 2, "mode": "live",
        "traceId": trace1,
        "a": "bodhi: both merged changes under engine/temporal are theirs; amara and maintainers reviewed them.",
        "calls": [
            {"tool": "who_knows", "step": 1, "ms": 41, "rows": 3, "cypher": area,
             "refs": [f"dir:{HOME}:engine/temporal", "person:bodhi", "person:maintainers"]},
            {"tool": "details", "step": 2, "ms": 12, "rows": 1, "cypher": "MATCH (n:Entity {key: $key}) …",
             "refs": ["person:bodhi"]},
        ]}
    turn2 = {
        "sid": "s-visitor-1", "tid": "t-2", "q": q2, "now": NOW - 3000, "verified": 1, "total": 2, "mode": "live",
        "traceId": trace2,
        "a": f"{params['tracePr']['key']}, by {fix['author']}, closed it; {reviewers} approved it.",
        "calls": [
            {"tool": "find_entities", "step": 1, "ms": 30, "rows": 1, "cypher": "MATCH (n:Concept) …",
             "refs": ["concept:parser"]},
            {"tool": "trace", "step": 2, "ms": 25, "rows": 1, "cypher": "MATCH (i:Issue {key: $key}) …",
             "refs": [params["traceIssue"]["key"], params["tracePr"]["key"]]},
            {"tool": "trace", "step": 3, "ms": 22, "rows": 1, "cypher": "MATCH (pr:PullRequest {key: $key}) …",
             "refs": [params["tracePr"]["key"], "person:maintainers"]},
        ]}
    playbook_q = "Who knows the temporal code?"
    sequence = ["who_knows", "details"]
    trace_json = json.dumps({"question": q1, "steps": [c["tool"] for c in turn1["calls"]], "verified": 2},
                            separators=(",", ":"))
    return {
        "writeTurn": turn1,
        "writeTurn-2": turn2,
        "writeFact": {"tid": "t-1", "text": "bodhi is the person to ask about engine/temporal.", "kind": "expertise",
                      "now": NOW - 3590, "refs": ["person:bodhi", f"dir:{HOME}:engine/temporal"]},
        "previousTurn": {"sid": "s-visitor-1"},
        "writePlaybook": {"qt": "who_knows", "seq": sequence, "vec": embed(playbook_q), "q": playbook_q,
                          "now": NOW - 3580, "ok": 1},
        "writePlaybook-2": {"qt": "who_knows", "seq": sequence, "vec": embed(q1), "q": q1, "now": NOW - 2900,
                            "ok": 1},
        "recallPlaybook": {"question": "Who knows the temporal code well?",
                           "vec": embed("Who knows the temporal code well?")},
        "writeCoordination": {"traceId": trace2, "q": q2, "status": "needs-review", "now": NOW - 2990, "claims": [
            {"key": params["tracePr"]["key"], "ok": True, "hops": 2, "observed": True},
            {"key": "person:emeka", "ok": False, "hops": 0, "observed": False}]},
        "writeHandoff": {"traceId": trace2, "reason": "person:emeka was not observed in any tool result",
                         "now": NOW - 2980},
        "saveTrace": {"id": trace1, "q": q1, "mode": "live", "now": NOW - 3570, "showcase": True, "verified": 2,
                      "total": 2, "json": trace_json},
        "saveTrace-2": {"id": trace2, "q": q2, "mode": "live", "now": NOW - 2970, "showcase": False, "verified": 1,
                        "total": 2, "json": json.dumps({"question": q2, "handedOff": True}, separators=(",", ":"))},
        "getTrace": {"id": trace1},
    }


# ---------------------------------------------------------------------------------------------------------
# Writing the page


def render(value: dict[str, Any]) -> str:
    """A data block's text: each top-level key on its own line, a list of records one record a line."""
    if not value:
        return "{}"
    lines = ["{"]
    items = list(value.items())
    for i, (key, item) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        head = f"  {json.dumps(key)}: "
        if isinstance(item, list) and item and all(isinstance(x, dict) for x in item):
            lines.append(head + "[")
            lines.extend(f"    {_compact(x)}{',' if j < len(item) - 1 else ''}" for j, x in enumerate(item))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"{head}{_compact(item)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


FENCE = re.compile(r"^(?P<fence>`{3,})json\s+(?:.*\s)?data=(?P<name>[^\s}]+)[^\n]*\n", re.MULTILINE)


def rewrite(page: str, data: dict[str, dict[str, Any]]) -> str:
    """The page with the body of each ```` ```json data=NAME ```` fence replaced by `data[NAME]`.
    Every other byte stays. A block the page lacks, or a page block the builder does not make, is an error."""
    out, position, seen = [], 0, set()
    newline = "\r\n" if "\r\n" in page else "\n"
    for match in FENCE.finditer(page):
        name = match["name"]
        if name not in data:
            raise ValueError(f"the page has a data block {name!r} the builder does not make")
        close = re.compile(rf"^{match['fence']}[ \t]*\r?$", re.MULTILINE).search(page, match.end())
        if close is None:
            raise ValueError(f"data block {name!r} is never closed")
        out.append(page[position:match.end()])
        out.append(render(data[name]).replace("\n", newline) + newline)
        position = close.start()
        seen.add(name)
    out.append(page[position:])
    missing = [name for name in data if name not in seen]
    if missing:
        raise ValueError(f"the page lacks data blocks: {', '.join(missing)}")
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument("--check", action="store_true", help="exit 1 if a data block differs; change nothing")
    parser.add_argument("--refresh-history", action="store_true",
                        help=f"read the history up to the pinned commit again into {HISTORY.name}")
    args = parser.parse_args(argv)
    if args.refresh_history:
        pin = PIN
        HISTORY.write_text(json.dumps(read_history(HERE.parent.parent, pin), indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
    page = args.page.read_bytes().decode("utf-8")
    new = rewrite(page, blocks(build_graph(load_history())))
    if args.check:
        if new != page:
            print(f"{args.page}: data blocks are out of date; run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    if new != page:
        args.page.write_bytes(new.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
