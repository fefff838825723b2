"""SHOW PROCEDURES and SHOW FUNCTIONS: the rows Neo4j 5 lists, for the procedures and functions the engine
runs (its own and the feature packages' built-in ones, and the function macros), sorted by name.

The engine keeps no descriptions or roles: those columns are empty strings and nulls. A built-in procedure
reads (`mode` READ, or SCHEMA for one that reads the catalog as Neo4j declares it); a procedure macro has its
own mode (`db.create.setNodeVectorProperty` WRITE); a function's category is its family's (Neo4j's category
names).
"""

from __future__ import annotations

from typing import Any

from engine.procedures import BUILT_IN, Procedure
from engine.semantic.function_macros import FUNCTION_MACROS
from engine.semantic.functions import AGGREGATES, SIGNATURES, TRIGONOMETRIC
from engine.semantic.known_names import CANONICAL_NAMES
from engine.semantic.procedure_macros import PROCEDURE_MACROS

PROCEDURE_COLUMNS = ("name", "description", "mode", "worksOnSystem")
PROCEDURE_ALL_COLUMNS = (*PROCEDURE_COLUMNS, "signature", "argumentDescription", "returnDescription", "admin",
                         "rolesExecution", "rolesBoostedExecution", "isDeprecated", "deprecatedBy", "option")
FUNCTION_COLUMNS = ("name", "category", "description")
FUNCTION_ALL_COLUMNS = (*FUNCTION_COLUMNS, "signature", "isBuiltIn", "argumentDescription", "returnDescription",
                        "aggregating", "rolesExecution", "rolesBoostedExecution", "isDeprecated", "deprecatedBy")

CATEGORIES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("apoc.",), "APOC"),
    (("coll.", "head", "last", "tail", "range", "reverse", "nodes", "relationships", "labels", "keys",
      "tobooleanlist", "tofloatlist", "tointegerlist", "tostringlist"), "List"),
    (("vector", "vec"), "Vector"),
    (("graph.",), "Graph"),
    (("date", "datetime", "localdatetime", "localtime", "time", "duration"), "Temporal"),
    ((*TRIGONOMETRIC, "atan2", "pi"), "Trigonometric"),
    (("log", "log10", "exp", "sqrt", "e"), "Logarithmic"),
    (("abs", "ceil", "floor", "round", "sign", "rand", "isnan"), "Numeric"),
    (("tolower", "toupper", "lower", "upper", "trim", "ltrim", "rtrim", "btrim", "replace", "substring", "left",
      "right", "split", "normalize", "tostring", "tostringornull", "char_length", "character_length"), "String"),
)
"""Names, or prefixes ending in a dot, or namespaces (`date` for `date.truncate`) → Neo4j's function category;
the rest are Scalar."""


def _spelled(name: str) -> str:
    return {canonical.lower(): canonical for canonical in CANONICAL_NAMES}.get(name, name)


def _category(name: str) -> str:
    for names, category in CATEGORIES:
        if any(name == entry or name.startswith(entry if entry.endswith(".") else entry + ".") for entry in names):
            return category
    return "Scalar"


def procedure_rows(procedures: dict[str, Procedure] | None = None) -> list[dict[str, Any]]:
    """One row per built-in procedure (and per one of `procedures`), by name."""
    every: dict[str, tuple[str, str, str]] = {}  # name → inputs, outputs, mode
    for name, procedure in {**BUILT_IN, **(procedures or {})}.items():
        inputs = ", ".join(f"{field.name} :: {field.type_name}" for field in procedure.inputs)
        outputs = ", ".join(f"{field.name} :: {field.type_name}" for field in procedure.outputs)
        every[name] = inputs, outputs, procedure.mode
    for macro in PROCEDURE_MACROS.values():
        every[macro.name] = (macro.signature_inputs(),
                             ", ".join(f"{name} :: {type_name}" for name, type_name in macro.outputs), macro.mode)
    rows = []
    for name in sorted(every):
        inputs, outputs, mode = every[name]
        rows.append({"name": name, "description": "", "mode": mode, "worksOnSystem": False,
                     "signature": f"{name}({inputs}) :: ({outputs})", "argumentDescription": [],
                     "returnDescription": [], "admin": False, "rolesExecution": None, "rolesBoostedExecution": None,
                     "isDeprecated": False, "deprecatedBy": None, "option": {"deprecated": False}})
    return rows


def function_rows() -> list[dict[str, Any]]:
    """One row per function the engine runs (aggregating ones too), by name as Neo4j spells it; the helpers
    procedure macros call (named `__...`, which no user writes) are not listed."""
    names = {name for name in (*SIGNATURES, *FUNCTION_MACROS, *AGGREGATES) if not name.startswith("__")}
    rows = []
    for name in sorted(names, key=lambda found: _spelled(found).lower()):
        spelled = _spelled(name)
        rows.append({"name": spelled, "category": "Aggregating" if name in AGGREGATES else _category(name),
                     "description": "", "signature": f"{spelled}(...)", "isBuiltIn": not name.startswith("apoc."),
                     "argumentDescription": [], "returnDescription": "", "aggregating": name in AGGREGATES,
                     "rolesExecution": None, "rolesBoostedExecution": None, "isDeprecated": False,
                     "deprecatedBy": None})
    return rows
