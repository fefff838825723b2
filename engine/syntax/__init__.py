"""Cypher syntax: tokens, the AST and the recursive-descent parser."""
