"""The composition root of the feature packages (full-text search, vector search, graph algorithms).

The core layers (semantic, sqlgen, execute) import none of the feature packages: each offers a registry,
and the modules here fill them. `macros` registers the full-text analysis and scoring macros; it is light,
so the in-memory host (engine/host.py) imports it before it builds the macros ahead of time (ADR-0027).
`compiler` registers the rest (procedures, functions, binding rewrites, index kinds); the connection
imports it. ADR-0056.
"""
