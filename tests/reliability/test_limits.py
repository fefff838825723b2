"""Limits: a statement that runs too long, needs too much memory or expands too many paths ends in a
clear engine error, rolled back whole, and the connection goes on working."""

from __future__ import annotations

import threading
import time

import pytest

import engine
from runner.cli import main
from tests.reliability.graph_state import graph_state

RUNAWAY = "UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y UNWIND range(1, 3000) AS z RETURN count(*)"
RUNAWAY_WRITE = "MATCH (a), (b), (c) CREATE (:Made) WITH a UNWIND range(1, 100000) AS x RETURN count(*)"


def complete_graph(db: engine.Connection, size: int) -> None:
    db.execute("UNWIND range(1, $n) AS i CREATE (:N {i: i})", {"n": size})
    db.execute("MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")


def test_a_statement_past_the_connections_timeout_is_stopped_and_rolled_back():
    with engine.connect(":memory:", timeout=0.3) as db:
        complete_graph(db, 60)
        before = graph_state(db)
        started = time.monotonic()
        with pytest.raises(engine.StatementTimeout) as raised:
            db.execute(RUNAWAY_WRITE)
        assert time.monotonic() - started < 10
        error = raised.value
        assert (error.kind, error.detail) == ("TransactionError", "TransactionTimedOut")
        assert "ran longer than its 0.3 s timeout" in str(error) and "rolled back" in str(error)
        assert error.line == 1 and error.column is not None
        assert graph_state(db) == before
        assert db.execute("MATCH (n:N) RETURN count(n)").fetchall() == [(60,)]


def test_a_timeout_per_statement():
    with engine.connect(":memory:") as db:
        with pytest.raises(engine.StatementTimeout) as raised:
            db.execute(RUNAWAY, timeout=0.2)
        # the read clauses run as one SQL statement (ADR-0029): the error names the first of them
        assert (raised.value.line, raised.value.column) == (1, 1)
        assert db.execute("RETURN 1 AS one", timeout=5).fetchall() == [(1,)]
        with pytest.raises(ValueError):
            db.execute("RETURN 1", timeout=0)
    with pytest.raises(ValueError):
        engine.connect(":memory:", timeout=-1)


def test_a_timeout_in_a_script_names_its_statement():
    with engine.connect(":memory:", timeout=0.3) as db:
        with pytest.raises(engine.StatementTimeout) as raised:
            db.execute_script(f"CREATE (:Kept);\n{RUNAWAY}")
        assert raised.value.line == 2
        assert db.execute("MATCH (n:Kept) RETURN count(n)").fetchall() == [(1,)]


def test_a_timeout_never_lands_on_the_next_statement():
    """With a timeout about as long as the statements, each one either commits or times out whole; an
    interrupt armed for one statement never stops the next (that would be StatementInterrupted)."""
    with engine.connect(":memory:", timeout=0.02) as db:
        committed = 0
        for number in range(60):
            try:
                db.execute("UNWIND range(1, $n) AS i CREATE (:Quick {n: $number, i: i})",
                           {"n": 1 + number % 7 * 300, "number": number})
                committed += 1
            except engine.StatementTimeout:
                pass
        (stored,), = db.execute("MATCH (q:Quick) RETURN count(DISTINCT q.n)", timeout=30).fetchall()
        assert stored == committed


def test_a_stopped_timer_never_interrupts():
    from engine.limits import StatementTimer

    calls = []
    with StatementTimer(0.01, lambda: calls.append(1)) as timer:
        pass
    time.sleep(0.05)
    assert calls == [] and not timer.expired
    with StatementTimer(0.01, lambda: calls.append(1)) as timer:
        time.sleep(0.1)
    assert calls == [1] and timer.expired


def test_interrupt_from_another_thread():
    with engine.connect(":memory:") as db:
        timer = threading.Timer(0.3, db.interrupt)
        timer.start()
        with pytest.raises(engine.StatementInterrupted) as raised:
            db.execute(RUNAWAY)
        assert not isinstance(raised.value, engine.StatementTimeout)
        assert raised.value.detail == "Terminated"
        assert db.execute("RETURN 2 AS two").fetchall() == [(2,)]


def test_cookbook_run_timeout_names_the_cell(tmp_path, capsys):
    page = tmp_path / "slow.md"
    page.write_text("# Slow\n\n```cypher cell=setup\nCREATE (:Kept)\n```\n\n"
                    f"```cypher cell=runaway\nMATCH (n:Kept)\n{RUNAWAY}\n```\n", encoding="utf-8")
    code = main(["run", str(page), "--timeout", "0.3", "--color", "never"])
    out = capsys.readouterr().out
    assert code == 1
    # the line of the read clauses that were running as one SQL statement: the page's line 8, the cell's first
    assert f"{page}:8: cell 'runaway' failed: TransactionError: the statement ran longer than its 0.3 s" in out


