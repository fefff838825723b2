"""A page's snapshot: every cell's full result as typed data, one YAML file per page (`snapshots/`).

`cookbook run --update` writes a page's file with its recorded blocks, and the pytest plugin checks it (and
refreshes it the pytest-regressions way, `--force-regen`; `runner.snapshot_files` says where it is); a docs
preview reads them back with `load_snapshot` without running anything. The format, version 1, is documented
in docs/snapshots.md:

    format: 1
    page: cookbook/01-agent-memory.md
    cells:
      labels:
        columns: [label, count]
        ordered: true
        counters: {}
        rows:
        - [Entity, 8]
      chains:
        ...
        - [!path {nodes: [!node {id: 5, labels: [Entity], properties: {...}}, ...], relationships: [...]}]
      rebind:
        error: {kind: SyntaxError, detail: VariableAlreadyBound, message: Variable `a` already declared}

Plain YAML scalars, sequences and mappings are Cypher's null, booleans, integers, floats (`2.0` stays a
float, `.nan`, `.inf`), strings, lists and maps. Every other value carries a tag: `!node`, `!relationship`
and `!path` are mappings of the engine's fields; `!date`, `!localtime`, `!time`, `!localdatetime`,
`!datetime` and `!duration` are the ISO-8601 text the engine's `str()` gives (offset and zone kept).
A cell marked `error` that raised as it expected has an `error` entry instead of a result.
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import engine
from runner.result import CellResult, RaisedError

FORMAT = 1
HEADER = ("# Every cell's full result, recorded by cookbook's pytest plugin: typed values, counters, ids.\n"
          "# Refresh with `pytest --force-regen`; the format is described in docs/snapshots.md.\n")


@dataclass(frozen=True)
class Tagged:
    """A value YAML has no plain form for: its tag (`node`, `datetime`, …) and its plain data."""

    tag: str
    data: Any


class Row(list):
    """One result row: written on one line, in YAML's flow style."""


# -- result → record ------------------------------------------------------------------------------------

def cell_record(result: CellResult) -> dict[str, Any]:
    """The snapshot entry of one cell's result: plain data and Tagged values, ready to dump."""
    return {
        "columns": list(result.columns),
        "ordered": bool(result.ordered),
        "counters": result.nonzero_counters(),
        "rows": [Row(record_value(value) for value in row) for row in result.rows],
    }


def outcome_record(outcome: CellResult | RaisedError) -> dict[str, Any]:
    """The snapshot entry of what a cell gave: its result, or the error a cell marked `error` raised."""
    if isinstance(outcome, RaisedError):
        return {"error": {"kind": outcome.kind, "detail": outcome.detail, "message": outcome.message}}
    return cell_record(outcome)


def record_value(value: Any) -> Any:
    """One result value as snapshot data (a value of a type with no entry in VALUE_RECORDS is an error)."""
    for base in type(value).__mro__:
        if base in VALUE_RECORDS:
            return VALUE_RECORDS[base](value)
    raise TypeError(f"no snapshot form for a value of type {type(value).__name__}")


def _record_map(mapping: dict[str, Any]) -> dict[str, Any]:
    return {str(key): record_value(mapping[key]) for key in sorted(mapping, key=str)}


def _record_node(node: engine.Node) -> Tagged:
    return Tagged("node", {"id": node.id, "labels": list(node.labels),
                           "properties": _record_map(node.properties)})


def _record_relationship(relationship: engine.Relationship) -> Tagged:
    return Tagged("relationship", {"id": relationship.id, "type": relationship.type,
                                   "start": relationship.start, "end": relationship.end,
                                   "properties": _record_map(relationship.properties)})


def _record_path(path: engine.Path) -> Tagged:
    return Tagged("path", {"nodes": [_record_node(node) for node in path.nodes],
                           "relationships": [_record_relationship(item) for item in path.relationships]})


def _plain(value: Any) -> Any:
    return value


