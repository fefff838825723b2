"""The feature packages' SQL macros, added to the runtime's before any connection creates them."""

from __future__ import annotations

from engine.apoc import json as apoc_json
from engine.apoc import text as apoc_text
from engine.execute.macros import register_macros
from engine.fulltext import analyzer, scoring

register_macros(analyzer.MACROS + scoring.MACROS + apoc_text.MACROS + apoc_json.MACROS)
