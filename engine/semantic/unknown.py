"""The parameters EXPLAIN was not given: each binds as an unknown value of no known type (ANY), as it would be
typed at run time, and checks of a value (a LIMIT's) pass it by."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class Unknown:
    """The value of a parameter EXPLAIN was not given: of no known type (ANY), as it would be at run time."""

    def __repr__(self) -> str:
        return "<unknown>"


class WithUnknowns(Mapping[str, Any]):
    """Parameters for EXPLAIN: the given ones, and an Unknown for any other name."""

    def __init__(self, given: Mapping[str, Any] | None) -> None:
        self._given = dict(given or {})

    def __getitem__(self, name: str) -> Any:
        return self._given.get(name, UNKNOWN)

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)


UNKNOWN = Unknown()
