"""The team graph page's data builder (cookbook/scripts/team_graph.py): deterministic, and consistent.

The page (cookbook/03-team-knowledge-graph.md) checks what the engine makes of the data; these tests check
the data itself: that the builder gives the same bytes every time, that every edge's ends exist, that the
history is this repository's, and that the derived edges the page records are the ones the data implies.
"""

from __future__ import annotations

import importlib.util
import math
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "cookbook" / "scripts" / "team_graph.py"
PAGE = ROOT / "cookbook" / "03-team-knowledge-graph.md"


def load_builder(name: str = "team_graph_under_test"):
    """A fresh copy of the builder module: nothing carries over from an earlier build."""
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tg():
    return load_builder()


@pytest.fixture(scope="module")
def data(tg):
    return tg.blocks(tg.build_graph(tg.load_history()))


# --- determinism ------------------------------------------------------------------------------------------


def test_two_builds_give_the_same_bytes(tg):
    other = load_builder("team_graph_second_copy")
    first = {name: tg.render(block) for name, block in tg.blocks(tg.build_graph(tg.load_history())).items()}
    second = {name: other.render(block)
              for name, block in other.blocks(other.build_graph(other.load_history())).items()}
    assert first == second
    assert list(first) == list(second)


def test_the_page_holds_what_the_builder_makes(tg):
    page = PAGE.read_text(encoding="utf-8")
    assert tg.rewrite(page, tg.blocks(tg.build_graph(tg.load_history()))) == page


def test_rewrite_changes_only_data_fences(tg):
    page = "intro\n```json data=a\n{\"old\": 1}\n```\n\n```cypher cell=x params=a\nRETURN $n\n```\ntail\n"
    new = tg.rewrite(page, {"a": {"n": [1, 2]}})
    assert new == page.replace('{"old": 1}', '{\n  "n": [1, 2]\n}')
    assert tg.rewrite(new, {"a": {"n": [1, 2]}}) == new
    with pytest.raises(ValueError, match="lacks data blocks: b"):
        tg.rewrite(page, {"a": {}, "b": {}})
    with pytest.raises(ValueError, match="does not make"):
        tg.rewrite(page, {})
    crlf = page.replace("\n", "\r\n")
    assert tg.rewrite(crlf, {"a": {"n": [1, 2]}}) == new.replace("\n", "\r\n")


def test_embeddings_are_unit_vectors_from_the_text(tg, data):
    for chunk in data["chunks"]["chunks"]:
        vector = chunk["embedding"]
        assert len(vector) == tg.DIMENSIONS
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, abs_tol=1e-3), chunk["key"]
        assert vector == tg.embed(chunk["text"])
    assert tg.embed("Vector index") == tg.embed("vector  INDEX!")


# --- the history ------------------------------------------------------------------------------------------


def test_the_history_is_this_repositorys_up_to_the_pin(tg):
    history = tg.load_history()
    assert history["pin"].startswith(tg.PIN) and len(history["pin"]) == 40
    have_pin = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{tg.PIN}^{{commit}}"],
                              capture_output=True).returncode == 0
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True).stdout.strip() == "true"
    if not have_pin or shallow:
        pytest.skip("this checkout lacks the history up to the pinned commit")
    assert tg.read_history(ROOT, tg.PIN) == history


def test_every_commit_is_a_merged_pull_request_with_its_files(tg):
    history = tg.load_history()
    graph = tg.build_graph(history)
    merged = [t for t in graph.threads if t["repo"] == tg.HOME and t["state"] == "MERGED"]
    assert len(merged) == len(history["commits"])
    for commit in history["commits"]:
        pr = graph.thread(commit["sha"])
        assert pr["title"] == commit["subject"]
        assert pr["mergedAt"] == commit["at"]
        assert [key for key, _, _ in pr["touched"]] == [f"file:{tg.HOME}:{path}" for path, _, _ in commit["files"]]


# --- consistency ------------------------------------------------------------------------------------------


