"""One database file, several processes (ADR-0055): the holder serves the others, is killed, and another
takes over; no acknowledged write is lost and no read misses one. The short form of the long run in
`python -m tests.reliability.long --shared-seconds 60` (shared_file.py)."""

from __future__ import annotations

import threading

import engine
from tests.reliability.shared_file import run


def test_four_processes_share_a_file_while_its_holder_is_killed(tmp_path):
    figures = run(tmp_path, seconds=12, kill_every=4)
    assert figures["holder kills"] >= 2
    assert figures["errors"] == 0, figures["error samples"]
    assert figures["stale reads"] == 0
    assert figures["lost acknowledged writes"] == 0
    assert figures["acknowledged writes"] > 50
    assert figures["longest call finishing after a kill (s)"] < 5


def test_connections_of_one_process_writing_new_keys_at_once_all_succeed(tmp_path):
    """Writes take turns, and one that waited while another added a property column is compiled again
    against it (it would add the column a second time: "column p0 already exists")."""
    path = str(tmp_path / "g.rl")
    connections = [engine.connect(path) for _ in range(4)]
    errors: list[Exception] = []

    def write(connection, number: int) -> None:
        for key in range(20):
            try:
                connection.execute(f"CREATE (:K {{k{key}: $n}})", {"n": number})
            except engine.CypherError as error:
                errors.append(error)

    threads = [threading.Thread(target=write, args=(connection, number))
               for number, connection in enumerate(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert connections[0].execute("MATCH (n:K) RETURN count(*) AS c").fetchall() == [(80,)]
    for connection in connections:
        connection.close()
