"""Live sessions (runner/live): a page's cells run one at a time, edited or not, and its trace stepped, each
result checked against the recording as `cookbook run` checks it; and the loopback endpoint that serves
them to `mkdocs serve`'s pages (runner/live_endpoint.py)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from runner.live import LiveSession
from runner.live_endpoint import TOKEN_HEADER, LiveEndpoint, LiveSessions
from runner.page import Trace, parse_page
from tests.runner.helpers import COOKBOOK_PAGE, agent_memory_page

TRACE = "session-2-calls"
RUNAWAY = "UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y UNWIND range(1, 3000) AS z RETURN count(*)"


@pytest.fixture(scope="module")
def session() -> LiveSession:
    return LiveSession.from_page(COOKBOOK_PAGE, timeout=30)


def test_each_cell_run_in_page_order_gives_its_recording(session):
    page = agent_memory_page()
    for cell in page.cells:
        if isinstance(cell, Trace):
            continue
        answer = session.handle({"op": "run", "cell": cell.name})
        assert answer["ok"] and answer["same"] and answer["diff"] is None and answer["error"] is None, cell.name
        assert answer["block"] == cell.recorded.text
        assert answer["html"].startswith(f'<div class="cb-result cb-result--{cell.recorded.kind}">')


def test_a_cell_run_out_of_order_runs_on_what_the_cells_before_it_build(session):
    session.handle({"op": "reset"})
    assert session.handle({"op": "run", "cell": "recall-again"})["same"]
    assert session.handle({"op": "run", "cell": "labels"})["same"]  # back up the page: built again


def test_an_edited_statement_is_checked_against_the_recording(session):
    answer = session.handle({"op": "run", "cell": "labels",
                             "statement": "MATCH (n) WHERE NOT n:Session\nUNWIND labels(n) AS label\n"
                                          "RETURN label, count(*) AS nodes\nORDER BY label"})
    assert answer["ok"] and not answer["same"]
    assert '| "Session"  | 1     |' not in answer["block"]
    assert answer["diff"].startswith(f"{COOKBOOK_PAGE}:") and "cell 'labels' drifted" in answer["diff"]
    assert '-| "Session"  | 1     |' in answer["diff"]
    # the page's own text again: the cell runs on a database built anew, not on what the edit left
    assert session.handle({"op": "run", "cell": "labels", "statement": agent_memory_page().cell("labels").text})[
        "same"]


def test_edited_parameters_replace_the_cells_data_block(session):
    answer = session.handle({"op": "run", "cell": "recall",
                             "params": '{"question": "What do you remember about the billing service?"}'})
    assert answer["ok"] and not answer["same"]
    assert "Bob is on call for the billing service." in answer["block"]
    unchanged = json.dumps(agent_memory_page().data["question"].values)  # the same values, other spacing
    assert session.handle({"op": "run", "cell": "recall", "params": unchanged})["same"]


@pytest.mark.parametrize(("params", "message"), [
    ('{"question": ', "the parameters are not JSON"),
    ('["a list"]', "the parameters must be a JSON object"),
])
def test_parameters_that_are_not_a_json_object_are_refused(session, params, message):
    answer = session.handle({"op": "run", "cell": "recall", "params": params})
    assert not answer["ok"] and answer["error"]["message"].startswith(message)
    assert answer["error"]["line"] == agent_memory_page().cell("recall").line


def test_an_error_in_an_edited_statement_points_at_the_page(session):
    cell = agent_memory_page().cell("recall")
    answer = session.handle({"op": "run", "cell": "recall", "statement": "MATCH (e:Entity)\nRETURN e.name AS"})
    assert not answer["ok"] and answer["block"] == ""
    error = answer["error"]
    assert error["message"].startswith("SyntaxError: ")
    assert error["line"] == cell.content_line + 1 and error["column"] == 17


def test_step_then_play_all_replay_the_trace_and_empty_the_database(session):
    trace = agent_memory_page().cell(TRACE)
    session.handle({"op": "run", "cell": "recall-again"})  # past the trace's start: it would write twice
    first = session.handle({"op": "step", "trace": TRACE})
    assert first["ok"] and first["same"] and (first["step"], first["steps"]) == (1, 7)
    assert first["block"].startswith("// step 1 of 7: read_cypher\n") and "4 rows" in first["block"]
    assert "// step 2" not in first["block"]
    second = session.handle({"op": "step", "trace": TRACE})
    assert second["same"] and second["step"] == 2 and "nodes_created: 5" in second["block"]
    rest = session.handle({"op": "play", "trace": TRACE})
    assert rest["same"] and rest["step"] == 7 and rest["diff"] is None
    assert rest["block"] == trace.text
    assert rest["html"].count('<div class="cb-step">') == 7
    assert session.connection is None  # emptied when the trace ended
    again = session.handle({"op": "step", "trace": TRACE})  # a new replay, from the first call
    assert again["step"] == 1 and again["same"]
    assert session.handle({"op": "run", "cell": "slots"})["same"]  # a run ends the replay


def test_a_trace_started_where_its_cells_end_runs_on_that_database(session):
    session.handle({"op": "reset"})
    assert session.handle({"op": "run", "cell": "slots"})["same"]
    before = session.connection
    assert session.handle({"op": "play", "trace": TRACE})["same"]
    assert before is not None and session.connection is None


def test_a_step_that_differs_shows_the_diff_of_the_steps_so_far():
    source = COOKBOOK_PAGE.read_text(encoding="utf-8")
    assert source.count("4 rows\n\n// step 2 of 7") == 1
    source = source.replace("4 rows\n\n// step 2 of 7", "5 rows\n\n// step 2 of 7")
    session = LiveSession(parse_page(source, COOKBOOK_PAGE))
    answer = session.handle({"op": "step", "trace": TRACE})
    assert answer["ok"] and not answer["same"] and answer["step"] == 1
    assert "step 1 (read_cypher): " in answer["diff"] and "-5 rows" in answer["diff"] and "+4 rows" in answer["diff"]
    assert "// step 2" not in answer["diff"]


def test_a_failing_cell_before_the_one_run_is_named():
    page = parse_page("```cypher cell=broken\nRETURN 1 +\n```\n\n```cypher cell=after\nRETURN 1 AS one\n```\n",
                      "page.md")
    answer = LiveSession(page).handle({"op": "run", "cell": "after"})
    assert not answer["ok"]
    assert answer["error"]["message"].startswith("cell 'broken', which runs before, failed: SyntaxError")
    assert answer["error"]["line"] == 2


def test_an_unrecorded_cell_gives_its_block_and_is_not_the_same():
    page = parse_page("```cypher cell=one\nRETURN 1 AS one\n```\n", "page.md")
    answer = LiveSession(page).handle({"op": "run", "cell": "one"})
    assert answer["ok"] and not answer["same"] and answer["diff"] is None
    assert answer["block"] == "| one |\n|-----|\n| 1   |\n1 row\n"


@pytest.mark.parametrize(("request_", "message"), [
    ({"op": "fly"}, "unknown op 'fly'"),
    ({"op": "run", "cell": "nope"}, "no cell named 'nope'"),
    ({"op": "step", "trace": "labels"}, "no trace named 'labels'"),
])
def test_a_request_that_names_nothing_is_an_error(session, request_, message):
    answer = session.handle(request_)
    assert not answer["ok"] and answer["error"]["message"].startswith(message)


# -- the endpoint ---------------------------------------------------------------------------------------

@pytest.fixture
def docs(tmp_path: Path) -> Path:
    (tmp_path / "page.md").write_text("```cypher cell=one\nCREATE (:A)\n```\n\n"
                                      "```cypher cell=count\nMATCH (n) RETURN count(*) AS n\n```\n", encoding="utf-8")
    (tmp_path / "other.txt").write_text("not a page", encoding="utf-8")
    return tmp_path


def count(sessions: LiveSessions, tab: str = "a") -> str:
    answer = sessions.handle({"page": "page.md", "tab": tab, "request": {"op": "run", "cell": "count"}})
    return answer["block"].split("\n")[2]


def test_each_open_page_has_a_session_of_its_own(docs):
    sessions = LiveSessions(docs, timeout=10, memory_limit=None, limit=2)
    assert count(sessions) == "| 1 |"
    one = {"page": "page.md", "tab": "a", "request": {"op": "run", "cell": "one", "statement": "CREATE (:A), (:B)"}}
    sessions.handle(one)
    assert count(sessions, "b") == "| 1 |"  # another tab: its own database, built from the page
    sessions.handle({**one, "request": {"op": "run", "cell": "count"}})
    assert len(sessions.open) == 2
    count(sessions, "c")
    assert list(sessions.open) == [("page.md", "a"), ("page.md", "c")]  # the least recently used closed
    (docs / "page.md").write_text((docs / "page.md").read_text().replace("(:A)", "(:A), (:A), (:A)"))
    assert count(sessions, "c") == "| 3 |"  # the page changed: a session of the new text
    sessions.close_all()


@pytest.mark.parametrize("page", ["../page.md", "other.txt", "missing.md", "/etc/passwd"])
def test_only_the_docs_folders_pages_are_opened(docs, page):
    with pytest.raises(ValueError, match="no page"):
        LiveSessions(docs / "sub" / "..", timeout=None, memory_limit=None).handle(
            {"page": page, "request": {"op": "reset"}})


def post(endpoint: LiveEndpoint, body: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any], Any]:
    request = urllib.request.Request(endpoint.url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read()), answer.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers


def test_the_endpoint_answers_the_preview_on_loopback_only(docs):
    endpoint = LiveEndpoint(LiveSessions(docs, timeout=10, memory_limit=None)).start()
    try:
        body = {"page": "page.md", "tab": "t", "request": {"op": "run", "cell": "count"}}
        token = {TOKEN_HEADER: endpoint.token}
        origin = "http://127.0.0.1:8000"
        status, answer, headers = post(endpoint, body, Origin=origin, **token)
        assert status == 200 and answer["ok"] and answer["block"].split("\n")[2] == "| 1 |"
        assert headers["Access-Control-Allow-Origin"] == origin
        assert post(endpoint, body)[0] == 403  # no token
        assert post(endpoint, body, **{TOKEN_HEADER: "guess"})[0] == 403
        assert post(endpoint, body, Origin="http://example.org", **token)[0] == 403
        assert post(endpoint, body, Host="attacker.example:80", **token)[0] == 403  # DNS rebinding
        assert post(endpoint, {"page": "../x.md", "request": {}}, **token)[0] == 400
        preflight = urllib.request.Request(endpoint.url, method="OPTIONS", headers={"Origin": origin})
        with urllib.request.urlopen(preflight, timeout=10) as answer:
            assert answer.status == 204 and TOKEN_HEADER in answer.headers["Access-Control-Allow-Headers"]
    finally:
        endpoint.stop()
    with pytest.raises(ValueError, match="loopback only"):
        LiveEndpoint(LiveSessions(docs, timeout=None, memory_limit=None), host="0.0.0.0")


def test_a_statement_runs_within_the_serve_timeout(docs):
    sessions = LiveSessions(docs, timeout=0.5, memory_limit=None)
    answer = sessions.handle({"page": "page.md", "request": {
        "op": "run", "cell": "count", "statement": RUNAWAY}})
    sessions.close_all()
    assert not answer["ok"] and "longer than its 0.5 s timeout" in answer["error"]["message"]

