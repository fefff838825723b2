"""The engine's layers hold (ADR-0056): `lint-imports` checks the contracts in pyproject.toml, and no module
imports inside a function to get round them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAZY = {("engine/__init__.py", "engine.connection"), ("engine/algorithms/compute.py", "igraph")}
"""Imports that are deferred on purpose: `import engine` stays light (ADR-0027), igraph loads on first use."""


def test_the_import_contracts_are_kept():
    done = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_no_import_is_deferred_into_a_function():
    deferred = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    module = node.module if isinstance(node, ast.ImportFrom) and node.module else node.names[0].name
                    if isinstance(node, ast.ImportFrom) and node.module == "engine":
                        module = f"engine.{node.names[0].name}"
                    where = (str(path.relative_to(ROOT)), module)
                    if where not in LAZY:
                        deferred.append(f"{where[0]}:{node.lineno} imports {module}")
    assert deferred == []
