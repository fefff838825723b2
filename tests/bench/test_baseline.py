"""The `baseline` system runs the engine of an earlier commit, not this checkout's, in its own process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import baseline

REPOSITORY = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
from bench.systems import Baseline
system = Baseline()
system.open("social")
system.write("CREATE (:Person {id: 1})-[:KNOWS]->(:Person {id: 2})", {})
answer = system.query("MATCH (a)-[:KNOWS]->(b) RETURN a.id, b.id", {})
print(json.dumps({"engine": sys.modules["engine"].__file__, "answer": answer, "version": system.versions()}))
"""


def test_the_baseline_worker_imports_the_extracted_engine_and_answers(tmp_path: Path) -> None:
    tree = baseline.extract("HEAD", tmp_path)
    assert (tree / "engine" / "__init__.py").is_file()
    env = {**os.environ, baseline.TREE_VARIABLE: str(tree), baseline.COMMIT_VARIABLE: "HEAD",
           "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPOSITORY, env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(result["engine"]).resolve().is_relative_to(tree.resolve())
    assert result["answer"] == [[1, 2]]
    assert result["version"].startswith("engine at HEAD")


def test_a_commit_git_cannot_find_is_reported_not_raised_as_a_crash(tmp_path: Path) -> None:
    with pytest.raises(baseline.BaselineUnavailable, match="git archive"):
        baseline.extract("0" * 40, tmp_path)
