"""The shared in-memory host: made ahead of time by `warm_up`, and `import engine` stays light."""

from __future__ import annotations

import subprocess
import sys

import engine
from engine import host


def test_connect_uses_the_host_warm_up_made():
    engine.warm_up("96MB").join()  # a limit of its own: a host no other test has made
    made = host._hosts["96MB"]
    with engine.connect(memory_limit="96MB") as db:
        assert db.execute("RETURN 1 + 1 AS two").rows == [(2,)]
    assert host.host("96MB") is made


def test_a_failed_warm_up_is_left_for_connect_to_report():
    engine.warm_up("not a size")
    try:
        engine.connect(memory_limit="not a size")
    except Exception as error:  # DuckDB's own complaint about the setting
        assert "not a size" in str(error) or "memory" in str(error).lower()
    else:
        raise AssertionError("connect accepted a memory limit DuckDB cannot parse")


def test_import_engine_leaves_the_compiler_unloaded():
    code = "import sys, engine; print(sorted(m for m in ('engine.connection', 'engine.compile') if m in sys.modules))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


def test_a_warmed_up_host_has_the_feature_packages_macros():
    """`cookbook run` warms the host up before the compiler is imported: the full-text and vector macros must be
    there all the same (they were missing, so a full-text index failed under `cookbook run` alone)."""
    code = ("import engine; engine.warm_up('80MB').join(); db = engine.connect(memory_limit='80MB');"
            " db.execute(\"CREATE FULLTEXT INDEX t FOR (n:A) ON EACH [n.x]\");"
            " db.execute(\"CREATE (:A {x: 'a b'})\");"
            " print(db.execute(\"CALL db.index.fulltext.queryNodes('t', 'a') YIELD node"
            " RETURN count(node) AS c\").rows)")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[(1,)]"
