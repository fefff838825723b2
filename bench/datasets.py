"""Deterministic datasets: the seed's agent-memory model at a chosen number of messages, and a social graph.

Every system loads the same rows (`Dataset.batches`) through the same kind of statement, `UNWIND $rows ...`,
so the numbers compare loading paths, not data. The generators use one seeded `random.Random` each, so a
dataset is the same on every run and in every worker process that builds it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from typing import Any, overload

import numpy as np

MESSAGES_PER_SESSION = 50
ENTITY_KINDS = ("service", "team", "person", "technology", "event")
FACT_ATTRIBUTES = ("owner", "team", "status", "version", "location")
DECISION_ATTRIBUTES = ("database", "language", "deploy")
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

WORDS_PER_MESSAGE = 8
VOCABULARY = 2_000
DIMENSIONS = 64
TOP_K = 10
VECTOR_MAX_MESSAGES = 10_000
"""Facts have embeddings (and the vector workload runs) up to this size only. At 100k messages the 80,000
vectors cost more than the rest of the load: ours binds the rows of a batch holding 64-float lists through
Python type inference and JSON (about 4 s more per 8,000 facts, ours' facts step going from 7 s to over
40 s), and Kuzu's HNSW index takes 30 s to build over 8,000 vectors here, so minutes over 80,000."""


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Columns(Sequence[dict[str, Any]]):
    """A table of rows kept as one column per key: reads as a sequence of row dicts (a slice is a list of
    them), so the loaders see what they always saw, while a dataset of ten million relationships costs a
    few arrays instead of ten million dicts in every worker, whose peak RSS the scale series reports."""

    def __init__(self, columns: dict[str, Any], length: int) -> None:
        self.columns, self.length = columns, length

    @classmethod
    def of(cls, rows: list[dict[str, Any]]) -> Columns:
        keys = list(rows[0]) if rows else []
        return cls({k: [row[k] for row in rows] for k in keys}, len(rows))

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            # numpy columns give plain Python values (the loaders serialise rows to JSON)
            values = [c[index].tolist() if isinstance(c, np.ndarray) else c[index] for c in self.columns.values()]
            return [dict(zip(self.columns, row, strict=True)) for row in zip(*values, strict=True)]
        return self[index:index + 1 if index != -1 else None][0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for first in range(0, self.length, 10_000):
            yield from self[first:first + 10_000]


@dataclass
class Dataset:
    name: str
    kind: str  # "agent" or "social"
    size: int  # messages, or people
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Rows per load step, in load order (each step is one UNWIND statement per batch)."""
    params: dict[str, Any] = field(default_factory=dict)
    """Parameters of the read workloads (the question, start nodes, pairs)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> tuple[int, int]:
        """(nodes, relationships) the load creates."""
        nodes = sum(len(self.tables[k]) for k in NODE_STEPS[self.kind])
        rels = sum(len(self.tables[k]) for k in REL_STEPS[self.kind])
        rels += sum(len(row["about"]) for k in ("facts", "decisions") if k in self.tables for row in self.tables[k])
        return nodes, rels


NODE_STEPS = {"agent": ("sessions", "entities", "messages", "facts", "decisions"), "social": ("people",)}
# relationships created by their own step; facts and decisions also create FROM (one each, counted in the
# messages-like way below) and ABOUT (one per `about` entry)
REL_STEPS = {"agent": ("messages", "mentions", "facts", "decisions", "supersedes"), "social": ("knows",)}


def _zipf_cum(n: int, exponent: float) -> list[float]:
    return list(accumulate(1.0 / (rank + 1) ** exponent for rank in range(n)))


def _vocabulary(size: int, rng: random.Random) -> list[str]:
    """Invented words of consonant-vowel-consonant-vowel-consonant, from consonants and vowels chosen so that
    every peer's analyzer keeps them whole: none is an English stop word (Kuzu and RediSearch drop those) and
    none ends in a suffix an English stemmer strips (both stem by default). With every message holding
    WORDS_PER_MESSAGE distinct words, every BM25 or TF-IDF variant gives all messages the same length norm
    and term frequency, so a message's score depends only on which query terms it holds (`_search_terms`)."""
    consonants, vowels = "bdgkmnprtvz", "aou"
    words = [a + b + c + d + e for a in consonants for b in vowels for c in consonants for d in vowels
             for e in consonants]
    return rng.sample(words, size)


def _search_terms(messages: list[dict[str, Any]]) -> tuple[str, str]:
    """Two words for the full-text top-k, a rare one and a common one that no message holds together, so that
    every engine ranks the same messages first: those with the rare word, then those with the common one, ties
    broken by the statement's ORDER BY. That holds for any score that gives a matched term a positive weight,
    higher for the rarer term: BM25's variants, and RediSearch's TF-IDF (FalkorDB), whose idf is
    floor(log2(1 + N / df)) (so the two words' floors must differ too), and which divides the score of a
    message holding several query terms by their distance in it (hence no message with both). The rare word
    is the rarest that fits, held by 3 messages at least; the common one the commonest in at most a tenth."""
    holders: dict[str, set[int]] = {}
    for m in messages:
        for word in m["text"].split(" "):
            holders.setdefault(word, set()).add(m["seq"])
    n = len(messages)

    def idf_floor(word: str) -> int:
        return math.floor(math.log2(1 + n / len(holders[word])))

    by_count = sorted(holders, key=lambda w: (len(holders[w]), w))
    rares = [w for w in by_count if len(holders[w]) >= 3]
    for common in reversed([w for w in by_count if len(holders[w]) <= n // 10]):
        for rare in rares:
            if idf_floor(rare) <= idf_floor(common):
                break
            if holders[rare].isdisjoint(holders[common]):
                return rare, common
    raise ValueError("no pair of words fits the full-text workload")


def _embeddings(count: int, seed: int) -> tuple[list[list[float]], list[float]]:
    """`count` random DIMENSIONS-dimension vectors in 32-bit floats (the precision FalkorDB and Kuzu store,
    so every system holds the same values), and a query vector with TOP_K of them planted at cosine
    distances 0.005, 0.019, ... 0.29 (1 - 1/sqrt(1 + eps²) for eps = 0.1, 0.2, ... 1.0), all others beyond
    about 0.45: the nearest TOP_K are unambiguous, for an exact search and for an HNSW index alike."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((count, DIMENSIONS))
    query = rng.standard_normal(DIMENSIONS)
    planted = rng.choice(count, size=min(TOP_K, count), replace=False)
    for rank, index in enumerate(planted):
        away = rng.standard_normal(DIMENSIONS)
        away -= away @ query / (query @ query) * query
        away *= np.linalg.norm(query) / np.linalg.norm(away)
        vectors[index] = query + 0.1 * (rank + 1) * away
    return vectors.astype(np.float32).tolist(), query.astype(np.float32).tolist()


class AgentMemory:
    """Sessions of 50 messages; entities picked by a Zipf-like popularity; facts and decisions in slots,
    each new item in a used slot superseding the newest older item of its label there (the seed's rule)."""

    def __init__(self, messages: int, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.entity_count = max(40, messages // 20)
        self.entities = [f"{ENTITY_KINDS[i % len(ENTITY_KINDS)]} {i}" for i in range(self.entity_count)]
        self.cum = _zipf_cum(self.entity_count, 1.0)
        self.last_in_slot: dict[tuple[str, str], dict[str, Any]] = {}
        self.next_seq = 1
        # message words come from a generator of their own, so the rest of the dataset is what it was before
        # messages had words
        self.words_rng = random.Random(seed + 1)
        self.vocabulary = _vocabulary(VOCABULARY, random.Random(seed + 2))
        self.words_cum = _zipf_cum(VOCABULARY, 1.0)

    def _at(self, seq: int) -> str:
        return iso(START + timedelta(minutes=3 * seq))

    def message(self) -> dict[str, Any]:
        """The next message with its extraction, in the seed's `session-1` block shape."""
        rng, seq = self.rng, self.next_seq
        self.next_seq += 1
        picked: list[str] = []
        for name in rng.choices(self.entities, cum_weights=self.cum, k=1 + rng.randrange(4)):
            if name not in picked:
                picked.append(name)
        facts, decisions, used = [], [], set()
        for j in range(rng.choice((0, 0, 1, 1, 2))):
            about = picked[:1] + ([picked[-1]] if len(picked) > 1 and rng.random() < 0.5 else [])
            slot = ""
            if rng.random() < 0.6:
                slot = f"{about[0]}/{rng.choice(FACT_ATTRIBUTES)}"
                if ("Fact", slot) in used:
                    slot = ""
                used.add(("Fact", slot))
            facts.append({"text": f"fact {seq}.{j}: {' and '.join(about)}", "slot": slot, "about": about})
        if rng.random() < 0.15:
            about = picked[-1:] + ([picked[0]] if len(picked) > 1 else [])
            slot = f"{about[0]}/{rng.choice(DECISION_ATTRIBUTES)}"
            decisions.append({"text": f"decision {seq}: {slot}", "rationale": f"because of message {seq}",
                              "slot": slot, "about": about})
        return {"seq": seq, "at": self._at(seq), "text": self.words(),
                "entities": [{"name": n, "kind": n.split(" ")[0]} for n in picked],
                "facts": facts, "decisions": decisions}

    def words(self) -> str:
        """A message's text: WORDS_PER_MESSAGE distinct words, picked by a Zipf-like popularity (see
        `_vocabulary` for why every message has as many words, each once)."""
        picked: dict[str, None] = {}
        while len(picked) < WORDS_PER_MESSAGE:
            for word in self.words_rng.choices(self.vocabulary, cum_weights=self.words_cum, k=WORDS_PER_MESSAGE):
                if len(picked) < WORDS_PER_MESSAGE:
                    picked.setdefault(word)
        return " ".join(picked)

    def session(self, number: int) -> dict[str, Any]:
        """The parameters of one run of the seed's `remember` statements: a session and its messages."""
        messages = [self.message() for _ in range(MESSAGES_PER_SESSION)]
        return {"session": f"session-{number}", "startedAt": messages[0]["at"], "messages": messages}


def agent_memory(messages: int, remember_sessions: int = 10) -> Dataset:
    gen = AgentMemory(messages)
    sessions, entity_rows, message_rows, mentions, facts, decisions, supersedes = [], {}, [], [], [], [], []
    for number in range(max(1, messages // MESSAGES_PER_SESSION)):
        block = gen.session(number)
        sessions.append({"id": block["session"], "startedAt": block["startedAt"]})
        for msg in block["messages"]:
            message_rows.append({"seq": msg["seq"], "text": msg["text"], "at": msg["at"], "session": block["session"]})
            for ent in msg["entities"]:
                key = ent["name"].lower()
                entity_rows.setdefault(key, {"key": key, "name": ent["name"], "kind": ent["kind"]})
                mentions.append({"seq": msg["seq"], "key": key})
            for label, items, target in (("Fact", msg["facts"], facts), ("Decision", msg["decisions"], decisions)):
                for item in items:
                    row = {"text": item["text"], "slot": item["slot"], "seq": msg["seq"], "at": msg["at"],
                           "supersededAt": None, "about": [name.lower() for name in item["about"]]}
                    if label == "Decision":
                        row["rationale"] = item["rationale"]
                    if item["slot"]:
                        old = gen.last_in_slot.get((label, item["slot"]))
                        if old is not None:
                            old["supersededAt"] = msg["at"]
                            supersedes.append({"label": label, "slot": item["slot"], "new": msg["seq"],
                                               "old": old["seq"]})
                        gen.last_in_slot[(label, item["slot"])] = row
                    target.append(row)
    # the question names an entity of middling popularity, so recall returns tens of rows, not thousands
    rank = min(len(gen.entities) - 1, 20 if messages <= 2_000 else 60)
    question_entity = gen.entities[rank]
    current = [f for f in facts + decisions if f["slot"] and f["supersededAt"] is None]
    starts = [{"seq": item["seq"], "text": item["text"]}
              for item in random.Random(11).sample(current, min(100, len(current)))]
    vector_params = {}
    if messages <= VECTOR_MAX_MESSAGES:
        vectors, vector_params["vector"] = _embeddings(len(facts), seed=13)
        for row, vector in zip(facts, vectors, strict=True):
            row["embedding"] = vector
    rare, common = _search_terms(message_rows)
    last_at = message_rows[-1]["at"]
    as_of = iso(START + (datetime.fromisoformat(last_at.replace("Z", "+00:00")) - START) / 2)
    dataset = Dataset(
        name=f"agent-{_size_name(messages)}", kind="agent", size=messages,
        tables={"sessions": sessions, "entities": list(entity_rows.values()), "messages": message_rows,
                "mentions": mentions, "facts": facts, "decisions": decisions, "supersedes": supersedes},
        params={"question": f"What do you remember about the {question_entity}?", "asOf": as_of,
                "items": starts, "fulltext": f"{rare} {common}", "fulltext_any": f"{rare}|{common}",
                **vector_params})
    dataset.extra["remember"] = [gen.session(100_000 + i) for i in range(remember_sessions)]
    dataset.tables = {name: Columns.of(rows) for name, rows in dataset.tables.items()}
    return dataset


def social(people: int, knows: int, seed: int = 3) -> Dataset:
    """People with uniform out-degree and Zipf-skewed in-degree (a few people are followed by many)."""
    rng = random.Random(seed)
    cities = [f"city {i}" for i in range(40)]
    people_rows = [{"id": i, "name": f"person {i}", "age": 18 + rng.randrange(60), "city": rng.choice(cities)}
                   for i in range(people)]
    popularity = list(range(people))
    rng.shuffle(popularity)
    cum = _zipf_cum(people, 0.8)
    edges: set[tuple[int, int]] = set()
    while len(edges) < knows:
        need = knows - len(edges)
        sources = [rng.randrange(people) for _ in range(need)]
        targets = rng.choices(popularity, cum_weights=cum, k=need)
        edges.update((s, d) for s, d in zip(sources, targets, strict=True) if s != d)
    ordered = sorted(edges)
    rng.shuffle(ordered)
    knows_rows = [{"src": s, "dst": d, "since": 2000 + (s * 31 + d) % 25} for s, d in ordered[:knows]]
    out: dict[int, list[int]] = {}
    for row in knows_rows:
        out.setdefault(row["src"], []).append(row["dst"])
    starts = random.Random(5).sample(range(people), 100)
    walker = random.Random(9)
    pairs = []
    while len(pairs) < 100:
        src = walker.randrange(people)
        node, steps = src, 2 + walker.randrange(3)
        for _ in range(steps):
            if node not in out:
                break
            node = walker.choice(out[node])
        if node != src:
            pairs.append([src, node])
    return Dataset(name=f"social-{_size_name(people)}", kind="social", size=people,
                   tables={"people": Columns.of(people_rows), "knows": Columns.of(knows_rows)},
                   params={"ids": starts, "pairs": pairs})


SCALED_DEGREE = 10
"""KNOWS relationships per person in the scale series (`social_scaled`), as in the full run's social graph."""


def social_scaled(knows: int, seed: int = 3) -> Dataset:
    """The social graph's model (uniform out-degree, Zipf-skewed in-degree with exponent 0.8, no self loops or
    repeated pairs) at `knows` relationships and a tenth as many people, drawn with numpy: `social` draws
    edge by edge in Python, which at ten million relationships takes minutes and gigabytes. A different
    random graph from `social`'s at the same size, so it is named by its relationships (`social-10m-rels`)."""
    people = max(100, knows // SCALED_DEGREE)
    rng = np.random.default_rng(seed)
    ages = 18 + rng.integers(0, 60, people)
    cities = rng.integers(0, 40, people)
    popularity = rng.permutation(people)
    cum = np.cumsum(1.0 / np.arange(1, people + 1) ** 0.8)
    keys = np.empty(0, dtype=np.int64)
    while len(keys) < knows:
        need = knows - len(keys)
        src = rng.integers(0, people, need)
        dst = popularity[np.minimum(np.searchsorted(cum, rng.random(need) * cum[-1]), people - 1)]
        drawn = (src * people + dst)[src != dst]
        keys = np.sort(np.concatenate([keys, drawn]))  # np.unique's hashing path is ten times slower
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    keys = rng.permutation(keys)[:knows]
    src, dst = keys // people, keys % people
    order = np.argsort(src, kind="stable")
    bounds = np.searchsorted(src[order], np.arange(people + 1))
    walker = random.Random(9)
    pairs: list[list[int]] = []
    while len(pairs) < 100:
        start = walker.randrange(people)
        node = start
        for _ in range(2 + walker.randrange(3)):
            first, last = bounds[node], bounds[node + 1]
            if first == last:
                break
            node = int(dst[order[first + walker.randrange(last - first)]])
        if node != start:
            pairs.append([start, node])
    ids = np.arange(people)
    people_rows = Columns({"id": ids, "name": [f"person {i}" for i in range(people)], "age": ages,
                           "city": [f"city {c}" for c in cities.tolist()]}, people)
    knows_rows = Columns({"src": src, "dst": dst, "since": 2000 + (src * 31 + dst) % 25}, knows)
    starts = random.Random(5).sample(range(people), 100)
    return Dataset(name=f"social-{_size_name(knows)}-rels", kind="social", size=people,
                   tables={"people": people_rows, "knows": knows_rows}, params={"ids": starts, "pairs": pairs})


def _size_name(n: int) -> str:
    if n % 1_000_000 == 0 and n >= 1_000_000:
        return f"{n // 1_000_000}m"
    return f"{n // 1000}k" if n % 1000 == 0 and n >= 1000 else str(n)