VALUE_RECORDS: dict[type, Callable[[Any], Any]] = {
    type(None): _plain,
    bool: _plain,
    int: int,
    float: float,
    str: str,
    list: lambda items: [record_value(item) for item in items],
    tuple: lambda items: [record_value(item) for item in items],
    dict: _record_map,
    engine.Node: _record_node,
    engine.Relationship: _record_relationship,
    engine.Path: _record_path,
    engine.Date: lambda value: Tagged("date", str(value)),
    engine.LocalTime: lambda value: Tagged("localtime", str(value)),
    engine.Time: lambda value: Tagged("time", str(value)),
    engine.LocalDateTime: lambda value: Tagged("localdatetime", str(value)),
    engine.DateTime: lambda value: Tagged("datetime", str(value)),
    engine.Duration: lambda value: Tagged("duration", str(value)),
    engine.Vector: lambda value: Tagged("vector", {"coordinateType": value.coordinate_type,
                                                   "coordinates": list(value.coordinates)}),
    engine.Point: lambda value: Tagged("point", {"srid": value.srid, "x": value.x, "y": value.y, "z": value.z}),
}
"""Python type of a result value → its snapshot data."""


# -- record → result ------------------------------------------------------------------------------------

def cell_result(record: dict[str, Any]) -> CellResult | RaisedError:
    """A snapshot entry back as the CellResult it was made from, values as the engine's types (or as the
    RaisedError of an `error` entry)."""
    if "error" in record:
        error = record["error"] or {}
        return RaisedError(str(error.get("kind", "")), error.get("detail") or None, str(error.get("message", "")))
    rows = [tuple(result_value(value) for value in row) for row in record.get("rows", [])]
    return CellResult(columns=list(record.get("columns", [])), rows=rows,
                      counters=dict(record.get("counters") or {}), ordered=bool(record.get("ordered")))


def result_value(data: Any) -> Any:
    if isinstance(data, Tagged):
        return TAGGED_VALUES[data.tag](data.data)
    if isinstance(data, list):
        return [result_value(item) for item in data]
    if isinstance(data, dict):
        return {key: result_value(item) for key, item in data.items()}
    return data


def _node(data: dict[str, Any]) -> engine.Node:
    return engine.Node(data["id"], tuple(data["labels"]), result_value(data["properties"]))


def _relationship(data: dict[str, Any]) -> engine.Relationship:
    return engine.Relationship(data["id"], data["type"], data["start"], data["end"],
                               result_value(data["properties"]))


def _path(data: dict[str, Any]) -> engine.Path:
    return engine.Path(tuple(result_value(node) for node in data["nodes"]),
                       tuple(result_value(item) for item in data["relationships"]))


DATE = r"(?P<year>[+-]?\d{4,9})-(?P<month>\d\d)-(?P<day>\d\d)"
CLOCK = r"(?P<hour>\d\d):(?P<minute>\d\d)(?::(?P<second>\d\d)(?:\.(?P<fraction>\d{1,9}))?)?"
OFFSET = r"(?P<offset>Z|[+-]\d\d:\d\d(?::\d\d)?)"
TEMPORAL_TEXT = {
    "date": re.compile(f"^{DATE}$"),
    "localtime": re.compile(f"^{CLOCK}$"),
    "time": re.compile(f"^{CLOCK}{OFFSET}$"),
    "localdatetime": re.compile(f"^{DATE}T{CLOCK}$"),
    "datetime": re.compile(rf"^{DATE}T{CLOCK}{OFFSET}(?:\[(?P<zone>[^\]]+)\])?$"),
}
DURATION = re.compile(r"^P(?:(?P<years>-?\d+)Y)?(?:(?P<months>-?\d+)M)?(?:(?P<days>-?\d+)D)?"
                      r"(?:T(?:(?P<hours>-?\d+)H)?(?:(?P<minutes>-?\d+)M)?"
                      r"(?:(?P<seconds>-?\d+)(?:\.(?P<fraction>\d{1,9}))?S)?)?$")


