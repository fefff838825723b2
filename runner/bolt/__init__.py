"""The graph over the Bolt protocol: `cookbook serve --db FILE --bolt` (docs/bolt.md, ADR-0078).

    packstream.py  PackStream, Bolt's value encoding
    messages.py    the handshake, message framing (chunks) and message tags
    values.py      engine values ↔ Bolt structures (nodes, relationships, paths, temporal, spatial)
    errors.py      an engine error's Neo4j status code, from one table
    server.py      the server: Bolt's states, RUN/PULL streaming, transactions, on runner/serving's connections
"""
