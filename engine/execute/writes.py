"""Updating clauses, each set-based over the whole binding table of the clause before it.

A write clause runs a few SQL statements: INSERTs of every new node and relationship at once (ids from
the catalog's counters, in row order), UPDATEs that take the last row's value per entity, DELETEs of id
sets. Counters are counted in SQL too. MERGE groups the rows that found no match by everything the
pattern depends on, creates one pattern per group for its first row, and lets the group's later rows
match what that row created, which is Neo4j's row-by-row outcome (ADR-0006).
"""

from __future__ import annotations

from engine.execute.create import CreateWriter
from engine.execute.delete import DeleteWriter
from engine.execute.merge import MergeWriter
from engine.execute.set_items import SetWriter
from engine.execute.write_support import WriteResult, label_names, stored_value

__all__ = ["WriteResult", "Writer", "label_names", "stored_value"]


class Writer(CreateWriter, MergeWriter, SetWriter, DeleteWriter):
    """Runs the updating clauses of one statement: each clause's part is a module of its own."""
