"""Neo4j's built-in `db.*` and `dbms.*` procedures: what clients ask a database about itself."""