def test_keys_are_unique_and_threads_numbered_per_repository(data):
    keys = [n["key"] for block, field in [("repos", "repos"), ("repos", "labels"), ("repos", "releases"),
                                           ("people", "people"), ("tree", "dirs"), ("tree", "files"),
                                           ("threads", "threads"), ("concepts", "concepts"), ("concepts", "docs")]
            for n in data[block][field]]
    assert len(keys) == len(set(keys))
    numbers = [(t["repo"], t["number"]) for t in data["threads"]["threads"]]
    assert len(numbers) == len(set(numbers))
    for thread in data["threads"]["threads"]:
        prefix = "pr" if thread["kind"] == "PullRequest" else "issue"
        assert thread["key"] == f"{prefix}:{thread['repo']}#{thread['number']}"


def test_the_tree_is_a_tree(data):
    dirs = {d["key"]: d for d in data["tree"]["dirs"]}
    for d in dirs.values():
        if d["parent"] is None:
            assert d["depth"] == 0 and d["path"] == ""
        else:
            parent = dirs[d["parent"]]
            assert parent["repo"] == d["repo"] and parent["depth"] == d["depth"] - 1
            assert d["path"].startswith(parent["path"])
    for f in data["tree"]["files"]:
        directory = dirs[f["dir"]]
        assert directory["repo"] == f["repo"]
        assert f["path"] == (f"{directory['path']}/" if directory["path"] else "") + f["path"].rsplit("/", 1)[-1]
        assert f["depth"] == directory["depth"]
    for owner in data["tree"]["owners"]:
        assert owner["dir"] in dirs


def test_every_edge_end_exists(data):
    people = {p["login"]: p for p in data["people"]["people"]}
    threads = {t["key"]: t for t in data["threads"]["threads"]}
    files = {f["key"] for f in data["tree"]["files"]}
    labels = {label["key"] for label in data["repos"]["labels"]}
    releases = {r["key"]: r for r in data["repos"]["releases"]}
    concepts = {c["key"] for c in data["concepts"]["concepts"]}
    docs = {d["key"] for d in data["concepts"]["docs"]}
    links = data["links"]
    for t in threads.values():
        assert t["author"] in people
        assert set(t["labels"]) <= labels
        assert t["assignee"] is None or t["assignee"] in people
        assert (t["mergedAt"] is not None) == (t["state"] == "MERGED") == (t["mergedBy"] is not None)
    for x in links["touched"]:
        assert threads[x["pr"]]["kind"] == "PullRequest" and x["file"] in files
        assert x["file"].startswith(f"file:{threads[x['pr']]['repo']}:")
    for x in links["reviews"]:
        pr = threads[x["pr"]]
        assert pr["kind"] == "PullRequest" and x["login"] in people and x["login"] != pr["author"]
        assert pr["createdAt"] <= x["at"] and (pr["mergedAt"] is None or x["at"] <= pr["mergedAt"])
    for x in links["comments"]:
        assert x["thread"] in threads and x["login"] in people and x["count"] >= 1
    for x in links["closes"]:
        pr, issue = threads[x["pr"]], threads[x["issue"]]
        assert pr["kind"] == "PullRequest" and issue["kind"] == "Issue" and issue["state"] == "CLOSED"
        assert pr["mergedAt"] == issue["closedAt"] and issue["createdAt"] < pr["mergedAt"]
    for x in links["references"]:
        assert x["crossRepo"] == (threads[x["from"]]["repo"] != threads[x["to"]]["repo"])
    shipped = [x["pr"] for x in links["shipped"]]
    assert len(shipped) == len(set(shipped))
    for x in links["shipped"]:
        pr, release = threads[x["pr"]], releases[x["release"]]
        assert pr["repo"] == release["repo"] and pr["mergedAt"] <= release["publishedAt"]
        earlier = [r for r in releases.values() if r["repo"] == pr["repo"]
                   and pr["mergedAt"] <= r["publishedAt"] < release["publishedAt"]]
        assert not earlier, f"{x['pr']} ships in {x['release']}, but an earlier release came after its merge"
    for release in releases.values():
        assert release["previous"] is None or releases[release["previous"]]["publishedAt"] < release["publishedAt"]
    for x in data["concepts"]["mentions"]:
        assert x["from"] in threads and x["concept"] in concepts
    for x in data["concepts"]["documents"]:
        assert x["doc"] in docs and x["concept"] in concepts
    for chunk in data["chunks"]["chunks"]:
        assert chunk["owner"] in threads or chunk["owner"] in docs
    for person in people.values():
        assert person["isBot"] == person["login"].endswith("[bot]")
        assert person["firstSeenAt"] <= person["lastSeenAt"]


