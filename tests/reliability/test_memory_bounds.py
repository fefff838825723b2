"""A statement cannot build a list or a string past what the connection's memory limit allows: DuckDB allocates
both outside its buffer manager, so its `memory_limit` alone did not bound them (issue 32, item 1)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RUN = """
import json, sys
import engine
db = engine.connect(":memory:", memory_limit="200MB")
db.execute("CREATE (:Kept)")
try:
    db.execute(sys.argv[1])
    outcome = "no error"
except engine.MemoryLimitExceeded as error:
    outcome = error.message
kept = db.execute("MATCH (n) RETURN count(*) AS c").fetchall()[0][0]
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over execve from the forked test worker
status = open("/proc/self/status").read()
peak_mb = int(status.split("VmHWM:")[1].split()[0]) // 1024
print(json.dumps({"outcome": outcome, "kept": kept, "peak_mb": peak_mb}))
"""


@pytest.mark.parametrize("statement", [
    "RETURN size(range(1, 50000000)) AS c",
    # a list UNWIND unnests (UNWIND range(...) of constants builds none: it streams, test_limits.py)
    "UNWIND range(1, 1000000000) + [] AS x RETURN count(*) AS c",
    "CREATE (:Doomed) WITH 1 AS one UNWIND [1, 5] AS n RETURN size(range(1, n * 10000000)) AS s",
    "RETURN size(range(1000000000, 1, -1)) AS c",
    # concatenation of lists each within the cap: 6M elements doubled three times peaked at 18 GB
    "WITH range(1, 6000000) AS l WITH l + l + l + l AS a WITH a + a + a + a AS b RETURN size(b) AS c",
    "WITH range(1, 6000000) AS l RETURN size(l || l || l) AS c",
    # strings doubled: a 256 MB string peaked at 1.8 GB with no error, a 1 GB one past 6 GB
    "RETURN size(reduce(s = 'x', x IN range(1, 40) | s + s)) AS c",
    "RETURN size(reduce(s = ['x', 1][0], x IN range(1, 40) | s + s)) AS c",
    "WITH 'xxxxxxxx' AS s " + "WITH s + s + s + s + s + s + s + s AS s " * 9 + "RETURN size(s) AS c",
    "WITH 'xxxxxxxx' AS s " + "WITH s || s || s || s AS s " * 13 + "RETURN size(s) AS c",
    "WITH ['xxxxxxxx', 1][0] AS s " + "WITH s || s || s || s || s || s || s || s AS s " * 9 + "RETURN size(s) AS c",
])
def test_a_value_past_the_memory_limit_is_memory_limit_exceeded_and_changes_nothing(statement):
    done = subprocess.run([sys.executable, "-c", RUN, statement], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert "may hold under the connection's memory limit" in result["outcome"], result
    assert result["kept"] == 1
    assert result["peak_mb"] < 1500


def test_a_list_within_the_limit_is_built():
    done = subprocess.run([sys.executable, "-c", RUN.replace('outcome = "no error"', 'outcome = "built"'),
                           "RETURN size(range(1, 1000000)) AS c"], capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout)["outcome"] == "built"


def test_a_string_within_the_limit_is_built():
    done = subprocess.run([sys.executable, "-c", RUN.replace('outcome = "no error"', 'outcome = "built"'),
                           "RETURN size(reduce(s = 'x', x IN range(1, 23) | s + s)) AS c"],
                          capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout)["outcome"] == "built"
