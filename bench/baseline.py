"""Ours at an earlier commit, timed in the same run as ours now: the baseline a "no read slower than at
commit X" claim is read against.

Two runs on a shared machine differ by more than the few percent such a claim is about, so the earlier
engine runs as one more system of the same run (`systems.Baseline`), in a worker of its own: the driver
extracts the commit's `engine/` package into the run's directory (`git archive`), and the worker imports
`engine` from there instead of from this checkout. The engine imports nothing of the rest of the project,
so its package alone is enough.
"""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

DEFAULT_COMMIT = "9424e70"
"""The commit issue 38 measures against: bench/RESULTS.md as it was measured there."""

TREE_VARIABLE = "BENCH_BASELINE_TREE"
"""Where the worker finds the extracted package (set by the driver before workers start)."""
COMMIT_VARIABLE = "BENCH_BASELINE_COMMIT"

REPOSITORY = Path(__file__).resolve().parent.parent


class BaselineUnavailable(RuntimeError):
    """The commit cannot be had here (no git, a shallow clone without it): the run goes on without it."""


def extract(commit: str, into: Path) -> Path:
    """`engine/` of `commit` under `into`/baseline-`commit`; the directory to put first on the import path."""
    try:
        archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", "--format=tar", commit, "engine"],
                                 capture_output=True, check=True, timeout=120).stdout
    except (OSError, subprocess.SubprocessError) as error:
        detail = (getattr(error, "stderr", b"") or b"").decode(errors="replace").strip()
        raise BaselineUnavailable(f"git archive {commit} failed: {detail or error}") from None
    tree = into / f"baseline-{commit}"
    tree.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def publish(commit: str, tree: Path) -> None:
    """Tell the workers the driver starts from now on where the baseline's package is."""
    os.environ[TREE_VARIABLE] = str(tree)
    os.environ[COMMIT_VARIABLE] = commit


def commit() -> str:
    return os.environ.get(COMMIT_VARIABLE, DEFAULT_COMMIT)


def engine_module() -> ModuleType:
    """`engine` as the baseline commit has it. The worker hosting the baseline imported this checkout's
    engine through the bench's own modules; those modules are dropped and the package is imported again
    from the extracted tree, which the baseline system alone then uses."""
    tree = os.environ.get(TREE_VARIABLE)
    if not tree:
        raise BaselineUnavailable(f"{TREE_VARIABLE} is not set: the driver extracts the baseline first")
    current = sys.modules.get("engine")
    if current is not None and str(Path(current.__file__ or "").resolve()).startswith(str(Path(tree).resolve())):
        return current
    for name in [name for name in sys.modules if name == "engine" or name.startswith("engine.")]:
        del sys.modules[name]
    sys.path.insert(0, tree)
    importlib.invalidate_caches()
    module = importlib.import_module("engine")
    if not str(Path(module.__file__ or "").resolve()).startswith(str(Path(tree).resolve())):
        raise BaselineUnavailable(f"engine was imported from {module.__file__}, not from the baseline tree")
    return module
