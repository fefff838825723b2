"""The portability matrix: for each cell of a page and each target, whether the target gave the recorded
result (`same`), another one (`differs`, with the diff), or an error (`error`); `not run` for a trace block,
which replays tool calls on the embedded engine only.

It is printed as a table after a `--target` run, carried by `--json`, and written with `--matrix FILE` as a
Markdown page whose differences each come with a note from `notes.yaml` beside the file, and as its JSON twin
for the MkDocs preview (`runner.matrix_files`, docs/portability.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.matrix_files import MATRIX_FORMAT, cell_digest
from runner.page.model import Page
from runner.run import ERROR, FAILED, PASSED, RAN, SKIPPED, UNRECORDED, CellOutcome, PageOutcome
from runner.targets import TARGETS, client_versions, scheme_of

SAME, DIFFERS, FAILS, NOT_RUN = "same", "differs", "error", "not run"
VERDICTS = {PASSED: SAME, FAILED: DIFFERS, ERROR: FAILS, SKIPPED: NOT_RUN, UNRECORDED: "unrecorded"}
"""A cell's status on a target → its word in the matrix."""
IDS_NOTE = ("Element ids are compared up to a consistent renaming (each target numbers its own); everything "
            "else is compared exactly.")


@dataclass
class PageMatrix:
    """One page's outcomes on each target, by target URI, in the order the targets were given."""

    page: Page
    outcomes: dict[str, PageOutcome]

    def rows(self) -> list[tuple[str, dict[str, CellOutcome]]]:
        """Each cell's name and its outcome per target, in page order (cells run only to reach --cell left
        out)."""
        by_name: dict[str, dict[str, CellOutcome]] = {}
        for uri, outcome in self.outcomes.items():
            for cell in outcome.cells:
                if cell.status != RAN:
                    by_name.setdefault(cell.cell.name, {})[uri] = cell
        return list(by_name.items())

    def uncompared_counters(self) -> list[str]:
        return [uri for uri in self.outcomes if not TARGETS[scheme_of(uri)].reports_counters]

    def caveats(self) -> list[str]:
        notes = [IDS_NOTE]
        notes += [f"{uri} reports no update counters: its counters are not compared (a result is shown with "
                  "the recorded ones)." for uri in self.uncompared_counters()]
        return notes

    def table(self) -> str:
        """The matrix as a Markdown table, a row per cell, a column per target."""
        uris = list(self.outcomes)
        lines = [[f"`{name}`", *(VERDICTS[cells[uri].status] if uri in cells else "" for uri in uris)]
                 for name, cells in self.rows()]
        header = ["cell", *(f"`{uri}`" for uri in uris)]
        widths = [max(len(row[index]) for row in [header, *lines]) for index in range(len(header))]

        def line(cells: list[str]) -> str:
            return "| " + " | ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)) + " |"
        rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
        return "\n".join([line(header), rule, *map(line, lines)]) + "\n"

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.page.path),
            "title": self.page.title,
            "targets": list(self.outcomes),
            "counters_compared": {uri: uri not in self.uncompared_counters() for uri in self.outcomes},
            "ids": "compared up to a consistent renaming",
            "cells": [{"name": name, "line": next(iter(cells.values())).cell.line,
                       "digest": cell_digest(next(iter(cells.values())).cell),
                       "results": {uri: {"verdict": VERDICTS[outcome.status], **_details(outcome)}
                                   for uri, outcome in cells.items()}}
                      for name, cells in self.rows()],
        }

    def recorded(self, command: str) -> dict[str, Any]:
        """The JSON twin of the Markdown matrix: this page's `--json` entry, with the command that made it
        and the client packages it ran with."""
        return {"format": MATRIX_FORMAT, "command": command,
                "clients": {uri: client_versions(uri) for uri in self.outcomes}, **self.as_dict()}

    def markdown(self, command: str, notes: dict[str, dict[str, str]]) -> str:
        """The matrix as a page of docs: how to make it again, the table, then each difference with its
        note (`notes[cell][uri]`) and its diff or error."""
        clients = "; ".join(f"`{uri}` with {client_versions(uri)}" for uri in self.outcomes)
        parts = [f"# Portability of `{self.page.path}`\n", f"Made by `{command}` ({clients}).",
                 " ".join(self.caveats()) + "\n", self.table()]
        differences = [(name, uri, outcome) for name, cells in self.rows() for uri, outcome in cells.items()
                       if outcome.status != PASSED]
        if differences:
            parts.append("## Differences\n")
        for name, uri, outcome in differences:
            note = notes.get(name, {}).get(uri, "(no note yet: explain this difference in notes.yaml)")
            detail = outcome.failure.rstrip("\n")
            parts.append(f"### `{name}` on `{uri}`: {VERDICTS[outcome.status]}\n\n{note.strip()}\n")
            if detail:
                parts.append(f"<details><summary>{'diff' if outcome.status == FAILED else 'message'}</summary>\n\n"
                             f"```text\n{detail}\n```\n\n</details>\n")
        return "\n".join(parts)


def _details(outcome: CellOutcome) -> dict[str, Any]:
    details = outcome.as_dict()
    return {key: details[key] for key in ("reasons", "diff", "error", "raised")}

