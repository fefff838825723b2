"""SQL generation: each plan step becomes DuckDB SQL over the previous binding table."""
