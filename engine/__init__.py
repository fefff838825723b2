"""A Cypher engine over DuckDB: statements compile to SQL over node and relationship tables.

Public API::

    import engine
    with engine.connect(":memory:") as db:          # or a path: one single-file database
        res = db.execute("MATCH (n) RETURN count(n) AS n")
        res.columns, res.fetchall(), res.counters
        results = db.execute_script("CREATE (); MATCH (n) RETURN n")
"""

from engine.connection import Connection, connect
from engine.errors import (
    ConstraintViolation,
    CypherArgumentError,
    CypherError,
    CypherSemanticError,
    CypherSyntaxError,
    CypherTypeError,
    EntityNotFound,
    MemoryLimitExceeded,
    ParameterMissing,
    ProcedureError,
    ReadOnlyViolation,
    SchemaError,
    StatementInterrupted,
    StatementTimeout,
    UnsupportedFeature,
    WalkLimitExceeded,
)
from engine.execute.results import COUNTER_NAMES, Result
from engine.values import (
    Date,
    DateTime,
    Duration,
    LocalDateTime,
    LocalTime,
    Node,
    Path,
    Relationship,
    Time,
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
    "Date",
    "DateTime",
    "Duration",
    "EntityNotFound",
    "LocalDateTime",
    "LocalTime",
    "MemoryLimitExceeded",
    "Node",
    "ParameterMissing",
    "Path",
    "ProcedureError",
    "ReadOnlyViolation",
    "Relationship",
    "Result",
    "SchemaError",
    "StatementInterrupted",
    "StatementTimeout",
    "Time",
    "UnsupportedFeature",
    "WalkLimitExceeded",
    "connect",
]
