"""A page's recorded portability matrix on disk: one answer for `cookbook run --target ... --matrix FILE`,
which writes it, and the MkDocs preview, which reads it.

`--matrix docs/portability/PAGE.md` writes the matrix twice from the same run: the Markdown page people
read, and beside it `PAGE.json`, the same verdicts for a program (the `--json` document's entry for the
page, with the command that made it). The notes that explain each difference are `notes.yaml` in the same
folder, keyed by the page's file name without `.md`, then cell, then target URI: the Markdown copies them
in when it is written, the preview reads them when it renders. Each cell's entry carries a digest of its
Cypher and its recorded block, so a reader can tell a cell that changed since the matrix was made.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from runner.page.model import Cell

MATRIX_FORMAT = 1
NOTES_FILE = "notes.yaml"
TARGET_NAMES = {"falkordb": "FalkorDB", "arcadedb": "ArcadeDB", "bolt": "Bolt", "neo4j": "Neo4j"}
"""A target URI's scheme (before any `+s`) → the database's name as a reader knows it."""


class UnreadableMatrix(ValueError):
    """The JSON twin is not a matrix document this version reads."""


def json_twin(markdown_file: Path) -> Path:
    """`docs/portability/PAGE.md` → `docs/portability/PAGE.json`."""
    return markdown_file.with_suffix(".json")


def matrix_path(page_path: Path, pages: Path, folder: Path) -> Path:
    """`cookbook/01-agent-memory.md` → `docs/portability/01-agent-memory.json`: the page's path below its
    pages folder, under the matrices' folder, as the snapshots are laid out."""
    return folder / page_path.resolve().relative_to(pages.resolve()).with_suffix(".json")


def cell_digest(cell: Cell) -> str:
    """What a cell's verdicts depend on in the page: its Cypher and its recorded block."""
    recorded = cell.recorded.text if cell.recorded is not None else ""
    return hashlib.sha256(f"{cell.text}\0{recorded}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


def target_name(uri: str) -> str:
    """`falkordb://local` → `FalkorDB`; a scheme without a name is shown as the URI."""
    scheme = uri.split(":", 1)[0].split("+", 1)[0].lower()
    return TARGET_NAMES.get(scheme, uri)


def load_notes(matrix_file: Path, page_stem: str) -> dict[str, dict[str, str]]:
    """The notes on one page's differences: `notes.yaml` beside the matrix file, the page's entry (cell →
    target URI → note). Missing: no notes."""
    path = matrix_file.parent / NOTES_FILE
    if not path.is_file():
        return {}
    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return document.get(page_stem, {}) or {}


def read_matrix(path: Path) -> dict[str, Any]:
    """The JSON twin's document; UnreadableMatrix names what is wrong with it."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UnreadableMatrix(f"{type(error).__name__}: {error}") from error
    if not isinstance(document, dict) or document.get("format") != MATRIX_FORMAT:
        raise UnreadableMatrix(f"not a portability matrix of format {MATRIX_FORMAT} (made by `cookbook run PAGE "
                               "--target URI --matrix FILE.md`)")
    return document
