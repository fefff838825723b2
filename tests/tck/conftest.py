"""The openCypher TCK plugin for this folder; its hooks live in tests/tck/plugin.py."""

from tests.tck.plugin import pytest_addoption, pytest_configure, pytest_pycollect_makemodule

__all__ = ["pytest_addoption", "pytest_configure", "pytest_pycollect_makemodule"]
