"""A stand-in for numpy in the browser build (ADR-0091): Pyodide's numpy is not on any registry this project
reaches, and only the graph algorithms use numpy (engine/algorithms/). Importing works; using anything
raises, so a cell calling an algorithm fails naming what the browser lacks, and `cookbook run --browser`
lists it among the cells that cannot run there."""

from __future__ import annotations

from typing import Any


class BrowserLacksNumpy(RuntimeError):
    pass


class _Missing:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> _Missing:
        return _Missing(f"{self._name}.{name}")

    def __call__(self, *_: Any, **__: Any) -> Any:
        raise BrowserLacksNumpy(f"numpy.{self._name} is not available in the browser (graph algorithms need numpy)")


def __getattr__(name: str) -> _Missing:
    return _Missing(name)
