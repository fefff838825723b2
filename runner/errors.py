"""The runner's one error type: something wrong with a page, found before any cell runs."""

from __future__ import annotations

from pathlib import Path


class PageError(Exception):
    """A problem in a page, at a 1-based line of its Markdown source.

    Printed as ``FILE:LINE: message``, the form editors and terminals turn into links.
    """

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        super().__init__(message)
        self.path = str(path)
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.path!r}, {self.line}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PageError) and (self.path, self.line, self.message) == (
            other.path, other.line, other.message)

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.message))


class PageWarning(PageError):
    """Something in a page that is probably a mistake but does not stop it from running
    (an unknown info-string key, for instance)."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: warning: {self.message}"
