"""A fence's info string → language, attributes and bare-word flags.

Two spellings are accepted and mean the same::

    cypher cell=NAME params=DATA setup
    cypher {cell=NAME params=DATA setup}      (also {cell="NAME" setup}, or {.cypher cell=NAME})

Values may be quoted with double or single quotes. The caller decides which keys a block kind knows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TOKEN = re.compile(
    r"""\s*(?:
        (?P<key>[A-Za-z_][\w.-]*)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s{}"']+))
      | \.(?P<cls>[\w-]+)
      | (?P<flag>[^\s{}="']+)
    )""",
    re.VERBOSE,
)


@dataclass
class InfoString:
    language: str = ""
    attributes: dict[str, str] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """What could not be read (an unclosed quote or brace): reported as warnings."""


def parse_info_string(info: str) -> InfoString:
    """Split an info string into its language word, `key=value` attributes and bare flags."""
    info = info.strip()
    result = InfoString()
    rest = info
    if rest and not rest.startswith("{"):
        language, _, rest = rest.partition(" ")
        if "{" in language:  # `cypher{cell=x}`
            language, brace, tail = language.partition("{")
            rest = brace + tail + (" " + rest if rest else "")
        result.language = language
    rest = rest.strip()
    if rest.startswith("{"):
        if not rest.endswith("}"):
            result.problems.append("the '{' of the attributes is never closed")
            rest = rest[1:]
        else:
            rest = rest[1:-1]
    _read_tokens(rest, result)
    return result


def _read_tokens(text: str, result: InfoString) -> None:
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            return
        match = TOKEN.match(text, position)
        if not match or match.end() == position:
            result.problems.append(f"cannot read {text[position:].strip()!r}")
            return
        position = match.end()
        if match["key"]:
            value = next(v for v in (match["dq"], match["sq"], match["bare"]) if v is not None)
            result.attributes[match["key"]] = value
        elif match["cls"]:
            if result.language:
                result.flags.append("." + match["cls"])
            else:
                result.language = match["cls"]
        else:
            result.flags.append(match["flag"])
