"""RaisedError → the text of a ```` ```error ```` block, and such a block's text back into its parts.

    SyntaxError: VariableAlreadyBound
    Variable `a` already declared

The first line is the error's kind and detail, `Kind: Detail`, or `Kind` alone when the error has no
detail (`engine.CypherError.kind`, `.detail`). The lines after it are the error's message as the engine
words it (`.message`: no position, no caret). A block may stop after its first line: the message is then
not checked (docs/error-cells.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from runner.result import RaisedError


def render_error(raised: RaisedError) -> str:
    """The block's content, each line ending in a newline."""
    lines = [raised.headline, *message_lines(raised.message)]
    return "".join(line + "\n" for line in lines)


def message_lines(message: str) -> list[str]:
    """The message's lines, trailing spaces and blank lines at either end dropped."""
    lines = [line.rstrip() for line in message.strip("\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


@dataclass(frozen=True)
class ErrorBlock:
    """What an `error` block says: its first line, and the message lines (empty: the message is not
    checked)."""

    headline: str
    message: list[str]


def read_error_block(text: str) -> ErrorBlock:
    """The parts of an `error` block's text; blank lines around it are ignored. Raises ValueError when the
    block is empty."""
    lines = message_lines(text)
    if not lines:
        raise ValueError("it is empty; its first line should be the error's `Kind: Detail`")
    return ErrorBlock(lines[0].strip(), lines[1:])
