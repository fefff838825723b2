"""DuckDB's errors as the engine's: what generated SQL raised (`error('CYPHER|Kind|Detail|message')`, ADR-0004),
memory, storage and arithmetic failures; anything else is an internal error, marked so."""

from __future__ import annotations

import re

import duckdb

from engine import errors
from engine.errors import CypherError
from engine.span import Span

ERROR_KINDS: dict[str, type[CypherError]] = {
    "TypeError": errors.CypherTypeError,
    "ArgumentError": errors.CypherArgumentError,
    "ArithmeticError": errors.CypherArithmeticError,
    "SemanticError": errors.CypherSemanticError,
    "SyntaxError": errors.CypherSyntaxError,
    "UnsupportedFeature": errors.UnsupportedFeature,
    "EntityNotFound": errors.EntityNotFound,
    "ConstraintValidationFailed": errors.ConstraintViolation,
    "ExternalResourceError": errors.ExternalResourceError,
}

DETAIL_ERRORS: dict[str, type[CypherError]] = {"WalkLimitExceeded": errors.WalkLimitExceeded,
                                               "MemoryPoolOutOfMemoryError": errors.MemoryLimitExceeded}
"""Details raised from SQL whose error has a class of its own."""


RAISED_FROM_SQL = re.compile(r"(?:[A-Za-z ]*Error: )?CYPHER\|([^\n]*)")
"""An `error('CYPHER|...')` the SQL raised: its text opens the message's first line. Anywhere else `CYPHER|` is
SQL quoted by an error about the statement itself (a binder error shows the line it failed on), which is no
Cypher error whatever the quoted branch says."""


def out_of_memory(error: duckdb.Error) -> bool:
    return isinstance(error, duckdb.OutOfMemoryException) or "Out of Memory" in str(error)


STORAGE_FAILURE = re.compile(r"(?P<reason>(?:Could not (?:write|flush|fsync)|No space left)[^\n]*)", re.IGNORECASE)
"""DuckDB's text when it cannot write the file or its write-ahead log (disk full, a file size limit)."""


EXTERNAL_RESOURCE = re.compile(r'(?:No files found that match the pattern|Could not open file|CSV Error|Error when'
                               r' sniffing file|Malformed JSON in file)[^"\n]*"?(?:[^"\n]*/)?(?P<file>[^"/\n]*)"?')
"""DuckDB's text when the CSV file LOAD CSV reads, or the JSON file apoc.load.json reads, is missing or
malformed."""


def translate(error: duckdb.Error, span: Span | None) -> CypherError:
    """A DuckDB error raised while running generated SQL, as the engine error it stands for."""
    message = str(error)
    raised = RAISED_FROM_SQL.match(message)
    if raised:
        kind, detail, text = [*raised.group(1).split("|", 2), "", ""][:3]
        error_class = DETAIL_ERRORS.get(detail) or ERROR_KINDS.get(kind, CypherError)
        return error_class(text or kind, span, detail=detail or None)
    if out_of_memory(error):
        return errors.MemoryLimitExceeded(
            f"the statement needed more memory than the connection's memory limit and was rolled back "
            f"({message.splitlines()[0]})", span, detail="MemoryPoolOutOfMemoryError")
    if "Max expression depth" in message:
        return errors.UnsupportedFeature("an expression nested or chained deeper than 1,000 levels, which the "
                                         "database cannot run; split it, or pass the values as a list parameter",
                                         span, detail="ExpressionTooDeep")
    storage = STORAGE_FAILURE.search(message)
    if storage is not None:
        return errors.StorageError(
            f"the database file could not be written ({storage['reason'].rstrip('.')}); the statement was rolled back "
            "and nothing it did was kept", span, detail="StorageFailure")
    if "Overflow" in message or "out of range" in message.lower():
        return errors.CypherArithmeticError("integer overflow", span, detail="IntegerOverflow")
    if "Division by zero" in message:
        return errors.CypherArithmeticError("/ by zero", span, detail="DivisionByZero")
    external = EXTERNAL_RESOURCE.search(message)
    if external is not None:  # a file LOAD CSV or apoc.load.json names is missing or malformed (url checked in SQL)
        reason = ("no such file" if "No files found" in message else "not JSON the reader can read"
                  if "Malformed JSON" in message else "not a CSV file the reader can read")
        return errors.ExternalResourceError(f"Couldn't load the external resource at: file:///{external['file']}"
                                            f" ({reason})", span, detail="ExternalResourceFailed")
    if "Unknown TimeZone" in message:  # a zone name ICU does not know (temporal values, ADR-0014)
        zone = message.split("Unknown TimeZone", 1)[1].splitlines()[0].strip(" '!")
        return errors.CypherArgumentError(f"Invalid value for TimeZone: {zone}", span, detail="InvalidArgumentValue")
    return CypherError(f"internal error while running the statement: {message.splitlines()[0]}", span,
                       detail="Internal")
