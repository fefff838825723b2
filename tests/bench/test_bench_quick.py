"""The bench harness on tiny datasets, ours and the hand-written SQL only: their answers must agree.

This checks the harness (datasets, the hand-written SQL, the answer normalisation), not speed: no time is
asserted here. The peers are not needed (they are the optional `bench` extra).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest

from bench.datasets import TOP_K, WORDS_PER_MESSAGE
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


def test_search_data_ranks_alike(agent: Worker) -> None:
    """The full-text and vector workloads check peers on their ranked ids, which holds only while the data
    leaves no room for another ranking (bench/datasets.py): equal-length messages of distinct words, two query
    words no message holds together whose RediSearch idf floors differ, and TOP_K planted nearest vectors
    well apart from each other and from the rest."""
    dataset = agent.dataset
    assert dataset is not None
    texts = [m["text"].split(" ") for m in dataset.tables["messages"]]
    assert all(len(set(words)) == len(words) == WORDS_PER_MESSAGE for words in texts)
    rare, common = dataset.params["fulltext"].split(" ")
    assert dataset.params["fulltext_any"] == f"{rare}|{common}"
    holders = {w: {i for i, words in enumerate(texts) if w in words} for w in (rare, common)}
    assert holders[rare] and holders[common] and holders[rare].isdisjoint(holders[common])
    floors = [math.floor(math.log2(1 + len(texts) / len(holders[w]))) for w in (rare, common)]
    assert floors[0] > floors[1]
    vectors = np.array([f["embedding"] for f in dataset.tables["facts"]])
    query = np.array(dataset.params["vector"])
    distances = np.sort(1 - vectors @ query / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(query)))
    assert distances[TOP_K - 1] < 0.3 < 0.4 < distances[TOP_K]
    assert np.diff(distances[:TOP_K]).min() > 1e-3
