"""The engine's errors. Each carries the position of the construct at fault.

`kind` and `detail` follow the openCypher TCK's error names (`SyntaxError`/`InvalidRelationshipPattern`,
`TypeError`/`InvalidArgumentType`, ...) so conformance checks can match them; the message is for people.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.span import Span


def line_and_column(span: Span) -> str:
    """How a message names a position of the statement: `line:column`."""
    return f"{span.line}:{span.column}"


class CypherError(Exception):
    """Base of every error the engine raises on a statement.

    A message that names another position of the statement (where the bracket left open was opened) is
    given as a sequence of text and spans: `message` writes each span `line:column`, and an adapter that
    shows the statement inside a larger text (a cell of a cookbook page) writes them as positions of that
    text with `message_at`.
    """

    kind = "Error"
    phase = "runtime"

    def __init__(self, message: str | Sequence[str | Span], span: Span | None = None, *,
                 detail: str | None = None, source: str | None = None) -> None:
        self.parts: tuple[str | Span, ...] = tuple(message) if isinstance(message, (tuple, list)) else (message,)
        super().__init__(self.message)
        self.span = span
        self.detail = detail
        self.source = source

    @property
    def message(self) -> str:
        return self.message_at(line_and_column)

    @message.setter
    def message(self, text: str) -> None:
        self.parts = (text,)

    @property
    def related(self) -> tuple[Span, ...]:
        """The positions the message names, besides `span`."""
        return tuple(part for part in self.parts if isinstance(part, Span))

    def message_at(self, position: Callable[[Span], str]) -> str:
        """The message, with each position it names written by `position`."""
        return "".join(position(part) if isinstance(part, Span) else str(part) for part in self.parts)

    @property
    def line(self) -> int | None:
        return self.span.line if self.span else None

    @property
    def column(self) -> int | None:
        return self.span.column if self.span else None

    def with_source(self, source: str) -> CypherError:
        """Attach the statement text so `str()` can show the line and a caret."""
        if self.source is None:
            self.source = source
        return self

    def __str__(self) -> str:
        if self.span is None:
            return self.message
        text = f"{self.message} (line {self.span.line}, column {self.span.column})"
        if self.source:
            lines = self.source.splitlines() or [""]
            if 0 < self.span.line <= len(lines):
                excerpt = lines[self.span.line - 1]
                text += f"\n  {excerpt}\n  {' ' * (self.span.column - 1)}^"
        return text


class CypherSyntaxError(CypherError):
    """The text is not Cypher, or not Cypher we parse."""

    kind = "SyntaxError"
    phase = "compile time"


class CypherSemanticError(CypherError):
    """A statement that cannot be carried out as written, found while it runs (MERGE on a null
    property). Invalid Cypher found before running (an undefined variable, a misplaced aggregate) is a
    `CypherSyntaxError`, as Neo4j and the openCypher TCK classify it."""

    kind = "SemanticError"


class CypherTypeError(CypherError):
    """A value of the wrong type reached an operator or function."""

    kind = "TypeError"


class CypherArithmeticError(CypherError):
    """Integer overflow or division of an integer by zero."""

    kind = "ArithmeticError"


class CypherArgumentError(CypherError):
    """A value of the right type but outside what a function or clause accepts."""

    kind = "ArgumentError"


class EntityNotFound(CypherError):
    """A node or relationship was used after it was deleted."""

    kind = "EntityNotFound"


class ConstraintViolation(CypherError):
    """A write broke a constraint, or a delete would leave relationships dangling."""

    kind = "ConstraintValidationFailed"


class SchemaError(CypherError):
    """A schema command that cannot be carried out: an index or constraint that already exists or does not,
    one whose creation the data prevents. `detail` is the title of Neo4j's status code
    (`Neo.ClientError.Schema.IndexWithNameAlreadyExists`, `Neo.DatabaseError.Schema.ConstraintCreationFailed`,
    ...)."""

    kind = "SchemaError"


class UnsupportedFeature(CypherError):
    """Valid Cypher that this engine does not run. Raised rather than giving a wrong answer."""

    kind = "UnsupportedFeature"
    phase = "compile time"


class ExternalResourceError(CypherError):
    """LOAD CSV could not read the file its url names: outside the import directory, missing or not CSV
    (`Neo.ClientError.Statement.ExternalResourceFailed`)."""

    kind = "ExternalResourceError"


class ParameterMissing(CypherError):
    """The statement uses `$name` and no value was given for it."""

    kind = "ParameterMissing"
    phase = "compile time"


class ProcedureError(CypherError):
    """A procedure call names an unknown procedure or breaks its signature."""

    kind = "ProcedureError"
    phase = "compile time"


class ReadOnlyViolation(CypherError):
    """A statement that writes was given to a read-only execution."""

    kind = "ForbiddenError"
    phase = "compile time"


class StatementInterrupted(CypherError):
    """The statement was stopped while it ran (`Connection.interrupt()`); it was rolled back whole."""

    kind = "TransactionError"

    def __init__(self, message: str = "the statement was interrupted and rolled back; nothing it did was kept",
                 span: Span | None = None, *, detail: str | None = "Terminated", source: str | None = None) -> None:
        super().__init__(message, span, detail=detail, source=source)


class StatementTimeout(StatementInterrupted):
    """The statement ran past its time limit (`engine.connect(..., timeout=)`); it was rolled back whole."""

    def __init__(self, seconds: float, span: Span | None = None, *, source: str | None = None) -> None:
        super().__init__(f"the statement ran longer than its {seconds:g} s timeout and was stopped; it was "
                         "rolled back and nothing it did was kept", span, detail="TransactionTimedOut",
                         source=source)
        self.seconds = seconds


class MemoryLimitExceeded(CypherError):
    """The statement needed more memory than the connection's `memory_limit`; it was rolled back whole."""

    kind = "MemoryError"


