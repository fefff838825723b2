"""Storage of the property graph in DuckDB tables; the only package that knows the layout."""
