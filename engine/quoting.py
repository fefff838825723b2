"""Quoting names and text into SQL and Cypher: the one place that knows how.

Values are bound as parameters, never quoted into SQL (ADR-0022). What is quoted is what SQL and Cypher text
must name: SQL string literals the engine writes itself (messages, patterns, tag keys), SQL identifiers
(property columns' keys in structs, attached database names), and Cypher names in the statements SHOW
INDEXES and SHOW CONSTRAINTS print.
"""

from __future__ import annotations


def sql_string(text: str) -> str:
    """`text` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def sql_identifier(name: str) -> str:
    """`name` as a quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def cypher_name(name: str) -> str:
    """`name` as a backquoted Cypher name (a label, a key, an index)."""
    return "`" + name.replace("`", "``") + "`"


def cypher_string(text: str) -> str:
    """`text` as a Cypher string literal (an OPTIONS value in a statement SHOW INDEXES prints)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
