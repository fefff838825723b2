"""YAML front matter between leading `---` lines, checked against the shipped JSON Schema.

Problems come back as PageErrors naming the field and the line it is on.
"""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from runner.errors import PageError

if TYPE_CHECKING:
    import jsonschema

DELIMITER = re.compile(r"^---[ \t]*$")
CLOSING = re.compile(r"^(---|\.\.\.)[ \t]*$")


class NoAliasLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases (`*name`): ten nested anchors each repeated ten times are ten
    billion values (a 548-byte page took 5 GB and over a minute), and no page field needs one."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, f"aliases (*{event.anchor}) are not allowed in "
                                              "front matter: write the value out", event.start_mark)
        return super().compose_node(parent, index)


@cache
def page_schema() -> dict[str, Any]:
    """The JSON Schema of a page's front matter (runner/schemas/page.schema.json)."""
    text = resources.files("runner").joinpath("schemas/page.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def find_front_matter(lines: list[str]) -> tuple[int, int] | None:
    """The 0-based indexes of the opening and closing `---` lines, or None when the page has none.

    `lines` have no line endings. An opening `---` with no closing line is not front matter (it is a
    thematic break, as Markdown reads it).
    """
    if not lines or not DELIMITER.match(lines[0].lstrip("\ufeff")):
        return None
    for index in range(1, len(lines)):
        if CLOSING.match(lines[index]):
            return 0, index
    return None


def read_front_matter(path: str | Path, lines: list[str]) -> tuple[dict[str, Any], list[PageError]]:
    """Parse and validate the front matter of a page given as lines. Returns (fields, errors)."""
    found = find_front_matter(lines)
    if found is None:
        return {}, []
    start, end = found
    text = "\n".join(lines[start + 1:end])
    first_line = start + 2  # 1-based line of the first YAML line
    try:
        node = yaml.compose(text, Loader=NoAliasLoader)
        data = yaml.load(text, Loader=NoAliasLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = first_line + mark.line if mark else start + 1
        problem = getattr(error, "problem", None) or str(error)
        return {}, [PageError(path, line, f"front matter is not valid YAML: {problem}")]
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return {}, [PageError(path, first_line, "front matter must be a mapping of fields")]
    if plainly_valid(data, page_schema()):
        return data, []
    import jsonschema  # loads only to explain a page that is not plainly valid: it takes a while

    key_lines = _key_lines(node, first_line)
    errors = [_schema_error(path, error, key_lines, start + 1)
              for error in sorted(jsonschema.Draft202012Validator(page_schema()).iter_errors(data),
                                  key=lambda e: (list(e.path), e.message))]
    errors.sort(key=lambda e: e.line)
    return (data if not errors else {}), errors


_PLAIN_KEYWORDS = {"$schema", "$id", "title", "description", "type", "required", "properties",
                   "additionalProperties", "minLength", "enum", "items", "uniqueItems"}
_PLAIN_TYPES: dict[str, type] = {"object": dict, "array": list, "string": str}


def plainly_valid(instance: Any, schema: dict[str, Any]) -> bool:
    """True only when `instance` meets `schema` and the schema uses no keyword but a few simple ones
    checked here; anything else (an error, another keyword) is left to jsonschema. Starting the process
    without importing jsonschema is a good part of a short run's time."""
    if not _PLAIN_KEYWORDS.issuperset(schema):
        return False
    expected = schema.get("type")
    if expected is not None and not isinstance(instance, _PLAIN_TYPES.get(expected, ())):
        return False
    if "enum" in schema and not any(type(instance) is type(item) and instance == item for item in schema["enum"]):
        return False
    if isinstance(instance, str) and len(instance) < schema.get("minLength", 0):
        return False
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        if schema.get("additionalProperties", True) is not True and (
                schema["additionalProperties"] is not False or not set(instance) <= set(properties)):
            return False
        if not all(key in instance for key in schema.get("required", ())):
            return False
        if not all(plainly_valid(value, properties[key]) for key, value in instance.items() if key in properties):
            return False
    if isinstance(instance, list):
        if not all(plainly_valid(item, schema.get("items", {})) for item in instance):
            return False
        if schema.get("uniqueItems") and not (all(isinstance(item, str) for item in instance)
                                              and len(set(instance)) == len(instance)):
            return False
    return True


def _key_lines(node: Any, first_line: int) -> dict[str, int]:
    """Top-level key → the 1-based page line it is written on."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {_key_text(key): first_line + key.start_mark.line for key, _ in node.value}


def _key_text(key: yaml.Node) -> str:
    """A key as the loaded mapping has it, as text: `null:` and `&anchor:` are None, `1:` is 1."""
    try:
        return str(yaml.SafeLoader("").construct_object(key, deep=True))
    except yaml.YAMLError:
        return str(key.value)


def _schema_error(path: str | Path, error: jsonschema.ValidationError, key_lines: dict[str, int],
                  opening_line: int) -> PageError:
    properties = page_schema()["properties"]
    if error.validator == "additionalProperties":
        # YAML keys need not be strings (`1:`, `null:`, an anchor with no name `&a:`): name them as written
        unknown = sorted(str(key) for key in set(error.instance) - set(properties))
        field = unknown[0] if unknown else "?"
        hint = difflib.get_close_matches(field, list(properties), n=1)
        suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known fields: {', '.join(properties)}"
        return PageError(path, key_lines.get(field, opening_line),
                         f"front matter: unknown field {field!r}{suggestion}")
    if error.validator == "required":
        return PageError(path, opening_line, f"front matter: {error.message}")
    field = str(error.path[0]) if error.path else "?"
    where = "".join(f"[{part}]" for part in list(error.path)[1:])
    return PageError(path, key_lines.get(field, opening_line),
                     f"front matter: field {field!r}{where}: {error.message}")