def test_query_parameters_name_what_exists(data):
    entities = {n["key"] for block, field in [("people", "people"), ("tree", "dirs"), ("threads", "threads"),
                                               ("concepts", "concepts"), ("repos", "releases")]
                for n in data[block][field]}
    for name in ("details", "tracePr", "traceIssue", "references", "triageIssue", "neighbourhood", "expand"):
        assert data[name]["key"] in entities, name
    assert set(data["byKeys"]["keys"]) <= entities
    assert {data["connect"]["a"], data["connect"]["b"], data["verifyPath"]["entry"],
            data["verifyPath"]["cited"]} <= entities
    assert set(data["triageOwners"]["similar"]) <= entities and len(data["triageOwners"]["similar"]) == 6


# --- what the page's derived edges must be ----------------------------------------------------------------


def derived_counts(data) -> dict[str, int]:
    """The derived edges of the page's statements, computed here in Python from the data blocks."""
    bots = {p["login"] for p in data["people"]["people"] if p["isBot"]}
    threads = {t["key"]: t for t in data["threads"]["threads"]}
    dirs = {d["key"]: d for d in data["tree"]["dirs"]}
    file_dir = {f["key"]: f["dir"] for f in data["tree"]["files"]}

    def ancestors(file_key: str) -> set[str]:
        out, d = set(), file_dir[file_key]
        while d is not None and len(out) < 6:
            out.add(d)
            d = dirs[d]["parent"]
        return out

    touched = defaultdict(list)
    for x in data["links"]["touched"]:
        touched[x["pr"]].append(x["file"])
    reviews = data["links"]["reviews"]
    knows = set()
    for t in threads.values():
        if t["kind"] == "PullRequest" and t["mergedAt"] is not None and t["author"] not in bots:
            knows |= {(t["author"], d) for f in touched[t["key"]] for d in ancestors(f)}
    for x in reviews:
        if x["login"] not in bots:
            knows |= {(x["login"], d) for f in touched[x["pr"]] for d in ancestors(f)}
    reviews_for = {(x["login"], threads[x["pr"]]["author"]) for x in reviews
                   if x["login"] not in bots and threads[x["pr"]]["author"] not in bots
                   and x["login"] != threads[x["pr"]]["author"]}
    prs, review_count, contributes = defaultdict(int), defaultdict(int), set()
    for t in threads.values():
        if t["author"] not in bots:
            contributes.add((t["author"], t["repo"]))
            prs[(t["author"], t["repo"])] += t["kind"] == "PullRequest"
    for x in reviews:
        if x["login"] not in bots:
            contributes.add((x["login"], threads[x["pr"]]["repo"]))
            review_count[(x["login"], threads[x["pr"]]["repo"])] += 1
    pairs = defaultdict(int)
    for files in touched.values():
        ds = sorted({file_dir[f] for f in files})
        if 1 < len(ds) <= 25:
            for i, a in enumerate(ds):
                for b in ds[i + 1:]:
                    pairs[(a, b)] += 1
    return {"KNOWS": len(knows), "REVIEWS_FOR": len(reviews_for), "CONTRIBUTES_TO": len(contributes),
            "HAS_CONTRIBUTOR": sum(1 for c in contributes if prs[c] + review_count[c] >= 3),
            "CO_CHANGES": sum(1 for n in pairs.values() if n >= 3)}