def _fields(tag: str, text: str) -> dict[str, Any]:
    match = TEMPORAL_TEXT[tag].match(text)
    if not match:
        raise ValueError(f"not a {tag} value: {text!r}")
    parts = match.groupdict()
    fields: dict[str, Any] = {key: int(parts[key]) for key in ("year", "month", "day", "hour", "minute")
                              if parts.get(key) is not None}
    if "hour" in fields:
        fields["second"] = int(parts["second"] or 0)
        fields["nanosecond"] = int((parts["fraction"] or "").ljust(9, "0"))
    if parts.get("offset") is not None:
        fields["offset_seconds"] = _offset_seconds(parts["offset"])
    if parts.get("zone"):
        fields["zone"] = parts["zone"]
    return fields


def _offset_seconds(text: str) -> int:
    if text == "Z":
        return 0
    hours, minutes, *seconds = (int(part) for part in text[1:].split(":"))
    total = hours * 3600 + minutes * 60 + (seconds[0] if seconds else 0)
    return -total if text[0] == "-" else total


def _duration(text: str) -> engine.Duration:
    match = DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration value: {text!r}")
    parts = match.groupdict()
    number = {key: int(parts[key] or 0) for key in ("years", "months", "days", "hours", "minutes")}
    clock = [parts[key] for key in ("hours", "minutes", "seconds") if parts[key] is not None]
    sign = -1 if any(part.startswith("-") for part in clock) else 1
    seconds = abs(number["hours"]) * 3600 + abs(number["minutes"]) * 60 + abs(int(parts["seconds"] or 0))
    nanos = sign * (seconds * 1_000_000_000 + int((parts["fraction"] or "").ljust(9, "0")))
    whole, nanosecond = divmod(nanos, 1_000_000_000)
    return engine.Duration(number["years"] * 12 + number["months"], number["days"], whole, nanosecond)


TAGGED_VALUES: dict[str, Callable[[Any], Any]] = {
    "node": _node,
    "relationship": _relationship,
    "path": _path,
    "date": lambda text: engine.Date(**_fields("date", text)),
    "localtime": lambda text: engine.LocalTime(**_fields("localtime", text)),
    "time": lambda text: engine.Time(**_fields("time", text)),
    "localdatetime": lambda text: engine.LocalDateTime(**_fields("localdatetime", text)),
    "datetime": lambda text: engine.DateTime(**_fields("datetime", text)),
    "duration": _duration,
    "vector": lambda data: engine.Vector(data["coordinateType"], tuple(data["coordinates"])),
    "point": lambda data: engine.Point(**data),
}
"""Snapshot tag → the engine value it stands for."""


# -- files ----------------------------------------------------------------------------------------------

class SnapshotDumper(yaml.SafeDumper):
    """Safe YAML plus the tags; never anchors, strings with line breaks or controls in double quotes."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_tagged(dumper: SnapshotDumper, value: Tagged) -> yaml.Node:
    tag = "!" + value.tag
    if isinstance(value.data, dict):
        return dumper.represent_mapping(tag, value.data)
    return dumper.represent_scalar(tag, value.data)


def _represent_str(dumper: SnapshotDumper, text: str) -> yaml.Node:
    awkward = any(char < " " or char == "\x7f" for char in text)
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if awkward else None)


SnapshotDumper.add_representer(Tagged, _represent_tagged)
SnapshotDumper.add_representer(str, _represent_str)
SnapshotDumper.add_representer(
    Row, lambda dumper, row: dumper.represent_sequence("tag:yaml.org,2002:seq", row, flow_style=True))


class SnapshotLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when there is one
    """Safe YAML plus the tags, each read back as a Tagged value."""


for _tag in TAGGED_VALUES:
    SnapshotLoader.add_constructor(
        "!" + _tag,
        lambda loader, node, tag=_tag: Tagged(
            tag, loader.construct_mapping(node, deep=True) if isinstance(node, yaml.MappingNode)
            else loader.construct_scalar(node)))


def dump_snapshot(page: str, cells: dict[str, dict[str, Any]]) -> str:
    """The text of a snapshot file: `page` is the page's path as the file names it, `cells` name → entry."""
    cells = {name: entry if "error" in entry else {**entry, "rows": [Row(row) for row in entry.get("rows") or []]}
             for name, entry in cells.items()}
    document = {"format": FORMAT, "page": page, "cells": cells}
    return HEADER + yaml.dump(document, Dumper=SnapshotDumper, sort_keys=False, allow_unicode=True,
                              default_flow_style=None, width=1_000_000)


