"""The feature packages' SQL macros, added to the runtime's before any connection creates them."""

from __future__ import annotations

from engine.apoc import macros as apoc_macros
from engine.execute.macros import register_macros
from engine.fulltext import analyzers, scoring
from engine.vector import macros as vector

register_macros(analyzers.MACROS + scoring.MACROS + vector.MACROS + apoc_macros.MACROS)
