"""Graph algorithms as procedures (docs/adr/0024-graph-algorithms.md)."""
