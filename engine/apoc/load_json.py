"""APOC Core's `apoc.load.json(url, path = '', config = {})` and `apoc.load.jsonArray(url, path = '', config =
{})`: the JSON values of a file in the connection's import directory, as rows (APOC's `LoadJsonUtils` and
`LoadJson.jsonArray`).

The file is read as LOAD CSV reads its files (ADR-0064): a `file:///` url in the import directory, resolved in
SQL (`cy_import_path`), every other scheme or path refused; DuckDB's `read_json_objects` gives each of its
top-level values (one document, or JSON Lines), in file order, set-based. The path, if any, is applied to each
value, as APOC's JsonPath does (a missing step: null). Then, as APOC streams them:

- `apoc.load.json` yields a map as one row, each map of a list whose first element is a map (an empty list:
  none), a list of other values as `{result: list}`, anything else as `{}`;
- `apoc.load.jsonArray` yields each map of a list whose first element is a map (an empty list: none), and
  any other value, a list too, as one row.

The url, path and config must be known when the statement compiles (literals or parameters); a path is `$`
with `.name` and `[index]` steps (`engine/apoc/json.py`), and config keys other than `failOnError: true` and
`compression: 'NONE'` are refused, naming them.
"""

from __future__ import annotations

import re
from typing import Any

from engine.apoc.json import PATH_RE
from engine.errors import UnsupportedFeature
from engine.procedures import Procedure, ProcedureBuild, ProcedureField
from engine.semantic import bound as b
from engine.sqlgen.runtime import error_sql
from engine.vector.constants import bound_constant

ACCEPTED_CONFIG = {"failOnError": True, "compression": "NONE"}
"""The config entries that change nothing here (APOC's defaults)."""


def _path(build: ProcedureBuild, name: str) -> str:
    """The JSON path to apply, as JsonPath completes it (`name` is `$.name`); `$` for none."""
    given = bound_constant(build.arguments[1], f"the path of {name}") if len(build.arguments) > 1 else ""
    if given is None or given == "":
        return "$"
    if not isinstance(given, str):
        raise UnsupportedFeature(f"{name} with a path that is not a string", build.arguments[1].span)
    path = given if given.startswith("$") else f"$.{given}"
    if not re.match(PATH_RE, path):
        raise UnsupportedFeature(f"{name} with the JSON path {given!r} (only $, .name and [index] steps)",
                                 build.arguments[1].span)
    return path


def _check_config(build: ProcedureBuild, name: str) -> None:
    if len(build.arguments) < 3:
        return
    config: Any = bound_constant(build.arguments[2], f"the config of {name}")
    for key, value in (config or {}).items():
        if ACCEPTED_CONFIG.get(key, ...) != value:
            raise UnsupportedFeature(f"{name} with this config `{key}` (only failOnError: true and compression:"
                                     " 'NONE', APOC's defaults)", build.arguments[2].span)


def _values(build: ProcedureBuild, name: str) -> str:
    """Each top-level JSON value of the file, with the path applied, as `f` (JSON; null where the path leads
    nowhere) and its place `i`."""
    url = build.arguments[0]
    if not isinstance(url, b.BLiteral | b.BParameter):
        raise UnsupportedFeature(f"{name} from a url read off the row (a literal or a parameter names the file)",
                                 url.span)
    _check_config(build, name)
    parameters = build.compiler.context.parameters
    path = parameters.text(_path(build, name))
    url_sql = build.compiler.compile(url)
    return (f"(SELECT json_extract(json, {path}) AS f, row_number() OVER () AS i FROM read_json_objects("
            f"cy_import_path({url_sql}, {parameters.text(name)}), format = 'unstructured'))")


def _maps(name: str) -> str:
    """The elements of a list `f`, each a map (APOC casts them: another value is an error)."""
    not_map = error_sql("ArgumentError", "InvalidArgumentValue",
                        f"'{name}: a list whose first element is a map holds ' || json_type(e) || ' values too'")
    return (f"list_transform(json_extract(f, '$[*]'), lambda e: CASE WHEN json_type(e) = 'OBJECT' THEN e"
            f" ELSE {not_map} END)")


def _rows(build: ProcedureBuild, name: str, listed: str) -> str:
    """The rows: each value's `listed` JSON values (a list per value), unnested in file order."""
    return (f"(SELECT CAST(r.v AS VARIANT) AS value, row_number() OVER (ORDER BY d.i, r.j) AS __i"
            f" FROM {_values(build, name)} AS d, LATERAL (SELECT unnest(l) AS v, generate_subscripts(l, 1) AS j"
            f" FROM (SELECT {listed} AS l)) AS r)")


def _map_rows(name: str) -> str:
    return (f"CASE json_type(f) WHEN 'OBJECT' THEN [f] WHEN 'ARRAY' THEN CASE WHEN json_array_length(f) = 0"
            f" THEN []::JSON[] WHEN json_type(f, '$[0]') = 'OBJECT' THEN {_maps(name)}"
            f" ELSE [json_object('result', f)] END ELSE ['{{}}'::JSON] END")


def _array_rows(name: str) -> str:
    return (f"CASE WHEN json_type(f) = 'ARRAY' AND json_array_length(f) = 0 THEN []::JSON[]"
            f" WHEN json_type(f) = 'ARRAY' AND json_type(f, '$[0]') = 'OBJECT' THEN {_maps(name)}"
            " ELSE [coalesce(f, 'null'::JSON)] END")


def _load_json(build: ProcedureBuild) -> str:
    return _rows(build, "apoc.load.json", _map_rows("apoc.load.json"))


def _load_json_array(build: ProcedureBuild) -> str:
    return _rows(build, "apoc.load.jsonArray", _array_rows("apoc.load.jsonArray"))


def _inputs(url: str) -> tuple[ProcedureField, ...]:
    return ProcedureField(url, "ANY"), ProcedureField("path", "STRING"), ProcedureField("config", "MAP")


PROCEDURES = (
    Procedure("apoc.load.json", _inputs("urlOrKeyOrBinary"), (ProcedureField("value", "MAP"),), build=_load_json,
              required_inputs=1),
    Procedure("apoc.load.jsonArray", _inputs("url"), (ProcedureField("value", "ANY"),), build=_load_json_array,
              required_inputs=1),
)
