"""What DuckDB says when it cannot open a database file, as the engine's errors (issue 32, item 8).

DuckDB reports every failure to open a file as an IOException (or another `duckdb.Error`) whose text is
the only thing that tells the cases apart; a table of patterns maps it to the error a caller can match
on, with what to do. Text no pattern knows is DatabaseUnreadable with DuckDB's reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import duckdb

from engine.errors import DatabaseCorrupt, DatabaseLocked, DatabaseOpenError, DatabaseUnreadable

HOLDER = re.compile(r"Conflicting lock is held in .*? \(PID (?P<pid>\d+)\)")
CORRUPT_ADVICE = ("It is not a database this engine wrote, or it was damaged: restore it from a copy, or "
                  "open another path")
UNREADABLE_ADVICE = "Check that the path's directory exists and that this user may read and write it"

RULES: tuple[tuple[re.Pattern[str], Callable[[str, re.Match[str], str], DatabaseOpenError]], ...] = (
    (re.compile(r"Could not set lock on file"),
     lambda path, _, text: DatabaseLocked(path, int(m["pid"]) if (m := HOLDER.search(text)) else None)),
    (re.compile(r"not a valid DuckDB database file|Could not read enough bytes|corrupt|checksum|"
                r"Invalid Input Error|Serialization Error", re.IGNORECASE),
     lambda path, _, text: DatabaseCorrupt(path, "the file is not a database or is damaged", CORRUPT_ADVICE)),
    (re.compile(r"(?P<reason>No such file or directory|Is a directory|Permission denied|Read-only file system)"),
     lambda path, match, _: DatabaseUnreadable(path, match["reason"].lower(), UNREADABLE_ADVICE)),
)


def open_error(path: str, error: duckdb.Error) -> DatabaseOpenError:
    """The engine error for DuckDB's failure to open `path`."""
    text = str(error)
    for pattern, make in RULES:
        match = pattern.search(text)
        if match is not None:
            return make(path, match, text)
    reason = text.removeprefix("IO Error: ").rstrip(".")
    return DatabaseUnreadable(path, reason, UNREADABLE_ADVICE)
