"""The engine's layers hold (ADR-0056): `lint-imports` checks the contracts in pyproject.toml, and no module
imports inside a function to get round them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]
LAZY = {("engine/__init__.py", "engine.connection"), ("engine/__init__.py", "engine.syntax.script"),
        ("engine/algorithms/compute.py", "igraph"),
        ("engine/execute/normal_forms.py", "pyarrow.compute")}
"""Imports that are deferred on purpose: `import engine` stays light (ADR-0027), igraph and pyarrow load on first
use."""


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


def test_the_runner_and_the_bench_use_no_private_attribute_of_a_connection():
    """`runner/` and `bench/` reach the engine through `engine.Connection`'s public methods: none reads
    one of its private attributes (its DuckDB connection, its store, its executor)."""
    with engine.connect(":memory:") as connection:
        private = {name for name in vars(connection) if name.startswith("_") and not name.startswith("__")}
    found = []
    for folder in ("runner", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in private and not (
                        isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert private and found == []


def test_sql_generation_and_the_layers_beneath_it_run_no_sql():
    """ADR-0058: syntax, semantic, plan and sqlgen never hold a DuckDB connection nor run a statement; what
    the data decides reaches them on the plan step (execute/prepare.py)."""
    found = []
    for folder in ("syntax", "semantic", "plan", "sqlgen"):
        for path in sorted((ROOT / "engine" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module]
                    found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {m}" for m in modules
                              if m and (m.split(".")[0] == "duckdb" or m.startswith("engine.execute"))]
                if isinstance(node, ast.Attribute) and node.attr in ("execute", "fetchone", "fetchall", "fetchmany"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls .{node.attr}")
    assert found == []
