"""The plan's rules: each reads a query's bound clauses and decides a property of their steps."""
