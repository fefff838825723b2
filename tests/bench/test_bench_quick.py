"""The bench harness on tiny datasets, ours and the hand-written SQL only: their answers must agree.

This checks the harness (datasets, the hand-written SQL, the answer normalisation), not speed: no time is
asserted here. The peers are not needed (they are the optional `bench` extra).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.worker import Worker
from bench.workloads import READS

# the engine refuses or cannot finish these on purpose-sized limits; they must say so, never answer wrongly
MAY_DECLINE = {"unsupported", "timeout"}


SYSTEMS = ("ours", "handsql")


def loaded(kind: str, size: int, edges: int) -> Iterator[Worker]:
    """A worker with a tiny dataset of `kind` loaded into ours and the hand-written SQL."""
    worker = Worker(list(SYSTEMS))
    worker.do_dataset(kind, size, edges)
    for name in SYSTEMS:
        worker.do_open(name)
        assert worker.do_load(name, 60)["status"] == "ok"
    yield worker
    for name in SYSTEMS:
        worker.do_close(name)


@pytest.fixture(scope="module")
def agent() -> Iterator[Worker]:
    yield from loaded("agent", 300, 0)


@pytest.fixture(scope="module")
def social() -> Iterator[Worker]:
    yield from loaded("social", 200, 800)


def test_loads_agree(agent: Worker, social: Worker) -> None:
    for worker in (agent, social):
        assert worker.do_counts("ours") == worker.do_counts("handsql")


@pytest.mark.parametrize("workload", [w.name for w in READS])
def test_reads_agree(workload: str, agent: Worker, social: Worker) -> None:
    spec = next(w for w in READS if w.name == workload)
    worker = agent if spec.dataset == "agent" else social
    hand = worker.do_read("handsql", workload, 10)
    ours = worker.do_read("ours", workload, 10)
    assert hand["status"] == "ok", hand.get("note")
    assert hand["count"] > 0, "the workload's parameters should find something"
    if ours["status"] in MAY_DECLINE:
        pytest.skip(f"ours: {ours['status']}: {ours.get('note')}")
    assert ours["status"] == "ok", ours.get("note")
    assert ours["rows"] == hand["rows"]


def test_remember_agrees(agent: Worker) -> None:
    ours, hand = agent.do_remember("ours", 0), agent.do_remember("handsql", 0)
    assert ours["status"] == hand["status"] == "ok", (ours.get("note"), hand.get("note"))
    assert ours["rows"] == hand["rows"]
    assert len(ours["rows"]) == 50
    assert agent.do_counts("ours") == agent.do_counts("handsql")