def recorded_table(cell: str) -> list[list[str]]:
    """The rows of a cell's recorded table in the page, as the cells' texts."""
    page = PAGE.read_text(encoding="utf-8")
    match = re.search(rf"```cypher cell={re.escape(cell)}\b.*?```\n\n```table\n(.*?)```", page, re.S)
    assert match, f"no recorded table for {cell}"
    lines = [line for line in match[1].splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1:]]


def test_the_recorded_derived_edges_are_what_the_data_implies(data):
    recorded = {row[0].strip('"'): int(row[1]) for row in recorded_table("derived")}
    assert recorded == derived_counts(data)


def test_who_knows_the_temporal_code(data):
    """bodhi authored both merged changes under engine/temporal: first in whoKnowsArea, as the page's
    memory turn says."""
    rows = recorded_table("whoKnowsArea")
    assert rows[0][1] == '"bodhi"' and rows[0][4] == "2"
    assert "bodhi" in data["writeTurn"]["a"]


def test_the_recalled_playbook_is_close_enough(tg, data):
    similarity = tg.cosine(data["recallPlaybook"]["vec"], data["writePlaybook"]["vec"])
    assert similarity > 0.86


# --- the page runs the application's statements as its design writes them --------------------------------

SEED = ROOT.parent / "shared" / "seeds" / "threadline-design.txt"
MEMORY = ["writeTurn", "writeFact", "readFacts", "previousTurn", "history", "recallPlaybook", "writePlaybook",
          "writeCoordination", "writeHandoff", "saveTrace", "getTrace", "listShowcase"]
DERIVED = {"KNOWS (authored)": "knowsAuthored", "KNOWS (reviewed)": "knowsReviewed", "KNOWS (lastAt)": "knowsLastAt",
           "REVIEWS_FOR": "reviewsFor", "CONTRIBUTES_TO (authored)": "contributesAuthored",
           "CONTRIBUTES_TO (reviews)": "contributesReviews", "HAS_CONTRIBUTOR": "hasContributor",
           "CO_CHANGES": "coChangesEdges"}


def test_every_catalogue_statement_is_a_cell_as_the_design_writes_it():
    if not SEED.exists():
        pytest.skip(f"the design is not next to this checkout ({SEED.name})")
    lines = SEED.read_text(encoding="utf-8").splitlines()
    statements = {}
    for i, line in enumerate(lines):
        named = re.match(r"^([\w.]+)used by ", line)
        if named:
            statements[named[1]] = lines[i + 1]
        elif line in MEMORY or line in DERIVED:
            statements[DERIVED.get(line, line)] = lines[i + 1]
    assert len(statements) == 52
    cells = dict(re.findall(r"(?ms)^```cypher cell=(\S+)[^\n]*\n(.*?)^```", PAGE.read_text(encoding="utf-8")))
    for name, statement in statements.items():
        assert name in cells, f"no cell {name}"
        assert " ".join(cells[name].split()) == " ".join(statement.split()), name


# --- the ranks the page records are the ones the data implies ---------------------------------------------


def reviews_for_edges(data) -> set[tuple[str, str]]:
    bots = {p["login"] for p in data["people"]["people"] if p["isBot"]}
    authors = {t["key"]: t["author"] for t in data["threads"]["threads"]}
    return {(x["login"], authors[x["pr"]]) for x in data["links"]["reviews"]
            if x["login"] not in bots and authors[x["pr"]] not in bots and x["login"] != authors[x["pr"]]}


def page_rank(nodes: list[str], edges: set[tuple[str, str]], damping: float = 0.85) -> dict[str, float]:
    """Textbook PageRank by power iteration; a node with no out-edges spreads its rank over every node."""
    out = defaultdict(int)
    for a, _ in edges:
        out[a] += 1
    rank = dict.fromkeys(nodes, 1 / len(nodes))
    for _ in range(200):
        dangling = sum(rank[n] for n in nodes if out[n] == 0)
        new = {n: (1 - damping + damping * dangling) / len(nodes) for n in nodes}
        for a, b in sorted(edges):
            new[b] += damping * rank[a] / out[a]
        rank = new
    return rank


