"""The Neo4j status code a failure carries over Bolt: one table from the engine's error kinds, so a driver
raises the exception class it would raise against Neo4j (ClientError, TransientError and its retries,
DatabaseError) and `error.code` reads as Neo4j's.

A kind is looked up along its class's bases (WalkLimitExceeded is an UnsupportedFeature); a schema error
whose `detail` is one of Neo4j's schema codes carries that code. Anything else (an engine bug) is
`Neo.DatabaseError.General.UnknownError`.
"""

from __future__ import annotations

import engine
from runner.bolt.values import UnsupportedValue

CODES: dict[type[BaseException], str] = {
    engine.CypherSyntaxError: "Neo.ClientError.Statement.SyntaxError",
    engine.CypherSemanticError: "Neo.ClientError.Statement.SemanticError",
    engine.CypherTypeError: "Neo.ClientError.Statement.TypeError",
    engine.CypherArgumentError: "Neo.ClientError.Statement.ArgumentError",
    engine.ParameterMissing: "Neo.ClientError.Statement.ParameterMissing",
    engine.EntityNotFound: "Neo.ClientError.Statement.EntityNotFound",
    engine.ExternalResourceError: "Neo.ClientError.Statement.ExternalResourceFailed",
    engine.UnsupportedFeature: "Neo.ClientError.Statement.UnsupportedOperationError",
    engine.ReadOnlyViolation: "Neo.ClientError.Statement.AccessMode",
    engine.ConstraintViolation: "Neo.ClientError.Schema.ConstraintValidationFailed",
    engine.SchemaError: "Neo.ClientError.Statement.SemanticError",
    engine.ProcedureError: "Neo.ClientError.Procedure.ProcedureCallFailed",
    engine.StatementTimeout: "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
    engine.StatementInterrupted: "Neo.ClientError.Transaction.Terminated",
    engine.MemoryLimitExceeded: "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
    engine.DatabaseBusy: "Neo.TransientError.Transaction.LockAcquisitionTimeout",
    engine.DatabaseNotFound: "Neo.ClientError.Database.DatabaseNotFound",
    engine.DatabaseExists: "Neo.ClientError.Database.ExistingDatabaseFound",
    engine.StorageError: "Neo.DatabaseError.General.UnknownError",
    engine.CypherError: "Neo.DatabaseError.Statement.ExecutionFailed",
    UnsupportedValue: "Neo.ClientError.Statement.TypeError",
}
"""Engine error class → Neo4j status code (https://neo4j.com/docs/status-codes/current/errors/all-errors/)."""

BY_DETAIL: dict[str, str] = {
    "ArithmeticError": "Neo.ClientError.Statement.ArithmeticError",
    "IntegerOverflow": "Neo.ClientError.Statement.ArithmeticError",
    "ForbiddenDueToTransactionType": "Neo.ClientError.Transaction.ForbiddenDueToTransactionType",
    **{detail: f"Neo.ClientError.Schema.{detail}" for detail in (
        "ConstraintAlreadyExists", "ConstraintWithNameAlreadyExists", "EquivalentSchemaRuleAlreadyExists",
        "IndexAlreadyExists", "IndexWithNameAlreadyExists", "RepeatedPropertyInCompositeSchema")},
    **{detail: f"Neo.DatabaseError.Schema.{detail}" for detail in (
        "ConstraintCreationFailed", "ConstraintDropFailed", "IndexDropFailed")},
}
"""An error's `detail` (the TCK's and Neo4j's finer name) → a more precise code than its class's."""

UNKNOWN = "Neo.DatabaseError.General.UnknownError"


def status_code(error: BaseException) -> str:
    detail = getattr(error, "detail", None)
    if detail in BY_DETAIL:
        return BY_DETAIL[detail]
    if getattr(error, "kind", None) == "ArithmeticError":
        return BY_DETAIL["ArithmeticError"]
    return next((CODES[kind] for kind in type(error).__mro__ if kind in CODES), UNKNOWN)


def failure(error: BaseException, statement: str = "") -> dict[str, str]:
    """FAILURE's metadata: the code and the message (with the line, column and caret a CypherError
    shows when it knows its statement)."""
    if isinstance(error, engine.CypherError):
        message = str(error.with_source(statement) if statement else error)
    else:
        message = f"{type(error).__name__}: {error}"
    return {"code": status_code(error), "message": message}