def read_snapshot(text: str) -> dict[str, Any]:
    """A snapshot file's document: `format`, `page`, and `cells` (name → entry, with Tagged values)."""
    document = yaml.load(text, Loader=SnapshotLoader)  # a SafeLoader that also knows the tags above
    if not isinstance(document, dict) or not isinstance(document.get("cells", {}), dict):
        raise ValueError("not a cookbook snapshot (expected a mapping with `cells`)")
    if document.get("format") != FORMAT:
        raise ValueError(f"snapshot format {document.get('format')!r}; this runner reads format {FORMAT}")
    document["cells"] = document.get("cells") or {}
    return document


def read_entries(path: Path) -> dict[str, Any]:
    """A snapshot file's entries, name → entry; an unreadable file (a merge conflict in it, say) raises
    ValueError."""
    try:
        return read_snapshot(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, yaml.YAMLError) as error:
        raise ValueError(str(error)) from None


def merged(names: Sequence[str], recorded: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The entries a page's snapshot keeps: `recorded` with the `new` ones put in, in page order (`names`),
    entries of cells the page no longer has dropped. A new entry recording the same result as the old one
    leaves the old one, so that unordered rows keep their recorded order."""
    cells = {**recorded, **{name: entry for name, entry in new.items() if not same_entry(recorded.get(name), entry)}}
    return {name: cells[name] for name in names if name in cells}


def load_snapshot(path: str | Path) -> dict[str, CellResult | RaisedError]:
    """Cell name → its recorded result (or error), in page order: what a preview shows without running
    the page."""
    document = read_snapshot(Path(path).read_text(encoding="utf-8"))
    return {name: cell_result(entry) for name, entry in document["cells"].items()}


# -- comparing ------------------------------------------------------------------------------------------

def row_key(row: Sequence[Any]) -> str:
    return repr(list(row))


def same_entry(expected: dict[str, Any] | None, actual: dict[str, Any]) -> bool:
    """Whether two entries record the same result: rows as a multiset when the result is not ordered."""
    return expected is not None and _canonical(expected) == _canonical(actual)


def _canonical(entry: dict[str, Any]) -> str:
    """The entry as one string that tells apart what YAML does (`1`/`1.0`/`True`/`'1'`, tags), NaN equal
    to itself; repr, not YAML, because it is many times faster."""
    if "error" in entry:
        return repr(("error", sorted((entry.get("error") or {}).items())))
    rows = [row_key(row) for row in entry.get("rows") or []]
    if not entry.get("ordered"):
        rows.sort()
    counters = sorted((key, count) for key, count in (entry.get("counters") or {}).items() if count)
    return repr((list(entry.get("columns") or []), bool(entry.get("ordered")), counters, rows))


def aligned(expected: dict[str, Any] | None, actual: dict[str, Any]) -> dict[str, Any]:
    """`actual` with unordered rows in the expected entry's order where they match (the others after, in
    engine order), so that a diff of the two shows only the rows that differ."""
    if expected is None or actual.get("ordered") or "error" in actual or "error" in expected:
        return actual
    rows = actual.get("rows") or []
    pool: dict[str, deque[int]] = defaultdict(deque)
    for index, row in enumerate(rows):
        pool[row_key(row)].append(index)
    order = [pool[text].popleft() for text in map(row_key, expected.get("rows") or []) if pool[text]]
    taken = set(order)
    order += [index for index in range(len(rows)) if index not in taken]
    return {**actual, "rows": [Row(rows[index]) for index in order]}
