"""Run inside Pyodide by probe.html and probe_node.mjs: connect, then run the page at /page/page.md cell by
cell, timing each; the result is one JSON text (the last expression, which Pyodide returns)."""

import json
import time
from pathlib import Path

started = time.perf_counter()
report: dict = {"cells": []}
try:
    import engine
    from runner.page import read_page
    from runner.run import run_cells

    report["import_s"] = time.perf_counter() - started
    page = read_page(Path("/page/page.md"))
    started = time.perf_counter()
    connection = engine.connect(":memory:", import_dir="/page")
    report["connect_s"] = time.perf_counter() - started
    with connection:
        started = time.perf_counter()
        for outcome in run_cells(page, connection):
            now = time.perf_counter()
            report["cells"].append({"cell": outcome.cell.name, "status": outcome.status, "s": now - started,
                                    "failure": (outcome.failure or "")[:400]})
            started = now
except Exception as error:  # what stops the engine in the browser is the finding: report it, do not hide it
    report["error"] = f"{type(error).__name__}: {error}"[:600]
json.dumps(report)
