"""Semantic analysis: variables, scopes and clause rules; turns the AST into bound clauses."""
