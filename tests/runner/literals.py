"""Test helper: read value literals as the renderers write them back into Python values.

Used to rebuild the results behind the seed's recorded tables, so the table renderer can be checked
against every one of them byte for byte. Strings matching an ISO-8601 UTC instant become engine.DateTime
values when `datetimes=True`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import engine

INSTANT = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$")
NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def parse_literal(text: str, *, datetimes: bool = False) -> Any:
    value, end = _value(text.strip(), 0, datetimes)
    if end != len(text.strip()):
        raise ValueError(f"trailing text in {text!r}")
    return value


def _value(text: str, i: int, datetimes: bool) -> tuple[Any, int]:
    if text.startswith('"', i):
        end = i + 1
        while text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        string = json.loads(text[i:end + 1])
        instant = INSTANT.match(string) if datetimes else None
        if instant:
            return engine.DateTime(*map(int, instant.groups())), end + 1
        return string, end + 1
    for word, value in (("null", None), ("true", True), ("false", False)):
        if text.startswith(word, i):
            return value, i + len(word)
    if text[i] == "[":
        items, i = [], _skip(text, i + 1)
        while text[i] != "]":
            item, i = _value(text, i, datetimes)
            items.append(item)
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
        return items, i + 1
    if text[i] == "{":
        mapping, i = {}, _skip(text, i + 1)
        while text[i] != "}":
            if text[i] == "`":
                end = text.index("`", i + 1)
                key, i = text[i + 1:end], end + 1
            else:
                key = re.match(r"[A-Za-z_]\w*", text[i:])[0]
                i += len(key)
            i = _skip(text, text.index(":", i) + 1)
            mapping[key], i = _value(text, i, datetimes)
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
        return mapping, i + 1
    number = NUMBER.match(text, i)
    if number:
        literal = number[0]
        return (float(literal) if number[1] or number[2] else int(literal)), number.end()
    raise ValueError(f"cannot read a value at {text[i:i + 20]!r}")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] == " ":
        i += 1
    return i
