"""A Cypher engine over DuckDB: statements compile to SQL over node and relationship tables.

Public API::

    import engine
    with engine.connect(":memory:") as db:          # or a path: one single-file database
        res = db.execute("MATCH (n) RETURN count(n) AS n")
        res.columns, res.fetchall(), res.counters
        results = db.execute_script("CREATE (); MATCH (n) RETURN n")
    engine.script_statements("CREATE (); MATCH (n) RETURN n ORDER BY n")   # [ScriptStatement(text, span, ordered)]

`Connection` and `connect` load the compiler on first use, so that `import engine` alone stays light and
`warm_up()` can start the in-memory host's DuckDB work while the rest loads (ADR-0027).
"""

from typing import TYPE_CHECKING, Any

from engine.errors import (
    ConstraintViolation,
    CypherArgumentError,
    CypherError,
    CypherSemanticError,
    CypherSyntaxError,
    CypherTypeError,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseExists,
    DatabaseLocked,
    DatabaseNotFound,
    DatabaseOpenError,
    DatabaseUnreadable,
    EntityNotFound,
    ExternalResourceError,
    HolderLost,
    MemoryLimitExceeded,
    ParameterMissing,
    ProcedureError,
    ReadOnlyViolation,
    SchemaError,
    StatementInterrupted,
    StatementTimeout,
    StorageError,
    UnsupportedFeature,
    WalkLimitExceeded,
)
from engine.execute.results import COUNTER_NAMES, Result, Window
from engine.host import warm_up
from engine.span import Span
from engine.values import (
    Date,
    DateTime,
    Duration,
    LocalDateTime,
    LocalTime,
    Node,
    Path,
    Point,
    Relationship,
    Time,
    Vector,
    java_double_text,
)

__all__ = [
    "COUNTER_NAMES",
    "Connection",
    "ConstraintViolation",
    "CypherArgumentError",
    "CypherError",
    "CypherSemanticError",
    "CypherSyntaxError",
    "CypherTypeError",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DatabaseExists",
    "DatabaseLocked",
    "DatabaseNotFound",
    "DatabaseOpenError",
    "DatabaseUnreadable",
    "Date",
    "DateTime",
    "Duration",
    "EntityNotFound",
    "ExternalResourceError",
    "HolderLost",
    "LocalDateTime",
    "LocalTime",
    "MemoryLimitExceeded",
    "Node",
    "ParameterMissing",
    "Path",
    "Point",
    "ProcedureError",
    "ReadOnlyViolation",
    "Relationship",
    "Result",
    "SchemaError",
    "Span",
    "StatementInterrupted",
    "StatementTimeout",
    "StorageError",
    "Time",
    "UnsupportedFeature",
    "Vector",
    "WalkLimitExceeded",
    "Window",
    "connect",
    "java_double_text",
    "script_statements",
    "warm_up",
]

if TYPE_CHECKING:
    from engine.connection import Connection, connect
    from engine.syntax.script import script_statements


def __getattr__(name: str) -> Any:
    if name in ("Connection", "connect"):
        from engine import connection

        return getattr(connection, name)
    if name == "script_statements":  # the parser, like the compiler, loads on first use
        from engine.syntax.script import script_statements

        return script_statements
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
