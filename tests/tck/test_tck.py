"""The openCypher TCK, one test per scenario: collected from the .feature files by tests/tck/plugin.py.

This module is only an anchor, never imported: `pytest tests/tck/test_tck.py` runs the TCK alone, and
`pytest "tests/tck/test_tck.py::clauses/match/Match1.feature::[1] Match non-existent nodes returns empty"`
runs one scenario. Select or exclude the whole TCK with `-m tck` / `-m "not tck"`.
"""
