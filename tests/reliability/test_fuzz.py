"""Fuzzing, short form: a few hundred generated and mutated inputs per front end (long form:
`python -m tests.reliability.long --fuzz-cases N`)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.reliability.corpus import TCK_INDEX, TCK_MISSING, page_statements, tck_statements
from tests.reliability.fuzzing import (
    ExecutionCheck,
    check_cypher,
    check_page,
    mutated,
    mutated_pages,
    small_pages,
    token_streams,
)

SHORT = settings(max_examples=200, deadline=None, database=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))


@SHORT
@given(token_streams())
def test_generated_token_streams(text):
    check_cypher(text)


@pytest.mark.skipif(not TCK_INDEX.exists(), reason=TCK_MISSING)
@SHORT
@given(mutated(tck_statements() if TCK_INDEX.exists() else ("RETURN 1",)))
def test_mutated_tck_statements(text):
    check_cypher(text)


@SHORT
@given(mutated(page_statements()))
def test_mutated_page_statements(text):
    check_cypher(text)


@SHORT
@given(mutated_pages(small_pages()))
def test_mutated_pages(text):
    check_page(text)


EXECUTE = ExecutionCheck()


@settings(SHORT, max_examples=20)
@given(mutated([*page_statements(), *(tck_statements() if TCK_INDEX.exists() else ())]))
def test_mutated_statements_run_to_a_result_or_an_engine_error(text):
    EXECUTE(text)


def test_every_corpus_statement_passes_the_front_end_check():
    """The unmutated corpus: what the engine accepts or refuses, it does so with positions."""
    for statement in [*page_statements(), *(tck_statements() if TCK_INDEX.exists() else ())]:
        check_cypher(statement)
