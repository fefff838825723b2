"""Vector indexes and exact k-nearest-neighbour search (docs/adr/0025-vector-indexes.md).

A vector is a list of floats in an ordinary property column (`vecf32` rounds its elements to 32-bit
precision, as FalkorDB stores them). A vector index is a catalog entry: label, property, dimension and
similarity function. A query scans that label's nodes with DuckDB's list distance functions, one SELECT
for all calling rows, so the index is current after every write without being maintained.
"""
