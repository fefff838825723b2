"""What `cookbook serve`'s servers share, whatever protocol they speak (MCP in runner/mcp, Bolt in runner/bolt).

    database.py   opening a file database, and the error when another process holds it
    pool.py       the connections statements run on: one per call or transaction in flight
    lifetime.py   how a server ends: within a second of SIGINT or SIGTERM, even while a statement runs

A statement runs in one place: `Connections.run` (pool.py), on a connection borrowed for it or held by the
client's open transaction.
"""
