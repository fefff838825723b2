"""The short form of the correctness tests, in CI: metamorphic queries on ours alone (no oracle).

3,000 metamorphic queries over generated graphs, a fixed seed per chunk so that xdist spreads them over
the cores; the long form with the oracles is `python -m tests.differential` (docs/CORRECTNESS.md).
"""

from __future__ import annotations

import pytest

from tests.differential.metamorphic import RELATIONS, run_checks

CHUNKS = 12
QUERIES_PER_CHUNK = 250


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_metamorphic_relations_hold(chunk: int) -> None:
    tally = run_checks(f"ci-{chunk}", QUERIES_PER_CHUNK)
    assert tally.queries >= QUERIES_PER_CHUNK
    assert set(tally.per_relation) == set(RELATIONS), "every relation is exercised"
    assert tally.skipped < tally.bases // 10, "most base queries must run for the checks to mean anything"
    assert not tally.violations, "\n\n".join(map(str, tally.violations[:5]))