def test_cookbook_run_rejects_a_bad_timeout(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["run", "x.md", "--timeout", "soon"])
    assert raised.value.code == 2
    assert "expected a positive number of seconds, got 'soon'" in capsys.readouterr().err


def test_a_statement_over_the_memory_limit_fails_clearly():
    with engine.connect(":memory:", memory_limit="32MB") as db:
        db.execute("CREATE (:Kept {v: 1})")
        before = graph_state(db)
        with pytest.raises(engine.MemoryLimitExceeded) as raised:
            db.execute("UNWIND range(1, 20000) AS i CREATE (:Big {s: toString(i)}) WITH count(*) AS c "
                       "UNWIND range(1, 1000000) AS i "
                       "WITH collect(toString(i) + 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx') AS l RETURN size(l)")
        assert (raised.value.kind, raised.value.detail) == ("MemoryError", "MemoryPoolOutOfMemoryError")
        assert "memory limit" in raised.value.message and raised.value.line == 1
        assert graph_state(db) == before
        assert db.execute("MATCH (n) RETURN count(n)").fetchall() == [(1,)]


def memory_setting(db: engine.Connection) -> float:
    """DuckDB's memory_limit of the connection, in bytes ('286.1 MiB' → 300000000)."""
    (text,), = db._duck.execute("SELECT current_setting('memory_limit')").fetchall()
    number, unit = text.split()
    return float(number) * {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[unit]


def test_the_memory_limit_default_and_option():
    from engine.limits import default_memory_limit

    with engine.connect(":memory:") as db:
        default = int(default_memory_limit().removesuffix("MiB")) * 2**20
        assert abs(memory_setting(db) - default) < default * 0.01
        assert default <= 4 * 2**30
    with engine.connect(":memory:", memory_limit="300MB") as db:
        assert abs(memory_setting(db) - 300e6) < 1e6


@pytest.mark.parametrize("pattern", ["MATCH p = (:N)-[*]->(:N) RETURN count(p)",
                                     "MATCH p = (:N)-[:R*2..]-(:N) RETURN count(p)",
                                     "MATCH p = (:N)(()-[:R]->())+(:N) RETURN count(p)",
                                     "MATCH (a:N) CREATE (:Made) WITH a MATCH (a)-[*]->(b) RETURN count(b)"])
def test_a_variable_length_expansion_over_the_cap_fails_clearly(pattern):
    with engine.connect(":memory:", max_walk_rows=500) as db:
        complete_graph(db, 8)
        before = graph_state(db)
        with pytest.raises(engine.WalkLimitExceeded) as raised:
            db.execute(pattern)
        error = raised.value
        assert (error.kind, error.detail) == ("UnsupportedFeature", "WalkLimitExceeded")
        assert error.message.startswith("a variable-length pattern reached more than 500 partial paths in one "
                                        "step (the connection's max_walk_rows)")
        assert error.line == 1
        assert graph_state(db) == before
        # bounded, the same pattern runs
        assert db.execute("MATCH (:N)-[*1..2]->(:N) RETURN count(*)").fetchall() == [(56 + 8 * 7 * 7,)]


def test_the_walk_cap_is_per_connection():
    # the cap counts one start node's partial paths: from a node of K3, 2, 4, 6, ... trails per step
    with engine.connect(":memory:", max_walk_rows=3) as small, engine.connect(":memory:") as default:
        for db in (small, default):
            complete_graph(db, 3)
        assert default.execute("MATCH p = (:N)-[*]->(:N) RETURN count(p)").fetchall() == [(96,)]
        with pytest.raises(engine.WalkLimitExceeded):
            small.execute("MATCH p = (:N)-[*]->(:N) RETURN count(p)")
    with pytest.raises(ValueError):
        engine.connect(":memory:", max_walk_rows=0)


def test_unwind_of_a_range_streams_past_the_list_cap():
    """UNWIND range(...) of literals or parameters never builds the list: four million rows pass under a memory
    limit whose list cap is about three million, where the same range as a value is refused before it is built."""
    with engine.connect(":memory:", memory_limit="100MB") as db:
        assert db.execute("UNWIND range(1, 4000000) AS x RETURN count(*) AS n, sum(x) AS s").fetchall() == [
            (4_000_000, 8_000_002_000_000)]
        with pytest.raises(engine.CypherError, match="more than the"):
            db.execute("RETURN size(range(1, 4000000)) AS n")


def test_unwind_of_a_range_reaches_the_largest_integers():
    """range() includes its end; at the largest and smallest integers nothing past them is computed."""
    with engine.connect(":memory:") as db:
        top = 9_223_372_036_854_775_807
        assert db.execute("UNWIND range($a, $b) AS x RETURN x", {"a": top - 2, "b": top}).fetchall() == [
            (top - 2,), (top - 1,), (top,)]
        assert db.execute("UNWIND range($a, $b, -1) AS x RETURN x", {"a": -top + 1, "b": -top - 1}).fetchall() == [
            (-top + 1,), (-top,), (-top - 1,)]
