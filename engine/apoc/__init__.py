"""APOC Core's procedures and functions that LLM frameworks and recipes send (docs/CYPHER25.md lists them)."""
