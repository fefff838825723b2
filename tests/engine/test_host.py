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


def test_full_text_search_works_after_a_warm_up_before_the_compiler_loaded():
    """`warm_up()` in a fresh process makes the host before the feature packages register their macros (the
    CLI's order): connect must not reuse a host that lacks the full-text analyzer's macros."""
    code = ("import engine; engine.warm_up().join(); db = engine.connect(':memory:');"
            " db.execute(\"CREATE FULLTEXT INDEX t FOR (n:D) ON EACH [n.text]\");"
            " db.execute(\"CREATE (:D {text: 'hello world'})\");"
            " print(db.execute(\"CALL db.index.fulltext.queryNodes('t', 'hello') YIELD node RETURN node.text\").rows)")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[('hello world',)]"


def test_the_host_warm_up_made_has_the_feature_packages_macros():
    """`cookbook run` calls warm_up() before anything imports the compiler: the host it makes must have the
    full-text macros too, or creating a full-text index fails (ft_ascii_tokens did not exist)."""
    code = ("import engine; engine.warm_up('112MB').join()\n"
            "with engine.connect(memory_limit='112MB') as db:\n"
            "    db.execute(\"CREATE (:Doc {title: 'vector indexes'})\")\n"
            "    db.execute(\"CALL db.idx.fulltext.createNodeIndex('Doc', 'title')\")\n"
            "    print(db.execute(\"CALL db.idx.fulltext.queryNodes('Doc', 'vector') YIELD node RETURN count(*)\")"
            ".rows)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[(1,)]"


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