def betweenness(nodes: list[str], adjacency: dict[str, list[str]]) -> dict[str, float]:
    """Brandes' betweenness over a directed, unweighted graph, not normalised."""
    score = dict.fromkeys(nodes, 0.0)
    for source in nodes:
        order, parents, paths, depth, queue = [], defaultdict(list), defaultdict(int), {source: 0}, [source]
        paths[source] = 1
        while queue:
            v = queue.pop(0)
            order.append(v)
            for w in adjacency[v]:
                if w not in depth:
                    depth[w] = depth[v] + 1
                    queue.append(w)
                if depth[w] == depth[v] + 1:
                    paths[w] += paths[v]
                    parents[w].append(v)
        delta = defaultdict(float)
        for w in reversed(order):
            for v in parents[w]:
                delta[v] += paths[v] / paths[w] * (1 + delta[w])
            if w != source:
                score[w] += delta[w]
    return score


def test_page_rank_of_reviewers_is_what_the_reviews_give(data):
    people = [p["login"] for p in data["people"]["people"]]
    expected = page_rank(people, reviews_for_edges(data))
    rows = recorded_table("pageRankReviewers")
    assert [row[1].strip('"') for row in rows] == sorted(
        (p for p in people if not p.endswith("[bot]")), key=lambda p: -expected[p])[:10]
    for row in rows:
        assert math.isclose(float(row[2]), expected[row[1].strip('"')], rel_tol=1e-6)


def test_bridges_are_what_the_contributions_give(data):
    bots = {p["login"] for p in data["people"]["people"] if p["isBot"]}
    threads = {t["key"]: t for t in data["threads"]["threads"]}
    weight, contributes = defaultdict(int), set()
    for t in threads.values():
        if t["author"] not in bots:
            contributes.add((t["author"], t["repo"]))
            weight[(t["author"], t["repo"])] += t["kind"] == "PullRequest"
    for x in data["links"]["reviews"]:
        if x["login"] not in bots:
            contributes.add((x["login"], threads[x["pr"]]["repo"]))
            weight[(x["login"], threads[x["pr"]]["repo"])] += 1
    adjacency = defaultdict(list)
    for person, repo in sorted(contributes):
        adjacency[person].append(repo)
        if weight[(person, repo)] >= 3:
            adjacency[repo].append(person)
    nodes = [p["login"] for p in data["people"]["people"]] + [r["fullName"] for r in data["repos"]["repos"]]
    expected = betweenness(nodes, adjacency)
    rows = recorded_table("betweennessBridges")
    assert {row[1].strip('"') for row in rows} == {person for person, _ in contributes}
    for row in rows:
        assert math.isclose(float(row[2]), expected[row[1].strip('"')], rel_tol=1e-9, abs_tol=1e-9)
    assert rows[0][1] == '"amara"'


def nearest(tg, data, vec: list[float], k: int) -> list[tuple[float, str]]:
    """The k chunks nearest to `vec` by cosine, as (similarity, owner), best first."""
    scored = sorted(((tg.cosine(vec, c["embedding"]), c["owner"]) for c in data["chunks"]["chunks"]),
                    key=lambda item: -item[0])
    return scored[:k]


@pytest.mark.parametrize("cell", ["vectorEntry", "triageSimilar"])
def test_vector_queries_find_the_nearest_chunks(tg, data, cell):
    params = data[cell]
    k = params.get("k", 24)
    best: dict[str, float] = {}
    threads = {t["key"] for t in data["threads"]["threads"]}
    for similarity, owner in nearest(tg, data, params["vec"], k):
        if owner != params.get("key") and (cell == "vectorEntry" or owner in threads):  # triageSimilar: threads
            best[owner] = max(best.get(owner, -1.0), similarity)
    rows = recorded_table(cell)
    expected = sorted(best.items(), key=lambda item: -item[1])[:len(rows)]
    assert [row[0].strip('"') for row in rows] == [owner for owner, _ in expected]
    for row, (_, similarity) in zip(rows, expected, strict=True):
        assert math.isclose(float(row[-1]), similarity, abs_tol=1e-5)  # the index keeps 32-bit floats
