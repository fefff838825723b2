"""Values compared exactly: numbers by their type and floats by their sign, which `==` does not tell apart."""

from __future__ import annotations

import math


def exact(value: object) -> object:
    """`value` with each number tagged by its type and each float by its sign, so 1 != 1.0 and 0.0 != -0.0."""
    if isinstance(value, dict):
        return {key: exact(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [exact(item) for item in value]
    if isinstance(value, float):
        return ("float", value, math.copysign(1.0, value))
    return (type(value).__name__, value)
