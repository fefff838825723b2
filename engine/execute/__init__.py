"""Running generated SQL and turning its rows into Cypher values."""
