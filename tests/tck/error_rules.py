"""Whether a raised error is the one a scenario expects: `a <Type> should be raised at <phase>: <Detail>`.

One table of rules, each a predicate on (expected, error); a mismatch names the rule that failed.
- type: the engine's `.kind` must be the TCK's type name. `Error` accepts any Cypher error,
  and the TCK's `ConstraintValidationFailed` also accepts the engine's `ConstraintVerificationFailed`.
- phase: `any time` accepts both; otherwise the error's `.phase` must agree when the error states one.
- detail: `*` accepts any; otherwise `.detail` must be the TCK's detail code (an engine that gives no detail
  fails this rule: the detail is part of what the TCK checks).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

EXPECT_ERROR = re.compile(
    r"an? (?P<type>\w+) should be raised at (?P<phase>compile time|runtime|any time): (?P<detail>\S+)")

ANY_TYPE = "Error"
ANY_PHASE = "any time"
ANY_DETAIL = "*"
KIND_ALIASES: dict[str, frozenset[str]] = {
    "ConstraintValidationFailed": frozenset({"ConstraintValidationFailed", "ConstraintVerificationFailed"}),
}


@dataclass(frozen=True)
class ExpectedError:
    type: str
    phase: str
    detail: str

    @classmethod
    def from_step(cls, text: str) -> ExpectedError | None:
        found = EXPECT_ERROR.fullmatch(text)
        return cls(found["type"], found["phase"], found["detail"]) if found else None

    def __str__(self) -> str:
        return f"{self.type} at {self.phase}: {self.detail}"


def _type_ok(expected: ExpectedError, error: Exception) -> bool:
    kind = getattr(error, "kind", None)
    return expected.type == ANY_TYPE or kind in KIND_ALIASES.get(expected.type, frozenset({expected.type}))


def _phase_ok(expected: ExpectedError, error: Exception) -> bool:
    phase = getattr(error, "phase", None)
    return expected.phase == ANY_PHASE or phase is None or phase == expected.phase


def _detail_ok(expected: ExpectedError, error: Exception) -> bool:
    return expected.detail == ANY_DETAIL or getattr(error, "detail", None) == expected.detail


ERROR_RULES: tuple[tuple[str, Callable[[ExpectedError, Exception], bool]], ...] = (
    ("type", _type_ok),
    ("phase", _phase_ok),
    ("detail", _detail_ok),
)


def describe(error: Exception) -> str:
    """`SyntaxError at compile time: UndefinedVariable (message)`, or `Type: message` for other errors."""
    message = str(error).splitlines()[0] if str(error) else ""
    if not hasattr(error, "kind"):
        return f"{type(error).__name__}: {message}"
    phase = getattr(error, "phase", None) or "unknown phase"
    return f"{error.kind} at {phase}: {getattr(error, 'detail', None)} ({message})"


def error_mismatch(expected: ExpectedError, error: Exception) -> str | None:
    """None when `error` is the expected one, else which rules it broke."""
    broken = [name for name, rule in ERROR_RULES if not rule(expected, error)]
    if not broken:
        return None
    return f"wrong error ({', '.join(broken)}): expected {expected}, got {describe(error)}"
