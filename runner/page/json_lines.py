"""Where a value sits in a JSON block's text: the line of a key path, so that an error names its line.

Python's `json` keeps no positions. JSON is (near enough) YAML, and PyYAML's composer gives every node the
mark where it starts, so the block's text is composed once more, only to read those marks. Text PyYAML
cannot compose (a tab where YAML wants spaces) gives no line, and the caller falls back to the block's.
"""

from __future__ import annotations

from collections.abc import Sequence

import yaml


def line_of(text: str, path: Sequence[str | int]) -> int | None:
    """The 0-based line, within `text`, of the deepest key or item along `path` that exists, or None."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = None
    for step in path:
        found = _child(node, step)
        if found is None:
            break
        line, node = found
    return line


def _child(node: yaml.Node | None, step: str | int) -> tuple[int, yaml.Node] | None:
    """The line of `step` under `node` (a mapping key's line, or an item's) and the node it leads to."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == step:
                return key.start_mark.line, value
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        item = node.value[step]
        return item.start_mark.line, item
    return None