class StorageError(CypherError):
    """The database file could not be written (disk full, a file size limit); the statement was rolled back
    and the engine's catalog reloaded from the file."""

    kind = "DatabaseError"


class DatabaseOpenError(CypherError):
    """A database file could not be opened; the message names the path, the reason and what to do."""

    kind = "DatabaseError"

    def __init__(self, path: str, reason: str, advice: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}. {advice}")
        self.path = path
        self.reason = reason


class DatabaseLocked(DatabaseOpenError):
    """Another process holds the file for writing (DuckDB's exclusive lock); `pid` is that process."""

    def __init__(self, path: str, pid: int | None) -> None:
        holder = f"another process (PID {pid})" if pid is not None else "another process"
        super().__init__(path, f"it is open in {holder}, which holds it for writing",
                         "Wait for that process to exit, or stop it, and try again")
        self.pid = pid


class DatabaseCorrupt(DatabaseOpenError):
    """The file is not a database, or a damaged one."""


class DatabaseUnreadable(DatabaseOpenError):
    """The file or its directory cannot be read or created (missing directory, permissions, a directory)."""


class DatabaseNotFound(CypherError):
    """A graph name no graph of the database has (`Neo.ClientError.Database.DatabaseNotFound`, ADR-0068)."""

    kind = "DatabaseError"


class DatabaseExists(CypherError):
    """CREATE DATABASE of a name a graph already has, without IF NOT EXISTS
    (`Neo.ClientError.Database.ExistingDatabaseFound`)."""

    kind = "DatabaseError"


class DatabaseBusy(CypherError):
    """The statement could not run now: another statement held the database's write lock for longer than a
    write may wait. Nothing of it ran; send it again."""

    kind = "TransientError"


class HolderLost(DatabaseBusy):
    """The process serving a shared database file (ADR-0055) exited while it ran this statement, so whether
    it was committed is unknown. Another process serves the file now; send it again if doing so twice is
    harmless (a MERGE is), or check first."""

    def __init__(self, path: str) -> None:
        super().__init__(f"the process serving the database {path} exited while this statement ran, so it may "
                         "or may not have been committed; another process serves the file now. Send the "
                         "statement again if running it twice is harmless (MERGE is), or check first")
        self.path = path


class WalkLimitExceeded(UnsupportedFeature):
    """A variable-length pattern grew past the cap on partial paths per step (`max_walk_rows`)."""

    phase = "runtime"
