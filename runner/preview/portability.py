"""Which other databases gave each cell's recorded result, for the preview: read from the page's recorded
portability matrix (`runner.matrix_files`: the JSON twin `cookbook run PAGE --target ... --matrix FILE.md`
writes) and the notes beside it. No Cypher runs.

A page without a matrix file has no portability (nothing is shown). A matrix is stale for a cell it has no
entry for (the cell is newer, or was renamed), and for a cell whose Cypher or recorded block changed since
it was made (its verdicts are shown, marked so); the page's card sums up what is stale, and which cells the
matrix names that the page no longer has.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.matrix_files import UnreadableMatrix, cell_digest, load_notes, read_matrix, target_name
from runner.page.model import Page

SAME = "same"
NO_NOTE = "no note yet in notes.yaml"


@dataclass
class Verdict:
    """One target's verdict on one cell: same, differs, error, not run; and the note that explains it."""

    uri: str
    verdict: str
    note: str = ""

    @property
    def name(self) -> str:
        return target_name(self.uri)

    @property
    def css(self) -> str:
        return self.verdict.replace(" ", "-")


@dataclass
class CellPortability:
    """A cell's verdicts, and `stale`: why they are missing or may be out of date ("" when current)."""

    verdicts: list[Verdict] = field(default_factory=list)
    stale: str = ""


@dataclass
class PagePortability:
    """A page's matrix as the preview shows it. `shown` names the matrix file; `command` makes it again."""

    shown: str
    command: str
    targets: list[str]
    cells: dict[str, CellPortability]
    stale: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def names(self) -> str:
        return ", ".join(target_name(uri) for uri in self.targets)


def from_matrix(page: Page, matrix: Path, *, shown: str | None = None) -> PagePortability | None:
    """The page's portability from its matrix file, or None when it has none (see the module docstring)."""
    if not matrix.is_file():
        return None
    shown = shown or str(matrix)
    try:
        document = read_matrix(matrix)
        recorded = {entry["name"]: entry for entry in document["cells"]}
        targets, command = list(document["targets"]), str(document["command"])
    except (UnreadableMatrix, KeyError, TypeError) as error:
        return PagePortability(shown, "", [], {}, errors=[f"{shown} cannot be read: {error}"])
    notes = load_notes(matrix, Path(page.path).stem)
    cells: dict[str, CellPortability] = {}
    missing, changed = [], []
    for cell in page.cells:
        entry = recorded.get(cell.name)
        if entry is None:
            missing.append(cell.name)
            cells[cell.name] = CellPortability(stale=f"not in the portability matrix {shown}, which is older than "
                                               f"this cell: `{command}` makes it again")
            continue
        verdicts = [_verdict(uri, entry.get("results", {}).get(uri, {}), notes.get(cell.name, {}))
                    for uri in targets]
        stale = ""
        if entry.get("digest") != cell_digest(cell):
            changed.append(cell.name)
            stale = f"the cell changed since the matrix was made: `{command}` makes it again"
        cells[cell.name] = CellPortability(verdicts, stale)
    gone = [name for name in recorded if name not in cells]
    return PagePortability(shown, command, targets, cells, _stale_lines(missing, changed, gone))


def _verdict(uri: str, result: dict[str, Any], notes: dict[str, str]) -> Verdict:
    verdict = str(result.get("verdict", "not run"))
    note = notes.get(uri, "") or ("" if verdict == SAME else NO_NOTE)
    return Verdict(uri, verdict, " ".join(note.split()))


def _stale_lines(missing: list[str], changed: list[str], gone: list[str]) -> list[str]:
    """What is stale in the matrix, a sentence per kind."""
    kinds = (("cells not in it", missing), ("cells changed since it was made", changed),
             ("cells in it the page no longer has", gone))
    return [f"{label}: {', '.join(f'`{name}`' for name in names)}" for label, names in kinds if names]
